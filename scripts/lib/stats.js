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

  function sorted(xs) {
    return xs.slice().sort(function (a, b) {
      return a - b;
    });
  }

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
    return s[lo] + (h - lo) * (s[Math.min(lo + 1, s.length - 1)] - s[lo]);
  }

  // The arithmetic mean (NaN for no values).
  function meanOf(xs) {
    return (
      xs.reduce(function (s, x) {
        return s + x;
      }, 0) / xs.length
    );
  }

  // The sample variance around the mean m (n - 1 in the denominator: the values are a sample of
  // the runs that could have been); NaN below two values. The summaries and both t intervals.
  function sampleVariance(xs, m) {
    if (xs.length < 2) return NaN;
    return (
      xs.reduce(function (s, x) {
        return s + (x - m) * (x - m);
      }, 0) /
      (xs.length - 1)
    );
  }

  // mean ± σ (sample), median, min..max.
  function summarize(times) {
    var n = times.length;
    var mean = meanOf(times);
    var variance = n > 1 ? sampleVariance(times, mean) : 0;
    return {
      runs: n,
      mean: mean,
      sd: Math.sqrt(variance),
      median: median(times),
      min: Math.min.apply(null, times),
      max: Math.max.apply(null, times),
    };
  }

  // A small seeded generator for resampling, so that the same times give the same interval.
  function rng(seed) {
    var s = seed >>> 0;
    return function () {
      s = (s + 0x6d2b79f5) >>> 0;
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

  // Two-sided quantile of Student's t with df degrees of freedom: exact for 1 and 2, the
  // Cornish-Fisher series of Abramowitz & Stegun 26.7.5 above (within 0.3 % at df = 3, the
  // fewest rounds an interval is given for, and closer from there on).
  function normalQuantile(p) {
    // Acklam's rational approximation (relative error < 1.2e-9).
    var a = [
      -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
      2.506628277459239,
    ];
    var b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
    var c = [
      -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
      2.938163982698783,
    ];
    var d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
    var q;
    var r;
    if (p < 0.02425) {
      q = Math.sqrt(-2 * Math.log(p));
      return (
        (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
      );
    }
    if (p > 1 - 0.02425) return -normalQuantile(1 - p);
    q = p - 0.5;
    r = q * q;
    return (
      ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
      (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
    );
  }

  // Two-sided probability P(|T| <= t) of Student's t with an integer df, exact (Abramowitz &
  // Stegun 26.7.3 and 26.7.4: finite sums in theta = atan(t / sqrt(df))).
  function tCentral(t, df) {
    var th = Math.atan(t / Math.sqrt(df));
    var c2 = Math.cos(th) * Math.cos(th);
    var term = 1;
    var sum = 1;
    var k;
    if (df % 2 === 1) {
      if (df === 1) return (2 * th) / Math.PI;
      for (k = 3; k <= df - 2; k += 2) {
        term *= (c2 * (k - 1)) / k;
        sum += term;
      }
      return (2 / Math.PI) * (th + Math.sin(th) * Math.cos(th) * sum);
    }
    for (k = 2; k <= df - 2; k += 2) {
      term *= (c2 * (k - 1)) / k;
      sum += term;
    }
    return Math.sin(th) * sum;
  }

  // The p-quantile where the series is not close enough: bisection on the exact distribution,
  // remembered (a sequential point asks for the same few at every look).
  var exactSeen = {};
  function tQuantileExact(p, df) {
    var key = p + ':' + df;
    if (!Object.prototype.hasOwnProperty.call(exactSeen, key)) exactSeen[key] = tBisect(p, df);
    return exactSeen[key];
  }

  function tBisect(p, df) {
    var target = 2 * p - 1;
    var lo = 0;
    var hi = 2 * tSeries(p, df) + 1;
    while (tCentral(hi, df) < target) hi *= 2;
    for (var i = 0; i < 60; i++) {
      var mid = (lo + hi) / 2;
      if (tCentral(mid, df) < target) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  }

  function tSeries(p, df) {
    var z = normalQuantile(p);
    var z2 = z * z;
    var g1 = ((z2 + 1) * z) / 4;
    var g2 = (((5 * z2 + 16) * z2 + 3) * z) / 96;
    var g3 = ((((3 * z2 + 19) * z2 + 17) * z2 - 15) * z) / 384;
    var g4 = (((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z) / 92160;
    return z + g1 / df + g2 / (df * df) + g3 / (df * df * df) + g4 / (df * df * df * df);
  }

  // Beyond the 95 % level (the corrected levels of sequential rounds, 99 % and up) the series
  // falls short by up to 3 % at df = 3, which would narrow the very intervals the correction
  // widens: there an integer df is solved on the exact distribution. Up to 95 % the series is
  // kept (within 0.12 %), so every interval already published reads the same.
  function tQuantile(p, df) {
    if (df === 1) return Math.tan(Math.PI * (p - 0.5));
    if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
    if (p > 0.975 + 1e-12 && p < 1 && df === Math.floor(df) && df < 1000) return tQuantileExact(p, df);
    return tSeries(p, df);
  }

  // The fewest per-round ratios an interval is given for. Below it the interval is unavailable:
  // a percentile bootstrap over two rounds is only their range, which claims far more than it knows.
  var MIN_ROUNDS = 3;

  // Interval of the typical per-round ratio: a t-interval on log ratios, so the geometric mean
  // (mid) and a slowdown and the same speed-up are symmetric. Rounds are interleaved, so the
  // ratios of one run are close to independent draws around the run's own ratio.
  function ratioInterval(ratios, level) {
    var lv = level || 0.95;
    var n = ratios.length;
    var logs = ratios.map(function (x) {
      return Math.log(x);
    });
    var m = meanOf(logs);
    if (
      n < MIN_ROUNDS ||
      !ratios.every(function (x) {
        return x > 0 && isFinite(x);
      })
    ) {
      return {
        mid: n ? Math.exp(m) : null,
        lo: null,
        hi: null,
        n: n,
        level: lv,
        method: 't-log',
        why: 'too few rounds for an interval: ' + n + ' (needs ' + MIN_ROUNDS + ')',
      };
    }
    var sd = Math.sqrt(sampleVariance(logs, m));
    var half = (tQuantile(1 - (1 - lv) / 2, n - 1) * sd) / Math.sqrt(n);
    return { mid: Math.exp(m), lo: Math.exp(m - half), hi: Math.exp(m + half), n: n, level: lv, method: 't-log' };
  }

  // Interval of the change of a per-round ratio between two runs (compare OLD NEW): the ratio of
  // the two runs' geometric-mean per-round ratios (each run's figure, as ratioInterval's mid), with
  // a Welch t interval on the log per-round ratios. The one estimator of ratioInterval, for two
  // samples: Welch's, not a pooled variance, because the runs are minutes apart and one may have
  // been measured beside busier neighbours than the other (its rounds spread more). Welch-
  // Satterthwaite degrees of freedom, not rounded (as R's t.test); each side needs MIN_ROUNDS.
  function ratioChangeInterval(oldRatios, newRatios, level) {
    var lv = level || 0.95;
    var sides = [oldRatios, newRatios].map(function (xs) {
      var logs = xs.map(function (x) {
        return Math.log(x);
      });
      var n = logs.length;
      var m = meanOf(logs);
      var v = sampleVariance(logs, m);
      return {
        n: n,
        mean: m,
        v: v,
        ok: xs.every(function (x) {
          return x > 0 && isFinite(x);
        }),
      };
    });
    var a = sides[0];
    var b = sides[1];
    var out = { mid: a.n && b.n ? Math.exp(b.mean - a.mean) : null, lo: null, hi: null, n: [a.n, b.n], level: lv };
    out.method = 'welch-t-log';
    if (a.n < MIN_ROUNDS || b.n < MIN_ROUNDS || !a.ok || !b.ok) {
      out.why = 'too few rounds for an interval: ' + Math.min(a.n, b.n) + ' (needs ' + MIN_ROUNDS + ' a side)';
      return out;
    }
    var qa = a.v / a.n;
    var qb = b.v / b.n;
    var se = Math.sqrt(qa + qb);
    // Both runs' ratios constant (synthetic rounds): no spread, the interval is the point itself.
    out.df = se > 0 ? ((qa + qb) * (qa + qb)) / ((qa * qa) / (a.n - 1) + (qb * qb) / (b.n - 1)) : a.n + b.n - 2;
    var half = se > 0 ? tQuantile(1 - (1 - lv) / 2, out.df) * se : 0;
    out.lo = Math.exp(b.mean - a.mean - half);
    out.hi = Math.exp(b.mean - a.mean + half);
    return out;
  }

  // Ratio of a variant's times to the baseline's. Per round when both were timed every round (the
  // same round saw the same machine), else of medians with no interval. mid is the one figure of
  // the comparison (the interval's centre, see compareTimes); median and min..max describe the rounds.
  // level: a sequential point's corrected level (docs/sequential-rounds.md), kept in the ratio.
  function ratioOf(times, baseTimes, capped, to, level) {
    if (!capped && byRound(times, baseTimes)) {
      var per = perRoundRatios(times, baseTimes);
      var iv = ratioInterval(per, level);
      var r = {
        to: to,
        mid: iv.mid,
        median: median(per),
        min: Math.min.apply(null, per),
        max: Math.max.apply(null, per),
        ci: iv.lo === null ? null : [iv.lo, iv.hi],
        ciMethod: 't-log',
        perRound: true,
      };
      if (level) r.level = level;
      return r;
    }
    var x = median(times) / median(baseTimes);
    return { to: to, mid: x, median: x, min: x, max: x, ci: null, perRound: false };
  }

  // Whether two sides' times pair by round index: the same rounds, or fewer on the side that
  // stopped on its own (per-variant sequential stopping, docs/sequential-rounds.md: its rounds are
  // the point's first ones, the other side ran on for the variants still open), whichever side that
  // is: a report may compare the baseline against a variant that stopped before it.
  function byRound(times, baseTimes) {
    return times.length > 0 && baseTimes.length > 0;
  }

  // time(variant) / time(baseline) over the rounds both ran (the point's first ones), by round index.
  function perRoundRatios(times, baseTimes) {
    return times.slice(0, Math.min(times.length, baseTimes.length)).map(function (t, i) {
      return t / baseTimes[i];
    });
  }

  // ---- the one conclusion of a comparison ---------------------------------------------------
  // Every place that prints or decides "A against its baseline" (the run summary, the point tables,
  // compare, the report, the findings' headlines) takes its figure and its decision from here, so
  // one comparison never reads two ways. The figure is the centre of the t-interval on the logs of
  // the per-round ratios (the geometric mean of time(variant) / time(baseline) over the rounds, the
  // figure the claims use); the decision reads the interval against a no-difference band.

  // A time ratio inside [1/NO_DIFFERENCE, NO_DIFFERENCE] is no difference worth a word: the claims'
  // no-difference band (lib/core/claims.js, FLOOR 0.8), so a table and a claim agree on "no effect".
  var NO_DIFFERENCE = 1.25;
  // An interval whose ends lie further apart than this factor says nothing about the ratio (three
  // rounds that spread 3x give one; "95 % CI 0.07x to 1249200851190573x" was printed): it is not
  // shown, and nothing is decided from it.
  var MAX_SPAN = 100;
  var DECISION = {
    faster: 'faster',
    slower: 'slower',
    none: 'no clear difference',
    few: 'too few rounds',
    wide: 'interval too wide',
    wrong: 'wrong answer',
    untimed: 'not comparable',
  };

  // The decision an interval [lo, hi] of a time ratio allows against the band (a factor > 1): faster
  // or slower only when all of it lies beyond the band, too wide past MAX_SPAN, else no clear difference.
  function decide(lo, hi, band) {
    var b = band || NO_DIFFERENCE;
    if (lo === null || lo === undefined || hi === null || hi === undefined) return DECISION.few;
    if (hi / lo > MAX_SPAN) return DECISION.wide;
    if (hi < 1 / b) return DECISION.faster;
    if (lo > b) return DECISION.slower;
    return DECISION.none;
  }

  function wideWhy(n) {
    return (
      '95% CI spans more than ' + MAX_SPAN + 'x in ' + n + ' rounds; more rounds or a quieter machine would decide'
    );
  }

  // The level the intervals of records' times are at: a point that ran sequential rounds
  // (docs/sequential-rounds.md) chose its own stopping look from the data, so its intervals are at
  // the record's corrected level (rec.sequential.level), the 95 % coverage kept whatever the stop;
  // of two records the higher. 0.95 for fixed rounds.
  function levelOf() {
    var lv = 0.95;
    for (var i = 0; i < arguments.length; i++) {
      var q = arguments[i] && arguments[i].sequential;
      if (q && typeof q.level === 'number' && q.level > lv) lv = q.level;
    }
    return lv;
  }

  // The comparison of a variant's times with its baseline's (the same rounds, interleaved).
  // o: { to (the baseline's name), capped (either side timed by one run), wrong (the variant's
  // answer disagrees with the reference), band, level (levelOf the records: 0.95 by default) }.
  // Returns { to, mid, lo, hi, n, perRound, decision, why }: lo/hi null whenever no interval may be
  // shown (too few rounds, too wide).
  function compareTimes(times, baseTimes, o) {
    var opts = o || {};
    var perRound = !opts.capped && byRound(times, baseTimes);
    var c = { to: opts.to, mid: null, lo: null, hi: null, n: 0, perRound: perRound, decision: null, why: '' };
    var all = times.concat(baseTimes);
    if (
      !all.length ||
      !all.every(function (t) {
        return t > 0 && isFinite(t);
      })
    ) {
      c.decision = DECISION.untimed;
      c.why = "a time of 0 ms, below the timer's resolution: use more documents";
    } else if (perRound) {
      var iv = ratioInterval(perRoundRatios(times, baseTimes), opts.level);
      c.mid = iv.mid;
      c.n = iv.n;
      c.lo = iv.lo;
      c.hi = iv.hi;
    } else {
      c.mid = median(times) / median(baseTimes);
      c.n = Math.min(times.length, baseTimes.length);
    }
    if (!c.decision) c.decision = decide(c.lo, c.hi, opts.band);
    if (c.decision === DECISION.few)
      c.why = perRound
        ? c.n + ' round' + (c.n === 1 ? '' : 's') + ', an interval needs ' + MIN_ROUNDS
        : (opts.cappedWho || 'one side') + ' timed by one run over its time budget: no interval';
    if (c.decision === DECISION.wide) c.why = wideWhy(c.n);
    if (c.decision === DECISION.none)
      c.why = 'the 95% CI reaches inside the no-difference band (' + (opts.band || NO_DIFFERENCE) + 'x either way)';
    if (c.decision === DECISION.wide) {
      c.lo = null;
      c.hi = null;
    }
    // A wrong answer is not a faster way to the answer: never decided, never ranked.
    if (opts.wrong) {
      c.decision = DECISION.wrong;
      c.why = 'its answer disagrees with the reference';
    }
    return c;
  }

  // The comparison of a result record with its baseline's record (records.js's shape). Without the
  // baseline's record (a report given one row) its stored ratio is read instead.
  function compareRecord(rec, base) {
    var to = rec.ratio ? rec.ratio.to : base ? base.variant : undefined;
    var wrong = rec.agrees === false;
    if (base && base.times && rec.times)
      return compareTimes(rec.times, base.times, {
        to: to,
        capped: !!(rec.capped || base.capped),
        cappedWho: rec.capped && base.capped ? 'both' : rec.capped ? rec.variant : base.variant,
        wrong: wrong,
        level: levelOf(rec, base),
      });
    var r = rec.ratio || {};
    var mid = typeof r.mid === 'number' ? r.mid : r.median;
    var n = rec.times ? rec.times.length : rec.runs || 0;
    var c = { to: to, mid: mid, lo: null, hi: null, n: n, perRound: !!r.perRound, decision: null, why: '' };
    if (r.perRound && n >= MIN_ROUNDS && r.ci) {
      c.lo = r.ci[0];
      c.hi = r.ci[1];
    }
    c.decision = decide(c.lo, c.hi);
    if (c.decision === DECISION.few) c.why = n + ' rounds, an interval needs ' + MIN_ROUNDS;
    if (c.decision === DECISION.wide) {
      c.lo = null;
      c.hi = null;
      c.why = wideWhy(n);
    }
    if (wrong) {
      c.decision = DECISION.wrong;
      c.why = 'its answer disagrees with the reference';
    }
    return c;
  }

  // Every comparison at one axis point (records of one study and point, skipped ones left out), the
  // baseline excluded, ranked: fastest first by the one figure, and after them, unranked, the
  // variants that could not be compared (a wrong answer, a time of 0 ms).
  function comparePoint(records) {
    var ran = records.filter(function (r) {
      return !r.skipped && r.ratio && r.variant !== r.ratio.to;
    });
    var out = ran.map(function (r) {
      var base = records.filter(function (b) {
        return b.variant === r.ratio.to && !b.skipped;
      })[0];
      var c = compareRecord(r, base);
      c.variant = r.variant;
      return c;
    });
    var ranked = function (c) {
      return c.decision !== DECISION.wrong && c.decision !== DECISION.untimed && c.mid !== null;
    };
    return out
      .filter(ranked)
      .sort(function (a, b) {
        return a.mid - b.mid;
      })
      .concat(
        out.filter(function (c) {
          return !ranked(c);
        })
      );
  }

  return {
    now: now,
    sorted: sorted,
    median: median,
    percentile: percentile,
    summarize: summarize,
    rng: rng,
    bootstrap: bootstrap,
    MIN_ROUNDS: MIN_ROUNDS,
    normalQuantile: normalQuantile,
    tQuantile: tQuantile,
    ratioInterval: ratioInterval,
    ratioChangeInterval: ratioChangeInterval,
    ratioOf: ratioOf,
    levelOf: levelOf,
    NO_DIFFERENCE: NO_DIFFERENCE,
    MAX_SPAN: MAX_SPAN,
    DECISION: DECISION,
    decide: decide,
    compareTimes: compareTimes,
    compareRecord: compareRecord,
    comparePoint: comparePoint,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabStats;
