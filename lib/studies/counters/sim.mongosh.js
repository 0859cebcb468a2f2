// Study 004, shell side: the simulated day, built on the pasteable recordHit/preallocate of
// counters.js and the seeded stream of counters-gen.js. (Minute 0 vs 1439 is measured from Node:
// lib/studies/counters/micro.js, through the same harness.)
// load(__dirname + '/counters_functions.js'); load(__dirname + '/../fixtures/counters-gen.js') first.

var LabCounterSim = (function () {
  var OWNER = 'counters-004';

  function now() {
    if (typeof process !== 'undefined' && process.hrtime) {
      var t = process.hrtime();
      return t[0] * 1e3 + t[1] / 1e6;
    }
    return Date.now();
  }

  // Drops and re-creates a collection only when the lab made it (LabFixture.claim: its marker
  // names the collection's UUID); one the lab did not make, empty or not, is never touched.
  function own(dbh, name) {
    LabFixture.claim(dbh, name, { kind: OWNER, fresh: true, spec: { fixture: OWNER }, doing: 'drop and re-create' });
    dbh.getCollection(LabFixture.META).updateOne({ _id: name }, { $set: { complete: true } });
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

  return { OWNER: OWNER, now: now, own: own, prepareDay: prepareDay, recordSlot: recordSlot };
})();
