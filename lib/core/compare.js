'use strict';
// `mongo-perf-lab compare OLD.json NEW.json`: per study, variant and axis point, the change in
// median time with a 95 % interval (bootstrap: both runs' samples resampled independently, ratio
// of medians), and whether a change beyond the threshold is statistically clear. A user keeps a
// baseline of their server and checks it after an upgrade or a configuration change.
const lab = require('../../scripts/lib/lab');

function keyOf(r) {
  return `${r.study}\u0000${r.variant}\u0000${JSON.stringify(r.axis || {})}`;
}

/** Bootstrap interval of median(new) / median(old). */
function changeInterval(oldTimes, newTimes, { resamples = 2000, seed = 7 } = {}) {
  if (oldTimes.length < 2 || newTimes.length < 2) return null;
  // One seeded stream for both sides, so the same files always give the same interval.
  const next = lab.rng(seed);
  const ratios = [];
  for (let r = 0; r < resamples; r++) {
    const a = oldTimes.map(() => oldTimes[Math.floor(next() * oldTimes.length)]);
    const b = newTimes.map(() => newTimes[Math.floor(next() * newTimes.length)]);
    ratios.push(lab.median(b) / lab.median(a));
  }
  ratios.sort((x, y) => x - y);
  return [lab.percentile(ratios, 0.025), lab.percentile(ratios, 0.975)];
}

/**
 * @param {object} oldDoc result file
 * @param {object} newDoc result file
 * @param {object} [o] { threshold: 0.1 }
 * @returns {{rows: object[], slower: number, faster: number}}
 */
function compareResults(oldDoc, newDoc, { threshold = 0.1 } = {}) {
  const olds = new Map(oldDoc.results.filter((r) => r.type === 'result' && !r.skipped).map((r) => [keyOf(r), r]));
  const news = new Map(newDoc.results.filter((r) => r.type === 'result' && !r.skipped).map((r) => [keyOf(r), r]));
  const rows = [];
  for (const [k, n] of news) {
    const o = olds.get(k);
    const row = { study: n.study, variant: n.variant, axis: n.axis || {}, newMedian: n.median, oldMedian: o ? o.median : null };
    if (!o) {
      rows.push({ ...row, verdict: 'new' });
      continue;
    }
    row.change = n.median / o.median;
    row.ci = changeInterval(o.times || [], n.times || []);
    if (!row.ci) row.verdict = 'unclear (too few runs)';
    else if (row.ci[0] > 1 + threshold) row.verdict = 'slower';
    else if (row.ci[1] < 1 / (1 + threshold)) row.verdict = 'faster';
    else if (row.ci[0] > 1 / (1 + threshold) && row.ci[1] < 1 + threshold) row.verdict = 'same';
    else row.verdict = 'unclear';
    rows.push(row);
  }
  for (const [k, o] of olds) if (!news.has(k)) rows.push({ study: o.study, variant: o.variant, axis: o.axis || {}, oldMedian: o.median, newMedian: null, verdict: 'gone' });
  return { rows, slower: rows.filter((r) => r.verdict === 'slower').length, faster: rows.filter((r) => r.verdict === 'faster').length, threshold };
}

function pct(x) {
  const v = (x - 1) * 100;
  return `${v >= 0 ? '+' : ''}${v.toFixed(v > -10 && v < 10 ? 1 : 0)}%`;
}

/** The readable table. */
function compareLines(res) {
  const lines = lab.tableLines([
    { key: 'study', title: 'study' }, { key: 'variant', title: 'variant' }, { key: 'point', title: 'axis point' },
    { key: 'old', title: 'old median', right: true }, { key: 'new', title: 'new median', right: true },
    { key: 'change', title: 'change', right: true }, { key: 'ci', title: '95% CI of change', right: true }, { key: 'verdict', title: 'verdict' },
  ], res.rows.map((r) => ({
    study: r.study, variant: r.variant, point: lab.pointLabel(r.axis) || '-',
    old: r.oldMedian === null ? '-' : lab.fmtMs(r.oldMedian), new: r.newMedian === null ? '-' : lab.fmtMs(r.newMedian),
    change: r.change === undefined ? '' : pct(r.change), ci: r.ci ? `${pct(r.ci[0])}..${pct(r.ci[1])}` : '',
    verdict: r.verdict === 'slower' || r.verdict === 'faster' ? r.verdict.toUpperCase() : r.verdict,
  })));
  lines.push('', `${res.slower} clearly slower, ${res.faster} clearly faster beyond ±${Math.round(res.threshold * 100)}% ` +
    '(95% bootstrap interval of the change entirely beyond the threshold)');
  return lines;
}

module.exports = { compareResults, compareLines, changeInterval };
