'use strict';
// One embedded mongod serves the whole run (test/global-setup.js); studies that need a server
// of their own (restarts, a small cache) start one in their test file.
module.exports = {
  spec: ['test/**/*.test.js'],
  require: ['test/global-setup.js'],
  timeout: 180000,
  slow: 10000,
  reporter: 'spec',
};
