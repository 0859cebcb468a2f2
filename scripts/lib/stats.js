// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// Timing and statistics: medians, summaries, intervals, per-round ratios.

var LabStats = (function () {
  // ---- timing and statistics ----------------------------------------------------------------
  function now() {
    if (typeof process !== 'undefined' && process.hrtime) {
      var t = process.hrtime();
      return t[0] * 1e3 + t[1] / 1e6;
    }
    return Date.now();
  }

  function sorted(xs) { return xs.slice().sort(function (a, b) { return a - b; }); }

  function median(xs) {
    var s = sorted(xs);
    var m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  // Linear interpolation between closest ranks (the usual "type 7" percentile).
  function percentile(s, q) {
    if (!s.length) return NaN;
    var h = (s.length - 1) * q;
    var lo = Math.floor(h);
    return s[lo] + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)]) - s[lo]);
  }

  // mean ± σ (sample), median, min..max.
  function summarize(times) {
    var n = times.length;
    var mean = times.reduce(function (a, b) { return a + b; }, 0) / n;
    var variance = n > 1 ? times.reduce(function (a, t) { return a + (t - mean) * (t - mean); }, 0) / (n - 1) : 0;
    return { runs: n, mean: mean, sd: Math.sqrt(variance), median: median(times), min: Math.min.apply(null, times), max: Math.max.apply(null, times) };
  }

  // A small seeded generator for resampling, so that the same times give the same interval.
  function rng(seed) {
    var s = seed >>> 0;
    return function () {
      s = (s + 0x6D2B79F5) >>> 0;
      var t = Math.imul(s ^ (s >>> 15), s | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // 95 % bootstrap interval of stat(xs): resample xs with replacement, take the 2.5th and 97.5th
  // percentiles of the statistic. With few rounds the interval is wide, which is the honest answer.
  function bootstrap(xs, stat, o) {
    var opts = o || {};
    if (xs.length < 2) return null;
    var next = rng(opts.seed || 20150101);
    var reps = opts.resamples || 2000;
    var f = stat || median;
    var out = [];
    for (var r = 0; r < reps; r++) {
      var sample = [];
      for (var i = 0; i < xs.length; i++) sample.push(xs[Math.floor(next() * xs.length)]);
      out.push(f(sample));
    }
    var s = sorted(out);
    return [percentile(s, 0.025), percentile(s, 0.975)];
  }

  // Ratio of a variant's times to the baseline's. Per round when both were timed every round (the
  // same round saw the same machine), else of medians with no interval.
  function ratioOf(times, baseTimes, capped, to) {
    if (!capped && times.length === baseTimes.length && times.length > 0) {
      var per = times.map(function (t, i) { return t / baseTimes[i]; });
      return { to: to, median: median(per), min: Math.min.apply(null, per), max: Math.max.apply(null, per), ci: bootstrap(per), perRound: true };
    }
    var x = median(times) / median(baseTimes);
    return { to: to, median: x, min: x, max: x, ci: null, perRound: false };
  }

  return {
    now: now,
    sorted: sorted,
    median: median,
    percentile: percentile,
    summarize: summarize,
    rng: rng,
    bootstrap: bootstrap,
    ratioOf: ratioOf,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabStats;
