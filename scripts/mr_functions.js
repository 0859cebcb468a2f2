// The map/reduce functions of source 000 ("Learning mongo", 2015): sum, min, max and count of one
// field, plus the mean from finalize. Each function is self-contained and plain ES2017, so it can
// be pasted as is into Robo 3T (4.2 legacy shell) or mongosh, e.g.
//
//   db.sensors.mapReduce(mrStatsMap, mrStatsReduce,
//     { out: { inline: 1 }, finalize: mrStatsFinalize, scope: { field: 'engine_rpm' } })
//
// The field name reaches the functions through `scope` (the server defines it as a global of the
// JavaScript scope), so it is data: nothing is ever pasted into the functions' source.
// To store them in YOUR database (system.js, for "Map Reduce 2"): paste this whole file into mongosh
// or Robo 3T connected to that database, then run  saveStatsFunctions(db)  (it writes labStatsMap,
// labStatsReduce and labStatsFinalize into db.system.js). The lab itself writes system.js only in a
// database it made; in yours, mr_store_functions.js and mr_variants.js use the ones you stored.
// Loaded by mr_store_functions.js and mr_variants.js:  load(__dirname + '/mr_functions.js')
// and required by the Node tests, which call the very same functions.

// Map: one value per document that holds a number in `field`. Documents where the sensor was
// blank have no such field and are skipped, as $group's $sum/$min/$max skip non-numbers.
// Every value already has the shape of a partial result ({sum, min, max, count}), because the
// server feeds reduce's own output back into reduce together with map values (see below).
var mrStatsMap = function mrStatsMap() {
  var v = this[field];
  if (typeof v === 'number' && v === v) {
    emit(0, { sum: v, min: v, max: v, count: 1 });
  }
};

// Reduce: the server may call reduce several times for the same key and then again on a mix of
// its earlier results and further map values (MongoDB requires reduce to be associative,
// commutative and idempotent: reduce(k, [reduce(k, A), reduce(k, B)]) must equal reduce(k, A + B),
// and its result must have the same shape as map's values).
// The source's reduce started from values[0] and did `reduced.sum += values[i]`: it added the whole
// object where it meant values[i].sum, so the sum became a string ("3121.6[object BSON]...") as
// soon as one call saw two values; it also modified values[0] in place. This one treats every input
// as a partial result, map output or reduce output alike, and builds a new object.
var mrStatsReduce = function mrStatsReduce(key, values) {
  var out = { sum: 0, min: Infinity, max: -Infinity, count: 0 };
  for (var i = 0; i < values.length; i++) {
    var p = values[i];
    out.sum += p.sum;
    if (p.min < out.min) out.min = p.min;
    if (p.max > out.max) out.max = p.max;
    out.count += p.count;
  }
  return out;
};

// Finalize runs once per key on the fully reduced value: the place for a mean, which cannot be
// reduced itself (the mean of means is not the mean).
var mrStatsFinalize = function mrStatsFinalize(key, value) {
  return {
    sum: value.sum,
    min: value.min,
    max: value.max,
    count: value.count,
    mean: value.count > 0 ? value.sum / value.count : null,
  };
};

// The same computation for the aggregation framework's $accumulator (4.4+): state in, state out.
// `merge` is reduce's counterpart: the server may compute partial states and merge them.
var accStatsInit = function accStatsInit() {
  return { sum: 0, min: null, max: null, count: 0 };
};
var accStatsAccumulate = function accStatsAccumulate(state, v) {
  if (typeof v === 'number' && v === v) {
    state.sum += v;
    if (state.min === null || v < state.min) state.min = v;
    if (state.max === null || v > state.max) state.max = v;
    state.count += 1;
  }
  return state;
};
var accStatsMerge = function accStatsMerge(a, b) {
  return {
    sum: a.sum + b.sum,
    min: a.min === null ? b.min : b.min === null || a.min < b.min ? a.min : b.min,
    max: a.max === null ? b.max : b.max === null || a.max > b.max ? a.max : b.max,
    count: a.count + b.count,
  };
};
var accStatsFinalize = function accStatsFinalize(state) {
  state.mean = state.count > 0 ? state.sum / state.count : null;
  return state;
};

// $function (4.4+) runs JavaScript per document inside a pipeline stage: here it only hands the
// reading back when it is a number, so $group does the arithmetic and what is measured is the
// cost of calling into JavaScript once per document.
var fnReading = function fnReading(v) {
  return typeof v === 'number' && v === v ? v : null;
};

// "Map Reduce 2" of the source: the functions are saved in the database (system.js, shown in
// Robo 3T under "Functions") and map/reduce calls them by name. These in-command functions are
// one-line trampolines; the server loads every system.js function into the scope it runs
// map/reduce in, so labStatsMap & co. are globals there, and `field` from `scope` is visible to
// them as well. mongosh has no db.loadServerScripts() (the legacy shell's way of loading system.js
// into the *shell's* scope): the server-side call below is the way that works in every version.
var STORED_NAMES = { map: 'labStatsMap', reduce: 'labStatsReduce', finalize: 'labStatsFinalize' };
var mrStoredMap = function mrStoredMap() {
  labStatsMap.call(this);
};
var mrStoredReduce = function mrStoredReduce(key, values) {
  return labStatsReduce(key, values);
};
var mrStoredFinalize = function mrStoredFinalize(key, value) {
  return labStatsFinalize(key, value);
};

// The inline map/reduce command for the statistics of `field` in the collection `collName`, with the
// functions sent in the command (mrStatsMap, mrStatsReduce, mrStatsFinalize) or the trampolines to
// system.js (mrStoredMap & co.); add query, limit or jsMode to it, and run it with db.runCommand.
var mrStatsCommand = function mrStatsCommand(collName, field, map, reduce, finalize) {
  return {
    mapReduce: collName,
    map: map,
    reduce: reduce,
    finalize: finalize,
    out: { inline: 1 },
    scope: { field: field },
  };
};

// Saves the three functions into system.js, unless they are there already with the same code:
// rewriting system.js makes the server reload it, which a timing loop must not do on every run.
// Returns the names it wrote.
var saveStatsFunctions = function saveStatsFunctions(dbh) {
  var wanted = [
    [STORED_NAMES.map, mrStatsMap],
    [STORED_NAMES.reduce, mrStatsReduce],
    [STORED_NAMES.finalize, mrStatsFinalize],
  ];
  var written = [];
  for (var i = 0; i < wanted.length; i++) {
    var name = wanted[i][0];
    var code = wanted[i][1].toString();
    var have = dbh.getCollection('system.js').findOne({ _id: name });
    if (have && have.value && have.value.code === code) continue;
    dbh.getCollection('system.js').replaceOne({ _id: name }, { _id: name, value: new Code(code) }, { upsert: true });
    written.push(name);
  }
  return written;
};

// Whether system.js holds the three labStats* functions with this code (stored by you or the lab).
var mrFunctionsStored = function mrFunctionsStored(dbh) {
  var wanted = [
    [STORED_NAMES.map, mrStatsMap],
    [STORED_NAMES.reduce, mrStatsReduce],
    [STORED_NAMES.finalize, mrStatsFinalize],
  ];
  return wanted.every(function (w) {
    var have = dbh.getCollection('system.js').findOne({ _id: w[0] });
    return !!(have && have.value && have.value.code === w[1].toString());
  });
};

if (typeof module !== 'undefined' && module.exports) {
  module.exports = {
    mrStatsMap: mrStatsMap,
    mrStatsReduce: mrStatsReduce,
    mrStatsFinalize: mrStatsFinalize,
    accStatsInit: accStatsInit,
    accStatsAccumulate: accStatsAccumulate,
    accStatsMerge: accStatsMerge,
    accStatsFinalize: accStatsFinalize,
    fnReading: fnReading,
    STORED_NAMES: STORED_NAMES,
    mrStoredMap: mrStoredMap,
    mrStoredReduce: mrStoredReduce,
    mrStoredFinalize: mrStoredFinalize,
    mrStatsCommand: mrStatsCommand,
    mrFunctionsStored: mrFunctionsStored,
  };
}
