// Every day of 2012 with count / min / max / avg of value: the seed's aggregate_year_report.js,
// which it ran to "preload the working set" before re-running the grain scripts.
//
// Usage (from any directory), on any collection of events {created_on: Date, value: number},
// including one the lab did not generate (it reads what is there and never writes):
//   mongosh random path/to/scripts/agg_year.js
//   mongosh "mongodb://host:port/random" --eval 'var COLL = "events"' path/to/scripts/agg_year.js
// Parameters (globals set with --eval before the file; all optional):
//   COLL         events collection                                (default 'randomData')
//   VARIANT      design answering: raw, dateTrunc, bucket, timeseries or rollup (default 'raw';
//                the others need ts_designs.js to have built their collections)
//   PRINT_ROWS   print the 366 rows                               (default true)
//   EMIT_GROUPS  one @@LAB line per day, for the tests            (default false)
// Days are UTC days; an event at exactly midnight belongs to the day it starts.

load(__dirname + '/ts_base.js');

var P = {
  COLL: lab.param('COLL', 'randomData', 'name'),
  VARIANT: lab.param('VARIANT', 'raw', 'name'),
  PRINT_ROWS: lab.param('PRINT_ROWS', true, 'bool'),
  EMIT_GROUPS: lab.param('EMIT_GROUPS', false, 'bool'),
};
if (TS.VARIANTS.indexOf(P.VARIANT) < 0) {
  throw new Error('parameter VARIANT: unknown design ' + JSON.stringify(P.VARIANT) + ' (known: ' + TS.VARIANTS.join(', ') + ')');
}

var yearInfo = lab.header('Time series, every day of 2012 (seed 003 aggregate_year_report)', db,
  'collection ' + db.getName() + '.' + P.COLL + ' | design ' + P.VARIANT);
if (!TS.available(db, P.COLL, P.VARIANT)) {
  throw new Error('design ' + P.VARIANT + ' has no collections next to ' + P.COLL + ': run ts_designs.js first');
}
var yearEvents = db.getCollection(P.COLL).estimatedDocumentCount();
if (yearEvents === 0) print('note: ' + db.getName() + '.' + P.COLL + ' is empty');
print('Aggregating from ' + TS.YEAR_FROM.toISOString() + ' to ' + TS.YEAR_TO.toISOString() + ' by UTC day');

var year = TS.aggregate(db, P.VARIANT, P.COLL, TS.YEAR_FROM, TS.YEAR_TO, TS.GRAINS.days, { explain: true });
if (P.PRINT_ROWS) {
  lab.table([
    { key: 'day', title: 'day (UTC)' },
    { key: 'count', title: 'count', right: true },
    { key: 'min', title: 'min', right: true },
    { key: 'max', title: 'max', right: true },
    { key: 'avg', title: 'avg', right: true },
  ], year.rows.map(function (r) {
    return { day: r.t.toISOString().slice(0, 10), count: lab.fmtInt(r.count), min: r.min.toFixed(6), max: r.max.toFixed(6), avg: r.avg.toFixed(6) };
  }));
}
var yearTotal = year.rows.reduce(function (a, r) { return a + r.count; }, 0);
print('Aggregation took: ' + lab.fmtMs(year.aggMs) + ' | with fetch: ' + lab.fmtMs(year.fetchMs) +
  ' | plan ' + year.plan.stage + ' | explainVersion ' + year.plan.explainVersion);
print('Fetched: ' + year.rows.length + ' documents (days) covering ' + lab.fmtInt(yearTotal) + ' events');

lab.emit({ study: 'timeseries', kind: 'server', version: yearInfo.version, storageEngine: yearInfo.storageEngine,
  queryFramework: yearInfo.queryFramework, cacheBytes: yearInfo.cacheBytes, db: db.getName(), coll: P.COLL, events: yearEvents });
lab.emit({ study: 'timeseries', kind: 'row', table: 'year', grain: 'days', variant: P.VARIANT, days: year.rows.length,
  events: yearTotal, aggMs: year.aggMs, fetchMs: year.fetchMs, stage: year.plan.stage, explainVersion: year.plan.explainVersion });
if (P.EMIT_GROUPS) TS.emitGroups('year', 'days', P.VARIANT, 'year', year.rows);
