// $where versus plain, hybrid and aggregation queries (source 001, John Page, "MongoDB is not a
// Javascript Database", 2016), re-run on today's server with today's alternatives ($expr, $function).
//
// The question: count documents where a > b && b < 5, a comparison between two fields of the same
// document, which the 2016 query language could only express with JavaScript ($where).
//
// Usage (from any directory):
//   mongosh random path/to/scripts/where_vs_agg.js
//   mongosh "mongodb://host:port/random" --eval 'var N = 100000, RUNS = 3' path/to/scripts/where_vs_agg.js
// Parameters (set with --eval before the file; all optional):
//   N          documents to generate when the lab creates the collection  (default 1000000, as the source)
//   SEED       generator seed                                               (default 1)
//   COLL       collection name                                              (default 'mine', as the source)
//   RUNS       timed rounds after WARMUP warm-up rounds (default 5, 1)
//   BUDGET_MS  a variant whose warm-up run takes longer is timed by that run only (default 30000)
//   VARIANTS   comma-separated variants to run, e.g. 'where,expr-find' (default: all)
//   LAB_LINES  true prints the machine-readable @@LAB lines
//   GENERATE   true lets it generate into a COLL you named that does not exist (a typo is refused)
// An existing collection the lab did not generate is read as it is (it needs numeric a and b), never
// filled, dropped or indexed: without an index on b the indexed variants scan.
// $where at the source's 1,000,000 documents takes about two minutes on its own.

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/lib/lab.js');

// The source's writer: its 2016 shell stored every number as a BSON double, _id included (40 B a
// document). mongosh stores an integral number as an int32 (36 B), so each value is wrapped in a
// Double; the legacy shells (Robo 3T's 4.2) have no Double and write numbers as doubles already. The
// same bytes as the Node loader's (fixtures/where-ab.js docs); the marker's name says which writer
// made the data, so the lab's earlier int32 documents ('where-ab') are regenerated, never reused.
/* global Double */ // mongosh's; absent from the legacy shells (checked with typeof)
var WHERE_FIXTURE = 'where-ab-doubles';
var whereDouble =
  typeof Double === 'function'
    ? function (x) {
        return Double(x);
      }
    : function (x) {
        return x;
      };

function whereDoubleDoc(next, i) {
  var d = LabGen.whereDoc(next, i);
  return { _id: whereDouble(d._id), a: whereDouble(d.a), b: whereDouble(d.b) };
}

// The predicate, written every way the server accepts it. The JavaScript bodies are constants:
// never build a $where or $function body from user input, it is code the server will run.
var WHERE_ALL = 'this.a > this.b && this.b < 5';
var WHERE_AB = 'this.a > this.b';
var A_GT_B = { $gt: ['$a', '$b'] };

// The source's aggregation, stage by stage: index-backed $match, flag with $cond, keep true, count.
var WHERE_SOURCE_PIPELINE = [
  { $match: { b: { $lt: 5 } } },
  { $project: { r: '$$ROOT', k: { $cond: { if: A_GT_B, then: true, else: false } } } },
  { $match: { k: true } },
  { $group: { _id: 1, count: { $sum: 1 } } },
];

// The source's functional points (001-where-js-functional), untimed: "find('this.name == ...')" is
// short for {$where: ...}, and the sandboxed JavaScript "cannot ... access other parts of the DB".
// Both filters read the first WHERE_CHECK documents that match by _id (a few hundred $where calls,
// whatever the collection's size); the sandbox probe's body is a constant that touches db.
var WHERE_CHECK = 200;
var WHERE_TOUCHES_DB = 'return db.getSiblingDB("test") !== null';

function whereFunctional(coll) {
  var c = db.getCollection(coll);
  function ids(filter) {
    return c
      .find(filter)
      .sort({ _id: 1 })
      .limit(WHERE_CHECK)
      .toArray()
      .map(function (d) {
        return d._id;
      });
  }
  function failure(e) {
    return { code: e.code || null, codeName: e.codeName || null, message: String(e.message).split('\n')[0] };
  }
  var out = { limit: WHERE_CHECK, whereIds: ids({ $where: WHERE_AB }) };
  try {
    out.stringIds = ids(WHERE_AB);
  } catch (e) {
    out.stringError = failure(e);
  }
  try {
    out.dbReached = c.find({ $where: WHERE_TOUCHES_DB }).limit(1).toArray().length;
  } catch (e) {
    out.dbError = failure(e);
  }
  return out;
}

// A count command (find-style queries) or an aggregation ending in one {count} document.
function whereCount(coll, filter, hint) {
  var cmd = { count: coll, query: filter };
  if (hint) cmd.hint = hint;
  return cmd;
}

function whereVariant(name, what, minVersion, build) {
  return {
    name: name,
    what: what,
    minVersion: minVersion,
    run: function (p) {
      var q = build(p);
      if (q.count) return db.runCommand(q).n;
      var out = db.getCollection(p.COLL).aggregate(q.pipeline).toArray();
      return out.length ? out[0].count : 0;
    },
    explain: function (p) {
      var q = build(p);
      return q.count
        ? db.runCommand({ explain: q, verbosity: 'queryPlanner' })
        : db.runCommand({
            explain: { aggregate: p.COLL, pipeline: q.pipeline, cursor: {} },
            verbosity: 'queryPlanner',
          });
    },
  };
}

var STUDY = {
  name: 'where',
  title: '$where vs plain, hybrid and aggregation queries',
  source: { id: '001', author: 'John Page', title: 'MongoDB is not a Javascript Database', year: 2016 },
  params: {
    N: { kind: 'count', def: 1000000, what: 'documents to generate when the lab creates the collection' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'mine', what: "collection (the source's name)" },
    RUNS: { kind: 'count', def: 5, what: 'timed rounds after the warm-up' },
  },
  // The hybrid, $expr and $function variants rely on the index on b; the source created it too.
  fixture: function (p) {
    return { coll: p.COLL, name: WHERE_FIXTURE, n: p.N, seed: p.SEED, doc: whereDoubleDoc, indexes: [{ b: 1 }] };
  },
  baseline: 'where',
  unit: 'ms',
  variants: [
    whereVariant('plain', '{b: {$lt: 5}, $expr: a > b}, forced collection scan', '3.6', function (p) {
      return whereCount(p.COLL, { b: { $lt: 5 }, $expr: A_GT_B }, { $natural: 1 });
    }),
    whereVariant('where', "$where: '" + WHERE_ALL + "'", '2.0', function (p) {
      return whereCount(p.COLL, { $where: WHERE_ALL });
    }),
    whereVariant('hybrid', "{b: {$lt: 5}, $where: '" + WHERE_AB + "'}", '2.0', function (p) {
      return whereCount(p.COLL, { b: { $lt: 5 }, $where: WHERE_AB });
    }),
    whereVariant('source-agg', "aggregate $match, $project $cond, $match, $group (the source's)", '2.6', function () {
      return { pipeline: WHERE_SOURCE_PIPELINE };
    }),
    whereVariant('expr-find', '{b: {$lt: 5}, $expr: {$gt: [$a, $b]}}', '3.6', function (p) {
      return whereCount(p.COLL, { b: { $lt: 5 }, $expr: A_GT_B });
    }),
    whereVariant('expr-agg', 'aggregate $match {b < 5, $expr}, $count', '3.6', function () {
      return { pipeline: [{ $match: { b: { $lt: 5 }, $expr: A_GT_B } }, { $count: 'count' }] };
    }),
    whereVariant('function', '{b: {$lt: 5}, $expr: {$function: a > b}}', '4.4', function (p) {
      return whereCount(p.COLL, {
        b: { $lt: 5 },
        $expr: { $function: { body: 'function (a, b) { return a > b; }', args: ['$a', '$b'], lang: 'js' } },
      });
    }),
  ],
};

lab.main(STUDY);
