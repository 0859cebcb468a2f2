'use strict';
// The joins study's chart: each variant's median time as a horizontal bar with its 95 % interval,
// labelled with its time and its plan's stage, coloured by where the join ran.
const LabFormat = require('../../../scripts/lib/format');
const kit = require('../../report/chart-kit');

// Where each variant joins.
function kindOf(variant) {
  if (variant === 'pg-join') return 'PostgreSQL';
  if (variant === 'client' || variant === 'node-map') return 'MongoDB, join in the client';
  return 'MongoDB, $lookup in the server';
}

// A plan's stage and engine, written after the time.
function engineOf(r) {
  return r.plan ? ` · ${r.plan.stage}${r.plan.explainVersion === '2' ? ' (SBE)' : ''}` : '';
}

/** Every timed variant, fastest first; the log axis wide enough for the whiskers and the labels past them. */
function timesChart(records, env, doc) {
  const recs = records.filter((r) => r.type === 'result' && !r.skipped);
  if (!recs.length) return null;
  const params = (doc && doc.params && doc.params.joins) || {};
  const values = recs.map((r) => ({
    variant: r.variant,
    ...kit.timeOf(r),
    kind: kindOf(r.variant),
    label: `${LabFormat.fmtMs(r.median)}${engineOf(r)}`,
  }));
  const order = [...values].sort((a, b) => a.value - b.value).map((v) => v.variant);
  const lo = Math.min(...values.map((v) => v.lo || v.value)) / 2;
  const hi = Math.max(...values.map((v) => v.hi || v.value)) * 8;
  return kit.bars({
    name: 'times',
    title: 'Joins: every order joined to its customer, all rows to the client',
    subtitle: [
      `${LabFormat.fmtInt(params.ORDERS || 0)} orders x ${LabFormat.fmtInt(params.CUSTOMERS || 0)} customers; median of the rounds, whiskers: 95% interval; log scale`,
      `MongoDB ${env.server.version} standalone, PostgreSQL peer | ${env.host.cores} cores | ${env.startedAt.slice(0, 10)}`,
    ],
    values,
    horizontal: true,
    x: { field: 'variant', order, title: null },
    y: { title: 'median time, ms (log)', log: true, domain: [lo, hi] },
    color: {
      field: 'kind',
      title: null,
      colors: ['#332288', '#88CCEE', '#DDCC77'],
      legend: { orient: 'bottom' },
    },
    group: false,
    labels: { field: 'label' },
    width: 560,
    height: 28 * values.length,
  });
}

module.exports = { timesChart };
