'use strict';
// Study 001, second half: the MOT "banding" aggregation (compression, cache size, parallelism).
const { expect } = require('chai');
const { testDatabase, linesOver100 } = require('./helpers');
const { startEmbedded } = require('../lib/infra/server');
const { MongoClient } = require('mongodb');
const LabBands = require('../scripts/bigagg_pipelines');
const B = require('../lib/studies/bigagg/mot');
const os = require('os');
const { restartWithCache, restartWithArgs } = require('../lib/studies/bigagg/cache');
const { findStudy } = require('../lib/studies');
const { runStudy } = require('../lib/core/run-study');
const { interleave, timeAsync } = require('../lib/core/harness');
const { csvBytes } = require('../lib/studies/bigagg/csv');

const N = 30000;
const SEED = 5;

describe('bigagg (source 001, second half): the MOT banding aggregation', function () {
  let t;
  const want = B.oracle(N, SEED);
  // One mongod of this file's own for the two checks that restart it (the cache sizes, then the
  // runner's cold and cache parts, each leaving it on the arguments it started with): started by
  // the first to need it, stopped when the file ends. A start and a stop each cost a mongod's
  // start-up and shutdown (and mongodb-memory-server's watchdog process).
  let own = null;
  const ownServer = async () => {
    if (!own) own = await startEmbedded();
    return own;
  };

  before(async function () {
    t = await testDatabase('bigagg');
    for (const c of B.COMPRESSORS) await B.loadMot(t.db, B.collName('mot', c), { n: N, seed: SEED, compressor: c });
  });
  after(async function () {
    if (t) await t.close();
    if (own) await own.stop();
  });

  // The generator's and the oracle's checks that need no server: test/unit/bigagg.test.js.
  describe('pipeline forms against the plain-Node oracle', function () {
    for (const name of Object.keys(LabBands.FORMS)) {
      it(`${name}: equals the oracle, colliding keys merged as the source's $group merges them`, async function () {
        const got = await B.aggregate(t.db, 'mot_snappy', LabBands.FORMS[name].pipeline());
        expect(got).to.deep.equal(want);
      });
    }
  });

  describe('compression', function () {
    it('every compressor gives the same answer', async function () {
      for (const c of B.COMPRESSORS) {
        expect(await B.aggregate(t.db, B.collName('mot', c), LabBands.groupPipeline()), c).to.deep.equal(want);
      }
    });

    it('each collection really uses its block compressor; storage zstd, zlib < snappy < none', async function () {
      const st = {};
      for (const c of B.COMPRESSORS) {
        st[c] = await B.storage(t.db, B.collName('mot', c));
        expect(st[c].compressor, c).to.equal(c);
        expect(st[c].count).to.equal(N);
      }
      expect(st.zstd.storageBytes).to.be.below(st.snappy.storageBytes);
      expect(st.zlib.storageBytes).to.be.below(st.snappy.storageBytes);
      expect(st.snappy.storageBytes).to.be.below(st.none.storageBytes);
    });

    it('re-loading with the same spec adds nothing; another compressor replaces the collection', async function () {
      const again = await B.loadMot(t.db, 'mot_zstd', { n: N, seed: SEED, compressor: 'zstd' });
      expect(again.generated).to.equal(false);
      await B.loadMot(t.db, 'mot_swap', { n: 1000, seed: SEED, compressor: 'none' });
      await B.loadMot(t.db, 'mot_swap', { n: 1000, seed: SEED, compressor: 'zlib' });
      expect((await B.storage(t.db, 'mot_swap')).compressor).to.equal('zlib');
    });

    it('refuses an unknown compressor with one clear line, and never fills a collection it does not own', async function () {
      let err;
      try {
        await B.loadMot(t.db, 'mot_bad', { n: 10, compressor: 'lz4' });
      } catch (e) {
        err = e;
      }
      expect(err.message).to.match(/^compressor "lz4": expected one of none, snappy, zlib, zstd$/);
      await t.db.collection('theirs').insertOne({ _id: 1 });
      err = null;
      try {
        await B.loadMot(t.db, 'theirs', { n: 10, compressor: 'zstd' });
      } catch (e) {
        err = e;
      }
      expect(err && err.message).to.match(/never fills, indexes, drops or converts a collection it did not make/);
      expect(await t.db.collection('theirs').countDocuments()).to.equal(1);
    });
  });

  describe('split and merge (what a sharded $group does)', function () {
    for (let k = 1; k <= 8; k++) {
      it(`k = ${k} equal _id ranges, partial groups merged, equal the single run`, async function () {
        expect(await B.splitMerge(t.db, 'mot_zstd', { k, lo: 0, hi: N })).to.deep.equal(want);
      });
    }

    it('uneven ranges (weights 1:7:2:13:1), ranges beyond the data, and the server-side merger part agree', async function () {
      expect(await B.splitMerge(t.db, 'mot_zstd', { k: 5, lo: 0, hi: N, weights: [1, 7, 2, 13, 1] })).to.deep.equal(
        want,
      );
      expect(await B.splitMerge(t.db, 'mot_zstd', { k: 3, lo: N / 2, hi: N * 3 })).to.deep.equal(want);
      expect(
        await B.splitMerge(t.db, 'mot_zstd', { k: 4, lo: 0, hi: N, weights: [5, 1, 1, 9], serverMerge: true }),
      ).to.deep.equal(want);
    });

    it('on a clustered collection (ranges are bounded scans, no index) k = 1..4 and uneven ranges equal the oracle', async function () {
      await B.loadMot(t.db, 'mot_clustered', { n: N, seed: SEED, compressor: 'snappy', clustered: true });
      const ex = JSON.stringify(await t.db.collection('mot_clustered').aggregate(LabBands.shardPart(0, 100)).explain());
      expect(ex).to.include('CLUSTERED_IXSCAN');
      for (const k of [1, 2, 3, 4])
        expect(await B.splitMerge(t.db, 'mot_clustered', { k, lo: 0, hi: N }), `k=${k}`).to.deep.equal(want);
      expect(await B.splitMerge(t.db, 'mot_clustered', { k: 4, lo: 0, hi: N, weights: [1, 1, 1, 5] })).to.deep.equal(
        want,
      );
    });

    it('each range alone equals the oracle over that range (partials are real partials)', async function () {
      const [a, b] = LabBands.ranges(0, N, 2, [1, 3])[1];
      const got = B.normalize(await t.db.collection('mot_zstd').aggregate(LabBands.shardPart(a, b)).toArray());
      expect(got).to.deep.equal(B.oracle(N, SEED, { lo: a, hi: b }));
    });

    it('several aggregations at once all give the single answer', async function () {
      for (const got of await B.concurrent(t.db, 'mot_zstd', LabBands.groupPipeline(), 3))
        expect(got).to.deep.equal(want);
    });

    it('on a plain mongod the topology is not a mongos (the mongos path is taken only with a mongos URI)', async function () {
      expect(await B.topology(t.db)).to.deep.equal({ mongos: false, shards: 0 });
    });
  });

  describe('cache size on the same data files (own embedded server)', function () {
    let server;
    let client;
    // the arguments the server started with, while a cache restart has replaced them
    let original;
    before(async function () {
      server = await ownServer();
      client = await MongoClient.connect(server.uri);
      await B.loadMot(client.db('perflab_test'), 'mot_zlib', { n: 5000, seed: SEED, compressor: 'zlib' });
    });
    after(async function () {
      if (client) await client.close();
      // The runner's check below uses the same server: give it back as started if the test stopped
      // half-way.
      if (original) await restartWithArgs(server, original);
    });

    it("0.25 GB and the source's cache_size=2M start, report their cache size, and give the same answer", async function () {
      const small = B.oracle(5000, SEED);
      const sizes = {};
      for (const cache of ['0.25GB', '2MB']) {
        await client.close();
        const before = await restartWithCache(server, cache);
        if (!original) original = before;
        client = await MongoClient.connect(server.uri);
        const db = client.db('perflab_test');
        const m = await B.measured(db, server.pid, () => B.aggregate(db, 'mot_zlib', LabBands.seedPipeline()));
        expect(m.answer).to.deep.equal(small);
        expect(m.bytesReadIntoCache).to.be.greaterThan(0); // a restart empties the cache
        expect(m.cpuSeconds).to.be.a('number');
        sizes[cache] = m.cacheMaxBytes;
      }
      expect(sizes['0.25GB']).to.equal(0.25 * 1024 ** 3);
      expect(sizes['2MB']).to.equal(2 * 1024 ** 2);
      await client.close();
      await restartWithArgs(server, original);
      original = null;
      client = await MongoClient.connect(server.uri);
      const c = await B.cacheCounters(client.db('perflab_test'));
      expect(c.maxBytes).to.be.greaterThan(256 * 1024 ** 2);
    });
  });
  describe('the declaration scripts/bigagg.js and the runner', function () {
    // Both mongosh checks in one mongosh process (test/helpers.js cliBatch): the run, then the
    // refusal, left uncaught so the process shows the exit a run of its own gives.
    let batch;
    before(async function () {
      this.timeout(600000);
      batch = await t.cliBatch(
        [
          { script: 'bigagg.js', params: { N: 3000, SEED: 9, COLL: 'mot_cli', GENERATE: true, RUNS: 1 } },
          { script: 'bigagg.js', params: { N: -5 } },
        ],
        { lastUncaught: true },
      );
    });

    it("real mongosh CLI from another directory: generates with the shell, every form agrees, data equals Node's", async function () {
      const r = batch.cases[0];
      expect(r.error, r.stdout).to.equal(null);
      const recs = r.records.filter((x) => x.type === 'result');
      expect(recs.map((x) => x.variant)).to.have.members(Object.keys(LabBands.FORMS));
      for (const x of recs) expect(x.agrees, x.variant).to.equal(true);
      expect(r.stdout).to.include('all variants agree');
      // the shell's generator made the same documents as Node's: the answer is the oracle's
      expect(await B.aggregate(t.db, 'mot_cli', LabBands.seedPipeline())).to.deep.equal(B.oracle(3000, 9));
    });

    it('bad parameters: one clear line and a non-zero exit (CLI), a clear error (runner)', async function () {
      expect(batch.code).to.not.equal(0);
      expect(batch.stderr + batch.cases[1].stdout).to.match(/parameter N: expected a whole number >= 0, got -5/);
      const server = { uri: t.uri, version: '6.0.5', embedded: false };
      for (const [params, re] of [
        [{ PARTS: 'forms,warp' }, /^parameter PARTS: unknown part "warp"/],
        [{ COMPRESSORS: 'lz4' }, /^parameter COMPRESSORS: unknown compressor "lz4"/],
        [{ NOPE: 1 }, /^parameter NOPE: study bigagg has no such parameter/],
      ]) {
        let err;
        try {
          await runStudy(findStudy('bigagg'), { server, dbName: t.dbName, params: { N: 1000, ...params } });
        } catch (e) {
          err = e;
        }
        expect(err && err.message, JSON.stringify(params)).to.match(re);
      }
    });

    it('runner: forms, compression, split and concurrent parts; every record agrees with the oracle; tables and verdicts print', async function () {
      const out = [];
      const server = { uri: t.uri, version: '6.0.5', embedded: false };
      const r = await runStudy(findStudy('bigagg'), {
        server,
        dbName: t.dbName,
        echo: (x) => out.push(x),
        params: {
          N,
          SEED,
          RUNS: 1,
          WARMUP: 0,
          PARTS: 'forms,compression,split,concurrent',
          COMPRESSORS: 'snappy,zstd',
        },
      });
      const res = r.records.filter((x) => x.type === 'result' && !x.skipped);
      expect(res.length).to.be.greaterThan(10);
      for (const x of res) expect(x.agrees, `${x.variant} @ ${JSON.stringify(x.axis)}`).to.equal(true);
      const parts = new Set(res.map((x) => x.axis.part));
      expect([...parts]).to.have.members(['forms', 'compression', 'split', 'concurrent']);
      const text = out.join('\n');
      expect(text).to.include('001-bigagg-zlib-size: INCONCLUSIVE'); // no zlib collection in this run
      // the parallel claims need two free cores: on a busy or one-core machine the gate refuses (fails closed)
      expect(text).to.match(
        /001-bigagg-one-thread: (HOLDS|STRONGER|WEAKER|NO-EFFECT|REVERSED|INCONCLUSIVE|NOT-REPRODUCED)/,
      );
      expect(text).to.include('Storage and load per block compressor');
      // 001-bigagg-bson-vs-csv: the same records as CSV, counted once, beside the BSON dataSize
      const csv = r.records.filter((x) => x.type === 'measure' && x.name === 'csvBytes');
      expect(csv).to.have.length(1);
      const again = csvBytes(N, SEED);
      expect(csv[0].value).to.equal(again.bytes);
      expect(again.rows).to.equal(N);
      const data = r.records.find(
        (x) => x.type === 'measure' && x.name === 'dataBytes' && x.axis.compressor === csv[0].axis.compressor,
      );
      expect(data.value / csv[0].value).to.be.within(1.2, 2.1);
      expect(text).to.match(/001-bigagg-bson-vs-csv: (HOLDS|INCONCLUSIVE) \| ours: BSON\/CSV 1\.\d\dx/);
    });

    it('runner on its own embedded server: cold (restarts) and the three cache sizes, answers equal the oracle', async function () {
      const server = await ownServer();
      const out = [];
      const logged = [];
      const r = await runStudy(findStudy('bigagg'), {
        server,
        dbName: 'perflab_bigagg_test',
        echo: (x) => out.push(x),
        log: (x) => logged.push(x),
        params: { N: 5000, SEED, RUNS: 1, WARMUP: 0, PARTS: 'cold,cache', COMPRESSORS: 'zlib' },
      });
      const res = r.records.filter((x) => x.type === 'result' && !x.skipped);
      expect(res.map((x) => `${x.variant}@${x.axis.cache || x.axis.part}`)).to.have.members([
        'cold@cold',
        'scan-cpu@default',
        'scan-cpu@0.25GB',
        'scan-cpu@2MB',
      ]);
      for (const x of res) expect(x.agrees, x.variant).to.equal(true);
      const cache = r.records.filter((x) => x.type === 'measure' && x.name === 'cacheMaxBytes').map((x) => x.value);
      expect(cache.slice(1)).to.deep.equal([0.25 * 1024 ** 3, 2 * 1024 ** 2]);
      expect(res.find((x) => x.variant === 'cold').extra.bytesReadIntoCache).to.be.greaterThan(0);
      // the server is left as it was started (default cache)
      const c = await MongoClient.connect(server.uri);
      expect((await B.cacheCounters(c.db('admin'))).maxBytes).to.be.greaterThan(256 * 1024 ** 2);
      await c.close();
      expect(out.join('\n')).to.match(/001-bigagg-2mb-cache: HOLDS/);
      // The cold and cache tables as `run` would print them, within 100 columns (issue #20): the
      // tiny profile leaves these parts out, so `run all --profile tiny`'s width check does not see them.
      expect(out.join('\n')).to.include('Cold WiredTiger cache (restarted mongod) per compressor');
      expect(out.join('\n')).to.include('Cache size (median ms)');
      const long = linesOver100({ echoed: out, logged });
      expect(long, long.join('\n')).to.deep.equal([]);
    });
  });

  describe('parallel ranges', function () {
    // The k ranges of one aggregation must run in the server at the same time: that is what makes
    // them faster on free cores (1.5x at k = 2 in the documented runs). How much faster is a property of
    // the machine's load, not of the code: with two CPU-bound neighbours on 2 cores, two threads get at
    // most 1.5x the CPU one thread gets, and 1.19-1.30x was measured, under the old 1.3x bar. So the
    // test proves the overlap itself, from the server's $currentOp, and asserts speed only loosely.
    const n = 150000;
    before(async function () {
      await B.loadMot(t.db, 'mot_speed', { n, seed: 1, compressor: 'snappy', clustered: true });
    });

    /**
     * The most aggregations on mot_speed the server ran at once while fn ran. Looked at every ~5 ms:
     * a range of 75,000 documents takes a hundred ms and more, and a look with no pause kept a core
     * busy (the watcher and mongod answering it) beside the two ranges it watches.
     */
    async function mostAtOnce(fn) {
      const watcher = new MongoClient(t.uri);
      let most = 0;
      let done = false;
      const poll = (async () => {
        while (!done) {
          const ops = await watcher
            .db('admin')
            .aggregate([
              { $currentOp: {} },
              { $match: { ns: `${t.dbName}.mot_speed`, 'command.aggregate': 'mot_speed' } },
            ])
            .toArray();
          most = Math.max(most, ops.length);
          if (!done) await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      try {
        await fn();
      } finally {
        done = true;
        await poll;
        await watcher.close();
      }
      return most;
    }

    it('k = 2 _id ranges run in the server at the same time ($currentOp sees both); k = 1 runs one', async function () {
      let most = 0;
      for (let i = 0; i < 5 && most < 2; i++)
        most = await mostAtOnce(() => B.splitMerge(t.db, 'mot_speed', { k: 2, lo: 0, hi: n }));
      expect(most).to.equal(2);
      expect(await mostAtOnce(() => B.splitMerge(t.db, 'mot_speed', { k: 1, lo: 0, hi: n }))).to.equal(1);
    });

    it('@speed k = 2 is not slower than k = 1 (interleaved; faster only as far as free cores allow)', async function () {
      if (os.cpus().length < 2) {
        this.skip(); // one core: nothing to run in parallel on
        return;
      }
      // "Not slower" needs a free second core, as the claims' cores gate does: with more runnable
      // tasks than cores (other test files on this 2-core machine: load 5-11 measured) a second range
      // only contends (0.80x and 0.86x measured so). Busy, only the wide floor below is asserted.
      const busy = os.loadavg()[0] > os.cpus().length;
      const run = (k) => () => timeAsync(() => B.splitMerge(t.db, 'mot_speed', { k, lo: 0, hi: n }));
      const res = await interleave(
        [
          { name: 'k1', run: run(1) },
          { name: 'k2', run: run(2) },
        ],
        { warmup: 1, rounds: 7, baseline: 'k1' },
      );
      const { median, ci } = res.variants.k2.ratio; // k2's time over k1's, per round
      const speedup = 1 / median;
      this.test.title += ` [measured ${speedup.toFixed(2)}x]`;
      const said = `k=2 vs k=1: ${speedup.toFixed(2)}x, 95 % CI ${(1 / ci[1]).toFixed(2)}-${(1 / ci[0]).toFixed(2)} (per-round ratios ${res.variants.k2.times.map((x, i) => (res.variants.k1.times[i] / x).toFixed(2)).join(', ')})`;
      // "Not slower" is decided from the interval, as compare decides: slower only when the whole
      // interval is. A neighbour's burst on the two cores part-way through the rounds pulls the
      // median below 1 while the interval still holds it. The median keeps a wide floor besides:
      // two ranges costing 1.4x one is no longer noise.
      if (busy) this.test.title += ` [load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores: floor only]`;
      else expect(ci[0], said).to.be.at.most(1);
      expect(speedup, said).to.be.at.least(0.7);
    });
  });
});
