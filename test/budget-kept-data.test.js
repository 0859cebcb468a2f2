'use strict';
// #37 item 3, data reuse on the embedded mongod: `run --keep` with no server given keeps the
// embedded mongod's data in the lab's cache (here a temporary XDG_CACHE_HOME), a second run with
// --keep reuses the generated collection by its marker and says so, one run at a time holds the
// directory, and `clean --kept-data` removes it.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { labRun } = require('./helpers');
const { findMongod } = require('../lib/infra/mongod-binary');
const { cmdlineOf } = require('../lib/infra/processes');

describe('run --keep on the embedded mongod: its data kept in the cache, reused by marker', function () {
  this.timeout(300000); // tiny runs of where, each with its own mongod start
  let cache;
  let out;
  let env;
  let dir;
  let runs = 0;
  const lab = (args) => labRun(args, { cwd: process.cwd(), env }).done;
  // each run its own --out: the same result file again would resume, measuring nothing
  const runWhere = () =>
    lab(['run', 'where', '--profile', 'tiny', '--keep', '--no-charts', '--out', path.join(out, String(++runs))]);

  before(function () {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-kept-cache-'));
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-kept-out-'));
    dir = path.join(cache, 'mongo-perf-lab', 'kept-data');
    // the cached binary found as the lab finds it, named so the empty cache needs no fetch
    env = { XDG_CACHE_HOME: cache, MONGOMS_SYSTEM_BINARY: findMongod({}).binary, MONGODB_URI: undefined };
  });
  after(function () {
    for (const d of [cache, out]) if (d) fs.rmSync(d, { recursive: true, force: true });
  });

  it('keeps the data in <cache>/mongo-perf-lab/kept-data and says how to remove it', async function () {
    const r = await runWhere();
    expect(r.code, r.stderr).to.equal(0);
    const said = r.stderr.replace(/\s+/g, ' ');
    expect(said).to.contain(`--keep: the embedded mongod keeps its data in ${dir}`);
    expect(said).to.contain('a run with --keep reuses them; remove them with: npx mongo-perf-lab clean --kept-data');
    expect(fs.existsSync(path.join(dir, 'WiredTiger'))).to.equal(true);
    expect(Math.max(...r.stderr.split('\n').map((l) => l.length))).to.be.at.most(100);
  });

  it('a second run with --keep reuses the generated collection by its marker', async function () {
    const r = await runWhere();
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stderr.replace(/\s+/g, ' ')).to.match(/where: reuses perflab\.\w+ \([\d,]+ documents\): its lab marker/);
  });

  it('one run at a time: another run holding the kept data refuses this one in one line, exit 2', async function () {
    const lock = path.join(dir, 'mongo-perf-lab-run.lock');
    fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, cmd: cmdlineOf(process.pid) }));
    try {
      const r = await runWhere();
      expect(r.code).to.equal(2);
      expect(r.stderr.trim().split('\n')[0]).to.equal(
        `mongo-perf-lab: --keep: another run is using the kept data in ${dir}; wait for it to end, or run without --keep`,
      );
      const c = await lab(['clean', '--kept-data']);
      expect(c.code).to.equal(2);
      expect(c.stderr).to.contain(`a run (pid ${process.pid}) is using ${dir}`);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  });

  it('clean --kept-data removes the directory', async function () {
    const r = await lab(['clean', '--kept-data']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.equal(`clean: removed the embedded mongod's kept data, ${dir}\n`);
    expect(fs.existsSync(dir)).to.equal(false);
  });
});
