// Time series (source 003): count / min / max / avg of value for the hours in a day, over the source's five
// start times T1..T5, printed as the source's table with the average, the aggregation time and the
// aggregation-plus-fetch time.
//
// Usage (from any directory):
//   mongosh random path/to/scripts/ts_hours_in_day.js
//   mongosh random --eval 'var VARIANTS = "all", PRINT_ROWS = true' path/to/scripts/ts_hours_in_day.js
// Parameters: COLL, N, SEED, VARIANTS, PRINT_ROWS, EMIT_GROUPS, LAB_LINES (see ts_base.js). Run it right after
// a restart for the source's cold numbers, or after warmup_*.js / agg_year.js for the warm ones.

load(__dirname + '/ts_base.js');

TS.grainMain('hours');
