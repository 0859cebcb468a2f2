// Shared helpers for the lab's shell scripts: parameters, timing, tables, machine-readable lines,
// server header, explain summaries and self-generated fixtures.
// Load it from any directory with:  load(__dirname + '/lib/lab.js')
// (load() resolves relative paths against the current directory, __dirname against the script.)
// Plain ES2017 so it reads like the scripts it serves.

var lab = (function () {
  var PREFIX = '@@LAB ';

  // ---- parameters ---------------------------------------------------------------------------
  // A script's parameters are globals set before it runs, e.g.
  //   mongosh random --eval 'var N = 100000, RUNS = 3' scripts/where_vs_agg.js
  // They are validated here and only ever used as values, never pasted into JavaScript source.
  var KINDS = {
    count: { test: function (v) { return typeof v === 'number' && Number.isInteger(v) && v >= 0; }, what: 'a whole number >= 0' },
    positive: { test: function (v) { return typeof v === 'number' && Number.isInteger(v) && v >= 1; }, what: 'a whole number >= 1' },
    number: { test: function (v) { return typeof v === 'number' && isFinite(v); }, what: 'a finite number' },
    name: { test: function (v) { return typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_.-]{0,100}$/.test(v) && v.indexOf('system.') !== 0; }, what: 'a collection or field name ([A-Za-z0-9_.-], not system.*)' },
    names: { test: function (v) { return typeof v === 'string' && /^[A-Za-z0-9_,.-]*$/.test(v); }, what: 'a comma-separated list of names' },
    bool: { test: function (v) { return typeof v === 'boolean'; }, what: 'true or false' },
  };

  function param(name, def, kind) {
    var v = typeof globalThis[name] === 'undefined' ? def : globalThis[name];
    var k = KINDS[kind];
    if (!k) throw new Error('lab.param: unknown kind ' + kind);
    if (!k.test(v)) {
      throw new Error('parameter ' + name + ': expected ' + k.what + ', got ' + JSON.stringify(v) + ' (' + typeof v + ')');
    }
    return v;
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

  function median(xs) {
    var s = xs.slice().sort(function (a, b) { return a - b; });
    var m = Math.floor(s.length / 2);
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  }

  // mean ± σ (sample), median, min..max; with docs, also documents per millisecond (by median).
  function summarize(times, docs) {
    var n = times.length;
    var mean = times.reduce(function (a, b) { return a + b; }, 0) / n;
    var variance = n > 1 ? times.reduce(function (a, t) { return a + (t - mean) * (t - mean); }, 0) / (n - 1) : 0;
    return {
      runs: n,
      mean: mean,
      sd: Math.sqrt(variance),
      median: median(times),
      min: Math.min.apply(null, times),
      max: Math.max.apply(null, times),
      docsPerMs: docs ? docs / median(times) : undefined,
    };
  }

  // Times fn: `warmup` untimed calls (first-touch costs: cache, plan cache, JS engine start),
  // then `runs` timed ones. Returns summarize(times, docs) plus the last result.
  function measure(fn, opts) {
    var o = opts || {};
    var runs = o.runs === undefined ? 5 : o.runs;
    var warmup = o.warmup === undefined ? 1 : o.warmup;
    var result;
    for (var w = 0; w < warmup; w++) result = fn();
    var times = [];
    for (var r = 0; r < Math.max(1, runs); r++) {
      var t0 = now();
      result = fn();
      times.push(now() - t0);
    }
    var st = summarize(times, o.docs);
    st.times = times;
    st.result = result;
    return st;
  }

  // Runs every variant round-robin (after one warm-up round), alternating the order each round so
  // that neither variant always runs first or with a warmer cache: A B C, C B A, A B C ...
  // A variant whose warm-up took longer than budgetMs is measured by that one run only (marked
  // capped), so a 100 s $where does not turn a 1 s comparison into a 10 minute one.
  // Ratios are per round (t_variant / t_fastest in the same round), then the median of those.
  function compare(variants, opts) {
    var runs = opts.runs;
    var budgetMs = opts.budgetMs || Infinity;
    var state = variants.map(function (v) { return { v: v, times: [], result: undefined, capped: false }; });
    state.forEach(function (s) {
      var t0 = now();
      s.result = s.v.run();
      var dt = now() - t0;
      if (dt > budgetMs || runs === 0) { s.times.push(dt); s.capped = true; }
    });
    for (var r = 0; r < runs; r++) {
      var order = r % 2 === 0 ? state : state.slice().reverse();
      order.forEach(function (s) {
        if (s.capped) return;
        var t0 = now();
        s.v.run();
        s.times.push(now() - t0);
      });
    }
    var rows = state.map(function (s) {
      var st = summarize(s.times);
      st.name = s.v.name;
      st.times = s.times;
      st.result = s.result;
      st.capped = s.capped;
      return st;
    });
    var timed = rows.filter(function (x) { return !x.capped; });
    var fastest = (timed.length ? timed : rows).reduce(function (a, b) { return b.median < a.median ? b : a; });
    rows.forEach(function (x) {
      if (x.capped || fastest.capped) {
        x.ratio = x.median / fastest.median;
      } else {
        var per = x.times.map(function (t, i) { return t / fastest.times[i]; });
        x.ratio = median(per);
      }
    });
    return { rows: rows, fastest: fastest.name };
  }

  // ---- output -------------------------------------------------------------------------------
  function fmtMs(ms) {
    if (ms >= 10000) return (ms / 1000).toFixed(1) + ' s';
    if (ms >= 1000) return (ms / 1000).toFixed(2) + ' s';
    if (ms >= 100) return ms.toFixed(0) + ' ms';
    if (ms >= 10) return ms.toFixed(1) + ' ms';
    return ms.toFixed(2) + ' ms';
  }

  function fmtInt(n) {
    return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  // columns: [{ key, title, right }]; rows: objects holding already formatted strings.
  function table(columns, rows) {
    var widths = columns.map(function (c) {
      return rows.reduce(function (w, r) { return Math.max(w, String(r[c.key]).length); }, c.title.length);
    });
    function line(cells) {
      return cells.map(function (cell, i) {
        var s = String(cell);
        var pad = new Array(widths[i] - s.length + 1).join(' ');
        return columns[i].right ? pad + s : s + pad;
      }).join('  ').replace(/\s+$/, '');
    }
    print(line(columns.map(function (c) { return c.title; })));
    print(line(widths.map(function (w) { return new Array(w + 1).join('-'); })));
    rows.forEach(function (r) { print(line(columns.map(function (c) { return r[c.key]; }))); });
  }

  // One machine-readable line per result: grep '^@@LAB ' and parse the rest as Extended JSON.
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
    var cache = status.wiredTiger ? status.wiredTiger.cache['maximum bytes configured'] : null;
    return {
      version: build.version,
      storageEngine: status.storageEngine ? status.storageEngine.name : 'unknown',
      queryFramework: framework,
      cacheBytes: cache,
      host: status.host,
    };
  }

  function header(title, dbh, extra) {
    var info = serverInfo(dbh);
    print('== ' + title + ' ==');
    print('server ' + info.version + ' | storage ' + info.storageEngine +
      ' | query framework ' + (info.queryFramework || 'classic') +
      (info.cacheBytes ? ' | WiredTiger cache ' + (info.cacheBytes / 1073741824).toFixed(2) + ' GB' : '') +
      (extra ? ' | ' + extra : ''));
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
    var winning = findKey(explain, 'winningPlan');
    var stages = collectStages(winning, []);
    return { stage: stages.join('+') || '?', explainVersion: String(findKey(explain, 'explainVersion') || '1') };
  }

  // ---- fixtures -----------------------------------------------------------------------------
  // Data the lab generated is marked in <db>.perflab_fixtures so a re-run reuses it, a change of
  // size or seed regenerates it, and a collection the lab did not make is used as it is.
  function ensureFixture(dbh, collName, spec, makeDoc) {
    var coll = dbh.getCollection(collName);
    var meta = dbh.getCollection('perflab_fixtures').findOne({ _id: collName });
    var count = coll.estimatedDocumentCount();
    if (meta && meta.complete && meta.fixture === spec.fixture && meta.n === spec.n && meta.seed === spec.seed) {
      return { generated: false, count: count, own: true };
    }
    if (!meta && count > 0) {
      print('note: ' + dbh.getName() + '.' + collName + ' exists and was not generated by the lab: using its ' + fmtInt(count) + ' documents as they are');
      return { generated: false, count: count, own: false };
    }
    coll.drop();
    dbh.getCollection('perflab_fixtures').replaceOne({ _id: collName },
      { _id: collName, fixture: spec.fixture, n: spec.n, seed: spec.seed, complete: false }, { upsert: true });
    var next = LabGen.rng(spec.seed);
    var batch = [];
    var t0 = now();
    var step = Math.max(1, Math.floor(spec.n / 10));
    for (var i = 0; i < spec.n; i++) {
      batch.push(makeDoc(next, i));
      if (batch.length === 10000 || i === spec.n - 1) {
        coll.insertMany(batch, { ordered: false });
        batch = [];
      }
      if ((i + 1) % step === 0 && spec.n >= 100000) print('  generated ' + fmtInt(i + 1) + ' / ' + fmtInt(spec.n));
    }
    dbh.getCollection('perflab_fixtures').updateOne({ _id: collName }, { $set: { complete: true } });
    print('generated ' + fmtInt(spec.n) + ' documents in ' + fmtMs(now() - t0) + ' (seed ' + spec.seed + ')');
    return { generated: true, count: spec.n, own: true };
  }

  return {
    PREFIX: PREFIX,
    param: param,
    list: list,
    now: now,
    median: median,
    summarize: summarize,
    measure: measure,
    compare: compare,
    fmtMs: fmtMs,
    fmtInt: fmtInt,
    table: table,
    emit: emit,
    serverInfo: serverInfo,
    header: header,
    plan: plan,
    ensureFixture: ensureFixture,
  };
})();

// The pure helpers (median, summarize, fmtMs ...) are shared with the Node layer.
if (typeof module !== 'undefined' && module.exports) module.exports = lab;
