'use strict';
// The Mann-Whitney U test (Wilcoxon rank-sum) and its companion interval for a shift, as benchstat
// uses them to compare two sets of a few samples: it assumes no distribution and is not moved by
// one outlier round, where a t-interval or a bootstrap over 3-7 samples is. The interval is the
// Hodges-Lehmann / Moses one: order statistics of the m*n pairwise differences, cut where the
// exact null distribution of U puts alpha/2 in each tail, so "the interval excludes 0" and "the
// test rejects at alpha" are the same decision. No npm package for this is in the dependency tree.

// Past this many pairs the exact distribution costs more than the normal approximation is off.
const EXACT_PAIRS = 2500;
const cdfCache = new Map();

/**
 * P(U <= u) for u = 0..m*n under the null (no ties), U = #pairs (x from the first sample, y from the
 * second) with y > x. Recurrence on the largest observation: it comes from the second sample with
 * probability n/(m+n) and then beats all m of the first, else from the first and beats none.
 */
function exactCdf(m, n) {
  const key = `${m},${n}`;
  if (cdfCache.has(key)) return cdfCache.get(key);
  // prev[j] = distribution for (i-1, j); row[j] for (i, j); each a Float64Array over u.
  let prev = [];
  for (let j = 0; j <= n; j++) prev.push(Float64Array.of(1)); // i = 0: U = 0 surely
  for (let i = 1; i <= m; i++) {
    const row = [Float64Array.of(1)]; // j = 0: U = 0 surely
    for (let j = 1; j <= n; j++) {
      const d = new Float64Array(i * j + 1);
      const a = prev[j]; // largest from the first sample: U unchanged
      const b = row[j - 1]; // largest from the second sample: it beats all i of the first
      const pa = i / (i + j);
      for (let u = 0; u < a.length; u++) d[u] += pa * a[u];
      for (let u = 0; u < b.length; u++) d[u + i] += (1 - pa) * b[u];
      row.push(d);
    }
    prev = row;
  }
  const pdf = prev[n];
  const cdf = new Float64Array(pdf.length);
  let s = 0;
  for (let u = 0; u < pdf.length; u++) {
    s += pdf[u];
    cdf[u] = Math.min(1, s);
  }
  cdfCache.set(key, cdf);
  return cdf;
}

/** Standard normal CDF (Zelen and Severo 26.2.17; |error| < 7.5e-8). */
function normalCdf(z) {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const upper = (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  return z >= 0 ? 1 - upper : upper;
}

/** P(U <= u) under the null: exact for small samples, else normal with a continuity correction. */
function cdfU(u, m, n) {
  if (u < 0) return 0;
  if (u >= m * n) return 1;
  if (m * n <= EXACT_PAIRS) return exactCdf(m, n)[Math.floor(u)];
  const sd = Math.sqrt((m * n * (m + n + 1)) / 12);
  return normalCdf((Math.floor(u) + 0.5 - (m * n) / 2) / sd);
}

/**
 * The rank of the order statistic that bounds the two-sided interval: the largest k with
 * P(U <= k - 1) <= alpha/2; 0 when the samples are too small for any interval at this level.
 */
function criticalRank(m, n, alpha) {
  let k = 0;
  while (k < (m * n) / 2 && cdfU(k, m, n) <= alpha / 2) k++;
  return k;
}

/** The smallest equal sample size at which the test can reject at `alpha` (two-sided). */
function minimumSamples(alpha = 0.05) {
  let n = 1;
  while (criticalRank(n, n, alpha) === 0) n++;
  return n;
}

/**
 * Compares sample y with sample x (e.g. new with old), both plain numbers.
 * @returns {{m:number, n:number, u:number, p:number, shift:number, lo:number|null, hi:number|null, level:number}}
 *   shift: Hodges-Lehmann estimate of y - x (median of the pairwise differences); [lo, hi]: its
 *   interval at `level` (null when the samples are too small for one); p: two-sided p-value.
 */
function mannWhitney(x, y, { level = 0.95 } = {}) {
  const m = x.length;
  const n = y.length;
  const diffs = new Float64Array(m * n);
  let u = 0;
  let k = 0;
  for (const a of x) {
    for (const b of y) {
      diffs[k++] = b - a;
      if (b > a) u += 1;
      else if (b === a) u += 0.5;
    }
  }
  diffs.sort();
  const mid =
    diffs.length % 2 ? diffs[(diffs.length - 1) / 2] : (diffs[diffs.length / 2 - 1] + diffs[diffs.length / 2]) / 2;
  const tail = Math.min(cdfU(Math.floor(u), m, n), cdfU(Math.floor(m * n - u), m, n));
  const c = criticalRank(m, n, 1 - level);
  return {
    m,
    n,
    u,
    p: Math.min(1, 2 * tail),
    shift: mid,
    level,
    lo: c ? diffs[c - 1] : null,
    hi: c ? diffs[m * n - c] : null,
  };
}

module.exports = { mannWhitney, minimumSamples, criticalRank, cdfU };
