'use strict';
// Starts the server for the whole test run once (mochaGlobalSetup runs once, even with --parallel)
// and hands its URI to the test files through the environment.
const { getServer } = require('../lib/server');

let server;

exports.mochaGlobalSetup = async function () {
  server = await getServer({ log: (m) => process.stderr.write(m + '\n') });
  process.env.LAB_TEST_URI = server.uri;
  process.stderr.write(`test server: MongoDB ${server.version} (${server.storageEngine}, ${server.queryFramework || 'classic'})${server.embedded ? ', embedded' : ''}\n`);
};

exports.mochaGlobalTeardown = async function () {
  if (server) await server.stop();
};
