#!/usr/bin/env node
'use strict';
// Turns a timeseries-load-bench.js --states output (e.g. docs/data/timeseries-5m-smallcache-states.json) into a
// result file the findings report and the claims read: one record per (state, grain) like the
// study's own state records, with the run's cache on the axis (`cache`), and the cache size, data
// and index bytes on every record, so a rule finds the run by its setting, in any merge order.
//   node tools/timeseries-bench-to-results.js IN.json OUT.json
const fs = require('fs');
const LabRecords = require('../scripts/lib/records');

const STATES = ['cold', 'warm-data', 'warm-indexes', 'warm-both', 'warm-no-id', 'warm-year'];
const GRAINS = ['seconds', 'minutes', 'hours'];

/** The collection's sizes as the study's measures, at this run's cache. */
function sizeMeasures(bench, cache) {
  const m = (name, value, unit, what, variant = 'raw') =>
    LabRecords.measureRecord({ study: 'timeseries', name, variant, axis: { cache }, value, unit, what });
  return [
    m('events', bench.events, 'documents', 'events in the collection', null),
    m('totalSize', bench.sizes.storageSize + bench.sizes.totalIndexSize, 'bytes', 'storage + indexes on disk'),
    m('storageSize', bench.sizes.storageSize, 'bytes', 'compressed on disk'),
    m('indexSize', bench.sizes.totalIndexSize, 'bytes', 'indexes on disk'),
    m('dataSize', bench.sizes.dataSize, 'bytes', 'uncompressed'),
  ];
}

function convert(bench, source) {
  const cacheBytes = bench.server.cacheSizeBytes;
  const cache = `${cacheBytes / 1073741824}GB`;
  const setting = {
    cacheBytes,
    dataBytes: bench.sizes.dataSize,
    storageBytes: bench.sizes.storageSize,
    indexBytes: bench.sizes.totalIndexSize,
    events: bench.events,
  };
  const results = [];
  for (const state of STATES) {
    for (const grain of GRAINS) {
      const t = bench.seedTables[state] && bench.seedTables[state][grain];
      if (!t) continue;
      const times = ['T1', 'T2', 'T3', 'T4', 'T5'].map((k) => t[k].aggMs);
      results.push(
        LabRecords.timesRecord({
          study: 'timeseries',
          variant: 'raw',
          what: "events, $match on the created_on index, $group on an arithmetic key (the source's)",
          axis: { grain, state, cache },
          times,
          plan: { stage: t.T1.stage, explainVersion: t.T1.explainVersion },
          agrees: true,
          extra: { pass: 'one pass over T1..T5 (timeseries-load-bench.js --states)', setting },
        }),
      );
    }
  }
  results.push(...sizeMeasures(bench, cache));
  return {
    format: LabRecords.FORMAT,
    version: LabRecords.FORMAT_VERSION,
    complete: true,
    environment: {
      type: 'environment',
      server: { version: bench.server.version, storageEngine: bench.server.storageEngine, cacheBytes, embedded: true },
      host: { cores: 2 },
      profile: 'seed',
      label: `converted from ${source}`,
      argv: [
        'node',
        'tools/timeseries-load-bench.js',
        '--n',
        String(bench.n),
        '--cache-gb',
        String(cacheBytes / 1073741824),
        '--states',
      ],
    },
    results,
    notes: [`converted from ${source} by tools/timeseries-bench-to-results.js`],
    params: { timeseries: { N: bench.n, SEED: bench.seed, CACHE_GB: cacheBytes / 1073741824 } },
  };
}

if (require.main === module) {
  const [src, out] = process.argv.slice(2);
  if (!src || !out) {
    process.stderr.write('usage: node tools/timeseries-bench-to-results.js IN.json OUT.json\n');
    process.exit(2);
  }
  fs.writeFileSync(
    out,
    `${JSON.stringify(convert(JSON.parse(fs.readFileSync(src, 'utf8')), src.split('/').pop()), null, 1)}\n`,
  );
}

module.exports = { convert };
