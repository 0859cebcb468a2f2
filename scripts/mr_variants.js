// Source 000 ("Learning mongo", 2015), the in-database half of its table: statistics (sum, min,
// max, count, mean) of one sensor field over batches of 10^0 .. 10^K documents, computed by
//   mr                map/reduce with the functions in the command
//   mr-jsmode         the same with jsMode: true
//   mr-stored         map/reduce calling functions saved in system.js (the source's "Map Reduce 2")
//   mr-stored-jsmode  the same with jsMode: true
//   mr-range          map/reduce over the batch's _id range (the _id index), in one command
//   mr-chunked        the same range in 10 map/reduce commands over disjoint _id sub-ranges, merged
//                     (the source's "ten batches of 10^5 against one of 10^6", on one access path)
//   group             aggregation $group ($sum, $min, $max)
//   accumulator       aggregation $group with a JavaScript $accumulator
//   function          aggregation with a per-document JavaScript $function, then $group
// and prints the source's table: one row per batch size, one column per variant, documents per
// millisecond as mean and σ over RUNS runs (after a warm-up round, variants interleaved, ratios against $group).
// The client-side variants (whole documents into a list, one field into accumulators, chunked,
// parallel) need a driver program: `mongo-perf-lab run mapreduce` runs them with these ones.
//
// A batch is the first n documents in natural order (`limit n`, as the source measured it). The
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
//   DB         database        (default: the one in the connection string)
//   COLL       collection      (default 'sensors')
//   FIELD      numeric field   (default 'engine_rpm')
//   K          batches 10^0 .. 10^K, capped at the collection's size (default 5)
//   SIZES      explicit batch sizes instead, e.g. '1000,50000'
//   RUNS       timed rounds per batch size after one warm-up round (default 10, as the source)
//   BUDGET_MS  a variant whose warm-up takes longer is timed by that one run (default 60000)
//   VARIANTS   comma-separated variants, e.g. 'mr,group' (default: all)
//   TOP_VARIANTS  at batches of 10^6 and more, only these variants and group run, e.g.
//              'mr,mr-stored' (default: all); the claims read a few variants there, a run takes seconds
//   N, SEED    documents to generate when the lab creates the collection (default 10^K), seed 1
//   STORE_FUNCTIONS  true: stop (one line) unless mr-stored* can run. The lab saves the three
//              labStats* functions in <DB>.system.js only in a database it made; in yours, mr-stored*
//              run when you stored them (see mr_functions.js's header) and are skipped otherwise
//   LAB_LINES  true prints the machine-readable @@LAB lines
//   GENERATE   true lets it generate into a COLL you named that does not exist (a typo is refused)

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/../fixtures/sensor-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/mr_functions.js');

function mrDb(p) {
  return p.DB ? db.getSiblingDB(p.DB) : db;
}

var MR_EMPTY = { sum: 0, min: null, max: null, count: 0, mean: null };

// The numeric fields of a document, for a message that names the ones FIELD could be.
function numericFields(doc) {
  return Object.keys(doc || {}).filter(function (k) {
    return (
      typeof doc[k] === 'number' || (doc[k] && doc[k]._bsontype && /Long|Int32|Double|Decimal/.test(doc[k]._bsontype))
    );
  });
}

// A collection whose FIELD holds no number anywhere (missing, or text): the variants would answer
// nothing, or disagree (map/reduce adds text where $group skips it), which says nothing of the
// cause. Refused before any timing, naming the field and the numeric fields there are.
function checkField(p) {
  var c = mrDb(p).getCollection(p.COLL);
  var name = mrDb(p).getName() + '.' + p.COLL;
  var q = {};
  q[p.FIELD] = { $type: 'number' };
  if (!c.findOne({}, { _id: 1 }) || c.findOne(q, { _id: 1 })) return;
  var other = {};
  other[p.FIELD] = { $exists: true };
  var found = c.findOne(other);
  var nums = numericFields(c.findOne());
  throw lab.paramError(
    'parameter FIELD: ' +
      name +
      (found
        ? ' holds no number in field ' +
          p.FIELD +
          ' (e.g. ' +
          JSON.stringify(String(found[p.FIELD])).slice(0, 40) +
          ' in _id ' +
          found._id +
          ')'
        : ' has no field ' + p.FIELD + ' in any document') +
      ': give FIELD a numeric field of ' +
      p.COLL +
      (nums.length ? ' (its first document has ' + nums.join(', ') + ')' : '')
  );
}

// Every variant answers {sum, min, max, count, mean}; count is the number of documents that had a
// number in the field (blank sensor readings are missing fields).
function mrCommand(p, n, stored, jsMode) {
  var cmd = stored
    ? mrStatsCommand(p.COLL, p.FIELD, mrStoredMap, mrStoredReduce, mrStoredFinalize)
    : mrStatsCommand(p.COLL, p.FIELD, mrStatsMap, mrStatsReduce, mrStatsFinalize);
  cmd.limit = n;
  // jsMode asked the server (up to 4.2) to keep intermediate values as JavaScript objects instead
  // of BSON; since 4.4 map/reduce runs as an aggregation and the option is accepted and ignored.
  if (jsMode) cmd.jsMode = true;
  return cmd;
}

function mrRun(p, cmd) {
  var reply = mrDb(p).runCommand(cmd);
  if (!reply.ok) throw new Error('mapReduce failed: ' + reply.errmsg); // the legacy shell does not throw
  if (!reply.results.length) return MR_EMPTY;
  var v = reply.results[0].value;
  return { sum: v.sum, min: v.min, max: v.max, count: v.count, mean: v.mean };
}

// The source's "ten batches of one hundred thousand documents should take about 8.08 seconds,
// almost twice as fast as doing a million in a single batch" (extrapolated, never measured). Both
// sides read by _id range through the _id index, so only the number of map/reduce commands
// differs: one over the batch's range, or MR_CHUNKS over its disjoint tenths, merged as the reduce
// merges. The cut points (the _id at each tenth of the batch) are found before the point, untimed.
var MR_CHUNKS = 10;

function mrCuts(p, n) {
  var c = mrDb(p).getCollection(p.COLL);
  var k = Math.max(1, Math.min(MR_CHUNKS, n));
  var ids = [];
  for (var j = 0; j <= k; j++) {
    var at = c
      .find({}, { _id: 1 })
      .sort({ _id: 1 })
      .skip(Math.floor((n * j) / k))
      .limit(1)
      .toArray();
    ids.push(at.length ? at[0]._id : null); // null: the batch reaches the collection's end
  }
  return { key: mrDb(p).getName() + '.' + p.COLL + '/' + n, ids: ids };
}

function mrRangeCommand(p, lo, hi) {
  var range = { $gte: lo };
  if (hi !== null) range.$lt = hi;
  var cmd = mrStatsCommand(p.COLL, p.FIELD, mrStatsMap, mrStatsReduce, mrStatsFinalize);
  cmd.query = { _id: range };
  return cmd;
}

function mrMerge(a, b) {
  var min = a.min === null ? b.min : b.min === null ? a.min : Math.min(a.min, b.min);
  var max = a.max === null ? b.max : b.max === null ? a.max : Math.max(a.max, b.max);
  var count = a.count + b.count;
  return { sum: a.sum + b.sum, min: min, max: max, count: count, mean: count > 0 ? (a.sum + b.sum) / count : null };
}

function mrRangeVariant(name, what, chunked) {
  function cuts(p, point) {
    // found once per point: the untimed explain (or warm-up) asks first
    if (!mrState.cuts || mrState.cuts.key !== mrDb(p).getName() + '.' + p.COLL + '/' + point.batch)
      mrState.cuts = mrCuts(p, point.batch);
    return mrState.cuts.ids;
  }
  return {
    name: name,
    what: what,
    minVersion: '2.0',
    able: function (p, point) {
      return mrAtPoint(p, point, name);
    },
    run: function (p, point) {
      var ids = cuts(p, point);
      if (ids[0] === null) return MR_EMPTY;
      if (!chunked) return mrRun(p, mrRangeCommand(p, ids[0], ids[ids.length - 1]));
      var total = MR_EMPTY;
      for (var j = 0; j + 1 < ids.length && ids[j] !== null; j++)
        total = mrMerge(total, mrRun(p, mrRangeCommand(p, ids[j], ids[j + 1])));
      return total;
    },
    explain: function (p, point) {
      var ids = cuts(p, point);
      return mrDb(p).runCommand({ explain: mrRangeCommand(p, ids[0], ids[1]), verbosity: 'queryPlanner' });
    },
  };
}

// A batch is the first n documents in natural order (`$limit n`, as the source measured it).
function mrStatsGroup(p) {
  var F = '$' + p.FIELD; // an aggregation field path: data for the server, not JavaScript source
  return {
    _id: 0,
    sum: { $sum: F },
    min: { $min: F },
    max: { $max: F },
    count: { $sum: { $cond: [{ $isNumber: F }, 1, 0] } },
  };
}

function mrAggStats(p, pipeline) {
  var r = mrDb(p).getCollection(p.COLL).aggregate(pipeline).toArray();
  if (!r.length) return MR_EMPTY;
  var s = r[0].s || r[0];
  return { sum: s.sum, min: s.min, max: s.max, count: s.count, mean: s.count > 0 ? s.sum / s.count : null };
}

function mrPipeline(name, p, n) {
  var F = '$' + p.FIELD;
  var head = [{ $limit: n }];
  if (name === 'group') return head.concat([{ $group: mrStatsGroup(p) }]);
  if (name === 'accumulator') {
    return head.concat([
      {
        $group: {
          _id: 0,
          s: {
            $accumulator: {
              init: accStatsInit,
              accumulate: accStatsAccumulate,
              accumulateArgs: [F],
              merge: accStatsMerge,
              finalize: accStatsFinalize,
              lang: 'js',
            },
          },
        },
      },
    ]);
  }
  return head.concat([
    { $project: { v: { $function: { body: fnReading, args: [F], lang: 'js' } } } },
    {
      $group: {
        _id: 0,
        sum: { $sum: '$v' },
        min: { $min: '$v' },
        max: { $max: '$v' },
        count: { $sum: { $cond: [{ $isNumber: '$v' }, 1, 0] } },
      },
    },
  ]);
}

// TOP_VARIANTS: at batches of 10^6 and more only the named variants and the baseline run.
function mrAtPoint(p, point, name) {
  if (!p.TOP_VARIANTS || point.batch < 1000000 || name === 'group') return true;
  return LabParams.list(p.TOP_VARIANTS).indexOf(name) >= 0;
}

function mrVariant(name, what, minVersion, stored, jsMode) {
  return {
    name: name,
    what: what,
    minVersion: minVersion,
    able: function (p, point) {
      return (!stored || mrState.stored) && mrAtPoint(p, point, name);
    },
    run: function (p, point) {
      return mrRun(p, mrCommand(p, point.batch, stored, jsMode));
    },
    explain: function (p, point) {
      return mrDb(p).runCommand({ explain: mrCommand(p, point.batch, stored, jsMode), verbosity: 'queryPlanner' });
    },
  };
}

function aggVariant(name, what, minVersion) {
  return {
    name: name,
    what: what,
    minVersion: minVersion,
    able: function (p, point) {
      return mrAtPoint(p, point, name);
    },
    run: function (p, point) {
      return mrAggStats(p, mrPipeline(name, p, point.batch));
    },
    explain: function (p, point) {
      return mrDb(p).runCommand({
        explain: { aggregate: p.COLL, pipeline: mrPipeline(name, p, point.batch), cursor: {} },
        verbosity: 'queryPlanner',
      });
    },
  };
}

var mrState = { stored: false, cuts: null };

function fmtRate(x) {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2);
}

var STUDY = {
  name: 'mapreduce',
  title: 'stats of one field: map/reduce, $group, $accumulator, $function, client-side',
  source: { id: '000', title: 'Learning mongo', year: 2015 },
  params: {
    DB: { kind: 'names', def: '', what: "database (default: the connection's)" },
    COLL: { kind: 'name', def: 'sensors', what: 'collection' },
    FIELD: { kind: 'name', def: 'engine_rpm', what: 'numeric field' },
    K: { kind: 'count', def: 5, what: "batches 10^0 .. 10^K, capped at the collection's size" },
    SIZES: { kind: 'names', def: '', what: 'explicit batch sizes instead, e.g. 1000,50000' },
    TOP_VARIANTS: { kind: 'names', def: '', what: 'at batches of 10^6 and more, only these variants and group' },
    N: { kind: 'count', def: 100000, what: 'documents to generate when the lab creates the collection' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    RUNS: { kind: 'count', def: 10, what: 'timed rounds per batch size (10, as the source)' },
    BUDGET_MS: { kind: 'number', def: 60000, what: 'a variant whose warm-up takes longer is timed by that run only' },
    STORE_FUNCTIONS: {
      kind: 'bool',
      def: false,
      what: 'require the mr-stored variants (system.js is written only in a database the lab made)',
    },
  },
  fixture: function (p) {
    return { db: p.DB || undefined, coll: p.COLL, name: 'sensors', n: p.N, seed: p.SEED, doc: LabSensorGen.doc };
  },
  // "Map Reduce 2" of the source calls functions saved in system.js. The lab writes its three
  // labStats* functions there only where it owns the data (or when told to): system.js is the
  // user's code otherwise.
  setup: function (p) {
    var known = STUDY.variants.concat(STUDY.nodeVariants || []).map(function (v) {
      return typeof v === 'string' ? v : v.name;
    });
    LabParams.list(p.TOP_VARIANTS).forEach(function (n) {
      if (known.indexOf(n) < 0)
        throw lab.paramError(
          'parameter TOP_VARIANTS: unknown variant ' + JSON.stringify(n) + ' (known: ' + known.join(', ') + ')'
        );
    });
    checkField(p);
    var d = mrDb(p);
    if (LabFixture.ownsDatabase(d)) {
      mrState.stored = true;
      var written = saveStatsFunctions(d);
      if (written.length)
        print('saved in ' + d.getName() + '.system.js: ' + written.join(', ') + ' (see mr_store_functions.js)');
      return;
    }
    mrState.stored = mrFunctionsStored(d);
    if (mrState.stored) return;
    var how =
      'store them yourself (paste scripts/mr_functions.js into mongosh connected to ' +
      d.getName() +
      ', then run saveStatsFunctions(db))';
    if (p.STORE_FUNCTIONS)
      throw lab.paramError(
        'parameter STORE_FUNCTIONS: ' +
          d.getName() +
          ' is not a database the lab made, so the lab does not write its system.js: ' +
          how
      );
    print(
      'note: ' +
        d.getName() +
        ' is not a database the lab made and its system.js lacks labStatsMap/Reduce/Finalize: mr-stored variants skipped (' +
        how +
        ')'
    );
  },
  axes: function (p) {
    var count = mrDb(p).getCollection(p.COLL).estimatedDocumentCount();
    var sizes = [];
    if (p.SIZES) {
      sizes = lab.list(p.SIZES).map(function (x) {
        var n = Number(x);
        if (!Number.isInteger(n) || n < 1)
          throw lab.paramError('parameter SIZES: ' + JSON.stringify(x) + ' is not a whole number >= 1');
        return n;
      });
    } else {
      for (var k = 0; k <= p.K; k++) if (Math.pow(10, k) <= count) sizes.push(Math.pow(10, k));
    }
    if (!sizes.length)
      throw new Error(
        mrDb(p).getName() + '.' + p.COLL + ' holds ' + count + ' documents: no batch size to measure (generate some: N)'
      );
    return sizes.map(function (n) {
      return { batch: n };
    });
  },
  baseline: 'group',
  unit: 'ms',
  variants: [
    mrVariant('mr', 'mapReduce, functions in the command', '2.0', false, false),
    mrVariant('mr-jsmode', 'mapReduce, jsMode: true', '2.0', false, true),
    mrVariant('mr-stored', 'mapReduce calling system.js functions', '2.0', true, false),
    mrVariant('mr-stored-jsmode', 'mapReduce calling system.js functions, jsMode: true', '2.0', true, true),
    mrRangeVariant('mr-range', "mapReduce over the batch's _id range, one command", false),
    mrRangeVariant('mr-chunked', 'mapReduce over the same _id range in 10 disjoint commands, merged', true),
    aggVariant('group', '$group with $sum, $min, $max', '2.2'),
    aggVariant('accumulator', '$group with a JavaScript $accumulator', '4.4'),
    aggVariant('function', '$project with a JavaScript $function per document, then $group', '4.4'),
  ],
  // The source's table: one row per batch size, documents per millisecond (higher is better).
  report: function (p, records) {
    var rows = records.filter(function (r) {
      return r.type === 'result' && !r.skipped;
    });
    var names = [];
    rows.forEach(function (r) {
      if (names.indexOf(r.variant) < 0) names.push(r.variant);
    });
    var sizes = [];
    rows.forEach(function (r) {
      if (sizes.indexOf(r.axis.batch) < 0) sizes.push(r.axis.batch);
    });
    print('');
    print("documents per millisecond at the median time (higher is better), the source's table:");
    lab.table(
      [{ key: 'n', title: 'batch', right: true }].concat(
        names.map(function (v) {
          return { key: v, title: v, right: true };
        })
      ),
      sizes.map(function (n) {
        var row = { n: lab.fmtInt(n) };
        rows
          .filter(function (r) {
            return r.axis.batch === n;
          })
          .forEach(function (r) {
            row[r.variant] = fmtRate(n / r.median);
          });
        return row;
      })
    );
    var js = rows.filter(function (r) {
      return r.variant === 'mr-jsmode' && r.axis.batch >= 1000 && r.ratio;
    });
    var mr = rows.filter(function (r) {
      return r.variant === 'mr' && r.axis.batch >= 1000;
    });
    if (js.length && mr.length) {
      var per = js.map(function (r) {
        var m = mr.filter(function (x) {
          return x.axis.batch === r.axis.batch;
        })[0];
        return r.median / m.median;
      });
      LabFormat.wrap(
        'jsMode: time with / without, per batch of 1,000 or more: ' +
          per
            .map(function (x) {
              return x.toFixed(2);
            })
            .join(', ') +
          ' (MongoDB 4.4+ accepts jsMode and ignores it: map/reduce runs as an aggregation)',
        100
      ).forEach(function (l) {
        print(l);
      });
    }
  },
};

lab.main(STUDY);
