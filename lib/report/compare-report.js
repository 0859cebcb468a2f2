'use strict';
// `compare`'s result (lib/core/compare.js) as a document of the report model: what differs between
// the two files, then per study and axis point a heading and a table of its variants (a row of
// every field in one table was 317 columns wide), then the summary. The terminal, Markdown and
// JSON outputs of `compare` all come from the same result.
const m = require('./model');
const { fmtMs, pointLabel, comparisonWords } = require('../../scripts/lib/format');
const { pct } = require('../core/compare');

const ms = (v) => (v === null || v === undefined ? m.textCell('-') : m.number(v, 'ms', fmtMs(v)));

/** The rows of one study at one axis point, in the order the result lists them. */
function groups(rows) {
  const out = new Map();
  for (const r of rows) {
    const key = `${r.study}\u0000${JSON.stringify(r.axis || {})}`;
    if (!out.has(key)) out.set(key, { study: r.study, axis: r.axis || {}, rows: [] });
    out.get(key).rows.push(r);
  }
  return [...out.values()];
}

/** The point's reference (the heading names it), and why it is not the run's baseline when it is not. */
function referenceOf(rows) {
  const row = rows.find((r) => r.measure === 'ratio' && r.pointReference) || {};
  return { name: row.pointReference || null, note: row.referenceNote };
}

/**
 * What a row's change is a change of, when the heading does not say it: '' for the ratio to the
 * point's reference (the heading names it), 'ratio to X' for another (the reference's own row),
 * 'time'.
 */
function measureText(r, ref) {
  if (r.measure === 'ratio') return r.reference === ref.name ? '' : `ratio to ${r.reference}`;
  return r.measure === 'time' ? 'time' : '';
}

/**
 * Each run's own comparison of the variant with its baseline, in the words of that run's summary
 * (LabStats.compareRecord, format.comparisonWords): said once when both runs say the same.
 */
function vsBaseText(r) {
  const [o, n] = [r.oldVsBase, r.newVsBase].map((c) => (c ? comparisonWords(c).cell : '-'));
  if (o === '-' && n === '-') return '';
  if (o === n) return n;
  // "2.21 -> 2.88x slower": one sense said once, so the cell stays narrow enough not to wrap.
  const [a, b] = [o, n].map((t) => /^([\d.]+)x (faster|slower)$/.exec(t));
  return a && b && a[2] === b[2] ? `${a[1]} -> ${b[1]}x ${b[2]}` : `${o} -> ${n}`;
}

function changeText(r, ref) {
  if (r.change === undefined) return '';
  const what = measureText(r, ref);
  return `${what ? `${what} ` : ''}${r.ci ? `${pct(r.change)} (${pct(r.ci[0])}..${pct(r.ci[1])})` : pct(r.change)}`;
}

/** The verdict cell: SLOWER / FASTER in capitals; a reason that repeats the verdict is said once. */
function verdictOf(r) {
  const label = r.verdict === 'slower' || r.verdict === 'faster' ? r.verdict.toUpperCase() : r.verdict;
  const why = r.why && r.why.startsWith(`${r.verdict}: `) ? r.why.slice(r.verdict.length + 2) : r.why;
  return m.verdictCell(r.verdict.replace(/\W+/g, '-'), label, why ? [why] : []);
}

function pointBlocks(g, level) {
  const ref = referenceOf(g.rows);
  const ratio = ref.name ? `; ratio: each round's time over ${ref.name}'s${ref.note ? ` (${ref.note})` : ''}` : '';
  return [
    m.heading(3, `${g.study}: ${pointLabel(g.axis) || '-'}${ratio}`),
    m.table(
      [
        'variant',
        { title: 'old', align: 'right' },
        { title: 'new', align: 'right' },
        { title: 'vs baseline', align: 'right' },
        { title: `change (${Math.round(level * 100)}% CI)`, align: 'right' },
        'verdict',
      ],
      g.rows.map((r) => [r.variant, ms(r.oldMedian), ms(r.newMedian), vsBaseText(r), changeText(r, ref), verdictOf(r)]),
      { verdictWrap: true },
    ),
  ];
}

/** What differs between the two files, one paragraph each. */
function differenceTexts(d) {
  const out = [];
  if (d.server.length) out.push(`server differs: ${d.server.join(', ')}`);
  if (d.onlyOld.length) out.push(`studies only in OLD: ${d.onlyOld.join(', ')}`);
  if (d.onlyNew.length) out.push(`studies only in NEW: ${d.onlyNew.join(', ')}`);
  for (const [st, p] of Object.entries(d.params)) {
    if (p.unknown) out.push(`${st}: parameters not recorded in one of the files: not checked`);
    if (p.workload.length)
      out.push(`${st}: parameters differ: ${p.workload.map((x) => x.text).join(', ')} (not compared)`);
    if (p.measurement.length) out.push(`${st}: measured differently: ${p.measurement.map((x) => x.text).join(', ')}`);
  }
  return out;
}

function summaryTexts(res) {
  const level = Math.round(res.level * 100);
  const out = [
    'old, new: the median time of each run; vs baseline: each run against its own baseline, as its summary said it ' +
      "(old -> new when they differ); change: of the ratio to the point's reference (the baseline, or the first " +
      'variant timed in every round when the baseline was not; the reference itself: to the next one), or of the ' +
      'time, new over old.',
    `${res.slower} clearly slower, ${res.faster} clearly faster beyond ±${+(res.threshold * 100).toFixed(2)}% ` +
      `(the ${level}% Welch t interval of the change entirely beyond the threshold; ` +
      `${res.absolute ? 'ratios to the reference, and absolute times' : 'per-round ratios to the reference; absolute times shown, not called'})`,
  ];
  const few = res.rows.filter((r) => r.verdict === 'too few rounds');
  if (few.length) {
    out.push(
      `${few.length} not called: too few rounds: ${few.reduce((n, r) => Math.min(n, r.oldRounds, r.newRounds), Infinity)}; ` +
        `use --runs ${res.suggestedRounds} (an interval needs at least ${res.minRounds} rounds on each side)`,
    );
  }
  return out;
}

/**
 * @param {object} res compareResults()'s result
 * @param {string[]} [servers] one line per file saying where it was measured (old, new)
 * @param {string} [title] the document's title (a Markdown page has one; the terminal needs none)
 */
function compareDocument(res, servers = [], title = '') {
  const blocks = [];
  const paragraphs = (texts) => texts.map((t) => m.paragraph(t));
  if (servers.length) blocks.push(...paragraphs([`old: ${servers[0]}`, `new: ${servers[1]}`]));
  blocks.push(...paragraphs(differenceTexts(res.differences)));
  for (const g of groups(res.rows)) blocks.push(...pointBlocks(g, res.level));
  blocks.push(...paragraphs(summaryTexts(res)));
  return m.doc(title, blocks);
}

module.exports = { compareDocument, differenceTexts };
