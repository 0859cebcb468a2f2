'use strict';
// The list of studies the runner reads. One entry per experiment: its shell script in scripts/,
// its generator in fixtures/, how CLI options map to the script's parameters. Adding a study
// means copying an entry (and its script, fixture and test) and changing it.

const whereFixture = require('../fixtures/where-ab');
const mrSweep = require('./mr-sweep');

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
];

function findStudy(name) {
  const s = studies.find((x) => x.name === name);
  if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
  return s;
}

module.exports = { studies, findStudy };
