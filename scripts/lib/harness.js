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

  // Every variant's summary of its timed rounds, with its per-round ratio to the baseline's (its
  // interval at `level`: a sequential point's corrected level, else 95 %).
  function summaries(st, names, baseline, rounds, level) {
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
      stats.ratio = ratioOf(s.times, base.times, s.capped || base.capped, baseline, level);
      // A variant that stopped on its own (decided before its point ended) says so, with its rounds:
      // its times are the point's first rounds, paired with the baseline's by round index.
      if (s.stoppedAt !== null) {
        stats.rounds = s.stoppedAt;
        stats.stop = 'decided';
      }
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
      st[n] = {
        times: [],
        warm: [],
        capped: false,
        answer: undefined,
        extra: undefined,
        overhead: [],
        stoppedAt: null,
      };
    });
    return st;
  }

  // How many timed rounds a point runs, decided at each round's start (more(round): start round
  // `round`, 0-based, or stop; a round once started is run through, so every variant has as many
  // samples as the others). The rounds asked for run first. Then minMs (hyperfine's minimum
  // benchmarking time) adds rounds while the point's timed work is under minMs, up to 10x `rounds`
  // (to the cap when sequential): a point whose round takes a few milliseconds gets the samples an
  // interval needs from a second or two of work, where a fixed count leaves it at the mercy of one
  // slow round. A sequential point (seq: sequentialPlan) then looks after each round and goes on
  // until its comparisons are decided or the cap is reached. A deadline (a Date.now() value) lets
  // no round start after it but the first timed one: a point once begun gives every variant a sample.
  // c.stop says why the rounds ended: 'fixed', 'decided', 'cap' or 'budget'.
  function roundCounter(rounds, minMs, seq, deadline, clock) {
    var c = { rounds: rounds, timedMs: 0, stop: null };
    var extendTo = seq ? seq.maxRounds : rounds * 10;
    c.more = function (round, st, names, isOpen) {
      var go;
      var why = 'fixed';
      if (round < rounds) go = true;
      else if (round < extendTo && c.timedMs < (minMs || 0) && anyRunning(st, names)) go = true;
      else if (seq) {
        var open = isOpen(round, round >= rounds);
        go = open && round < seq.maxRounds;
        why = open ? 'cap' : 'decided';
      } else go = false;
      if (go && round >= 1 && typeof deadline === 'number' && clock() >= deadline) {
        go = false;
        why = 'budget';
      }
      if (go) c.rounds = Math.max(c.rounds, round + 1);
      else {
        c.rounds = round;
        c.stop = why;
      }
      return go;
    };
    return c;
  }

  function anyRunning(st, names) {
    return names.some(function (n) {
      return !st[n].capped;
    });
  }

  // ---- sequential rounds (docs/sequential-rounds.md) ----------------------------------------
  // Repeated confidence intervals (Jennison & Turnbull 1989) with a Bonferroni correction over the
  // planned looks: a sequential point looks after each timed round from S.MIN_ROUNDS (the first
  // with an interval) to its cap, `looks` in all, and every interval it gives at any look is at
  // level 1 - ALPHA / looks. The chance that any of them misses its ratio is then at most ALPHA
  // whatever rule chose when to stop, so the interval of the look it stopped at is a 95 %
  // interval even though the data chose that look. Conservative (the looks are correlated), but
  // simple and valid for any stopping time, a deadline's included.
  var ALPHA = 0.05;
  var RULE = 'bonferroni-rci';

  // { level, looks, rule, maxRounds } when a point runs sequential rounds (maxRounds over rounds,
  // with room for a look), else null: fixed rounds.
  function sequentialPlan(rounds, maxRounds) {
    if (!(rounds > 0) || !(maxRounds > rounds) || maxRounds < S.MIN_ROUNDS) return null;
    var looks = maxRounds - S.MIN_ROUNDS + 1;
    return { level: 1 - ALPHA / looks, looks: looks, rule: RULE, maxRounds: maxRounds };
  }

  // How a plan line says a point's timed rounds: "5 timed rounds", or "3 to 9 timed rounds
  // (stopping when decided)" when MAX_RUNS makes them sequential. The two counts only, not the
  // study's parameters: the line needs nothing else of them.
  function roundsText(runs, maxRuns) {
    var sp = sequentialPlan(runs, maxRuns);
    if (!sp) return runs + ' timed round' + (runs === 1 ? '' : 's');
    return runs + ' to ' + sp.maxRounds + ' timed rounds (stopping when decided)';
  }

  // A study's declared boundaries (ratios time(variant) / time(baseline) its claims read, e.g.
  // [2, 10]), checked when the study is declared; throws one line saying what is wrong.
  function checkBoundaries(list, where) {
    if (list === undefined || list === null) return [];
    var ok =
      Array.isArray(list) &&
      list.every(function (x) {
        return typeof x === 'number' && x > 0 && isFinite(x);
      });
    if (!ok)
      throw new Error(
        (where || 'study') +
          ': boundaries must be a list of positive ratios, e.g. [2, 10] (time(variant) / time(baseline)), got ' +
          JSON.stringify(list)
      );
    return list;
  }

  // The ratios an interval must not contain for a point to stop: the no-difference band's edges
  // (the one estimator's, S.NO_DIFFERENCE) and the study's own boundaries.
  function boundariesOf(extra) {
    return [1 / S.NO_DIFFERENCE, S.NO_DIFFERENCE].concat(checkBoundaries(extra));
  }

  // Whether variant n still holds its point open: its per-round ratio to the baseline has no
  // interval yet (too few rounds, too wide), or its interval at `level` contains a boundary. A
  // capped side (timed once), a wrong answer or a time below the timer's resolution cannot be
  // decided by more rounds, so none of them holds a point open.
  function holdsOpen(st, n, baseline, o) {
    var s = st[n];
    var b = st[baseline];
    if (n === baseline || s.capped || b.capped || s.stoppedAt !== null) return false;
    if (o.same && !o.same(s.answer, b.answer)) return false;
    if (s.times.length !== b.times.length) return false;
    var all = s.times.concat(b.times);
    if (
      !all.every(function (t) {
        return t > 0 && isFinite(t);
      })
    )
      return false;
    var iv = S.ratioInterval(
      s.times.map(function (t, i) {
        return t / b.times[i];
      }),
      o.level
    );
    if (iv.lo === null || iv.hi / iv.lo > S.MAX_SPAN) return true;
    return o.boundaries.some(function (x) {
      return iv.lo <= x && x <= iv.hi;
    });
  }

  // The look of a sequential point: whether any variant still holds it open. Per-variant
  // stopping: at a look (stopping: from `rounds` on), a variant that holds nothing open stops
  // running (stoppedAt: its rounds so far) while the baseline and the undecided variants go on, so
  // a 2,659x ratio is not timed again while a 1.3x one is. Each variant's interval is a repeated
  // confidence interval over its own looks (docs/sequential-rounds.md), so the error rate holds.
  function openTest(st, names, baseline, o) {
    var look = { level: o.level, same: o.same, boundaries: boundariesOf(o.boundaries) };
    return function (round, stopping) {
      var open = false;
      names.forEach(function (n) {
        var s = st[n];
        if (s.stoppedAt !== null || n === baseline) return;
        if (holdsOpen(st, n, baseline, look)) open = true;
        else if (stopping && !s.capped) s.stoppedAt = round;
      });
      return open;
    };
  }

  // A state machine, so that the shell (synchronous loop) and Node (await loop) drive the very
  // same rules: warm-up rounds first, then timed rounds in alternating order (A B C, C B A ...),
  // so that drift in the machine's speed (other work on shared cores, cache state, CPU frequency)
  // hits every variant alike. A variant whose warm-up run took longer than budgetMs is measured by
  // that run only (capped), so a 100 s $where does not turn a 1 s comparison into a 10 minute one.
  // With warmOnce a variant that had no warm-up run is capped by its first timed run instead.
  // Sequential rounds (maxRounds over rounds): at least `rounds`, at most maxRounds, stopping at
  // the first look where no variant holds the point open (holdsOpen) against `boundaries`; `same`
  // (a, b) says whether two answers agree (a variant that disagrees with the baseline holds
  // nothing open). deadline (a Date.now() value; clock: the time source, for tests): see roundCounter.
  function harness(names, o) {
    var opts = o || {};
    var rounds = opts.rounds === undefined ? 5 : opts.rounds;
    // With no timed rounds each variant still runs once: the warm-up run is then the sample.
    var warmup = rounds === 0 ? Math.max(1, opts.warmup || 0) : opts.warmup === undefined ? 1 : opts.warmup;
    var budget = opts.budgetMs || Infinity;
    var warmOnce = !!opts.warmOnce && warmup > 0 && rounds > 0;
    var baseline = opts.baseline && names.indexOf(opts.baseline) >= 0 ? opts.baseline : names[0];
    var sp = sequentialPlan(rounds, opts.maxRounds);
    var level = sp ? sp.level : undefined;
    var st = freshStates(names);
    var isOpen = openTest(st, names, baseline, { level: level, same: opts.same, boundaries: opts.boundaries });
    var count = roundCounter(rounds, opts.minMs, sp, opts.deadline, opts.clock || Date.now);
    var phase = warmup > 0 ? 'warmup' : 'timed';
    var round = 0;
    var idx = 0;
    var seq = null; // this round's order, fixed when the round starts

    function next() {
      for (;;) {
        if (count.stop) return null; // the rounds have ended, for good
        // (a round's end has reset idx and seq already)
        if (phase === 'warmup' && round >= warmup) {
          phase = 'timed';
          round = 0;
        }
        if (phase === 'timed' && seq === null && !count.more(round, st, names, isOpen)) return null;
        if (seq === null)
          seq = alternating(phase === 'warmup' ? warmers(names, warmOnce) : names, round).filter(function (n) {
            return !st[n].capped && st[n].stoppedAt === null;
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

    // rounds: the timed rounds run (more than asked when minMs or a sequential point added some,
    // fewer at a deadline); stop: why they ended; sequential: the rule its intervals are at.
    function result() {
      var res = { baseline: baseline, rounds: count.rounds, stop: count.stop || 'fixed', warmup: warmup };
      res.variants = summaries(st, names, baseline, rounds, level);
      if (sp) res.sequential = { level: sp.level, looks: sp.looks, rule: sp.rule };
      return res;
    }

    // The steps planned: to the cap when sequential (the most the point may take).
    function plan() {
      return plannedSteps(names, warmup, sp ? sp.maxRounds : rounds, warmOnce);
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
    sequentialPlan: sequentialPlan,
    checkBoundaries: checkBoundaries,
    boundariesOf: boundariesOf,
    roundsText: roundsText,
    ALPHA: ALPHA,
    took: took,
    timeCall: timeCall,
  };
})(typeof LabStats !== 'undefined' ? LabStats : require('./stats'));

if (typeof module !== 'undefined' && module.exports) module.exports = LabHarness;
