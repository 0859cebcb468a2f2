'use strict';
// The inserts study's chart: documents per second against batch size, one panel per way of
// writing, one line per writer count, the server's own insert rate dotted.
const LabFormat = require('../../../scripts/lib/format');
const kit = require('../../report/chart-kit');
const { docsPerSec } = require('./records');

// The server's own insert rate ($merge inside the server) at this document size, or null.
function serverCeiling(records, size) {
  const ceil = records
    .filter((r) => r.type === 'result' && !r.skipped && r.variant === 'server-copy' && r.axis.size === size)
    .map(docsPerSec)
    .filter(Boolean);
  return ceil.length ? Math.max(...ceil) : null;
}

const PANELS = {
  shell: 'mongosh (1 writer)',
  async: 'async loops, one client',
  connections: 'one connection each',
  processes: 'one process each',
  pg: 'PostgreSQL sessions',
};

/** One panel per way of writing (mongosh, async loops, connections, processes, PostgreSQL). */
function docsPerSecChart(records, env) {
  const recs = records.filter(
    (r) =>
      r.type === 'result' &&
      !r.skipped &&
      r.axis.part === 'batch' &&
      Object.keys(PANELS).includes(r.variant) &&
      docsPerSec(r),
  );
  if (!recs.length) return null;
  const panels = Object.keys(PANELS).filter((v) => recs.some((r) => r.variant === v));
  const ceiling = serverCeiling(records, recs[0].axis.size);
  const Ws = [...new Set(recs.map((r) => r.axis.W))].sort((a, b) => a - b);
  return kit.lines({
    name: 'docs-per-s',
    title: 'Inserts: documents per second against batch size, by concurrent writers',
    subtitle: [
      `${LabFormat.fmtInt(recs[0].answer)} documents of ${LabFormat.fmtInt(recs[0].axis.size)} B per run; median of rounds, whiskers: 95% interval; log scales` +
        (ceiling
          ? `; dotted: the server's own insert rate ($merge inside the server) ${LabFormat.fmtInt(Math.round(ceiling))}/s`
          : ''),
      `MongoDB ${env.server.version} standalone (wiredTiger) | ${env.host.cores} cores | ${env.startedAt.slice(0, 10)}`,
    ],
    // the point is the records' documents/s; the whisker, the time's interval inverted to a rate
    values: recs.map((r) => {
      const rate = kit.rateOf(r, r.answer);
      return { panel: PANELS[r.variant], batch: r.axis.batch, W: r.axis.W, ...rate, value: docsPerSec(r) };
    }),
    x: { field: 'batch', title: 'batch size (log)', log: true, ticks: [1, 10, 100, 1000, 10000] },
    y: { title: 'documents/s (log)', log: true },
    series: { field: 'W', type: 'ordinal', order: Ws, title: 'writers W' },
    dash: true,
    rules: ceiling ? [{ y: ceiling }] : [],
    panels: { field: 'panel', order: panels.map((v) => PANELS[v]), independent: [] },
    width: 190,
    height: 260,
  });
}

module.exports = { docsPerSecChart };
