// Time series (source 003, Vlad Mihalcea, "A beginner's guide to MongoDB performance turbocharging")
// with today's designs: the same questions answered by the source's raw events, a $dateTrunc key,
// per-minute buckets, a time-series collection and $merge-kept rollups. The study "timeseries":
// builds the designs that are missing from the events, then times every design at every grain
// through the lab's harness (interleaved rounds, ratios to raw), checks that they return the same
// rows, and lists what each design takes on disk.
//
// Usage (from any directory):
//   mongosh random path/to/scripts/ts_designs.js
//   mongosh random --eval 'var RUNS = 5, GRAINS = "minutes,days"' path/to/scripts/ts_designs.js
// Parameters (globals set with --eval before the file; all optional):
//   COLL, N, SEED  events collection and, when it is empty, what to generate (see ts_base.js)
//   ID             the generated events' _id: int (default) or objectId (the source's writer)
//   VARIANTS       designs to compare, comma-separated (default: all; raw is the baseline)
//   GRAINS         seconds, minutes, hours, days (the year by day)         (default all four)
//   RUNS, WARMUP   timed rounds after the warm-up rounds, order alternating (default 3, 1)
//   REBUILD        rebuild the designs even when they exist               (default false)
//                  (a design is rebuilt anyway when its lab marker names other events than these:
//                  another N, SEED or ID regenerated them; see TS.designState in ts_base.js)
//   BUILD_ONLY     build the designs and stop                              (default false)
//   LAB_LINES      true prints the machine-readable @@LAB lines
//   GENERATE       true lets it generate into a COLL you named that does not exist (a typo is refused)
//   KEEP           true keeps, in a database the lab did not make, the events and designs it made
//                  there (default: dropped at the end; what is left is named with the command to remove it)
// Times are per interval: the mean over the five start times T1..T5 (one aggregation for the year).

load(__dirname + '/ts_base.js');
load(__dirname + '/../lib/studies/timeseries/ts-cache.mongosh.js');

// The intervals a grain asks about: the source's five start times, or the whole year by day.
function tsIntervals(grain) {
  if (!grain.width) return [{ from: TS.YEAR_FROM, to: TS.YEAR_TO }];
  return TS.START_TIMES.map(function (s) {
    return TS.calibrate(s, grain.width);
  });
}

function tsDesign(name, minVersion) {
  return {
    name: name,
    what: TS.WHAT[name],
    minVersion: minVersion,
    able: function (p, point) {
      return TS.query(name, p.COLL, TS.YEAR_FROM, TS.YEAR_TO, TS.GRAINS[point.grain]) !== null;
    },
    // The answer is every interval's rows in T order; the time is per interval.
    run: function (p, point) {
      var grain = TS.GRAINS[point.grain];
      var ivs = tsIntervals(grain);
      var rows = [];
      var ms = 0;
      ivs.forEach(function (iv) {
        var q = TS.query(name, p.COLL, iv.from, iv.to, grain);
        var t0 = lab.now();
        var out = db.getCollection(q.coll).aggregate(q.pipeline).toArray();
        ms += lab.now() - t0;
        rows = rows.concat(out);
      });
      return lab.took(
        ms / ivs.length,
        rows,
        { intervals: ivs.length, per: ivs.length > 1 ? 'interval (mean of T1..T5)' : 'year' },
        ms
      );
    },
    explain: function (p, point) {
      var grain = TS.GRAINS[point.grain];
      var iv = tsIntervals(grain)[0];
      var q = TS.query(name, p.COLL, iv.from, iv.to, grain);
      return db.getCollection(q.coll).explain('queryPlanner').aggregate(q.pipeline);
    },
  };
}

// The grains asked for, validated (before anything is built).
function tsGrains(p) {
  TS.idTypeParam(p.ID);
  var grains = lab.list(p.GRAINS);
  grains.forEach(function (g) {
    if (!TS.GRAINS[g])
      throw lab.paramError(
        'parameter GRAINS: unknown grain ' + JSON.stringify(g) + ' (known: seconds, minutes, hours, days)'
      );
  });
  TS.chosen(p.VARIANTS);
  return grains;
}

// What builds each derived design from the events; raw and dateTrunc read the events themselves.
var TS_BUILDERS = {
  bucket: {
    what: 'one $group + $merge per span of ~500,000 events into per-minute buckets',
    run: function (p) {
      TS.buildBuckets(db, p.COLL);
    },
  },
  timeseries: {
    what: 'copying the events, in time order, into a time-series collection',
    run: function (p) {
      TS.buildTimeseries(db, p.COLL);
    },
  },
  rollup: {
    what: 'one $group over the events in record order + $merge into per-minute, then per-hour rollups',
    // When this run has just built the buckets from the same events, the rollups come from them.
    fromBuckets: 'the buckets just built, without their events, then $group + $merge per hour',
    run: function (p) {
      if (tsDesigns.builds.bucket !== undefined) TS.rollupsFromBuckets(db, p.COLL);
      else TS.refreshRollups(db, p.COLL);
    },
  },
};

// Functions Node calls in the session that loaded this file (lib/studies/timeseries/index.js).
var tsDesigns = {
  builds: {},
  events: 0,

  // Makes sure the events are there (indexed) and builds the chosen designs that are missing, or
  // were built from other events than these (their markers name the events: TS.designState).
  prepare: function (p) {
    var f = TS.ensureEvents(db, p.COLL, p.N, p.SEED, lab.mayGenerate(p, p.COLL, STUDY.params), p.ID);
    tsDesigns.events = f.count;
    var events = TS.eventsIdentity(db, p.COLL);
    // In TS.VARIANTS order whatever order VARIANTS names them: the buckets before the rollups.
    var chosen = TS.chosen(p.VARIANTS);
    TS.VARIANTS.filter(function (v) {
      return chosen.indexOf(v) >= 0;
    }).forEach(function (v) {
      var b = TS_BUILDERS[v];
      if (!b || !tsDesigns.rebuilds(p, v, events)) return;
      var how = b.fromBuckets && tsDesigns.builds.bucket !== undefined ? b.fromBuckets : b.what;
      print('building design ' + v + ' from ' + lab.fmtInt(f.count) + ' events: ' + how + ' ...');
      var t0 = lab.now();
      b.run(p);
      tsDesigns.builds[v] = lab.now() - t0;
      print('built ' + v + ' in ' + lab.fmtMs(tsDesigns.builds[v]));
    });
    return f;
  },

  // Whether design v is built (again) for the events `events` (TS.eventsIdentity), and why, in one
  // line. Reused only when built to the end from these very events, which must be the lab's: from
  // events the lab did not make it is rebuilt every run, since the lab cannot prove they are the
  // same as when it built it (a count and a UUID survive an update). A foreign collection under the
  // design's name is left to the builder's claim, which refuses it.
  rebuilds: function (p, v, events) {
    var st = TS.designState(db, p.COLL, v, events);
    if (p.REBUILD || st.state === 'missing' || st.state === 'foreign') return true;
    if (st.state === 'stale') print('note: design ' + v + ': ' + st.why + ': rebuilding');
    else if (!events.own)
      print('note: design ' + v + ': built from events the lab did not make, which it cannot vouch for: rebuilding');
    else return false;
    return true;
  },

  // What each chosen design takes on disk, and how long its build took (if this run built it).
  storage: function (p) {
    return TS.chosen(p.VARIANTS)
      .filter(function (v) {
        return TS.available(db, p.COLL, v);
      })
      .map(function (v) {
        return Object.assign(
          { variant: v, buildMs: tsDesigns.builds[v] === undefined ? null : tsDesigns.builds[v] },
          TS.storage(db, p.COLL, v)
        );
      });
  },

  storageLines: function (sizes) {
    return lab.tableLines(
      [
        { key: 'v', title: 'design' },
        { key: 'colls', title: 'collections' },
        { key: 'docs', title: 'documents', right: true },
        { key: 'data', title: 'data (uncompressed)', right: true },
        { key: 'storage', title: 'storage', right: true },
        { key: 'index', title: 'indexes', right: true },
        { key: 'total', title: 'total on disk', right: true },
        { key: 'build', title: 'built in', right: true },
      ],
      sizes.map(function (s) {
        return {
          v: s.variant,
          colls: s.colls.join(', '),
          docs: lab.fmtInt(s.docs),
          data: TS.fmtBytes(s.dataSize),
          storage: TS.fmtBytes(s.storageSize),
          index: TS.fmtBytes(s.indexSize),
          total: TS.fmtBytes(s.totalSize),
          build: s.buildMs === null ? '(existed)' : lab.fmtMs(s.buildMs),
        };
      }),
      100
    );
  },

  // The source's pass over T1..T5 with the raw design, once, between two readings of what the
  // collection and each index hold in the WiredTiger cache: the state the pass really ran in (the
  // Node side repeats the passes and keeps every one).
  pass: function (p, grainName, axis) {
    var before = LabCache.residency(db, p.COLL);
    var res = TS.runStartTimes(db, 'raw', p.COLL, TS.GRAINS[grainName], {});
    var after = LabCache.residency(db, p.COLL);
    var rec = TS.passRecord(res, { axis: axis });
    var rows = [];
    res.runs.forEach(function (r) {
      rows = rows.concat(r.rows);
    });
    return { record: rec, rows: rows, before: before, after: after };
  },

  // A state's warm-up: the three warm-up scripts' work, or the source's year aggregation.
  warm: function (p, mode) {
    var before = LabCache.residency(db, p.COLL);
    var t0 = lab.now();
    var out = { mode: mode };
    if (mode === 'year') {
      var y = TS.aggregate(db, 'raw', p.COLL, TS.YEAR_FROM, TS.YEAR_TO, TS.GRAINS.days, {});
      out.method = 'agg_year.js (raw, every day of 2012)';
      out.days = y.rows.length;
    } else {
      var w = LabCache.warm(db, p.COLL, mode);
      out.method = w.method === 'touch' ? 'touch' : 'scan (touch: ' + w.touch.error + ')';
      out.steps = w.steps;
    }
    out.ms = lab.now() - t0;
    out.before = before;
    out.after = LabCache.residency(db, p.COLL);
    return out;
  },
};

var STUDY = {
  name: 'timeseries',
  title: 'Time series: raw events vs $dateTrunc, buckets, a time-series collection and rollups',
  source: {
    id: '003',
    author: 'Vlad Mihalcea',
    title: "A beginner's guide to MongoDB performance turbocharging",
    year: 2013,
    url: 'https://vladmihalcea.com/a-beginners-guide-to-mongodb-performance-turbocharging/',
  },
  params: {
    COLL: { kind: 'name', def: 'randomData', what: "events collection (the source's name)" },
    N: {
      kind: 'count',
      def: 1000000,
      what: 'events to generate when the collection is empty (the source had 50,000,000)',
    },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    ID: {
      kind: 'name',
      def: 'int',
      what: "the generated events' _id: int (the lab's) or objectId (the source's writer, 003-bytes)",
    },
    GRAINS: {
      kind: 'names',
      def: 'seconds,minutes,hours,days',
      what: 'grains: seconds, minutes, hours (in a minute, hour, day), days (the year)',
    },
    RUNS: { kind: 'count', def: 3, what: 'timed rounds after the warm-up' },
    STATES: {
      kind: 'names',
      def: '',
      what: 'Node side: cold and warm states to run after the designs (default or all: the six)',
    },
    PASSES: {
      kind: 'count',
      def: 3,
      what: 'Node side: passes over T1..T5 per state, the states interleaved (the interval is over passes)',
    },
    STATES_CACHE: {
      kind: 'name',
      def: 'default',
      what: "Node side: the states' cache: default, or source (data + indexes fill it as the source's 8 GB)",
    },
    RAM_MB: {
      kind: 'count',
      def: 0,
      what: 'Node side: the embedded mongod and its file cache in a memory cgroup of this many MB (Linux, root; 0: none)',
    },
    REBUILD: { kind: 'bool', def: false, what: 'rebuild the designs even when they exist' },
    BUILD_ONLY: { kind: 'bool', def: false, what: 'build the designs and stop' },
  },
  axes: function (p) {
    var grains = tsGrains(p);
    return p.BUILD_ONLY
      ? []
      : grains.map(function (g) {
          return { grain: g };
        });
  },
  // The collections the chosen designs are built into (raw and dateTrunc read the events).
  derived: function (p, chosen) {
    var n = TS.names(p.COLL);
    var of = { bucket: [n.bucket], timeseries: [n.timeseries], rollup: [n.rollupMinute, n.rollupHour] };
    return chosen.reduce(function (all, v) {
      return all.concat(of[v] || []);
    }, []);
  },
  baseline: 'raw',
  unit: 'ms',
  variants: [
    tsDesign('raw', '3.2'),
    tsDesign('dateTrunc', '5.0'),
    tsDesign('bucket', '3.2'),
    tsDesign('timeseries', '5.0'),
    tsDesign('rollup', '4.2'),
  ],
  same: function (a, b) {
    return TS.sameRows(a, b);
  },
  setup: function (p) {
    tsGrains(p);
    tsDesigns.prepare(p);
  },
  // Drop-in mode: storage per design after the tables (Node prints it from its `after` hook).
  report: function (p) {
    var sizes = tsDesigns.storage(p);
    print('');
    print('storage per design (' + lab.fmtInt(tsDesigns.events) + ' events):');
    tsDesigns.storageLines(sizes).forEach(function (l) {
      print(l);
    });
    if (p.LAB_LINES) {
      // The writer, read from the data (003-bytes judges only the source's ObjectId _ids).
      lab.emit(
        lab.measureRecord({
          study: 'timeseries',
          name: 'idType',
          value: TS.idType(db, p.COLL),
          unit: 'type',
          what: "the BSON type of the events' _id, read from the data",
        })
      );
      sizes.forEach(function (s) {
        lab.emit(
          lab.measureRecord({
            study: 'timeseries',
            name: 'totalSize',
            variant: s.variant,
            value: s.totalSize,
            unit: 'bytes',
            what: 'storage + indexes on disk of ' + s.colls.join(', '),
          })
        );
      });
    }
  },
};

lab.main(STUDY);
