// Seeded hit stream for study 004 (per-minute counters), shared by the shell scripts
// (load(__dirname + '/lib/counters-gen.js')) and by Node (require). One implementation on both
// sides means the shell's day simulation, the Node writers and the Node oracle see the same hits.
// Plain ES2017 (no modules, no BigInt), so it also loads in older shells.
//
// The hits of one simulated minute depend only on (seed, day, minute), never on what came before:
// every schema, every writer and the oracle can regenerate exactly the hits of any minute.
// Each minute has `perMinute` hits in time order; the first hit of every day is at 00:00:00.000
// and the last at 23:59:59.999, so both edges of the day are always exercised.

// mulberry32 comes from gen.js, the lab's one seeded generator (loaded here if the script has not).
if (typeof LabGen === 'undefined') {
  if (typeof module !== 'undefined' && module.exports && typeof require === 'function' && typeof load === 'undefined') {
    globalThis.LabGen = require('./gen');
  } else {
    load(__dirname + '/gen.js');
  }
}

var LabCountersGen = (function () {
  var DAY_MS = 86400000;
  var MINUTES = 1440;
  // The seed's example document is "20101010/metric-1".
  var START = Date.UTC(2010, 9, 10);
  // The seed preallocates tomorrow's document with this probability per hit.
  var PREALLOC_P = 1 / 2000;

  var rng = LabGen.rng;

  // A 32-bit seed per (seed, day, minute), mixed so neighbouring minutes are unrelated.
  function minuteSeed(seed, day, minute) {
    var h = Math.imul((seed >>> 0) ^ 0x9E3779B9, 0x85EBCA6B) >>> 0;
    h = Math.imul(h ^ (day + 1), 0xC2B2AE35) >>> 0;
    h = Math.imul(h ^ (minute + 7919), 0x27D4EB2F) >>> 0;
    return (h ^ (h >>> 16)) >>> 0;
  }

  function metricName(i) {
    return 'metric-' + i;
  }

  function check(o) {
    var need = ['seed', 'metrics', 'perMinute'];
    for (var i = 0; i < need.length; i++) {
      var v = o[need[i]];
      if (typeof v !== 'number' || !(v >= (need[i] === 'seed' ? 0 : 1)) || Math.floor(v) !== v) {
        throw new Error('counters stream: ' + need[i] + ' must be a whole number' + (need[i] === 'seed' ? ' >= 0' : ' >= 1') + ', got ' + JSON.stringify(v));
      }
    }
  }

  // The hits of minute `minute` (0..1439) of day `day` (0, 1, ...): an array of
  // { t: epoch ms, metric: 'metric-k', prealloc: bool } in time order. `prealloc` is the seed's
  // "with a small probability, preallocate tomorrow's document" draw, made here so the oracle
  // knows which of tomorrow's documents exist.
  function minuteHits(o, day, minute) {
    check(o);
    var next = rng(minuteSeed(o.seed, day, minute));
    var base = (o.start === undefined ? START : o.start) + day * DAY_MS + minute * 60000;
    var p = o.preallocP === undefined ? PREALLOC_P : o.preallocP;
    var hits = [];
    for (var k = 0; k < o.perMinute; k++) {
      var off = Math.floor(next() * 60000);
      var metric = Math.floor(next() * o.metrics);
      var pre = next() < p;
      hits.push({ t: base + off, metric: metricName(metric), prealloc: pre });
    }
    hits.sort(function (a, b) { return a.t - b.t; });
    if (minute === 0) hits[0].t = base;                              // 00:00:00.000
    if (minute === MINUTES - 1) hits[hits.length - 1].t = base + 59999;  // 23:59:59.999
    return hits;
  }

  // Every (day, minute) slot of `days` days, in time order; `every` > 1 keeps one minute in
  // `every` (the first and last minute of each day are always kept).
  function slots(days, every) {
    var step = every || 1;
    var out = [];
    for (var d = 0; d < days; d++) {
      for (var m = 0; m < MINUTES; m++) {
        if (m % step === 0 || m === MINUTES - 1) out.push({ day: d, minute: m });
      }
    }
    return out;
  }

  return {
    DAY_MS: DAY_MS, MINUTES: MINUTES, START: START, PREALLOC_P: PREALLOC_P,
    rng: rng, minuteHits: minuteHits, slots: slots, metricName: metricName,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabCountersGen;
