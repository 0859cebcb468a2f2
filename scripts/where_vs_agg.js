// $where versus plain, hybrid and aggregation queries (seed 001, "MongoDB is not a JavaScript
// database", 2016), re-run on today's server with today's alternatives ($expr, $function).
//
// The question: find documents where a > b && b < 5, a comparison between two fields of the same
// document, which the 2016 query language could only express with JavaScript ($where).
//
// Usage (from any directory):
//   mongosh random path/to/scripts/where_vs_agg.js
//   mongosh "mongodb://host:port/random" --eval 'var N = 100000, RUNS = 3' path/to/scripts/where_vs_agg.js
// Parameters (set with --eval before the file; all optional):
//   N          documents to generate when the collection is empty     (default 1000000, as the seed)
//   SEED       generator seed                                          (default 1)
//   COLL       collection name                                         (default 'mine', as the seed)
//   RUNS       timed runs per variant after one warm-up round          (default 5)
//   BUDGET_MS  a variant whose warm-up takes longer is timed once only (default 30000)
//   ONLY       comma-separated variants to run, e.g. 'where,expr-find' (default: all)
// An existing collection the lab did not generate is used as it is (it needs numeric a and b).

load(__dirname + '/lib/gen.js');
load(__dirname + '/lib/lab.js');

var P = {
  N: lab.param('N', 1000000, 'count'),
  SEED: lab.param('SEED', 1, 'count'),
  COLL: lab.param('COLL', 'mine', 'name'),
  RUNS: lab.param('RUNS', 5, 'count'),
  BUDGET_MS: lab.param('BUDGET_MS', 30000, 'number'),
  ONLY: lab.param('ONLY', '', 'names'),
};

// The predicate, written every way the server accepts it. The JavaScript bodies are constants:
// never build a $where or $function body from user input, it is code the server will run.
var WHERE_ALL = 'this.a > this.b && this.b < 5';
var WHERE_AB = 'this.a > this.b';
var B_LT_5 = { b: { $lt: 5 } };
var A_GT_B = { $gt: ['$a', '$b'] };

// The seed's aggregation, stage by stage: index-backed $match, flag with $cond, keep true, count.
var seedPipeline = [
  { $match: B_LT_5 },
  { $project: { r: '$$ROOT', k: { $cond: { if: A_GT_B, then: true, else: false } } } },
  { $match: { k: true } },
  { $group: { _id: 1, count: { $sum: 1 } } },
];

function countQuery(filter, hint) {
  var cmd = { count: P.COLL, query: filter };
  if (hint) cmd.hint = hint;
  return cmd;
}

function aggCount(pipeline) {
  var out = db.getCollection(P.COLL).aggregate(pipeline).toArray();
  return out.length ? out[0].count : 0;
}

var VARIANTS = [
  { name: 'plain', what: '{b: {$lt: 5}, $expr: a > b}, forced collection scan',
    cmd: countQuery({ b: { $lt: 5 }, $expr: A_GT_B }, { $natural: 1 }) },
  { name: 'where', what: "$where: '" + WHERE_ALL + "'",
    cmd: countQuery({ $where: WHERE_ALL }) },
  { name: 'hybrid', what: "{b: {$lt: 5}, $where: '" + WHERE_AB + "'}",
    cmd: countQuery({ b: { $lt: 5 }, $where: WHERE_AB }) },
  { name: 'seed-agg', what: 'aggregate $match, $project $cond, $match, $group',
    pipeline: seedPipeline },
  { name: 'expr-find', what: '{b: {$lt: 5}, $expr: {$gt: [$a, $b]}}',
    cmd: countQuery({ b: { $lt: 5 }, $expr: A_GT_B }) },
  { name: 'expr-agg', what: 'aggregate $match {b < 5, $expr}, $count',
    pipeline: [{ $match: { b: { $lt: 5 }, $expr: A_GT_B } }, { $count: 'count' }] },
  { name: 'function', what: '{b: {$lt: 5}, $expr: {$function: a > b}}',
    cmd: countQuery({ b: { $lt: 5 }, $expr: { $function: { body: 'function (a, b) { return a > b; }', args: ['$a', '$b'], lang: 'js' } } }) },
];

var only = lab.list(P.ONLY);
only.forEach(function (name) {
  if (!VARIANTS.some(function (v) { return v.name === name; })) {
    throw new Error('parameter ONLY: unknown variant ' + JSON.stringify(name) + ' (known: ' + VARIANTS.map(function (v) { return v.name; }).join(', ') + ')');
  }
});
var chosen = VARIANTS.filter(function (v) { return only.length === 0 || only.indexOf(v.name) >= 0; });

var info = lab.header('$where vs plain, hybrid and aggregation queries (seed 001)', db,
  'collection ' + db.getName() + '.' + P.COLL);
var fixture = lab.ensureFixture(db, P.COLL, { fixture: 'where-ab', n: P.N, seed: P.SEED }, LabGen.whereDoc);
// The hybrid, $expr and $function variants rely on this index; the seed created it the same way.
db.getCollection(P.COLL).createIndex({ b: 1 });
print('documents ' + lab.fmtInt(fixture.count) + ' | runs ' + P.RUNS + ' after 1 warm-up round, order alternating');
print('');

chosen.forEach(function (v) {
  v.run = v.cmd
    ? function () { return db.runCommand(v.cmd).n; }
    : function () { return aggCount(v.pipeline); };
  var ex = v.cmd
    ? db.runCommand({ explain: v.cmd, verbosity: 'queryPlanner' })
    : db.runCommand({ explain: { aggregate: P.COLL, pipeline: v.pipeline, cursor: {} }, verbosity: 'queryPlanner' });
  v.plan = lab.plan(ex);
});

var res = lab.compare(chosen, { runs: P.RUNS, budgetMs: P.BUDGET_MS });

var byName = {};
chosen.forEach(function (v) { byName[v.name] = v; });
lab.table([
  { key: 'variant', title: 'variant' },
  { key: 'count', title: 'count', right: true },
  { key: 'time', title: 'mean ± σ', right: true },
  { key: 'range', title: 'min..max', right: true },
  { key: 'runs', title: 'runs', right: true },
  { key: 'ratio', title: 'x fastest', right: true },
  { key: 'plan', title: 'plan' },
  { key: 'engine', title: 'explainVersion' },
  { key: 'what', title: 'query' },
], res.rows.map(function (r) {
  var v = byName[r.name];
  return {
    variant: r.name,
    count: lab.fmtInt(r.result),
    time: r.runs > 1 ? lab.fmtMs(r.mean) + ' ± ' + lab.fmtMs(r.sd) : lab.fmtMs(r.mean),
    range: lab.fmtMs(r.min) + '..' + lab.fmtMs(r.max),
    runs: r.runs + (r.capped ? '*' : ''),
    ratio: r.ratio.toFixed(r.ratio < 10 ? 2 : 0),
    plan: v.plan.stage,
    engine: v.plan.explainVersion + (v.plan.explainVersion === '2' ? ' (SBE)' : ' (classic)'),
    what: v.what,
  };
}));
if (res.rows.some(function (r) { return r.capped; })) {
  print('* warm-up exceeded BUDGET_MS (' + P.BUDGET_MS + '): timed by that single run');
}
var counts = res.rows.map(function (r) { return r.result; });
var agree = counts.every(function (c) { return c === counts[0]; });
print(agree ? 'all variants agree: ' + lab.fmtInt(counts[0]) + ' matching documents'
  : 'VARIANTS DISAGREE: ' + res.rows.map(function (r) { return r.name + '=' + r.result; }).join(', '));

lab.emit({ study: 'where', kind: 'server', version: info.version, storageEngine: info.storageEngine,
  queryFramework: info.queryFramework, cacheBytes: info.cacheBytes, db: db.getName(), coll: P.COLL,
  docs: fixture.count, generated: fixture.own, seed: P.SEED, runs: P.RUNS });
res.rows.forEach(function (r) {
  var v = byName[r.name];
  lab.emit({ study: 'where', kind: 'row', variant: r.name, count: r.result, runs: r.runs, capped: r.capped,
    mean: r.mean, sd: r.sd, median: r.median, min: r.min, max: r.max, times: r.times, ratio: r.ratio,
    plan: v.plan.stage, explainVersion: v.plan.explainVersion, docs: fixture.count });
});
