'use strict';
// Starts the server for the whole test run once (mochaGlobalSetup runs once, even with --parallel)
// and hands its URI to the test files through the environment. LAB_BURNERS=N adds N CPU-bound
// processes for the whole run (test/burners.js): the speed claims must hold beside them.
const { getServer } = require('../lib/infra/server');
const cleanup = require('../lib/infra/cleanup');
const { startBurners } = require('./burners');

let server;
let burners;

exports.mochaGlobalSetup = async function () {
  // Every temp dir of the run (the servers' data, the tests' own folders) in one run dir, removed on
  // exit or signal, and by a watchdog if the run is SIGKILLed: as the CLI does. A test run killed with
  // its process group used to leave its mongod data dirs in the system's temp folder.
  cleanup.install({ root: true, watchdog: true });
  server = await getServer({ log: (m) => process.stderr.write(m + '\n') });
  process.env.LAB_TEST_URI = server.uri;
  process.stderr.write(`test server: MongoDB ${server.version} (${server.storageEngine}, ${server.queryFramework || 'classic'})${server.embedded ? ', embedded' : ''}\n`);
  const n = Number(process.env.LAB_BURNERS || 0);
  if (n > 0) {
    burners = startBurners(n);
    process.stderr.write(`${n} CPU burners running beside the tests (pids ${burners.pids.join(', ')})\n`);
  }
};

exports.mochaGlobalTeardown = async function () {
  if (burners) burners.stop();
  if (server) await server.stop();
};
