'use strict';
// Result records made from a source article's own published figures, so each verdict rule can be
// replayed on the source: fed the source's numbers in the source's setting, a rule must reach the
// source's own conclusion (or say, with the derivation, that the source's figures do not support
// it). A rule that contradicts its source on the source's own figures measures a moved baseline,
// not MongoDB. Each study keeps its figures in lib/studies/<name>/source-figures.js:
//   module.exports = { env: {...}, claims: { '<claim id>': { points: [...], expect: 'holds' } } }
// test/unit/source-replay.test.js replays every claim that has a published figure.

/** The source's environment: its server (version, MMAPv1), its cores, the source's scale. */
function sourceEnv({ version = '2.4.6', storageEngine = 'mmapv1', cores = 2, cacheBytes = null, ...more } = {}) {
  return {
    type: 'environment',
    server: { version, storageEngine, ...(cacheBytes ? { cacheBytes } : {}) },
    host: { cores, usableCores: cores },
    profile: 'seed',
    ...more,
  };
}

// Per-round factors: every variant of a round gets the same one (the same machine in the same
// round), so per-round ratios equal the published ratio and the interval is its point.
const ROUND_FACTORS = [0.99, 1.0, 1.01, 0.995, 1.005];

/**
 * One point's records: `times` maps a variant to the source's time (any unit, the same for all);
 * `baseline` the variant the ratios are to (default: the first). `extra` per variant adds fields
 * (e.g. { extra: { cache: ... } }); `axis` the point. Records carry a quiet machine's evidence
 * (CPU wait 0, load below the cores): the source's setting is what is being replayed.
 */
function pointRecords(study, { axis = {}, times, baseline, extra = {}, rounds = ROUND_FACTORS.length, cores = 2 }) {
  const names = Object.keys(times);
  const base = baseline || names[0];
  const factors = Array.from({ length: rounds }, (_, i) => ROUND_FACTORS[i % ROUND_FACTORS.length]);
  return names.map((variant) => {
    const ts = factors.map((f) => times[variant] * f);
    const sorted = [...ts].sort((a, b) => a - b);
    const mean = ts.reduce((a, b) => a + b, 0) / ts.length;
    return {
      type: 'result',
      study,
      variant,
      axis,
      unit: 'ms',
      times: ts,
      runs: ts.length,
      capped: false,
      mean,
      median: sorted[Math.floor(sorted.length / 2)],
      min: sorted[0],
      max: sorted[sorted.length - 1],
      ratio: { to: base, median: times[variant] / times[base], perRound: true },
      agrees: true,
      loadavg: { start: 0.1, end: 0.1, cores, cpuWait: 0 },
      source: true,
      ...(extra[variant] || {}),
    };
  });
}

/** Every point's records for a study. */
function sourceRecords(study, points, o = {}) {
  return points.flatMap((p) => pointRecords(study, { cores: o.cores, ...p }));
}

module.exports = { sourceEnv, pointRecords, sourceRecords, ROUND_FACTORS };
