'use strict';
// A simulated day of hits, driven by W concurrent writers (each its own MongoClient with one
// connection), every schema fed the same hits, minute by minute, interleaved (the order of the
// schemas alternates every simulated minute) so drift on a shared machine hits all alike.
const { performance } = require('perf_hooks');
const { median } = require('../../../scripts/lib/lab');
const gen = require('../../../fixtures/counters-gen');
const { target, ownCollections } = require('./schemas');

const WRITE_CONCERNS = { w1: { w: 1 }, w0: { w: 0 }, majority: { w: 'majority' } };

function writeConcern(name) {
  const wc = WRITE_CONCERNS[name];
  if (!wc)
    throw new Error(`unknown write concern ${JSON.stringify(name)} (known: ${Object.keys(WRITE_CONCERNS).join(', ')})`);
  return wc;
}

/** W clients, one connection each: the source's writers were separate processes with their own sockets. */
async function openWriters(uri, dbName, W) {
  const clients = [];
  for (let i = 0; i < W; i++) {
    const { MongoClient } = require('mongodb'); // required here: `list` reads the studies without a server
    const c = new MongoClient(uri, { maxPoolSize: 1, minPoolSize: 1 });
    await c.connect();
    clients.push(c);
  }
  return { dbs: clients.map((c) => c.db(dbName)), close: () => Promise.all(clients.map((c) => c.close())) };
}

// The source's writer (writer.py:47-49) sent unacknowledged upserts and made a getLastError every
// 100th write and at each simulated minute's end: at most 100 writes in flight, its rate paced by
// the server. A w:0 writer that waited only at the minute's end would time its own sends into a
// socket buffer for most of the minute.
const BARRIER_EVERY = 100;

/**
 * The writes between two barriers of a writer at this write concern (the records' barrierEvery), or
 * null: acknowledged writes wait for each one; a batched target (bulk: one bulkWrite per writer and
 * minute) has only the minute's end.
 */
function barrierEvery(t, wc) {
  return wc.w === 0 && !t.batched ? BARRIER_EVERY : null;
}

/**
 * Writes one slot's hits to one target with all writers; resolves to wall milliseconds.
 * Hit k goes to writer k mod W. With w:0 every writer waits for a barrier, a ping on its own
 * connection (maxPoolSize 1), after every BARRIER_EVERY of its hits and at the end of its share:
 * the server answers it only after the unacknowledged writes sent before it, so the time still
 * covers the server's work. The share is written in slices of that size by the target's own
 * write, unchanged. lat (optional, lib/core/latency.js): each hit's writes timed as one operation.
 * waits (optional, { waitMs, slotMs }): adds the writers' time spent waiting at their barriers and
 * W x the slot's wall time, whose quotient (barrierShare) says who set the rate (see barrierShare).
 */
async function runSlot(writers, t, hits, wc, lat, waits) {
  const W = writers.dbs.length;
  const shares = Array.from({ length: W }, () => []);
  hits.forEach((h, k) => shares[k % W].push(h));
  const every = barrierEvery(t, wc);
  let waitMs = 0;
  const t0 = performance.now();
  await Promise.all(
    shares.map(async (share, i) => {
      const db = writers.dbs[i];
      const step = every || share.length;
      for (let k = 0; k < share.length; k += step) {
        await t.write(db, share.slice(k, k + step), wc, lat);
        if (wc.w === 0) {
          const b0 = performance.now();
          await db.command({ ping: 1 });
          waitMs += performance.now() - b0;
        }
      }
    }),
  );
  const ms = performance.now() - t0;
  if (waits) {
    waits.waitMs += waitMs;
    waits.slotMs += ms * W;
  }
  return ms;
}

/** A fresh accumulator of runSlot's barrier waits. */
const newWaits = () => ({ waitMs: 0, slotMs: 0 });

/**
 * The share of the writers' time spent waiting at their barriers (the records' barrierWait), or
 * null when no barrier was timed. At w:0 a writer's sends return once written to its socket, so a
 * pipelined writer waits at a ping only for the server to apply what it sent before: a share near 0
 * says the server kept up with the client (the rate is the client's own ceiling), a share s says
 * the server was the slower side and the client could have sent about 1/(1 - s) times as fast.
 */
function barrierShare(waits) {
  return waits && waits.slotMs > 0 && waits.waitMs > 0 ? Math.round((waits.waitMs / waits.slotMs) * 1000) / 1000 : null;
}

/**
 * Prepares the targets' collections (the lab's own) and preallocates the first day for the
 * schemas that preallocate (as if yesterday's hits had done it).
 */
async function prepare(db, names, o, prefix) {
  const targets = names.map((n) => target(n, prefix));
  await ownCollections(db, targets);
  for (const t of targets)
    if (t.preallocates) await t.preallocateDay(db, o.start === undefined ? gen.START : o.start, o.metrics);
  return targets;
}

/**
 * @param {object} a { db, uri, dbName, schemas: names, prefix (of the collections, default 'counters_'), stream: {seed, metrics, perMinute}, days, every,
 *   writers: W, wc: 'w1'|'w0'|'majority', onSlot(i, n) }
 * @returns {Promise<{samples: {schema, day, minute, ms, hits, wps}[], slots}>}
 */
async function simulateDay(a) {
  const wc = writeConcern(a.wc || 'w1');
  const targets = await prepare(a.db, a.schemas, a.stream, a.prefix);
  const slots = gen.slots(a.days || 1, a.every || 1);
  const writers = await openWriters(a.uri, a.dbName, a.writers || 1);
  const samples = [];
  try {
    for (let i = 0; i < slots.length; i++) {
      const { day, minute } = slots[i];
      const hits = gen.minuteHits(a.stream, day, minute);
      const order = i % 2 === 0 ? targets : [...targets].reverse();
      for (const t of order) {
        const ms = await runSlot(writers, t, hits, wc);
        samples.push({ schema: t.name, day, minute, ms, hits: hits.length, wps: (hits.length / ms) * 1000 });
      }
      if (a.onSlot) a.onSlot(i + 1, slots.length);
    }
  } finally {
    await writers.close();
  }
  return { samples, slots, targets };
}

/**
 * Per schema and simulated hour: median writes/s, and the median of per-minute ratios
 * wps(schema) / wps(baseline) (same minute, same hits, adjacent in time).
 */
function hourly(samples, baseline = 'preallocated') {
  const base = new Map(samples.filter((s) => s.schema === baseline).map((s) => [`${s.day}|${s.minute}`, s]));
  const groups = new Map();
  for (const s of samples) {
    const k = `${s.schema}|${s.day}|${Math.floor(s.minute / 60)}`;
    if (!groups.has(k))
      groups.set(k, { schema: s.schema, day: s.day, hour: Math.floor(s.minute / 60), wps: [], ratios: [] });
    const g = groups.get(k);
    g.wps.push(s.wps);
    const b = base.get(`${s.day}|${s.minute}`);
    if (b) g.ratios.push(s.wps / b.wps);
  }
  return [...groups.values()].map((g) => ({
    schema: g.schema,
    day: g.day,
    hour: g.hour,
    minutes: g.wps.length,
    wps: median(g.wps),
    ratio: g.ratios.length ? median(g.ratios) : null,
  }));
}

/** Storage per schema after a checkpoint: sizes per document and per metric-day that received hits. */
async function sizes(db, targets, metricDays) {
  await db.admin().command({ fsync: 1 });
  const out = {};
  for (const t of targets) {
    const [st] = await db
      .collection(t.coll)
      .aggregate([{ $collStats: { storageStats: {} } }])
      .toArray();
    const s = st.storageStats;
    const [bs] =
      t.kind === 'counter'
        ? await db
            .collection(t.coll)
            .aggregate([
              { $group: { _id: null, avg: { $avg: { $bsonSize: '$$ROOT' } }, max: { $max: { $bsonSize: '$$ROOT' } } } },
            ])
            .toArray()
        : [null];
    const count = s.count !== undefined ? s.count : await db.collection(t.coll).estimatedDocumentCount();
    out[t.name] = {
      docs: count,
      dataSize: s.size,
      storageSize: s.storageSize,
      indexSize: s.totalIndexSize,
      perMetricDay: (s.storageSize + s.totalIndexSize) / metricDays,
      avgBsonSize: bs ? bs.avg : null,
      maxBsonSize: bs ? bs.max : null,
    };
  }
  return out;
}

/**
 * The cost of reading one day's minutes of one metric back (1,440 counts), per schema: `rounds`
 * rounds in alternating schema order, each reading every metric once; checks each answer.
 * @param {(metric) => number[]} expected the oracle's minutes
 */
async function readCost(db, targets, dayMs, metrics, expected, rounds = 5) {
  const times = Object.fromEntries(targets.map((t) => [t.name, []]));
  let wrong = Object.fromEntries(targets.map((t) => [t.name, 0]));
  const names = Array.from({ length: metrics }, (_, k) => gen.metricName(k));
  for (let r = 0; r <= rounds; r++) {
    // round 0 warms up and checks the answers
    const order = r % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) {
      const t0 = performance.now();
      for (const m of names) {
        const got = await t.readDay(db, dayMs, m);
        if (r === 0) {
          const want = expected(m);
          if (got.length !== want.length || got.some((n, i) => n !== want[i])) wrong[t.name]++;
        }
      }
      if (r > 0) times[t.name].push((performance.now() - t0) / metrics);
    }
  }
  const out = {};
  for (const t of targets) {
    const base = times.preallocated || times[targets[0].name];
    out[t.name] = {
      msPerRead: median(times[t.name]),
      times: times[t.name],
      wrongReads: wrong[t.name],
      ratio: median(times[t.name].map((x, i) => x / base[i])),
    };
  }
  return out;
}

module.exports = {
  simulateDay,
  runSlot,
  newWaits,
  barrierShare,
  barrierEvery,
  BARRIER_EVERY,
  openWriters,
  prepare,
  hourly,
  sizes,
  readCost,
  writeConcern,
  WRITE_CONCERNS,
};
