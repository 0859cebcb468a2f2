// Seeded data generators, shared by the shell scripts (load(__dirname + '/lib/gen.js')) and by the
// Node fixtures (require). One implementation on both sides means a script that generates its own
// data and the Node loader produce the same documents, byte for byte, for the same seed.
// Plain ES2017: no modules, no BigInt, so it also loads in older shells.

var LabGen = (function () {
  // mulberry32: tiny, fast, and good enough for benchmark data; deterministic across engines
  // because it only uses 32-bit integer arithmetic (Math.imul) and one division.
  function rng(seed) {
    var s = seed >>> 0;
    return function () {
      s = (s + 0x6D2B79F5) >>> 0;
      var t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // Seed 001: {_id, a, b} with a and b uniform in [0, 1000), drawn in that order per document.
  function whereDoc(next, i) {
    var a = next() * 1000;
    var b = next() * 1000;
    return { _id: i, a: a, b: b };
  }

  // Seed 003: one time event {_id, created_on, value}, created_on uniform over the year 2012 in
  // UTC (leap year: 366 days) with millisecond resolution, value uniform in [0, 1), drawn in that
  // order per event. The _id is the event's number, so loading the same events twice adds nothing.
  var TS_YEAR_START = Date.UTC(2012, 0, 1);
  var TS_YEAR_MS = Date.UTC(2013, 0, 1) - TS_YEAR_START;

  function timeEvent(next, i) {
    var t = TS_YEAR_START + Math.floor(next() * TS_YEAR_MS);
    var value = next();
    return { _id: i, created_on: new Date(t), value: value };
  }

  return { rng: rng, whereDoc: whereDoc, timeEvent: timeEvent, TS_YEAR_START: TS_YEAR_START, TS_YEAR_MS: TS_YEAR_MS };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabGen;
