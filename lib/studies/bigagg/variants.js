'use strict';
// The Node variants: the source's pipeline on a cold cache (a restarted mongod) and with mongod's
// CPU seconds, k _id ranges aggregated at once and merged as a sharded $group merges them, the
// in-$group form through a mongos, and several aggregations at once. Each says with `able` which
// part's points it runs at.
const os = require('os');
const { took } = require('../../../scripts/lib/harness');
const LabBands = require('../../../scripts/bigagg_pipelines');
const B = require('./mot');
const runs = require('./state');
const { KS, UNEVEN, coll } = require('./parts');

// A fresh connection for work right after a restart (the run's pooled client may hold dead sockets).
async function withClient(ctx, fn) {
  const { MongoClient } = require('mongodb'); // required here: `list` reads this module without a server
  const c = new MongoClient(ctx.server.uri);
  await c.connect();
  try {
    return await fn(c.db(ctx.dbName));
  } finally {
    await c.close();
  }
}

// A variant of the study's part `part`: it runs at that part's points only (and where its own
// `able` lets it). From 2.2 on, where the aggregation framework came, unless it says otherwise.
const partVariant = (part, variant) => ({
  minVersion: '2.2',
  ...variant,
  able: (p, point, ctx) => point.part === part && (variant.able ? variant.able(p, point, ctx) : true),
});

/** fn's answer and its wall time in ms, for the variants that time themselves from Node. */
async function wallTimed(fn) {
  const t0 = process.hrtime.bigint();
  const answer = await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, answer };
}

async function timedAgg(ctx, db, point, pipeline) {
  const m = await B.measured(db, ctx.server.pid, () => B.aggregate(db, coll(ctx.p, point), pipeline));
  return took(m.ms, m.answer, {
    cpuSeconds: m.cpuSeconds,
    bytesReadIntoCache: m.bytesReadIntoCache,
    diskReadBytes: m.diskReadBytes,
    cacheMaxBytes: m.cacheMaxBytes,
    // what the cache held around the scan and what it evicted (001-bigagg-cache-uncompressed), and the
    // OS page cache's room beside mongod (001-bigagg-default-cache-disk's gate)
    bytesInCacheBefore: m.bytesInCacheBefore,
    bytesInCache: m.bytesInCache,
    pagesEvicted: m.pagesEvicted,
    residentBytes: m.residentBytes,
    memoryLimitBytes: m.memoryLimitBytes,
  });
}

const cold = partVariant('cold', {
  name: 'cold',
  what: "the source's pipeline right after a mongod restart (empty WiredTiger cache; the OS page cache stays warm)",
  run: async (ctx, p, point) => {
    // Every cold run starts from a restart, so a warm-up run warms nothing the timed runs keep:
    // the harness's warm-up calls (the first WARMUP of this point) restart and scan nothing.
    const st = runs.of(ctx);
    const k = st.coldCalls.get(point.compressor) || 0;
    st.coldCalls.set(point.compressor, k + 1);
    if (p.RUNS > 0 && k < p.WARMUP) return took(0, null, { warmup: 'skipped: a cold run is cold whatever ran before' });
    await ctx.server.restart();
    st.restarted = true;
    return withClient(ctx, (db) => timedAgg(ctx, db, point, LabBands.seedPipeline()));
  },
});

const scanCpu = partVariant('cache', {
  name: 'scan-cpu',
  what: "the source's pipeline from Node, with mongod CPU seconds (/proc) and bytes read into the cache",
  // A cache mongod refused to start with is recorded (cacheStartRefused), not timed: the server
  // runs with its own arguments again, whose cache is not this point's.
  able: (p, point, ctx) =>
    !(ctx && runs.of(ctx).refused.has(point.cache)) || `mongod refused to start with the ${point.cache} cache`,
  run: (ctx, p, point) => timedAgg(ctx, ctx.db, point, LabBands.seedPipeline()),
});

function splitVariant(k, weights) {
  const name = weights ? `split-${k}-uneven` : `split-${k}`;
  return partVariant('split', {
    name,
    what: `${k} _id ranges${weights ? ` (uneven ${weights.join(':')})` : ''} at once, partial $group per range, merged`,
    run: async (ctx, p, point) => {
      const { ms, answer } = await wallTimed(() => B.splitMerge(ctx.db, coll(p, point), { k, weights }));
      return took(ms, answer, { k, cores: os.cpus().length });
    },
  });
}

const mongos = partVariant('sharded', {
  name: 'mongos',
  what: 'the in-$group form through a mongos: it splits the $group into a shards part and a merger part itself',
  minVersion: '3.2',
  run: async (ctx, p, point) => {
    const { ms, answer } = await wallTimed(() => B.aggregate(ctx.db, coll(p, point), LabBands.groupPipeline()));
    return took(ms, answer, { shards: point.shards });
  },
  explain: (ctx, p, point) =>
    ctx.db.collection(coll(p, point)).aggregate(LabBands.groupPipeline()).explain('queryPlanner'),
});

function togetherVariant(c) {
  return partVariant('concurrent', {
    name: `together-${c}`,
    what: `${c} copies of the in-$group form at once (time until all finish)`,
    run: async (ctx, p, point) => {
      const { ms, answer: answers } = await wallTimed(() =>
        B.concurrent(ctx.db, coll(p, point), LabBands.groupPipeline(), c),
      );
      const agree = answers.every((a) => B.same(a, answers[0]));
      return took(ms, agree ? answers[0] : { disagree: answers }, {
        copies: c,
        aggregationsPerSecond: (1000 * c) / ms,
      });
    },
  });
}

const VARIANTS = [
  cold,
  scanCpu,
  ...KS.map((k) => splitVariant(k)),
  splitVariant(4, UNEVEN),
  mongos,
  ...[1, 2, 4].map(togetherVariant),
];

module.exports = { VARIANTS };
