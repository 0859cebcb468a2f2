// Source 000's "Map Reduce 2": save the map, reduce and finalize functions in the database
// (system.js) and run a map/reduce that calls them by name, then check it against the same
// map/reduce with the functions sent in the command, and against $group.
//
// Usage (from any directory; needs the sensor collection, see the README, study 000):
//   mongosh random path/to/scripts/mr_store_functions.js
//   mongosh "mongodb://host:port/random" --eval 'var COLL = "trips", FIELD = "engine_rpm"' path/to/scripts/mr_store_functions.js
// Parameters (set with --eval before the file; all optional):
//   DB     database      (default: the one in the connection string; 'random', as the source, if none)
//   COLL   collection    (default 'sensors')
//   FIELD  numeric field (default 'engine_rpm')
//   N      documents to generate when the collection does not exist (default 10000)
//   SEED   generator seed for those documents (default 1)
//   GENERATE  true lets it generate into a COLL you named that does not exist (a typo is refused)
//   LAB_LINES  true prints the machine-readable @@LAB lines (default false)
//   KEEP   true keeps, in a database the lab did not make, the collection it generated there
//          (default: dropped at the end; in a database the lab made, everything stays)
//
// system.js is written only in a database the lab made (it found it empty and marked it); in yours,
// store the functions yourself first (paste mr_functions.js, run saveStatsFunctions(db)).
//
// Why system.js: the source found map/reduce twice as fast with stored functions on MongoDB 2.4 and
// guessed that the server compiles them once. mongosh has no db.loadServerScripts() (it loaded
// system.js into the legacy shell's own scope, which is not where map/reduce runs anyway); what
// works in every version is calling the stored functions from the functions the command carries,
// since the server puts every system.js function into the scope it runs map/reduce in.
// $function and $accumulator cannot see system.js: aggregation has to carry its JavaScript.

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/../fixtures/sensor-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/mr_functions.js');

lab.declare(['DB', 'COLL', 'FIELD', 'N', 'SEED', 'GENERATE', 'LAB_LINES', 'KEEP'], 'mr_store_functions.js');
var P = {
  DB: lab.param('DB', db.getName() === 'test' ? 'random' : db.getName(), 'name'),
  COLL: lab.param('COLL', 'sensors', 'name'),
  FIELD: lab.param('FIELD', 'engine_rpm', 'name'),
  N: lab.param('N', 10000, 'count'),
  SEED: lab.param('SEED', 1, 'count'),
  GENERATE: lab.param('GENERATE', false, 'bool'),
  LAB_LINES: lab.param('LAB_LINES', false, 'bool'),
  KEEP: lab.param('KEEP', false, 'bool'),
};
var d = db.getSiblingDB(P.DB);
LabFixture.checkTarget(P.DB);
// system.js is the database's code, not a collection of the lab's: the lab writes it only in a
// database it made (found empty and marked, see LabFixture.claimDatabase). Elsewhere it uses the
// functions if you stored them, and otherwise stops before writing anything.
var ownDb = LabFixture.claimDatabase(d);
if (!ownDb && !mrFunctionsStored(d)) {
  throw new Error(
    P.DB +
      ' is not a database the lab made, so the lab does not write its system.js: store the functions yourself ' +
      '(paste scripts/mr_functions.js into mongosh connected to ' +
      P.DB +
      ', then run saveStatsFunctions(db); its header says more) and run this again'
  );
}

var info = lab.header(
  'map/reduce with stored functions (source 000, "Map Reduce 2")',
  d,
  'collection ' + P.DB + '.' + P.COLL + ' | field ' + P.FIELD
);
// What the lab has in the database now: what it generates below goes at the end (LabFixture.finishRun).
var start = LabFixture.runStart(d);
// Data already there (imported CSV files, or your own) is used as it is; a missing collection gets
// N generated rows, the same ones the CSV generator writes (fixtures/sensors.js), under the default
// name or with GENERATE = true.
var fixture =
  d.getCollection(P.COLL).estimatedDocumentCount() > 0
    ? { count: d.getCollection(P.COLL).estimatedDocumentCount(), own: false }
    : lab.ensureFixture(d, P.COLL, { fixture: 'sensors', n: P.N, seed: P.SEED }, LabSensorGen.doc, {
        generate: lab.mayGenerate(P, P.COLL, { COLL: { def: 'sensors' } }),
      });

var written = ownDb ? saveStatsFunctions(d) : [];
LabFormat.wrap(
  written.length
    ? 'saved in ' + P.DB + '.system.js: ' + written.join(', ')
    : 'system.js already holds ' +
        [STORED_NAMES.map, STORED_NAMES.reduce, STORED_NAMES.finalize].join(', ') +
        ' with this code',
  100
).forEach(function (l) {
  print(l);
});
d.getCollection('system.js')
  .find({ _id: { $in: [STORED_NAMES.map, STORED_NAMES.reduce, STORED_NAMES.finalize] } })
  .sort({ _id: 1 })
  .forEach(function (f) {
    print('  ' + f._id + ': ' + f.value.code.split('\n')[0] + ' ... (' + f.value.code.length + ' characters)');
  });

// The statistics object from a mapReduce reply, with count 0 when nothing matched.
function mrValue(reply) {
  return reply.results.length ? reply.results[0].value : { sum: 0, min: null, max: null, count: 0, mean: null };
}

// runCommand: the legacy shell (Robo 3T) returns {ok: 0, errmsg} on failure, mongosh throws;
// checking ok covers both.
function mapReduce(map, reduce, finalize) {
  var t0 = lab.now();
  var reply = d.runCommand(mrStatsCommand(P.COLL, P.FIELD, map, reduce, finalize));
  var ms = lab.now() - t0;
  if (!reply.ok) throw new Error('mapReduce failed: ' + reply.errmsg);
  return { stats: mrValue(reply), ms: ms };
}

var stored = mapReduce(mrStoredMap, mrStoredReduce, mrStoredFinalize);
var inline = mapReduce(mrStatsMap, mrStatsReduce, mrStatsFinalize);
var group = d
  .getCollection(P.COLL)
  .aggregate([
    {
      $group: {
        _id: 0,
        sum: { $sum: '$' + P.FIELD },
        min: { $min: '$' + P.FIELD },
        max: { $max: '$' + P.FIELD },
        count: { $sum: { $cond: [{ $isNumber: '$' + P.FIELD }, 1, 0] } },
      },
    },
  ])
  .toArray()[0] || { sum: 0, min: null, max: null, count: 0 };

function show(s) {
  return (
    'count ' +
    lab.fmtInt(s.count) +
    ', sum ' +
    s.sum +
    ', min ' +
    s.min +
    ', max ' +
    s.max +
    (s.mean !== undefined ? ', mean ' + (s.mean === null ? null : s.mean.toFixed(4)) : '')
  );
}
print('');
print('map/reduce, stored functions: ' + show(stored.stats) + '  (' + lab.fmtMs(stored.ms) + ')');
print('map/reduce, inline functions: ' + show(inline.stats) + '  (' + lab.fmtMs(inline.ms) + ')');
print('$group:                       ' + show(group));
function close(a, b) {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}
var agree = [inline.stats, group].every(function (s) {
  return (
    s.count === stored.stats.count &&
    s.min === stored.stats.min &&
    s.max === stored.stats.max &&
    close(s.sum, stored.stats.sum)
  );
});
print(agree ? 'all three agree' : 'RESULTS DISAGREE');

if (P.LAB_LINES)
  lab.emit({
    type: 'environment',
    study: 'mapreduce',
    script: 'mr_store_functions',
    server: info,
    db: P.DB,
    coll: P.COLL,
    field: P.FIELD,
    docs: fixture.count,
    written: written,
  });
if (P.LAB_LINES)
  lab.emit(
    lab.measureRecord({
      study: 'mapreduce',
      name: 'stored-functions-agree',
      variant: 'mr-stored',
      axis: { batch: fixture.count },
      value: agree,
      what: 'map/reduce calling system.js functions equals inline map/reduce and $group',
      extra: {
        stats: stored.stats,
        inline: inline.stats,
        group: { sum: group.sum, min: group.min, max: group.max, count: group.count },
        ms: stored.ms,
        inlineMs: inline.ms,
      },
    })
  );
// In a database the lab did not make, the sensors it generated go (unless KEEP); what is left is named.
LabFixture.finishRun(d, start, { keep: P.KEEP });
