'use strict';
// Interleaved comparison of variants: a warm-up, then rounds in alternating order (A B, B A, ...),
// so drift in the machine's speed (other work on 2 shared cores, cache state, CPU frequency) hits
// every variant alike. Speed claims are the median of per-round ratios, never of single shots:
// on noisy machines single-shot ratios for the same pair were seen to range from 4.7x to 38x.

const lab = require('../scripts/lib/lab');

/**
 * @param {{name: string, run: () => Promise<number>}[]} variants run() resolves to milliseconds
 * @param {object} [o]
 * @param {number} [o.warmup=1] untimed rounds first
 * @param {number} [o.rounds=5] timed rounds
 * @param {string} [o.baseline] ratios are time(variant) / time(baseline), round by round
 * @returns {Promise<{baseline, rounds, variants: Object<string, object>}>}
 *   variants[name] = { times, mean, sd, median, min, max, ratio: { median, min, max, all } }
 */
async function interleave(variants, { warmup = 1, rounds = 5, baseline = variants[0].name } = {}) {
  if (!variants.some((v) => v.name === baseline)) throw new Error(`baseline ${baseline} is not a variant`);
  for (let w = 0; w < warmup; w++) {
    for (const v of variants) await v.run();
  }
  const times = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? variants : [...variants].reverse();
    for (const v of order) times[v.name].push(await v.run());
  }
  const out = {};
  for (const v of variants) {
    const all = times[v.name].map((t, i) => t / times[baseline][i]);
    out[v.name] = {
      ...lab.summarize(times[v.name]),
      times: times[v.name],
      ratio: { median: lab.median(all), min: Math.min(...all), max: Math.max(...all), all },
    };
  }
  return { baseline, rounds, variants: out };
}

module.exports = { interleave };
