// Study 004, shell side: the simulated day and the minute-0-versus-1439 measurement, built on the
// pasteable recordHit/preallocate of counters.js and the seeded stream of counters-gen.js.
// load(__dirname + '/lib/counters.js'); load(__dirname + '/lib/counters-gen.js') first.

var CounterSim = (function () {
  var OWNER = 'counters-004';
  var LAYOUTS = ['flat', 'hierarchical', 'array'];
  var MODES = ['bulk', 'single', 'updateMany'];

  function now() {
    if (typeof process !== 'undefined' && process.hrtime) {
      var t = process.hrtime();
      return t[0] * 1e3 + t[1] / 1e6;
    }
    return Date.now();
  }

  // Drops and re-creates a collection only when the lab made it (marker in perflab_fixtures);
  // one that exists without the marker is never touched.
  function own(dbh, name) {
    var marks = dbh.getCollection('perflab_fixtures');
    var exists = dbh.getCollectionNames().indexOf(name) >= 0;
    if (exists && !marks.findOne({ _id: name, fixture: OWNER })) {
      throw new Error(dbh.getName() + '.' + name + ' exists and was not made by the lab: not touching it (set PREFIX to another collection prefix, or use another database)');
    }
    marks.replaceOne({ _id: name }, { _id: name, fixture: OWNER, complete: false }, { upsert: true });
    if (exists) dbh.getCollection(name).drop();
    dbh.createCollection(name);
    marks.updateOne({ _id: name }, { $set: { complete: true } });
    return dbh.getCollection(name);
  }

  // Every schema but 'initial' starts with the first day preallocated, as yesterday's hits would
  // have left it.
  function prepareDay(dbh, prefix, schemas, metrics) {
    return schemas.map(function (s) {
      var coll = own(dbh, prefix + s);
      if (s !== 'initial') {
        for (var k = 0; k < metrics; k++) preallocate(coll, LabCountersGen.START, LabCountersGen.metricName(k), s);
      }
      return { schema: s, coll: coll };
    });
  }

  // One simulated minute of hits on one schema, hit by hit; returns milliseconds.
  function recordSlot(coll, schema, hits) {
    var t0 = now();
    for (var i = 0; i < hits.length; i++) recordHit(coll, hits[i].t, hits[i].metric, schema, hits[i].prealloc);
    return now() - t0;
  }

  // ---- minute 0 versus minute 1439 ------------------------------------------------------------
  function schemaOf(layout) { return layout === 'flat' ? 'preallocated' : layout; }
  function fieldOf(layout, at) { return counterMinuteField(schemaOf(layout), at === 'first' ? 0 : 1439); }

  function prepareScan(dbh, prefix, docs) {
    LAYOUTS.forEach(function (layout) {
      var coll = own(dbh, prefix + 'micro_' + layout);
      for (var k = 0; k < docs; k++) preallocate(coll, LabCountersGen.START, LabCountersGen.metricName(k), schemaOf(layout));
    });
  }

  // One run of `mode` on minute `at` ('first' | 'last'); returns the number of updates made.
  function scanRun(dbh, prefix, layout, mode, at, n) {
    var coll = dbh.getCollection(prefix + 'micro_' + layout);
    var inc = {};
    inc[fieldOf(layout, at)] = 1;
    var id = counterKey(LabCountersGen.START, LabCountersGen.metricName(0))._id;
    var i;
    if (mode === 'bulk') {
      var ops = [];
      for (i = 0; i < n; i++) ops.push({ updateOne: { filter: { _id: id }, update: { $inc: inc } } });
      coll.bulkWrite(ops, { ordered: true });
      return n;
    }
    if (mode === 'single') {
      for (i = 0; i < n; i++) coll.updateOne({ _id: id }, { $inc: inc });
      return n;
    }
    return coll.updateMany({}, { $inc: inc }).modifiedCount;
  }

  function writeLatency(dbh) {
    var w = dbh.getSiblingDB('admin').runCommand({ serverStatus: 1, opLatencies: 1 }).opLatencies.writes;
    return { us: Number(w.latency), ops: Number(w.ops) };
  }

  return { OWNER: OWNER, LAYOUTS: LAYOUTS, MODES: MODES, now: now, own: own, prepareDay: prepareDay,
    recordSlot: recordSlot, prepareScan: prepareScan, scanRun: scanRun, fieldOf: fieldOf, writeLatency: writeLatency };
})();
