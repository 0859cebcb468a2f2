'use strict';
// One embedded mongod serves the whole run (test/global-setup.js); studies that need a server
// of their own (restarts, a small cache) start one in their test file.
module.exports = {
  // LAB_SPEC=test/where.test.js npm test runs one file (mocha adds positional files to `spec`).
  spec: process.env.LAB_SPEC ? process.env.LAB_SPEC.split(',') : ['test/**/*.test.js'],
  require: ['test/global-setup.js'],
  timeout: 180000,
  slow: 10000,
  reporter: 'spec',
};
