#!/usr/bin/env node
'use strict';
// Each fixture loader against a bare awaited insertMany loop of the same documents, interleaved.
//
//   npm run bench:loaders -- [--n 500000] [--csv-n 100000] [--rounds 3] [--only ts,where,mot,stream,csv]
//                            [--burners 2] [--inflight N] [--journal-every-batch] [--uri URI]
//                            [--db perflab_bench] [--json FILE]
//
// - bare: the same generator, batches of the loader's batch size, `await coll.insertMany(batch)` one
//   after the other with the driver's defaults (what a simple script does); for the CSV importer, the
//   same files parsed and converted by its own functions into the same documents (same _ids).
// - loader: the lab's own path as a study calls it (ensureFixture/streamInsert with its batches in
//   flight, every batch's outcome checked, the count verified at the end). On a standalone (the
//   embedded mongod) its batches go with w:1 like the bare loop's, and every 8 batches and at the end
//   one journaled write proves them on disk (lib/infra/loader.js "durability at checkpoints"); the
//   record says which per round, with the number of proofs (loaderDurability: "checkpoints (8)").
//   --inflight N sends the stream case's loader N batches in flight instead of its default (4), and
//   --journal-every-batch makes it ask every batch for the journal (j:true, the loader before
//   2026-11-29), to see what each does; the other cases always run as the studies call them.
// - rounds, interleaved: round i runs bare then loader when i is even, loader then bare when odd;
//   every run starts from a dropped collection. The figure is the lab's one estimator
//   (scripts/lib/stats.js compareTimes: time(loader) / time(bare) per round, its 95% interval, worded
//   by scripts/lib/format.js comparisonWords), also given as the loader's speed relative to the bare
//   loop (its inverse: above 1.0x the loader is faster).
// - --burners N: N CPU-bound processes (test/burners.js) spin beside the whole run, so the figure is
//   the one a busy machine gets; the CPU-wait share (lib/infra/cpu-wait.js) of each side is recorded.
// Not part of `npm test`: it loads the machine for minutes. Collections are the lab's (marked) in
// --db; a collection of the user's stops the bench (lib/infra/targets.js).
const { parseArgs } = require('util');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { MongoClient } = require('mongodb');
const { median } = require('../scripts/lib/stats');
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
const { compareTimes } = require('../scripts/lib/stats');
const { comparisonWords, fmtFactor } = require('../scripts/lib/format');
const { cpuWaitWatch } = require('../lib/infra/cpu-wait');
const { startBurners } = require('../test/burners');

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

/** streamInsert's options in the stream case: as the studies call it, or pinned (--inflight, --journal-every-batch). */
function streamOptions(inflight, journalEveryBatch) {
  const o = inflight ? { progress: false, inflight } : { progress: false };
  return journalEveryBatch ? { ...o, journalEveryBatch } : o;
}

/** The cases: prepare() untimed, bare() and loader() timed. */
function cases({ n, csvN, tmp, inflight, journalEveryBatch }) {
  const seed = 1;
  const streamOpts = streamOptions(inflight, journalEveryBatch);
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
      loader: (db) => streamInsert(db.collection('stream_loader'), tsFixture.events(n, seed), streamOpts),
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

/** Runs fn timed: { ms, cpuWait (share of the run some task waited for a CPU, or null), result }. */
async function timed(fn) {
  const wait = cpuWaitWatch();
  const t0 = process.hrtime.bigint();
  const result = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuWait: wait.stop(), result };
}

/** Drops the case's collections: each is the lab's by UUID (created by its loader or by own()). */
async function reset(db, colls) {
  for (const c of colls) await dropOwned(db, c);
}

/** The batches the loader kept in flight, when its result says (ensureFixture and streamInsert do). */
function inflightOf(result) {
  return result && result.inflight ? result.inflight : null;
}

/** How the loader made its batches durable, and how many proofs, when its result says. */
function durabilityOf(result) {
  return result && result.durability ? `${result.durability} (${result.checkpoints})` : null;
}

/**
 * The lab's one comparison of the loader with the bare loop (compareTimes: time(loader) / time(bare)),
 * and the same figure and interval turned into the loader's speed relative to the bare loop.
 */
function comparison(loaderMs, bareMs) {
  const c = compareTimes(loaderMs, bareMs, { to: 'the bare loop' });
  const inv = (x) => (x === null ? null : Number((1 / x).toFixed(3)));
  return {
    comparison: c,
    words: comparisonWords(c).line,
    speed: inv(c.mid),
    speedCi: c.lo === null ? null : [inv(c.hi), inv(c.lo)],
  };
}

async function runCase(db, name, c, rounds, log) {
  if (c.prepare) await c.prepare(db);
  const runs = { bare: [], loader: [] };
  const waits = { bare: [], loader: [] };
  const inflight = [];
  const durability = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['bare', 'loader'] : ['loader', 'bare'];
    for (const side of order) {
      await reset(db, c.colls);
      const coll = side === 'bare' ? c.colls[0] : c.colls[1];
      if (side === 'bare' || c.ownLoader) await own(db, coll, c);
      const t = await timed(() => c[side](db));
      runs[side].push(t.ms);
      waits[side].push(t.cpuWait);
      if (side === 'loader') inflight.push(inflightOf(t.result));
      if (side === 'loader') durability.push(durabilityOf(t.result));
      const count = await db.collection(coll).countDocuments();
      if (count !== c.n) throw new Error(`${name} ${side}: ${count} documents stored, ${c.n} expected`);
    }
    log(
      `${name}: round ${i + 1} (${order.join(' ')}): bare ${(runs.bare[i] / 1000).toFixed(1)} s, ` +
        `loader ${(runs.loader[i] / 1000).toFixed(1)} s (${inflight[i] === null ? '?' : inflight[i]} batches in flight, ` +
        `durable: ${durability[i] || '?'}); ` +
        `CPU wait ${waits.bare[i]} / ${waits.loader[i]}; load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
  await reset(db, c.colls);
  const rate = (ms) => Math.round(c.n / (ms / 1000));
  return {
    case: name,
    what: c.what,
    docs: c.n,
    rounds,
    bareMs: runs.bare.map(Math.round),
    loaderMs: runs.loader.map(Math.round),
    bareCpuWait: waits.bare,
    loaderCpuWait: waits.loader,
    loaderInflight: inflight,
    loaderDurability: durability,
    bareRate: rate(median(runs.bare)),
    loaderRate: rate(median(runs.loader)),
    ...comparison(runs.loader, runs.bare),
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
      rounds: { type: 'string', default: '3' },
      pairs: { type: 'string' },
      burners: { type: 'string', default: '0' },
      inflight: { type: 'string' },
      'journal-every-batch': { type: 'boolean' },
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
  // --pairs: the old name of --rounds (each was a bare and a loader run already).
  const rounds = values.pairs !== undefined ? whole(values, 'pairs', 1) : whole(values, 'rounds', 1);
  const burners = whole(values, 'burners', 0);
  if (burners > 16) throw new UsageError(`--burners: at most 16, got ${burners}`);
  const inflight = values.inflight === undefined ? null : whole(values, 'inflight', 1);
  checkTarget(values.db);
  const known = ['ts', 'where', 'mot', 'stream', 'csv'];
  const only = values.only
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  for (const o of only)
    if (!known.includes(o)) throw new UsageError(`--only: ${JSON.stringify(o)} is not one of ${known.join(', ')}`);
  return { values, n, csvN, rounds, burners, inflight, journalEveryBatch: !!values['journal-every-batch'], only };
}

// The lines printed at the end: per case, bare and loader rates, the loader's speed relative to the
// bare loop with its interval, and the comparison in the lab's words; the load around the run.
function summaryLines(out) {
  const lines = [`case    docs      bare docs/s  loader docs/s  loader speed / bare (95% CI)`];
  for (const r of out.results) {
    const ci = r.speedCi ? `${fmtFactor(r.speedCi[0])}x..${fmtFactor(r.speedCi[1])}x` : 'no interval';
    lines.push(
      `${r.case.padEnd(7)} ${String(r.docs).padEnd(9)} ${String(r.bareRate).padStart(11)}  ${String(r.loaderRate).padStart(13)}  ${fmtFactor(r.speed)}x (${ci}): loader: ${r.words}`,
    );
  }
  lines.push(
    `load average ${out.loadavgStart.join(' ')} at the start, ${out.loadavgEnd.join(' ')} at the end; ` +
      `${out.burners} burner(s); ${out.machine.cores} cores, ${out.machine.cpu}`,
  );
  return lines;
}

const USAGE = `npm run bench:loaders -- [options]
Each fixture loader against a bare awaited insertMany loop of the same documents, in interleaved
rounds; prints bare and loader rates and the loader's speed relative to the bare loop with its 95%
interval (above 1.0x the loader is faster). Minutes of load:
run it on a quiet machine, not beside a test suite.
  --n N          documents per fixture case (default 500000)
  --csv-n N      CSV rows for the importer case (default 100000)
  --rounds N     interleaved rounds per case, each a bare and a loader run (default 3; --pairs N: the same)
  --burners N    N CPU-bound processes spinning beside the run (default 0)
  --inflight N   the stream case's loader pinned to N batches in flight (default: the loader's, 4)
  --journal-every-batch  the stream case's loader asks every batch for the journal (j:true)
  --only LIST    cases: ts,where,mot,stream,csv (default all)
  --uri URI      your server (default: an embedded mongod, removed at the end)
  --db NAME      database for the cases' collections (default perflab_bench)
  --json FILE    also write the figures as JSON
  --debug        a stack trace with an error
`;

async function main() {
  const opts = parseOptions();
  if (opts.help) return void process.stdout.write(USAGE);
  const { values, n, csvN, rounds, burners, inflight, journalEveryBatch, only } = opts;
  // The run directory first: the CSV files then live in it and go with it, however the bench ends.
  cleanup.install({ root: true, watchdog: true });
  const tmp = fs.mkdtempSync(path.join(cleanup.runDir(), 'bench-loaders-'));
  const all = cases({ n, csvN, tmp, inflight, journalEveryBatch });
  const log = (m) => process.stderr.write(m + '\n');
  const loadStart = os.loadavg();
  const server = await getServer({ uri: values.uri, log });
  // After the server: the burners compete with the run, not with the server's start.
  const burn = burners ? startBurners(burners) : null;
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
    command: `npm run bench:loaders -- ${process.argv.slice(2).join(' ')}`.trim(),
    burners,
    results: [],
  };
  try {
    await client.connect();
    const db = client.db(values.db);
    log(
      `MongoDB ${server.version} ${server.storageEngine}; ${n} documents (CSV: ${csvN} rows), ${rounds} interleaved rounds, ` +
        `${burners} burner(s); load ${out.loadavgStart.join(' ')}`,
    );
    for (const name of only) out.results.push(await runCase(db, name, all[name], rounds, log));
    if (server.embedded) await db.dropDatabase();
  } finally {
    if (burn) burn.stop();
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
