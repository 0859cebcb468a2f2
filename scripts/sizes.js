// Sizes of the events collection and what of it is in the WiredTiger cache right now: the source's
// dataSize() / totalIndexSize() / totalSize(), and today's stand-in for its
// serverStatus({workingSet: 1}) estimate, which went away in 3.0 with MMAPv1's page tracking.
// The designs built by ts_designs.js next to the collection are listed too.
//
// Usage (from any directory):  mongosh random path/to/scripts/sizes.js
// Parameters: COLL, the collection (default 'randomData'); LAB_LINES true prints the @@LAB lines.

load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/timeseries/ts-cache.js');

lab.declare(['COLL', 'LAB_LINES'], 'sizes.js');
var SZ = { COLL: lab.param('COLL', 'randomData', 'name'), LAB_LINES: lab.param('LAB_LINES', false, 'bool') };

// One measure record per fact (bytes), per collection and index.
function sizeMeasures(coll, facts, index) {
  if (!SZ.LAB_LINES) return;
  Object.keys(facts).forEach(function (name) {
    if (typeof facts[name] !== 'number') return;
    var axis = { coll: coll };
    if (index) axis.index = index;
    lab.emit(lab.measureRecord({ study: 'timeseries', name: name, axis: axis, value: facts[name], unit: name === 'count' ? 'documents' : 'bytes' }));
  });
}
var sizeInfo = lab.header('Sizes and cache residency (source 003)', db, 'collection ' + db.getName() + '.' + SZ.COLL);
if (db.getCollectionNames().indexOf(SZ.COLL) < 0) throw new Error('no collection ' + db.getName() + '.' + SZ.COLL);

var c = db.getCollection(SZ.COLL);
// The source's three helpers still exist in mongosh (built on $collStats).
print('dataSize() ' + lab.fmtInt(c.dataSize()) + ' | storageSize() ' + lab.fmtInt(c.storageSize()) +
  ' | totalIndexSize() ' + lab.fmtInt(c.totalIndexSize()) + ' | totalSize() ' + lab.fmtInt(c.totalSize()));

var res = LabCache.residency(db, SZ.COLL);
var server = LabCache.serverCache(db);
var sizeRows = [
  { what: 'documents (dataSize, uncompressed)', bytes: res.dataSize, cached: res.cached },
  { what: 'storageSize (compressed on disk)', bytes: res.storageSize, cached: null },
];
Object.keys(res.indexes).forEach(function (name) {
  sizeRows.push({ what: 'index ' + name, bytes: res.indexes[name].size, cached: res.indexes[name].cached });
});
var cachedIdx = Object.keys(res.indexes).reduce(function (a, n) { return a + res.indexes[n].cached; }, 0);
sizeRows.push({ what: 'totalIndexSize', bytes: res.totalIndexSize, cached: cachedIdx });
sizeRows.push({ what: 'totalSize (storage + indexes)', bytes: res.totalSize, cached: res.cached + cachedIdx });
lab.table([
  { key: 'what', title: SZ.COLL },
  { key: 'bytes', title: 'bytes', right: true },
  { key: 'human', title: 'size', right: true },
  { key: 'cached', title: 'in cache now', right: true },
], sizeRows.map(function (r) {
  return { what: r.what, bytes: lab.fmtInt(r.bytes), human: LabCache.fmtBytes(r.bytes),
    cached: r.cached === null ? '' : LabCache.fmtBytes(r.cached) };
}));
print('indexSizes ' + JSON.stringify(c.stats().indexSizes));
print('(the cache holds pages uncompressed, with their in-memory overhead: a fully cached collection takes more than its dataSize)');
print('WiredTiger cache: ' + LabCache.fmtBytes(server.used) + ' used of ' + LabCache.fmtBytes(server.max) +
  ' | this collection and its indexes hold ' + LabCache.fmtBytes(res.cached + cachedIdx) +
  ' (the source estimated its working set with serverStatus({workingSet: 1}), gone since 3.0)');
if (res.count > 0 && res.storageSize < res.dataSize / 20) {
  print('note: storageSize is far below dataSize: on-disk sizes are as of the last checkpoint (every 60 s); run again in a minute for the compressed size');
}
var fits = res.dataSize + res.totalIndexSize <= server.max;
print('documents + indexes ' + (fits ? 'fit in' : 'do NOT fit in') + ' the cache (' +
  LabCache.fmtBytes(res.dataSize + res.totalIndexSize) + ' vs ' + LabCache.fmtBytes(server.max) + ')');

if (SZ.LAB_LINES) lab.emit({ type: 'environment', study: 'timeseries', server: sizeInfo, params: SZ });
sizeMeasures(SZ.COLL, { count: res.count, dataSize: res.dataSize, storageSize: res.storageSize, totalIndexSize: res.totalIndexSize,
  totalSize: res.totalSize, cached: res.cached, serverCacheMax: server.max, serverCacheUsed: server.used });
Object.keys(res.indexes).forEach(function (n) { sizeMeasures(SZ.COLL, { indexSize: res.indexes[n].size, cached: res.indexes[n].cached }, n); });

// Designs next to the events (ts_designs.js), if any.
var others = db.getCollectionNames().filter(function (n) {
  return n.indexOf(SZ.COLL + '_') === 0 && n.indexOf('system.') !== 0;
});
if (others.length) {
  print('');
  lab.table([
    { key: 'coll', title: 'design collection' },
    { key: 'count', title: 'documents', right: true },
    { key: 'storage', title: 'storage', right: true },
    { key: 'index', title: 'indexes', right: true },
    { key: 'total', title: 'total', right: true },
    { key: 'cached', title: 'in cache now', right: true },
  ], others.map(function (n) {
    var r = LabCache.residency(db, n);
    var ci = Object.keys(r.indexes).reduce(function (a, k) { return a + r.indexes[k].cached; }, 0);
    sizeMeasures(n, { count: r.count, dataSize: r.dataSize, storageSize: r.storageSize, totalIndexSize: r.totalIndexSize, totalSize: r.totalSize, cached: r.cached + ci });
    return { coll: n, count: lab.fmtInt(r.count || 0), storage: LabCache.fmtBytes(r.storageSize), index: LabCache.fmtBytes(r.totalIndexSize),
      total: LabCache.fmtBytes(r.totalSize), cached: LabCache.fmtBytes(r.cached + ci) };
  }));
}
