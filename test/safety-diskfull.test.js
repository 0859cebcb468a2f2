'use strict';
// A disk that fills under a mongod the lab started is named in one line, not "the server went away":
// the temp folder of a run's embedded mongod, and the --dbpath of `server`. The disk is a small
// tmpfs (root only; skipped elsewhere) filled by another writer once the command is under way, as a
// disk shared with other programs fills; mongod then dies (it cannot write its diagnostic data or
// its journal). Through the real CLI; the mounts are removed in after().
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { sleep, alive, lab, oneLine } = require('./helpers');

let fillers = 0;

/** Writes a new file into dir until the device is full (ENOSPC). */
function fill(dir) {
  const fd = fs.openSync(path.join(dir, `filler-${fillers++}`), 'w');
  const chunk = Buffer.alloc(1 << 20, 7);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (e) {
    if (e.code !== 'ENOSPC') throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** Keeps dir full (whatever mongod frees is taken again); returns stop(). */
function keepFull(dir) {
  fill(dir);
  const t = setInterval(() => fill(dir), 250);
  return () => clearInterval(t);
}

describe('safety: a disk that fills under a mongod the lab started is named', function () {
  this.timeout(240000);
  let tmp;
  const mounts = [];
  const tmpfs = (name, size) => {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status !== 0) return null;
    mounts.push(dir);
    return dir;
  };
  before(function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labtest-diskfull-'));
  });
  after(function () {
    for (const m of mounts) spawnSync('umount', ['-l', m]);
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a temp folder that fills during a run: one line naming the folder and what to do; nothing left', async function () {
    const small = tmpfs('tmpdir', '320m');
    if (!small) this.skip();
    let pid = null;
    let filledAt = null;
    let stopFilling = () => {};
    const r = lab(
      ['run', 'where', '--docs', '400000', '--runs', '1', '--out', path.join(tmp, 'out'), '--no-progress'],
      {
        cwd: tmp,
        env: { TMPDIR: small, MONGODB_URI: '' },
        onOutput: (io) => {
          const m = /^server: embedded mongod \(pid (\d+),/m.exec(io.err);
          if (m && filledAt === null) {
            pid = Number(m[1]);
            stopFilling = keepFull(small);
            filledAt = Date.now();
          }
        },
      },
    );
    const { code, at } = await r.done;
    stopFilling();
    expect(filledAt, r.io.err).to.not.equal(null);
    expect(oneLine(r, code)).to.match(
      new RegExp(
        `^mongo-perf-lab: the embedded mongod stopped: the temp folder ${small} is full, \\d+ MB free: ` +
          'free some space there, set TMPDIR to a folder with room, or give --uri$',
      ),
    );
    expect(r.io.err).to.not.match(/went away|InterruptedAtShutdown|\n\s+at /);
    expect(at - filledAt, `reported ${at - filledAt} ms after the disk filled`).to.be.below(60000);
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
    expect(alive(pid)).to.equal(false);
    // the run directory went with the run: only the filler is left
    const others = () => fs.readdirSync(small).filter((f) => !f.startsWith('filler-'));
    for (let i = 0; i < 50 && others().length; i++) await sleep(100);
    expect(others()).to.deep.equal([]);
  });

  it('server --dbpath on a disk that fills: one line naming --dbpath and what to do, exit 1', async function () {
    const disk = tmpfs('dbdisk', '320m');
    if (!disk) this.skip();
    const dbpath = path.join(disk, 'data');
    let member = null;
    let filledAt = null;
    let stopFilling = () => {};
    const r = lab(['server', '--dbpath', dbpath], {
      cwd: tmp,
      env: { MONGODB_URI: '' },
      onOutput: (io) => {
        const m = /127\.0\.0\.1:(\d+)\s+pid (\d+)/.exec(io.err);
        if (m && filledAt === null && /Ctrl-C stops/.test(io.err)) {
          member = { port: Number(m[1]), pid: Number(m[2]) };
          stopFilling = keepFull(disk);
          filledAt = Date.now();
        }
      },
    });
    try {
      const { code, at } = await r.done;
      expect(member, r.io.err).to.not.equal(null);
      expect(oneLine(r, code)).to.match(
        new RegExp(
          `^mongo-perf-lab server: mongod \\(pid ${member.pid}, port ${member.port}\\) exited on its own \\(\\w+\\): ` +
            `mongod stopped: the disk holding --dbpath ${dbpath} is full, \\d+ MB free: free some space there, or use another --dbpath; stopping$`,
        ),
      );
      expect(at - filledAt).to.be.below(60000);
      expect(alive(member.pid)).to.equal(false);
    } finally {
      stopFilling();
      if (member && alive(member.pid)) process.kill(member.pid, 'SIGKILL');
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
    }
  });
});
