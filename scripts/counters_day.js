// Per-minute counters kept by upsert + $inc (source 004: Rick Copeland, "MongoDB Schema Design at
// Scale", 2012), re-run on today's server: one document per (day, metric) with daily, hourly and
// per-minute counts, written hit by hit through a simulated day, four schemas side by side:
//   initial       documents created and grown by the upserts (the source's first version)
//   preallocated  tomorrow's document written in full with zeros, with probability 1/2000 per hit
//   hierarchical  minute.HH.MM instead of 1,440 fields on one level (preallocated too)
//   array         minute: [1,440 numbers] (from the source's comments; preallocated too)
// Each axis point is one simulated hour. In every round each schema records the same simulated
// minute's hits (order alternating round by round), so drift on the machine hits all alike; the
// ratio to the preallocated schema is per round, i.e. per simulated minute.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/counters_day.js
//   mongosh "mongodb://host:port/perflab" --eval 'var METRICS = 100, PER_MINUTE = 50' path/to/scripts/counters_day.js
// Parameters (set with --eval before the file; all optional):
//   METRICS     metrics (one document per metric and day)                     (default 100)
//   PER_MINUTE  hits per simulated minute, over all metrics                   (default 20)
//   DAYS        simulated days                                                (default 1)
//   SEED        hit stream seed                                               (default 1)
//   PREFIX      collection prefix; collections PREFIX + schema                (default 'counters_')
//   RUNS        simulated minutes per hour, timed (60 = every minute; with 2 or more the last is :59)
//                                                                             (default 60)
//   WARMUP      of those, untimed minutes at the start of each hour          (default 0)
//   VARIANTS    comma-separated schemas to run                                (default: all four)
//   LAB_LINES   true prints the machine-readable @@LAB lines
//   WRITERS, WC, SWEEP, REPLSET, SCAN, SCAN_ROUNDS, SCAN_PAIRS, IDREGEX, WASH, WASH_PER_HOUR, PG_SIZE, SIZE_DAYS are read by the Node
//   side only (mongo-perf-lab run counters).
// The collections are the lab's own (marked in perflab_fixtures) and are re-created on every run;
// a collection of that name the lab did not make is never touched.
// The functions to paste into your own shell are in scripts/counters_functions.js (recordHit, preallocate).

load(__dirname + '/lib/lab.js');
load(__dirname + '/counters_functions.js');
load(__dirname + '/../fixtures/counters-gen.js');
load(__dirname + '/../lib/studies/counters/sim.mongosh.js');

// Which minute of the hour the k-th run at an hour records: RUNS + WARMUP minutes spread over the
// hour, the last always minute 59 (so 23:59:59.999 is among them).
function countersMinuteOfHour(p, k) {
  var n = p.RUNS + p.WARMUP;
  if (n > 1 && k === n - 1) return 59;
  return Math.floor((k * 60) / n);
}

function countersStream(p) {
  return { seed: p.SEED, metrics: p.METRICS, perMinute: p.PER_MINUTE };
}

// The chosen schemas: VARIANTS when it names any of the four, else all four.
function countersChosen(p) {
  var only = lab.list(p.VARIANTS).filter(function (n) {
    return COUNTER_SCHEMAS.indexOf(n) >= 0;
  });
  return lab.list(p.VARIANTS).length ? only : COUNTER_SCHEMAS.slice();
}

// What the schema holds for one simulated hour, summed over metrics: the hour's count and the
// count of each of its 60 minutes. Read untimed, on the hour's last run.
function countersHourAnswer(coll, schema, point) {
  var day = new Date(LabCountersGen.START + point.day * LabCountersGen.DAY_MS);
  var hh = counterPad(point.hour, 2);
  var out = { hits: 0, minutes: [] };
  for (var m = 0; m < 60; m++) out.minutes.push(0);
  coll.find({ 'metadata.date': day }, { hourly: 1, minute: 1 }).forEach(function (d) {
    out.hits += Number((d.hourly || {})[hh] || 0);
    for (var i = 0; i < 60; i++) {
      var v =
        schema === 'array'
          ? (d.minute || [])[point.hour * 60 + i]
          : schema === 'hierarchical'
            ? ((d.minute || {})[hh] || {})[counterPad(i, 2)]
            : (d.minute || {})[counterPad(point.hour * 60 + i, 4)];
      out.minutes[i] += Number(v || 0);
    }
  });
  return out;
}

var countersRun = { colls: {}, cursor: {} };

function countersVariant(schema, what) {
  return {
    name: schema,
    what: what,
    minVersion: '3.2',
    run: function (p, point) {
      var key = point.day + '|' + point.hour;
      var cur = countersRun.cursor[schema] || (countersRun.cursor[schema] = {});
      var k = cur[key] || 0;
      cur[key] = k + 1;
      var n = p.RUNS + p.WARMUP;
      if (k >= n) throw new Error('counters: hour ' + key + ' ran more than RUNS + WARMUP = ' + n + ' times');
      var minute = point.hour * 60 + countersMinuteOfHour(p, k);
      var hits = LabCountersGen.minuteHits(countersStream(p), point.day, minute);
      var coll = countersRun.colls[schema];
      var ms = LabCounterSim.recordSlot(coll, schema, hits);
      var answer = k === n - 1 ? countersHourAnswer(coll, schema, point) : { hits: hits.length };
      return lab.took(ms, answer, { hitsPerMinute: hits.length, minute: minute });
    },
  };
}

var STUDY = {
  name: 'counters',
  title: 'per-minute counters with upsert $inc through a simulated day: growing, preallocated, hierarchical, array',
  source: { id: '004', author: 'Rick Copeland', title: 'MongoDB Schema Design at Scale', year: 2012 },
  params: {
    METRICS: { kind: 'positive', def: 100, what: 'metrics (one document per metric and day)' },
    PER_MINUTE: { kind: 'positive', def: 20, what: 'hits per simulated minute, over all metrics' },
    DAYS: { kind: 'positive', def: 1, what: 'simulated days' },
    SEED: { kind: 'count', def: 1, what: 'hit stream seed' },
    PREFIX: { kind: 'name', def: 'counters_', what: 'collection prefix (collections PREFIX + schema)' },
    RUNS: { kind: 'count', def: 60, what: 'simulated minutes per hour, timed (60: every minute)' },
    WARMUP: { kind: 'count', def: 0, what: 'of the simulated minutes per hour, untimed ones first' },
    WRITERS: { kind: 'positive', def: 1, what: 'Node side: concurrent writers (own connections)' },
    WC: { kind: 'name', def: 'w1', what: 'Node side: write concern of the writers (w1, w0, majority)' },
    SWEEP: { kind: 'bool', def: false, what: 'Node side: also writers 1/4/16 x w:1/w:0 on a thinned day' },
    REPLSET: { kind: 'bool', def: false, what: 'Node side: also w:1 vs w:"majority" on a 3-member replica set' },
    SCAN: { kind: 'bool', def: true, what: 'Node side: also minute 0 vs 1439 (bulk, single, updateMany)' },
    SCAN_ROUNDS: {
      kind: 'positive',
      def: 9,
      what: 'Node side: timed rounds of minute 0 vs 1439 per layout and way of sending',
    },
    SCAN_PAIRS: {
      kind: 'names',
      def: '',
      what: 'Node side: layout-mode pairs of minute 0 vs 1439, e.g. flat-bulk,flat-single (default: all 9)',
    },
    IDREGEX: {
      kind: 'bool',
      def: true,
      what: 'Node side: also a day read by an _id prefix regex vs an indexed metadata.date',
    },
    WASH: {
      kind: 'bool',
      def: true,
      what: 'Node side: also one collection vs one collection per metric, the same minutes',
    },
    WASH_PER_HOUR: {
      kind: 'positive',
      def: 1,
      what: 'Node side: simulated minutes per hour of that comparison (24 x this rounds)',
    },
    PG_SIZE: {
      kind: 'bool',
      def: true,
      what: 'Node side: also bytes per metric-day in MongoDB vs PostgreSQL (the embedded peer)',
    },
    SIZE_DAYS: {
      kind: 'positive',
      def: 2000,
      what: 'Node side: metric-days of counts for the MongoDB vs PostgreSQL sizes',
    },
  },
  axes: function (p) {
    var out = [];
    for (var d = 0; d < p.DAYS; d++) for (var h = 0; h < 24; h++) out.push({ day: d, hour: h });
    return out;
  },
  // One collection per chosen schema, re-created on every run.
  derived: function (p) {
    return countersChosen(p).map(function (s) {
      return p.PREFIX + s;
    });
  },
  baseline: 'preallocated',
  unit: 'ms',
  setup: function (p) {
    if (p.RUNS + p.WARMUP < 1 || p.RUNS + p.WARMUP > 60) {
      throw lab.paramError(
        'parameter RUNS: RUNS + WARMUP are the simulated minutes per hour: 1..60, got ' + (p.RUNS + p.WARMUP)
      );
    }
    if (['w1', 'w0', 'majority'].indexOf(p.WC) < 0)
      throw lab.paramError('parameter WC: expected w1, w0 or majority, got ' + JSON.stringify(p.WC));
    countersRun = { colls: {}, cursor: {} };
    LabCounterSim.prepareDay(db, p.PREFIX, countersChosen(p), p.METRICS).forEach(function (t) {
      countersRun.colls[t.schema] = t.coll;
    });
  },
  variants: [
    countersVariant('preallocated', 'flat minute.MMMM, preallocated (p = 1/2000 per hit, tomorrow)'),
    countersVariant('initial', 'flat minute.MMMM, grown by the upserts'),
    countersVariant('hierarchical', 'minute.HH.MM, preallocated'),
    countersVariant('array', 'minute: [1440], preallocated'),
  ],
  // The day at a glance: writes/s per simulated hour, and the median per-minute ratio to preallocated.
  report: function (p, records) {
    var ran = records.filter(function (r) {
      return r.type === 'result' && !r.skipped;
    });
    var names = [];
    ran.forEach(function (r) {
      if (names.indexOf(r.variant) < 0) names.push(r.variant);
    });
    var rows = [];
    var byHour = {};
    ran.forEach(function (r) {
      var key = r.axis.day + '|' + r.axis.hour;
      if (!byHour[key]) {
        byHour[key] = { when: 'day ' + r.axis.day + ' ' + counterPad(r.axis.hour, 2) + ':00' };
        rows.push(byHour[key]);
      }
      var hits = r.extra ? r.extra.hitsPerMinute : p.PER_MINUTE;
      var wps = (hits / r.median) * 1000;
      var ratio = r.ratio && r.ratio.to !== r.variant ? ' (' + (1 / r.ratio.median).toFixed(2) + 'x)' : '';
      byHour[key][r.variant] = lab.fmtInt(Math.round(wps)) + ratio;
    });
    print('');
    print(
      'writes/s per simulated hour, median of its minutes (in brackets: writes/s ratio to preallocated, median of the per-minute ratios)'
    );
    lab.table(
      [{ key: 'when', title: 'hour' }].concat(
        names.map(function (s) {
          return { key: s, title: s, right: true };
        })
      ),
      rows
    );
  },
};

lab.main(STUDY);
