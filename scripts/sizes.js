// Sizes of the events collection and what of it is in the WiredTiger cache right now: the source's
// dataSize() / totalIndexSize() / totalSize(), and today's stand-in for its
// serverStatus({workingSet: 1}) estimate, which went away in 3.0 with MMAPv1's page tracking.
// The designs built by ts_designs.js next to the collection are listed too.
//
// Usage (from any directory):  mongosh random path/to/scripts/sizes.js
// Parameters: COLL, the collection (default 'randomData'); LAB_LINES true prints the @@LAB lines.

load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/timeseries/ts-cache.mongosh.js');

lab.declare(['COLL', 'LAB_LINES'], 'sizes.js');
var sizeParams = { COLL: lab.param('COLL', 'randomData', 'name'), LAB_LINES: lab.param('LAB_LINES', false, 'bool') };

// One measure record per fact (bytes), per collection and index.
function sizeMeasures(coll, facts, index) {
  if (!sizeParams.LAB_LINES) return;
  Object.keys(facts).forEach(function (name) {
    if (typeof facts[name] !== 'number') return;
    var axis = { coll: coll };
    if (index) axis.index = index;
    lab.emit(
      lab.measureRecord({
        study: 'timeseries',
        name: name,
        axis: axis,
        value: facts[name],
        unit: name === 'count' ? 'documents' : 'bytes',
      })
    );
  });
}
var sizeInfo = lab.header(
  'Sizes and cache residency (source 003)',
  db,
  'collection ' + db.getName() + '.' + sizeParams.COLL
);
if (db.getCollectionNames().indexOf(sizeParams.COLL) < 0)
  throw new Error('no collection ' + db.getName() + '.' + sizeParams.COLL);

var sizeColl = db.getCollection(sizeParams.COLL);
// The source's three helpers still exist in mongosh (built on $collStats).
print(
  'dataSize() ' +
    lab.fmtInt(sizeColl.dataSize()) +
    ' | storageSize() ' +
    lab.fmtInt(sizeColl.storageSize()) +
    ' | totalIndexSize() ' +
    lab.fmtInt(sizeColl.totalIndexSize()) +
    ' | totalSize() ' +
    lab.fmtInt(sizeColl.totalSize())
);

var sizeRes = LabCache.residency(db, sizeParams.COLL);
var sizeServer = LabCache.serverCache(db);
var sizeRows = [
  { what: 'documents (dataSize, uncompressed)', bytes: sizeRes.dataSize, cached: sizeRes.cached },
  { what: 'storageSize (compressed on disk)', bytes: sizeRes.storageSize, cached: null },
];
Object.keys(sizeRes.indexes).forEach(function (name) {
  sizeRows.push({ what: 'index ' + name, bytes: sizeRes.indexes[name].size, cached: sizeRes.indexes[name].cached });
});
var sizeCachedIdx = Object.keys(sizeRes.indexes).reduce(function (a, n) {
  return a + sizeRes.indexes[n].cached;
}, 0);
sizeRows.push({ what: 'totalIndexSize', bytes: sizeRes.totalIndexSize, cached: sizeCachedIdx });
sizeRows.push({
  what: 'totalSize (storage + indexes)',
  bytes: sizeRes.totalSize,
  cached: sizeRes.cached + sizeCachedIdx,
});
lab.table(
  [
    { key: 'what', title: sizeParams.COLL },
    { key: 'bytes', title: 'bytes', right: true },
    { key: 'human', title: 'size', right: true },
    { key: 'cached', title: 'in cache now', right: true },
  ],
  sizeRows.map(function (r) {
    return {
      what: r.what,
      bytes: lab.fmtInt(r.bytes),
      human: LabCache.fmtBytes(r.bytes),
      cached: r.cached === null ? '' : LabCache.fmtBytes(r.cached),
    };
  })
);
print('indexSizes ' + JSON.stringify(sizeColl.stats().indexSizes));
print(
  '(the cache holds pages uncompressed, with their in-memory overhead: a fully cached collection takes more than its dataSize)'
);
print(
  'WiredTiger cache: ' +
    LabCache.fmtBytes(sizeServer.used) +
    ' used of ' +
    LabCache.fmtBytes(sizeServer.max) +
    ' | this collection and its indexes hold ' +
    LabCache.fmtBytes(sizeRes.cached + sizeCachedIdx) +
    ' (the source estimated its working set with serverStatus({workingSet: 1}), gone since 3.0)'
);
if (sizeRes.count > 0 && sizeRes.storageSize < sizeRes.dataSize / 20) {
  print(
    'note: storageSize is far below dataSize: on-disk sizes are as of the last checkpoint (every 60 s); run again in a minute for the compressed size'
  );
}
var sizeFits = sizeRes.dataSize + sizeRes.totalIndexSize <= sizeServer.max;
print(
  'documents + indexes ' +
    (sizeFits ? 'fit in' : 'do NOT fit in') +
    ' the cache (' +
    LabCache.fmtBytes(sizeRes.dataSize + sizeRes.totalIndexSize) +
    ' vs ' +
    LabCache.fmtBytes(sizeServer.max) +
    ')'
);

if (sizeParams.LAB_LINES) lab.emit({ type: 'environment', study: 'timeseries', server: sizeInfo, params: sizeParams });
sizeMeasures(sizeParams.COLL, {
  count: sizeRes.count,
  dataSize: sizeRes.dataSize,
  storageSize: sizeRes.storageSize,
  totalIndexSize: sizeRes.totalIndexSize,
  totalSize: sizeRes.totalSize,
  cached: sizeRes.cached,
  serverCacheMax: sizeServer.max,
  serverCacheUsed: sizeServer.used,
});
Object.keys(sizeRes.indexes).forEach(function (n) {
  sizeMeasures(sizeParams.COLL, { indexSize: sizeRes.indexes[n].size, cached: sizeRes.indexes[n].cached }, n);
});

// Designs next to the events (ts_designs.js), if any.
var sizeOthers = db.getCollectionNames().filter(function (n) {
  return n.indexOf(sizeParams.COLL + '_') === 0 && n.indexOf('system.') !== 0;
});
if (sizeOthers.length) {
  print('');
  lab.table(
    [
      { key: 'coll', title: 'design collection' },
      { key: 'count', title: 'documents', right: true },
      { key: 'storage', title: 'storage', right: true },
      { key: 'index', title: 'indexes', right: true },
      { key: 'total', title: 'total', right: true },
      { key: 'cached', title: 'in cache now', right: true },
    ],
    sizeOthers.map(function (n) {
      var r = LabCache.residency(db, n);
      var ci = Object.keys(r.indexes).reduce(function (a, k) {
        return a + r.indexes[k].cached;
      }, 0);
      sizeMeasures(n, {
        count: r.count,
        dataSize: r.dataSize,
        storageSize: r.storageSize,
        totalIndexSize: r.totalIndexSize,
        totalSize: r.totalSize,
        cached: r.cached + ci,
      });
      return {
        coll: n,
        count: lab.fmtInt(r.count || 0),
        storage: LabCache.fmtBytes(r.storageSize),
        index: LabCache.fmtBytes(r.totalIndexSize),
        total: LabCache.fmtBytes(r.totalSize),
        cached: LabCache.fmtBytes(r.cached + ci),
      };
    })
  );
}
