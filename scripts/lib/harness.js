// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// The one harness: interleaved rounds, budgets, self-timed variants.

var LabHarness = (function (S) {
  var now = S.now;
  var median = S.median;
  var summarize = S.summarize;
  var ratioOf = S.ratioOf;
  // ---- the harness --------------------------------------------------------------------------
  // Round r's order: A B C, then C B A, ...
  function alternating(names, r) {
    return r % 2 === 0 ? names : names.slice().reverse();
  }

  // Every variant's summary of its timed rounds, with its per-round ratio to the baseline's.
  function summaries(st, names, baseline, rounds) {
    var base = st[baseline];
    var out = {};
    names.forEach(function (n) {
      var s = st[n];
      var stats = summarize(s.times);
      stats.times = s.times;
      stats.capped = s.capped && rounds > 0;
      stats.warmup = s.warm;
      stats.answer = s.answer;
      stats.extra = s.extra;
      stats.overheadMs = s.overhead.length ? median(s.overhead) : undefined;
      stats.ratio = ratioOf(s.times, base.times, s.capped || base.capped, baseline);
      out[n] = stats;
    });
    return out;
  }

  // Who runs the warm-up rounds: every variant, or (warmOnce) only the first, where the variants
  // of a point read the same data and one run warms the cache for all of them.
  function warmers(names, warmOnce) {
    return warmOnce ? names.slice(0, 1) : names;
  }

  // A run's time in its variant's samples: a warm-up (or, with warmOnce, an unwarmed variant's
  // first timed run) over the budget caps the variant, that run its only sample.
  function keepTime(s, phase, ms, o) {
    var first = phase === 'warmup' || (o.warmOnce && !s.warm.length && !s.times.length);
    if (phase === 'warmup') s.warm.push(ms);
    if (first && (ms > o.budget || (phase === 'warmup' && o.rounds === 0))) {
      s.capped = true;
      s.times = [ms];
    } else if (phase !== 'warmup') {
      s.times.push(ms);
    }
  }

  // Every step in the order the harness gives them, before any variant is capped (progress estimates).
  function plannedSteps(names, warmup, rounds, warmOnce) {
    var out = [];
    var r;
    var add = function (ph, rr) {
      alternating(ph === 'warmup' ? warmers(names, warmOnce) : names, rr).forEach(function (n) {
        out.push({ variant: n, phase: ph, round: rr });
      });
    };
    for (r = 0; r < warmup; r++) add('warmup', r);
    for (r = 0; r < rounds; r++) add('timed', r);
    return out;
  }

  // Each variant's samples so far.
  function freshStates(names) {
    var st = {};
    names.forEach(function (n) {
      st[n] = { times: [], warm: [], capped: false, answer: undefined, extra: undefined, overhead: [] };
    });
    return st;
  }

  // How many timed rounds a point runs. minMs (hyperfine's minimum benchmarking time): at least
  // `rounds`, and more while the point's timed work is under minMs, up to 10x `rounds`. A point
  // whose round takes a few milliseconds (a batch of 100 documents) then gets the samples an
  // interval needs from a second or two of work, where a fixed count leaves it at the mercy of one
  // slow round; a point whose rounds take longer runs `rounds` as before. The count only grows
  // once the rounds so far are done (round >= c.rounds): a round once started is run through, so
  // every variant has as many samples as the others.
  function roundCounter(rounds, minMs) {
    var c = { rounds: rounds, timedMs: 0 };
    c.limit = function (round, st, names) {
      if (round >= c.rounds && round < rounds * 10 && c.timedMs < (minMs || 0) && anyRunning(st, names))
        c.rounds = round + 1;
      return c.rounds;
    };
    return c;
  }

  function anyRunning(st, names) {
    return names.some(function (n) {
      return !st[n].capped;
    });
  }

  // A state machine, so that the shell (synchronous loop) and Node (await loop) drive the very
  // same rules: warm-up rounds first, then timed rounds in alternating order (A B C, C B A ...),
  // so that drift in the machine's speed (other work on shared cores, cache state, CPU frequency)
  // hits every variant alike. A variant whose warm-up run took longer than budgetMs is measured by
  // that run only (capped), so a 100 s $where does not turn a 1 s comparison into a 10 minute one.
  // With warmOnce a variant that had no warm-up run is capped by its first timed run instead.
  function harness(names, o) {
    var opts = o || {};
    var rounds = opts.rounds === undefined ? 5 : opts.rounds;
    // With no timed rounds each variant still runs once: the warm-up run is then the sample.
    var warmup = rounds === 0 ? Math.max(1, opts.warmup || 0) : opts.warmup === undefined ? 1 : opts.warmup;
    var budget = opts.budgetMs || Infinity;
    var warmOnce = !!opts.warmOnce && warmup > 0 && rounds > 0;
    var baseline = opts.baseline && names.indexOf(opts.baseline) >= 0 ? opts.baseline : names[0];
    var count = roundCounter(rounds, opts.minMs);
    var st = freshStates(names);
    var phase = warmup > 0 ? 'warmup' : 'timed';
    var round = 0;
    var idx = 0;
    var seq = null; // this round's order, fixed when the round starts

    function next() {
      for (;;) {
        var limit = phase === 'warmup' ? warmup : count.limit(round, st, names);
        if (round >= limit) {
          if (phase === 'timed') return null;
          phase = 'timed';
          round = 0;
          idx = 0;
          seq = null;
          continue;
        }
        if (seq === null)
          seq = alternating(phase === 'warmup' ? warmers(names, warmOnce) : names, round).filter(function (n) {
            return !st[n].capped;
          });
        if (idx >= seq.length) {
          round++;
          idx = 0;
          seq = null;
          continue;
        }
        return { variant: seq[idx++], phase: phase, round: round };
      }
    }

    function record(step, ms, answer, extra, overheadMs) {
      var s = st[step.variant];
      s.answer = answer;
      if (extra !== undefined) s.extra = extra;
      if (typeof overheadMs === 'number') s.overhead.push(overheadMs);
      keepTime(s, step.phase, ms, { budget: budget, rounds: rounds, warmOnce: warmOnce });
      if (step.phase === 'timed' && !s.capped) count.timedMs += ms;
    }

    // rounds: the timed rounds run (more than asked when minMs added some).
    function result() {
      return {
        baseline: baseline,
        rounds: count.rounds,
        warmup: warmup,
        variants: summaries(st, names, baseline, rounds),
      };
    }

    function plan() {
      return plannedSteps(names, warmup, rounds, warmOnce);
    }

    return { next: next, record: record, result: result, plan: plan, baseline: baseline };
  }

  // What a variant returns when it times itself (e.g. to leave out a reset before the writes).
  // timedMs: the time it actually timed, when ms is a mean per unit (e.g. per interval of five):
  // the harness's overhead is the call's wall time minus timedMs, not minus the mean.
  function took(ms, answer, extra, timedMs) {
    return { __labTook: true, ms: ms, answer: answer, extra: extra, timedMs: timedMs === undefined ? ms : timedMs };
  }

  // Runs fn once and returns { ms, answer, extra, timedMs }, honouring took().
  function timeCall(fn) {
    var t0 = now();
    var out = fn();
    var ms = now() - t0;
    if (out && out.__labTook) return { ms: out.ms, answer: out.answer, extra: out.extra, timedMs: out.timedMs };
    return { ms: ms, answer: out, timedMs: ms };
  }

  return {
    harness: harness,
    took: took,
    timeCall: timeCall,
  };
})(typeof LabStats !== 'undefined' ? LabStats : require('./stats'));

if (typeof module !== 'undefined' && module.exports) module.exports = LabHarness;
