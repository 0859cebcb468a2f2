'use strict';
// Study "where" (source 001, first half): the Node part of scripts/where_vs_agg.js's declaration.
const os = require('os');
const { defineStudy } = require('../../core/registry');
const whereFixture = require('../../../fixtures/where-ab');
const checks = require('./checks');

const oracleCache = new Map();

module.exports = defineStudy({
  name: 'where',
  script: 'where_vs_agg.js',
  profiles: {
    tiny: { N: 3000, RUNS: 2, BUDGET_MS: 5000 }, // for the test suite
    // 50,000 documents keep $where near 5 s a run; the source's 1,000,000 takes ~2 min for $where alone.
    // A 2 s budget times $where by its warm-up run alone (~5 s instead of 6 runs' ~30 s): every claim
    // that reads it needs the source's 1,000,000 documents and abstains here anyway; the other six
    // variants stay far below 2 s and keep their 5 rounds.
    quick: { N: 50000, RUNS: 5, BUDGET_MS: 2000 },
    // At the source's scale $where decides four verdicts, and an interval needs three times of each
    // side (the core borrows no spread): no variant is capped (an hour's budget) and every variant
    // gets 3 timed rounds. No warm-up round: it was $where's fourth run (1-4 min), the collection is
    // in the cache from its load, and on the four documented seed files (docs/data/where-seed*.json)
    // each variant's warm-up standing in for its first timed round changes no verdict ($where 76.9 s
    // against 76.3-77.0 s; docs/journal/seed-time-2026-11-29.md): $where 3-12 min in all.
    seed: { N: 1000000, RUNS: 3, WARMUP: 0, BUDGET_MS: 3600000 },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => [`${p.COLL}_types`],
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~12 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected:
    '~5-23 min ($where timed 3 times: 88-100 s a run pinned to one core, 453-463 s on the two cores of the 2 vCPU AMD EPYC, measured 2026-11-29, docs/journal/seed-column-2.md)',

  /** The Node loader streams the same seeded documents faster than the shell's generator. */
  async load(ctx, p) {
    const f = await whereFixture.load(ctx.db, { n: p.N, seed: p.SEED, coll: p.COLL, progress: ctx.progress });
    await ctx.db.collection(p.COLL).createIndex({ b: 1 });
    return { ...f, own: true, coll: p.COLL };
  },

  /** The predicate in plain JavaScript over the same generated documents (Doubles compare as numbers). */
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

  // The machine state is part of the point: server-side JavaScript runs on a thread of its own, so
  // the same $where costs 4x more on two idle cores of a VM than pinned to one (docs/studies/where.md).
  // Each record carries the cores the run could use (taskset narrows them), and the claims that
  // $where dominates are judged per state (lib/studies/where/claims.js).
  points: (ctx, p, points) => points.map((pt) => ({ ...pt, usableCores: os.availableParallelism() })),

  /** The source's functional points (string filter, sandbox, BSON types): untimed, once per run. */
  measures: (ctx, p, point) => checks.measures(ctx, p, point),

  claims: require('./claims'),
  practices: require('./practices'),
});
