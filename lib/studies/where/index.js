'use strict';
// Study "where" (source 001, first half): the Node part of scripts/where_vs_agg.js's declaration.
const whereFixture = require('../../../fixtures/where-ab');
const claims = require('../../core/claims');

const oracleCache = new Map();

module.exports = {
  name: 'where',
  script: 'where_vs_agg.js',
  source: '001',
  title: '$where vs plain, hybrid and aggregation queries',
  // 50,000 documents keep $where near 10 s; the source's 1,000,000 takes ~2 min for $where alone.
  quick: { N: 50000, RUNS: 5, BUDGET_MS: 10000 },
  seedScale: { N: 1000000, RUNS: 5, BUDGET_MS: 30000 },
  tiny: { N: 3000, RUNS: 2, BUDGET_MS: 5000 }, // for the test suite
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~40 s',
  seedExpected: '~4 min (measured: 1,000,000 documents)',

  /** The Node loader streams the same seeded documents faster than the shell's generator. */
  async load(ctx, p) {
    const f = await whereFixture.load(ctx.db, { n: p.N, seed: p.SEED, coll: p.COLL, progress: ctx.progress });
    await ctx.db.collection(p.COLL).createIndex({ b: 1 });
    return { ...f, own: true, coll: p.COLL };
  },

  /** The predicate in plain JavaScript over the same generated documents. */
  oracle(p) {
    const key = `${p.N}/${p.SEED}`;
    if (!oracleCache.has(key)) {
      let count = 0;
      for (const d of whereFixture.docs(p.N, p.SEED)) if (d.a > d.b && d.b < 5) count++;
      oracleCache.set(key, count);
    }
    return oracleCache.get(key);
  },

  variants: [],

  // John Page's figures (MongoDB 3.2, 1,000,000 documents {a, b}, 2016): $where 38,226 ms, an
  // unindexed query 384 ms, the hybrid 263 ms, the aggregation 27 ms. (His "plain" query was
  // {a: {$lt: 1}}; ours is the same predicate forced to a collection scan.)
  claims: [
    { id: '001-where-vs-scan', claim: '$where is ~100x slower than a plain collection scan', seedFigure: '~100x (38,226 ms vs 384 ms)',
      setting: 'MongoDB 3.2, 1M documents, 2016',
      verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'plain'), 100) },
    { id: '001-hybrid', claim: 'an indexed filter plus $where (hybrid) is ~150x faster than $where alone', seedFigure: '~150x (263 ms)',
      setting: 'MongoDB 3.2, 1M documents, 2016',
      verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'hybrid'), 145) },
    { id: '001-aggregation', claim: 'the aggregation pipeline is ~1,500x faster than $where', seedFigure: '~1,400x (27 ms)',
      setting: 'MongoDB 3.2, 1M documents, 2016',
      verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'source-agg'), 1416) },
  ],
};
