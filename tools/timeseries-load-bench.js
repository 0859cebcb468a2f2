#!/usr/bin/env node
'use strict';
// The source-scale load, measured: N events (default 50,000,000) through the lab's loader, with a
// bare insertMany of the same first documents as the yardstick, in the same run on the same server.
//
//   node tools/timeseries-load-bench.js [--n 50000000] [--bare 5000000] [--seed 1] [--uri URI] [--db random]
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
const { getServer } = require('../lib/infra/server');
const { streamInsert, ensureFixture } = require('../lib/infra/loader');
const { checkTarget, assertOwned, dropOwned, claim } = require('../lib/infra/targets');
const { friendly, debugEnabled, clientOptions, UsageError } = require('../lib/infra/errors');
const cleanup = require('../lib/infra/cleanup');
const { checkWritableFile } = require('../lib/infra/output-paths');
const tsFixture = require('../fixtures/timeseries');

const MB = 1024 * 1024;

function rate(n, ms) {
  return Math.round(n / (ms / 1000));
}

async function bareInsert(coll, n, seed, batchSize) {
  const t0 = Date.now();
  let batch = [];
  for (const d of tsFixture.events(n, seed)) {
    batch.push(d);
    if (batch.length === batchSize) {
      await coll.insertMany(batch);
      batch = [];
    }
  }
  if (batch.length) await coll.insertMany(batch);
  return Date.now() - t0;
}

/** The bench's options, checked before any work. */
function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      n: { type: 'string', default: '50000000' },
      bare: { type: 'string', default: '5000000' },
      seed: { type: 'string', default: '1' },
      uri: { type: 'string' },
      db: { type: 'string', default: 'random' },
      'cache-gb': { type: 'string' },
      json: { type: 'string' },
      states: { type: 'boolean' },
      debug: { type: 'boolean' },
    },
  });
  const whole = (name, max) => {
    const v = values[name];
    if (!/^\d+(e\+?\d+)?$/i.test(v) || !Number.isInteger(Number(v)))
      throw new UsageError(`--${name}: expected a whole number, got ${JSON.stringify(v)}`);
    if (Number(v) > max) throw new UsageError(`--${name}: ${v} is more than this bench can do (at most ${max})`);
    return Number(v);
  };
  const n = whole('n', 1e9);
  if (n < 1) throw new UsageError('--n: at least 1');
  checkTarget(values.db, tsFixture.COLL);
  let cacheGB;
  if (values['cache-gb'] !== undefined) {
    cacheGB = Number(values['cache-gb']);
    if (
      !/^(\d+(\.\d*)?|\.\d+)$/.test(values['cache-gb']) ||
      !(cacheGB >= 0.25) ||
      cacheGB > require('os').totalmem() / 2 ** 30
    ) {
      throw new UsageError(
        `--cache-gb: expected a number of GB from 0.25 to this machine's memory, got ${JSON.stringify(values['cache-gb'])}`,
      );
    }
  }
  checkWritableFile(values.json, '--json');
  return {
    n,
    bareN: Math.min(n, whole('bare', 1e9)),
    seed: whole('seed', 2 ** 32 - 1),
    uri: values.uri,
    db: values.db,
    cacheGB,
    json: values.json,
    states: values.states,
  };
}

/** The yardstick: bare insertMany of the first bareN events into <coll>_bare (the lab's, dropped after). */
async function measureBare(db, o, log) {
  // Both collections are the lab's to replace only if its marker says so.
  const bareName = `${tsFixture.COLL}_bare`;
  await assertOwned(db, tsFixture.COLL, 'replace');
  await assertOwned(db, bareName, 'replace');
  await claim(db, bareName, {
    kind: 'bench-bare',
    fresh: true,
    spec: { fixture: 'bench-bare', n: o.bareN, seed: o.seed },
  });
  const bareMs = await bareInsert(db.collection(bareName), o.bareN, o.seed, 10000);
  await dropOwned(db, bareName);
  const bare = { docs: o.bareN, ms: bareMs, perSec: rate(o.bareN, bareMs) };
  log(`bare insertMany: ${o.bareN} in ${(bareMs / 1000).toFixed(1)} s = ${bare.perSec}/s`);
  return bare;
}

/** The lab's loader over all n events, then the index; its rate over the first bareN beside the whole. */
async function measureLoader(db, o, log) {
  await dropOwned(db, tsFixture.COLL);
  // Note when the loader has read the first bareN events, for a like-for-like rate.
  let firstMs = null;
  const t0 = Date.now();
  const watched = function* (count, s) {
    let i = 0;
    for (const d of tsFixture.events(count, s)) {
      if (i++ === o.bareN) firstMs = Date.now() - t0;
      yield d;
    }
  };
  const res = await ensureFixture(
    db,
    tsFixture.COLL,
    { fixture: tsFixture.FIXTURE, n: o.n, seed: o.seed },
    () => watched(o.n, o.seed),
    { progress: true },
  );
  const loadMs = Date.now() - t0;
  const i0 = Date.now();
  await db.collection(tsFixture.COLL).createIndex({ created_on: 1 });
  const indexMs = Date.now() - i0;
  const first = firstMs === null ? loadMs : firstMs;
  const loader = {
    docs: res.inserted,
    ms: loadMs,
    perSec: rate(o.n, loadMs),
    firstDocs: o.bareN,
    firstMs: first,
    firstPerSec: rate(o.bareN, first),
    indexMs,
    totalPerSec: rate(o.n, loadMs + indexMs),
  };
  log(
    `loader: ${res.inserted} in ${(loadMs / 1000).toFixed(1)} s = ${loader.perSec}/s (first ${o.bareN}: ${loader.firstPerSec}/s); index ${(indexMs / 1000).toFixed(1)} s`,
  );
  return loader;
}

/** Re-run safety: the first 100,000 events streamed again must add nothing; then count and sizes. */
async function checkRerun(db, o, log) {
  const again = await streamInsert(db.collection(tsFixture.COLL), tsFixture.events(Math.min(o.n, 100000), o.seed), {
    progress: false,
  });
  const count = await db.collection(tsFixture.COLL).countDocuments();
  const st = await db.command({ collStats: tsFixture.COLL });
  log(`re-run of the first ${again.read}: inserted ${again.inserted}; count ${count}`);
  return {
    rerun: { read: again.read, inserted: again.inserted },
    count,
    sizes: {
      dataSize: st.size,
      storageSize: st.storageSize,
      totalIndexSize: st.totalIndexSize,
      indexSizes: st.indexSizes,
    },
  };
}

/** --states: the study's cold and warm states on the loaded events (restarts: a server the bench started). */
async function measureStates(server, o, log) {
  if (typeof server.restart !== 'function') throw new Error('--states needs a server the bench starts (no --uri)');
  const timeseries = require('../lib/studies/timeseries');
  const records = await timeseries.helpers.statesOnServer({
    server,
    dbName: o.db,
    params: { COLL: tsFixture.COLL, N: o.n, SEED: o.seed },
    echo: (t) => log(t),
    log,
  });
  log(timeseries.helpers.stateTableLines(records, ['seconds', 'minutes', 'hours']).join('\n'));
  return records;
}

function memoryOf(rss) {
  return {
    peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    sampledRssMB: {
      min: Math.round(Math.min(...rss) / MB),
      max: Math.round(Math.max(...rss) / MB),
      samples: rss.length,
    },
  };
}

async function main(argv) {
  const o = parseOptions(argv);
  cleanup.install({ root: true, watchdog: true });
  const log = (m) => process.stderr.write(m + '\n');
  const rss = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 5000);
  const server = await getServer({ uri: o.uri, cacheSizeGB: o.cacheGB });
  const client = new MongoClient(server.uri, clientOptions(server.uri));
  const out = {
    format: 'mongo-perf-lab/load-bench',
    version: 1,
    n: o.n,
    bareN: o.bareN,
    seed: o.seed,
    server: { version: server.version, storageEngine: server.storageEngine, cacheSizeBytes: server.cacheSizeBytes },
  };
  try {
    await client.connect();
    const db = client.db(o.db);
    log(
      `MongoDB ${server.version} ${server.storageEngine}, cache ${(server.cacheSizeBytes / 1073741824).toFixed(2)} GB; ${o.n} events, bare yardstick ${o.bareN}`,
    );
    out.bare = await measureBare(db, o, log);
    out.loader = await measureLoader(db, o, log);
    Object.assign(out, await checkRerun(db, o, log));
    // Memory is read before the states, so it is the loader's.
    out.memory = memoryOf(rss);
    clearInterval(sampler);
    if (o.states) {
      await client.close();
      out.events = o.n;
      out.states = await measureStates(server, o, log);
    }
  } finally {
    clearInterval(sampler);
    await client.close();
    await server.stop();
  }
  const text = JSON.stringify(out, null, 2) + '\n';
  if (o.json) {
    fs.mkdirSync(path.dirname(path.resolve(o.json)), { recursive: true });
    fs.writeFileSync(o.json, text);
  }
  process.stdout.write(text);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`ts-load-bench: ${friendly(e)}\n`);
    if (debugEnabled()) process.stderr.write(`${e.stack}\n`);
    // exit, not exitCode: an unreachable server must not leave the process waiting on a pool.
    process.exit(e instanceof UsageError ? 2 : 1);
  },
);
