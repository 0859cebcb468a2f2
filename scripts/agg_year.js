// Every day of 2012 with count / min / max / avg of value: the source's aggregate_year_report.js,
// which it ran to "preload the working set" before re-running the grain scripts.
//
// Usage (from any directory), on any collection of events {created_on: Date, value: number},
// including one the lab did not generate (it reads what is there and never writes):
//   mongosh random path/to/scripts/agg_year.js
//   mongosh "mongodb://host:port/random" --eval 'var COLL = "events"' path/to/scripts/agg_year.js
// Parameters (globals set with --eval before the file; all optional):
//   COLL         events collection                                (default 'randomData')
//   VARIANTS     designs answering, comma-separated: raw, dateTrunc, bucket, timeseries, rollup
//                (default 'raw'; the others need ts_designs.js to have built their collections)
//   PRINT_ROWS   print the 366 rows                               (default true)
//   EMIT_GROUPS  put the 366 rows in the @@LAB record (extra.rows), for the tests (default false)
//   LAB_LINES    true prints the machine-readable @@LAB lines        (default false)
// Days are UTC days; an event at exactly midnight belongs to the day it starts.

load(__dirname + '/ts_base.js');

lab.declare(['COLL', 'VARIANTS', 'PRINT_ROWS', 'EMIT_GROUPS', 'LAB_LINES'], 'agg_year.js');
var yearParams = {
  COLL: lab.param('COLL', 'randomData', 'name'),
  VARIANTS: lab.param('VARIANTS', 'raw', 'names'),
  PRINT_ROWS: lab.param('PRINT_ROWS', true, 'bool'),
  EMIT_GROUPS: lab.param('EMIT_GROUPS', false, 'bool'),
  LAB_LINES: lab.param('LAB_LINES', false, 'bool'),
};
var yearDesigns = TS.chosen(yearParams.VARIANTS);

var yearInfo = lab.header(
  'Time series, every day of 2012 (source 003 aggregate_year_report)',
  db,
  'collection ' + db.getName() + '.' + yearParams.COLL + ' | design ' + yearDesigns.join(', ')
);
yearDesigns.forEach(function (v) {
  if (!TS.available(db, yearParams.COLL, v))
    throw new Error(
      'design ' +
        v +
        ': ' +
        TS.designState(db, yearParams.COLL, v, TS.eventsIdentity(db, yearParams.COLL)).why +
        ': run ts_designs.js first'
    );
});
var yearEvents = db.getCollection(yearParams.COLL).estimatedDocumentCount();
if (yearEvents === 0) print('note: ' + db.getName() + '.' + yearParams.COLL + ' is empty');
TS.emitEnvironment(yearInfo, yearParams, { events: yearEvents });
print('Aggregating from ' + TS.YEAR_FROM.toISOString() + ' to ' + TS.YEAR_TO.toISOString() + ' by UTC day');

yearDesigns.forEach(function (v) {
  var year = TS.aggregate(db, v, yearParams.COLL, TS.YEAR_FROM, TS.YEAR_TO, TS.GRAINS.days, { explain: true });
  if (yearDesigns.length > 1) print('\n' + v + ':');
  if (yearParams.PRINT_ROWS) {
    lab.table(
      [
        { key: 'day', title: 'day (UTC)' },
        { key: 'count', title: 'count', right: true },
        { key: 'min', title: 'min', right: true },
        { key: 'max', title: 'max', right: true },
        { key: 'avg', title: 'avg', right: true },
      ],
      year.rows.map(function (r) {
        return {
          day: r.t.toISOString().slice(0, 10),
          count: lab.fmtInt(r.count),
          min: r.min.toFixed(6),
          max: r.max.toFixed(6),
          avg: r.avg.toFixed(6),
        };
      })
    );
  }
  var yearTotal = year.rows.reduce(function (a, r) {
    return a + r.count;
  }, 0);
  print(
    'Aggregation took: ' +
      lab.fmtMs(year.aggMs) +
      ' | with fetch: ' +
      lab.fmtMs(year.fetchMs) +
      ' | plan ' +
      year.plan.stage +
      ' | explainVersion ' +
      year.plan.explainVersion
  );
  print('Fetched: ' + year.rows.length + ' documents (days) covering ' + lab.fmtInt(yearTotal) + ' events');
  if (yearParams.LAB_LINES) {
    var extra = { fetchMs: year.fetchMs, pass: 'one aggregation of the year (time until its first result)' };
    if (yearParams.EMIT_GROUPS) extra.rows = year.rows;
    lab.emit(
      lab.timesRecord({
        study: 'timeseries',
        variant: v,
        what: TS.WHAT[v],
        axis: { grain: 'days' },
        times: [year.aggMs],
        answer: { days: year.rows.length, events: yearTotal },
        extra: extra,
        plan: year.plan,
      })
    );
  }
});
