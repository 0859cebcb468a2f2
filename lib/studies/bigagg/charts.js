'use strict';
// The bigagg study's charts (lib/report/chart-kit.js shapes): storage and time per block compressor,
// and the speedup of k _id ranges at once against the ideal and the source's shards.
const os = require('os');
const { fmtInt } = require('../../../scripts/lib/format');
const kit = require('../../report/chart-kit');
const B = require('./mot');
const { KS, warmPerCompressor } = require('./parts');

function subtitle(doc, env) {
  const p = (doc.params || {}).bigagg || {};
  return [`${fmtInt(p.N || 0)} MOT-like records | ${kit.envLine(env)}`, kit.WHISKERS];
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

const STORAGE = 'storage, MB';
const TIME = "source's pipeline, s";

// The compressor chart's rows: the sizes (one deterministic figure each, no whisker) and the warm
// and cold times of the source's pipeline in seconds with their intervals.
function compressorValues(records) {
  const vals = [];
  for (const r of records) {
    const size = r.type === 'measure' && r.axis.part === 'compression';
    if (size && (r.name === 'storageBytes' || r.name === 'dataBytes'))
      vals.push({
        compressor: r.axis.compressor,
        panel: STORAGE,
        series: r.name === 'dataBytes' ? 'BSON (uncompressed)' : 'on disk',
        value: r.value / 1e6,
      });
    const warm = r.type === 'result' && !r.skipped && warmPerCompressor(r) && r.variant === 'seed';
    const cold = r.type === 'result' && !r.skipped && r.axis.part === 'cold' && r.variant === 'cold';
    if ((warm && !timedTwice(records, r)) || cold)
      vals.push({
        compressor: r.axis.compressor,
        panel: TIME,
        series: cold ? 'cold cache' : 'warm cache',
        ...kit.timeOf(r, 1 / 1000),
      });
  }
  return vals;
}

/** Storage (MB) and time (s, warm and cold) per block compressor, side by side. */
function compressorChart(records, env, doc) {
  const values = compressorValues(records);
  if (!values.length) return null;
  const P = kit.PALETTE;
  return kit.bars({
    name: 'compressors',
    title: 'MOT banding: storage and time per block compressor',
    subtitle: subtitle(doc, env),
    values,
    x: { field: 'compressor', order: B.COMPRESSORS, title: 'block compressor' },
    y: { title: null },
    color: { field: 'series', title: null, colors: [P[0], P[1], P[2], P[6]], legend: { orient: 'bottom' } },
    panels: { field: 'panel', order: [STORAGE, TIME], independent: ['y', 'color'] },
    width: 260,
    height: 260,
  });
}

// The source's shard runs on one 16-CPU host, zlib, against its single mongod (23:12 = 1392 s).
const SOURCE_SHARDS = [
  [1, 1392],
  [2, 931],
  [4, 512],
  [8, 276],
  [16, 215],
];

/** Speedup of k concurrent _id ranges over k = 1 (median of per-round ratios), with the ideal. */
function speedupChart(records, env, doc) {
  const pts = records.filter(
    (r) => r.type === 'result' && !r.skipped && r.axis.part === 'split' && /^split-\d+$/.test(r.variant) && r.ratio,
  );
  if (!pts.length) return null;
  const cores = env.host.cores || os.cpus().length;
  const SERIES = [
    'measured (per-round ratios, 95% interval)',
    `ideal on ${cores} cores`,
    'source 2015: k shards on 16 CPUs',
  ];
  const measured = pts.map((r) => ({ k: Number(r.variant.split('-')[1]), ...kit.speedupOf(r), series: SERIES[0] }));
  const ideal = KS.map((k) => ({ k, value: Math.min(k, cores), series: SERIES[1] }));
  const source = SOURCE_SHARDS.map(([k, s]) => ({ k, value: 1392 / s, series: SERIES[2] }));
  const P = kit.PALETTE;
  return kit.lines({
    name: 'speedup',
    title: 'MOT banding: k _id ranges at once, merged like a sharded $group',
    subtitle: subtitle(doc, env),
    values: measured.concat(ideal, source),
    x: { field: 'k', title: 'k ranges or shards (log 2)', log: true, base: 2, ticks: [1, 2, 4, 8, 16] },
    y: { title: 'speedup over k = 1 (x)' },
    series: {
      field: 'series',
      title: null,
      order: SERIES,
      colors: [P[0], P[6], P[3]],
      legend: { orient: 'bottom', direction: 'vertical' },
    },
    dash: true,
    width: 460,
    height: 300,
  });
}

module.exports = [compressorChart, speedupChart];
