'use strict';
// Seed 000 end to end: sensor-log CSV files -> importer -> every variant, in the database
// (scripts/mr_variants.js, evaluated by mongosh's runtime) and in the client (lib/mr-client.js),
// over batches of 10^0 .. 10^k documents; per batch size all variants are interleaved (a warm-up
// round, then rounds in alternating order), and every result is checked against plain Node.
// Writes the seed's table (Markdown), the results (JSON) and a chart (SVG, PNG).

const fs = require('fs');
const os = require('os');
const path = require('path');
const lab = require('../scripts/lib/lab');
const sensors = require('../fixtures/sensors');
const { importCsv } = require('./csv-import');
const { META, ForeignDataError } = require('./loader');
const { interleave } = require('./harness');
const { parseLabLines } = require('./lab-lines');
const { CLIENT_VARIANTS, timeClient, statsDiffer } = require('./mr-client');
const { renderChart } = require('./chart');

const SERVER_VARIANTS = ['mr', 'mr-jsmode', 'mr-stored', 'mr-stored-jsmode', 'group', 'accumulator', 'function'];
const ALL_VARIANTS = [...SERVER_VARIANTS, ...CLIENT_VARIANTS.map((v) => v.name)];
const BASELINE = 'group';

/**
 * Makes db.<coll> hold n generated sensor rows, the way a user gets them there: CSV files written
 * to a temporary directory, then imported. Skipped when the lab already imported the same spec.
 */
async function prepareSensors(db, { n, seed = 1, coll = 'sensors', progress, log = () => {} }) {
  const spec = { fixture: sensors.FIXTURE, n, seed };
  const meta = await db.collection(META).findOne({ _id: coll });
  if (meta && meta.complete && meta.fixture === spec.fixture && meta.n === n && meta.seed === seed) {
    return { generated: false, count: await db.collection(coll).estimatedDocumentCount(), ...spec };
  }
  const count = await db.collection(coll).estimatedDocumentCount();
  if (!meta && count > 0) {
    throw new ForeignDataError(`${db.databaseName}.${coll} holds ${count} documents the lab did not generate; ` +
      'the lab never overwrites data it does not own: choose another database (--db)');
  }
  if (meta) await db.collection(coll).drop().catch(() => {});
  await db.collection(META).replaceOne({ _id: coll }, { _id: coll, ...spec, complete: false }, { upsert: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-perf-lab-csv-'));
  try {
    const t0 = Date.now();
    const files = await sensors.write(dir, n, { seed });
    log(`wrote ${files.length} CSV file(s) of ${n} rows in ${lab.fmtMs(Date.now() - t0)} (${dir})`);
    // One batch in flight: documents get record ids in file order, so the first n documents in
    // natural order (what `limit n` reads) are the first n rows, and the first n by _id as well.
    const r = await importCsv(db, files, { coll, progress, log, inflight: 1, rejectsFile: path.join(dir, 'rejects.csv') });
    if (r.rejected) throw new Error(`the generated CSV had ${r.rejected} rejected rows: ${r.firstRejects.join('; ')}`);
    log(`imported in ${lab.fmtMs(r.ms)}`);
    await db.collection(META).updateOne({ _id: coll }, { $set: { complete: true, importMs: r.ms } });
    return { generated: true, count: await db.collection(coll).countDocuments(), importMs: r.ms, ...spec };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Batch sizes 10^0 .. 10^k that fit in count documents. */
function powersOfTen(count, kMax = 6) {
  const out = [];
  for (let k = 0; k <= kMax && 10 ** k <= count; k++) out.push(10 ** k);
  return out;
}

/**
 * The sweep. Returns { rows, sizes, table, chart } where rows has one entry per variant and size.
 * @param {object} o
 * @param {import('../lib/shell-runner').ShellSession} o.session mongosh runtime on the same server
 * @param {import('mongodb').Db} o.db
 */
async function sweep({ session, db, coll = 'sensors', field = 'engine_rpm', sizes, runs = 10, warmup = 1,
  seed = 1, variants = ALL_VARIANTS, reference = (n) => sensors.referenceStats(n, field, { seed }), log = () => {} }) {
  const collection = db.collection(coll);
  const rows = [];
  const problems = [];
  for (const n of sizes) {
    const t0 = Date.now();
    const ref = reference(n);
    const last = {};
    const plans = {};
    const runners = variants.map((name) => {
      if (SERVER_VARIANTS.includes(name)) {
        return {
          name,
          run: async () => {
            const recs = parseLabLines(await session.run('mr_variants.js',
              { DB: db.databaseName, COLL: coll, FIELD: field, SIZES: String(n), RUNS: 0, ONLY: name }));
            const row = recs.find((r) => r.kind === 'row' && r.variant === name);
            if (!row) throw new Error(`mr_variants.js printed no result for ${name}`);
            last[name] = row.stats;
            plans[name] = { plan: row.plan, explainVersion: row.explainVersion };
            return row.times[0];
          },
        };
      }
      const v = CLIENT_VARIANTS.find((c) => c.name === name);
      if (!v) throw new Error(`unknown variant ${name} (known: ${ALL_VARIANTS.join(', ')})`);
      return {
        name,
        run: async () => {
          const r = await timeClient(v, collection, n, field);
          last[name] = r.stats;
          return r.ms;
        },
      };
    });
    const clientPlan = lab.plan(await collection.find({}, { projection: { _id: 0, [field]: 1 } }).limit(n).explain('queryPlanner'));
    const res = await interleave(runners, { warmup, rounds: runs, baseline: variants.includes(BASELINE) ? BASELINE : variants[0] });
    for (const name of variants) {
      const v = res.variants[name];
      const rates = v.times.map((t) => n / t);
      const rate = lab.summarize(rates);
      const diff = statsDiffer(last[name], ref);
      if (diff) problems.push(`batch ${n}, ${name}: ${diff}`);
      const plan = plans[name] || clientPlan;
      rows.push({
        study: 'mapreduce', kind: 'row', variant: name, batch: n, docs: n,
        where: SERVER_VARIANTS.includes(name) ? 'server' : 'client',
        runs: v.runs, times: v.times, mean: v.mean, sd: v.sd, median: v.median, min: v.min, max: v.max,
        docsPerMs: rate.mean, docsPerMsSd: rate.sd, ratio: v.ratio.median, ratioRange: [v.ratio.min, v.ratio.max],
        baseline: res.baseline, stats: last[name], agreesWithNode: !diff,
        plan: plan.stage || plan.plan, explainVersion: plan.explainVersion,
      });
    }
    log(`batch ${lab.fmtInt(n)}: ${variants.length} variants x ${warmup + runs} runs in ${lab.fmtMs(Date.now() - t0)}; ` +
      `fastest ${variants.reduce((a, b) => (res.variants[b].median < res.variants[a].median ? b : a))}`);
  }
  if (problems.length) throw new Error(`variants disagree with the plain Node computation:\n  ${problems.join('\n  ')}`);
  return { rows, sizes, table: markdownTable(rows, sizes, variants), chart: chartSpec(rows) };
}

function fmtRate(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
}

function fmtCount(n) {
  const k = Math.log10(n);
  return Number.isInteger(k) ? `10^${k}` : lab.fmtInt(n);
}

/** The seed's table: one row per batch size, one column per variant, docs/ms "mean σ=sd". */
function markdownTable(rows, sizes, variants) {
  const head = `| batch | ${variants.join(' | ')} |`;
  const sep = `|---:|${variants.map(() => '---:').join('|')}|`;
  const body = sizes.map((n) => `| ${fmtCount(n)} | ${variants.map((v) => {
    const r = rows.find((x) => x.batch === n && x.variant === v);
    return r ? `${fmtRate(r.docsPerMs)} σ=${fmtRate(r.docsPerMsSd)}` : '';
  }).join(' | ')} |`);
  return [head, sep, ...body].join('\n');
}

/** Vega-Lite: docs/ms against batch size, both log scales, one line per variant. */
function chartSpec(rows, { title = 'Statistics of one field: documents per millisecond by batch size', subtitle } = {}) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: title, subtitle: subtitle || 'dashed: computed in the database; solid: in the client (Node driver)' },
    width: 640,
    height: 400,
    data: { values: rows.map((r) => ({ variant: r.variant, batch: r.batch, docsPerMs: r.docsPerMs, where: r.where })) },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'batch', type: 'quantitative', scale: { type: 'log' }, title: 'documents per batch (log)', axis: { format: '~s' } },
      y: { field: 'docsPerMs', type: 'quantitative', scale: { type: 'log' }, title: 'documents per millisecond (log, higher is better)' },
      // 11 variants: a 20-colour scheme, so no two lines share a colour
      color: { field: 'variant', type: 'nominal', sort: ALL_VARIANTS, title: 'variant', scale: { scheme: 'tableau20' } },
      strokeDash: { field: 'where', type: 'nominal', legend: null, scale: { domain: ['server', 'client'], range: [[6, 3], [1, 0]] } },
    },
  };
}

/** Writes <base>.json, <base>.md, <base>.svg and <base>.png; returns the paths. */
async function writeOutputs(base, result) {
  fs.mkdirSync(path.dirname(path.resolve(base)), { recursive: true });
  fs.writeFileSync(`${base}.json`, JSON.stringify(result, null, 2) + '\n');
  fs.writeFileSync(`${base}.md`, result.table + '\n');
  const chart = await renderChart(result.chart, base);
  return { json: `${base}.json`, md: `${base}.md`, ...chart };
}

module.exports = { prepareSensors, sweep, powersOfTen, markdownTable, chartSpec, writeOutputs, SERVER_VARIANTS, ALL_VARIANTS, BASELINE };

/**
 * The study's run hook for lib/studies.js (`mongo-perf-lab run mapreduce --docs N --runs R`):
 * import, store the functions, sweep 10^0 .. 10^floor(log10 N), write the table, JSON and chart
 * under $LAB_RESULTS_DIR (default ./results) as mapreduce-<N>.{md,json,svg,png}.
 */
async function runMapReduceStudy({ db, session, opts, echo, progress }) {
  const log = (m) => { if (echo) echo(m); };
  const coll = 'sensors';
  const field = 'engine_rpm';
  const fixture = await prepareSensors(db, { n: opts.docs, seed: opts.seed, coll, progress, log });
  const storeLines = await session.run('mr_store_functions.js', { DB: db.databaseName, COLL: coll, FIELD: field }, { echo });
  const records = parseLabLines(storeLines);
  log('');
  log(`sweep: batches 10^0 .. 10^${Math.floor(Math.log10(fixture.count))}, ${ALL_VARIANTS.length} variants interleaved per batch, 1 warm-up + ${opts.runs} runs`);
  const res = await sweep({ session, db, coll, field, sizes: powersOfTen(fixture.count), runs: opts.runs, seed: opts.seed, log });
  const largest = res.sizes[res.sizes.length - 1];
  // The runner's summary compares rows with each other: only the largest batch's rows are 'row'.
  for (const r of res.rows) if (r.batch !== largest) r.kind = 'sweep';
  const base = path.join(process.env.LAB_RESULTS_DIR || 'results', `mapreduce-${fixture.count}`);
  const outputs = await writeOutputs(base, { fixture, field, sizes: res.sizes, rows: res.rows, table: res.table, chart: res.chart });
  log('');
  log('documents per millisecond, mean σ=sd (higher is better); ratios and explainVersion in the JSON');
  log(res.table);
  log(`written: ${Object.values(outputs).join(', ')}`);
  return { fixture, records: [...records, ...res.rows], extra: { sweep: { sizes: res.sizes, table: res.table, outputs } } };
}

module.exports.runMapReduceStudy = runMapReduceStudy;
