// The MOT "banding" aggregation (source 001, second half: John Page, "How Wired Tiger opens up the
// option of MongoDB for Big Data Analytics", 2015; code github johnlpage/BigAggBlog), re-run on
// today's server: the source's pipeline exactly as published, and today's rewrites of it.
//
// The question: band each vehicle test by engine capacity (1..7), x1.5 for diesel, then count the
// tests and sum their mileage per band. No index, no pre-aggregation: every document is read.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/bigagg.js
//   mongosh "mongodb://host:port/vosa" --eval 'var COLL = "mot_results"' path/to/scripts/bigagg.js
// Parameters (set with --eval before the file; all optional):
//   N          records to generate when the lab creates the collection  (default 200000; the source had 580,650,946)
//   SEED       generator seed                                             (default 1)
//   COLL       collection (default 'mot'); an existing collection the lab did not generate is used as
//              it is: it needs the source's fields e (engine cc), f (fuel) and m (mileage). Every form
//              gives the source's answer on any values: `e` compared in BSON order (missing/null below
//              every number: band 1; text and other types above: band 7; fractions, Long and
//              Decimal128 by value; the run counts the documents without a numeric e), non-numeric
//              `m` ignored by $sum
//   RUNS       timed rounds after WARMUP warm-up rounds (default 3, 1); only the first variant
//              warms up (they all scan the same collection)
//   BUDGET_MS  a variant whose first run takes longer is timed by that run only (default 60000)
//   VARIANTS   comma-separated forms to run, e.g. 'seed,group' (default: all)
//   LAB_LINES  true prints the machine-readable @@LAB lines
// The generator makes ~150-byte records; the shell inserts ~20-50k a second. For millions, let the
// Node runner load them (`mongo-perf-lab run bigagg --docs 10000000`): it also runs the parts the
// shell cannot (block compressors, cache sizes, k concurrent ranges; see docs/studies/bigagg.md).
//
// The source's pipeline reads the engine capacity as `$e`, and it is kept so here. Its published
// loader (fastload.c) stored that column under `d` (a second `d`): on data loaded by it every
// vehicle falls in band 1. Our generator names it `e`.

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/../fixtures/mot-gen.js');
load(__dirname + '/bigagg_pipelines.js');
load(__dirname + '/lib/lab.js');

// Bands as plain numbers, whatever the server returned (int32, double, Long, Decimal128 sums), sorted.
function bigaggRows(rows) {
  var num = function (x) {
    return x && x._bsontype === 'Decimal128' ? parseFloat(x.toString()) : lab.num(x);
  };
  return rows
    .map(function (r) {
      return { _id: num(r._id), count: num(r.count), miles: num(r.miles) };
    })
    .sort(function (a, b) {
      return a._id - b._id;
    });
}

// The collection of an axis point: the Node runner's points name a block compressor, whose
// collection is <COLL>_<compressor>; the drop-in's single point uses COLL itself.
function bigaggColl(p, point) {
  return point && point.compressor ? p.COLL + '_' + point.compressor : p.COLL;
}

function bigaggForm(name, minVersion) {
  var form = LabBands.FORMS[name];
  return {
    name: name,
    what: form.what,
    minVersion: minVersion,
    // Node's points name the part they measure; the forms run where a part wants them: the
    // compression part times the source's pipeline per compressor, except at a point timedIn
    // 'forms', whose collection the forms point times already (only its sizes are measured there).
    able: function (p, point) {
      return (
        !point ||
        !point.part ||
        point.part === 'forms' ||
        (point.part === 'compression' && !point.timedIn && name === 'seed')
      );
    },
    run: function (p, point) {
      return bigaggRows(
        db.getCollection(bigaggColl(p, point)).aggregate(form.pipeline(), { allowDiskUse: true }).toArray()
      );
    },
    explain: function (p, point) {
      return db.runCommand({
        explain: { aggregate: bigaggColl(p, point), pipeline: form.pipeline(), cursor: {} },
        verbosity: 'queryPlanner',
      });
    },
  };
}

var STUDY = {
  name: 'bigagg',
  title: "MOT banding aggregation: the source's nested $cond and today's forms; compression, cache size, parallelism",
  source: {
    id: '001',
    author: 'John Page',
    title: 'How Wired Tiger opens up the option of MongoDB for Big Data Analytics',
    year: 2015,
    url: 'https://github.com/johnlpage/BigAggBlog',
  },
  params: {
    N: { kind: 'count', def: 200000, what: 'records to generate when the lab creates the collection' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'mot', what: 'collection (Node: prefix of <COLL>_<compressor>)' },
    COMPRESSORS: { kind: 'names', def: 'none,snappy,zlib,zstd', what: 'block compressors compared (Node runner)' },
    PARTS: { kind: 'names', def: 'forms,compression,cold,cache,split,concurrent', what: 'parts to run (Node runner)' },
    COLD_COMPRESSORS: {
      kind: 'names',
      def: '',
      what: 'block compressors of the cold part, each a restart per run (Node runner; default: COMPRESSORS)',
    },
    RUNS: { kind: 'count', def: 3, what: 'timed rounds per axis point after the warm-up' },
    BUDGET_MS: {
      kind: 'number',
      def: 60000,
      what: 'a variant whose warm-up run takes longer is timed by that run only',
    },
  },
  fixture: function (p) {
    return { coll: p.COLL, name: 'mot', n: p.N, seed: p.SEED, doc: LabMot.doc };
  },
  // A user's collection may hold capacities the generator never makes: every form bands them as
  // the source's `$gt` does (BSON order), and the run says how many there are, so nobody reads band
  // 1 or 7 as engine sizes they are not.
  setup: function (p) {
    var odd = db.getCollection(p.COLL).countDocuments({ e: { $not: { $type: 'number' } } });
    if (odd > 0) {
      print(
        'note: ' +
          odd +
          ' document(s) in ' +
          p.COLL +
          " have no numeric e: banded as the source's $gt orders them " +
          '(missing or null: band 1; text, dates and other types: band 7)'
      );
    }
  },
  axes: function () {
    return [{}];
  },
  baseline: 'seed',
  // Every variant of a point scans the same collection: the first one's warm-up run fills the cache
  // for all of them (at 10M records each warm-up is a ~40 s scan that would warm nothing new).
  warmOnce: true,
  unit: 'ms',
  variants: [
    bigaggForm('seed', '2.2'),
    bigaggForm('switch', '3.4'),
    bigaggForm('group', '2.2'),
    bigaggForm('bucket', '3.4'),
    bigaggForm('pairs', '2.2'),
  ],
  same: function (a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  },
};

lab.main(STUDY);
