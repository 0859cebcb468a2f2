// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// Answers, result records (docs/result-format.schema.json) and explain summaries. Needs LabStats and
// LabPlan (plan.js: the skipped states), which lab.js loads first.

var LabRecords = (function (S, P) {
  var median = S.median;
  var summarize = S.summarize;
  var FORMAT = 'mongo-perf-lab/results';
  // Version 2 types the states version 1 wrote as text: `skipped` is {code, why} (codes:
  // LabPlan.SKIP) and each of `warnings` is {code, text} (codes: WARN). Every record is made here.
  var FORMAT_VERSION = 2;

  // The one reason given for a variant that does not apply at an axis point (a rollup asked for seconds):
  // reports recognise it and leave the variant out of that point's table instead of a row of dashes.
  var NOT_HERE = P.NOT_HERE;
  var SKIP = P.SKIP;

  // The kinds of warning a result record carries, and the start of each kind's text (how version 1,
  // which held the text alone, is read: warningOf).
  var WARN = { spread: 'large-spread', firstRun: 'slow-first-run', busy: 'busy-machine', other: 'other' };
  var WARN_STARTS = [
    [WARN.spread, 'large spread'],
    [WARN.firstRun, 'first timed run'],
    [WARN.busy, 'busy machine'],
  ];

  // ---- answers ------------------------------------------------------------------------------
  function isDate(x) {
    return Object.prototype.toString.call(x) === '[object Date]';
  }

  // Deep equality, numbers equal up to 1e-9 relative (sums in another order round differently).
  var REL_TOLERANCE = 1e-9;
  // How `same` compares, in the words the summaries show next to "all agree".
  var SAME_TOLERANCE = 'numbers within 1e-9 relative, dates to the ms, keys in any order';
  function same(a, b) {
    if (a === b) return true;
    if (typeof a === 'number' && typeof b === 'number') {
      return Math.abs(a - b) <= REL_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
    }
    if (isDate(a) || isDate(b)) return isDate(a) && isDate(b) && a.getTime() === b.getTime();
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      if (typeof a.toNumber === 'function' || typeof b.toNumber === 'function') {
        return same(
          typeof a.toNumber === 'function' ? a.toNumber() : a,
          typeof b.toNumber === 'function' ? b.toNumber() : b
        );
      }
      if (Array.isArray(a) !== Array.isArray(b)) return false;
      var ka = Object.keys(a).filter(function (k) {
        return a[k] !== undefined;
      });
      var kb = Object.keys(b).filter(function (k) {
        return b[k] !== undefined;
      });
      if (ka.length !== kb.length) return false;
      return ka.every(function (k) {
        return same(a[k], b[k]);
      });
    }
    return false;
  }

  // An answer that found nothing: null, {}, [], '' or a brief of no rows. Variants agreeing on it
  // prove nothing (a misspelled collection reads empty for every form); 0 is a count, not empty.
  function isEmptyAnswer(answer) {
    if (answer === undefined || answer === null || answer === '') return true;
    if (Array.isArray(answer)) return answer.length === 0;
    if (typeof answer !== 'object' || isDate(answer)) return false;
    var keys = Object.keys(answer);
    return keys.length === 0 || (keys.length === 1 && keys[0] === 'rows' && answer.rows === 0);
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
    } catch (e) {
      /* not JSON-able: keys below */
    }
    return { keys: Object.keys(answer).slice(0, 10) };
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
      rec.skipped = P.skippedOf(o.skipped);
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
    // The point's timed rounds and why they ended; `sequential` when it stopped on its intervals.
    if (o.rounds !== undefined) rec.rounds = o.rounds;
    if (o.stop) rec.stop = o.stop;
    if (o.sequential) rec.sequential = o.sequential;
    if (s.overheadMs !== undefined) rec.overheadMs = s.overheadMs;
    if (s.extra !== undefined) rec.extra = s.extra;
    if (s.latency) rec.latency = s.latency;
    rec.warnings = warnings(rec);
    return rec;
  }

  // A result timed outside the harness (one pass of the source's own procedure, a warm-up): its
  // times are the samples, summarized as the harness summarizes its rounds.
  function timesRecord(o) {
    var stats = summarize(o.times);
    stats.times = o.times;
    stats.answer = o.answer;
    if (o.extra !== undefined) stats.extra = o.extra;
    return resultRecord({
      study: o.study,
      variant: o.variant,
      what: o.what,
      where: o.where,
      axis: o.axis,
      unit: o.unit,
      stats: stats,
      plan: o.plan,
      agrees: o.agrees,
    });
  }

  // The records of the variants a point's plan (LabPlan.point) leaves out, each with its typed state.
  function skippedRecords(study, skipped, point) {
    return skipped.map(function (s) {
      return resultRecord({
        study: study,
        variant: s.variant.name,
        what: s.variant.what,
        where: s.variant.where,
        axis: point,
        skipped: s.skipped,
      });
    });
  }

  // Whether a record's variant cannot answer at its axis point (either version's skipped state).
  function isNotHere(rec) {
    var s = rec && rec.skipped;
    return !!s && (s === NOT_HERE || s.code === SKIP.notHere);
  }

  // A measure that is not a time (bytes on disk, duplicates, writes per second ...), per axis point.
  function measureRecord(o) {
    var rec = {
      type: 'measure',
      study: o.study,
      name: o.name,
      variant: o.variant || null,
      axis: o.axis || {},
      value: o.value,
      unit: o.unit || '',
      what: o.what || '',
    };
    if (o.extra !== undefined) rec.extra = o.extra;
    return rec;
  }

  function warning(code, text) {
    return { code: code, text: text };
  }

  // A warning as version 2 holds it, from either version.
  function warningOf(w) {
    if (w && typeof w === 'object') return w;
    var text = String(w);
    var kind = WARN_STARTS.filter(function (k) {
      return text.indexOf(k[1]) === 0;
    })[0];
    return warning(kind ? kind[0] : WARN.other, text);
  }

  // The warnings of one kind a record carries (either version), as {code, text}.
  function warningsOf(rec, code) {
    return (rec.warnings || []).map(warningOf).filter(function (w) {
      return w.code === code;
    });
  }

  // hyperfine's warnings, in our terms.
  function warnings(rec) {
    var out = [];
    if (!rec.times || rec.times.length < 2) return out;
    if (rec.sd > 0.25 * rec.mean)
      out.push(
        warning(
          WARN.spread,
          'large spread: σ is ' + Math.round((100 * rec.sd) / rec.mean) + '% of the mean (a busy machine? more RUNS)'
        )
      );
    var rest = rec.times.slice(1);
    if (rest.length >= 2 && rec.times[0] > 2 * median(rest)) {
      out.push(
        warning(
          WARN.firstRun,
          'first timed run ' +
            (rec.times[0] / median(rest)).toFixed(1) +
            'x slower than the rest (caches still filling? more WARMUP)'
        )
      );
    }
    return out;
  }

  // A point measured while the machine's load average (start or end) exceeded its cores: its times
  // are inflated and noisier. Returns the warning, or null.
  var BUSY = 'busy machine';
  function busyMachine(loadavg) {
    if (!loadavg || !loadavg.cores) return null;
    var worst = Math.max(loadavg.start || 0, loadavg.end || 0);
    if (worst <= loadavg.cores) return null;
    return warning(
      WARN.busy,
      BUSY +
        ': load average ' +
        loadavg.start +
        ' at start, ' +
        loadavg.end +
        ' at end, on ' +
        loadavg.cores +
        ' cores (times inflated? rerun when quieter)'
    );
  }

  function isBusy(rec) {
    return warningsOf(rec, WARN.busy).length > 0;
  }

  // The text of a record's busy-machine warning (either version), or null.
  function busyText(rec) {
    var w = warningsOf(rec, WARN.busy)[0];
    return w ? w.text : null;
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
    if (typeof obj.stage === 'string' && ACCESS.indexOf(obj.stage) >= 0 && out.indexOf(obj.stage) < 0)
      out.push(obj.stage);
    Object.keys(obj).forEach(function (k) {
      collectStages(obj[k], out);
    });
    return out;
  }

  // The stage names of a plan tree, top-down (children: inputStage, inputStages, outerStage,
  // innerStage, thenStage, elseStage), without the SBE slot plan.
  function stageNames(node, out) {
    if (!node || typeof node !== 'object') return out;
    if (typeof node.stage === 'string') out.push(node.stage);
    ['inputStage', 'outerStage', 'innerStage', 'thenStage', 'elseStage'].forEach(function (k) {
      stageNames(node[k], out);
    });
    (node.inputStages || []).forEach(function (c) {
      stageNames(c, out);
    });
    return out;
  }

  // Every value of `key` in obj (the winning plan: indexName, strategy), not below skip's keys.
  function allOf(obj, key, out, skip) {
    if (!obj || typeof obj !== 'object') return out;
    Object.keys(obj).forEach(function (k) {
      if (skip && skip.indexOf(k) >= 0) return;
      if (k === key && obj[k] !== undefined && obj[k] !== null) {
        [].concat(obj[k]).forEach(function (v) {
          if (out.indexOf(v) < 0) out.push(v);
        });
      } else allOf(obj[k], key, out, skip);
    });
    return out;
  }

  // One explain's figures (executionStats verbosity). A find, a count, or an aggregation the
  // server ran as one query (SBE, explainVersion "2") has one executionStats; a classic
  // aggregation has a $cursor stage with its executionStats, then stages that examine on their
  // own ($lookup: totalDocsExamined, totalKeysExamined, indexesUsed, collectionScans).
  function explainFigures(ex) {
    var f = { keys: null, docs: null, returned: null, ms: null, indexes: [], lookup: [], stages: [] };
    var add = function (name, v) {
      if (typeof v === 'number') f[name] = (f[name] || 0) + v;
    };
    var fromStats = function (st) {
      if (!st || typeof st !== 'object') return;
      add('keys', st.totalKeysExamined);
      add('docs', st.totalDocsExamined);
      if (typeof st.nReturned === 'number') f.returned = st.nReturned;
      if (typeof st.executionTimeMillis === 'number') f.ms = st.executionTimeMillis;
    };
    var fromPlanner = function (qp) {
      var winning = qp && qp.winningPlan;
      if (!winning) return;
      var tree = winning.queryPlan || winning; // SBE: queryPlan beside the slot plan
      f.stages = f.stages.concat(stageNames(tree, []));
      allOf(tree, 'indexName', f.indexes);
      allOf(tree, 'strategy', f.lookup); // EQ_LOOKUP's HashJoin, IndexedLoopJoin, NestedLoopJoin
    };
    if (Array.isArray(ex.stages)) {
      ex.stages.forEach(function (st) {
        var name = Object.keys(st).filter(function (k) {
          return k.charAt(0) === '$';
        })[0];
        if (name === '$cursor') {
          fromPlanner(st.$cursor.queryPlanner);
          fromStats(st.$cursor.executionStats);
          return;
        }
        if (name) f.stages.push(name);
        add('keys', st.totalKeysExamined);
        add('docs', st.totalDocsExamined);
        (st.indexesUsed || []).forEach(function (i) {
          if (f.indexes.indexOf(i) < 0) f.indexes.push(i);
        });
        if (name === '$lookup')
          f.lookup.push(
            'classic ' + ((st.indexesUsed || []).length ? 'indexed' : st.collectionScans ? 'scan' : 'loop') + ' $lookup'
          );
        if (typeof st.nReturned === 'number') f.returned = st.nReturned;
      });
    } else {
      fromPlanner(ex.queryPlanner || findKey(ex, 'queryPlanner'));
      fromStats(ex.executionStats || findKey(ex, 'executionStats'));
    }
    return f;
  }

  // Summarises any explain output (find, count, aggregate; classic or SBE; or a list of them, for
  // a variant of several queries) into what Compass's explain view shows: the access stage(s) of
  // the winning plan (`stage`) and the engine (explainVersion "1" classic, "2" SBE), and, from
  // executionStats: every stage top-down, the indexes used, keys and documents examined, documents
  // returned, the server's time and the $lookup strategy. Figures an explain does not give (the
  // queryPlanner verbosity) are left out.
  function plan(explain) {
    if (!explain) return null;
    if (isSummary(explain)) return explain;
    var list = [].concat(explain);
    var access = [];
    var versions = [];
    var f = { keys: null, docs: null, returned: null, ms: null, indexes: [], lookup: [], stages: [] };
    list.forEach(function (ex) {
      collectStages(findKey(ex, 'winningPlan'), []).forEach(function (st) {
        if (access.indexOf(st) < 0) access.push(st);
      });
      var v = String(findKey(ex, 'explainVersion') || '1');
      if (versions.indexOf(v) < 0) versions.push(v);
      var one = explainFigures(ex);
      ['keys', 'docs', 'ms'].forEach(function (k) {
        if (one[k] !== null) f[k] = (f[k] || 0) + one[k];
      });
      if (one.returned !== null) f.returned = one.returned; // the last query's: what the variant returns
      f.stages = f.stages.concat(list.length > 1 && f.stages.length ? ['|'] : [], one.stages);
      ['indexes', 'lookup'].forEach(function (k) {
        one[k].forEach(function (x) {
          if (f[k].indexOf(x) < 0) f[k].push(x);
        });
      });
    });
    var out = { stage: access.join('+') || '?', explainVersion: versions.join('+') };
    if (f.stages.length) out.stages = f.stages;
    if (f.indexes.length) out.indexes = f.indexes;
    if (f.keys !== null) out.keysExamined = f.keys;
    if (f.docs !== null) out.docsExamined = f.docs;
    if (f.returned !== null) out.nReturned = f.returned;
    if (f.ms !== null) out.serverMs = f.ms;
    if (f.lookup.length) out.lookup = f.lookup.join(', ');
    return out;
  }

  // A plan already summarised (a study's own explain may return one): a stage string, no explain's keys.
  function isSummary(x) {
    return (
      !Array.isArray(x) &&
      typeof x.stage === 'string' &&
      x.explainVersion !== undefined &&
      !x.queryPlanner &&
      !(
        Array.isArray(x.stages) &&
        x.stages.some(function (s) {
          return s && typeof s === 'object';
        })
      )
    );
  }

  // A plan in one table cell: "IXSCAN cust_1 · 55 keys, 55 docs -> 55", the $lookup strategy
  // first when there is one ("EQ_LOOKUP IndexedLoopJoin _id_ · 530 keys, 1,130 docs -> 5").
  function planCell(p) {
    if (!p) return '';
    var n = function (x) {
      return String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    };
    var head = p.lookup ? ((p.stages || []).indexOf('EQ_LOOKUP') >= 0 ? 'EQ_LOOKUP ' : '') + p.lookup : p.stage;
    var idx = p.indexes && p.indexes.length ? ' ' + p.indexes.join(',') : '';
    var figs = [];
    if (p.keysExamined !== undefined) figs.push(n(p.keysExamined) + ' keys');
    if (p.docsExamined !== undefined) figs.push(n(p.docsExamined) + ' docs');
    var ret = p.nReturned !== undefined ? ' -> ' + n(p.nReturned) : '';
    return head + idx + (figs.length || ret ? ' · ' + figs.join(', ') + ret : '');
  }

  return {
    FORMAT: FORMAT,
    FORMAT_VERSION: FORMAT_VERSION,
    NOT_HERE: NOT_HERE,
    SKIP: SKIP,
    WARN: WARN,
    skipText: P.skipText,
    isNotHere: isNotHere,
    isDate: isDate,
    same: same,
    SAME_TOLERANCE: SAME_TOLERANCE,
    isEmptyAnswer: isEmptyAnswer,
    brief: brief,
    resultRecord: resultRecord,
    timesRecord: timesRecord,
    skippedRecords: skippedRecords,
    measureRecord: measureRecord,
    warnings: warnings,
    warningOf: warningOf,
    warningsOf: warningsOf,
    busyMachine: busyMachine,
    isBusy: isBusy,
    busyText: busyText,
    BUSY: BUSY,
    plan: plan,
    planCell: planCell,
  };
})(
  typeof LabStats !== 'undefined' ? LabStats : require('./stats'),
  typeof LabPlan !== 'undefined' ? LabPlan : require('./plan')
);

if (typeof module !== 'undefined' && module.exports) module.exports = LabRecords;
