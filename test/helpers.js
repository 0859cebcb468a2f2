'use strict';
// What every test file needs: the run's server, a database of its own, and the shell runner.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { MongoClient } = require('mongodb');
const { ShellSession, runCli, paramsToShell, ROOT } = require('../lib/core/shell-runner');
const { parseLabLines, humanLines, fitLines } = require('../lib/core/lab-lines');
const { describeServer } = require('../lib/infra/server');
const { runStudy } = require('../lib/core/run-study');
const { findStudy } = require('../lib/studies');

function testUri() {
  const uri = process.env.LAB_TEST_URI;
  if (!uri) throw new Error('LAB_TEST_URI is not set: run the tests with `npm test` (test/global-setup.js)');
  return uri;
}

/**
 * A database for one test file: { uri, dbName, client, db, shell(), close() }.
 * The database is dropped on close, so test files never see each other's data.
 */
async function testDatabase(name, uri = testUri()) {
  const dbName = `labtest_${name}`;
  const client = new MongoClient(uri);
  await client.connect();
  const db = client.db(dbName);
  await db.dropDatabase();
  let session = null;
  return {
    uri,
    dbName,
    client,
    db,
    /** A mongosh runtime bound to this database (opened once, reused). */
    async shell() {
      if (!session) session = await ShellSession.open(uri, dbName);
      return session;
    },
    /** Runs a script in-process; returns { lines, records } (records = parsed @@LAB lines). */
    async run(script, params) {
      const s = await this.shell();
      // Drop-in scripts print @@LAB lines only when asked: these runs are read for them.
      const lines = await s.run(script, { LAB_LINES: true, ...params });
      return { lines, records: parseLabLines(lines) };
    },
    /**
     * Runs a registered study (or an entry object) through the Node runner, as `mongo-perf-lab run`
     * does: resolves { records, params, fixture, points, text } (text: what it printed).
     */
    async study(nameOrEntry, params = {}, o = {}) {
      const entry = typeof nameOrEntry === 'string' ? findStudy(nameOrEntry) : nameOrEntry;
      const server = { uri, ...(await describeServer(uri)), ...(o.server || {}) };
      const out = [];
      const r = await runStudy(entry, {
        server,
        dbName,
        params,
        echo: (x) => out.push(x),
        log: (x) => out.push(x),
        ...o,
      });
      return { ...r, text: out.join('\n') };
    },
    /** Runs a script with the real mongosh CLI (with LAB_LINES = true unless params say otherwise). */
    cli(script, params, opts = {}) {
      return runCli(script, { uri, db: dbName, params: { LAB_LINES: true, ...params }, ...opts });
    },
    /** Several scripts through one real mongosh CLI process: see cliBatch below. */
    cliBatch(cases, opts = {}) {
      return cliBatch(
        uri,
        cases.map((c) => ({ db: dbName, ...c, params: { LAB_LINES: true, ...c.params } })),
        opts,
      );
    },
    async close() {
      if (session) await session.close();
      await db.dropDatabase().catch(() => {});
      await client.close();
    },
  };
}

/** Inside a describe: a temp dir (h.dir, named from prefix) made before its tests, removed after them. */
function useTmpDir(prefix) {
  const h = {};
  before(function () {
    h.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  after(function () {
    if (h.dir) fs.rmSync(h.dir, { recursive: true, force: true });
  });
  return h;
}

/**
 * Inside a describe: its test database (testDatabase(name)) opened before its tests and closed after
 * them; with `tmp` (a prefix) also a temp dir of its own (t.tmp), with `postgres` a PostgreSQL database
 * of its own (ownPostgres(name), t.pg: the SQL peers' tables have fixed names), both gone after them.
 * Returns t, which the before hook fills in: the one copy of the set-up most server-tier files opened with.
 */
function useTestDatabase(name, { tmp, postgres = false } = {}) {
  const t = {};
  before(async function () {
    Object.assign(t, await testDatabase(name));
    if (tmp) t.tmp = fs.mkdtempSync(path.join(os.tmpdir(), tmp));
    if (postgres) t.pg = await ownPostgres(name);
  });
  after(async function () {
    if (t.close) await t.close();
    if (t.pg) await t.pg.close();
    if (t.tmp) fs.rmSync(t.tmp, { recursive: true, force: true });
  });
  return t;
}

/**
 * Runs several drop-in scripts, one after the other, in ONE real mongosh CLI process (`mongosh URI
 * --quiet --norc DRIVER.js`, from `cwd`): a mongosh start costs ~1.5 s of CPU, 10 s and more at a
 * load average of 20, and the suite started one per check. Each script runs as a fresh mongosh would
 * see it: the earlier scripts' parameters and upper-case constants unset (as ShellSession.run does
 * in-process), its own parameters set, `db` on its database, then the shell's own load() of the file.
 *
 * A case's error is caught and recorded, except the last case's when `lastUncaught` is set: that one
 * ends the process as in a run of its own, so its exit code and stderr show how mongosh reports a
 * refused script (non-zero exit, the line, no stack trace).
 *
 * cases: [{ script, params, db }]. Resolves { code, stderr, stdout, cases: [{ error, more, reached,
 * lines, records, stdout }] }; a case's `error` is the message it threw (null when it ran through);
 * `more`, which of the properties mongosh prints on lines after an uncaught error's message the
 * error had (MORE); `reached`, whether the process got to the case at all.
 */
async function cliBatch(uri, cases, { cwd = os.tmpdir(), lastUncaught = false, timeoutMs = 600000 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cli-batch-'));
  const driver = path.join(dir, 'batch.js');
  const keep = JSON.stringify(['LAB_MODE']);
  const body = cases.map((c, i) => {
    const names = JSON.stringify(Object.keys(c.params || {}));
    const run = `db = db.getSiblingDB(${JSON.stringify(c.db)}); ${paramsToShell(c.params)} load(${JSON.stringify(path.isAbsolute(c.script) ? c.script : path.join(ROOT, 'scripts', c.script))});`;
    const last = lastUncaught && i === cases.length - 1;
    return [
      `print(${JSON.stringify(`${CASE} ${i}`)});`,
      `(function (keep) { Object.keys(globalThis).forEach(function (k) { var t = typeof globalThis[k];`,
      `  if (/^[A-Z][A-Z0-9_]*$/.test(k) && keep.indexOf(k) < 0 && (t === 'number' || t === 'string' || t === 'boolean')) globalThis[k] = undefined; }); })(${keep}.concat(${names}));`,
      last
        ? run
        : `try { ${run} } catch (e) { print(${JSON.stringify(`${CASE_ERROR} `)} + JSON.stringify(String((e && e.message) || e)));` +
          ` print(${JSON.stringify(`${CASE_MORE} `)} + JSON.stringify(${JSON.stringify(MORE)}.filter(function (k) { return !!(e && e[k]); }))); }`,
    ].join('\n');
  });
  fs.writeFileSync(driver, body.join('\n') + '\n');
  try {
    const r = await runCli(driver, { uri, cwd, timeoutMs });
    return { ...r, cases: splitCases(r.stdout, cases.length) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const CASE = '@@BATCH-CASE';
const CASE_ERROR = '@@BATCH-ERROR';
const CASE_MORE = '@@BATCH-ERROR-MORE';
// What mongosh prints of an uncaught error besides its name and message, each on lines of its own
// (formatError in @mongosh/cli-repl's format-output.js): a run of its own that threw an error
// carrying one of them printed more than one line.
const MORE = ['errInfo', 'result', 'writeErrors', 'violations', 'cause'];

/** The batch's stdout cut at its case markers: [{ error, more, reached, lines, records, stdout }]. */
function splitCases(stdout, n) {
  const out = Array.from({ length: n }, () => ({ error: null, more: [], reached: false, lines: [] }));
  let cur = null;
  for (const line of stdout.replace(/\n$/, '').split('\n')) {
    if (line.startsWith(`${CASE} `)) {
      cur = out[Number(line.slice(CASE.length + 1))];
      cur.reached = true;
    } else if (cur && line.startsWith(`${CASE_MORE} `)) cur.more = JSON.parse(line.slice(CASE_MORE.length + 1));
    else if (cur && line.startsWith(`${CASE_ERROR} `)) cur.error = JSON.parse(line.slice(CASE_ERROR.length + 1));
    else if (cur) cur.lines.push(line);
  }
  for (const c of out) {
    c.stdout = c.lines.join('\n');
    c.records = parseLabLines(c.lines);
  }
  return out;
}

/**
 * A PostgreSQL database of a test file's own on the run's shared server (PG_URI, from
 * test/global-setup.js), made this process's PG_URI (and so that of the CLIs and workers it starts)
 * until close(). The SQL peers' tables have fixed names (perflab_sensors_jsonb, orders, race, ...)
 * and a peer replaces a table it made for another size: two files at once (mocha --parallel) in one
 * database replaced each other's rows. Without a shared server it does nothing: each peer then
 * starts a PostgreSQL of its own, as before.
 */
async function ownPostgres(name) {
  const shared = process.env.PG_URI;
  const own = await postgresDatabase(name);
  if (own.uri) process.env.PG_URI = own.uri;
  return {
    uri: own.uri,
    async close() {
      if (own.uri) process.env.PG_URI = shared;
      await own.close();
    },
  };
}

/**
 * A PostgreSQL database labtest_<name> of its own on the shared PG_URI (none without one), for runs
 * that go at the same time inside one file: their SQL peers' tables have fixed names.
 */
async function postgresDatabase(name) {
  const shared = process.env.PG_URI;
  if (!shared) return { uri: undefined, async close() {} };
  const dbName = `labtest_${name}`;
  const admin = async (sql) => {
    const pg = require('pg');
    const c = new pg.Client({ connectionString: shared });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${dbName}`);
  const uri = new URL(shared);
  uri.pathname = `/${dbName}`;
  return {
    uri: uri.toString(),
    async close() {
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    },
  };
}

module.exports = {
  testUri,
  testDatabase,
  useTestDatabase,
  useTmpDir,
  parseLabLines,
  cliBatch,
  ownPostgres,
  postgresDatabase,
};

// ---- The lab's CLI as a child process, and mongods of a test file's own (the safety files,
// userdata-import, server-command): one copy of what those files each carried.
const { spawn, spawnSync } = require('child_process');
const net = require('net');

const BIN = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Whether a process exists (EPERM: it does, someone else's): the lab's own answer.
const { alive } = require('../lib/infra/processes');

/** Polls pred (sync or async) every step ms until it holds or ms have passed; resolves its last value. */
async function until(pred, ms, step = 200) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (await pred()) return true;
    await sleep(step);
  }
  return pred();
}

/** A TCP port free on 127.0.0.1 just now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
    s.on('error', reject);
  });
}

/**
 * `mongo-perf-lab ARGS` as a child process: { child, io: {out, err}, done }; onOutput(io) is called
 * on every chunk of output. done resolves { code, signal, ms (since spawn), at (Date.now() at exit) }.
 * bin: another copy's bin/mongo-perf-lab.js (test/add-a-study.test.js runs a copy of the repository);
 * timeoutMs: killed (SIGKILL) past it, so a hung command ends with its test.
 */
function lab(args, { cwd = os.tmpdir(), env = {}, onOutput = () => {}, bin = BIN, timeoutMs = 0 } = {}) {
  const t0 = Date.now();
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const timer = timeoutMs > 0 ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null;
  child.on('close', () => clearTimeout(timer));
  const io = { out: '', err: '' };
  child.stdout.on('data', (d) => {
    io.out += d;
    onOutput(io);
  });
  child.stderr.on('data', (d) => {
    io.err += d;
    onOutput(io);
  });
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, ms: Date.now() - t0, at: Date.now() })),
  );
  return { child, io, done };
}

/**
 * lab() as one object: { child, stdout, stderr (so far), done }, done resolving the same object
 * with { code, signal }. For the resume tests, which read the output while the run goes on.
 */
function labRun(args, opts) {
  const { child, io, done } = lab(args, opts);
  const r = {
    child,
    get stdout() {
      return io.out;
    },
    get stderr() {
      return io.err;
    },
  };
  r.done = done.then(({ code, signal }) => Object.assign(r, { code, signal }));
  return r;
}

/**
 * Inside a describe: a temp dir made before its tests (h.dir) and, after them, removed with the
 * test database dbName dropped. Returns h.
 */
function scratchDirAndDb(prefix, dbName) {
  const h = {};
  before(() => {
    h.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  after(async () => {
    fs.rmSync(h.dir, { recursive: true, force: true });
    const c = new MongoClient(testUri());
    try {
      await c.db(dbName).dropDatabase();
    } finally {
      await c.close();
    }
  });
  return h;
}

/**
 * Inside a describe: before its tests h.uri (the run's server), h.client (connected) and h.tmp (a temp
 * dir named from prefix); after them every database named in `used` (filled by the tests) dropped,
 * the client closed, the dir removed. Returns h.
 */
function clientAndTmp(prefix, used = []) {
  const h = { used };
  before(async () => {
    h.uri = testUri();
    h.client = await MongoClient.connect(h.uri);
    h.tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  after(async () => {
    for (const name of used)
      await h.client
        .db(name)
        .dropDatabase()
        .catch(() => {});
    if (h.client) await h.client.close();
    if (h.tmp) fs.rmSync(h.tmp, { recursive: true, force: true });
  });
  return h;
}

/**
 * A small tasks run (the skip scan beside pg-offset) whose PostgreSQL peer cannot start
 * (test/sql-peer*.test.js): every pg-offset row is skipped as unavailable, its why matching `why`
 * (result format 2: a skipped state is {code, why}), and report.md says so in one line.
 * Resolves { r (the run), rows (its result records), md (report.md) }.
 */
async function tasksWithoutPeer(t, why) {
  const { expect } = require('chai');
  const report = require('../lib/report/report');
  const r = await t.study('tasks', {
    N: 2000,
    PICKS: 3,
    WRITERS: '1',
    CLAIM_N: 50,
    RUNS: 1,
    WARMUP: 0,
    VARIANTS: 'skip-scan,pg-offset',
  });
  const rows = r.records.filter((x) => x.type === 'result');
  const pg = rows.filter((x) => x.variant === 'pg-offset');
  expect(pg.length).to.be.greaterThan(0);
  for (const x of pg)
    expect(x.skipped).to.include({ code: 'unavailable' }).and.to.have.property('why').that.matches(why);
  const md = report.markdown({ environment: { software: {}, lab: {} }, results: r.records }, [findStudy('tasks')]);
  expect(md.match(/^Not measured: pg-offset \(SQL peer not measured: /gm)).to.have.length(1);
  return { r, rows, md };
}

/** The names of the databases on the server at uri, now. */
async function databaseNames(uri) {
  const c = new MongoClient(uri);
  try {
    return (await c.db('admin').admin().listDatabases({ nameOnly: true })).databases.map((d) => d.name);
  } finally {
    await c.close();
  }
}

/** The error a promise rejects with; throws when it resolves. */
async function rejects(p) {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

/** A JSON file's content, or null while it is missing or half-written. */
function readJsonOrNull(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return null;
  }
}

/**
 * `mongo-perf-lab ARGS` run to its end without blocking: resolves { code, status (the same), signal,
 * stdout, stderr, ms }. MONGODB_URI is left out unless env names one, so a developer's own variable
 * never points a test at their server; onStderr(stderr so far, child) sees the output as it comes.
 */
async function labCli(args, { cwd = os.tmpdir(), env = {}, onStderr, bin, timeoutMs } = {}) {
  const { child, io, done } = lab(args, {
    cwd,
    env: { MONGODB_URI: undefined, ...env },
    onOutput: onStderr ? (o) => onStderr(o.err, child) : undefined,
    bin,
    timeoutMs,
  });
  const { code, signal, ms } = await done;
  return { code, status: code, signal, stdout: io.out, stderr: io.err, ms };
}

/** The arguments of `mongo-perf-lab COMMAND STUDY...` (a name or names) at the tiny profile on the test server, database db. */
const tinyArgs = (command, studies, db, ...more) =>
  [command].concat(studies, ['--profile', 'tiny', '--uri', testUri(), '--db', db], more);

/** `mongo-perf-lab ARGS` run to its end: spawnSync's { status, stdout, stderr } (utf8). */
function labSync(args, { cwd = os.tmpdir(), env = {}, timeoutMs = 600000 } = {}) {
  return spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: timeoutMs,
    env: { ...process.env, ...env },
  });
}

/** The lines a command printed as its own (not progress): "mongo-perf-lab...:" lines. */
const ownLines = (text) => text.split('\n').filter((l) => /^mongo-perf-lab( server)?:/.test(l));

/** A lab() run that ended refused (code: its exit code): exit 1 and one line of its own, returned. */
function oneLine(r, code) {
  const { expect } = require('chai');
  expect(code, r.io.err).to.equal(1);
  const lines = ownLines(r.io.err);
  expect(lines, r.io.err).to.have.length(1);
  return lines[0];
}

/**
 * The lines over 100 columns that `run` would print of an in-process run's echo and log: the same
 * treatment as lib/cli/run.js (the @@LAB lines left out, prose wrapped, table rows left whole), so
 * a study part too slow for `run all --profile tiny` still has its printed width checked where it runs.
 */
function linesOver100({ echoed = [], logged = [] }) {
  const printed = [...fitLines(humanLines(echoed.join('\n'))), ...fitLines(logged.join('\n').split('\n'))];
  return printed.filter((l) => [...l].length > 100);
}

/**
 * `mongo-perf-lab server ARGS`, resolved once it printed its ready text on both pipes:
 * { child, io, exited, uri, members: [{ port, pid, dbPath }] }; exited resolves { code, signal }.
 */
function startLabServer(args, { env = {}, command, cwd = ROOT } = {}) {
  const e = { ...process.env, ...env };
  if (env.MONGODB_URI === undefined) delete e.MONGODB_URI;
  // command: an installed `mongo-perf-lab` (test/install.test.js), found on env's PATH
  const child = command
    ? spawn(command, ['server', ...args], { cwd, env: e })
    : spawn(process.execPath, [BIN, 'server', ...args], { cwd, env: e });
  const io = { out: '', err: '' };
  child.stdout.on('data', (d) => {
    io.out += d;
  });
  child.stderr.on('data', (d) => {
    io.err += d;
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const check = () => {
      // stdout and stderr are separate pipes: wait for both
      if (/Ctrl-C stops/.test(io.err) && io.out.includes('\n')) {
        const members = [...io.err.matchAll(/127\.0\.0\.1:(\d+)\s+pid (\d+)\s+data (\S+)/g)].map((m) => ({
          port: Number(m[1]),
          pid: Number(m[2]),
          dbPath: m[3],
        }));
        resolve({ child, io, exited, uri: io.out.split('\n')[0], members });
      }
    };
    child.stderr.on('data', check);
    child.stdout.on('data', check);
    exited.then((r) => reject(new Error(`server exited early (${JSON.stringify(r)}): ${io.err}`)));
  });
}

/**
 * A mongod of the test's own (to pause, kill or hold with fail points: enableTestCommands), on a
 * free port or the given one (again on the same files: a restart), data in dbpath; args: more of
 * mongod's (--auth). Resolves { proc, port, uri, kill9() } once it answers a ping.
 */
async function ownMongod(dbpath, { port, args: more = [] } = {}) {
  const { findMongod } = require('../lib/infra/mongod-binary');
  const p = port || (await freePort());
  const uri = `mongodb://127.0.0.1:${p}`;
  const args = ['--port', String(p), '--dbpath', dbpath, '--bind_ip', '127.0.0.1', '--nounixsocket', ...more];
  const proc = spawn(
    findMongod().binary,
    [...args, '--wiredTigerCacheSizeGB', '0.25', '--quiet', '--setParameter', 'enableTestCommands=1'],
    { stdio: 'ignore' },
  );
  const kill9 = () =>
    proc.exitCode !== null || proc.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => {
          proc.once('exit', resolve);
          proc.kill('SIGKILL');
        });
  for (let i = 0; i < 300; i++) {
    const c = new MongoClient(uri, { serverSelectionTimeoutMS: 300 });
    try {
      await c.db('admin').command({ ping: 1 });
      return { proc, port: p, uri, kill9 };
    } catch (e) {
      await sleep(100);
    } finally {
      await c.close();
    }
  }
  await kill9();
  throw new Error('mongod did not come up');
}

/**
 * ownMongod with --auth and its users: root (password rootpw) made through the localhost exception,
 * then each of `users` ({ user, pwd, roles }) made by root. Resolves ownMongod's { proc, port, uri, kill9 }.
 */
async function authMongod(dbpath, users = [], { port } = {}) {
  const m = await ownMongod(dbpath, { port, args: ['--auth'] });
  for (let i = 0; ; i++) {
    const c = new MongoClient(m.uri, { serverSelectionTimeoutMS: 300 });
    try {
      await c.connect();
      await c.db('admin').command({ createUser: 'root', pwd: 'rootpw', roles: ['root'] });
      break;
    } catch (e) {
      if (i > 100) {
        await m.kill9();
        throw e;
      }
      await sleep(100);
    } finally {
      await c.close();
    }
  }
  const c = new MongoClient(`mongodb://root:rootpw@127.0.0.1:${m.port}/admin`);
  try {
    for (const { user, pwd, roles } of users) await c.db('admin').command({ createUser: user, pwd, roles });
  } finally {
    await c.close();
  }
  return m;
}

/** A CLI run's stderr lines but the "Try `mongo-perf-lab --help`" hint: a refusal should be one. */
const errorLines = (res) =>
  res.stderr
    .trim()
    .split('\n')
    .filter((l) => !/^Try `mongo-perf-lab --help`/.test(l));

Object.assign(module.exports, {
  authMongod,
  errorLines,
  BIN,
  sleep,
  alive,
  until,
  freePort,
  lab,
  labRun,
  readJsonOrNull,
  rejects,
  scratchDirAndDb,
  clientAndTmp,
  databaseNames,
  tasksWithoutPeer,
  labSync,
  labCli,
  tinyArgs,
  ownLines,
  oneLine,
  linesOver100,
  startLabServer,
  ownMongod,
});
