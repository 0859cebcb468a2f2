'use strict';
// The simulated day's schedule, the same as the script's: which minutes of each hour run, and the
// hit stream they read (fixtures/counters-gen.js), shared by the variants, the after step and the charts.

// node-preallocated first: when the shell's schemas are not run, the harness takes the first
// variant as the baseline, and every ratio of the Node day is then to node-preallocated.
const NODE_SCHEMAS = ['preallocated', 'initial', 'hierarchical', 'array', 'timeseries', 'minute-docs', 'bulk'];
// The source's four counter schemas (the writers sweeps run these).
const COUNTERS = ['preallocated', 'initial', 'hierarchical', 'array'];

// The same schedule as the script's countersMinuteOfHour: RUNS + WARMUP minutes spread over the
// hour, the last one always minute 59.
function minuteOfHour(p, k) {
  const n = p.RUNS + p.WARMUP;
  if (n > 1 && k === n - 1) return 59;
  return Math.floor((k * 60) / n);
}

const streamOf = (p) => ({ seed: p.SEED, metrics: p.METRICS, perMinute: p.PER_MINUTE });

/** Every simulated minute of the run: { day, minute }. */
function slotsOf(p) {
  const out = [];
  for (let d = 0; d < p.DAYS; d++) {
    for (let h = 0; h < 24; h++)
      for (let k = 0; k < p.RUNS + p.WARMUP; k++) out.push({ day: d, minute: h * 60 + minuteOfHour(p, k) });
  }
  return out;
}

module.exports = { NODE_SCHEMAS, COUNTERS, minuteOfHour, streamOf, slotsOf };
