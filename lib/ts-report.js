#!/usr/bin/env node
'use strict';
// Markdown tables for docs/timeseries.md from the study's JSON (results/timeseries/<run>/
// timeseries-tables.json), with the seed's published figures beside ours.
//
//   node lib/ts-report.js results/timeseries/5000000-11.27gb/timeseries-tables.json [more.json ...]
//   node lib/ts-report.js --states-chart docs/img/timeseries-states 'label=tables.json' ...
const fs = require('fs');
const lab = require('../scripts/lib/lab');

// Seed 003's published figures (Vlad Mihalcea, "A beginner's guide to MongoDB performance
// turbocharging"): seconds, MongoDB 2.4.6 (MMAPv1), 50M events, 8 GB RAM workstation.
const SEED = {
  cold: { T1: [0.02, 0.097, 1.771], T2: [0.01, 0.089, 1.366], T3: [0.02, 0.089, 1.216], T4: [0.01, 0.084, 1.135], T5: [0.02, 0.082, 1.078], Average: [0.016, 0.088, 1.3132] },
  'warm-both': { T1: [0.016, 0.359, 5.694], T2: [0, 0.343, 5.336], T3: [0.015, 0.375, 5.179], T4: [0.01, 0.359, 5.351], T5: [0.016, 0.343, 5.366], Average: [0.009, 0.355, 5.385] },
  'warm-data': { T1: [0, 0.047, 1.014], T2: [0, 0.047, 0.968], T3: [0.016, 0.047, 1.045], T4: [0, 0.047, 0.983], T5: [0, 0.046, 0.951], Average: [0.003, 0.046, 0.992] },
  'warm-year': { T1: [0, 0.032, 0.905], T2: [0, 0.046, 0.858], T3: [0, 0.047, 0.952], T4: [0, 0.031, 0.873], T5: [0, 0.047, 0.858], Average: [0, 0.040, 0.889] },
};
const SEED_WARMUP = { 'warm-both': 'touch {data, index}: 15.897 s', 'warm-data': 'touch {data}: 14.025 s', 'warm-year': 'year aggregation: 299.666 s' };
const STATE_TITLES = {
  cold: 'Cold (freshly restarted server before each grain)',
  'warm-data': 'After warming the data only (seed: touch {data: true})',
  'warm-indexes': 'After warming the indexes only (no seed counterpart)',
  'warm-both': 'After warming data and indexes (seed: touch {data: true, index: true}, "more harm than good")',
  'warm-year': 'After aggregating the whole year by day (seed: "preloading the working set")',
};
const GRAINS = ['seconds', 'minutes', 'hours'];
const GRAIN_TITLES = { seconds: 'seconds in a minute', minutes: 'minutes in an hour', hours: 'hours in a day', days: 'days in the year' };

function md(header, rows) {
  const out = [`| ${header.join(' | ')} |`, `|${header.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const r of rows) out.push(`| ${r.join(' | ')} |`);
  return out.join('\n');
}

function fmtRatio(x) { return x >= 10 ? x.toFixed(0) : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2); }
function gb(b) { return (b / 1073741824).toFixed(2) + ' GB'; }
function mb(b) { return b >= 1073741824 ? gb(b) : (b / 1048576).toFixed(1) + ' MB'; }

function seedTables(t) {
  const parts = [];
  for (const state of Object.keys(STATE_TITLES)) {
    const ours = t.seedTables[state];
    if (!ours) continue;
    const seed = SEED[state];
    const header = ['Type', ...GRAINS.flatMap((g) => [`${GRAIN_TITLES[g]}`, ...(seed ? ['seed (2.4, 50M)'] : [])])];
    const rows = ['T1', 'T2', 'T3', 'T4', 'T5', 'Average'].map((T, i) => [T, ...GRAINS.flatMap((g, gi) => {
      const x = ours[g] && ours[g][T];
      const cell = x ? lab.fmtMs(x.aggMs) : '-';
      return seed ? [cell, `${seed[T][gi]} s`] : [cell];
    })]);
    const w = t.warmups.find((x) => x.state === state);
    const note = w ? `\nWarm-up: ${w.warmupScript} took ${lab.fmtMs(w.ms)}${w.method ? ` (${w.method})` : ''}` +
      (w.after ? `; in cache afterwards: collection ${mb(w.after.cached)}, ${Object.entries(w.after.indexes).map(([n, v]) => `${n} ${mb(v.cached)}`).join(', ')}` : '') +
      (SEED_WARMUP[state] ? `. Seed: ${SEED_WARMUP[state]}.` : '.') : '';
    parts.push(`**${STATE_TITLES[state]}**${note}\n\n${md(header, rows)}`);
  }
  return parts.join('\n\n');
}

function designTables(t) {
  const parts = [];
  for (const g of ['seconds', 'minutes', 'hours', 'days']) {
    const rows = t.designs.filter((r) => r.grain === g);
    if (!rows.length) continue;
    const storage = Object.fromEntries(t.storage.map((s) => [s.variant, s]));
    parts.push(`**${GRAIN_TITLES[g]}** (${g === 'days' ? 'one aggregation of the year' : 'time per interval, T1..T5'}; median of ${rows[0].times.length} interleaved rounds)\n\n` + md(
      ['design', 'median', 'min..max', 'x raw (per-round median)', 'explainVersion', 'plan', 'total on disk', 'same rows as raw'],
      rows.map((r) => [r.variant, lab.fmtMs(r.median), `${lab.fmtMs(r.min)}..${lab.fmtMs(r.max)}`, fmtRatio(r.ratioToRaw),
        r.explainVersion, r.stage, mb(storage[r.variant].totalSize), r.agree ? 'yes' : 'NO']),
    ));
  }
  return parts.join('\n\n');
}

function storageTable(t) {
  const builds = Object.fromEntries(t.builds.map((b) => [b.variant, b.ms]));
  return md(['design', 'collections', 'documents', 'data (uncompressed)', 'storage', 'indexes', 'total on disk', 'build time'],
    t.storage.map((s) => [s.variant, s.colls.join(', '), lab.fmtInt(s.docs), mb(s.dataSize), mb(s.storageSize), mb(s.indexSize), mb(s.totalSize),
      builds[s.variant] !== undefined ? lab.fmtMs(builds[s.variant]) : '-']));
}

function sizesTable(t) {
  const s = t.sizes.find((x) => x.indexSizes);
  if (!s) return '';
  return md(['randomData', 'bytes', 'in the WiredTiger cache at the end of the run'], [
    ['dataSize', lab.fmtInt(s.dataSize), mb(s.cached)],
    ['storageSize', lab.fmtInt(s.storageSize), ''],
    ...Object.entries(s.indexSizes).map(([n, b]) => [`indexSizes.${n}`, lab.fmtInt(b), mb(s.indexes[n].cached)]),
    ['totalIndexSize', lab.fmtInt(s.totalIndexSize), ''],
    ['totalSize', lab.fmtInt(s.totalSize), ''],
  ]) + `\n\nServer cache ${gb(s.serverCache.max)}; documents + indexes ${s.fits ? 'fit' : 'do NOT fit'} in it.`;
}

function yearTable(t) {
  const y = t.yearRollupVsRaw;
  return md(['agg_year.js', 'median', 'min..max', 'rounds'], [
    ['raw events', lab.fmtMs(y.raw.median), `${lab.fmtMs(y.raw.min)}..${lab.fmtMs(y.raw.max)}`, String(y.rounds)],
    ['hourly rollup', lab.fmtMs(y.rollup.median), `${lab.fmtMs(y.rollup.min)}..${lab.fmtMs(y.rollup.max)}`, String(y.rounds)],
  ]) + `\n\nRollup / raw, median of per-round ratios: ${(y.rollup.ratio.median).toFixed(4)} (${y.speedup.toFixed(0)}x faster; per-round ${(1 / y.rollup.ratio.max).toFixed(0)}x..${(1 / y.rollup.ratio.min).toFixed(0)}x).`;
}

function loaderTable(t) {
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const r = (x) => `${lab.fmtInt(x)}/s`;
  return md(['', 'documents', 'time', 'throughput'], [
    [`bare insertMany (10,000 per call, awaited one by one), first ${lab.fmtInt(t.bare.docs)}`, lab.fmtInt(t.bare.docs), s(t.bare.ms), r(t.bare.perSec)],
    [`loader (4 unordered batches in flight, progress bar), same first ${lab.fmtInt(t.loader.firstDocs)}`, lab.fmtInt(t.loader.firstDocs), s(t.loader.firstMs), r(t.loader.firstPerSec)],
    ['loader, all events', lab.fmtInt(t.n), s(t.loader.ms), r(t.loader.perSec)],
    ['index on created_on, built after the load', '', s(t.loader.indexMs), ''],
    ['loader + index', lab.fmtInt(t.n), s(t.loader.ms + t.loader.indexMs), r(t.loader.totalPerSec)],
    [`re-run of the first ${lab.fmtInt(t.rerun.read)}`, `${t.rerun.inserted} inserted`, '', ''],
  ]) + `\n\nPeak resident memory of the Node process (loader and yardstick): ${t.memory.peakRssMB} MB ` +
    `(sampled every 5 s: ${t.memory.sampledRssMB.min}..${t.memory.sampledRssMB.max} MB over ${t.memory.sampledRssMB.samples} samples). ` +
    `Collection afterwards: ${lab.fmtInt(t.count)} documents, dataSize ${mb(t.sizes.dataSize)}, storageSize ${mb(t.sizes.storageSize)}, ` +
    `indexes ${Object.entries(t.sizes.indexSizes).map(([n, b]) => `${n} ${mb(b)}`).join(', ')}.`;
}

function main(files) {
  for (const f of files) {
    const t = JSON.parse(fs.readFileSync(f, 'utf8'));
    const cache = t.server.cacheBytes || t.server.cacheSizeBytes;
    const events = t.events || t.n;
    const out = [`## ${f}: ${lab.fmtInt(events)} events, MongoDB ${t.server.version}, ${t.server.storageEngine}` +
      `${t.server.queryFramework ? ', ' + t.server.queryFramework : ''}, cache ${gb(cache)}`];
    if (t.loader) out.push('### Loader', loaderTable(t));
    if (t.seedTables) out.push('### Seed tables (aggregation time; ours in ms, the seed\'s in s)', seedTables(t));
    if (t.designs) out.push('### Designs', designTables(t), '### Storage per design', storageTable(t));
    if (t.sizes && t.sizes.find) out.push('### Sizes', sizesTable(t));
    if (t.yearRollupVsRaw) out.push('### Year by day: rollup vs raw', yearTable(t));
    process.stdout.write(out.join('\n\n') + '\n\n');
  }
}

/**
 * Average aggregation time per state, one panel per grain, one bar per run (scale and cache):
 * where warming helps, and where it does harm.
 */
function statesChartSpec(runs) {
  const states = ['cold', 'warm-data', 'warm-indexes', 'warm-both', 'warm-year'];
  const values = [];
  for (const { label, t } of runs) {
    for (const state of states) {
      for (const g of GRAINS) {
        const x = t.seedTables[state] && t.seedTables[state][g] && t.seedTables[state][g].Average;
        if (x) values.push({ run: label, state, grain: GRAIN_TITLES[g], ms: x.aggMs });
      }
    }
  }
  return {
    title: 'Average aggregation time after each warm-up state (log scale)',
    data: { values },
    facet: { column: { field: 'grain', type: 'nominal', sort: GRAINS.map((g) => GRAIN_TITLES[g]), title: null } },
    spec: {
      width: 230,
      height: 240,
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'state', type: 'nominal', sort: states, title: null, axis: { labelAngle: -40 } },
        xOffset: { field: 'run', type: 'nominal', sort: runs.map((r) => r.label) },
        y: { field: 'ms', type: 'quantitative', stack: null, scale: { type: 'log' }, title: 'ms (average of T1..T5)' },
        color: { field: 'run', type: 'nominal', sort: runs.map((r) => r.label), title: 'run', legend: { labelLimit: 400 } },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

if (require.main === module) {
  const args = process.argv.slice(2);
  if (args[0] === '--states-chart') {
    // --states-chart OUT_BASE 'label=tables.json' ...
    const runs = args.slice(2).map((a) => {
      const i = a.indexOf('=');
      return { label: a.slice(0, i), t: JSON.parse(fs.readFileSync(a.slice(i + 1), 'utf8')) };
    });
    require('./chart').renderChart(statesChartSpec(runs), args[1]).then((o) => process.stdout.write(`${o.svg}\n${o.png}\n`));
  } else {
    main(args);
  }
}

module.exports = { SEED, md, statesChartSpec };
