'use strict';
// Study 001, second half: the MOT "banding" aggregation (compression, cache size, parallelism).
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const { startEmbedded } = require('../lib/server');
const { MongoClient } = require('mongodb');
const LabGen = require('../scripts/lib/gen');
const LabMot = require('../scripts/lib/mot-gen');
const LabBands = require('../scripts/lib/mot-pipelines');
const B = require('../lib/bigagg');
const { restartWithCache, restartWithArgs } = require('../lib/bigagg-cache');

const N = 30000;
const SEED = 5;

describe('bigagg (seed 001, second half): the MOT banding aggregation', function () {
  let t;
  const want = B.oracle(N, SEED);

  before(async function () {
    t = await testDatabase('bigagg');
    for (const c of B.COMPRESSORS) await B.loadMot(t.db, B.collName('mot', c), { n: N, seed: SEED, compressor: c });
  });
  after(async function () {
    if (t) await t.close();
  });

  describe('generator', function () {
    it('is deterministic and makes ~150-byte records with the seed\'s fields (engine as e)', function () {
      const a = LabMot.doc(LabGen.rng(3), 0);
      const b = LabMot.doc(LabGen.rng(3), 0);
      expect(a).to.deep.equal(b);
      expect(Object.keys(a)).to.include.members(['_id', 't', 'v', 'd', 'c', 'y', 'r', 'm', 's', 'k', 'o', 'u', 'f', 'e']);
      const { BSON } = require('mongodb');
      let bytes = 0;
      for (const d of B.motDocs(2000, 1)) bytes += BSON.calculateObjectSize(d);
      expect(bytes / 2000).to.be.within(130, 170);
    });

    it('has records exactly on the band boundaries and both colliding pairs (diesel 2/petrol 3, diesel 4/petrol 6)', function () {
      const seen = new Set();
      const pairs = new Set();
      for (const d of B.motDocs(N, SEED)) {
        seen.add(d.e);
        pairs.add(`${d.f === 'D' ? 'D' : 'P'}${LabMot.band(d) / (d.f === 'D' ? 1.5 : 1)}`);
      }
      for (const e of [1000, 1200, 1600, 2000, 2500, 3500]) expect(seen.has(e), `e = ${e}`).to.equal(true);
      for (const p of ['D2', 'P3', 'D4', 'P6']) expect(pairs.has(p), p).to.equal(true);
    });
  });

  describe('pipeline forms against the plain-Node oracle', function () {
    it('the seed\'s pipeline is quoted as published: nested $cond on $e, $project then $group then $sort', function () {
      const p = LabBands.seedPipeline();
      expect(JSON.stringify(p)).to.include('{"$cond":[{"$gt":["$e",1000]},{"$cond":[{"$gt":["$e",1200]}');
      expect(p.map((s) => Object.keys(s)[0])).to.deep.equal(['$project', '$group', '$sort']);
    });

    for (const name of Object.keys(LabBands.FORMS)) {
      it(`${name}: equals the oracle, colliding keys merged as the seed's $group merges them`, async function () {
        const got = await B.aggregate(t.db, 'mot_snappy', LabBands.FORMS[name].pipeline());
        expect(got).to.deep.equal(want);
      });
    }

    it('the collision is real: band 3 and band 6 hold petrol and diesel vehicles together', function () {
      let p3 = 0;
      let d2 = 0;
      for (const d of B.motDocs(N, SEED)) {
        if (d.f !== 'D' && LabMot.band(d) === 3) p3++;
        if (d.f === 'D' && LabMot.band(d) === 3) d2++;
      }
      expect(p3).to.be.greaterThan(0);
      expect(d2).to.be.greaterThan(0);
      expect(want.find((r) => r._id === 3).count).to.equal(p3 + d2);
      expect(want.map((r) => r._id)).to.deep.equal([1, 1.5, 2, 3, 4, 4.5, 5, 6, 7, 7.5, 9, 10.5]);
    });
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
      try { await B.loadMot(t.db, 'mot_bad', { n: 10, compressor: 'lz4' }); } catch (e) { err = e; }
      expect(err.message).to.match(/^compressor "lz4": expected one of none, snappy, zlib, zstd$/);
      await t.db.collection('theirs').insertOne({ _id: 1 });
      err = null;
      try { await B.loadMot(t.db, 'theirs', { n: 10, compressor: 'zstd' }); } catch (e) { err = e; }
      expect(err && err.message).to.match(/did not generate/);
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
      expect(await B.splitMerge(t.db, 'mot_zstd', { k: 5, lo: 0, hi: N, weights: [1, 7, 2, 13, 1] })).to.deep.equal(want);
      expect(await B.splitMerge(t.db, 'mot_zstd', { k: 3, lo: N / 2, hi: N * 3 })).to.deep.equal(want);
      expect(await B.splitMerge(t.db, 'mot_zstd', { k: 4, lo: 0, hi: N, weights: [5, 1, 1, 9], serverMerge: true })).to.deep.equal(want);
    });

    it('each range alone equals the oracle over that range (partials are real partials)', async function () {
      const [a, b] = LabBands.ranges(0, N, 2, [1, 3])[1];
      const got = B.normalize(await t.db.collection('mot_zstd').aggregate(LabBands.shardPart(a, b)).toArray());
      expect(got).to.deep.equal(B.oracle(N, SEED, { lo: a, hi: b }));
    });

    it('several aggregations at once all give the single answer', async function () {
      for (const got of await B.concurrent(t.db, 'mot_zstd', LabBands.groupPipeline(), 3)) expect(got).to.deep.equal(want);
    });

    it('on a plain mongod the topology is not a mongos (the mongos path is taken only with a mongos URI)', async function () {
      expect(await B.topology(t.db)).to.deep.equal({ mongos: false, shards: 0 });
    });
  });

  describe('cache size on the same data files (own embedded server)', function () {
    let server;
    let client;
    before(async function () {
      server = await startEmbedded();
      client = new MongoClient(server.uri);
      await client.connect();
      await B.loadMot(client.db('perflab_test'), 'mot_zlib', { n: 5000, seed: SEED, compressor: 'zlib' });
    });
    after(async function () {
      if (client) await client.close();
      if (server) await server.stop();
    });

    it('0.25 GB and the seed\'s cache_size=2M start, report their cache size, and give the same answer', async function () {
      const small = B.oracle(5000, SEED);
      const sizes = {};
      let original;
      for (const cache of ['0.25GB', '2MB']) {
        await client.close();
        const before = await restartWithCache(server, cache);
        if (!original) original = before;
        client = new MongoClient(server.uri);
        await client.connect();
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
      client = new MongoClient(server.uri);
      await client.connect();
      const c = await B.cacheCounters(client.db('perflab_test'));
      expect(c.maxBytes).to.be.greaterThan(256 * 1024 ** 2);
    });
  });
});
