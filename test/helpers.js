'use strict';
// What every test file needs: the run's server, a database of its own, and the shell runner.
const { MongoClient } = require('mongodb');
const { ShellSession, runCli } = require('../lib/core/shell-runner');
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
    uri, dbName, client, db,
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
      const r = await runStudy(entry, { server, dbName, params, echo: (x) => out.push(x), log: (x) => out.push(x), ...o });
      return { ...r, text: out.join('\n') };
    },
    /** Runs a script with the real mongosh CLI (with LAB_LINES = true unless params say otherwise). */
    cli(script, params, opts = {}) {
      return runCli(script, { uri, db: dbName, params: { LAB_LINES: true, ...params }, ...opts });
    },
    async close() {
      if (session) await session.close();
      await db.dropDatabase().catch(() => {});
      await client.close();
    },
  };
}

module.exports = { testUri, testDatabase, parseLabLines };
