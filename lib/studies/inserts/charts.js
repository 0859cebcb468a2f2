'use strict';
// The inserts study's chart: documents per second against batch size, one panel per way of
// writing, one line per writer count, the server's own insert rate dotted.
const lab = require('../../../scripts/lib/lab');
const { PALETTE, chartTime } = require('../../report/report');
const { docsPerSec } = require('./records');

// The server's own insert rate ($merge inside the server) at this document size, or null.
function serverCeiling(records, size) {
  const ceil = records
    .filter((r) => r.type === 'result' && !r.skipped && r.variant === 'server-copy' && r.axis.size === size)
    .map(docsPerSec)
    .filter(Boolean);
  return ceil.length ? Math.max(...ceil) : null;
}

// A run's 95 % interval of the typical time (report.js chartTime) as documents/s: a rate inverts it.
function rateInterval(r) {
  const t = chartTime(r);
  return t.lo === undefined ? {} : { lo: (r.answer / t.hi) * 1000, hi: (r.answer / t.lo) * 1000 };
}

// The docs-per-s chart's panel: one line per writer count W with its whiskers, the server's ceiling dotted.
function docsPerSecLayers(Ws) {
  return [
    {
      transform: [{ filter: "datum.kind === 'writers' && isValid(datum.lo)" }],
      mark: { type: 'rule' },
      encoding: {
        x: { field: 'batch', type: 'quantitative', scale: { type: 'log' } },
        y: { field: 'lo', type: 'quantitative', scale: { type: 'log' }, title: 'documents/s (log)' },
        y2: { field: 'hi' },
        color: { field: 'W', type: 'ordinal', sort: Ws, scale: { range: PALETTE }, title: 'writers W' },
      },
    },
    {
      transform: [{ filter: "datum.kind === 'writers'" }],
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'batch',
          type: 'quantitative',
          scale: { type: 'log' },
          title: 'batch size (log)',
          axis: { values: [1, 10, 100, 1000, 10000] },
        },
        y: { field: 'rate', type: 'quantitative', scale: { type: 'log' }, title: 'documents/s (log)' },
        color: { field: 'W', type: 'ordinal', sort: Ws, scale: { range: PALETTE }, title: 'writers W' },
        strokeDash: {
          field: 'W',
          type: 'ordinal',
          sort: Ws,
          scale: {
            range: [
              [1, 0],
              [6, 3],
              [2, 2],
              [8, 2, 2, 2],
              [4, 4],
              [1, 3],
            ],
          },
          title: 'writers W',
        },
      },
    },
    {
      transform: [{ filter: "datum.kind === 'ceiling'" }],
      mark: { type: 'rule', color: '#888888', strokeDash: [2, 2] },
      encoding: { y: { field: 'rate', type: 'quantitative' } },
    },
  ];
}

/** One panel per way of writing (mongosh, async loops, connections, processes, PostgreSQL). */
function docsPerSecChart(records, env) {
  const recs = records.filter(
    (r) =>
      r.type === 'result' &&
      !r.skipped &&
      r.axis.part === 'batch' &&
      ['async', 'connections', 'processes', 'pg', 'shell'].includes(r.variant) &&
      docsPerSec(r),
  );
  if (!recs.length) return null;
  const panels = ['shell', 'async', 'connections', 'processes', 'pg'].filter((v) => recs.some((r) => r.variant === v));
  const label = {
    shell: 'mongosh (1 writer)',
    async: 'async loops, one client',
    connections: 'one connection each',
    processes: 'one process each',
    pg: 'PostgreSQL sessions',
  };
  const ceiling = serverCeiling(records, recs[0].axis.size);
  const values = recs.map((r) => ({
    panel: label[r.variant],
    batch: r.axis.batch,
    W: r.axis.W,
    rate: docsPerSec(r),
    ...rateInterval(r),
    kind: 'writers',
  }));
  if (ceiling) for (const v of panels) values.push({ panel: label[v], rate: ceiling, kind: 'ceiling' });
  const Ws = [...new Set(recs.map((r) => r.axis.W))].sort((a, b) => a - b);
  return {
    name: 'docs-per-s',
    title: {
      text: 'Inserts: documents per second against batch size, by concurrent writers',
      subtitle: [
        `${lab.fmtInt(recs[0].answer)} documents of ${lab.fmtInt(recs[0].axis.size)} B per run; median of rounds, whiskers: 95% interval; log scales` +
          (ceiling
            ? `; dotted: the server's own insert rate ($merge inside the server) ${lab.fmtInt(Math.round(ceiling))}/s`
            : ''),
        `MongoDB ${env.server.version} standalone (wiredTiger) | ${env.host.cores} cores | ${env.startedAt.slice(0, 10)}`,
      ],
    },
    data: { values },
    facet: { column: { field: 'panel', type: 'nominal', sort: panels.map((v) => label[v]), title: null } },
    spec: {
      width: 190,
      height: 260,
      layer: docsPerSecLayers(Ws),
    },
    resolve: { scale: { y: 'shared' } },
    config: { legend: { symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300 } },
  };
}

module.exports = { docsPerSecChart };
