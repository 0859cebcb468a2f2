'use strict';
// The mapreduce study's chart and its table's numbers: documents per millisecond by batch size,
// one line per variant, the dash saying where the statistics were computed.
const lab = require('../../../scripts/lib/lab');
const { PALETTE, chartTime } = require('../../report/report');
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
  const colourOf = (v, i) => PG_COLOURS[v] || PALETTE[i % PALETTE.length];
  const recs = records.filter((r) => r.type === 'result' && !r.skipped && !isInsert(r));
  const variants = [...new Set(recs.map((r) => r.variant))];
  const n = Math.max(...recs.map((r) => r.axis.batch));
  return {
    title: {
      text: 'Statistics of one field: documents per millisecond by batch size',
      subtitle: [
        `up to ${lab.fmtInt(n)} documents | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores`,
        'solid lines: computed in MongoDB; dashed: in the client (Node driver); dash-dot: PyMongo',
        'dotted: PostgreSQL (the SQL peer); higher is better; whiskers: 95% interval (t on log times, 3+ rounds)',
      ],
    },
    width: 640,
    height: 400,
    data: {
      values: recs.map((r) => ({
        variant: r.variant,
        batch: r.axis.batch,
        rate: r.axis.batch / r.median,
        ...rateInterval(r),
        where: whereDrawn(r),
      })),
    },
    layer: [
      { mark: { type: 'line', point: true }, encoding: rateEncoding(variants, colourOf) },
      {
        transform: [{ filter: 'isValid(datum.lo)' }],
        mark: { type: 'rule' },
        encoding: {
          x: { field: 'batch', type: 'quantitative', scale: { type: 'log' } },
          y: {
            field: 'lo',
            type: 'quantitative',
            scale: { type: 'log' },
            title: 'documents per millisecond (log)',
          },
          y2: { field: 'hi' },
          color: {
            field: 'variant',
            type: 'nominal',
            sort: variants,
            scale: { domain: variants, range: variants.map(colourOf) },
          },
        },
      },
    ],
  };
}

// A run's 95 % interval of the typical time (report.js chartTime) as documents per millisecond.
function rateInterval(r) {
  const t = chartTime(r);
  return t.lo === undefined ? {} : { lo: r.axis.batch / t.hi, hi: r.axis.batch / t.lo };
}

// The rate lines: one colour per variant, the dash says where the statistics were computed.
function rateEncoding(variants, colourOf) {
  return {
    x: {
      field: 'batch',
      type: 'quantitative',
      scale: { type: 'log' },
      title: 'documents per batch (log)',
      axis: { format: '~s' },
    },
    y: { field: 'rate', type: 'quantitative', scale: { type: 'log' }, title: 'documents per millisecond (log)' },
    color: {
      field: 'variant',
      type: 'nominal',
      sort: variants,
      scale: { domain: variants, range: variants.map(colourOf) },
      title: 'variant',
    },
    strokeDash: {
      field: 'where',
      type: 'nominal',
      legend: null,
      scale: {
        domain: ['in MongoDB', 'client (Node driver)', 'client (PyMongo)', 'PostgreSQL'],
        range: [
          [1, 0],
          [6, 3],
          [8, 2, 2, 2],
          [2, 2],
        ],
      },
    },
  };
}

module.exports = { rateChart, isInsert, fmtRate };
