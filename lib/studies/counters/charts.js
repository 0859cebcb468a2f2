'use strict';
// The counters study's charts (lib/report/chart-kit.js shapes): the day's writes/s minute by minute,
// the writes/s ratio to the baseline hour by hour, and the cost of one $inc at minute 0 vs 1439.
const { ratioInterval } = require('../../../scripts/lib/stats');
const kit = require('../../report/chart-kit');
const { dayResults, wpsOf } = require('./records');
const { minuteOfHour } = require('./schedule');

function subtitle(env, doc) {
  const p = (doc && doc.params && doc.params.counters) || {};
  return `${p.METRICS} metrics, ${p.PER_MINUTE} hits/min, ${p.WRITERS} writer(s) ${p.WC} | ${kit.envLine(env, { cpu: true })}`;
}

// No interval whiskers (#36 item 6): every dot is one simulated minute's own rate, the spread itself.
function dayChart(records, env, doc) {
  const recs = dayResults(records);
  if (!recs.length) return null;
  const p = (doc && doc.params && doc.params.counters) || { RUNS: 60, WARMUP: 0 };
  // times[i] of an hour is its (WARMUP + i)-th simulated minute
  const values = recs.flatMap((r) =>
    r.times.map((_, i) => ({
      schema: r.variant,
      wps: Math.round(wpsOf(r, i)),
      hour: r.axis.day * 24 + r.axis.hour + minuteOfHour(p, p.WARMUP + i) / 60,
    })),
  );
  return kit.dotRows({
    name: 'day',
    title: 'Writes per second through the simulated day, per schema (each dot one simulated minute)',
    subtitle: subtitle(env, doc),
    values,
    x: {
      field: 'hour',
      title: 'simulated time of day (hours)',
      domain: [0, 24 * Math.max(1, ...recs.map((r) => r.axis.day + 1))],
    },
    y: { field: 'wps', title: 'writes/s', log: 'auto', zero: false },
    rows: { field: 'schema', order: [...new Set(recs.map((r) => r.variant))] },
  });
}

function ratioChart(records, env, doc) {
  const recs = dayResults(records);
  if (!recs.length) return null;
  const to = recs[0].ratio ? recs[0].ratio.to : 'the baseline';
  const values = recs
    .filter((r) => r.ratio)
    .map((r) => ({
      schema: r.variant,
      hour: r.axis.day * 24 + r.axis.hour + 0.5,
      ...kit.speedupOf(r),
      kind: /timeseries|minute-docs|bulk/.test(r.variant) ? "today's alternative" : "source's schema",
    }));
  return kit.lines({
    name: 'ratios',
    title: `Writes/s ratio to ${to} per simulated hour (per-minute ratios, 95% interval)`,
    subtitle: subtitle(env, doc),
    values,
    x: { field: 'hour', title: 'simulated time of day (hours)' },
    y: { title: `writes/s ratio to ${to}`, log: 'auto', zero: false },
    series: { field: 'schema', order: [...new Set(recs.map((r) => r.variant))] },
    dash: { field: 'kind', title: 'line', order: ["source's schema", "today's alternative"] },
    points: false,
    line: { strokeWidth: 2 },
    whisker: { opacity: 0.7 },
  });
}

const AT = { 'minute-0': 'minute 0 (00:00)', 'minute-1439': 'minute 1439 (23:59)' };

// Each scan record twice: as the client measured it and as the server's latencyStats did.
function scanValues(recs) {
  const client = recs.map((r) => ({
    layout: r.axis.layout,
    mode: r.axis.mode,
    at: AT[r.variant],
    side: 'client',
    // the run's interval (ms) in the chart's unit: us per update
    ...kit.timeOf(r, r.extra.usPerUpdate / r.median),
  }));
  const server = recs.map((r) => ({
    layout: r.axis.layout,
    mode: r.axis.mode,
    at: AT[r.variant],
    side: 'server (latencyStats)',
    value: r.extra.serverUsPerUpdate,
    ...serverInterval(r.extra.serverUsSamples),
  }));
  return client.concat(server);
}

// The server's per-round us per update: the same t-interval on log values, from 3 rounds.
function serverInterval(samples) {
  const iv = samples && samples.length >= 3 && samples.every((x) => x > 0) ? ratioInterval(samples) : null;
  return iv && iv.lo !== null ? { lo: iv.lo, hi: iv.hi } : {};
}

function scanChart(records, env) {
  const recs = records.filter((r) => r.type === 'result' && r.axis && r.axis.part === 'scan' && r.extra);
  if (!recs.length) return null;
  // the four figures of a layout side by side, so that their whiskers do not hide each other
  const values = scanValues(recs).map((v) => ({ ...v, slot: `${v.at} ${v.side}` }));
  const ends = values.flatMap((v) => [v.value, v.lo, v.hi]).filter((x) => typeof x === 'number' && x > 0);
  return kit.dots({
    name: 'scan',
    title: 'Cost of one $inc: first vs last minute of the day, per layout and way of sending (log scale)',
    subtitle: [
      `1,000 updates per bulk, 200 single round trips, updateMany over 200 documents; median of ${recs[0].runs} interleaved rounds`,
      `${kit.WHISKERS} | ${kit.envLine(env, { cpu: true })}`,
    ],
    values,
    x: { field: 'layout', order: ['flat', 'hierarchical', 'array'] },
    y: {
      title: 'microseconds per update (log)',
      log: true,
      domain: [0.8 * Math.min(...ends), 1.25 * Math.max(...ends)],
      nice: false,
    },
    color: { field: 'at', title: 'field updated', colors: ['#332288', '#CC6677'] },
    group: 'slot',
    shape: { field: 'side', title: 'measured by' },
    panels: { field: 'mode', order: ['bulk', 'updateMany', 'single'], independent: [] },
    width: 240,
    height: 300,
  });
}

module.exports = [dayChart, ratioChart, scanChart];
