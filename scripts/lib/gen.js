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

  return { rng: rng, whereDoc: whereDoc };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabGen;
