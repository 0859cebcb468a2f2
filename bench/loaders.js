#!/usr/bin/env node
'use strict';
// Each fixture loader against a bare awaited insertMany loop of the same documents, interleaved.
//
//   npm run bench:loaders -- [--n 500000] [--csv-n 100000] [--pairs 2] [--only ts,where,mot,stream,csv]
//                            [--uri URI] [--db perflab_bench] [--json FILE]
//
// - bare: the same generator, batches of the loader's batch size, `await coll.insertMany(batch)` one
//   after the other with the driver's defaults (what a simple script does); for the CSV importer, the
//   same files parsed and converted by its own functions into the same documents (same _ids).
// - loader: the lab's own path as a study calls it (ensureFixture/streamInsert with its batches in
//   flight, write concern j:true, every batch's outcome checked, the count verified at the end).
// - ABBA: pair i runs bare then loader when i is even, loader then bare when odd; every run starts
//   from a dropped collection. The figure is the median of the per-pair ratios (bare ms / loader ms:
//   above 1.0 the loader is faster), with the pairs' range.
// Not part of `npm test`: it loads the machine for minutes. Collections are the lab's (marked) in
// --db; a collection of the user's stops the bench (lib/infra/targets.js).
const { parseArgs } = require('util');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { MongoClient } = require('mongodb');
const { getServer } = require('../lib/infra/server');
const { streamInsert } = require('../lib/infra/loader');
const { dropOwned, checkTarget, createOwned } = require('../lib/infra/targets');
const readline = require('readline');
const {
  importCsv,
  splitRecord,
  toDocument,
  inferKinds,
  fieldNames,
  rowHasher,
  SAMPLE_ROWS,
} = require('../lib/infra/csv-import');
const { friendly, debugEnabled, UsageError } = require('../lib/infra/errors');
const cleanup = require('../lib/infra/cleanup');
const tsFixture = require('../fixtures/timeseries');
const whereFixture = require('../fixtures/where-ab');
const sensors = require('../fixtures/sensors');
const mot = require('../lib/studies/bigagg/mot');

const BATCH = 10000;

async function bareLoop(coll, docs, batchSize = BATCH) {
  let batch = [];
  for (const d of docs) {
    batch.push(d);
    if (batch.length === batchSize) {
      await coll.insertMany(batch);
      batch = [];
    }
  }
  if (batch.length) await coll.insertMany(batch);
}

/**
 * The CSV yardstick: the same files read line by line and converted by the importer's own functions
 * (same names, kinds, values and row-hash _ids), each batch of 2000 awaited before the next. No
 * rejects file, no outcome check, no verification: what a simple import script does.
 */
async function bareCsv(coll, files) {
  let batch = [];
  const send = async (doc) => {
    batch.push(doc);
    if (batch.length === 2000) {
      await coll.insertMany(batch);
      batch = [];
    }
  };
  for (const file of files) {
    const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    let names = null;
    let kinds = null;
    let hash = null;
    const sample = [];
    const convert = (fields) => toDocument(fields, names, kinds, () => hash(fields)).doc;
    for await (const line of rl) {
      const { fields } = splitRecord(line);
      if (!names) {
        names = fieldNames(fields, file);
        hash = rowHasher(names);
        continue;
      }
      if (!kinds) {
        sample.push(fields);
        if (sample.length < SAMPLE_ROWS) continue;
        kinds = inferKinds(names, sample);
        for (const f of sample.splice(0)) await send(convert(f));
        continue;
      }
      await send(convert(fields));
    }
    if (!kinds) {
      kinds = inferKinds(names, sample);
      for (const f of sample) await send(convert(f));
    }
  }
  if (batch.length) await coll.insertMany(batch);
}

const SNAPPY = { storageEngine: { wiredTiger: { configString: 'block_compressor=snappy' } } };

/**
 * Creates a side's collection as the lab's, its UUID in the marker (so dropOwned may drop it), for
 * the sides that do not create their own: the bare loops, streamInsert alone and the importer.
 */
async function own(db, name, c) {
  await createOwned(db, name, name === c.colls[0] ? c.bareOptions : {}, 'bench', { fixture: 'bench', n: c.n });
}

/** The cases: prepare() untimed, bare() and loader() timed. */
function cases({ n, csvN, tmp }) {
  const seed = 1;
  let csvFiles = null;
  return {
    ts: {
      what: 'fixtures/timeseries.js load (then its created_on index)',
      n,
      bare: async (db) => {
        await bareLoop(db.collection('ts_bare'), tsFixture.events(n, seed));
        await db.collection('ts_bare').createIndex({ created_on: 1 });
      },
      loader: (db) => tsFixture.load(db, { n, seed, coll: 'ts_loader' }),
      colls: ['ts_bare', 'ts_loader'],
    },
    where: {
      what: 'fixtures/where-ab.js load',
      n,
      bare: (db) => bareLoop(db.collection('where_bare'), whereFixture.docs(n, seed)),
      loader: (db) => whereFixture.load(db, { n, seed, coll: 'where_loader' }),
      colls: ['where_bare', 'where_loader'],
    },
    mot: {
      what: "bigagg's loadMot (snappy)",
      n,
      bareOptions: SNAPPY,
      bare: async (db) => {
        await bareLoop(
          db.collection('mot_bare'),
          (function* () {
            const next = require('../fixtures/gen').rng(seed);
            const M = require('../fixtures/mot-gen');
            for (let i = 0; i < n; i++) yield M.doc(next, i);
          })(),
        );
      },
      loader: (db) => mot.loadMot(db, 'mot_loader', { n, seed, compressor: 'snappy' }),
      colls: ['mot_bare', 'mot_loader'],
    },
    stream: {
      what: 'lib/infra/loader.js streamInsert alone (time-series events)',
      n,
      bare: (db) => bareLoop(db.collection('stream_bare'), tsFixture.events(n, seed)),
      loader: (db) => streamInsert(db.collection('stream_loader'), tsFixture.events(n, seed), { progress: false }),
      colls: ['stream_bare', 'stream_loader'],
      ownLoader: true,
    },
    csv: {
      what: 'lib/infra/csv-import.js importCsv (41 columns; bare: the same parse and conversion, awaited insertMany)',
      n: csvN,
      prepare: async () => {
        if (!csvFiles) csvFiles = await sensors.write(path.join(tmp, 'csv'), csvN, { seed });
      },
      bare: (db) => bareCsv(db.collection('csv_bare'), csvFiles),
      loader: (db) => importCsv(db, csvFiles, { coll: 'csv_loader', rejectsFile: path.join(tmp, 'rejects.csv') }),
      colls: ['csv_bare', 'csv_loader'],
      ownLoader: true,
    },
  };
}

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Drops the case's collections: each is the lab's by UUID (created by its loader or by own()). */
async function reset(db, colls) {
  for (const c of colls) await dropOwned(db, c);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function runCase(db, name, c, pairs, log) {
  if (c.prepare) await c.prepare(db);
  const runs = { bare: [], loader: [] };
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    const order = i % 2 === 0 ? ['bare', 'loader'] : ['loader', 'bare'];
    for (const side of order) {
      await reset(db, c.colls);
      const coll = side === 'bare' ? c.colls[0] : c.colls[1];
      if (side === 'bare' || c.ownLoader) await own(db, coll, c);
      runs[side].push(await timed(() => c[side](db)));
      const count = await db.collection(coll).countDocuments();
      if (count !== c.n) throw new Error(`${name} ${side}: ${count} documents stored, ${c.n} expected`);
    }
    ratios.push(runs.bare[i] / runs.loader[i]);
    log(
      `${name}: pair ${i + 1} (${order.join(' ')}): bare ${(runs.bare[i] / 1000).toFixed(1)} s, loader ${(runs.loader[i] / 1000).toFixed(1)} s, ratio ${ratios[i].toFixed(2)}x`,
    );
  }
  await reset(db, c.colls);
  const rate = (ms) => Math.round(c.n / (ms / 1000));
  return {
    case: name,
    what: c.what,
    docs: c.n,
    pairs,
    bareMs: runs.bare.map(Math.round),
    loaderMs: runs.loader.map(Math.round),
    bareRate: rate(median(runs.bare)),
    loaderRate: rate(median(runs.loader)),
    ratio: Number(median(ratios).toFixed(3)),
    ratioMin: Number(Math.min(...ratios).toFixed(3)),
    ratioMax: Number(Math.max(...ratios).toFixed(3)),
  };
}

function whole(values, name, min) {
  const v = values[name];
  if (!/^\d+$/.test(v) || Number(v) < min)
    throw new UsageError(`--${name}: expected a whole number >= ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

// The command line, checked: a bad value or an unknown case is refused before anything runs.
function parseOptions() {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '500000' },
      'csv-n': { type: 'string', default: '100000' },
      pairs: { type: 'string', default: '2' },
      only: { type: 'string', default: 'ts,where,mot,stream,csv' },
      uri: { type: 'string' },
      db: { type: 'string', default: 'perflab_bench' },
      json: { type: 'string' },
      debug: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true };
  const n = whole(values, 'n', 1);
  const csvN = whole(values, 'csv-n', 1);
  const pairs = whole(values, 'pairs', 1);
  checkTarget(values.db);
  const known = ['ts', 'where', 'mot', 'stream', 'csv'];
  const only = values.only
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const o of only)
    if (!known.includes(o)) throw new UsageError(`--only: ${JSON.stringify(o)} is not one of ${known.join(', ')}`);
  return { values, n, csvN, pairs, only };
}

// The table printed at the end: per case, bare and loader rates and their ratio; the load around the run.
function summaryLines(out) {
  const lines = [`case    docs      bare docs/s  loader docs/s  loader/bare (median of pairs, range)`];
  for (const r of out.results) {
    lines.push(
      `${r.case.padEnd(7)} ${String(r.docs).padEnd(9)} ${String(r.bareRate).padStart(11)}  ${String(r.loaderRate).padStart(13)}  ${r.ratio.toFixed(2)}x (${r.ratioMin.toFixed(2)}-${r.ratioMax.toFixed(2)})`,
    );
  }
  lines.push(
    `load average ${out.loadavgStart.join(' ')} at the start, ${out.loadavgEnd.join(' ')} at the end; ${out.machine.cores} cores, ${out.machine.cpu}`,
  );
  return lines;
}

const USAGE = `npm run bench:loaders -- [options]
Each fixture loader against a bare awaited insertMany loop of the same documents, in ABBA pairs;
prints bare and loader rates and loader/bare (above 1.0x the loader is faster). Minutes of load:
run it on a quiet machine, not beside a test suite.
  --n N          documents per fixture case (default 500000)
  --csv-n N      CSV rows for the importer case (default 100000)
  --pairs N      ABBA pairs per case (default 2)
  --only LIST    cases: ts,where,mot,stream,csv (default all)
  --uri URI      your server (default: an embedded mongod, removed at the end)
  --db NAME      database for the cases' collections (default perflab_bench)
  --json FILE    also write the figures as JSON
  --debug        a stack trace with an error
`;

async function main() {
  const opts = parseOptions();
  if (opts.help) return void process.stdout.write(USAGE);
  const { values, n, csvN, pairs, only } = opts;
  // The run directory first: the CSV files then live in it and go with it, however the bench ends.
  cleanup.install({ root: true, watchdog: true });
  const tmp = fs.mkdtempSync(path.join(cleanup.runDir(), 'bench-loaders-'));
  const all = cases({ n, csvN, tmp });
  const log = (m) => process.stderr.write(m + '\n');
  const loadStart = os.loadavg();
  const server = await getServer({ uri: values.uri, log });
  const client = new MongoClient(server.uri);
  const out = {
    machine: {
      cpu: os.cpus()[0].model.trim(),
      cores: os.cpus().length,
      memoryGB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
      node: process.version,
    },
    server: { version: server.version, storageEngine: server.storageEngine, embedded: !!server.embedded },
    loadavgStart: loadStart.map((x) => Number(x.toFixed(2))),
    startedAt: new Date().toISOString(),
    results: [],
  };
  try {
    await client.connect();
    const db = client.db(values.db);
    log(
      `MongoDB ${server.version} ${server.storageEngine}; ${n} documents (CSV: ${csvN} rows), ${pairs} ABBA pairs; load ${out.loadavgStart.join(' ')}`,
    );
    for (const name of only) out.results.push(await runCase(db, name, all[name], pairs, log));
    if (server.embedded) await db.dropDatabase();
  } finally {
    await client.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  out.loadavgEnd = os.loadavg().map((x) => Number(x.toFixed(2)));
  const lines = summaryLines(out);
  process.stdout.write(lines.join('\n') + '\n');
  if (values.json) fs.writeFileSync(values.json, JSON.stringify(out, null, 2) + '\n');
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`bench:loaders: ${friendly(e)}\n`);
    if (debugEnabled()) process.stderr.write(`${e.stack}\n`);
    process.exit(e instanceof UsageError || String(e.code || '').startsWith('ERR_PARSE_ARGS') ? 2 : 1);
  },
);
