'use strict';
// The list of studies the runner reads. One entry per experiment: its shell script in scripts/,
// its generator in fixtures/, how CLI options map to the script's parameters. Adding a study
// means copying an entry (and its script, fixture and test) and changing it.

const whereFixture = require('../fixtures/where-ab');
const mrSweep = require('./mr-sweep');
const tsStudy = require('./ts-study');

const studies = [
  {
    name: 'where',
    seed: '001',
    title: '$where vs plain, hybrid and aggregation queries',
    script: 'where_vs_agg.js',
    variants: ['plain', 'where', 'hybrid', 'seed-agg', 'expr-find', 'expr-agg', 'function'],
    defaults: { docs: 50000, runs: 5, seed: 1 },
    prepare: ({ db, docs, seed, progress }) => whereFixture.load(db, { n: docs, seed, progress }),
    params: ({ docs, runs, seed }) => ({ N: docs, RUNS: runs, SEED: seed, BUDGET_MS: 10000 }),
  },
  {
    name: 'mapreduce',
    seed: '000',
    title: 'stats of one field: map/reduce (inline, jsMode, stored), $group, $accumulator, $function, client-side',
    script: 'mr_variants.js',
    scripts: ['mr_store_functions.js', 'mr_variants.js'],
    variants: mrSweep.ALL_VARIANTS,
    // Small for `npm start`; the README's sweep: run mapreduce --docs 1000000 --runs 10
    defaults: { docs: 10000, runs: 3, seed: 1 },
    run: (ctx) => mrSweep.runMapReduceStudy(ctx),
  },
  {
    name: 'timeseries',
    seed: '003',
    title: 'time series: seconds/minutes/hours aggregation, cold vs warm, warm-up, sizes, and today\'s designs',
    script: 'ts_designs.js',
    scripts: ['ts_designs.js', 'ts_seconds_in_minute.js', 'ts_minutes_in_hour.js', 'ts_hours_in_day.js',
      'warmup_data.js', 'warmup_indexes.js', 'warmup.js', 'agg_year.js', 'sizes.js'],
    variants: ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'],
    // Small for `npm start` (about a minute); the README's run: run timeseries --docs 5000000
    // (and again with --cache-gb 0.25 for the seed's "more harm than good").
    defaults: { docs: 100000, runs: 3, seed: 1, out: 'results/timeseries' },
    run: (ctx) => tsStudy.run(ctx),
  },
];

function findStudy(name) {
  const s = studies.find((x) => x.name === name);
  if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
  return s;
}

module.exports = { studies, findStudy };
