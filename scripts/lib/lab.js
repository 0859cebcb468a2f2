// The lab's one harness and the study contract (docs/contract.md), shared by the shell scripts and
// the Node layer. This is the one file a script loads:  load(__dirname + '/lib/lab.js')
// (load() resolves relative paths against the current directory, __dirname against the script.)
// It loads the core's parts, one file per concern, and adds the study runtime: fixtures, the
// drop-in loop and the Node bridge. Node requires the same files: one implementation of every rule
// on both sides. Plain ES2017 so it reads like the scripts it serves.
//   plan.js     LabPlan     a point's plan: which variants run, a typed state for each other
//   params.js   LabParams   parameters (globals set with --eval), validated, used only as values
//   stats.js    LabStats    medians, summaries, intervals, per-round ratios
//   harness.js  LabHarness  interleaved rounds, budgets, self-timed variants
//   format.js   LabFormat   numbers, answers, axis points, plain-text tables
//   records.js  LabRecords  answers compared, result records, explain summaries
//   lines.js    LabLines    a point's table, warnings and summary; the @@LAB lines
//   server.js   LabServer   the server described
//   fixture.js  LabFixture  the one protocol for data the lab generates

(function () {
  var parts = [
    ['LabPlan', 'plan'],
    ['LabFixture', 'fixture'],
    ['LabParams', 'params'],
    ['LabStats', 'stats'],
    ['LabHarness', 'harness'],
    ['LabFormat', 'format'],
    ['LabRecords', 'records'],
    ['LabLines', 'lines'],
    ['LabServer', 'server'],
  ];
  var inNode =
    typeof module !== 'undefined' && module.exports && typeof require === 'function' && typeof load === 'undefined';
  parts.forEach(function (part) {
    if (typeof globalThis[part[0]] !== 'undefined') return;
    if (inNode) globalThis[part[0]] = require('./' + part[1]);
    else load(__dirname + '/' + part[1] + '.js');
  });
})();

var lab = (function () {
  // What lab exports from its parts, each under the part's own name (lab.fmtMs is LabFormat.fmtMs):
  // the one list of those names. The code below calls them through their part.
  var REEXPORTED = [
    [LabParams, 'KINDS COMMON param params list paramError'],
    [LabStats, 'now median percentile summarize rng bootstrap ratioOf ratioInterval tQuantile levelOf'],
    [LabHarness, 'harness took timeCall roundsText'],
    [LabFormat, 'num fmtMs minMsNote fmtInt fmtFactor fmtAnswer speedWords tableLines table pointLabel'],
    [
      LabRecords,
      'FORMAT FORMAT_VERSION NOT_HERE same brief resultRecord timesRecord measureRecord warnings busyMachine ' +
        'isBusy busyText plan',
    ],
    [LabLines, 'PREFIX pointLines pivotLines summaryLines emit'],
    [LabServer, 'serverInfo versionAtLeast headerLine header'],
    [LabPlan, 'SKIP skipText notHere'],
  ];
  var globalValue = LabParams.globalValue;
  // The parameters the user set, taken as this file loads: before the script assigns its own constants.
  var given = LabParams.userGlobals();

  // ---- fixtures -----------------------------------------------------------------------------
  // Data the lab generated is marked in <db>.perflab_fixtures (scripts/lib/fixture.js, the one
  // protocol shared with the Node loader): a re-run reuses it, a change of size or seed regenerates
  // it, and a collection the lab did not make is read as it is: never filled, dropped or indexed.
  // opts.generate: the lab may create the collection (the scripts' GENERATE, or their default name).
  function ensureFixture(dbh, collName, spec, makeDoc, opts) {
    var o = opts || {};
    return LabFixture.ensure(dbh, collName, spec, makeDoc, {
      generate: !!o.generate,
      useForeign: true,
      progress: print,
    });
  }

  // Whether a script may generate into `coll` without being asked: when it is the script's own
  // default name (nothing typed, so no typo to fill), or GENERATE = true says so.
  // A name derived from the default COLL (a prefix's <COLL>_orders) is a default name too.
  function mayGenerate(p, coll, spec) {
    if (p.GENERATE) return true;
    var def = spec && spec.COLL ? spec.COLL.def : undefined;
    return def !== undefined && p.COLL === def && globalValue('COLL') === undefined;
  }

  // A study's declared fixture: generated when the lab owns (or may create) the collection, its
  // indexes made only on a collection the lab owns.
  function prepareFixture(study, p) {
    if (!study.fixture) return null;
    var f = study.fixture(p);
    if (!f) return null;
    var dbh = f.db ? db.getSiblingDB(f.db) : db;
    var res = ensureFixture(dbh, f.coll, { fixture: f.name, n: f.n, seed: f.seed }, f.doc, {
      generate: mayGenerate(p, f.coll, study.params),
    });
    if (res.own)
      (f.indexes || []).forEach(function (k) {
        dbh.getCollection(f.coll).createIndex(k);
      });
    else if ((f.indexes || []).length)
      print('note: not indexing ' + dbh.getName() + '.' + f.coll + " (not the lab's): some variants may scan");
    res.coll = f.coll;
    res.name = f.name;
    return res;
  }

  // ---- the study runtime --------------------------------------------------------------------
  var registry = {};

  function stepsFor(study, p) {
    var only = LabParams.list(p.VARIANTS);
    only.forEach(function (name) {
      if (
        !study.variants.some(function (v) {
          return v.name === name;
        }) &&
        !(study.nodeVariants || []).some(function (n) {
          return n === name;
        })
      ) {
        throw LabParams.paramError(
          'parameter VARIANTS: unknown variant ' +
            JSON.stringify(name) +
            ' (known: ' +
            study.variants
              .map(function (v) {
                return v.name;
              })
              .join(', ') +
            ')'
        );
      }
    });
    return study.variants.filter(function (v) {
      return !only.length || only.indexOf(v.name) >= 0;
    });
  }

  // A variant's able(p, point) (docs/contract.md): true where it runs, false where it cannot answer,
  // or a text saying what it lacks; other values count as true or false.
  function ableAt(v, p, point) {
    if (!v.able) return true;
    var ok = v.able(p, point);
    return typeof ok === 'string' ? ok : !!ok;
  }

  function explainOf(v, p, point) {
    if (!v.explain) return null;
    try {
      return LabRecords.plan(v.explain(p, point));
    } catch (e) {
      return { stage: '?', explainVersion: '?', error: String(e.message || e) };
    }
  }

  // Records of one axis point from a harness result; `expected` (an oracle's answer), when given,
  // is what every answer must equal, else the baseline's answer.
  function pointRecords(study, p, point, res, plans, o) {
    var opts = o || {};
    var sameFn = study.same || LabRecords.same;
    var has = Object.prototype.hasOwnProperty.call(opts, 'expected');
    var ref = has ? opts.expected : (res.variants[res.baseline] || {}).answer;
    return Object.keys(res.variants).map(function (name) {
      var s = res.variants[name];
      var meta = (opts.meta && opts.meta[name]) || {};
      return LabRecords.resultRecord({
        study: study.name,
        variant: name,
        what: meta.what,
        where: meta.where,
        axis: point,
        unit: study.unit,
        stats: s,
        plan: plans[name] || null,
        agrees: ref === undefined ? null : !!sameFn(s.answer, ref),
        // a variant that stopped on its own says its rounds (per-variant stopping)
        rounds: s.rounds !== undefined ? s.rounds : res.rounds,
        stop: s.stop || res.stop,
        sequential: res.sequential,
      });
    });
  }

  var SLOW_MS = 5000;

  // The time left of a point's plan: each remaining step costs its variant's last time (null until
  // every remaining variant has run once).
  function timeLeft(plan) {
    var last = {};
    var done = 0;
    return function (variant, ms) {
      last[variant] = ms;
      done++;
      var rest = plan.slice(done);
      if (
        rest.some(function (x) {
          return last[x.variant] === undefined;
        })
      )
        return null;
      return rest.reduce(function (a, x) {
        return a + last[x.variant];
      }, 0);
    };
  }

  // What a drop-in prints before its first point: the variants, the rounds and the data.
  function printPlan(study, p, chosen, fixture) {
    LabFormat.wrap(
      'variants ' +
        chosen
          .map(function (v) {
            return v.name;
          })
          .join(', ') +
        ' | baseline ' +
        study.baseline +
        ' | ' +
        p.WARMUP +
        ' warm-up + ' +
        LabHarness.roundsText(p.RUNS, p.MAX_RUNS) +
        ' per point' +
        LabFormat.minMsNote(p.MIN_MS) +
        ', order alternating' +
        (fixture ? ' | ' + fixture.coll + ': ' + LabFormat.fmtInt(fixture.count) + ' documents' : ''),
      100
    ).forEach(function (l) {
      print(l);
    });
  }

  // The harness over the variants that run at a point; a slow step prints its time and the time
  // left, since mongosh cannot redraw a bar.
  function timePoint(study, p, point, run) {
    var h = LabHarness.harness(
      run.map(function (v) {
        return v.name;
      }),
      {
        warmup: p.WARMUP,
        rounds: p.RUNS,
        budgetMs: p.BUDGET_MS,
        minMs: p.MIN_MS,
        maxRounds: p.MAX_RUNS,
        boundaries: study.boundaries,
        same: study.same || LabRecords.same,
        baseline: study.baseline,
        warmOnce: !!study.warmOnce,
      }
    );
    var byName = {};
    run.forEach(function (v) {
      byName[v.name] = v;
    });
    var step;
    var left = timeLeft(h.plan());
    while ((step = h.next()) !== null) {
      var r = LabHarness.timeCall(function () {
        return byName[step.variant].run(p, point);
      });
      h.record(step, r.ms, r.answer, r.extra);
      var est = left(step.variant, r.ms);
      if (r.ms > SLOW_MS)
        print(
          '  ' +
            step.variant +
            ': ' +
            LabFormat.fmtMs(r.ms) +
            ' (' +
            step.phase +
            ' ' +
            (step.round + 1) +
            ')' +
            (est === null ? '' : ', ~' + LabFormat.fmtMs(est) + ' left at this point')
        );
    }
    return h.result();
  }

  // A point's table, and whether its variants agree (pointLines says "all variants agree (answer)"
  // when every answer was checked and agrees).
  function printPoint(study, point, recs, described) {
    print('');
    if (Object.keys(point).length) print('-- ' + LabFormat.pointLabel(point) + ' --');
    LabLines.pointLines(recs, { described: described }).forEach(function (l) {
      print(l);
    });
    var disagree = recs.filter(function (r) {
      return r.agrees === false;
    });
    var ranRecs = recs.filter(function (r) {
      return !r.skipped;
    });
    if (disagree.length)
      print(
        'VARIANTS DISAGREE with ' +
          study.baseline +
          ': ' +
          disagree
            .map(function (r) {
              return r.variant;
            })
            .join(', ')
      );
    else if (
      !ranRecs.every(function (r) {
        return r.agrees === true;
      })
    ) {
      print(
        'all variants agree' +
          (ranRecs[0] && ranRecs[0].answer !== null ? ' (' + LabFormat.fmtAnswer(ranRecs[0].answer) + ')' : '')
      );
    }
  }

  // One axis point of a drop-in run: its plan (LabPlan.point: the version, then the script's
  // `able`), the harness over what runs, the records (skipped ones typed), printed.
  function dropInPoint(study, p, point, chosen, info, described) {
    if (study.setupPoint) study.setupPoint(p, point);
    var planned = LabPlan.point(chosen, info.version, function (v) {
      return ableAt(v, p, point);
    });
    var skipped = LabRecords.skippedRecords(study.name, planned.skipped, point);
    if (!planned.run.length) return skipped;
    var plans = {};
    var meta = {};
    planned.run.forEach(function (v) {
      plans[v.name] = explainOf(v, p, point);
      meta[v.name] = { what: v.what, where: 'server' };
    });
    var recs = pointRecords(study, p, point, timePoint(study, p, point, planned.run), plans, { meta: meta }).concat(
      skipped
    );
    printPoint(study, point, recs, described);
    if (p.LAB_LINES) recs.forEach(LabLines.emit);
    return recs;
  }

  // After the tables (every figure printed), so a caller's exit code says the answers differ.
  function refuseDisagreement(study, all) {
    var wrong = all.filter(function (r) {
      return r.agrees === false;
    });
    if (!wrong.length) return;
    var err = new Error(
      'variants disagree with ' +
        study.baseline +
        ': ' +
        wrong
          .map(function (r) {
            return r.variant;
          })
          .join(', ') +
        ' (the tables above show each answer): their results are not comparable; check the data or report it'
    );
    err.name = 'VariantsDisagree';
    throw err;
  }

  // Drop-in mode: what `mongosh random scripts/x.js` does. In a database the lab did not make, what
  // the run made there is dropped at its end, whatever happened, unless KEEP (LabFixture.finishRun).
  function runDropIn(study) {
    LabParams.refuseUnknown(given, Object.keys(study.params || {}), study.name);
    var p = LabParams.params(study.params);
    var info = LabServer.header(
      study.title + (study.source ? ' (source ' + study.source.id + ')' : ''),
      db,
      'database ' + db.getName()
    );
    var start = LabFixture.runStart(db);
    var all;
    try {
      all = dropInBody(study, p, info);
    } finally {
      LabFixture.finishRun(db, start, { keep: p.KEEP });
    }
    return all;
  }

  function dropInBody(study, p, info) {
    // An unknown variant is refused before the fixture step, which may regenerate the collection.
    var chosen = stepsFor(study, p);
    // Every collection the chosen variants write besides the data, proven absent or the lab's
    // before any work (the Node side does the same with its studies' derived(p)).
    if (study.derived)
      LabFixture.assertAllOwned(
        db,
        study.derived(
          p,
          chosen.map(function (v) {
            return v.name;
          })
        ),
        'write derived data into'
      );
    var fixture = prepareFixture(study, p);
    if (study.setup) study.setup(p);
    var points = study.axes ? study.axes(p) : [{}];
    printPlan(study, p, chosen, fixture);
    if (p.LAB_LINES)
      LabLines.emit({ type: 'environment', study: study.name, server: info, params: p, fixture: fixture });
    var all = [];
    var described = {};
    points.forEach(function (point) {
      all = all.concat(dropInPoint(study, p, point, chosen, info, described));
    });
    if (study.report) study.report(p, all);
    refuseDisagreement(study, all);
    return all;
  }

  // Scripts that are not studies name their parameters here, before they read them or touch the
  // server: a mistyped name is refused instead of silently leaving its default in force.
  function declare(names, where) {
    if (globalValue('LAB_MODE') === 'node') return;
    LabParams.refuseUnknown(given, names, where);
  }

  function main(study) {
    LabHarness.checkBoundaries(study.boundaries, 'study ' + study.name);
    registry[study.name] = study;
    if (globalValue('LAB_MODE') === 'node') return null;
    return runDropIn(study);
  }

  // ---- the Node bridge ----------------------------------------------------------------------
  // Node loads a study's script once (LAB_MODE = 'node') and then calls these functions in the
  // same mongosh runtime: no re-evaluation of the script, no printed text parsed for a number.
  var state = {};

  function study(name) {
    var s = registry[name];
    if (!s)
      throw new Error(
        'no study ' + JSON.stringify(name) + ' was declared (loaded: ' + Object.keys(registry).join(', ') + ')'
      );
    return s;
  }

  function variantOf(s, name) {
    var v = s.variants.filter(function (x) {
      return x.name === name;
    })[0];
    if (!v) throw new Error('study ' + s.name + ' has no variant ' + JSON.stringify(name));
    return v;
  }

  var node = {
    describe: function (name) {
      var s = study(name);
      return JSON.parse(
        JSON.stringify({
          name: s.name,
          title: s.title,
          source: s.source || null,
          baseline: s.baseline,
          warmOnce: !!s.warmOnce,
          boundaries: s.boundaries || [],
          unit: s.unit || 'ms',
          params: Object.assign({}, LabParams.COMMON, s.params || {}),
          variants: s.variants.map(function (v) {
            return { name: v.name, what: v.what || '', minVersion: v.minVersion || null };
          }),
        })
      );
    },
    // values: { NAME: value } from Node; validated by the same rules as globals.
    configure: function (name, values, nodeVariants) {
      var s = study(name);
      s.nodeVariants = nodeVariants || [];
      var v = values || {};
      var known = Object.assign({}, LabParams.COMMON, s.params || {});
      Object.keys(v).forEach(function (k) {
        if (!Object.prototype.hasOwnProperty.call(known, k)) {
          throw LabParams.paramError(
            'parameter ' +
              k +
              ': study ' +
              name +
              ' has no such parameter (known: ' +
              Object.keys(known).join(', ') +
              ')'
          );
        }
      });
      var p = LabParams.params(s.params, function (k) {
        return v[k];
      });
      state[name] = { p: p };
      return JSON.parse(
        JSON.stringify({
          params: p,
          variants: stepsFor(s, p).map(function (x) {
            return x.name;
          }),
        })
      );
    },
    // The axis points, once the fixture and setup are done (they may depend on the data).
    points: function (name) {
      var s = study(name);
      return JSON.parse(JSON.stringify(s.axes ? s.axes(state[name].p) : [{}]));
    },
    // The collections the chosen shell variants write besides the data (the declaration's derived).
    derived: function (name) {
      var s = study(name);
      var p = state[name].p;
      if (!s.derived) return [];
      return s.derived(
        p,
        stepsFor(s, p).map(function (v) {
          return v.name;
        })
      );
    },
    fixture: function (name) {
      return prepareFixture(study(name), state[name].p);
    },
    setup: function (name) {
      var s = study(name);
      if (s.setup) s.setup(state[name].p);
      return true;
    },
    setupPoint: function (name, point) {
      var s = study(name);
      if (s.setupPoint) s.setupPoint(state[name].p, point);
      return true;
    },
    // Which of the named variants can answer at this point (e.g. no per-second rollup exists).
    able: function (name, names, point) {
      var s = study(name);
      return names.filter(function (n) {
        return ableAt(variantOf(s, n), state[name].p, point) === true;
      });
    },
    explain: function (name, variant, point) {
      return explainOf(variantOf(study(name), variant), state[name].p, point);
    },
    sample: function (name, variant, point) {
      var v = variantOf(study(name), variant);
      var p = state[name].p;
      return LabHarness.timeCall(function () {
        return v.run(p, point);
      });
    },
    report: function (name, records) {
      var s = study(name);
      if (s.report) s.report(state[name].p, records);
      return true;
    },
    serverInfo: function () {
      return LabServer.serverInfo(db);
    },
  };

  var api = {
    ensureFixture: ensureFixture,
    mayGenerate: mayGenerate,
    prepareFixture: prepareFixture,
    pointRecords: pointRecords,
    main: main,
    declare: declare,
    node: node,
    registry: registry,
  };
  REEXPORTED.forEach(function (entry) {
    entry[1].split(' ').forEach(function (name) {
      if (entry[0][name] === undefined) throw new Error('lab.js: its part has no ' + name + ' to export');
      api[name] = entry[0][name];
    });
  });
  return api;
})();

// The pure helpers (harness, statistics, records, formatting) are shared with the Node layer.
if (typeof module !== 'undefined' && module.exports) module.exports = lab;
