'use strict';
// The list of studies the runner reads. One entry per experiment: its shell script in scripts/,
// its generator in fixtures/, how CLI options map to the script's parameters. Adding a study
// means copying an entry (and its script, fixture and test) and changing it.

const whereFixture = require('../fixtures/where-ab');

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
];

function findStudy(name) {
  const s = studies.find((x) => x.name === name);
  if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
  return s;
}

module.exports = { studies, findStudy };
