'use strict';
// Node's driver of the one harness (scripts/lib/lab.js `harness`): the same state machine the shell
// drives with a plain loop, driven here with await, so Node-side variants (client reads, workers,
// other databases) and shell variants sampled through the session obey the very same rules.

const lab = require('../../scripts/lib/lab');

/**
 * @param {{name: string, run: () => Promise<{ms: number, answer?: any, extra?: any, overheadMs?: number}>}[]} runners
 * @param {object} [o] { warmup, rounds, budgetMs, baseline, onStep(step, r) }
 * @returns {Promise<object>} lab.harness(...).result()
 */
async function interleave(runners, o = {}) {
  const byName = new Map(runners.map((r) => [r.name, r]));
  const h = lab.harness(runners.map((r) => r.name), o);
  let step;
  while ((step = h.next()) !== null) {
    const r = await byName.get(step.variant).run();
    h.record(step, r.ms, r.answer, r.extra, r.overheadMs);
    if (o.onStep) o.onStep(step, r);
  }
  return h.result();
}

/** Times an async function: resolves { ms, answer, extra }, honouring lab.took(). */
async function timeAsync(fn) {
  const t0 = process.hrtime.bigint();
  const out = await fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (out && out.__labTook) return { ms: out.ms, answer: out.answer, extra: out.extra };
  return { ms, answer: out };
}

module.exports = { interleave, timeAsync };
