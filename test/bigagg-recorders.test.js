'use strict';
// The bigagg study's recorders for the gates of read 3 (issue #34): mongod's resident memory and
// the memory cgroup limit on it (001-bigagg-default-cache-disk), the cache's bytes and evicted pages
// around a cold scan (001-bigagg-cache-uncompressed), and a cache mongod refuses to start with
// (001-bigagg-2mb-cache: cacheStartRefused, the run going on). On a mongod of this file's own: the
// cache part restarts it.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { useTmpDir } = require('./helpers');
const { startEmbedded } = require('../lib/infra/server');
const { memoryLimitOf } = require('../lib/infra/cgroup-memory');
const { limitMemory, cgroupsWritable } = require('../lib/infra/memory-limit');
const { processesUsing } = require('../lib/infra/processes');
const B = require('../lib/studies/bigagg/mot');
const { CACHES, restartWithArgs } = require('../lib/studies/bigagg/cache');
const { beforePoint } = require('../lib/studies/bigagg/restarts');
const runs = require('../lib/studies/bigagg/state');
const { LabError } = require('../lib/infra/errors');
const { findStudy } = require('../lib/studies');
const { runStudy } = require('../lib/core/run-study');
const claims = require('../lib/core/claims');

const GIB = 1073741824;
const SEED = 5;

/** This process's memory group line in /proc/self/cgroup: v1 "N:memory:/x" or v2 "0::/x". */
function ownGroup() {
  const lines = fs.readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const v1 = lines.find((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l));
  return v1
    ? { v: 1, group: v1.split(':').slice(2).join(':') }
    : { v: 2, group: lines.find((l) => l.startsWith('0::')).slice(3) };
}

describe('bigagg recorders: resident memory, the memory limit, cache bytes and evictions, a refused cache', function () {
  const tmp = useTmpDir('recbig-');

  describe('memoryLimitOf (a cgroup file system laid out under LAB_CGROUP_ROOT)', function () {
    afterEach(() => delete process.env.LAB_CGROUP_ROOT);

    it("reads the smallest limit of the process's memory group and its ancestors; v1's huge value and v2's max are none", function () {
      const own = ownGroup();
      const root = path.join(tmp.dir, 'cg');
      const at = (dir, file, text) => {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      };
      process.env.LAB_CGROUP_ROOT = root;
      if (own.v === 1) {
        const base = path.join(root, 'memory');
        at(base, 'memory.limit_in_bytes', '9223372036854771712\n');
        at(path.join(base, own.group), 'memory.limit_in_bytes', '9223372036854771712\n');
        expect(memoryLimitOf(process.pid), 'the kernel writes "no limit" as ~2^63').to.equal(null);
        at(path.join(base, own.group), 'memory.limit_in_bytes', `${3 * GIB}\n`);
        expect(memoryLimitOf(process.pid)).to.equal(3 * GIB);
        if (own.group !== '/') {
          at(path.join(base, path.dirname(own.group)), 'memory.limit_in_bytes', `${2 * GIB}\n`);
          expect(memoryLimitOf(process.pid), "a parent's smaller limit bounds the child").to.equal(2 * GIB);
        }
      } else {
        at(root, 'cgroup.controllers', 'cpu memory\n');
        at(path.join(root, own.group), 'memory.max', 'max\n');
        expect(memoryLimitOf(process.pid)).to.equal(null);
        at(path.join(root, own.group), 'memory.max', `${3 * GIB}\n`);
        expect(memoryLimitOf(process.pid)).to.equal(3 * GIB);
      }
      process.env.LAB_CGROUP_ROOT = path.join(tmp.dir, 'none');
      expect(memoryLimitOf(process.pid), 'no cgroup file system').to.equal(null);
      expect(memoryLimitOf(0)).to.equal(null);
    });
  });

  describe('on a mongod of its own', function () {
    let server = null;
    before(async function () {
      this.timeout(60000);
      server = await startEmbedded();
    });
    after(async function () {
      if (server) await server.stop();
    });

    it('a memory cgroup on mongod is recorded as memoryLimitBytes beside its resident memory', async function () {
      if (!cgroupsWritable('/sys/fs/cgroup')) this.skip(); // needs root and a memory controller (lib/infra/memory-limit.js)
      const c = await MongoClient.connect(server.uri);
      try {
        const free = await B.measured(c.db('admin'), server.pid, () => c.db('admin').command({ ping: 1 }));
        expect(free.memoryLimitBytes, 'the test machine puts no limit on mongod').to.equal(memoryLimitOf(server.pid));
        const limit = limitMemory(server, 3072);
        try {
          const m = await B.measured(c.db('admin'), server.pid, () => c.db('admin').command({ ping: 1 }));
          expect(m.memoryLimitBytes).to.equal(3072 * 1048576);
          expect(m.residentBytes)
            .to.be.a('number')
            .and.above(10 * 1048576);
        } finally {
          limit.release();
        }
      } finally {
        await c.close();
      }
    });

    it('the cold and cache parts carry the fields the gates read; a refused cache is recorded and the run goes on', async function () {
      this.timeout(240000);
      // mongod 6.0.5 starts with the source's cache_size=2M (test/bigagg.test.js: it reports 2 MB), so
      // the refusal is made real another way: the 2 MB point passes WiredTiger a key it does not know,
      // and mongod really refuses to start (a WiredTiger error, then a fatal assertion).
      const twoMb = CACHES['2MB'];
      CACHES['2MB'] = ['--wiredTigerEngineConfigString', 'cache_size=2M,lab_refusal_probe=1'];
      const out = [];
      const logged = [];
      let r;
      try {
        r = await runStudy(findStudy('bigagg'), {
          server,
          dbName: 'perflab_bigagg_rec',
          echo: (x) => out.push(x),
          log: (x) => logged.push(x),
          params: { N: 5000, SEED, RUNS: 2, WARMUP: 1, PARTS: 'cold,cache', COMPRESSORS: 'zlib' },
        });
      } finally {
        CACHES['2MB'] = twoMb;
      }
      const res = r.records.filter((x) => x.type === 'result' && !x.skipped);
      expect(res.map((x) => `${x.variant}@${x.axis.cache || x.axis.part}`)).to.have.members([
        'cold@cold',
        'scan-cpu@default',
        'scan-cpu@0.25GB',
      ]);
      for (const x of res) {
        expect(x.agrees, x.variant).to.equal(true);
        const e = x.extra;
        expect(e.residentBytes, x.variant)
          .to.be.a('number')
          .and.above(10 * 1048576);
        expect(e.memoryLimitBytes, x.variant).to.equal(memoryLimitOf(server.pid)); // null: no limit here
        expect(e.pagesEvicted, x.variant).to.be.a('number').and.at.least(0);
        expect(e.bytesInCache, x.variant).to.be.a('number').and.above(0);
        expect(e.bytesInCacheBefore, x.variant).to.be.a('number').and.at.least(0);
        expect(e.cacheMaxBytes, x.variant).to.be.a('number');
      }
      const cold = res.find((x) => x.variant === 'cold');
      expect(cold.extra.bytesInCache, 'a cold scan fills the cache').to.be.above(cold.extra.bytesInCacheBefore);

      // the refusal: a measure of the 2 MB point with mongod's own log line, its scan skipped, not timed
      const refused = r.records.filter((x) => x.type === 'measure' && x.name === 'cacheStartRefused');
      expect(refused).to.have.length(1);
      expect(refused[0].axis).to.include({ part: 'cache', cache: '2MB' });
      expect(refused[0].value).to.match(/unknown configuration key: 'lab_refusal_probe'/);
      const skipped = r.records.find((x) => x.type === 'result' && x.skipped && x.axis.cache === '2MB');
      expect(skipped, 'the 2 MB scan is skipped').to.not.equal(undefined);
      expect(
        r.records.some((x) => x.type === 'measure' && x.name === 'cacheMaxBytes' && x.axis.cache === '2MB'),
        'no cache size for a cache that never ran',
      ).to.equal(false);
      expect(logged.join('\n')).to.match(/refused to start with the 2MB cache .*the run goes on/);
      expect(out.join('\n')).to.match(/001-bigagg-2mb-cache: FAILS/);

      // the server is left as it was started, and the refused mongod left nothing behind
      const c = await MongoClient.connect(server.uri);
      try {
        expect((await B.cacheCounters(c.db('admin'))).maxBytes).to.be.greaterThan(256 * 1024 ** 2);
      } finally {
        await c.close();
      }
      expect(processesUsing(server.dbPath).map(Number)).to.deep.equal([server.pid]);

      // the gates read exactly these fields (judged at the source's scale, so the tiny N is no refusal)
      const entry = findStudy('bigagg');
      // this machine as a result file records it: its RAM and the server's default cache
      const ramGB = Math.round(os.totalmem() / GIB);
      const env = {
        server: { version: server.version, storageEngine: 'wiredTiger', cacheBytes: server.cacheSizeBytes },
        host: { memoryGB: ramGB },
      };
      const judge = (records) =>
        Object.fromEntries(claims.judge(entry, records, env, { bigagg: { N: 10000000 } }).map((j) => [j.id, j]));
      const j = judge(r.records);
      expect(j['001-bigagg-2mb-cache'].verdict).to.equal('fails');
      expect(j['001-bigagg-2mb-cache'].why).to.include(refused[0].value);
      // cache-uncompressed: the real cold scan records its configured cache (the gate's evidence)
      const once = j['001-bigagg-cache-uncompressed'].setting;
      expect(once.ok, once.here).to.equal(true);
      expect(once.here).to.match(/\d+ pages evicted during the scan, [\d,]+ MB in the cache after it/);
      // default-cache-disk: the real default-cache run beside zlib files of twice the RAM: its resident
      // memory passes the gate; the same run without residentBytes is refused (fails closed)
      const files = { type: 'measure', study: 'bigagg', name: 'storageBytes', value: 2 * ramGB * GIB };
      files.axis = { part: 'compression', compressor: 'zlib' };
      const data = { ...files, name: 'dataBytes', value: 6 * ramGB * GIB };
      // At 5,000 records a default cache keeps everything after the first run (nothing read into it
      // again, so no run the rule reads): that premise is set by hand; the resident memory, the
      // limit and the configured cache are the run's own.
      const withFiles = r.records
        .filter((x) => !(x.type === 'measure' && /^(storage|data)Bytes$/.test(x.name)))
        .map((x) =>
          x.type === 'result' && x.axis.cache === 'default'
            ? { ...x, extra: { ...x.extra, bytesReadIntoCache: 3 * ramGB * GIB, diskReadBytes: ramGB * GIB } }
            : x,
        );
      const pass = judge([...withFiles, files, data])['001-bigagg-default-cache-disk'];
      expect(pass.setting.ok, pass.setting.here).to.equal(true);
      expect(pass.setting.here).to.match(/resident/);
      const blind = withFiles.map((x) =>
        x.type === 'result' && x.axis.cache === 'default'
          ? { ...x, extra: { ...x.extra, residentBytes: undefined } }
          : x,
      );
      const refusal = judge([...blind, files, data])['001-bigagg-default-cache-disk'];
      expect(refusal.setting.ok).to.equal(false);
      expect(refusal.setting.absent).to.equal('no-evidence');
    });

    it('a mongod that will not start again with its own arguments after a refused cache stops the run in one line, leaving no process', async function () {
      this.timeout(60000);
      const own = server.mms.instanceInfo.instance.instanceOpts.args.slice();
      const twoMb = CACHES['2MB'];
      CACHES['2MB'] = ['--wiredTigerEngineConfigString', 'cache_size=2M,lab_refusal_probe=1'];
      const ctx = { server, log: () => {}, db: null, reopen: async () => {} };
      // the arguments the study owes the server, made ones mongod refuses too (a cache below 0.25 GB)
      runs.of(ctx).args = [...own, '--wiredTigerCacheSizeGB', '0.1'];
      let err = null;
      try {
        await beforePoint(ctx, {}, { part: 'cache', cache: '2MB', compressor: 'zlib' });
      } catch (e) {
        err = e;
      } finally {
        CACHES['2MB'] = twoMb;
      }
      try {
        expect(err).to.be.an.instanceOf(LabError);
        expect(err.message.split('\n')).to.have.length(1);
        expect(err.message).to.match(
          /^bigagg: mongod refused to start with the 2MB cache \(.*lab_refusal_probe.*\), then did not start again with its own arguments \(.*\): the run stops/,
        );
        expect(processesUsing(server.dbPath), 'no mongod left on its data files').to.deep.equal([]);
      } finally {
        await restartWithArgs(server, own); // the file's later checks need it
      }
      const c = await MongoClient.connect(server.uri);
      await c.db('admin').command({ ping: 1 });
      await c.close();
    });
  });
});
