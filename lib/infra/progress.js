'use strict';
// A progress bar on stderr for long work (data generation, imports), silent when not wanted.
const cliProgress = require('cli-progress');

/**
 * @param {string} label
 * @param {number} total
 * @param {object} [o]
 * @param {boolean} [o.enabled] default: stderr is a terminal, or LAB_PROGRESS=1
 */
function createProgress(label, total, { enabled } = {}) {
  const on = enabled !== undefined ? enabled : (process.stderr.isTTY || process.env.LAB_PROGRESS === '1');
  if (!on || !total) return { increment() {}, stop() {} };
  const bar = new cliProgress.SingleBar({
    format: `${label} [{bar}] {percentage}% | {value}/{total} | {rate}/s | eta {eta_formatted}`,
    stream: process.stderr,
    // cli-progress prints nothing when the stream is not a terminal unless told to.
    noTTYOutput: !process.stderr.isTTY,
    notTTYSchedule: 5000,
    etaBuffer: 50,
    hideCursor: true,
  }, cliProgress.Presets.shades_classic);
  const t0 = Date.now();
  let done = 0;
  bar.start(total, 0, { rate: 0 });
  return {
    increment(n = 1) {
      done += n;
      bar.update(done, { rate: Math.round(done / Math.max(0.001, (Date.now() - t0) / 1000)) });
    },
    stop() { bar.stop(); },
  };
}

module.exports = { createProgress };
