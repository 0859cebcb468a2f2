#!/usr/bin/env node
'use strict';
// Runs the speed claims (tests whose title holds "@speed") with two CPU-bound processes beside
// them, as a busy CI machine would: `npm run test:busy`. Independent of CI; extra mocha
// arguments pass through (e.g. a spec file).
const { spawnSync } = require('child_process');
const path = require('path');

const mocha = path.join(__dirname, '..', 'node_modules', '.bin', 'mocha');
const r = spawnSync(process.execPath, [mocha, '--grep', '@speed', ...process.argv.slice(2)], {
  stdio: 'inherit',
  // one file at a time (npm test runs two): the claims beside exactly the burners asked for
  env: { ...process.env, LAB_BURNERS: process.env.LAB_BURNERS || '2', LAB_JOBS: process.env.LAB_JOBS || '1' },
  cwd: path.join(__dirname, '..'),
});
process.exit(r.status === null ? 1 : r.status);
