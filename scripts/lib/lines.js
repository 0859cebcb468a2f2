// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// What a point prints: its table, warnings and hyperfine-style summary, and the @@LAB lines.

var LabLines = (function (S, F, R) {
  var median = S.median;
  var fmtMs = F.fmtMs;
  var fmtInt = F.fmtInt;
  var fmtFactor = F.fmtFactor;
  var fmtAnswer = F.fmtAnswer;
  var speedWords = F.speedWords;
  var tableLines = F.tableLines;
  var pointLabel = F.pointLabel;
  var NOT_HERE = R.NOT_HERE;
  var PREFIX = '@@LAB ';

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
    // Variants not measured for one reason (the SQL peer cannot start here) share one line.
    var why = {};
    var order = [];
    records.filter(function (r) { return r.skipped && r.skipped !== NOT_HERE; }).forEach(function (r) {
      if (!why[r.skipped]) { why[r.skipped] = []; order.push(r.skipped); }
      why[r.skipped].push(r.variant);
    });
    order.forEach(function (reason) { out.push(why[reason].join(', ') + ': ' + (/not measured/.test(reason) ? reason : 'skipped (' + reason + ')')); });
    // Variants that do not apply here (another part of the study, a rollup asked for seconds) get one
    // line between them: a line each buried the table under a dozen "skipped".
    var notHere = records.filter(function (r) { return r.skipped === NOT_HERE; }).map(function (r) { return r.variant; });
    if (notHere.length) out.push(NOT_HERE + ': ' + notHere.join(', '));
    // One line per kind of warning, naming the variants, so a busy machine does not bury the table.
    var spread = ran.filter(function (r) { return (r.warnings || []).some(function (w) { return w.indexOf('large spread') === 0; }); });
    var first = ran.filter(function (r) { return (r.warnings || []).some(function (w) { return w.indexOf('first timed run') === 0; }); });
    if (spread.length) out.push('warning: large spread (σ > 25% of the mean) for ' + spread.map(function (r) { return r.variant; }).join(', ') + ': a busy machine? more RUNS');
    var busy = ran.filter(function (r) { return R.isBusy(r); });
    if (busy.length) out.push('warning: ' + busy[0].warnings.filter(function (w) { return String(w).indexOf(R.BUSY) === 0; })[0]);
    if (first.length) out.push('warning: first timed run over 2x slower than the rest for ' + first.map(function (r) { return r.variant; }).join(', ') + ': caches still filling? more WARMUP');
    if (ran.every(function (r) { return isEmptyAnswer(r.answer); })) {
      out.push('warning: every variant answered nothing (0, empty): is the collection, field or filter the one you meant?');
    }
    var over = ran.filter(function (r) { return typeof r.overheadMs === 'number'; }).map(function (r) { return r.overheadMs; });
    if (over.length) out.push('harness overhead per sample (wall time of the call minus the timed command): median ' + fmtMs(median(over)) + ', worst variant ' + fmtMs(Math.max.apply(null, over)));
    out = out.concat(latencyLines(ran));
    if (!opts.noSummary) out = out.concat(summaryLines(ran, pointLabel(ran[0].axis)));
    return out;
  }

  // The tail a DBA watches: per-operation latency percentiles of the variants that timed their
  // operations (records' `latency`, an HdrHistogram over the timed rounds).
  function latencyLines(ran) {
    var withLat = ran.filter(function (r) { return r.latency && r.latency.count; });
    if (!withLat.length) return [];
    var cols = [{ key: 'variant', title: 'latency per operation' }, { key: 'count', title: 'ops', right: true }];
    ['p50', 'p95', 'p99', 'max'].forEach(function (k) { cols.push({ key: k, title: k, right: true }); });
    return tableLines(cols, withLat.map(function (r) {
      var l = r.latency;
      return { variant: r.variant, count: fmtInt(l.count), p50: fmtMs(l.p50), p95: fmtMs(l.p95), p99: fmtMs(l.p99), max: fmtMs(l.max) };
    }));
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
    var out = ['Summary' + (label ? ' at ' + label : '') + ' (median of per-round time ratios [range, 95% CI])'];
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

  return {
    PREFIX: PREFIX,
    pointLines: pointLines,
    isEmptyAnswer: isEmptyAnswer,
    summaryLines: summaryLines,
    latencyLines: latencyLines,
    emit: emit,
  };
})(typeof LabStats !== 'undefined' ? LabStats : require('./stats'), typeof LabFormat !== 'undefined' ? LabFormat : require('./format'), typeof LabRecords !== 'undefined' ? LabRecords : require('./records'));

if (typeof module !== 'undefined' && module.exports) module.exports = LabLines;
