// Time series (seed 003) with today's designs: the same questions answered by the seed's raw
// events, a $dateTrunc key, per-minute buckets, a time-series collection and $merge-kept rollups.
// Builds the designs that are missing from the events, then prints one table per grain comparing
// them: time per interval (interleaved runs), engine, plan, storage per design, and whether every
// design returned the same rows.
//
// Usage (from any directory):
//   mongosh random path/to/scripts/ts_designs.js
//   mongosh random --eval 'var RUNS = 5, GRAINS = "minutes,days"' path/to/scripts/ts_designs.js
// Parameters (globals set with --eval before the file; all optional):
//   COLL, N, SEED  events collection and, when it is empty, what to generate (see ts_base.js)
//   VARIANTS       designs to compare, comma-separated, or 'all'           (default 'all')
//   GRAINS         seconds, minutes, hours, days (the year by day)         (default all four)
//   RUNS           timed rounds after one warm-up round, order alternating (default 3)
//   REBUILD        rebuild the designs even when they exist               (default false)
//   BUILD_ONLY     build the designs and stop                              (default false)
//   EMIT_GROUPS    one @@LAB line per group and design, for the tests      (default false)

load(__dirname + '/ts_base.js');

var D = {
  COLL: lab.param('COLL', 'randomData', 'name'),
  N: lab.param('N', 1000000, 'count'),
  SEED: lab.param('SEED', 1, 'count'),
  VARIANTS: lab.param('VARIANTS', 'all', 'names'),
  GRAINS: lab.param('GRAINS', 'seconds,minutes,hours,days', 'names'),
  RUNS: lab.param('RUNS', 3, 'count'),
  REBUILD: lab.param('REBUILD', false, 'bool'),
  BUILD_ONLY: lab.param('BUILD_ONLY', false, 'bool'),
  EMIT_GROUPS: lab.param('EMIT_GROUPS', false, 'bool'),
};
var designVariants = D.VARIANTS === 'all' ? TS.VARIANTS.slice() : lab.list(D.VARIANTS);
var designGrains = lab.list(D.GRAINS);
designVariants.forEach(function (v) {
  if (TS.VARIANTS.indexOf(v) < 0) throw new Error('parameter VARIANTS: unknown design ' + JSON.stringify(v));
});
designGrains.forEach(function (g) {
  if (!TS.GRAINS[g]) throw new Error('parameter GRAINS: unknown grain ' + JSON.stringify(g) + ' (known: seconds, minutes, hours, days)');
});
if (designVariants.indexOf('raw') < 0) designVariants.unshift('raw');

var designInfo = lab.header('Time series designs compared (seed 003)', db, 'collection ' + db.getName() + '.' + D.COLL);
var designFixture = TS.ensureEvents(db, D.COLL, D.N, D.SEED);
print('events ' + lab.fmtInt(designFixture.count));
TS.emitServer(designInfo, D, designFixture, { table: 'designs' });

// ---- build what is missing ---------------------------------------------------------------------
var builders = {
  bucket: function () { db.getCollection(TS.names(D.COLL).bucket).drop(); TS.buildBuckets(db, D.COLL); },
  timeseries: function () { TS.buildTimeseries(db, D.COLL); },
  rollup: function () {
    db.getCollection(TS.names(D.COLL).rollupMinute).drop();
    db.getCollection(TS.names(D.COLL).rollupHour).drop();
    TS.refreshRollups(db, D.COLL);
  },
};
designVariants.forEach(function (v) {
  if (!builders[v] || (!D.REBUILD && TS.available(db, D.COLL, v))) return;
  var t0 = lab.now();
  builders[v]();
  var ms = lab.now() - t0;
  print('built ' + v + ' in ' + lab.fmtMs(ms));
  lab.emit({ study: 'timeseries', kind: 'build', variant: v, ms: ms, events: designFixture.count });
});

var sizes = {};
designVariants.forEach(function (v) { sizes[v] = TS.storage(db, D.COLL, v); });
print('');
lab.table([
  { key: 'v', title: 'design' },
  { key: 'colls', title: 'collections' },
  { key: 'docs', title: 'documents', right: true },
  { key: 'data', title: 'data (uncompressed)', right: true },
  { key: 'storage', title: 'storage', right: true },
  { key: 'index', title: 'indexes', right: true },
  { key: 'total', title: 'total on disk', right: true },
], designVariants.map(function (v) {
  var s = sizes[v];
  return { v: v, colls: s.colls.join(', '), docs: lab.fmtInt(s.docs), data: TS.fmtBytes(s.dataSize), storage: TS.fmtBytes(s.storageSize),
    index: TS.fmtBytes(s.indexSize), total: TS.fmtBytes(s.totalSize) };
}));
designVariants.forEach(function (v) {
  lab.emit(Object.assign({ study: 'timeseries', kind: 'row', table: 'storage', variant: v }, sizes[v]));
});

// ---- one table per grain -------------------------------------------------------------------------
function answer(v, grain) {
  if (!grain.width) {
    var r = TS.aggregate(db, v, D.COLL, TS.YEAR_FROM, TS.YEAR_TO, grain, {});
    return r ? [{ label: 'year', rows: r.rows }] : null;
  }
  var res = TS.runStartTimes(db, v, D.COLL, grain, {});
  return res ? res.runs.map(function (x) { return { label: x.label, rows: x.rows }; }) : null;
}

function planOf(v, grain) {
  var iv = grain.width ? TS.calibrate(TS.START_TIMES[0], grain.width) : { from: TS.YEAR_FROM, to: TS.YEAR_TO };
  var q = TS.query(v, D.COLL, iv.from, iv.to, grain);
  return lab.plan(db.getCollection(q.coll).explain('queryPlanner').aggregate(q.pipeline));
}

if (!D.BUILD_ONLY) {
  designGrains.forEach(function (g) {
    var grain = TS.GRAINS[g];
    var intervals = grain.width ? TS.START_TIMES.length : 1;
    var able = designVariants.filter(function (v) { return TS.query(v, D.COLL, TS.YEAR_FROM, TS.YEAR_TO, grain) !== null; });
    var res = lab.compare(able.map(function (v) {
      return { name: v, run: function () { return answer(v, grain); } };
    }), { runs: D.RUNS });
    var byName = {};
    res.rows.forEach(function (r) { byName[r.name] = r; });
    var raw = byName.raw;
    var rows = able.map(function (v) {
      var r = byName[v];
      var per = r.times.map(function (t, i) { return t / raw.times[i]; });
      var agree = r.result.every(function (x, i) { return TS.sameRows(x.rows, raw.result[i].rows); });
      return { v: v, r: r, ratio: lab.median(per), agree: agree, plan: planOf(v, grain) };
    });
    print('');
    print(grain.title + (grain.width ? ' (T1..T5, time per interval)' : ' (one aggregation of the whole year)') +
      ' | ' + D.RUNS + ' rounds after a warm-up, order alternating');
    lab.table([
      { key: 'v', title: 'design' },
      { key: 'median', title: 'median', right: true },
      { key: 'range', title: 'min..max', right: true },
      { key: 'ratio', title: 'x raw', right: true },
      { key: 'engine', title: 'explainVersion' },
      { key: 'plan', title: 'plan' },
      { key: 'size', title: 'total on disk', right: true },
      { key: 'agree', title: 'same rows as raw' },
    ], rows.map(function (x) {
      return { v: x.v, median: lab.fmtMs(x.r.median / intervals), range: lab.fmtMs(x.r.min / intervals) + '..' + lab.fmtMs(x.r.max / intervals),
        ratio: x.ratio >= 10 ? x.ratio.toFixed(0) : x.ratio >= 0.1 ? x.ratio.toFixed(2) : x.ratio.toPrecision(2), engine: x.plan.explainVersion + (x.plan.explainVersion === '2' ? ' (SBE)' : ' (classic)'),
        plan: x.plan.stage, size: TS.fmtBytes(sizes[x.v].totalSize), agree: x.agree ? 'yes' : 'NO' };
    }));
    var skipped = designVariants.filter(function (v) { return able.indexOf(v) < 0; });
    if (skipped.length) print('(' + skipped.join(', ') + ': cannot answer ' + grain.title + ')');
    rows.forEach(function (x) {
      lab.emit({ study: 'timeseries', kind: 'row', table: 'designs', grain: g, variant: x.v, intervals: intervals,
        median: x.r.median / intervals, mean: x.r.mean / intervals, min: x.r.min / intervals, max: x.r.max / intervals,
        times: x.r.times, ratioToRaw: x.ratio, agree: x.agree, stage: x.plan.stage, explainVersion: x.plan.explainVersion,
        totalSize: sizes[x.v].totalSize, storageSize: sizes[x.v].storageSize, indexSize: sizes[x.v].indexSize });
      if (D.EMIT_GROUPS) x.r.result.forEach(function (iv) { TS.emitGroups('designs', g, x.v, iv.label, iv.rows); });
    });
  });
}
