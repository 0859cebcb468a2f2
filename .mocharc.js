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
// The whole suite runs three files at a time (mocha --parallel: one worker process per file, the
// one mongod of test/global-setup.js shared; each file has its own database names and temp folders,
// and the files that start servers of their own take free ports): a third file fills the cores while
// the others wait on servers or CLIs (measured: docs/journal/testing-2026-11.md, "Three files at a
// time"). LAB_JOBS=1 runs it serially; a run of chosen files (LAB_SPEC) or of the unit tier is
// serial unless LAB_JOBS says more.
const jobs = Number(process.env.LAB_JOBS) || (process.env.LAB_SPEC || process.env.LAB_TIER === 'unit' ? 1 : 3);
// The longest files go first (the order of the last measured runs), then the others in name order:
// a long file started late would run alone at the end while the short ones finish.
const LONGEST = [
  'safety-scratch',
  'safety-frozen',
  'safety-signals',
  'cli',
  'mapreduce',
  'safety-cli',
  'counters',
  'inserts',
  'bigagg',
  'findings',
  'safety-ownership',
  'timeseries-cache',
  'add-a-study',
  'timeseries',
  'safety-faults',
  'sql-peer',
  'compare',
  'server-command',
];
function longestFirst(globs) {
  if (globs.length !== 1 || globs[0] !== 'test/**/*.test.js') return globs;
  const all = require('fs')
    .readdirSync(require('path').join(__dirname, 'test'), { recursive: true })
    .filter((f) => f.endsWith('.test.js'))
    .map((f) => `test/${f}`)
    .sort();
  const first = LONGEST.map((n) => `test/${n}.test.js`).filter((f) => all.includes(f));
  return [...first, ...all.filter((f) => !first.includes(f))];
}

module.exports = {
  spec: jobs > 1 ? longestFirst(spec) : spec,
  ...(needsServer ? { require: ['test/global-setup.js'] } : {}),
  ...(jobs > 1 ? { parallel: true, jobs } : {}),
  timeout: 180000,
  slow: 10000,
  // LAB_FILE_TIMES=1 adds a table of the time per test file (hooks included) at the end;
  // LAB_FILE_TIMES=out.json also writes it to that file as the run goes (test/file-times.js).
  reporter: process.env.LAB_FILE_TIMES ? require('path').join(__dirname, 'test', 'file-times.js') : 'spec',
};
