// Part of the lab's shell-side core, loaded by lab.js (the one file a script loads) and required
// by Node: one implementation on both sides. Plain ES2017.
// Parameters: a script's globals set with --eval, validated and only ever used as values.

var LabParams = (function () {
  // ---- parameters ---------------------------------------------------------------------------
  // A script's parameters are globals set before it runs, e.g.
  //   mongosh random --eval 'var N = 100000, RUNS = 3' scripts/where_vs_agg.js
  // They are validated here and only ever used as values, never pasted into JavaScript source.
  var KINDS = {
    count: {
      test: function (v) {
        return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
      },
      what: 'a whole number >= 0',
    },
    positive: {
      test: function (v) {
        return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;
      },
      what: 'a whole number >= 1',
    },
    number: {
      test: function (v) {
        return typeof v === 'number' && isFinite(v);
      },
      what: 'a finite number',
    },
    name: {
      test: function (v) {
        return typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_.-]{0,100}$/.test(v) && v.indexOf('system.') !== 0;
      },
      what: 'a collection or field name ([A-Za-z0-9_.-], not system.*)',
    },
    names: {
      test: function (v) {
        return typeof v === 'string' && /^[A-Za-z0-9_,.-]*$/.test(v);
      },
      what: 'a comma-separated list of names',
    },
    bool: {
      test: function (v) {
        return typeof v === 'boolean';
      },
      what: 'true or false',
    },
  };

  // Parameters every study has; a study may declare its own default for any of them.
  var COMMON = {
    RUNS: { kind: 'count', def: 5, what: 'timed rounds per axis point after the warm-up (0: one run each)' },
    WARMUP: { kind: 'count', def: 1, what: 'untimed warm-up rounds' },
    BUDGET_MS: {
      kind: 'number',
      def: 30000,
      what: 'a variant whose warm-up run takes longer is timed by that run only',
    },
    MIN_MS: {
      kind: 'count',
      def: 0,
      what: 'more timed rounds while a point has had less timed work than this (at most 10x RUNS; 0: RUNS)',
    },
    MAX_RUNS: {
      kind: 'count',
      def: 0,
      what: 'over RUNS: sequential rounds, stopping when decided, at most this many (0: RUNS fixed rounds)',
    },
    VARIANTS: { kind: 'names', def: '', what: 'comma-separated variants to run (default: all)' },
    LAB_LINES: {
      kind: 'bool',
      def: false,
      what: 'print one machine-readable @@LAB line per result (for scripts reading the output)',
    },
    GENERATE: {
      kind: 'bool',
      def: false,
      what: 'let the script generate its data into a collection name you gave (its default name needs no asking)',
    },
    KEEP: {
      kind: 'bool',
      def: false,
      what: 'in a database the lab did not make, keep what the run made there (default: dropped at the end)',
    },
  };

  function globalValue(name) {
    return typeof globalThis[name] === 'undefined' ? undefined : globalThis[name];
  }

  // The one table of limits, the CLI's too (lib/cli/options.js), so a drop-in cannot be told to write
  // 10^12 documents for hours with no output: counts up to 10^9, rounds up to 10^4, seeds up to 2^32 - 1.
  var LIMITS = { SEED: 4294967295, RUNS: 10000, MAX_RUNS: 10000, WARMUP: 10000 };
  var MAX_COUNT = 1000000000;

  // A refused parameter: the user's input, not a bug. Every refusal of the shell side is made here,
  // with the code Node reads (lib/infra/errors.js ParameterError: exit 2, one line).
  var CODE = 'LAB_PARAMETER';
  function paramError(message) {
    var e = new Error(message);
    e.code = CODE;
    return e;
  }

  function checkValue(name, v, kind) {
    var k = KINDS[kind];
    if (!k) throw new Error('lab: unknown parameter kind ' + kind);
    if (!k.test(v)) {
      throw paramError(
        'parameter ' + name + ': expected ' + k.what + ', got ' + JSON.stringify(v) + ' (' + typeof v + ')'
      );
    }
    var max = LIMITS[name] || MAX_COUNT;
    if ((kind === 'count' || kind === 'positive') && v > max) {
      throw paramError(
        'parameter ' + name + ': ' + v + " is over the lab's limit of " + max + " (the CLI's too): give a smaller value"
      );
    }
    return v;
  }

  // One parameter from a global (scripts that are not studies use it).
  function param(name, def, kind) {
    var v = globalValue(name);
    return checkValue(name, v === undefined ? def : v, kind);
  }

  // All of a study's parameters (its own and COMMON), from `source(name)` (default: globals).
  function params(spec, source) {
    var get = source || globalValue;
    var all = Object.assign({}, COMMON, spec || {});
    var out = {};
    Object.keys(all).forEach(function (name) {
      var s = Object.assign({}, COMMON[name] || {}, all[name]);
      var v = get(name);
      out[name] = checkValue(name, v === undefined ? s.def : v, s.kind);
    });
    return out;
  }

  // ---- unknown parameters -------------------------------------------------------------------
  // A mistyped name (NN for N) would otherwise be ignored and the default used: on a user's server
  // that can mean regenerating a million documents. Parameters are upper-case globals holding a
  // number, string or boolean; the shell's own upper-case globals hold objects or functions.
  var SHELL_NAMES = ['LAB_MODE'];
  var PARAM_NAME = /^[A-Z][A-Z0-9_]*$/;

  // The upper-case globals set to a parameter-like value now. lab.js takes this when it is loaded,
  // before the script's own constants (hoisted, still undefined then) are assigned.
  function userGlobals() {
    return Object.keys(globalThis).filter(function (k) {
      var t = typeof globalThis[k];
      return PARAM_NAME.test(k) && SHELL_NAMES.indexOf(k) < 0 && (t === 'number' || t === 'string' || t === 'boolean');
    });
  }

  // Edits from a to b (insert, delete, replace, swap two neighbours): how typos differ. The one
  // "did you mean" distance, of the shell's parameters and of the CLI's options (lib/cli/options.js).
  function editDistance(a, b) {
    var d = [];
    var i;
    var j;
    for (i = 0; i <= a.length; i++) d.push([i]);
    for (j = 1; j <= b.length; j++) d[0][j] = j;
    for (i = 1; i <= a.length; i++) {
      for (j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
    return d[a.length][b.length];
  }

  function nearest(name, known) {
    var best = null;
    known.forEach(function (k) {
      var d = editDistance(name, k);
      if (best === null || d < best.d) best = { name: k, d: d };
    });
    return best ? best.name : null;
  }

  // Throws one line naming the first global in `given` that is not in `names` (nor COMMON).
  function refuseUnknown(given, names, where) {
    var known = Object.keys(COMMON).concat(
      names.filter(function (n) {
        return !Object.prototype.hasOwnProperty.call(COMMON, n);
      })
    );
    var unknown = (given || []).filter(function (k) {
      return known.indexOf(k) < 0;
    });
    if (!unknown.length) return;
    var near = nearest(unknown[0], known);
    throw paramError(
      'parameter ' +
        unknown[0] +
        ': ' +
        (where || 'this script') +
        ' has no such parameter' +
        (near ? ' (did you mean ' + near + '?)' : '') +
        '; nothing was run'
    );
  }

  function list(csv) {
    return csv
      ? csv.split(',').filter(function (s) {
          return s.length > 0;
        })
      : [];
  }

  return {
    KINDS: KINDS,
    COMMON: COMMON,
    globalValue: globalValue,
    checkValue: checkValue,
    param: param,
    params: params,
    list: list,
    paramError: paramError,
    CODE: CODE,
    userGlobals: userGlobals,
    nearest: nearest,
    editDistance: editDistance,
    LIMITS: LIMITS,
    MAX_COUNT: MAX_COUNT,
    refuseUnknown: refuseUnknown,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabParams;
