'use strict';
// Study "mapreduce" (source 000, "Learning mongo", 2015): the Node part of scripts/mr_variants.js.
// The data arrives the way the source's did: sensor-log CSV files, imported; the client-side
// variants (the source's Python programs, here the Node driver) run here, interleaved with the
// in-database ones by the one harness; every answer is checked against plain Node statistics.
const { defineStudy } = require('../../core/registry');
const fs = require('fs');
const os = require('os');
const path = require('path');
const lab = require('../../../scripts/lib/lab');
const sensors = require('../../../fixtures/sensors');
const { META, ForeignDataError } = require('../../infra/loader');
const LabFixture = require('../../../scripts/lib/fixture');
const { inspect, createOwned, dropOwned } = require('../../infra/targets');
const client = require('./client');
const sql = require('./sql-peer');
const inserts = require('./inserts');
const pymongo = require('./pymongo');

// The source's own client (PyMongo), doing what the Node driver's client variants do: the client
// claims are judged on these (lib/studies/mapreduce/claims.js), the Node figures beside.
const PY_VARIANTS = [
  { name: 'py-client-list', what: 'PyMongo: whole documents into a list' },
  { name: 'py-client-field-list', what: 'PyMongo: one projected field into a list' },
  { name: 'py-client-acc', what: 'PyMongo: one projected field into accumulators' },
  { name: 'py-client-chunked', what: 'PyMongo: one field, 10 sequential chunks of n/10 by _id' },
  { name: 'py-client-parallel', what: 'PyMongo: one field, 4 threads over _id ranges' },
];

/**
 * Starts the PyMongo client process for this run (ctx.py), or says why not (ctx.pyNote): without
 * PyMongo the py-client-* variants are skipped with the command that installs it.
 */
async function preparePython(ctx, p) {
  let pm = pymongo.findPyMongo();
  if (pm.missing) {
    // The source's client is part of the study, as the mongod is: installed once on first use (pip,
    // ~10 s, into the lab's cache), so the README's `npm start` measures it on a fresh machine.
    try {
      pm = pymongo.installPyMongo({ log: ctx.log });
    } catch (e) {
      pm = { missing: `${pm.missing} (installing it failed: ${e.message})` };
    }
  }
  if (pm.missing) {
    ctx.pyNote = `no PyMongo client: ${pm.missing}`;
    ctx.log(ctx.pyNote);
    return;
  }
  try {
    ctx.py = await pymongo.PyClient.open(ctx.server.uri, ctx.dbName, p.COLL, pm);
    ctx.cleanups.push(async () => ctx.py.close());
  } catch (e) {
    ctx.pyNote = `no PyMongo client: ${e.message}`;
    ctx.log(ctx.pyNote);
  }
}

function pyVariant(v) {
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    able: (p, point, ctx) => !!(ctx && ctx.py) && atTop(p, point, v.name),
    skippedWhy: (ctx) => (ctx && ctx.pyNote) || (ctx && ctx.py ? false : `no PyMongo client: ${pymongo.SETUP}`),
    // The Python side times its own work: its start-up and the pipe are not in the time.
    run: (ctx, p, point) => ctx.py.run(v.name, point.batch, p.FIELD),
  };
}

/**
 * Makes db.<coll> hold n generated sensor rows, the way a user gets them there: CSV files written
 * to a temporary directory, then imported. Skipped when the lab already imported the same spec.
 */
async function prepareSensors(db, { n, seed = 1, coll = 'sensors', progress, log = () => {} }) {
  const spec = { fixture: sensors.FIXTURE, n, seed };
  const { decision: d, count, target } = await inspect(db, coll, spec);
  if (d.action === 'reuse') return { generated: false, own: true, count, ...spec };
  if (d.action === 'foreign')
    throw new ForeignDataError(LabFixture.foreignMessage(target, d.why, 'import sensor rows into'));
  // resume: the rows' _id is their timestamp, so importing the same files again adds only what is missing.
  if (d.action === 'regenerate') await dropOwned(db, coll);
  if (d.action !== 'resume') await createOwned(db, coll, {}, 'fixture', spec);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-perf-lab-csv-'));
  try {
    const t0 = Date.now();
    const files = await sensors.write(dir, n, { seed });
    log(`wrote ${files.length} CSV file(s) of ${lab.fmtInt(n)} rows in ${lab.fmtMs(Date.now() - t0)}; importing`);
    // One batch in flight: documents get record ids in file order, so the first n documents in
    // natural order (what `$limit n` reads) are the first n rows, and the first n by _id as well.
    const { importCsv } = require('../../infra/csv-import'); // required here: `list` reads this module without a server
    const r = await importCsv(db, files, {
      coll,
      key: 'timestamp',
      progress,
      log,
      inflight: 1,
      rejectsFile: path.join(dir, 'rejects.csv'),
    });
    if (r.rejected) throw new Error(`the generated CSV had ${r.rejected} rejected rows: ${r.firstRejects.join('; ')}`);
    await db.collection(META).updateOne({ _id: coll }, { $set: { complete: true, importMs: r.ms } });
    return { generated: true, own: true, count: await db.collection(coll).countDocuments(), importMs: r.ms, ...spec };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const oracleCache = new Map();

/** TOP_VARIANTS, as scripts/mr_variants.js's mrAtPoint reads it: at 10^6 and more only those run. */
function atTop(p, point, name) {
  return !p.TOP_VARIANTS || point.batch < 1e6 || lab.list(p.TOP_VARIANTS).includes(name);
}

function clientVariant(v) {
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    minVersion: '3.6',
    able: (p, point) => atTop(p, point, v.name),
    run: (ctx, p, point) => v.fn(ctx.db.collection(p.COLL), point.batch, p.FIELD, { db: ctx.db }),
  };
}

function isInsert(r) {
  return /^insert-/.test(r.variant);
}

function fmtRate(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
}

// Where a variant computes, drawn as its line's dashes.
const IN_SERVER = new Set(client.CLIENT_VARIANTS.filter((v) => v.inServer).map((v) => v.name));
const whereDrawn = (r) =>
  /^pg-/.test(r.variant)
    ? 'PostgreSQL'
    : /^py-/.test(r.variant)
      ? 'client (PyMongo)'
      : r.where === 'node' && !IN_SERVER.has(r.variant)
        ? 'client (Node driver)'
        : 'in MongoDB';

module.exports = defineStudy({
  name: 'mapreduce',
  script: 'mr_variants.js',
  profiles: {
    // For the test suite: batches 10^0..10^2. The 10^3 batch's row-by-row inserts (1,000 insertOne
    // and 1,000 INSERT a round, the largest part of a tiny run) are checked by
    // test/mapreduce.test.js "every variant, through the runner" at batches up to 10^4; here the
    // durable pair still fills the inserts table at 10^2, and every other variant runs.
    tiny: { N: 1000, K: 2, RUNS: 2 },
    // 10^4 keeps `npm start` short and already shows the ordering of 10^6; the README's sweep is
    // run mapreduce --profile seed (10^0 .. 10^6, 10 rounds: ~45 min on 2 cores).
    // Batches 10^2..10^4: the claims read 10^2 (000-small-python), 10^3 (000-spread, the inserts)
    // and the largest (10^4); 10^0 and 10^1 are in the seed sweep only. MIN_MS: a round of 10^2
    // is ~0.5 s, its client accumulator ~2 ms, so one slow round among 3 made 000-small-python's
    // interval 0.6x-86x one run and 4.8x-17x the next (2026-11-28); rounds are added there until
    // 3 s of timed work (~6 rounds, ~1.5 s more). 10^3 and 10^4 have 3 s from their 3 rounds.
    quick: { N: 10000, K: 4, SIZES: '100,1000,10000', RUNS: 3, MIN_MS: 3000 },
    // A 30 s budget times the whole-document client list at 10^6 (~60 s a run, read by no claim:
    // 000-python-2x reads it at 10^5, ~6 s a run) by its warm-up run alone, 10 minutes less; every
    // variant a claim reads at 10^6 takes ~6-8 s a run on 2 quiet cores, well inside it (on a busy
    // machine a capped one has no interval: its claim abstains).
    // 5 rounds, not the source's ten runs per cell: 10^6 alone took 17.5 of 22.6 min with 10
    // (2026-11-24); its intervals stay far from every claim's boundary. At 10^6 only the variants
    // a claim reads there (TOP_VARIANTS; `$accumulator`, `$function`, the client lists and jsonb
    // are read at 10^5 or by no claim): --set TOP_VARIANTS= runs all 16.
    seed: {
      N: 1000000,
      K: 6,
      RUNS: 5,
      BUDGET_MS: 30000,
      TOP_VARIANTS:
        'mr,mr-jsmode,mr-stored,mr-stored-jsmode,mr-range,mr-chunked,mr-parallel,client-acc,client-chunked,client-parallel,py-client-acc,py-client-chunked,py-client-parallel,pg-typed',
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => [`${p.COLL}_inserts`],
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  peers: ['postgres'],
  expected: '~17 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected: '~16 min (measured 2026-11-27 on a 2.5 GHz Xeon: data 3.3 min, ten variants at 10^6)',

  async load(ctx, p) {
    const f = await prepareSensors(ctx.db, {
      n: p.N,
      seed: p.SEED,
      coll: p.COLL,
      progress: ctx.progress,
      log: ctx.log,
    });
    const only = lab.list(p.VARIANTS);
    if (!only.length || only.some((v) => /^(pg-|insert-pg)/.test(v))) await sql.prepare(ctx, p);
    if (!only.length || only.some((v) => /^py-/.test(v))) await preparePython(ctx, p);
    return { ...f, coll: p.COLL };
  },

  /** Plain Node statistics over the first n generated rows. */
  oracle(p, point) {
    const key = `${point.batch}/${p.FIELD}/${p.SEED}`;
    // A field the generator does not write is missing from every document: no readings at all.
    if (!sensors.LabSensorGen.names().includes(p.FIELD)) return { sum: 0, min: null, max: null, count: 0, mean: null };
    if (!oracleCache.has(key)) oracleCache.set(key, sensors.referenceStats(point.batch, p.FIELD, { seed: p.SEED }));
    return oracleCache.get(key);
  },

  variants: [
    ...client.CLIENT_VARIANTS.map(clientVariant),
    ...PY_VARIANTS.map(pyVariant),
    ...sql.VARIANTS.map((v) => ({ ...v, able: (p, point, ctx) => v.able(p, point, ctx) && atTop(p, point, v.name) })),
    ...inserts.VARIANTS,
  ],

  // The source's table: documents per millisecond by batch size (higher is better).
  tables: [
    {
      title: "documents per millisecond at the median time (higher is better), the source's table",
      rows: 'batch',
      cols: 'variant',
      filter: (r) => !isInsert(r),
      value: (r) => fmtRate(r.axis.batch / r.median),
    },
    {
      title: 'row-by-row inserts, one statement per row, of the first `batch` rows (median ms; 000-pg-insert)',
      rows: 'batch',
      cols: 'variant',
      filter: (r) => isInsert(r) && !r.skipped,
      value: 'median',
    },
  ],

  charts: [
    (records, env) => {
      // Thirteen lines: the palette's colours run out, so the PostgreSQL peers get black and grey
      // (and dots) rather than a colour that repeats a MongoDB variant's.
      const { PALETTE } = require('../../report/report');
      const PG_COLOURS = { 'pg-jsonb': '#888888', 'pg-typed': '#000000' };
      const colourOf = (v, i) => PG_COLOURS[v] || PALETTE[i % PALETTE.length];
      const recs = records.filter((r) => r.type === 'result' && !r.skipped && !isInsert(r));
      const variants = [...new Set(recs.map((r) => r.variant))];
      const n = Math.max(...recs.map((r) => r.axis.batch));
      return {
        title: {
          text: 'Statistics of one field: documents per millisecond by batch size',
          subtitle: [
            `up to ${lab.fmtInt(n)} documents | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores`,
            'solid lines: computed in MongoDB; dashed: in the client (Node driver); dash-dot: PyMongo',
            'dotted: PostgreSQL (the SQL peer); higher is better; whiskers: 95% interval (t on log times, 3+ rounds)',
          ],
        },
        width: 640,
        height: 400,
        data: {
          values: recs.map((r) => ({
            variant: r.variant,
            batch: r.axis.batch,
            rate: r.axis.batch / r.median,
            ...rateInterval(r),
            where: whereDrawn(r),
          })),
        },
        layer: [
          { mark: { type: 'line', point: true }, encoding: rateEncoding(variants, colourOf) },
          {
            transform: [{ filter: 'isValid(datum.lo)' }],
            mark: { type: 'rule' },
            encoding: {
              x: { field: 'batch', type: 'quantitative', scale: { type: 'log' } },
              y: {
                field: 'lo',
                type: 'quantitative',
                scale: { type: 'log' },
                title: 'documents per millisecond (log)',
              },
              y2: { field: 'hi' },
              color: {
                field: 'variant',
                type: 'nominal',
                sort: variants,
                scale: { domain: variants, range: variants.map(colourOf) },
              },
            },
          },
        ],
      };
    },
  ],

  claims: require('./claims'),
  practices: require('./practices'),
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: { prepareSensors, PY_VARIANTS },
});

// A run's 95 % interval of the typical time (report.js chartTime) as documents per millisecond.
function rateInterval(r) {
  const t = require('../../report/report').chartTime(r);
  return t.lo === undefined ? {} : { lo: r.axis.batch / t.hi, hi: r.axis.batch / t.lo };
}

// The rate lines: one colour per variant, the dash says where the statistics were computed.
function rateEncoding(variants, colourOf) {
  return {
    x: {
      field: 'batch',
      type: 'quantitative',
      scale: { type: 'log' },
      title: 'documents per batch (log)',
      axis: { format: '~s' },
    },
    y: { field: 'rate', type: 'quantitative', scale: { type: 'log' }, title: 'documents per millisecond (log)' },
    color: {
      field: 'variant',
      type: 'nominal',
      sort: variants,
      scale: { domain: variants, range: variants.map(colourOf) },
      title: 'variant',
    },
    strokeDash: {
      field: 'where',
      type: 'nominal',
      legend: null,
      scale: {
        domain: ['in MongoDB', 'client (Node driver)', 'client (PyMongo)', 'PostgreSQL'],
        range: [
          [1, 0],
          [6, 3],
          [8, 2, 2, 2],
          [2, 2],
        ],
      },
    },
  };
}
