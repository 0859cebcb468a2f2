// What a collection takes on disk and in the WiredTiger cache, and how to load it into the cache.
// Shared by warmup*.js and sizes.js:  load(__dirname + '/../lib/studies/timeseries/ts-cache.mongosh.js')  (needs scripts/lib/lab.js).
// Plain ES2017.
//
// Why not `touch`: the source preloaded with {touch: coll, data: true, index: true}, an MMAPv1
// command that asked the OS to page the files in. MMAPv1 and touch were removed in 4.2; on a
// WiredTiger server the command does not exist (CommandNotFound, code 59). WiredTiger keeps its own
// cache of uncompressed pages, filled only by reads that go through it, so the warm-up today is a
// read of everything wanted that returns (almost) nothing to the client.

var LabCache = (function () {
  var IN_CACHE = 'bytes currently in the cache';
  // A counter since the table was opened (a restart resets it): the difference over a timed pass
  // is what that pass had to read into the cache, i.e. what of its working set was not there.
  var READ = 'bytes read into cache';

  function stats(dbh, coll) {
    var out = dbh
      .getCollection(coll)
      .aggregate([{ $collStats: { storageStats: {} } }])
      .toArray();
    return out[0].storageStats;
  }

  // Sizes and cache residency of a collection and of each of its indexes.
  function residency(dbh, coll) {
    var s = stats(dbh, coll);
    var wt = s.wiredTiger || {};
    var idx = {};
    var details = s.indexDetails || {};
    Object.keys(s.indexSizes || {}).forEach(function (name) {
      var c = details[name] && details[name].cache;
      idx[name] = {
        size: lab.num(s.indexSizes[name]),
        cached: c ? lab.num(c[IN_CACHE]) : 0,
        read: c ? lab.num(c[READ]) : 0,
      };
    });
    return {
      count: lab.num(s.count || (s.timeseries ? s.timeseries.bucketCount : 0)),
      dataSize: lab.num(s.size),
      storageSize: lab.num(s.storageSize),
      totalIndexSize: lab.num(s.totalIndexSize),
      totalSize: lab.num(s.storageSize) + lab.num(s.totalIndexSize),
      cached: wt.cache ? lab.num(wt.cache[IN_CACHE]) : 0,
      read: wt.cache ? lab.num(wt.cache[READ]) : 0,
      indexes: idx,
    };
  }

  function serverCache(dbh) {
    var c = dbh.getSiblingDB('admin').runCommand({ serverStatus: 1 }).wiredTiger.cache;
    return {
      max: lab.num(c['maximum bytes configured']),
      used: lab.num(c[IN_CACHE]),
      pagesRead: lab.num(c['pages read into cache']),
    };
  }

  // The source's command, where the server still has it. mongosh's runCommand throws on ok: 0 while
  // the legacy shell returned the error document: handle both, and keep the result inside the try.
  function tryTouch(dbh, coll, data, index) {
    var res;
    try {
      res = dbh.runCommand({ touch: coll, data: data, index: index });
    } catch (e) {
      if (e.code === 59) return { supported: false, error: e.codeName || 'CommandNotFound' };
      throw e;
    }
    if (res.ok) return { supported: true, result: res };
    if (res.code === 59) return { supported: false, error: res.codeName || 'CommandNotFound' };
    throw new Error('touch failed: ' + res.errmsg);
  }

  function minKey() {
    return typeof MinKey === 'function' ? MinKey() : MinKey;
  }

  // Every document, read by the server through its cache: a collection scan for a value no
  // document has returns nothing to the client.
  var NEVER = { 'perflab.never': 'matches' };
  function scanData(dbh, coll) {
    return dbh.getCollection(coll).find(NEVER).hint({ $natural: 1 }).itcount();
  }
  function planData(dbh, coll) {
    return lab.plan(dbh.getCollection(coll).find(NEVER).hint({ $natural: 1 }).explain('queryPlanner'));
  }

  // Every key of one index: $gte MinKey matches every key (missing values are indexed as null),
  // and $count needs no document, so the plan reads the index only.
  function indexPipeline(index) {
    var first = Object.keys(index.key)[0];
    var match = {};
    match[first] = { $gte: minKey() };
    return [{ $match: match }, { $count: 'n' }];
  }
  function scanIndex(dbh, coll, index) {
    var out = dbh.getCollection(coll).aggregate(indexPipeline(index), { hint: index.name }).toArray();
    return out.length ? out[0].n : 0;
  }
  function planIndex(dbh, coll, index) {
    return lab.plan(
      dbh.getCollection(coll).explain('queryPlanner').aggregate(indexPipeline(index), { hint: index.name }),
    );
  }

  /**
   * Warms a collection up: mode 'data', 'indexes', 'both', or 'data-no-id' (the data and every
   * index but _id_: the source's "we don't need the _id index at all"). Returns
   * { mode, method: 'touch' | 'scan', steps: [{what, ms}], ms, touch }.
   */
  function warm(dbh, coll, mode) {
    var noId = mode === 'data-no-id';
    var data = mode === 'data' || mode === 'both' || noId;
    var index = mode === 'indexes' || mode === 'both' || noId;
    var t0 = lab.now();
    // touch cannot leave one index out: where it exists, the scans below still do the partial warm-up.
    var touch = noId
      ? { supported: false, error: 'touch cannot leave out the _id index' }
      : tryTouch(dbh, coll, data, index);
    var steps = [];
    if (touch.supported) {
      steps.push({ what: 'touch {data: ' + data + ', index: ' + index + '}', ms: lab.now() - t0 });
      return { mode: mode, method: 'touch', steps: steps, ms: lab.now() - t0, touch: touch };
    }
    if (data) {
      var t1 = lab.now();
      scanData(dbh, coll);
      var pd = planData(dbh, coll);
      steps.push({ what: 'collection scan (hint $natural)', ms: lab.now() - t1, plan: pd });
    }
    if (index) {
      dbh
        .getCollection(coll)
        .getIndexes()
        .forEach(function (ix) {
          if (noId && ix.name === '_id_') return;
          var t2 = lab.now();
          var n = scanIndex(dbh, coll, ix);
          var ms = lab.now() - t2;
          var pi = planIndex(dbh, coll, ix);
          steps.push({ what: 'index ' + ix.name + ' scan (' + n + ' keys)', ms: ms, plan: pi });
        });
    }
    return { mode: mode, method: 'scan', steps: steps, ms: lab.now() - t0, touch: touch };
  }

  function fmtBytes(b) {
    if (b >= 1073741824) return (b / 1073741824).toFixed(2) + ' GB';
    if (b >= 1048576) return (b / 1048576).toFixed(1) + ' MB';
    if (b >= 1024) return (b / 1024).toFixed(0) + ' KB';
    return b + ' B';
  }

  // Collection and indexes: size and cache residency before and after, one table.
  function printResidency(before, after) {
    var rows = [{ what: 'collection (data)', size: before.dataSize, b: before.cached, a: after.cached }];
    Object.keys(after.indexes).forEach(function (name) {
      var b = before.indexes[name] ? before.indexes[name].cached : 0;
      rows.push({ what: 'index ' + name, size: after.indexes[name].size, b: b, a: after.indexes[name].cached });
    });
    lab.table(
      [
        { key: 'what', title: 'in the WiredTiger cache' },
        { key: 'size', title: 'size', right: true },
        { key: 'before', title: 'before', right: true },
        { key: 'after', title: 'after', right: true },
      ],
      rows.map(function (r) {
        return { what: r.what, size: fmtBytes(r.size), before: fmtBytes(r.b), after: fmtBytes(r.a) };
      }),
    );
    print(
      '(the cache holds pages uncompressed, with their in-memory overhead: a fully cached collection takes more than its dataSize)',
    );
  }

  // How the warm-up went: touch or scans, each step's time and plan.
  function printWarmup(mode, res) {
    if (res.method === 'touch') {
      print('touch is supported here: used it');
    } else {
      print(
        'touch: ' + res.touch.error + ' (removed in 4.2 with MMAPv1): warmed up by reading through the cache instead',
      );
    }
    res.steps.forEach(function (s) {
      print(
        '  ' +
          s.what +
          ': ' +
          lab.fmtMs(s.ms) +
          (s.plan ? ' | plan ' + s.plan.stage + ' | explainVersion ' + s.plan.explainVersion : ''),
      );
    });
    print('Warm-up {' + mode + '} took ' + lab.fmtMs(res.ms));
  }

  // The three warm-up scripts in one place: header, residency before, warm-up, residency after.
  function warmupMain(mode) {
    lab.declare(['COLL', 'LAB_LINES'], 'this warm-up script');
    var coll = lab.param('COLL', 'randomData', 'name');
    var info = lab.header('Warm-up, ' + mode + ' (source 003 touch)', db, 'collection ' + db.getName() + '.' + coll);
    var names = db.getCollectionNames();
    if (names.indexOf(coll) < 0) throw new Error('no collection ' + db.getName() + '.' + coll);
    var before = residency(db, coll);
    var cacheBefore = serverCache(db);
    var res = warm(db, coll, mode);
    var after = residency(db, coll);
    var cacheAfter = serverCache(db);
    printWarmup(mode, res);
    printResidency(before, after);
    print(
      'server cache: ' +
        fmtBytes(cacheBefore.used) +
        ' -> ' +
        fmtBytes(cacheAfter.used) +
        ' of ' +
        fmtBytes(cacheAfter.max) +
        ' | pages read into cache +' +
        (cacheAfter.pagesRead - cacheBefore.pagesRead),
    );
    if (lab.param('LAB_LINES', false, 'bool')) {
      lab.emit({ type: 'environment', study: 'timeseries', server: info, params: { COLL: coll } });
      lab.emit(
        lab.timesRecord({
          study: 'timeseries',
          variant: 'warmup-' + mode,
          what: 'warm-up of ' + (mode === 'both' ? 'data and indexes' : mode) + ' (' + res.method + ')',
          axis: { coll: coll },
          times: [res.ms],
          extra: {
            mode: mode,
            method: res.method,
            steps: res.steps,
            before: before,
            after: after,
            serverCacheBefore: cacheBefore,
            serverCacheAfter: cacheAfter,
          },
        }),
      );
    }
    return res;
  }

  return {
    residency: residency,
    serverCache: serverCache,
    tryTouch: tryTouch,
    warm: warm,
    scanData: scanData,
    scanIndex: scanIndex,
    printResidency: printResidency,
    warmupMain: warmupMain,
    fmtBytes: fmtBytes,
  };
})();
