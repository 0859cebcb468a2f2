'use strict';
// Source 003, RAM short (003-touch-both's gate, claims.js ramShort): every state pass records what
// the mongod read from its disk meanwhile (lib/infra/process-io.js), and RAM_MB puts the embedded
// mongod in a memory cgroup of its own (lib/infra/memory-limit.js), removed however the run ends.
// LAB_CGROUP_ROOT (tests only) points the module at another cgroup mount, to see its refusals.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { startEmbedded, describeServer } = require('../lib/infra/server');
const { ioCounters, ioSince, localMongodPid, onLoopback } = require('../lib/infra/process-io');
const { limitMemory, findController, cgroupsWritable } = require('../lib/infra/memory-limit');
const { stateRecords } = require('../lib/studies/timeseries/state-records');
const { limitRam } = require('../lib/studies/timeseries/states');
const { VERDICT } = require('../lib/core/claims');
const tsFixture = require('../fixtures/timeseries');
const timeseries = require('../lib/studies/timeseries');
const { verdictOfWith } = require('./unit/claims-records');
const { lab, labCli, useTmpDir } = require('./helpers');

const DB = 'tsram';
const N = 20000;
const ENV = { server: { version: '6.0.5', cacheBytes: 12 * 1024 ** 3 }, host: { cores: 2, memoryGB: 23.5 } };
const verdictOf = verdictOfWith(ENV);

/** The memory cgroup a process is in (the v1 memory line, else the v2 one), as /proc says. */
function groupOf(pid) {
  const lines = fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n');
  const line = lines.find((l) => /:memory:/.test(l)) || lines.find((l) => l.startsWith('0::'));
  return line.split(':').slice(2).join(':');
}

/** The lab's groups left under the memory controller (none once a run is over). */
function labGroups() {
  const c = findController('/sys/fs/cgroup');
  if (c.missing) return [];
  return fs.readdirSync(c.parent).filter((n) => n.startsWith(`mongo-perf-lab-`));
}

/** Whether another user could load this file: every folder above it searchable, the file readable. */
function readableByOthers(file) {
  const { S_IROTH, S_IXOTH } = fs.constants;
  if (!(fs.statSync(file).mode & S_IROTH)) return false;
  for (let d = path.dirname(file); ; d = path.dirname(d)) {
    if (!(fs.statSync(d).mode & S_IXOTH)) return false;
    if (d === path.dirname(d)) return true;
  }
}

describe('timeseries study (source 003): RAM short, the disk reads of every pass and RAM_MB', function () {
  const tmp = useTmpDir('tsram-');

  describe('the recorder', function () {
    it("reads a live process's read_bytes and major faults from /proc, and nothing for a pid that is gone or remote", function () {
      const mine = ioCounters(process.pid);
      expect(mine.readBytes).to.be.a('number').and.at.least(0);
      expect(mine.majorFaults).to.be.a('number').and.at.least(0);
      const since = ioSince(mine, process.pid);
      expect(since.diskReadBytes).to.be.at.least(0);
      expect(since.majorFaults).to.be.at.least(0);
      expect(ioCounters(null)).to.equal(null);
      expect(ioSince(null, null)).to.deep.equal({ diskReadBytes: null, majorFaults: null });
      // a restart between the two readings (another pid): unknown, never a difference of two processes
      expect(ioSince(mine, process.pid + 1e7)).to.deep.equal({ diskReadBytes: null, majorFaults: null });
      // a server on another machine: no pid to read, even if its serverStatus names one that runs here
      const remote = { embedded: false, uri: 'mongodb://db.example.net:27017' };
      expect(localMongodPid(remote, { pid: process.pid })).to.equal(null);
      expect(onLoopback('mongodb://127.0.0.1:27017,localhost:27018/?replicaSet=x')).to.equal(true);
      expect(onLoopback('mongodb://u:p@db.example.net:27017')).to.equal(false);
      // this node process is on the loopback, but it is not a mongod
      expect(localMongodPid({ uri: 'mongodb://127.0.0.1:1' }, { pid: process.pid })).to.equal(null);
    });

    it('the gate (003-touch-both): refuses passes that read nothing from disk, or did not record it; passes once every warm-both pass re-read from disk', function () {
      const three = (x) => [x, x * 1.02, x * 0.98];
      const COLD = { read: { data: 1e6, created_on_1: 1e6 }, cached: {} };
      const SMALL = { cacheBytes: 0.25 * 1024 ** 3, dataBytes: 245e6, indexBytes: 118e6, events: 5e6 };
      const run = (disk) =>
        stateRecords(
          { cold: { times: three(10), ...COLD }, 'warm-both': { times: three(40), ...COLD, ...disk } },
          { setting: SMALL, cache: '0.25GB' },
        );
      for (const disk of [{}, { diskReadBytes: null, majorFaults: null }, { diskReadBytes: 0, majorFaults: 0 }]) {
        const v = verdictOf(timeseries, '003-touch-both', run(disk));
        expect(v.verdict, JSON.stringify(disk)).to.equal(VERDICT.NOT_REPRODUCED);
        expect(v.setting.absent, JSON.stringify(disk)).to.equal('ram');
      }
      expect(verdictOf(timeseries, '003-touch-both', run({ diskReadBytes: 4e6, majorFaults: 0 })).verdict).to.equal(
        VERDICT.HOLDS,
      );
      // major faults alone are no evidence (read-3 dispute 16: WiredTiger reads its files with pread,
      // so they count anonymous memory and the binary, not data re-reads)
      expect(verdictOf(timeseries, '003-touch-both', run({ majorFaults: 12 })).setting.absent).to.equal('ram');
    });
  });

  describe('on an embedded mongod of its own', function () {
    let server;

    before(async function () {
      server = await startEmbedded({ cacheSizeGB: 0.3 });
      const client = new MongoClient(server.uri);
      try {
        await client.connect();
        await tsFixture.load(client.db(DB), { n: N, seed: 3 });
      } finally {
        await client.close();
      }
    });
    after(async function () {
      if (server) await server.stop();
    });

    const statesRun = (params, log) =>
      timeseries.helpers.statesOnServer({
        server,
        dbName: DB,
        log,
        params: { COLL: 'randomData', N, SEED: 3, PASSES: 2, ...params },
        grains: ['hours'],
        states: timeseries.helpers.STATES.filter((s) => ['cold', 'warm-both'].includes(s.name)),
      });

    it('every state pass and warm-up records the bytes its mongod read from disk and its major faults (numbers >= 0)', async function () {
      const records = await statesRun({});
      const results = records.filter((r) => r.type === 'result');
      expect(results.map((r) => r.axis.state).sort()).to.deep.equal(['cold', 'warm-both']);
      for (const r of results) {
        expect(r.extra.ramMB).to.equal(undefined);
        expect(r.extra.passes).to.have.length(2);
        for (const p of r.extra.passes) {
          expect(p.diskReadBytes, r.axis.state).to.be.a('number').and.at.least(0);
          expect(p.majorFaults, r.axis.state).to.be.a('number').and.at.least(0);
          // read-3 dispute 16: mongod's resident memory and the collection's file bytes, beside the RAM gate
          expect(p.rssBytes, r.axis.state).to.be.a('number').and.above(0);
          expect(p.residency.before.data.storageSize, r.axis.state).to.be.a('number').and.above(0);
        }
      }
      const warmups = records.filter((r) => r.name === 'warmupMs');
      expect(warmups).to.have.length(2);
      for (const w of warmups) expect(w.extra.diskReadBytes).to.be.a('number').and.at.least(0);
      // read-3 dispute 20: the warm-up's index scans keep their plans, keys only (no FETCH)
      const ixSteps = warmups.flatMap((w) => w.extra.steps).filter((x) => /^index /.test(x.what));
      expect(ixSteps).to.have.length(4);
      for (const x of ixSteps) expect(x.plan.stages, x.what).to.be.an('array').that.does.not.include('FETCH');
    });

    it('RAM_MB: the mongod joins a memory cgroup with that limit, follows it across restarts, and leaves it with nothing behind', async function () {
      if (!cgroupsWritable()) this.skip(); // the refusal is the next test's
      const outside = groupOf(server.pid);
      const limit = limitMemory(server, 700);
      try {
        expect(fs.existsSync(limit.dir)).to.equal(true);
        expect(groupOf(server.pid)).to.equal(outside.replace(/\/$/, '') + '/' + path.basename(limit.dir));
        const limitFile = ['memory.limit_in_bytes', 'memory.max'].find((f) => fs.existsSync(path.join(limit.dir, f)));
        expect(Number(fs.readFileSync(path.join(limit.dir, limitFile), 'utf8'))).to.equal(700 * 1048576);
        const before = server.pid;
        await server.restart();
        expect(server.pid).to.not.equal(before);
        expect(groupOf(server.pid)).to.match(/mongo-perf-lab-\d+-\d+$/);
      } finally {
        limit.release();
      }
      expect(fs.existsSync(limit.dir)).to.equal(false);
      expect(groupOf(server.pid)).to.equal(outside);
      // the restart is the server's own again: a later restart does not touch the removed group
      await server.restart();
      expect(groupOf(server.pid)).to.equal(outside);

      // Through the states (RAM_MB as a parameter): the passes ran in the group, which is gone after.
      // 512 MB leave mongod a 0.25 GB cache: lowered from its 0.3 GB for the states, then restored.
      const logged = [];
      const records = await statesRun({ RAM_MB: 512 }, (l) => logged.push(l));
      expect(logged.join('\n')).to.match(/RAM_MB=512: .* share 512 MB .*its WiredTiger cache 256(\.0)? MB at most/);
      expect((await describeServer(server.uri)).cacheSizeBytes).to.be.within(0.29 * 1024 ** 3, 0.31 * 1024 ** 3);
      const results = records.filter((r) => r.type === 'result');
      expect(results).to.have.length(2);
      for (const r of results) expect(r.extra.ramMB, r.axis.state).to.equal(512);
      expect(labGroups().filter((n) => n.startsWith(`mongo-perf-lab-${process.pid}-`))).to.deep.equal([]);
      expect(groupOf(server.pid)).to.equal(outside);
    });

    it('a group left by a run killed with SIGKILL (its pid gone, nothing in it) is removed by the next RAM_MB', function () {
      if (!cgroupsWritable()) this.skip();
      const gone = spawnSync(process.execPath, ['-e', '0']).pid; // a pid that ran and is gone
      const parent = findController('/sys/fs/cgroup').parent;
      const left = path.join(parent, `mongo-perf-lab-${gone}-1`);
      fs.mkdirSync(left);
      try {
        const limit = limitMemory(server, 700);
        limit.release();
        expect(fs.existsSync(left)).to.equal(false);
        expect(fs.existsSync(limit.dir)).to.equal(false);
      } finally {
        if (fs.existsSync(left)) fs.rmdirSync(left);
      }
    });

    it('RAM_MB where no memory cgroup can be made: one line (what, where, what to do), nothing left', async function () {
      for (const root of [path.join(tmp.dir, 'no-cgroups'), '/sys/fs/cgroup/unified']) {
        process.env.LAB_CGROUP_ROOT = root;
        try {
          let err;
          try {
            limitMemory(server, 600);
          } catch (e) {
            err = e;
          }
          expect(err && err.name, root).to.equal('ParameterError');
          expect(err.message).to.match(/^parameter RAM_MB=600: cannot make a memory cgroup .*leave RAM_MB out$/);
          expect(err.message).to.not.include('\n');
        } finally {
          delete process.env.LAB_CGROUP_ROOT;
        }
      }
      // A server the lab did not start, or a limit below mongod's smallest cache: refused the same way.
      expect(() => limitMemory({ embedded: false, uri: 'mongodb://127.0.0.1:27017' }, 600)).to.throw(
        /^parameter RAM_MB=600: only the lab's own embedded mongod .*: run without --uri, or leave RAM_MB out$/,
      );
      const low = await limitRam({ server }, { RAM_MB: 300 }).catch((e) => e);
      expect(low.name).to.equal('ParameterError');
      expect(low.message).to.match(
        /^parameter RAM_MB=300: below what mongod needs .*give at least 512, or leave RAM_MB out$/,
      );
      // Not root (as root: the same module run as user nobody): the real mount refuses the folder.
      // Only where user nobody can read the checkout (a clone in a private mktemp folder is not).
      const moduleFile = require.resolve('../lib/infra/memory-limit');
      if (process.getuid && process.getuid() === 0 && readableByOthers(moduleFile)) {
        const script =
          `try { require(${JSON.stringify(moduleFile)})` +
          `.limitMemory({ embedded: true, pid: process.pid, restart() {} }, 600); console.log('made') }` +
          ' catch (e) { console.log(e.name + ": " + e.message) }';
        const r = spawnSync(process.execPath, ['-e', script], {
          uid: 65534,
          gid: 65534,
          cwd: '/',
          encoding: 'utf8',
          env: { PATH: process.env.PATH },
        });
        expect(r.stdout.trim(), r.stderr).to.match(
          /^ParameterError: parameter RAM_MB=600: cannot make a memory cgroup /,
        );
        if (cgroupsWritable()) expect(r.stdout).to.match(/ in \S+ \(EACCES: not writable here\)/);
      }
    });
  });

  for (const signal of ['SIGINT', 'SIGTERM'])
    it(`the CLI interrupted (${signal}) while its mongod is in the group: the group goes with the run`, async function () {
      if (!cgroupsWritable()) this.skip();
      this.timeout(120000);
      let sent = false;
      const r = lab(['run', 'timeseries', '--profile', 'tiny', '--set', 'RAM_MB=600'], {
        cwd: tmp.dir,
        env: { MONGODB_URI: undefined },
        timeoutMs: 110000,
        onOutput: (io) => {
          if (!sent && /share 600 MB \(memory cgroup/.test(io.err)) {
            sent = true;
            expect(labGroups()).to.have.length(1);
            r.child.kill(signal);
          }
        },
      });
      const { code } = await r.done;
      expect(sent, r.io.err).to.equal(true);
      expect(code, r.io.err).to.equal(signal === 'SIGINT' ? 130 : 143);
      expect(labGroups()).to.deep.equal([]);
    });

  it('the CLI: run timeseries --set RAM_MB=600 leaves no cgroup behind; without cgroups, exit 2 and one line', async function () {
    this.timeout(180000);
    if (cgroupsWritable()) {
      const r = await labCli(['run', 'timeseries', '--profile', 'tiny', '--set', 'RAM_MB=600'], { cwd: tmp.dir });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stderr).to.match(/RAM_MB=600: the embedded mongod and the file pages it caches share 600 MB/);
      expect(labGroups()).to.deep.equal([]);
    }
    const refused = await labCli(['run', 'timeseries', '--profile', 'tiny', '--set', 'RAM_MB=600'], {
      cwd: tmp.dir,
      env: { LAB_CGROUP_ROOT: path.join(tmp.dir, 'no-cgroups') },
    });
    expect(refused.code, refused.stderr).to.equal(2);
    const lines = refused.stderr.split('\n').filter((l) => /RAM_MB/.test(l));
    expect(lines, refused.stderr).to.have.length(1);
    expect(lines[0]).to.match(/cannot make a memory cgroup under .*no-cgroups.*: run as root/);
    expect(refused.stderr).to.not.match(/\n\s+at /);
  });
});
