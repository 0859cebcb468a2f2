'use strict';
// The mapreduce study's chart and its table's numbers: documents per millisecond by batch size,
// one line per variant, the dash saying where the statistics were computed.
const LabFormat = require('../../../scripts/lib/format');
const kit = require('../../report/chart-kit');
const client = require('./client');

function isInsert(r) {
  return /^insert-/.test(r.variant);
}

function fmtRate(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
}

// Where a variant computes, drawn as its line's dashes.
const IN_SERVER = new Set(client.CLIENT_VARIANTS.filter((v) => v.inServer).map((v) => v.name));
const whereDrawn = (r) =>
  /^pg-/.test(r.variant)
    ? 'PostgreSQL'
    : /^py-/.test(r.variant)
      ? 'client (PyMongo)'
      : r.where === 'node' && !IN_SERVER.has(r.variant)
        ? 'client (Node driver)'
        : 'in MongoDB';

/** The source's table as a chart: documents per millisecond against batch size, log scales. */
function rateChart(records, env) {
  // Thirteen lines: the palette's colours run out, so the PostgreSQL peers get black and grey
  // (and dots) rather than a colour that repeats a MongoDB variant's.
  const PG_COLOURS = { 'pg-jsonb': '#888888', 'pg-typed': '#000000' };
  const colourOf = (v, i) => PG_COLOURS[v] || kit.PALETTE[i % kit.PALETTE.length];
  const recs = records.filter((r) => r.type === 'result' && !r.skipped && !isInsert(r));
  const variants = [...new Set(recs.map((r) => r.variant))];
  const n = Math.max(...recs.map((r) => r.axis.batch));
  return kit.lines({
    title: 'Statistics of one field: documents per millisecond by batch size',
    subtitle: [
      `up to ${LabFormat.fmtInt(n)} documents | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores`,
      'solid lines: computed in MongoDB; dashed: in the client (Node driver); dash-dot: PyMongo',
      'dotted: PostgreSQL (the SQL peer); higher is better; whiskers: 95% interval (t on log times, 3+ rounds)',
    ],
    // a rate inverts the time's interval (kit.rateOf): documents per millisecond
    values: recs.map((r) => ({
      variant: r.variant,
      batch: r.axis.batch,
      ...kit.rateOf(r, r.axis.batch, 1),
      where: whereDrawn(r),
    })),
    x: { field: 'batch', title: 'documents per batch (log)', log: true, format: '~s' },
    y: { title: 'documents per millisecond (log)', log: true },
    series: { field: 'variant', order: variants, colors: colourOf, title: 'variant' },
    // the dash says where the statistics were computed
    dash: {
      field: 'where',
      order: ['in MongoDB', 'client (Node driver)', 'client (PyMongo)', 'PostgreSQL'],
      range: [
        [1, 0],
        [6, 3],
        [8, 2, 2, 2],
        [2, 2],
      ],
      legend: null,
    },
    width: 640,
    height: 400,
  });
}

module.exports = { rateChart, isInsert, fmtRate };
