'use strict';
// Human-readable summaries in hyperfine's manner: mean ± σ, min..max, "N times faster than".
const lab = require('../scripts/lib/lab');

function fmtRatio(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/**
 * Summary of a study's rows (as the scripts emitted them): who ran fastest, by how much. Rows of
 * different tables (a `table` key: a grain, a batch size...) are summarised table by table.
 */
function summarizeRows(rows) {
  const tables = new Map();
  for (const r of rows) {
    if (typeof r.ratio !== 'number' || !r.variant) continue;
    const key = r.table === undefined ? '' : String(r.table);
    if (!tables.has(key)) tables.set(key, []);
    tables.get(key).push(r);
  }
  return [...tables].map(([key, group]) => (key ? `[${key}] ` : '') + summarizeTable(group)).join('\n\n');
}

function summarizeTable(rows) {
  if (!rows.length) return '';
  const fastest = rows.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  const out = ['Summary (median of per-round ratios from interleaved runs; range in brackets)', `  ${fastest.variant} ran`];
  for (const r of [...rows].sort((a, b) => a.ratio - b.ratio)) {
    if (r === fastest) continue;
    let range = '';
    if (!r.capped && !fastest.capped && r.times.length === fastest.times.length) {
      const per = r.times.map((t, i) => t / fastest.times[i]);
      range = ` (${fmtRatio(Math.min(...per))}..${fmtRatio(Math.max(...per))})`;
    } else {
      range = ' (single run)';
    }
    out.push(`    ${fmtRatio(r.ratio)}${range} times faster than ${r.variant}`);
  }
  return out.join('\n');
}

/** Summary of a lib/harness.js interleave() result. */
function summarizeComparison(res) {
  const names = Object.keys(res.variants);
  const lines = names.map((n) => {
    const v = res.variants[n];
    return `  ${n.padEnd(12)} ${lab.fmtMs(v.mean)} ± ${lab.fmtMs(v.sd)}   [${lab.fmtMs(v.min)}..${lab.fmtMs(v.max)}]   ${v.runs} runs`;
  });
  for (const n of names) {
    if (n === res.baseline) continue;
    const r = res.variants[n].ratio;
    // Say it the way round that gives a number >= 1, with the per-round range in the same sense.
    const line = r.median >= 1
      ? `${fmtRatio(r.median)} (${fmtRatio(r.min)}..${fmtRatio(r.max)}) times slower than`
      : `${fmtRatio(1 / r.median)} (${fmtRatio(1 / r.max)}..${fmtRatio(1 / r.min)}) times faster than`;
    lines.push(`  ${n} ran ${line} ${res.baseline} (median of per-round ratios)`);
  }
  return lines.join('\n');
}

module.exports = { summarizeRows, summarizeComparison, fmtRatio };
