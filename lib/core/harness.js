'use strict';
// Node's driver of the one harness (scripts/lib/lab.js `harness`): the same state machine the shell
// drives with a plain loop, driven here with await, so Node-side variants (client reads, workers,
// other databases) and shell variants sampled through the session obey the very same rules.

const LabHarness = require('../../scripts/lib/harness');
const { Latency } = require('./latency');
const cleanup = require('../infra/cleanup');

/**
 * @param {{name: string, run: () => Promise<{ms: number, answer?: any, extra?: any, overheadMs?: number}>}[]} runners
 * @param {object} [o] { warmup, rounds, budgetMs, minMs, baseline, warmOnce, onStep(step, r),
 *   progress(plan: variant names in step order, to the cap when sequential) -> {step(variant, ms), stop()};
 *   sequential rounds (docs/sequential-rounds.md): maxRounds (MAX_RUNS), boundaries, same(a, b);
 *   deadline (a Date.now() value: no round starts after it but the first timed one) }
 * @returns {Promise<object>} lab.harness(...).result(): with rounds, stop ('fixed' | 'decided' |
 *   'cap' | 'budget') and, when sequential, sequential: {level, looks, rule}
 */
async function interleave(runners, o = {}) {
  const byName = new Map(runners.map((r) => [r.name, r]));
  const h = LabHarness.harness(
    runners.map((r) => r.name),
    o,
  );
  // Per-operation latencies a variant reports (r.latency), merged over its timed rounds (over its
  // warm-up when that was its only run: capped, or RUNS = 0).
  const lat = new Map(runners.map((r) => [r.name, { warmup: new Latency(), timed: new Latency() }]));
  const bar = o.progress ? o.progress(h.plan().map((x) => x.variant)) : null;
  let step;
  try {
    while ((step = h.next()) !== null) {
      cleanup.stopIfInterrupted();
      const r = await byName.get(step.variant).run();
      h.record(step, r.ms, r.answer, r.extra, r.overheadMs);
      if (bar) bar.step(step.variant, r.ms);
      if (r.latency) lat.get(step.variant)[step.phase === 'timed' ? 'timed' : 'warmup'].add(r.latency);
      if (o.onStep) o.onStep(step, r);
    }
  } finally {
    if (bar) bar.stop();
  }
  const res = h.result();
  for (const [name, l] of lat) {
    const s = res.variants[name];
    const use = s.capped || !l.timed.count ? l.warmup : l.timed;
    if (use.count) s.latency = use.summary();
  }
  return res;
}

/**
 * Times an async function: resolves { ms, answer, extra, latency }, honouring lab.took(); a variant
 * that timed its operations sets `latency` (a lib/core/latency.js Latency) on what took() returned.
 */
async function timeAsync(fn) {
  const t0 = process.hrtime.bigint();
  const out = await fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (out && out.__labTook) return { ms: out.ms, answer: out.answer, extra: out.extra, latency: out.latency };
  return { ms, answer: out };
}

module.exports = { interleave, timeAsync };
