// Seed 000 ("Learning mongo", 2015), the in-database half of its table: statistics (sum, min,
// max, count, mean) of one sensor field over batches of 10^0 .. 10^K documents, computed by
//   mr                map/reduce with the functions in the command
//   mr-jsmode         the same with jsMode: true
//   mr-stored         map/reduce calling functions saved in system.js (the seed's "Map Reduce 2")
//   mr-stored-jsmode  the same with jsMode: true
//   group             aggregation $group ($sum, $min, $max)
//   accumulator       aggregation $group with a JavaScript $accumulator
//   function          aggregation with a per-document JavaScript $function, then $group
// and prints the seed's table: one row per batch size, one column per variant, documents per
// millisecond as mean and σ over RUNS runs (after a warm-up round, variants interleaved).
// The client-side variants (whole documents into a list, one field into accumulators, chunked,
// parallel) need a driver program: `mongo-perf-lab run mapreduce` runs them with these ones.
//
// A batch is the first n documents in natural order (`limit n`, as the seed measured it). The
// lab's importer inserts rows in file order, one batch at a time, so natural order is also _id
// order, which the chunked and parallel client variants walk: every variant reads the very same
// documents, and the tests check it against a plain Node computation over the generated rows.
// (Sorting on _id instead adds an index lookup per document: $group then takes ~1.7x longer
// while map/reduce, which converts every whole document to a JavaScript object, barely notices.)
//
// Usage (from any directory):
//   mongosh random path/to/scripts/mr_variants.js
//   mongosh "mongodb://host:port/random" --eval 'var K = 4, RUNS = 3' path/to/scripts/mr_variants.js
// Parameters (set with --eval before the file; all optional):
//   DB         database        (default: the one in the connection string; 'random', as the seed, if none)
//   COLL       collection      (default 'sensors')
//   FIELD      numeric field   (default 'engine_rpm')
//   K          batches 10^0 .. 10^K, capped at the collection's size (default 5)
//   SIZES      explicit batch sizes instead, e.g. '1000,50000'
//   RUNS       timed runs per variant and size after one warm-up round (default 10, as the seed)
//   BUDGET_MS  a variant whose warm-up takes longer is timed by that one run (default 60000)
//   ONLY       comma-separated variants, e.g. 'mr,group' (default: all)
//   N, SEED    documents to generate when the collection does not exist (default 10^K), seed 1

load(__dirname + '/lib/gen.js');
load(__dirname + '/lib/sensor-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/mr_functions.js');

var P = {
  DB: lab.param('DB', db.getName() === 'test' ? 'random' : db.getName(), 'name'),
  COLL: lab.param('COLL', 'sensors', 'name'),
  FIELD: lab.param('FIELD', 'engine_rpm', 'name'),
  K: lab.param('K', 5, 'count'),
  SIZES: lab.param('SIZES', '', 'names'),
  RUNS: lab.param('RUNS', 10, 'count'),
  BUDGET_MS: lab.param('BUDGET_MS', 60000, 'number'),
  ONLY: lab.param('ONLY', '', 'names'),
  SEED: lab.param('SEED', 1, 'count'),
};
P.N = lab.param('N', Math.pow(10, P.K), 'count');
var d = db.getSiblingDB(P.DB);
var coll = d.getCollection(P.COLL);
var F = '$' + P.FIELD; // an aggregation field path: data for the server, not JavaScript source

var info = lab.header('map/reduce, $group, $accumulator, $function: stats of one field (seed 000)', d,
  'collection ' + P.DB + '.' + P.COLL + ' | field ' + P.FIELD);
// Data already there (imported CSV files, or your own) is used as it is; an empty collection gets
// N generated rows, the same ones the CSV generator writes (fixtures/sensors.js).
var fixture = d.getCollection(P.COLL).estimatedDocumentCount() > 0
  ? { count: d.getCollection(P.COLL).estimatedDocumentCount(), own: false }
  : lab.ensureFixture(d, P.COLL, { fixture: 'sensors', n: P.N, seed: P.SEED }, SensorGen.doc);

var sizes = P.SIZES ? lab.list(P.SIZES).map(function (s) {
  var n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error('parameter SIZES: ' + JSON.stringify(s) + ' is not a whole number >= 1');
  return n;
}) : [];
if (!P.SIZES) {
  for (var k = 0; k <= P.K; k++) if (Math.pow(10, k) <= fixture.count) sizes.push(Math.pow(10, k));
}
if (!sizes.length) throw new Error(P.DB + '.' + P.COLL + ' holds ' + fixture.count + ' documents: no batch size to measure');

var EMPTY = { sum: 0, min: null, max: null, count: 0, mean: null };

// Every variant returns {sum, min, max, count, mean}; count is the number of documents that had
// a number in the field (blank sensor readings are missing fields).
function mrCommand(n, stored, jsMode) {
  var cmd = {
    mapReduce: P.COLL,
    map: stored ? mrStoredMap : mrStatsMap,
    reduce: stored ? mrStoredReduce : mrStatsReduce,
    finalize: stored ? mrStoredFinalize : mrStatsFinalize,
    out: { inline: 1 },
    scope: { field: P.FIELD },
    limit: n,
  };
  // jsMode asked the server (up to 4.2) to keep intermediate values as JavaScript objects instead
  // of BSON; since 4.4 map/reduce runs as an aggregation and the option is accepted and ignored.
  if (jsMode) cmd.jsMode = true;
  return cmd;
}

function runMr(cmd) {
  var reply = d.runCommand(cmd);
  if (!reply.ok) throw new Error('mapReduce failed: ' + reply.errmsg); // the legacy shell does not throw
  if (!reply.results.length) return EMPTY;
  var v = reply.results[0].value;
  return { sum: v.sum, min: v.min, max: v.max, count: v.count, mean: v.mean };
}

function groupStage(n) {
  return [{ $limit: n }];
}

var STATS_GROUP = { _id: 0, sum: { $sum: F }, min: { $min: F }, max: { $max: F }, count: { $sum: { $cond: [{ $isNumber: F }, 1, 0] } } };

function aggStats(pipeline) {
  var r = coll.aggregate(pipeline).toArray();
  if (!r.length) return EMPTY;
  var s = r[0].s || r[0];
  return { sum: s.sum, min: s.min, max: s.max, count: s.count, mean: s.count > 0 ? s.sum / s.count : null };
}

var VARIANTS = [
  { name: 'mr', what: 'mapReduce, functions in the command',
    cmd: function (n) { return mrCommand(n, false, false); } },
  { name: 'mr-jsmode', what: 'mapReduce, jsMode: true',
    cmd: function (n) { return mrCommand(n, false, true); } },
  { name: 'mr-stored', what: 'mapReduce calling system.js functions',
    cmd: function (n) { return mrCommand(n, true, false); } },
  { name: 'mr-stored-jsmode', what: 'mapReduce calling system.js functions, jsMode: true',
    cmd: function (n) { return mrCommand(n, true, true); } },
  { name: 'group', what: '$group with $sum, $min, $max',
    pipeline: function (n) { return groupStage(n).concat([{ $group: STATS_GROUP }]); } },
  { name: 'accumulator', what: '$group with a JavaScript $accumulator',
    pipeline: function (n) {
      return groupStage(n).concat([{ $group: { _id: 0, s: { $accumulator: {
        init: accStatsInit, accumulate: accStatsAccumulate, accumulateArgs: [F],
        merge: accStatsMerge, finalize: accStatsFinalize, lang: 'js' } } } }]);
    } },
  { name: 'function', what: '$project with a JavaScript $function per document, then $group',
    pipeline: function (n) {
      return groupStage(n).concat([{ $project: { v: { $function: { body: fnReading, args: [F], lang: 'js' } } } },
        { $group: { _id: 0, sum: { $sum: '$v' }, min: { $min: '$v' }, max: { $max: '$v' }, count: { $sum: { $cond: [{ $isNumber: '$v' }, 1, 0] } } } }]);
    } },
];

var only = lab.list(P.ONLY);
only.forEach(function (name) {
  if (!VARIANTS.some(function (v) { return v.name === name; })) {
    throw new Error('parameter ONLY: unknown variant ' + JSON.stringify(name) + ' (known: ' + VARIANTS.map(function (v) { return v.name; }).join(', ') + ')');
  }
});
var chosen = VARIANTS.filter(function (v) { return only.length === 0 || only.indexOf(v.name) >= 0; });
if (chosen.some(function (v) { return v.name.indexOf('mr-stored') === 0; })) {
  var written = saveStatsFunctions(d);
  if (written.length) print('saved in ' + P.DB + '.system.js: ' + written.join(', ') + ' (see mr_store_functions.js)');
}

print('documents ' + lab.fmtInt(fixture.count) + ' | batches ' + sizes.map(lab.fmtInt).join(', ') +
  ' | runs ' + P.RUNS + ' per variant and batch after 1 warm-up round, order alternating');

function explainOf(v, n) {
  var ex = v.cmd
    ? d.runCommand({ explain: v.cmd(n), verbosity: 'queryPlanner' })
    : d.runCommand({ explain: { aggregate: P.COLL, pipeline: v.pipeline(n), cursor: {} }, verbosity: 'queryPlanner' });
  return lab.plan(ex);
}

function close(a, b) { return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)); }
function sameStats(a, b) { return a.count === b.count && a.min === b.min && a.max === b.max && close(a.sum, b.sum); }

var results = []; // one entry per size: { n, rows }
var disagreements = [];
sizes.forEach(function (n) {
  var runners = chosen.map(function (v) {
    var cmd = v.cmd ? v.cmd(n) : null;
    var pipeline = v.pipeline ? v.pipeline(n) : null;
    return { name: v.name, plan: explainOf(v, n),
      run: cmd ? function () { return runMr(cmd); } : function () { return aggStats(pipeline); } };
  });
  var res = lab.compare(runners, { runs: P.RUNS, budgetMs: P.BUDGET_MS });
  res.rows.forEach(function (r, i) {
    r.plan = runners[i].plan;
    var rates = r.times.map(function (t) { return n / t; });
    r.rate = lab.summarize(rates);
    if (!sameStats(r.result, res.rows[0].result)) disagreements.push(n + ': ' + r.name + ' ' + JSON.stringify(r.result) + ' vs ' + res.rows[0].name + ' ' + JSON.stringify(res.rows[0].result));
  });
  results.push({ n: n, rows: res.rows });
  if (sizes.length > 1) print('  batch ' + lab.fmtInt(n) + ' done');
});

// The seed's table: documents per millisecond, mean and σ over the runs (higher is better).
function fmtRate(x) { return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2); }
print('');
print('documents per millisecond, mean σ=sd over the runs (higher is better)');
lab.table([{ key: 'n', title: 'batch', right: true }].concat(chosen.map(function (v) { return { key: v.name, title: v.name, right: true }; })),
  results.map(function (s) {
    var row = { n: lab.fmtInt(s.n) };
    s.rows.forEach(function (r) { row[r.name] = fmtRate(r.rate.mean) + ' σ=' + fmtRate(r.rate.sd) + (r.capped ? '*' : ''); });
    return row;
  }));
if (P.RUNS > 0 && results.some(function (s) { return s.rows.some(function (r) { return r.capped; }); })) {
  print('* warm-up exceeded BUDGET_MS (' + P.BUDGET_MS + '): timed by that single run');
}
print('');
print('query engine per variant (explainVersion 1 = classic, 2 = slot-based):');
chosen.forEach(function (v) {
  var last = results[results.length - 1].rows.filter(function (r) { return r.name === v.name; })[0];
  print('  ' + v.name + ': ' + last.plan.stage + ', explainVersion ' + last.plan.explainVersion + ' | ' + v.what);
});

// jsMode: the seed measured 2-3x from it on 2.4. Per-round time ratio mr-jsmode / mr, median.
function roundRatio(s, a, b) {
  var ra = s.rows.filter(function (r) { return r.name === a; })[0];
  var rb = s.rows.filter(function (r) { return r.name === b; })[0];
  if (!ra || !rb || ra.capped || rb.capped) return null;
  return lab.median(ra.times.map(function (t, i) { return t / rb.times[i]; }));
}
var jsPairs = [['mr-jsmode', 'mr'], ['mr-stored-jsmode', 'mr-stored']];
var jsRatios = [];
results.forEach(function (s) {
  jsPairs.forEach(function (p) {
    var x = roundRatio(s, p[0], p[1]);
    if (x !== null && s.n >= 1000) jsRatios.push(x);
  });
});
var major = info.version.split('.').map(Number);
var ignores = major[0] > 4 || (major[0] === 4 && major[1] >= 4);
if (jsRatios.length) {
  var lo = Math.min.apply(null, jsRatios);
  var hi = Math.max.apply(null, jsRatios);
  print('');
  print('jsMode: time with / time without, median per batch of 1,000 or more: ' + lo.toFixed(2) + '..' + hi.toFixed(2) +
    (ignores ? (lo >= 0.8 && hi <= 1.25
      ? ' -> no effect beyond noise: MongoDB ' + info.version + ' ignores jsMode (since 4.4 map/reduce runs as an aggregation)'
      : ' -> differences are noise: MongoDB ' + info.version + ' ignores jsMode (since 4.4); rerun with more RUNS')
      : ' (this server is older than 4.4 and still honours jsMode)'));
}
print(disagreements.length ? 'VARIANTS DISAGREE:\n  ' + disagreements.join('\n  ') : 'all variants agree at every batch size');

lab.emit({ study: 'mapreduce', kind: 'server', script: 'mr_variants', version: info.version, storageEngine: info.storageEngine,
  queryFramework: info.queryFramework, cacheBytes: info.cacheBytes, db: P.DB, coll: P.COLL, field: P.FIELD,
  docs: fixture.count, generated: fixture.own, runs: P.RUNS, sizes: sizes, jsModeIgnored: ignores, jsModeRatios: jsRatios });
results.forEach(function (s) {
  s.rows.forEach(function (r) {
    lab.emit({ study: 'mapreduce', kind: 'row', variant: r.name, batch: s.n, docs: s.n, runs: r.runs, capped: r.capped,
      mean: r.mean, sd: r.sd, median: r.median, min: r.min, max: r.max, times: r.times, ratio: r.ratio,
      docsPerMs: r.rate.mean, docsPerMsSd: r.rate.sd, stats: r.result,
      plan: r.plan.stage, explainVersion: r.plan.explainVersion, where: 'server' });
  });
});
