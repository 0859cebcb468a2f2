// The plan of one axis point: which variants run, and why each other one does not, as a typed
// state {code, why}. One function for the Node runner (lib/core/run-study.js) and the drop-in path
// (scripts/lib/lab.js runDropIn, which loads this file): plain ES2017, no require, so mongosh can
// load() it and Node can require() it.
//
//   LabPlan.point(variants, serverVersion, able) -> { run: [variant], skipped: [{variant, skipped: {code, why}}] }
//     variants: [{name, minVersion, ...}]; able(variant) -> true | false | 'why it cannot run here'
//   LabPlan.SKIP: the codes: version (server too old), not-here (cannot answer at this point),
//     unavailable (something it needs is missing: a peer database, a restartable server)
//   LabPlan.skipText(skipped) -> the text of a skipped state, of either result format version
//   LabPlan.notHere() -> the state of a variant that cannot answer at this point
var LabPlan = (function () {
  var SKIP = { version: 'version', notHere: 'not-here', unavailable: 'unavailable' };
  var NOT_HERE = 'cannot answer at this point';

  function num(x) {
    return Number(x) || 0;
  }

  // '6.0.5' >= '5.0'? Missing parts count as 0; no minimum means any version.
  function versionAtLeast(version, min) {
    if (!min) return true;
    var a = String(version || '0').split('.');
    var b = String(min).split('.');
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      if (num(a[i]) !== num(b[i])) return num(a[i]) > num(b[i]);
    }
    return true;
  }

  function skippedState(code, why) {
    return { code: code, why: why };
  }

  // The state of a variant that cannot answer at this point (a rollup asked for seconds).
  function notHere() {
    return skippedState(SKIP.notHere, NOT_HERE);
  }

  function point(variants, serverVersion, able) {
    var run = [];
    var skipped = [];
    variants.forEach(function (v) {
      if (!versionAtLeast(serverVersion, v.minVersion)) {
        skipped.push({ variant: v, skipped: skippedState(SKIP.version, 'needs MongoDB >= ' + v.minVersion) });
        return;
      }
      var ok = able ? able(v) : true;
      if (ok === true) run.push(v);
      else if (typeof ok === 'string' && ok !== NOT_HERE)
        skipped.push({ variant: v, skipped: skippedState(SKIP.unavailable, ok) });
      else skipped.push({ variant: v, skipped: notHere() });
    });
    return { run: run, skipped: skipped };
  }

  // Version 1 result files hold the text alone.
  function skipText(s) {
    return s && typeof s === 'object' ? s.why : s;
  }

  // The typed state of a version-1 text, by the texts version 1 wrote.
  function skippedOf(text) {
    if (!text || typeof text === 'object') return text;
    if (text === NOT_HERE) return skippedState(SKIP.notHere, text);
    if (/^needs MongoDB >= /.test(text)) return skippedState(SKIP.version, text);
    return skippedState(SKIP.unavailable, text);
  }

  return {
    point: point,
    versionAtLeast: versionAtLeast,
    skipText: skipText,
    skippedOf: skippedOf,
    notHere: notHere,
    SKIP: SKIP,
    NOT_HERE: NOT_HERE,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabPlan;
