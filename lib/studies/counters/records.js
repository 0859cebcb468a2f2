'use strict';
// Reading the day's records back: shared by the study's tables and its claims.
const LabStats = require('../../../scripts/lib/stats');

const dayResults = (records) =>
  records.filter((r) => r.type === 'result' && !r.skipped && r.axis && r.axis.hour !== undefined);
const wpsOf = (r, i) => ((r.extra ? r.extra.hitsPerMinute : 0) * 1000) / r.times[i];

// Node's variant when the run has it, else the shell's.
function pick(records, schema) {
  const recs = dayResults(records);
  const node = recs.filter((r) => r.variant === `node-${schema}`);
  return node.length ? node : recs.filter((r) => r.variant === schema);
}

/** Median writes/s of a schema over the given hours of the last simulated day. */
function wpsOver(records, schema, hours) {
  const recs = pick(records, schema);
  if (!recs.length) return null;
  const lastDay = Math.max(...recs.map((r) => r.axis.day));
  const xs = recs
    .filter((r) => r.axis.day === lastDay && hours.includes(r.axis.hour))
    .flatMap((r) => r.times.map((_, i) => wpsOf(r, i)));
  return xs.length ? LabStats.median(xs) : null;
}

/** Per-minute writes/s ratios schema / baseline over the given hours of the last day (the same hits, adjacent in time). */
function ratiosOver(records, schema, base, hours) {
  const a = pick(records, schema);
  const b = pick(records, base);
  if (!a.length || !b.length) return [];
  const lastDay = Math.max(...a.map((r) => r.axis.day));
  const xs = [];
  for (const r of a.filter((x) => x.axis.day === lastDay && hours.includes(x.axis.hour))) {
    const q = b.find((x) => x.axis.day === r.axis.day && x.axis.hour === r.axis.hour);
    if (q)
      r.times.forEach((t, i) => {
        if (q.times[i]) xs.push(q.times[i] / t);
      });
  }
  return xs;
}

/** Median per-minute writes/s ratio schema / baseline over the given hours of the last day. */
function ratioOver(records, schema, base, hours) {
  const xs = ratiosOver(records, schema, base, hours);
  return xs.length ? LabStats.median(xs) : null;
}

function scanRatio(records, layout, mode) {
  const r = records.find(
    (x) =>
      x.type === 'result' &&
      x.variant === 'minute-1439' &&
      x.axis.part === 'scan' &&
      x.axis.layout === layout &&
      x.axis.mode === mode,
  );
  return r && r.ratio ? r.ratio.median : null;
}

module.exports = { dayResults, wpsOf, pick, wpsOver, ratiosOver, ratioOver, scanRatio };
