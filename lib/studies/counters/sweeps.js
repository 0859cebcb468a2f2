'use strict';
// The counters study's measurement sweeps after the day: minute 0 vs minute 1439 per layout and
// way of sending (finding 3), and writers x write concerns on a thinned day, on the lab's server
// and on a 3-member replica set (w:"majority").
const lab = require('../../../scripts/lib/lab');
const { ParameterError } = require('../../infra/errors');
const { interleave } = require('../../core/harness');
const day = require('./day');
const micro = require('./micro');
const { COUNTERS, streamOf } = require('./schedule');

/**
 * The layout x mode pairs the scan times: SCAN_PAIRS (layout-mode names) or every pair. The claims
 * read the three layouts in bulk and flat in single round trips; the other pairs are for the table.
 */
function scanPairs(p, o) {
  const all = o.layouts.flatMap((layout) => o.modes.map((mode) => ({ layout, mode })));
  const only = lab.list(p.SCAN_PAIRS);
  for (const x of only)
    if (!all.some((a) => `${a.layout}-${a.mode}` === x))
      throw new ParameterError(
        `parameter SCAN_PAIRS: unknown pair ${JSON.stringify(x)} (known: ${all.map((a) => `${a.layout}-${a.mode}`).join(', ')})`,
      );
  return only.length ? all.filter((a) => only.includes(`${a.layout}-${a.mode}`)) : all;
}

/**
 * Minute 0 vs minute 1439 through the one harness: per layout and way of sending, the two fields
 * alternate round by round; records carry client and server (the collection's latencyStats) microseconds per update.
 * @param {object} [opt] { docs, bulk, single, rounds, layouts, modes } (defaults: the documented run's)
 */
async function scan(ctx, p, opt = {}) {
  const o = {
    docs: 200,
    bulk: 1000,
    single: 200,
    rounds: p.SCAN_ROUNDS || 9,
    layouts: micro.LAYOUTS,
    modes: micro.MODES,
    ...opt,
  };
  const pairs = scanPairs(p, o);
  await micro.prepareMicro(ctx.db, o.docs);
  // One untimed pass over every layout and mode first: the freshly written documents, the
  // checkpoint after them and the first commands would otherwise all land on the first layout.
  await ctx.db.admin().command({ fsync: 1 });
  for (const { layout, mode } of pairs)
    for (const at of ['first', 'last']) await micro.runOnce(ctx.db, layout, mode, at, o);
  const out = [];
  for (const { layout, mode } of pairs) out.push(...(await scanPair(ctx, p, o, layout, mode)));
  return out;
}

// One layout and mode: the two fields interleaved, each record with its server-side microseconds.
async function scanPair(ctx, p, o, layout, mode) {
  const server = { first: [], last: [] };
  const serverOps = { first: [], last: [] };
  const runners = ['first', 'last'].map((at) => ({
    name: at === 'first' ? 'minute-0' : 'minute-1439',
    run: async () => {
      const r = await micro.runOnce(ctx.db, layout, mode, at, o);
      server[at].push(r.serverUs / r.updates);
      serverOps[at].push(r.serverOps);
      return { ms: r.ms, answer: r.updates, extra: { updates: r.updates, field: micro.fieldOf(layout, at) } };
    },
  }));
  const res = await interleave(runners, { warmup: 1, rounds: o.rounds, baseline: 'minute-0' });
  const meta = {
    'minute-0': { what: `$inc ${micro.fieldOf(layout, 'first')} (${mode})`, where: 'node' },
    'minute-1439': { what: `$inc ${micro.fieldOf(layout, 'last')} (${mode})`, where: 'node' },
  };
  const recs = lab.pointRecords({ name: 'counters', unit: 'ms' }, p, { part: 'scan', layout, mode }, res, {}, { meta });
  for (const r of recs) {
    const at = r.variant === 'minute-0' ? 'first' : 'last';
    const timed = server[at].slice(1); // the first sample is the warm-up
    r.extra = {
      ...r.extra,
      usPerUpdate: (r.median * 1000) / r.extra.updates,
      serverUsPerUpdate: lab.median(timed),
      serverUsSamples: timed,
      serverOpsSamples: serverOps[at].slice(1),
    };
  }
  return recs;
}

const M = (name, variant, axis, value, unit, what) =>
  lab.measureRecord({ study: 'counters', name, variant, axis, value, unit, what });

// Writers and write concerns on a thinned day (one minute in 60): median writes/s per schema.
async function writersSweep(ctx, p, { uri, dbName, db, configs, label }) {
  const out = [];
  const schemas = COUNTERS;
  for (const { writers, wc } of configs) {
    const r = await day.simulateDay({
      db,
      uri,
      dbName,
      schemas,
      prefix: `${p.PREFIX}sweep_`,
      stream: streamOf(p),
      days: 1,
      every: 60,
      writers,
      wc,
    });
    const base = new Map(r.samples.filter((x) => x.schema === 'preallocated').map((x) => [x.minute, x]));
    for (const s of schemas) {
      const xs = r.samples.filter((x) => x.schema === s);
      const axis = { part: label, writers, wc };
      const wps = Math.round(lab.median(xs.map((x) => x.wps)));
      const ratio = Number(lab.median(xs.map((x) => x.wps / base.get(x.minute).wps)).toFixed(3));
      out.push(
        M('writes-per-s', `node-${s}`, axis, wps, 'writes/s', `median over ${xs.length} simulated minutes (one in 60)`),
        M('ratio-to-preallocated', `node-${s}`, axis, ratio, 'x', 'median per-minute writes/s ratio'),
      );
    }
    ctx.log(`counters: ${label} writers=${writers} wc=${wc} done`);
  }
  return out;
}

/** The writers sweep on the lab's server: 1, 4, 16 writers, w:1 and w:0. */
function serverSweep(ctx, p) {
  const configs = [];
  for (const writers of [1, 4, 16]) for (const wc of ['w1', 'w0']) configs.push({ writers, wc });
  return writersSweep(ctx, p, { uri: ctx.server.uri, dbName: ctx.dbName, db: ctx.db, configs, label: 'writers' });
}

/** The writers sweep on a 3-member replica set of its own: 1 and 16 writers, w:1 and w:"majority". */
async function replsetSweep(ctx, p) {
  // required here: `list` reads the studies without a server (the driver and the replica set load slowly)
  const { startReplSet } = require('./replset');
  const { MongoClient } = require('mongodb');
  ctx.log('counters: starting a 3-member replica set for w:"majority"');
  const rs = await startReplSet({ members: 3, log: ctx.log });
  const client = new MongoClient(rs.uri);
  try {
    await client.connect();
    const configs = [];
    for (const writers of [1, 16]) for (const wc of ['w1', 'majority']) configs.push({ writers, wc });
    return await writersSweep(ctx, p, {
      uri: rs.uri,
      dbName: ctx.dbName,
      db: client.db(ctx.dbName),
      configs,
      label: 'replset',
    });
  } finally {
    await client.close();
    await rs.stop();
  }
}

module.exports = { M, scan, writersSweep, serverSweep, replsetSweep };
