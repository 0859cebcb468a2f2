'use strict';
// Study "bigagg" (source 001, second half): the Node part of scripts/bigagg.js's declaration.
//
// The script holds the pipeline forms (shell variants). This part adds what the shell cannot do:
// one collection per block compressor (loaded by streaming), a cold WiredTiger cache (a restarted
// mongod), the source's cache sizes (restarts with other cache arguments on the same data files),
// k _id ranges aggregated at once and merged as a sharded $group merges them, and several
// aggregations at once. Each part is an axis point `{part, ...}`; variants say where they can run
// with `able`, so each point runs only its own variants, interleaved by the one harness.
const { defineStudy } = require('../../core/registry');
const os = require('os');
const lab = require('../../../scripts/lib/lab');
const LabBands = require('../../../scripts/bigagg_pipelines');
const B = require('./mot');
const { csvBytes } = require('./csv');
const { restartWithCache, restartWithArgs, canRestart } = require('./cache');
const { usable } = require('../../infra/restart-args');
const { META } = require('../../infra/loader');
const { PALETTE, pivot, md, chartTime } = require('../../report/report');
const claims = require('./claims');
const { judge } = require('../../core/claims');

const PARTS = ['forms', 'compression', 'cold', 'cache', 'split', 'concurrent'];
const CACHE_COMPRESSOR = 'zlib'; // the source's compressor for its cache experiments
const FORMS_COMPRESSOR = 'snappy'; // the server's default
const KS = [1, 2, 4, 8];
const UNEVEN = [1, 1, 1, 5]; // k = 4 with one range holding 5/8 of the data

const oracleCache = new Map();
function oracleOf(p) {
  const key = `${p.N}/${p.SEED}`;
  if (!oracleCache.has(key)) oracleCache.set(key, B.oracle(p.N, p.SEED));
  return oracleCache.get(key);
}

function compressorsOf(p) {
  const list = lab.list(p.COMPRESSORS);
  for (const c of list) {
    if (!B.COMPRESSORS.includes(c))
      throw new Error(
        `parameter COMPRESSORS: unknown compressor ${JSON.stringify(c)} (known: ${B.COMPRESSORS.join(', ')})`,
      );
  }
  return list.length ? list : B.COMPRESSORS;
}

function partsOf(p) {
  const list = lab.list(p.PARTS);
  for (const x of list)
    if (!PARTS.includes(x))
      throw new Error(`parameter PARTS: unknown part ${JSON.stringify(x)} (known: ${PARTS.join(', ')})`);
  return list.length ? list : PARTS;
}

/**
 * The cold part's compressors: those of COLD_COMPRESSORS that are loaded (COMPRESSORS), or every
 * loaded one when it names none of them (a profile's default must not empty an explicit choice).
 */
function coldOf(p, comps) {
  const list = lab.list(p.COLD_COMPRESSORS);
  for (const c of list)
    if (!B.COMPRESSORS.includes(c))
      throw new Error(
        `parameter COLD_COMPRESSORS: unknown compressor ${JSON.stringify(c)} (known: ${B.COMPRESSORS.join(', ')})`,
      );
  const both = comps.filter((c) => list.includes(c));
  return both.length ? both : comps;
}

function pick(list, preferred) {
  return list.includes(preferred) ? preferred : list[0];
}

function coll(p, point) {
  return point.clustered ? `${p.COLL}_clustered` : `${p.COLL}_${point.compressor}`;
}

// The split part reads a clustered copy (5.3+): there an _id range is a bounded scan of the
// records themselves, as a shard scans only its own chunks; on a plain collection each range
// would go through the _id index and fetch (~1.4x the CPU per document).
function clusteredOk(ctx) {
  return lab.versionAtLeast(ctx.server.version, '5.3');
}

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

async function timedAgg(ctx, db, point, pipeline) {
  const m = await B.measured(db, ctx.server.pid, () => B.aggregate(db, coll(ctx.p, point), pipeline));
  return lab.took(m.ms, m.answer, {
    cpuSeconds: m.cpuSeconds,
    bytesReadIntoCache: m.bytesReadIntoCache,
    diskReadBytes: m.diskReadBytes,
    cacheMaxBytes: m.cacheMaxBytes,
  });
}

function splitVariant(k, weights) {
  const name = weights ? `split-${k}-uneven` : `split-${k}`;
  return {
    name,
    what: `${k} _id ranges${weights ? ` (uneven ${weights.join(':')})` : ''} at once, partial $group per range, merged`,
    minVersion: '2.2',
    able: (p, point) => point.part === 'split',
    run: async (ctx, p, point) => {
      const t0 = process.hrtime.bigint();
      const answer = await B.splitMerge(ctx.db, coll(p, point), { k, weights });
      return lab.took(Number(process.hrtime.bigint() - t0) / 1e6, answer, { k, cores: os.cpus().length });
    },
  };
}

function togetherVariant(c) {
  return {
    name: `together-${c}`,
    what: `${c} copies of the in-$group form at once (time until all finish)`,
    minVersion: '2.2',
    able: (p, point) => point.part === 'concurrent',
    run: async (ctx, p, point) => {
      const t0 = process.hrtime.bigint();
      const answers = await B.concurrent(ctx.db, coll(p, point), LabBands.groupPipeline(), c);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const agree = answers.every((a) => B.same(a, answers[0]));
      return lab.took(ms, agree ? answers[0] : { disagree: answers }, {
        copies: c,
        aggregationsPerSecond: (1000 * c) / ms,
      });
    },
  };
}

module.exports = defineStudy({
  name: 'bigagg',
  script: 'bigagg.js',
  profiles: {
    // For the test suite: the smallest run of the parts that need no restart. The cold and cache
    // parts restart mongod (a restart per cold run and compressor, three cache sizes: most of this
    // study's time at tiny); test/bigagg.test.js "runner on its own embedded server: cold (restarts)
    // and the three cache sizes" runs them, and checks their printed width, on a server of its own.
    // 5,000 records: its runner test "forms, compression, split and concurrent parts" checks these
    // parts' answers and tables at 30,000; a tiny run loads and scans a copy per compressor (four).
    tiny: { N: 5000, RUNS: 2, BUDGET_MS: 20000, PARTS: 'forms,compression,split,concurrent' },
    // quick: every part in a few minutes; the cache part only says something above ~1.8M records.
    // Its cold part restarts mongod before every run: only none and zlib, the two compressors the
    // cold claims read (001-bigagg-compressor-speed, 001-bigagg-cache-uncompressed).
    quick: { N: 50000, RUNS: 3, BUDGET_MS: 20000, COLD_COMPRESSORS: 'none,zlib' },
    // Seed: every variant a claim or the headline reads. split-8, split-4-uneven and together-4
    // (past the 2 cores; read by no claim) would add ~4 min at 10M records: --set VARIANTS= runs
    // them; the cold part as in quick (--set COLD_COMPRESSORS=none,snappy,zlib,zstd: ~4 min more).
    // 5,000,000 records, not the source's 580M (they do not fit here) nor 10M: at 10M the study took
    // ~56 min on a 2.5 GHz Xeon (scans of ~53 s), half of the 2-hour run; at 5M every claim's
    // setting still holds (the data ~3x the 0.25 GB cache, above the 1M the split claims need) and
    // no scan comes near the budget. zstd is read by no claim (--docs 10000000 --set
    // COMPRESSORS=none,snappy,zlib,zstd for the documented 10M tables, docs/data/bigagg-10m.json).
    seed: {
      N: 5000000,
      RUNS: 3,
      BUDGET_MS: 60000,
      COMPRESSORS: 'none,snappy,zlib',
      COLD_COMPRESSORS: 'none,zlib',
      VARIANTS: 'seed,switch,group,bucket,pairs,cold,scan-cpu,split-1,split-2,split-4,mongos,together-1,together-2',
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => [...compressorsOf(p).map((c) => `${p.COLL}_${c}`), `${p.COLL}_clustered`],
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~50 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected: '~28 min (measured 2026-11-27 on a 2.5 GHz Xeon: four 5M loads 2.8 min, scans of ~26 s)',

  /** One collection per block compressor, streamed by the Node driver; load times are measures. */
  async load(ctx, p) {
    const out = { own: true, collections: {} };
    coldOf(p, compressorsOf(p)); // refuses an unknown COLD_COMPRESSORS before the loads
    for (const c of compressorsOf(p)) {
      const name = `${p.COLL}_${c}`;
      const r = await B.loadMot(ctx.db, name, { n: p.N, seed: p.SEED, compressor: c, progress: ctx.progress });
      const meta = await ctx.db.collection(META).findOne({ _id: name });
      out.collections[c] = { ...r, loadMs: r.generated ? r.ms : (meta && meta.loadMs) || null };
      if (r.generated) ctx.log(`bigagg: ${name}: ${lab.fmtInt(r.inserted)} records in ${lab.fmtMs(r.ms)}`);
    }
    if (partsOf(p).includes('split') && clusteredOk(ctx)) {
      const name = `${p.COLL}_clustered`;
      const r = await B.loadMot(ctx.db, name, {
        n: p.N,
        seed: p.SEED,
        compressor: FORMS_COMPRESSOR,
        clustered: true,
        progress: ctx.progress,
      });
      out.collections.clustered = r;
      if (r.generated)
        ctx.log(`bigagg: ${name} (clustered on _id): ${lab.fmtInt(r.inserted)} records in ${lab.fmtMs(r.ms)}`);
    }
    ctx.bigagg = { restarted: false, args: null };
    return out;
  },

  oracle: (p) => oracleOf(p),
  same: (a, b) => B.same(a, b),

  async points(ctx, p) {
    const parts = partsOf(p);
    const comps = compressorsOf(p);
    const topo = await B.topology(ctx.db);
    const pts = [];
    const formsAt = parts.includes('forms') ? pick(comps, FORMS_COMPRESSOR) : null;
    if (formsAt) pts.push({ part: 'forms', compressor: formsAt });
    // The forms point times seed on its compressor's collection already: that compressor's
    // compression point measures its sizes only (the tables read the forms' time).
    if (parts.includes('compression'))
      for (const c of comps)
        pts.push(
          c === formsAt
            ? { part: 'compression', compressor: c, timedIn: 'forms' }
            : { part: 'compression', compressor: c },
        );
    const restartable = canRestart(ctx.server);
    if (!restartable && (parts.includes('cold') || parts.includes('cache'))) {
      ctx.log(
        'bigagg: cold and cache parts skipped: they restart mongod, which only works on a server the lab started (not with --uri)',
      );
    }
    if (restartable && parts.includes('cold'))
      for (const c of coldOf(p, comps)) pts.push({ part: 'cold', compressor: c });
    if (parts.includes('split')) {
      pts.push(
        clusteredOk(ctx)
          ? { part: 'split', compressor: FORMS_COMPRESSOR, clustered: true }
          : { part: 'split', compressor: pick(comps, FORMS_COMPRESSOR) },
      );
    }
    if (topo.mongos) pts.push({ part: 'sharded', compressor: pick(comps, FORMS_COMPRESSOR), shards: topo.shards });
    if (parts.includes('concurrent')) pts.push({ part: 'concurrent', compressor: pick(comps, FORMS_COMPRESSOR) });
    // last: the cache part restarts mongod with other cache arguments
    if (restartable && parts.includes('cache'))
      for (const cache of ['default', '0.25GB', '2MB'])
        pts.push({ part: 'cache', cache, compressor: pick(comps, CACHE_COMPRESSOR) });
    return pts;
  },

  async beforePoint(ctx, p, point) {
    const st = ctx.bigagg || (ctx.bigagg = { restarted: false, args: null });
    if (point.part === 'cache') {
      const before = await restartWithCache(ctx.server, point.cache);
      if (!st.args) st.args = before;
      st.restarted = true;
    } else if (st.args) {
      await restartWithArgs(ctx.server, st.args);
      st.args = null;
      st.restarted = true;
    }
    if (st.restarted) {
      // The run's pooled connections died with the old mongod: wait until the driver has a
      // working pool again, then give the shell a new session (the script loaded again).
      await usable(ctx.db);
      await ctx.reopen();
      st.restarted = false;
    }
  },

  variants: [
    {
      name: 'cold',
      what: "the source's pipeline right after a mongod restart (empty WiredTiger cache; the OS page cache stays warm)",
      minVersion: '2.2',
      able: (p, point) => point.part === 'cold',
      run: async (ctx, p, point) => {
        // Every cold run starts from a restart, so a warm-up run warms nothing the timed runs keep:
        // the harness's warm-up calls (the first WARMUP of this point) restart and scan nothing.
        const calls = ctx.bigagg.coldCalls || (ctx.bigagg.coldCalls = new Map());
        const k = calls.get(point.compressor) || 0;
        calls.set(point.compressor, k + 1);
        if (p.RUNS > 0 && k < p.WARMUP)
          return lab.took(0, null, { warmup: 'skipped: a cold run is cold whatever ran before' });
        await ctx.server.restart();
        ctx.bigagg.restarted = true;
        return withClient(ctx, (db) => timedAgg(ctx, db, point, LabBands.seedPipeline()));
      },
    },
    {
      name: 'scan-cpu',
      what: "the source's pipeline from Node, with mongod CPU seconds (/proc) and bytes read into the cache",
      minVersion: '2.2',
      able: (p, point) => point.part === 'cache',
      run: (ctx, p, point) => timedAgg(ctx, ctx.db, point, LabBands.seedPipeline()),
    },
    ...KS.map((k) => splitVariant(k)),
    splitVariant(4, UNEVEN),
    {
      name: 'mongos',
      what: 'the in-$group form through a mongos: it splits the $group into a shards part and a merger part itself',
      minVersion: '3.2',
      able: (p, point) => point.part === 'sharded',
      run: async (ctx, p, point) => {
        const t0 = process.hrtime.bigint();
        const answer = await B.aggregate(ctx.db, coll(p, point), LabBands.groupPipeline());
        return lab.took(Number(process.hrtime.bigint() - t0) / 1e6, answer, { shards: point.shards });
      },
      explain: (ctx, p, point) =>
        ctx.db.collection(coll(p, point)).aggregate(LabBands.groupPipeline()).explain('queryPlanner'),
    },
    ...[1, 2, 4].map(togetherVariant),
  ],

  /** Storage and load time per compressor, and the data size against the cache, as measure records. */
  async measures(ctx, p, point) {
    const out = [];
    const add = (name, value, unit, what) =>
      out.push(lab.measureRecord({ study: 'bigagg', name, axis: point, value, unit, what }));
    if (point.part === 'compression') {
      const st = await B.storage(ctx.db, coll(p, point));
      add('dataBytes', st.dataBytes, 'bytes', 'uncompressed BSON (collStats size)');
      add('storageBytes', st.storageBytes, 'bytes', 'in use on disk (collStats storageSize less reusable blocks)');
      add('indexBytes', st.indexBytes, 'bytes', '_id index on disk');
      add('ratio', st.ratio, 'x', 'BSON / storage');
      const f = ctx.fixture && ctx.fixture.collections && ctx.fixture.collections[point.compressor];
      if (f && f.loadMs)
        add(
          'loadMs',
          f.loadMs,
          'ms',
          `streaming load of ${lab.fmtInt(p.N)} records (Node driver, 4 batches of 10,000 in flight)`,
        );
      // The same records as CSV text (001-bigagg-bson-vs-csv): computed once, beside the first
      // compressor's sizes, and only where the collection holds exactly the generated records.
      if (!ctx.bigaggCsv) {
        const csv = csvBytes(p.N, p.SEED);
        ctx.bigaggCsv = true;
        if (csv.rows === st.count)
          add(
            'csvBytes',
            csv.bytes,
            'bytes',
            `the same ${lab.fmtInt(csv.rows)} records as CSV: 14 columns, a header line`,
          );
        else
          ctx.log(
            `bigagg: no CSV size: the collection holds ${lab.fmtInt(st.count)} documents, the generator ${lab.fmtInt(csv.rows)}`,
          );
      }
    }
    if (point.part === 'cache') {
      const c = await B.cacheCounters(ctx.db);
      add('cacheMaxBytes', c.maxBytes, 'bytes', 'WiredTiger cache configured');
    }
    if (point.part === 'sharded') {
      const split = await B.shardedSplit(ctx.db, coll(p, point));
      add(
        'splitPipeline',
        split ? JSON.stringify(split).length : 0,
        'chars',
        split
          ? `shardsPart ${split.shardsPart.map((s) => Object.keys(s)[0]).join(',')} / mergerPart ${split.mergerPart.map((s) => Object.keys(s)[0]).join(',')}`
          : 'no split (one shard?)',
      );
    }
    return out;
  },

  async after(ctx, p, records) {
    // leave the lab's server as it was started
    if (ctx.bigagg && ctx.bigagg.args) {
      await restartWithArgs(ctx.server, ctx.bigagg.args);
      ctx.bigagg.args = null;
    }
    const lines = ['', '-- bigagg: tables --'];
    for (const t of module.exports.tables) {
      const recs = records.filter((r) => r.type === 'result' && t.filter(r));
      if (recs.length) lines.push('', t.title, pivot(recs, t));
    }
    const st = storageTable(records);
    if (st) lines.push('', 'Storage and load per block compressor', st);
    lines.push('', "-- bigagg: the source's claims on this server --");
    const env = {
      server: { version: ctx.server.version, cacheBytes: ctx.server.cacheBytes },
      host: { cores: os.cpus().length, memoryGB: os.totalmem() / 1073741824 },
    };
    for (const v of judge({ name: 'bigagg', claims }, records, env, { bigagg: p })) {
      const said = [
        `${v.id}: ${v.verdict.toUpperCase()} | ours: ${v.figure === null ? '-' : v.figure} | source: ${v.published}`,
        `  ${v.claim}`,
        `  why: ${v.why}`,
      ];
      for (const l of said) lines.push(...require('../../../scripts/lib/format').wrap(l, 100, '    '));
    }
    ctx.echo(lines.join('\n'));
    return [];
  },

  headline: (points) => points.find((x) => x.part === 'forms') || points[0],
  claims,

  tables: [
    {
      title: 'Pipeline forms (median ms)',
      filter: (r) => !r.skipped && r.axis.part === 'forms',
      rows: 'variant',
      cols: 'compressor',
      value: 'median',
    },
    {
      title: "Pipeline forms (vs the source's pipeline)",
      filter: (r) => !r.skipped && r.axis.part === 'forms',
      rows: 'variant',
      cols: 'compressor',
      value: 'ratio',
    },
    {
      title: 'Warm aggregation per block compressor (median ms)',
      filter: (r) => !r.skipped && warmPerCompressor(r),
      rows: 'variant',
      cols: 'compressor',
      value: 'median',
    },
    {
      title: 'Cold WiredTiger cache (restarted mongod) per compressor (median ms)',
      filter: (r) => !r.skipped && r.axis.part === 'cold',
      rows: 'variant',
      cols: 'compressor',
      value: 'median',
    },
    {
      title: 'Cold: mongod CPU seconds per run',
      filter: (r) => !r.skipped && r.axis.part === 'cold',
      rows: 'variant',
      cols: 'compressor',
      value: 'extra.cpuSeconds',
    },
    {
      title: 'Cache size (median ms)',
      filter: (r) => !r.skipped && r.axis.part === 'cache',
      rows: 'variant',
      cols: 'cache',
      value: 'median',
    },
    {
      title: 'Cache size: mongod CPU seconds per run',
      filter: (r) => !r.skipped && r.axis.part === 'cache',
      rows: 'variant',
      cols: 'cache',
      value: 'extra.cpuSeconds',
    },
    {
      title: 'Cache size: bytes read into the cache per run',
      filter: (r) => !r.skipped && r.axis.part === 'cache',
      rows: 'variant',
      cols: 'cache',
      value: 'extra.bytesReadIntoCache',
    },
    {
      title: 'Cache size: bytes mongod read from the disk per run (/proc/<pid>/io; page-cache hits excluded)',
      filter: (r) => !r.skipped && r.axis.part === 'cache',
      rows: 'variant',
      cols: 'cache',
      value: 'extra.diskReadBytes',
    },
    {
      title: 'Cold: bytes mongod read from the disk per run',
      filter: (r) => !r.skipped && r.axis.part === 'cold',
      rows: 'variant',
      cols: 'compressor',
      value: 'extra.diskReadBytes',
    },
    {
      title: 'k _id ranges at once, merged (vs k = 1)',
      filter: (r) => !r.skipped && r.axis.part === 'split',
      rows: 'variant',
      cols: 'part',
      value: 'ratio',
    },
    {
      title: 'Several aggregations at once (median ms until all finish)',
      filter: (r) => !r.skipped && r.axis.part === 'concurrent',
      rows: 'variant',
      cols: 'part',
      value: 'median',
    },
  ],

  charts: [
    (records, env, doc) => compressorChart(records, env, doc),
    (records, env, doc) => speedupChart(records, env, doc),
  ],
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: { storageTable },
});

/**
 * A warm time per compressor: the compression part's, or the forms part's seed on its compressor
 * (a compression point timedIn 'forms' does not time it again).
 */
function warmPerCompressor(r) {
  return r.axis.part === 'compression' || (r.axis.part === 'forms' && r.variant === 'seed');
}

/** Storage, ratio and load time per compressor, from the measure records. */
function storageTable(records) {
  const ms = records.filter((r) => r.type === 'measure' && r.axis.part === 'compression');
  if (!ms.length) return null;
  const comps = [...new Set(ms.map((r) => r.axis.compressor))];
  const get = (c, n) => (ms.find((r) => r.axis.compressor === c && r.name === n) || {}).value;
  const mb = (b) => (b === undefined ? '' : (b / 1e6).toFixed(1));
  return md(
    ['compressor', 'BSON MB', 'on disk MB', '_id index MB', 'BSON / disk', 'load'],
    comps.map((c) => [
      c,
      mb(get(c, 'dataBytes')),
      mb(get(c, 'storageBytes')),
      mb(get(c, 'indexBytes')),
      get(c, 'ratio') ? get(c, 'ratio').toFixed(2) + 'x' : '',
      get(c, 'loadMs') ? lab.fmtMs(get(c, 'loadMs')) : '(reused)',
    ]),
  );
}

function subtitle(doc, env) {
  const p = (doc.params || {}).bigagg || {};
  return [
    `${lab.fmtInt(p.N || 0)} MOT-like records | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores`,
    'whiskers: 95% interval (t on log times, 3+ rounds)',
  ];
}

/** A forms record whose compressor's compression point timed it too (result files before timedIn). */
function timedTwice(records, r) {
  return (
    r.axis.part === 'forms' &&
    records.some(
      (x) =>
        x.type === 'result' &&
        !x.skipped &&
        x.axis.part === 'compression' &&
        x.axis.compressor === r.axis.compressor &&
        x.variant === r.variant,
    )
  );
}

/** Storage (MB) and time (s, warm and cold) per block compressor, side by side. */
function compressorChart(records, env, doc) {
  const vals = [];
  for (const r of records) {
    if (
      r.type === 'measure' &&
      r.axis.part === 'compression' &&
      (r.name === 'storageBytes' || r.name === 'dataBytes')
    ) {
      vals.push({
        compressor: r.axis.compressor,
        panel: 'storage, MB',
        series: r.name === 'dataBytes' ? 'BSON (uncompressed)' : 'on disk',
        value: r.value / 1e6,
      });
    }
    if (
      r.type === 'result' &&
      !r.skipped &&
      ((warmPerCompressor(r) && r.variant === 'seed' && !timedTwice(records, r)) ||
        (r.axis.part === 'cold' && r.variant === 'cold'))
    ) {
      vals.push({
        compressor: r.axis.compressor,
        panel: "source's pipeline, s",
        series: r.axis.part === 'cold' ? 'cold cache' : 'warm cache',
        ...secondsWithInterval(r),
      });
    }
  }
  if (!vals.length) return null;
  const order = B.COMPRESSORS;
  return {
    name: 'compressors',
    title: { text: 'MOT banding: storage and time per block compressor', subtitle: subtitle(doc, env) },
    data: { values: vals },
    facet: { column: { field: 'panel', type: 'nominal', title: null, sort: ['storage, MB', "source's pipeline, s"] } },
    resolve: { scale: { y: 'independent', color: 'independent' } },
    spec: {
      width: 260,
      height: 260,
      layer: compressorLayers(order),
    },
  };
}

// The compressor chart's bars, and on the time panel their interval whiskers.
function compressorLayers(order) {
  return [
    {
      mark: { type: 'bar' },
      encoding: {
        x: {
          field: 'compressor',
          type: 'nominal',
          sort: order,
          title: 'block compressor',
          axis: { labelAngle: 0 },
        },
        xOffset: { field: 'series', type: 'nominal' },
        y: { field: 'value', type: 'quantitative', title: null },
        color: {
          field: 'series',
          type: 'nominal',
          scale: { range: [PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[6]] },
          title: null,
          legend: { orient: 'bottom' },
        },
      },
    },
    // Whiskers on the time panel only: the storage sizes are one deterministic figure each.
    {
      transform: [{ filter: 'isValid(datum.lo)' }],
      mark: { type: 'rule', color: 'black' },
      encoding: {
        x: { field: 'compressor', type: 'nominal', sort: order },
        xOffset: { field: 'series', type: 'nominal' },
        y: { field: 'lo', type: 'quantitative' },
        y2: { field: 'hi' },
      },
    },
  ];
}

/** A time in seconds with its 95 % interval (the default chart's, report.js chartTime) as lo..hi. */
function secondsWithInterval(r) {
  const t = chartTime(r);
  return { value: t.ms / 1000, ...(t.lo !== undefined ? { lo: t.lo / 1000, hi: t.hi / 1000 } : {}) };
}

/** Speedup of k concurrent _id ranges over k = 1 (median of per-round ratios), with the ideal. */
function speedupChart(records, env, doc) {
  const pts = records.filter(
    (r) => r.type === 'result' && !r.skipped && r.axis.part === 'split' && /^split-\d+$/.test(r.variant) && r.ratio,
  );
  if (!pts.length) return null;
  const cores = env.host.cores || os.cpus().length;
  const vals = pts.map((r) => {
    const k = Number(r.variant.split('-')[1]);
    return {
      k,
      // the interval's own centre (the one estimator compare uses), so that the point sits inside it
      speedup: 1 / (typeof r.ratio.mid === 'number' ? r.ratio.mid : r.ratio.median),
      lo: r.ratio.ci ? 1 / r.ratio.ci[1] : null,
      hi: r.ratio.ci ? 1 / r.ratio.ci[0] : null,
      series: null,
    };
  });
  const SERIES = [
    'measured (per-round ratios, 95% interval)',
    `ideal on ${cores} cores`,
    'source 2015: k shards on 16 CPUs',
  ];
  const ideal = KS.map((k) => ({ k, speedup: Math.min(k, cores), series: SERIES[1] }));
  for (const v of vals) v.series = SERIES[0];
  // The source's shard runs on one 16-CPU host, zlib, against its single mongod (23:12 = 1392 s).
  const source = [
    [1, 1392],
    [2, 931],
    [4, 512],
    [8, 276],
    [16, 215],
  ].map(([k, s]) => ({ k, speedup: 1392 / s, series: SERIES[2] }));
  return {
    name: 'speedup',
    title: { text: 'MOT banding: k _id ranges at once, merged like a sharded $group', subtitle: subtitle(doc, env) },
    width: 460,
    height: 300,
    layer: speedupLayers(vals, vals.concat(ideal, source), SERIES),
  };
}

// The speedup chart's layers: the measured points' intervals as rules, and every series' line.
function speedupLayers(vals, lines, SERIES) {
  return [
    {
      data: { values: vals.filter((v) => v.lo !== null) },
      mark: { type: 'rule', color: PALETTE[0] },
      encoding: {
        x: { field: 'k', type: 'quantitative' },
        y: { field: 'lo', type: 'quantitative' },
        y2: { field: 'hi' },
      },
    },
    {
      data: { values: lines },
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'k',
          type: 'quantitative',
          title: 'k ranges or shards (log 2)',
          scale: { type: 'log', base: 2 },
          axis: { values: [1, 2, 4, 8, 16] },
        },
        y: { field: 'speedup', type: 'quantitative', title: 'speedup over k = 1 (x)' },
        color: {
          field: 'series',
          type: 'nominal',
          scale: { domain: SERIES, range: [PALETTE[0], PALETTE[6], PALETTE[3]] },
          title: null,
          legend: { orient: 'bottom', direction: 'vertical', labelLimit: 400 },
        },
        strokeDash: {
          field: 'series',
          type: 'nominal',
          scale: {
            domain: SERIES,
            range: [
              [1, 0],
              [6, 3],
              [2, 2],
            ],
          },
          title: null,
          legend: { orient: 'bottom', direction: 'vertical', labelLimit: 400 },
        },
      },
    },
  ];
}
