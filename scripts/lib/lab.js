// The lab's one harness and the study contract (docs/contract.md), shared by the shell scripts and
// the Node layer: parameters, timing, statistics, interleaved rounds, ratios with confidence
// intervals, result records, tables and summaries, server description, explain summaries.
// Load it from any directory with:  load(__dirname + '/lib/lab.js')
// (load() resolves relative paths against the current directory, __dirname against the script.)
// Node requires the same file: one implementation of every rule on both sides.
// Plain ES2017 so it reads like the scripts it serves.

// The fixture protocol (LabFixture) comes with the lab, in the shell as in Node.
if (typeof LabFixture === 'undefined') {
  if (typeof module !== 'undefined' && module.exports && typeof require === 'function' && typeof load === 'undefined') {
    globalThis.LabFixture = require('./fixture');
  } else {
    load(__dirname + '/fixture.js');
  }
}

var lab = (function () {
  var PREFIX = '@@LAB ';
  var FORMAT = 'mongo-perf-lab/results';
  var FORMAT_VERSION = 1;

  // ---- parameters ---------------------------------------------------------------------------
  // A script's parameters are globals set before it runs, e.g.
  //   mongosh random --eval 'var N = 100000, RUNS = 3' scripts/where_vs_agg.js
  // They are validated here and only ever used as values, never pasted into JavaScript source.
  var KINDS = {
    count: { test: function (v) { return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0; }, what: 'a whole number >= 0' },
    positive: { test: function (v) { return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1; }, what: 'a whole number >= 1' },
    number: { test: function (v) { return typeof v === 'number' && isFinite(v); }, what: 'a finite number' },
    name: { test: function (v) { return typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_.-]{0,100}$/.test(v) && v.indexOf('system.') !== 0; }, what: 'a collection or field name ([A-Za-z0-9_.-], not system.*)' },
    names: { test: function (v) { return typeof v === 'string' && /^[A-Za-z0-9_,.-]*$/.test(v); }, what: 'a comma-separated list of names' },
    bool: { test: function (v) { return typeof v === 'boolean'; }, what: 'true or false' },
  };

  // Parameters every study has; a study may declare its own default for any of them.
  var COMMON = {
    RUNS: { kind: 'count', def: 5, what: 'timed rounds per axis point after the warm-up (0: one run each)' },
    WARMUP: { kind: 'count', def: 1, what: 'untimed warm-up rounds' },
    BUDGET_MS: { kind: 'number', def: 30000, what: 'a variant whose warm-up run takes longer is timed by that run only' },
    VARIANTS: { kind: 'names', def: '', what: 'comma-separated variants to run (default: all)' },
    LAB_LINES: { kind: 'bool', def: true, what: 'print one machine-readable @@LAB line per result' },
    GENERATE: { kind: 'bool', def: false, what: 'let the script generate its data into a collection name you gave (its default name needs no asking)' },
  };

  function globalValue(name) {
    return typeof globalThis[name] === 'undefined' ? undefined : globalThis[name];
  }

  function checkValue(name, v, kind) {
    var k = KINDS[kind];
    if (!k) throw new Error('lab: unknown parameter kind ' + kind);
    if (!k.test(v)) {
      throw new Error('parameter ' + name + ': expected ' + k.what + ', got ' + JSON.stringify(v) + ' (' + typeof v + ')');
    }
    return v;
  }

  // One parameter from a global (scripts that are not studies use it).
  function param(name, def, kind) {
    var v = globalValue(name);
    return checkValue(name, v === undefined ? def : v, kind);
  }

  // All of a study's parameters (its own and COMMON), from `source(name)` (default: globals).
  function params(spec, source) {
    var get = source || globalValue;
    var all = Object.assign({}, COMMON, spec || {});
    var out = {};
    Object.keys(all).forEach(function (name) {
      var s = Object.assign({}, COMMON[name] || {}, all[name]);
      var v = get(name);
      out[name] = checkValue(name, v === undefined ? s.def : v, s.kind);
    });
    return out;
  }

  function list(csv) {
    return csv ? csv.split(',').filter(function (s) { return s.length > 0; }) : [];
  }

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

  // ---- the harness --------------------------------------------------------------------------
  // A state machine, so that the shell (synchronous loop) and Node (await loop) drive the very
  // same rules: warm-up rounds first, then timed rounds in alternating order (A B C, C B A ...),
  // so that drift in the machine's speed (other work on shared cores, cache state, CPU frequency)
  // hits every variant alike. A variant whose warm-up run took longer than budgetMs is measured by
  // that run only (capped), so a 100 s $where does not turn a 1 s comparison into a 10 minute one.
  function harness(names, o) {
    var opts = o || {};
    var rounds = opts.rounds === undefined ? 5 : opts.rounds;
    // With no timed rounds each variant still runs once: the warm-up run is then the sample.
    var warmup = rounds === 0 ? Math.max(1, opts.warmup || 0) : (opts.warmup === undefined ? 1 : opts.warmup);
    var budget = opts.budgetMs || Infinity;
    var baseline = opts.baseline && names.indexOf(opts.baseline) >= 0 ? opts.baseline : names[0];
    var st = {};
    names.forEach(function (n) { st[n] = { times: [], warm: [], capped: false, answer: undefined, extra: undefined, overhead: [] }; });
    var phase = warmup > 0 ? 'warmup' : 'timed';
    var round = 0;
    var idx = 0;
    var seq = null; // this round's order, fixed when the round starts

    function order(r) { return r % 2 === 0 ? names : names.slice().reverse(); }

    function next() {
      for (;;) {
        var limit = phase === 'warmup' ? warmup : rounds;
        if (round >= limit) {
          if (phase === 'timed') return null;
          phase = 'timed';
          round = 0;
          idx = 0;
          seq = null;
          continue;
        }
        if (seq === null) seq = order(round).filter(function (n) { return !st[n].capped; });
        if (idx >= seq.length) { round++; idx = 0; seq = null; continue; }
        return { variant: seq[idx++], phase: phase, round: round };
      }
    }

    function record(step, ms, answer, extra, overheadMs) {
      var s = st[step.variant];
      s.answer = answer;
      if (extra !== undefined) s.extra = extra;
      if (typeof overheadMs === 'number') s.overhead.push(overheadMs);
      if (step.phase === 'warmup') {
        s.warm.push(ms);
        if (ms > budget || rounds === 0) { s.capped = true; s.times = [ms]; }
      } else {
        s.times.push(ms);
      }
    }

    function result() {
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
      return { baseline: baseline, rounds: rounds, warmup: warmup, variants: out };
    }

    return { next: next, record: record, result: result, baseline: baseline };
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

  // ---- answers ------------------------------------------------------------------------------
  function isDate(x) { return Object.prototype.toString.call(x) === '[object Date]'; }

  // Deep equality, numbers equal up to 1e-9 relative (sums in another order round differently).
  function same(a, b) {
    if (a === b) return true;
    if (typeof a === 'number' && typeof b === 'number') {
      return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
    }
    if (isDate(a) || isDate(b)) return isDate(a) && isDate(b) && a.getTime() === b.getTime();
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      if (typeof a.toNumber === 'function' || typeof b.toNumber === 'function') {
        return same(typeof a.toNumber === 'function' ? a.toNumber() : a, typeof b.toNumber === 'function' ? b.toNumber() : b);
      }
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      var ka = Object.keys(a).filter(function (k) { return a[k] !== undefined; });
      var kb = Object.keys(b).filter(function (k) { return b[k] !== undefined; });
      if (ka.length !== kb.length) return false;
      return ka.every(function (k) { return same(a[k], b[k]); });
    }
    return false;
  }

  // A short form of an answer for records and tables: numbers and small documents as they are,
  // long lists by their length.
  function brief(answer) {
    if (answer === undefined || answer === null) return null;
    if (typeof answer === 'number' || typeof answer === 'string' || typeof answer === 'boolean') return answer;
    if (Array.isArray(answer)) return { rows: answer.length };
    try {
      var text = JSON.stringify(answer);
      if (text && text.length <= 300) return JSON.parse(text);
    } catch (e) { /* not JSON-able: keys below */ }
    return { keys: Object.keys(answer).slice(0, 10) };
  }

  function fmtAnswer(b) {
    if (b === null || b === undefined) return '-';
    if (typeof b === 'number') return Number.isInteger(b) ? fmtInt(b) : String(Number(b.toPrecision(6)));
    if (typeof b !== 'object') return String(b);
    if (b.rows !== undefined && Object.keys(b).length === 1) return b.rows + ' rows';
    if (typeof b.count === 'number' && b.mean !== undefined) return 'n ' + fmtInt(b.count) + ', mean ' + (b.mean === null ? '-' : Number(b.mean.toPrecision(6)));
    var text = JSON.stringify(b);
    return text.length > 40 ? text.slice(0, 37) + '...' : text;
  }

  // ---- records ------------------------------------------------------------------------------
  // One record per (study, variant, axis point): docs/result-format.schema.json.
  function resultRecord(o) {
    var s = o.stats || {};
    var rec = {
      type: 'result',
      study: o.study,
      variant: o.variant,
      what: o.what || '',
      where: o.where || 'server',
      axis: o.axis || {},
      unit: o.unit || 'ms',
    };
    if (o.skipped) {
      rec.skipped = o.skipped;
      return rec;
    }
    rec.times = s.times;
    rec.runs = s.runs;
    rec.capped = !!s.capped;
    rec.mean = s.mean;
    rec.sd = s.sd;
    rec.median = s.median;
    rec.min = s.min;
    rec.max = s.max;
    rec.warmup = s.warmup || [];
    rec.ratio = s.ratio || null;
    rec.plan = o.plan || null;
    rec.agrees = o.agrees === undefined ? null : o.agrees;
    rec.answer = brief(s.answer);
    if (s.overheadMs !== undefined) rec.overheadMs = s.overheadMs;
    if (s.extra !== undefined) rec.extra = s.extra;
    rec.warnings = warnings(rec);
    return rec;
  }

  // A measure that is not a time (bytes on disk, duplicates, writes per second ...), per axis point.
  function measureRecord(o) {
    var rec = { type: 'measure', study: o.study, name: o.name, variant: o.variant || null, axis: o.axis || {},
      value: o.value, unit: o.unit || '', what: o.what || '' };
    if (o.extra !== undefined) rec.extra = o.extra;
    return rec;
  }

  // hyperfine's warnings, in our terms.
  function warnings(rec) {
    var out = [];
    if (!rec.times || rec.times.length < 2) return out;
    if (rec.sd > 0.25 * rec.mean) out.push('large spread: σ is ' + Math.round(100 * rec.sd / rec.mean) + '% of the mean (a busy machine? more RUNS)');
    var rest = rec.times.slice(1);
    if (rest.length >= 2 && rec.times[0] > 2 * median(rest)) {
      out.push('first timed run ' + (rec.times[0] / median(rest)).toFixed(1) + 'x slower than the rest (caches still filling? more WARMUP)');
    }
    return out;
  }

  function pointLabel(axis) {
    var ks = Object.keys(axis || {});
    if (!ks.length) return '';
    return ks.map(function (k) { return k + '=' + (typeof axis[k] === 'number' ? fmtInt(axis[k]) : axis[k]); }).join(', ');
  }

  // ---- output -------------------------------------------------------------------------------
  // A server number as a JavaScript number: mongosh hands sizes past 2^31 (a 50M-event
  // collection's dataSize) back as Long, and `0 + Long` concatenates strings instead of adding.
  function num(x) {
    if (typeof x === 'number') return x;
    if (x && typeof x.toNumber === 'function') return x.toNumber();
    return Number(x);
  }

  function fmtMs(ms) {
    if (ms >= 10000) return (ms / 1000).toFixed(1) + ' s';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + ' s';
    if (ms >= 100) return ms.toFixed(0) + ' ms';
    if (ms >= 10) return ms.toFixed(1) + ' ms';
    if (ms >= 0.1) return ms.toFixed(2) + ' ms';
    return ms.toPrecision(2) + ' ms';
  }

  function fmtInt(n) {
    var parts = String(n).split('.');
    parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    return parts.join('.');
  }

  function fmtFactor(x) {
    return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
  }

  // A ratio said the way round that gives a number >= 1, its range and interval in the same sense.
  function speedWords(ratio) {
    var r = ratio;
    var faster = r.median < 1;
    var f = function (x) { return faster ? 1 / x : x; };
    var lo = faster ? f(r.max) : f(r.min);
    var hi = faster ? f(r.min) : f(r.max);
    var ci = r.ci ? (faster ? [f(r.ci[1]), f(r.ci[0])] : [f(r.ci[0]), f(r.ci[1])]) : null;
    return { factor: f(r.median), faster: faster, lo: lo, hi: hi, ci: ci,
      text: fmtFactor(f(r.median)) + 'x ' + (faster ? 'faster' : 'slower') };
  }

  // columns: [{ key, title, right }]; rows: objects holding already formatted strings.
  function tableLines(columns, rows) {
    var widths = columns.map(function (c) {
      return rows.reduce(function (w, r) { return Math.max(w, String(r[c.key] === undefined ? '' : r[c.key]).length); }, c.title.length);
    });
    function line(cells) {
      return cells.map(function (cell, i) {
        var s = String(cell === undefined ? '' : cell);
        var pad = new Array(Math.max(0, widths[i] - s.length) + 1).join(' ');
        return columns[i].right ? pad + s : s + pad;
      }).join('  ').replace(/\s+$/, '');
    }
    return [line(columns.map(function (c) { return c.title; })), line(widths.map(function (w) { return new Array(w + 1).join('-'); }))]
      .concat(rows.map(function (r) { return line(columns.map(function (c) { return r[c.key]; })); }));
  }

  function table(columns, rows) {
    tableLines(columns, rows).forEach(function (l) { print(l); });
  }

  // The table and the summary of one axis point, the same text in the shell and in Node.
  function pointLines(records, o) {
    var opts = o || {};
    var ran = records.filter(function (r) { return !r.skipped; });
    var out = [];
    if (!ran.length) return records.map(function (r) { return r.variant + ': skipped (' + r.skipped + ')'; });
    var base = ran[0].ratio ? ran[0].ratio.to : ran[0].variant;
    var unit = ran[0].unit || 'ms';
    var fmt = unit === 'ms' ? fmtMs : function (x) { return fmtInt(Number(x.toPrecision(4))) + ' ' + unit; };
    var cols = [
      { key: 'variant', title: 'variant' },
      { key: 'answer', title: 'answer', right: true },
      { key: 'time', title: 'mean ± σ', right: true },
      { key: 'range', title: 'min..max', right: true },
      { key: 'runs', title: 'runs', right: true },
      { key: 'vs', title: 'vs ' + base + ' (median of rounds)', right: true },
      { key: 'ci', title: '95% CI', right: true },
      { key: 'plan', title: 'plan' },
      { key: 'engine', title: 'engine' },
    ];
    if (ran.some(function (r) { return r.agrees !== null; })) cols.push({ key: 'agrees', title: 'agrees' });
    cols.push({ key: 'what', title: 'what' });
    out = out.concat(tableLines(cols, ran.map(function (r) {
      var w = r.ratio ? speedWords(r.ratio) : null;
      var isBase = r.variant === base;
      return {
        variant: r.variant,
        answer: fmtAnswer(r.answer),
        time: r.runs > 1 ? fmt(r.mean) + ' ± ' + fmt(r.sd) : fmt(r.mean),
        range: fmt(r.min) + '..' + fmt(r.max),
        runs: r.runs + (r.capped ? '*' : ''),
        vs: isBase ? 'baseline' : (w ? w.text : ''),
        ci: isBase || !w || !w.ci ? '' : fmtFactor(w.ci[0]) + '..' + fmtFactor(w.ci[1]),
        plan: r.plan ? r.plan.stage : '',
        engine: r.plan ? (r.plan.explainVersion === '2' ? 'SBE' : 'classic') : (r.where === 'node' ? 'client' : ''),
        agrees: r.agrees === null ? '' : (r.agrees ? 'yes' : 'NO'),
        what: r.what,
      };
    })));
    if (ran.some(function (r) { return r.capped; })) out.push('* warm-up run took longer than BUDGET_MS: timed by that run only');
    records.filter(function (r) { return r.skipped && r.skipped !== NOT_HERE; }).forEach(function (r) { out.push(r.variant + ': skipped (' + r.skipped + ')'); });
    // Variants that do not apply here (another part of the study, a rollup asked for seconds) get one
    // line between them: a line each buried the table under a dozen "skipped".
    var notHere = records.filter(function (r) { return r.skipped === NOT_HERE; }).map(function (r) { return r.variant; });
    if (notHere.length) out.push(NOT_HERE + ': ' + notHere.join(', '));
    // One line per kind of warning, naming the variants, so a busy machine does not bury the table.
    var spread = ran.filter(function (r) { return (r.warnings || []).some(function (w) { return w.indexOf('large spread') === 0; }); });
    var first = ran.filter(function (r) { return (r.warnings || []).some(function (w) { return w.indexOf('first timed run') === 0; }); });
    if (spread.length) out.push('warning: large spread (σ > 25% of the mean) for ' + spread.map(function (r) { return r.variant; }).join(', ') + ': a busy machine? more RUNS');
    if (first.length) out.push('warning: first timed run over 2x slower than the rest for ' + first.map(function (r) { return r.variant; }).join(', ') + ': caches still filling? more WARMUP');
    if (ran.every(function (r) { return isEmptyAnswer(r.answer); })) {
      out.push('warning: every variant answered nothing (0, empty): is the collection, field or filter the one you meant?');
    }
    var over = ran.filter(function (r) { return typeof r.overheadMs === 'number'; }).map(function (r) { return r.overheadMs; });
    if (over.length) out.push('harness overhead per sample (wall time of the call minus the timed command): median ' + fmtMs(median(over)) + ', worst variant ' + fmtMs(Math.max.apply(null, over)));
    if (!opts.noSummary) out = out.concat(summaryLines(ran, pointLabel(ran[0].axis)));
    return out;
  }

  function isEmptyAnswer(b) {
    if (b === null || b === undefined || b === 0) return true;
    if (typeof b === 'object' && (b.rows === 0 || b.count === 0)) return true;
    return false;
  }

  // hyperfine's summary: every variant against the named baseline, at this axis point.
  function summaryLines(ran, label) {
    var withRatio = ran.filter(function (r) { return r.ratio && r.variant !== r.ratio.to; });
    if (!withRatio.length) return [];
    var base = withRatio[0].ratio.to;
    var out = ['Summary' + (label ? ' at ' + label : '') + ' (median of per-round time ratios; per-round range and 95% CI in brackets)'];
    withRatio.slice().sort(function (a, b) { return a.ratio.median - b.ratio.median; }).forEach(function (r) {
      var w = speedWords(r.ratio);
      var range = r.ratio.perRound ? ' [' + fmtFactor(w.lo) + '..' + fmtFactor(w.hi) + (w.ci ? ', CI ' + fmtFactor(w.ci[0]) + '..' + fmtFactor(w.ci[1]) : '') + ']'
        : ' [single runs: ratio of medians]';
      out.push('  ' + r.variant + ' ran ' + fmtFactor(w.factor) + ' times ' + (w.faster ? 'faster' : 'slower') + ' than ' + base + range);
    });
    return out;
  }

  // One machine-readable line per record: grep '^@@LAB ' and parse the rest as Extended JSON.
  function emit(obj) {
    print(PREFIX + EJSON.stringify(obj, { relaxed: true }));
  }

  // ---- server description -------------------------------------------------------------------
  function serverInfo(dbh) {
    var admin = dbh.getSiblingDB('admin');
    var build = admin.runCommand({ buildInfo: 1 });
    var status = admin.runCommand({ serverStatus: 1 });
    // 7.0+ says which engine may run queries in internalQueryFrameworkControl; 6.0 only has the
    // internalQueryForceClassicEngine switch. The result is assigned inside the try because
    // mongosh's runCommand throws when the parameter does not exist.
    var framework = null;
    try {
      var p = admin.runCommand({ getParameter: 1, internalQueryFrameworkControl: 1 });
      framework = p.internalQueryFrameworkControl;
    } catch (e) {
      try {
        var q = admin.runCommand({ getParameter: 1, internalQueryForceClassicEngine: 1 });
        framework = q.internalQueryForceClassicEngine ? 'forceClassicEngine' : 'trySbeEngine';
      } catch (e2) { /* before 5.1: classic only */ }
    }
    var topology = 'standalone';
    try {
      var hello = admin.runCommand({ hello: 1 });
      topology = hello.msg === 'isdbgrid' ? 'sharded' : hello.setName ? 'replicaSet' : 'standalone';
    } catch (e3) { /* older servers: isMaster */ }
    var cache = status.wiredTiger ? status.wiredTiger.cache['maximum bytes configured'] : null;
    return {
      version: build.version,
      storageEngine: status.storageEngine ? status.storageEngine.name : 'unknown',
      queryFramework: framework,
      cacheBytes: cache,
      topology: topology,
      host: status.host,
    };
  }

  // The one reason given for a variant that does not apply at an axis point (a rollup asked for seconds):
  // reports recognise it and leave the variant out of that point's table instead of a row of dashes.
  var NOT_HERE = 'cannot answer at this point';

  function versionAtLeast(version, min) {
    if (!min) return true;
    var a = String(version).split('.').map(Number);
    var b = String(min).split('.').map(Number);
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      var x = a[i] || 0;
      var y = b[i] || 0;
      if (x !== y) return x > y;
    }
    return true;
  }

  function headerLine(info) {
    return 'server ' + info.version + ' | ' + info.topology + ' | storage ' + info.storageEngine +
      ' | query framework ' + (info.queryFramework || 'classic') +
      (info.cacheBytes ? ' | WiredTiger cache ' + (info.cacheBytes / 1073741824).toFixed(2) + ' GB' : '');
  }

  function header(title, dbh, extra) {
    var info = serverInfo(dbh);
    print('== ' + title + ' ==');
    print(headerLine(info) + (extra ? ' | ' + extra : ''));
    return info;
  }

  // ---- explain ------------------------------------------------------------------------------
  var ACCESS = ['COLLSCAN', 'IXSCAN', 'COUNT_SCAN', 'IDHACK', 'EOF', 'DISTINCT_SCAN', 'CLUSTERED_IXSCAN'];

  function findKey(obj, key) {
    if (!obj || typeof obj !== 'object') return undefined;
    if (Object.prototype.hasOwnProperty.call(obj, key)) return obj[key];
    var ks = Object.keys(obj);
    for (var i = 0; i < ks.length; i++) {
      var found = findKey(obj[ks[i]], key);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  function collectStages(obj, out) {
    if (!obj || typeof obj !== 'object') return out;
    if (typeof obj.stage === 'string' && ACCESS.indexOf(obj.stage) >= 0 && out.indexOf(obj.stage) < 0) out.push(obj.stage);
    Object.keys(obj).forEach(function (k) { collectStages(obj[k], out); });
    return out;
  }

  // Summarises any explain output (find, count, aggregate; classic or SBE) into the access
  // stage(s) of the winning plan and the engine that ran it (explainVersion "1" classic, "2" SBE).
  function plan(explain) {
    if (!explain) return null;
    if (explain.stage && explain.explainVersion && !explain.queryPlanner && !explain.stages) return explain; // already a summary
    var winning = findKey(explain, 'winningPlan');
    var stages = collectStages(winning, []);
    return { stage: stages.join('+') || '?', explainVersion: String(findKey(explain, 'explainVersion') || '1') };
  }

  // ---- fixtures -----------------------------------------------------------------------------
  // Data the lab generated is marked in <db>.perflab_fixtures (scripts/lib/fixture.js, the one
  // protocol shared with the Node loader): a re-run reuses it, a change of size or seed regenerates
  // it, and a collection the lab did not make is read as it is: never filled, dropped or indexed.
  // opts.generate: the lab may create the collection (the scripts' GENERATE, or their default name).
  function ensureFixture(dbh, collName, spec, makeDoc, opts) {
    var o = opts || {};
    return LabFixture.ensure(dbh, collName, spec, makeDoc, { generate: !!o.generate, useForeign: true, progress: print });
  }

  // Whether a script may generate into `coll` without being asked: when it is the script's own
  // default name (nothing typed, so no typo to fill), or GENERATE = true says so.
  function mayGenerate(p, coll, spec) {
    if (p.GENERATE) return true;
    var def = spec && spec.COLL ? spec.COLL.def : undefined;
    return def !== undefined && coll === def && globalValue('COLL') === undefined;
  }

  // A study's declared fixture: generated when the lab owns (or may create) the collection, its
  // indexes made only on a collection the lab owns.
  function prepareFixture(study, p) {
    if (!study.fixture) return null;
    var f = study.fixture(p);
    if (!f) return null;
    var dbh = f.db ? db.getSiblingDB(f.db) : db;
    var res = ensureFixture(dbh, f.coll, { fixture: f.name, n: f.n, seed: f.seed }, f.doc, { generate: mayGenerate(p, f.coll, study.params) });
    if (res.own) (f.indexes || []).forEach(function (k) { dbh.getCollection(f.coll).createIndex(k); });
    else if ((f.indexes || []).length) print('note: not indexing ' + dbh.getName() + '.' + f.coll + ' (not the lab\'s): some variants may scan');
    res.coll = f.coll;
    res.name = f.name;
    return res;
  }

  // ---- the study runtime --------------------------------------------------------------------
  var registry = {};

  function stepsFor(study, p) {
    var only = list(p.VARIANTS);
    only.forEach(function (name) {
      if (!study.variants.some(function (v) { return v.name === name; }) && !(study.nodeVariants || []).some(function (n) { return n === name; })) {
        throw new Error('parameter VARIANTS: unknown variant ' + JSON.stringify(name) + ' (known: ' + study.variants.map(function (v) { return v.name; }).join(', ') + ')');
      }
    });
    return study.variants.filter(function (v) { return !only.length || only.indexOf(v.name) >= 0; });
  }

  function explainOf(v, p, point) {
    if (!v.explain) return null;
    try { return plan(v.explain(p, point)); } catch (e) { return { stage: '?', explainVersion: '?', error: String(e.message || e) }; }
  }

  // Records of one axis point from a harness result; `expected` (an oracle's answer), when given,
  // is what every answer must equal, else the baseline's answer.
  function pointRecords(study, p, point, res, plans, o) {
    var opts = o || {};
    var sameFn = study.same || same;
    var has = Object.prototype.hasOwnProperty.call(opts, 'expected');
    var ref = has ? opts.expected : (res.variants[res.baseline] || {}).answer;
    return Object.keys(res.variants).map(function (name) {
      var s = res.variants[name];
      var meta = opts.meta && opts.meta[name] || {};
      return resultRecord({ study: study.name, variant: name, what: meta.what, where: meta.where, axis: point, unit: study.unit,
        stats: s, plan: plans[name] || null, agrees: ref === undefined ? null : !!sameFn(s.answer, ref) });
    });
  }

  // Drop-in mode: what `mongosh random scripts/x.js` does.
  function runDropIn(study) {
    var p = params(study.params);
    var info = header(study.title + (study.source ? ' (source ' + study.source.id + ')' : ''), db, 'database ' + db.getName());
    var fixture = prepareFixture(study, p);
    if (study.setup) study.setup(p);
    var chosen = stepsFor(study, p);
    var points = study.axes ? study.axes(p) : [{}];
    print('variants ' + chosen.map(function (v) { return v.name; }).join(', ') + ' | baseline ' + study.baseline +
      ' | ' + p.WARMUP + ' warm-up + ' + p.RUNS + ' timed rounds per point, order alternating' +
      (fixture ? ' | ' + fixture.coll + ': ' + fmtInt(fixture.count) + ' documents' : ''));
    if (p.LAB_LINES) emit({ type: 'environment', study: study.name, server: info, params: p, fixture: fixture });
    var all = [];
    points.forEach(function (point) {
      if (study.setupPoint) study.setupPoint(p, point);
      var able = chosen.filter(function (v) { return versionAtLeast(info.version, v.minVersion) && (!v.able || v.able(p, point)); });
      var skipped = chosen.filter(function (v) { return able.indexOf(v) < 0; }).map(function (v) {
        return resultRecord({ study: study.name, variant: v.name, what: v.what, axis: point,
          skipped: versionAtLeast(info.version, v.minVersion) ? NOT_HERE : 'needs MongoDB >= ' + v.minVersion });
      });
      var plans = {};
      var meta = {};
      able.forEach(function (v) { plans[v.name] = explainOf(v, p, point); meta[v.name] = { what: v.what, where: 'server' }; });
      var names = able.map(function (v) { return v.name; });
      if (!names.length) { all = all.concat(skipped); return; }
      var h = harness(names, { warmup: p.WARMUP, rounds: p.RUNS, budgetMs: p.BUDGET_MS, baseline: study.baseline });
      var byName = {};
      able.forEach(function (v) { byName[v.name] = v; });
      var step;
      while ((step = h.next()) !== null) {
        var r = timeCall(function () { return byName[step.variant].run(p, point); });
        h.record(step, r.ms, r.answer, r.extra);
      }
      var recs = pointRecords(study, p, point, h.result(), plans, { meta: meta }).concat(skipped);
      print('');
      if (Object.keys(point).length) print('-- ' + pointLabel(point) + ' --');
      pointLines(recs).forEach(function (l) { print(l); });
      var disagree = recs.filter(function (r) { return r.agrees === false; });
      print(disagree.length ? 'VARIANTS DISAGREE with ' + study.baseline + ': ' + disagree.map(function (r) { return r.variant; }).join(', ')
        : 'all variants agree' + (recs[0] && recs[0].answer !== null ? ' (' + fmtAnswer(recs.filter(function (r) { return !r.skipped; })[0].answer) + ')' : ''));
      if (p.LAB_LINES) recs.forEach(emit);
      all = all.concat(recs);
    });
    if (study.report) study.report(p, all);
    return all;
  }

  function main(study) {
    registry[study.name] = study;
    if (globalValue('LAB_MODE') === 'node') return null;
    return runDropIn(study);
  }

  // ---- the Node bridge ----------------------------------------------------------------------
  // Node loads a study's script once (LAB_MODE = 'node') and then calls these functions in the
  // same mongosh runtime: no re-evaluation of the script, no printed text parsed for a number.
  var state = {};

  function study(name) {
    var s = registry[name];
    if (!s) throw new Error('no study ' + JSON.stringify(name) + ' was declared (loaded: ' + Object.keys(registry).join(', ') + ')');
    return s;
  }

  function variantOf(s, name) {
    var v = s.variants.filter(function (x) { return x.name === name; })[0];
    if (!v) throw new Error('study ' + s.name + ' has no variant ' + JSON.stringify(name));
    return v;
  }

  var node = {
    describe: function (name) {
      var s = study(name);
      return JSON.parse(JSON.stringify({ name: s.name, title: s.title, source: s.source || null, baseline: s.baseline, unit: s.unit || 'ms',
        params: Object.assign({}, COMMON, s.params || {}),
        variants: s.variants.map(function (v) { return { name: v.name, what: v.what || '', minVersion: v.minVersion || null }; }) }));
    },
    // values: { NAME: value } from Node; validated by the same rules as globals.
    configure: function (name, values, nodeVariants) {
      var s = study(name);
      s.nodeVariants = nodeVariants || [];
      var v = values || {};
      var known = Object.assign({}, COMMON, s.params || {});
      Object.keys(v).forEach(function (k) {
        if (!Object.prototype.hasOwnProperty.call(known, k)) {
          throw new Error('parameter ' + k + ': study ' + name + ' has no such parameter (known: ' + Object.keys(known).join(', ') + ')');
        }
      });
      var p = params(s.params, function (k) { return v[k]; });
      state[name] = { p: p };
      return JSON.parse(JSON.stringify({ params: p, variants: stepsFor(s, p).map(function (x) { return x.name; }) }));
    },
    // The axis points, once the fixture and setup are done (they may depend on the data).
    points: function (name) {
      var s = study(name);
      return JSON.parse(JSON.stringify(s.axes ? s.axes(state[name].p) : [{}]));
    },
    fixture: function (name) { return prepareFixture(study(name), state[name].p); },
    setup: function (name) {
      var s = study(name);
      if (s.setup) s.setup(state[name].p);
      return true;
    },
    setupPoint: function (name, point) {
      var s = study(name);
      if (s.setupPoint) s.setupPoint(state[name].p, point);
      return true;
    },
    // Which of the named variants can answer at this point (e.g. no per-second rollup exists).
    able: function (name, names, point) {
      var s = study(name);
      return names.filter(function (n) { var v = variantOf(s, n); return !v.able || v.able(state[name].p, point); });
    },
    explain: function (name, variant, point) { return explainOf(variantOf(study(name), variant), state[name].p, point); },
    sample: function (name, variant, point) {
      var v = variantOf(study(name), variant);
      var p = state[name].p;
      return timeCall(function () { return v.run(p, point); });
    },
    report: function (name, records) {
      var s = study(name);
      if (s.report) s.report(state[name].p, records);
      return true;
    },
    serverInfo: function () { return serverInfo(db); },
  };

  return {
    PREFIX: PREFIX,
    FORMAT: FORMAT,
    FORMAT_VERSION: FORMAT_VERSION,
    KINDS: KINDS,
    COMMON: COMMON,
    param: param,
    params: params,
    list: list,
    now: now,
    median: median,
    percentile: percentile,
    summarize: summarize,
    rng: rng,
    bootstrap: bootstrap,
    ratioOf: ratioOf,
    harness: harness,
    took: took,
    timeCall: timeCall,
    same: same,
    brief: brief,
    resultRecord: resultRecord,
    measureRecord: measureRecord,
    pointRecords: pointRecords,
    warnings: warnings,
    pointLabel: pointLabel,
    num: num,
    fmtMs: fmtMs,
    fmtInt: fmtInt,
    fmtFactor: fmtFactor,
    fmtAnswer: fmtAnswer,
    speedWords: speedWords,
    tableLines: tableLines,
    table: table,
    pointLines: pointLines,
    summaryLines: summaryLines,
    emit: emit,
    serverInfo: serverInfo,
    versionAtLeast: versionAtLeast,
    NOT_HERE: NOT_HERE,
    headerLine: headerLine,
    header: header,
    plan: plan,
    ensureFixture: ensureFixture,
    mayGenerate: mayGenerate,
    prepareFixture: prepareFixture,
    main: main,
    node: node,
    registry: registry,
  };
})();

// The pure helpers (harness, statistics, records, formatting) are shared with the Node layer.
if (typeof module !== 'undefined' && module.exports) module.exports = lab;
