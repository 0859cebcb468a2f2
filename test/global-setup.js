'use strict';
// Starts the server for the whole test run once (mochaGlobalSetup runs once, even with --parallel)
// and hands its URI to the test files through the environment. LAB_BURNERS=N adds N CPU-bound
// processes for the whole run (test/burners.js): the speed claims must hold beside them.

// First: mongosh's async rewriter answered from a cache (lib/infra/rewrite-cache.js), in this
// process before any test file loads the shell runtime, and in every node process the tests start.
const { PRELOAD } = require('../lib/infra/rewrite-cache');

const preload = `--require ${JSON.stringify(PRELOAD)}`;
// (a parallel worker inherits it from the main process)
if (!(process.env.NODE_OPTIONS || '').includes(preload))
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' ');

const { getServer } = require('../lib/infra/server');
const cleanup = require('../lib/infra/cleanup');
const { startBurners } = require('./burners');

let server;
let burners;
let postgres;

// One PostgreSQL for the whole run too (the SQL peers of mapreduce, inserts, joins, tasks and the
// findings' columns each started their own, several seconds apiece): given to the tests and the
// CLIs they spawn as PG_URI. Only for a run of the whole suite, or with LAB_SHARED_PG=1: a run of
// one file should not wait for a server it may not use. PG_URI set by the user wins.
async function sharedPostgres() {
  if (
    process.env.PG_URI ||
    (process.env.LAB_SPEC && process.env.LAB_SHARED_PG !== '1') ||
    process.env.LAB_SHARED_PG === '0'
  )
    return;
  const { tryPostgres } = require('../lib/infra/postgres');
  const { pgs, note } = await tryPostgres();
  if (!pgs) {
    process.stderr.write(`no shared PostgreSQL for the run (${note}): each SQL peer starts its own or is skipped\n`);
    return;
  }
  postgres = pgs;
  process.env.PG_URI = pgs.uri;
  process.stderr.write(`test PostgreSQL: ${pgs.version}, embedded, shared by the run\n`);
}

exports.mochaGlobalSetup = async function () {
  // Every temp dir of the run (the servers' data, the tests' own folders) in one run dir, removed on
  // exit or signal, and by a watchdog if the run is SIGKILLed: as the CLI does. A test run killed with
  // its process group used to leave its mongod data dirs in the system's temp folder.
  cleanup.install({ root: true, watchdog: true });
  server = await getServer({ log: (m) => process.stderr.write(m + '\n') });
  process.env.LAB_TEST_URI = server.uri;
  if (server.pid) process.env.LAB_TEST_MONGOD_PID = String(server.pid); // for test/file-times.js
  await sharedPostgres();
  process.stderr.write(
    `test server: MongoDB ${server.version} (${server.storageEngine}, ${server.queryFramework || 'classic'})${server.embedded ? ', embedded' : ''}\n`,
  );
  const n = Number(process.env.LAB_BURNERS || 0);
  if (n > 0) {
    burners = startBurners(n);
    process.stderr.write(`${n} CPU burners running beside the tests (pids ${burners.pids.join(', ')})\n`);
  }
};

exports.mochaGlobalTeardown = async function () {
  if (burners) burners.stop();
  if (server) await server.stop();
  if (postgres) {
    delete process.env.PG_URI;
    await postgres.stop();
  }
};

// In a worker of a parallel run (mocha --parallel: `npm test` of the whole suite), where this file
// is loaded too (mocha runs the two functions above in the main process only): each file's time
// for LAB_FILE_TIMES (test/file-times.js).
const workerHooks = require('./file-times').workerHooks();
if (workerHooks) exports.mochaHooks = workerHooks;
