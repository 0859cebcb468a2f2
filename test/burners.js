'use strict';
// CPU-bound neighbours for the speed claims: the suite must pass on a busy 2-core machine, so the
// claims are checked with N processes spinning beside them (LAB_BURNERS=2 npm test, or
// `npm run test:busy` for the speed tests alone). Each burner ends by itself after maxMs, and is
// killed with its parent, so none outlives a crashed run.
const { spawn } = require('child_process');

const SPIN = `
const end = Date.now() + Number(process.argv[1]);
const parent = Number(process.argv[2]);
let x = 0;
for (;;) {
  for (let i = 0; i < 5e6; i++) x = (x * 31 + i) % 1000003;
  if (Date.now() > end) break;
  try { process.kill(parent, 0); } catch (e) { break; }
}`;

/** Starts n burners; returns { pids, stop() }. */
function startBurners(n = 2, { maxMs = 45 * 60 * 1000 } = {}) {
  const children = [];
  for (let i = 0; i < n; i++) {
    children.push(spawn(process.execPath, ['-e', SPIN, String(maxMs), String(process.pid)], { stdio: 'ignore' }));
  }
  const stop = () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  };
  process.once('exit', stop);
  return { pids: children.map((c) => c.pid), stop };
}

module.exports = { startBurners };
