'use strict';
// A run killed together with its watchdog leaves its run directory; the next run removes it, and
// only it: not a live run's, not one a process still uses, not a directory of another name.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const cleanup = require('../../lib/infra/cleanup');

function deadPid() {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

describe('cleanup: run directories of killed runs', function () {
  let base;
  let holder;
  let watcher;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'sweep-'));
  });
  afterEach(() => {
    for (const c of [holder, watcher]) if (c) c.kill('SIGKILL');
    holder = watcher = null;
    fs.rmSync(base, { recursive: true, force: true });
  });

  it('removes a dead run directory and keeps live, used, watched and foreign ones', async function () {
    const dead = path.join(base, `mongo-perf-lab-run-${deadPid()}-aB3dE9`);
    const live = path.join(base, `mongo-perf-lab-run-${process.pid}-xYz123`);
    const used = path.join(base, `mongo-perf-lab-run-${deadPid()}-Q1w2E3`);
    const foreign = path.join(base, `mongo-perf-lab-run-${deadPid()}-too-long-suffix`);
    for (const d of [dead, live, used, foreign]) fs.mkdirSync(d);
    fs.writeFileSync(path.join(dead, 'data'), 'x');
    const watched = path.join(base, `mongo-perf-lab-run-${deadPid()}-W4tch1`);
    fs.mkdirSync(watched);
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', used], { stdio: 'ignore' });
    watcher = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', '--', '--watch', '1', watched], {
      stdio: 'ignore',
    });
    await new Promise((r) => setTimeout(r, 200));
    const lines = [];
    cleanup.sweepAbandoned(base, (m) => lines.push(m));
    expect(fs.existsSync(dead)).to.equal(false);
    expect(fs.existsSync(live)).to.equal(true);
    expect(fs.existsSync(used)).to.equal(true);
    expect(fs.existsSync(foreign)).to.equal(true);
    expect(fs.existsSync(watched), 'left to its watchdog').to.equal(true);
    expect(lines.join('\n')).to.not.include('W4tch1');
    expect(lines.join('\n')).to.match(/removed .*aB3dE9, left by a run that was killed/);
    expect(lines.join('\n')).to.match(/Q1w2E3 was left by a killed run and is still used by process \d+: not removed/);
  });
});
