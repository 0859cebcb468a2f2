'use strict';
// Progress bars on stderr for long work (data generation, imports, timed rounds), silent when not wanted.
const cliProgress = require('cli-progress');

/**
 * @param {string} label
 * @param {number} total
 * @param {object} [o]
 * @param {boolean} [o.enabled] default: stderr is a terminal, or LAB_PROGRESS=1
 */
function createProgress(label, total, { enabled } = {}) {
  const on = enabled !== undefined ? enabled : process.stderr.isTTY || process.env.LAB_PROGRESS === '1';
  if (!on || !total) return { increment() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | eta {eta_formatted}`,
      stream: process.stderr,
      // cli-progress prints nothing when the stream is not a terminal unless told to.
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 5000,
      etaBuffer: 50,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = Date.now();
  let done = 0;
  bar.start(total, 0, { rate: 0 });
  return {
    increment(n = 1) {
      done += n;
      bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - t0) / 1000)) });
    },
    stop() {
      bar.stop();
    },
  };
}

/**
 * Progress of a point's harness steps (warm-up and timed rounds), as hyperfine shows it: the steps
 * done and an estimate of the time left. The estimate uses each variant's last time (a $where
 * variant 100x slower than the others counts 100x), not an average step.
 * @param {string} label
 * @param {string[]} order the variants' names, once per step still to run (the harness's plan)
 * @param {object} [o] { enabled }
 */
function roundsProgress(label, order, { enabled } = {}) {
  const on = enabled !== undefined ? enabled : process.stderr.isTTY;
  if (!on || !order.length) return { step() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total} runs | {left}`,
      stream: process.stderr,
      noTTYOutput: !process.stderr.isTTY,
      notTTYSchedule: 5000,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const last = new Map();
  let done = 0;
  const leftText = () => {
    const rest = order.slice(done);
    if (rest.some((v) => !last.has(v))) return 'time left: after the warm-up';
    const ms = rest.reduce((a, v) => a + last.get(v), 0);
    return `~${fmtLeft(ms)} left`;
  };
  bar.start(order.length, 0, { left: leftText() });
  return {
    /** One step done: which variant, how long it took (ms). */
    step(variant, ms) {
      last.set(variant, ms);
      done = Math.min(order.length, done + 1);
      bar.update(done, { left: leftText() });
    },
    stop() {
      bar.stop();
    },
  };
}

function fmtLeft(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

module.exports = { createProgress, roundsProgress, fmtLeft };
