// Per-minute counters kept by upsert + $inc (seed 004: Rick Copeland, "MongoDB Schema Design at
// Scale", 2012), re-run on today's server: one document per (day, metric) with daily, hourly and
// per-minute counts, written hit by hit through a simulated day, for four schemas side by side:
//   initial       documents created and grown by the upserts (the seed's first version)
//   preallocated  tomorrow's document written in full with zeros, with probability 1/2000 per hit
//   hierarchical  minute.HH.MM instead of 1,440 fields on one level (preallocated too)
//   array         minute: [1,440 numbers] (preallocated too)
// The schemas take turns minute by minute (order alternating), so drift on the machine hits all
// alike. Prints writes/s per simulated hour and the ratio of each schema to the preallocated one.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/counters_day.js
//   mongosh "mongodb://host:port/perflab" --eval 'var METRICS = 100, PER_MINUTE = 20' path/to/scripts/counters_day.js
// Parameters (set with --eval before the file; all optional):
//   METRICS     metrics (one document per metric and day)                 (default 100)
//   PER_MINUTE  hits per simulated minute, over all metrics               (default 20)
//   DAYS        simulated days                                            (default 1)
//   EVERY       simulate one minute in EVERY (1 = every minute)           (default 1)
//   SEED        hit stream seed                                           (default 1)
//   SCHEMAS     comma-separated schemas                                   (default all four)
//   PREFIX      collection prefix; collections PREFIX + schema            (default 'counters_shell_')
// The collections are the lab's own (marked in perflab_fixtures) and are re-created on every run;
// a collection of that name the lab did not make is never touched.
// The functions to paste into your own shell are in lib/counters.js (recordHit, preallocate).

load(__dirname + '/lib/lab.js');
load(__dirname + '/lib/counters.js');
load(__dirname + '/lib/counters-gen.js');
load(__dirname + '/lib/counters-sim.js');

var P = {
  METRICS: lab.param('METRICS', 100, 'positive'),
  PER_MINUTE: lab.param('PER_MINUTE', 20, 'positive'),
  DAYS: lab.param('DAYS', 1, 'positive'),
  EVERY: lab.param('EVERY', 1, 'positive'),
  SEED: lab.param('SEED', 1, 'count'),
  SCHEMAS: lab.param('SCHEMAS', COUNTER_SCHEMAS.join(','), 'names'),
  PREFIX: lab.param('PREFIX', 'counters_shell_', 'name'),
};
var schemas = lab.list(P.SCHEMAS);
schemas.forEach(function (s) {
  if (COUNTER_SCHEMAS.indexOf(s) < 0) throw new Error('parameter SCHEMAS: unknown schema ' + JSON.stringify(s) + ' (known: ' + COUNTER_SCHEMAS.join(', ') + ')');
});
if (schemas.length === 0) throw new Error('parameter SCHEMAS: name at least one schema (known: ' + COUNTER_SCHEMAS.join(', ') + ')');
if (P.EVERY > 1440) throw new Error('parameter EVERY: at most 1440 (one minute per day), got ' + P.EVERY);

var info = lab.header('per-minute counters through a simulated day (seed 004)', db,
  P.METRICS + ' metrics, ' + P.PER_MINUTE + ' hits/minute, ' + P.DAYS + ' day(s), every ' + P.EVERY + ' minute(s), seed ' + P.SEED);
lab.emit({ kind: 'server', study: 'counters', version: info.version, storageEngine: info.storageEngine, params: P });

var stream = { seed: P.SEED, metrics: P.METRICS, perMinute: P.PER_MINUTE };
var targets = CounterSim.prepareDay(db, P.PREFIX, schemas, P.METRICS);
var slots = LabCountersGen.slots(P.DAYS, P.EVERY);
var hours = {};   // 'day|hour' -> { schema -> {hits, ms, ratios: []} }

slots.forEach(function (slot, i) {
  var hits = LabCountersGen.minuteHits(stream, slot.day, slot.minute);
  var order = i % 2 === 0 ? targets : targets.slice().reverse();
  var ms = {};
  order.forEach(function (t) { ms[t.schema] = CounterSim.recordSlot(t.coll, t.schema, hits); });
  var key = slot.day + '|' + Math.floor(slot.minute / 60);
  var h = hours[key] || (hours[key] = {});
  schemas.forEach(function (s) {
    var x = h[s] || (h[s] = { hits: 0, ms: 0, ratios: [] });
    x.hits += hits.length;
    x.ms += ms[s];
    if (ms.preallocated) x.ratios.push(ms.preallocated / ms[s]);   // writes/s ratio = inverse time ratio
  });
});

var rows = [];
Object.keys(hours).forEach(function (key) {
  var day = Number(key.split('|')[0]);
  var hour = Number(key.split('|')[1]);
  var row = { when: 'day ' + day + ' ' + counterPad(hour, 2) + ':00' };
  schemas.forEach(function (s) {
    var x = hours[key][s];
    var wps = x.hits / x.ms * 1000;
    var ratio = x.ratios.length ? lab.median(x.ratios) : null;
    row[s] = lab.fmtInt(Math.round(wps)) + (ratio === null || s === 'preallocated' ? '' : ' (' + ratio.toFixed(2) + 'x)');
    lab.emit({ kind: 'day-hour', study: 'counters', schema: s, day: day, hour: hour, hits: x.hits, ms: x.ms, wps: wps, ratioToPreallocated: ratio });
  });
  rows.push(row);
});
print('');
print('writes/s per simulated hour (in brackets: median per-minute ratio to preallocated)');
lab.table([{ key: 'when', title: 'hour' }].concat(schemas.map(function (s) { return { key: s, title: s, right: true }; })), rows);
