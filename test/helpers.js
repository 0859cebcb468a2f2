'use strict';
// What every test file needs: the run's server, a database of its own, and the shell runner.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { MongoClient } = require('mongodb');
const { ShellSession, runCli, paramsToShell, ROOT } = require('../lib/core/shell-runner');
const { parseLabLines } = require('../lib/core/lab-lines');
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
 * cases: [{ script, params, db }]. Resolves { code, stderr, stdout, cases: [{ error, lines, records,
 * stdout }] }; a case's `error` is the message it threw (null when it ran through).
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
        : `try { ${run} } catch (e) { print(${JSON.stringify(`${CASE_ERROR} `)} + JSON.stringify(String((e && e.message) || e))); }`,
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

/** The batch's stdout cut at its case markers: [{ error, lines, records, stdout }]. */
function splitCases(stdout, n) {
  const out = Array.from({ length: n }, () => ({ error: null, lines: [] }));
  let cur = null;
  for (const line of stdout.replace(/\n$/, '').split('\n')) {
    if (line.startsWith(`${CASE} `)) cur = out[Number(line.slice(CASE.length + 1))];
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
  process.env.PG_URI = uri.toString();
  return {
    uri: uri.toString(),
    async close() {
      process.env.PG_URI = shared;
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    },
  };
}

module.exports = { testUri, testDatabase, parseLabLines, cliBatch, ownPostgres };
