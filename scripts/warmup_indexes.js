// Warm-up of the collection's indexes only (touch {data: false, index: true}): with touch where the server still has it (before 4.2), otherwise by
// reading them through the WiredTiger cache (see lib/studies/timeseries/ts-cache.mongosh.js for why). Prints what it did,
// how long it took, and the cache residency of the collection and of each index before and after.
//
// Usage (from any directory):  mongosh random path/to/scripts/warmup_indexes.js
// Parameters: COLL, the collection (default 'randomData'); LAB_LINES true prints the @@LAB lines.

load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/timeseries/ts-cache.mongosh.js');

LabCache.warmupMain('indexes');
