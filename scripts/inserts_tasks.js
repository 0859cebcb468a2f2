// Random selection of an unprocessed task (source 002, "MySQL and MongoDB Performance Comparison
// Part 1", 2012): a database as a passive task scheduler, compute nodes fetching random
// unprocessed tasks with find({processed: 0}).skip(R).limit(1) (SQL: LIMIT 1 OFFSET R).
//
// This script times the ways to PICK one (reads only): skip(R) over a collection scan and over an
// index, $sample first (retry while processed), $match + $sample, and a random field with an
// index. Each timed run makes PICKS picks; the answer says how many were unprocessed (all must be).
// CLAIMING tasks with W concurrent workers (findOneAndUpdate, write conflicts, no task claimed
// twice) is the Node layer's: `mongo-perf-lab run tasks`.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/inserts_tasks.js
//   mongosh "mongodb://host:port/perflab" --eval 'var N = 1000000, PICKS = 20' path/to/scripts/inserts_tasks.js
// Parameters (set with --eval before the file; all optional):
//   N        tasks to generate when the lab creates the collection (default 1000000, as the source)
//   DONE     fraction already processed (default 0.1: 900k of 1M unprocessed)
//   PICKS    picks per timed run (default 20)
//   WRITERS  concurrent claimers (Node only; default "1,4,16")
//   CLAIM_N  tasks in the claiming collection (Node only; default 4000)
//   SEED     generator seed (default 1)
//   COLL     collection (default perflab_tasks); one the lab did not make is used as it is
//   RUNS, WARMUP, BUDGET_MS, MIN_MS, VARIANTS, LAB_LINES   as every study (docs/contract.md)

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/../fixtures/inserts-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/source-002/inserts-lab.mongosh.js');
load(__dirname + '/inserts_functions.js');

// Picks vary from run to run (a fixed R sequence would warm the same pages every time), but are
// reproducible: run k of a variant uses the k-th block of the seeded sequence.
var taskState = { unprocessed: null, calls: {}, indexed: true };

function taskRandoms(p, variant) {
  var k = (taskState.calls[variant] = (taskState.calls[variant] || 0) + 1);
  var next = LabInserts.rng((p.SEED * 7919 + k * 104729) >>> 0);
  var out = [];
  for (var i = 0; i < p.PICKS; i++) out.push(next());
  return out;
}

function taskUnprocessed(p) {
  if (taskState.unprocessed === null) taskState.unprocessed = db.getCollection(p.COLL).countDocuments({ processed: 0 });
  return taskState.unprocessed;
}

// Runs `pick(x)` for each random x in [0, 1); answers {picks, unprocessed}, distinct in extra.
function taskPicks(p, variant, pick) {
  var xs = taskRandoms(p, variant);
  var t0 = lab.now();
  var docs = xs.map(function (x) {
    return pick(x);
  });
  var ms = lab.now() - t0;
  var ids = {};
  var unprocessed = 0;
  docs.forEach(function (d) {
    if (d) {
      ids[String(d._id)] = true;
      if (d.processed === 0) unprocessed++;
    }
  });
  return lab.took(
    ms,
    { picks: docs.length, unprocessed: unprocessed },
    { distinct: Object.keys(ids).length, msPerPick: ms / docs.length }
  );
}

function taskSkip(p, hint) {
  var u = taskUnprocessed(p);
  return function (x) {
    return pickBySkip(db.getCollection(p.COLL), Math.floor(x * u), hint);
  };
}

var TASK_INDEX = { processed: 1, r: 1 };

// A pick variant: runs only at the pick point (and where `o.able()` says so), each timed run making
// PICKS picks with the function `o.pick(p)` returns; `o.explain(p)` (optional) gives its plan.
function taskPickVariant(name, what, o) {
  var v = {
    name: name,
    what: what,
    minVersion: '3.2',
    able: function (p, point) {
      return point.part === 'pick' && (!o.able || o.able());
    },
    run: function (p) {
      return taskPicks(p, name, o.pick(p));
    },
  };
  if (o.explain) v.explain = o.explain;
  return v;
}

// The source's skip(R) through `hint`: a collection scan ({$natural: 1}) or the index; its plan is
// explained at the middle of the unprocessed tasks.
function taskSkipVariant(name, what, hint, able) {
  return taskPickVariant(name, what, {
    able: able,
    pick: function (p) {
      return taskSkip(p, hint);
    },
    explain: function (p) {
      return db
        .getCollection(p.COLL)
        .find({ processed: 0 })
        .skip(Math.floor(taskUnprocessed(p) / 2))
        .limit(1)
        .hint(hint)
        .explain();
    },
  });
}

var STUDY = {
  name: 'tasks',
  title: 'random selection of an unprocessed task: skip(R), $sample, a random field; claiming with findOneAndUpdate',
  source: LabInsertsLab.source('MySQL and MongoDB Performance Comparison Part 1', 2012),
  params: {
    N: { kind: 'positive', def: 1000000, what: 'tasks to generate when the lab creates the collection' },
    DONE: { kind: 'number', def: 0.1, what: 'fraction of tasks already processed' },
    PICKS: { kind: 'positive', def: 20, what: 'picks per timed run' },
    WRITERS: { kind: 'names', def: '1,4,16', what: 'concurrent claimers (Node only)' },
    CLAIM_N: { kind: 'positive', def: 4000, what: 'tasks in the claiming collection (Node only)' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'perflab_tasks', what: 'tasks collection' },
    RUNS: { kind: 'count', def: 3, what: 'timed rounds after the warm-up' },
  },
  fixture: function (p) {
    if (!(p.DONE >= 0 && p.DONE < 1))
      throw lab.paramError('parameter DONE: expected a fraction in [0, 1), got ' + p.DONE);
    return {
      coll: p.COLL,
      name: 'tasks-' + p.DONE,
      n: p.N,
      seed: p.SEED,
      indexes: [TASK_INDEX],
      doc: function (next, i) {
        return LabInserts.taskDoc(next, i, p.DONE);
      },
    };
  },
  // A user's collection is read as it is: without the index {processed: 1, r: 1} the variant that
  // hints it is not run (a hint on a missing index is a server error), and the run says so.
  setup: function (p) {
    taskState.unprocessed = null;
    taskState.calls = {};
    taskState.indexed = db
      .getCollection(p.COLL)
      .getIndexes()
      .some(function (ix) {
        return JSON.stringify(ix.key) === JSON.stringify(TASK_INDEX);
      });
    if (!taskState.indexed) {
      print(
        'note: ' +
          p.COLL +
          ' has no index {processed: 1, r: 1} (the lab does not index a collection it did not make): ' +
          'skip-index is not run; random-field scans. Create that index yourself to compare them'
      );
    }
  },
  axes: function (p) {
    var nodeMode = typeof LAB_MODE !== 'undefined' && LAB_MODE === 'node';
    var points = [{ part: 'pick' }];
    if (nodeMode)
      LabInsertsLab.ints('WRITERS', p.WRITERS, 1, 256).forEach(function (W) {
        points.push({ part: 'claim', W: W });
      });
    return points;
  },
  baseline: 'skip-scan',
  unit: 'ms',
  variants: [
    taskSkipVariant('skip-scan', "the source's find({processed: 0}).skip(R).limit(1), collection scan", {
      $natural: 1,
    }),
    taskSkipVariant('skip-index', 'the same skip(R) over the index {processed: 1, r: 1}', TASK_INDEX, function () {
      return taskState.indexed;
    }),
    taskPickVariant('sample-first', '$sample {size: 1} of the collection, retried until unprocessed', {
      pick: function (p) {
        return function () {
          return pickBySampleFirst(db.getCollection(p.COLL), 1000);
        };
      },
    }),
    taskPickVariant('match-sample', '$match {processed: 0}, then $sample {size: 1}', {
      pick: function (p) {
        return function () {
          return pickByMatchSample(db.getCollection(p.COLL));
        };
      },
      explain: function (p) {
        return db
          .getCollection(p.COLL)
          .explain()
          .aggregate([{ $match: { processed: 0 } }, { $sample: { size: 1 } }]);
      },
    }),
    taskPickVariant(
      'random-field',
      'first unprocessed task with r >= random x (index {processed: 1, r: 1}), wrapping',
      {
        pick: function (p) {
          return function (x) {
            return pickByRandomField(db.getCollection(p.COLL), x);
          };
        },
        explain: function (p) {
          return db
            .getCollection(p.COLL)
            .find({ processed: 0, r: { $gte: 0.5 } })
            .sort({ r: 1 })
            .limit(1)
            .explain();
        },
      }
    ),
  ],
};

lab.main(STUDY);
