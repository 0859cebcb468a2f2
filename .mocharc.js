'use strict';
// Two tiers. test/unit/ needs no server: `npm run test:unit` runs it alone, in seconds, with no
// mongod. Every other test file is the server tier: one embedded mongod serves the whole run
// (test/global-setup.js); studies that need a server of their own (restarts, a small cache) start
// one in their test file. `npm test` runs both tiers in one run.
const UNIT = 'test/unit/';
const tierSpec = process.env.LAB_TIER === 'unit' ? [`${UNIT}**/*.test.js`] : ['test/**/*.test.js'];
// LAB_SPEC=test/where.test.js npm test runs one file (mocha adds positional files to `spec`).
const spec = process.env.LAB_SPEC ? process.env.LAB_SPEC.split(',') : tierSpec;
// The server starts only when some file of the run needs it.
const needsServer = spec.some((f) => !f.replace(/^\.\//, '').startsWith(UNIT));

module.exports = {
  spec,
  ...(needsServer ? { require: ['test/global-setup.js'] } : {}),
  timeout: 180000,
  slow: 10000,
  // LAB_FILE_TIMES=1 adds a table of the time per test file (hooks included) at the end;
  // LAB_FILE_TIMES=out.json also writes it to that file as the run goes (test/file-times.js).
  reporter: process.env.LAB_FILE_TIMES ? require('path').join(__dirname, 'test', 'file-times.js') : 'spec',
};
