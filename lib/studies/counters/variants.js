'use strict';
// The Node variants of the simulated day: each schema written by WRITERS concurrent connections,
// fed the very same hits minute by minute (fixtures/counters-gen.js); their collections, made
// before the day, and the day's answer counted in plain JavaScript.
const { took } = require('../../../scripts/lib/harness');
const { list } = require('../../../scripts/lib/params');
const { ParameterError } = require('../../infra/errors');
const { Latency } = require('../../core/latency');
const gen = require('../../../fixtures/counters-gen');
const day = require('./day');
const runs = require('./state');
const { target, ownCollections } = require('./schemas');
const { NODE_SCHEMAS, minuteOfHour, streamOf } = require('./schedule');

const WHAT = {
  preallocated: 'flat minute.MMMM, preallocated (p = 1/2000 per hit, tomorrow)',
  initial: 'flat minute.MMMM, grown by the upserts',
  hierarchical: 'minute.HH.MM, preallocated',
  array: 'minute: [1440], preallocated',
  timeseries: 'one document per hit in a time-series collection; $group on read',
  'minute-docs': 'one small document per (metric, minute), upsert $inc {n: 1}; unique index',
  bulk: 'per writer and minute, client-side sums sent as one unordered bulkWrite (hierarchical documents)',
};
const NODE_VARIANTS = NODE_SCHEMAS.map((s) => `node-${s}`).join(',');

function chosenNode(p) {
  const only = list(p.VARIANTS);
  return NODE_SCHEMAS.filter((s) => !only.length || only.includes(`node-${s}`));
}

// What a target holds for one simulated hour, summed over metrics (read untimed after its last minute).
async function hourAnswer(db, t, p, point) {
  const dayMs = gen.START + point.day * gen.DAY_MS;
  const out = { hits: 0, minutes: new Array(60).fill(0) };
  for (let k = 0; k < p.METRICS; k++) {
    const mins = await t.readDay(db, dayMs, gen.metricName(k));
    for (let i = 0; i < 60; i++) out.minutes[i] += mins[point.hour * 60 + i];
  }
  out.hits = out.minutes.reduce((a, b) => a + b, 0);
  return out;
}

function nodeVariant(schema) {
  return {
    name: `node-${schema}`,
    what: `${WHAT[schema]}; WRITERS connections`,
    minVersion: schema === 'timeseries' ? '5.0' : '3.2',
    async run(ctx, p, point) {
      const st = runs.of(ctx);
      const t = st.targets.get(schema);
      const key = `${schema}|${point.day}|${point.hour}`;
      const k = st.cursor.get(key) || 0;
      st.cursor.set(key, k + 1);
      const n = p.RUNS + p.WARMUP;
      if (k >= n) throw new Error(`counters: hour ${point.day}/${point.hour} ran more than RUNS + WARMUP = ${n} times`);
      const minute = point.hour * 60 + minuteOfHour(p, k);
      const hits = gen.minuteHits(streamOf(p), point.day, minute);
      const lat = new Latency();
      const wc = day.writeConcern(p.WC);
      // the hour's barrier waits, summed over its minutes (the last minute's record carries them)
      if (!st.waits) st.waits = new Map();
      if (!st.waits.has(key)) st.waits.set(key, day.newWaits());
      const ms = await day.runSlot(st.writers, t, hits, wc, lat, st.waits.get(key));
      const answer = k === n - 1 ? await hourAnswer(ctx.db, t, p, point) : { hits: hits.length };
      // w:0: the writes between two of its writer's barriers (the source's getLastError every 100th),
      // and the share of the writers' time spent waiting at them over the hour's minutes so far
      // (barrierWait: who set the rate, the server or the client; the 004 day claims' gate reads it)
      const every = day.barrierEvery(t, wc);
      const extra = { hitsPerMinute: hits.length, minute, writers: p.WRITERS, wc: p.WC };
      const paced = every ? { ...extra, barrierEvery: every, barrierWait: day.barrierShare(st.waits.get(key)) } : extra;
      return Object.assign(took(ms, answer, paced), { latency: lat });
    },
  };
}

/** The Node variants' collections (the lab's own, re-created) and their writers' connections. */
async function loadDay(ctx, p) {
  if (!['w1', 'w0', 'majority'].includes(p.WC))
    throw new ParameterError(`parameter WC: expected w1, w0 or majority, got ${JSON.stringify(p.WC)}`);
  if (p.RUNS + p.WARMUP < 1 || p.RUNS + p.WARMUP > 60)
    throw new ParameterError(
      `parameter RUNS: RUNS + WARMUP are the simulated minutes per hour: 1..60, got ${p.RUNS + p.WARMUP}`,
    );
  const st = runs.open(ctx);
  const names = chosenNode(p);
  const prefix = `${p.PREFIX}node_`;
  st.targets = new Map(names.map((n) => [n, target(n, prefix)]));
  await ownCollections(ctx.db, [...st.targets.values()]);
  for (const t of st.targets.values()) if (t.preallocates) await t.preallocateDay(ctx.db, gen.START, p.METRICS);
  st.writers = names.length ? await day.openWriters(ctx.server.uri, ctx.dbName, p.WRITERS) : null;
  // closed after the day; the runner's clean-ups close them too when a run stops half-way
  if (st.writers && ctx.cleanups) ctx.cleanups.push(() => st.writers.close());
  return { own: true, name: 'counters-004', coll: `${prefix}*`, count: 0 };
}

/** The hits of the hour's simulated minutes, counted in plain JavaScript. */
function hourOracle(p, point) {
  const out = { hits: 0, minutes: new Array(60).fill(0) };
  const dayMs = gen.START + point.day * gen.DAY_MS;
  for (let k = 0; k < p.RUNS + p.WARMUP; k++) {
    for (const hit of gen.minuteHits(streamOf(p), point.day, point.hour * 60 + minuteOfHour(p, k))) {
      out.minutes[Math.floor((hit.t - dayMs) / 60000) - point.hour * 60]++;
      out.hits++;
    }
  }
  return out;
}

module.exports = { WHAT, NODE_VARIANTS, nodeVariant, loadDay, hourOracle };
