#!/usr/bin/env node
'use strict';
// The source-scale load, measured: N events (default 50,000,000) through the lab's loader, with a
// bare insertMany of the same first documents as the yardstick, in the same run on the same server.
//
//   node lib/studies/timeseries/load-bench.js [--n 50000000] [--bare 5000000] [--seed 1] [--uri URI] [--db random]
//                             [--cache-gb N] [--json FILE] [--states]
//
// - bare: one insertMany of 10,000 documents at a time, each awaited before the next (what a
//   simple script does), into <coll>_bare, which is dropped afterwards;
// - loader: fixtures/timeseries.js (lib/infra/loader.js streamInsert: 4 unordered batches in flight,
//   progress bar, duplicate-safe), then the index on created_on; its rate over the same first
//   --bare documents is reported beside the bare rate, and its rate over all N.
// - re-run safety: the first 100,000 events are streamed again and must add nothing.
// Memory is sampled every 5 s (resident set size) and the peak is read from the kernel.
// --states then runs the study's cold and warm states (lib/studies/timeseries/index.js statesOnServer:
// restarts, warm-ups, the three grains) on the loaded events, at the source's scale; memory is
// read before that, so it is the loader's.
// Safety: <db>.<coll> and <coll>_bare are dropped only when the lab's marker says they are the
// lab's (lib/infra/targets.js); a collection of the user's stops the bench with one line. --uri is used
// as given. Errors are one line (stack with --debug); the process always exits.
const { parseArgs } = require('util');
const fs = require('fs');
const path = require('path');
const { MongoClient } = require('mongodb');
const { getServer } = require('../../infra/server');
const { streamInsert, ensureFixture } = require('../../infra/loader');
const { checkTarget, assertOwned, dropOwned, META } = require('../../infra/targets');
const { friendly, debugEnabled, clientOptions, UsageError } = require('../../infra/errors');
const cleanup = require('../../infra/cleanup');
const { checkWritableFile } = require('../../infra/output-paths');
const tsFixture = require('../../../fixtures/timeseries');

const MB = 1024 * 1024;

function rate(n, ms) { return Math.round(n / (ms / 1000)); }

async function bareInsert(coll, n, seed, batchSize) {
  const t0 = Date.now();
  let batch = [];
  for (const d of tsFixture.events(n, seed)) {
    batch.push(d);
    if (batch.length === batchSize) { await coll.insertMany(batch); batch = []; }
  }
  if (batch.length) await coll.insertMany(batch);
  return Date.now() - t0;
}

async function main() {
  const { values } = parseArgs({ options: {
    n: { type: 'string', default: '50000000' }, bare: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' }, uri: { type: 'string' }, db: { type: 'string', default: 'random' },
    'cache-gb': { type: 'string' }, json: { type: 'string' }, states: { type: 'boolean' }, debug: { type: 'boolean' },
  } });
  const whole = (name, max) => {
    const v = values[name];
    if (!/^\d+(e\+?\d+)?$/i.test(v) || !Number.isInteger(Number(v))) throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(v)}`);
    if (Number(v) > max) throw new UsageError(`--${name}: ${v} is more than this bench can do (at most ${max})`);
    return Number(v);
  };
  const n = whole('n', 1e9);
  const bareN = Math.min(n, whole('bare', 1e9));
  const seed = whole('seed', 2 ** 32 - 1);
  if (n < 1) throw new UsageError('--n: at least 1');
  checkTarget(values.db, tsFixture.COLL);
  let cacheGB;
  if (values['cache-gb'] !== undefined) {
    cacheGB = Number(values['cache-gb']);
    if (!/^(\d+(\.\d*)?|\.\d+)$/.test(values['cache-gb']) || !(cacheGB >= 0.25) || cacheGB > require('os').totalmem() / 2 ** 30) {
      throw new UsageError(`--cache-gb: expected a number of GB from 0.25 to this machine's memory, got ${JSON.stringify(values['cache-gb'])}`);
    }
  }
  checkWritableFile(values.json, '--json');
  cleanup.install({ root: true, watchdog: true });

  const rss = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 5000);
  const server = await getServer({ uri: values.uri, cacheSizeGB: cacheGB });
  const client = new MongoClient(server.uri, clientOptions(server.uri));
  const out = { n, bareN, seed, server: { version: server.version, storageEngine: server.storageEngine, cacheSizeBytes: server.cacheSizeBytes } };
  try {
    await client.connect();
    const db = client.db(values.db);
    const log = (m) => process.stderr.write(m + '\n');
    log(`MongoDB ${server.version} ${server.storageEngine}, cache ${(server.cacheSizeBytes / 1073741824).toFixed(2)} GB; ${n} events, bare yardstick ${bareN}`);

    // Both collections are the lab's to replace only if its marker says so.
    const bareName = `${tsFixture.COLL}_bare`;
    await assertOwned(db, tsFixture.COLL, 'replace');
    await assertOwned(db, bareName, 'replace');
    const bare = db.collection(bareName);
    await dropOwned(db, bareName);
    await db.collection(META).replaceOne({ _id: bareName }, { _id: bareName, fixture: 'bench-bare', n: bareN, seed, complete: false }, { upsert: true });
    const bareMs = await bareInsert(bare, bareN, seed, 10000);
    await dropOwned(db, bareName);
    out.bare = { docs: bareN, ms: bareMs, perSec: rate(bareN, bareMs) };
    log(`bare insertMany: ${bareN} in ${(bareMs / 1000).toFixed(1)} s = ${out.bare.perSec}/s`);

    await dropOwned(db, tsFixture.COLL);
    // Note when the loader has read the first bareN events, for a like-for-like rate.
    let firstMs = null;
    const t0 = Date.now();
    const watched = function* (count, s) {
      let i = 0;
      for (const d of tsFixture.events(count, s)) {
        if (i++ === bareN) firstMs = Date.now() - t0;
        yield d;
      }
    };
    const res = await ensureFixture(db, tsFixture.COLL, { fixture: tsFixture.FIXTURE, n, seed }, () => watched(n, seed), { progress: true });
    const loadMs = Date.now() - t0;
    const i0 = Date.now();
    await db.collection(tsFixture.COLL).createIndex({ created_on: 1 });
    const indexMs = Date.now() - i0;
    out.loader = { docs: res.inserted, ms: loadMs, perSec: rate(n, loadMs), firstDocs: bareN,
      firstMs: firstMs === null ? loadMs : firstMs, firstPerSec: rate(bareN, firstMs === null ? loadMs : firstMs),
      indexMs, totalPerSec: rate(n, loadMs + indexMs) };
    log(`loader: ${res.inserted} in ${(loadMs / 1000).toFixed(1)} s = ${out.loader.perSec}/s (first ${bareN}: ${out.loader.firstPerSec}/s); index ${(indexMs / 1000).toFixed(1)} s`);

    const again = await streamInsert(db.collection(tsFixture.COLL), tsFixture.events(Math.min(n, 100000), seed), { progress: false });
    out.rerun = { read: again.read, inserted: again.inserted };
    out.count = await db.collection(tsFixture.COLL).countDocuments();
    const st = await db.command({ collStats: tsFixture.COLL });
    out.sizes = { dataSize: st.size, storageSize: st.storageSize, totalIndexSize: st.totalIndexSize, indexSizes: st.indexSizes };
    log(`re-run of the first ${again.read}: inserted ${again.inserted}; count ${out.count}`);
    out.memory = {
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      sampledRssMB: { min: Math.round(Math.min(...rss) / MB), max: Math.round(Math.max(...rss) / MB), samples: rss.length },
    };
    clearInterval(sampler);
    if (values.states) {
      if (typeof server.restart !== 'function') throw new Error('--states needs a server the bench starts (no --uri)');
      await client.close();
      const timeseries = require('./index');
      const records = await timeseries.helpers.statesOnServer({ server, dbName: values.db, params: { COLL: tsFixture.COLL, N: n, SEED: seed },
        echo: (t) => log(t), log });
      out.events = n;
      out.states = records;
      log(timeseries.helpers.stateTableLines(records, ['seconds', 'minutes', 'hours']).join('\n'));
    }
  } finally {
    clearInterval(sampler);
    await client.close();
    await server.stop();
  }
  const text = JSON.stringify(out, null, 2) + '\n';
  if (values.json) {
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    fs.writeFileSync(values.json, text);
  }
  process.stdout.write(text);
}

main().then(() => process.exit(0), (e) => {
  process.stderr.write(`ts-load-bench: ${friendly(e)}\n`);
  if (debugEnabled()) process.stderr.write(`${e.stack}\n`);
  // exit, not exitCode: an unreachable server must not leave the process waiting on a pool.
  process.exit(e instanceof UsageError ? 2 : 1);
});
