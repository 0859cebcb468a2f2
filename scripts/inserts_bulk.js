// Inserts (source 002, a 2012-2013 blog series comparing MySQL, MongoDB and Memcached: sequential,
// bulk, threaded and parallel inserts), re-run on today's server.
//
// The question: how many documents per second reach the server one at a time, in batches of
// 10 .. 10,000, ordered or not, and how close that gets to the server's own insert rate (the same
// documents copied inside the server by $merge, no client at all).
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/inserts_bulk.js
//   mongosh "mongodb://host:port/perflab" --eval 'var N = 100000, BATCHES = "1,100,1000"' path/to/scripts/inserts_bulk.js
// Parameters (set with --eval before the file; all optional):
//   N        documents per timed run (default 20000; fewer for big documents, see MAX_MB)
//   SIZE     document size in BSON bytes for the batch points (default 1024)
//   SIZES    sizes for the size points, batch 1000 (default "128,1024,4096,16384")
//   BATCHES  batch sizes; 1 means insertOne per document (default "1,10,100,1000,10000")
//   WRITERS  concurrent writers (Node runs them; this script alone runs the W=1 points)
//   WRITERS_AT  batch sizes at which W > 1 writers run (default: every batch)
//   MAX_MB   at most this many MB of documents per run (default 64): N is cut for big documents
//   SEED     generator seed (default 1)
//   COLL     prefix of the scratch collections the script creates and empties (default perflab_ins)
//   LIMITS, BULK_MB, BULK_TRIES are read by the Node side only (the connection and document limits,
//            large insertMany batches: mongo-perf-lab run inserts)
//   RUNS, WARMUP, BUDGET_MS, MIN_MS, VARIANTS, LAB_LINES   as every study (docs/contract.md)
// Scratch collections are emptied before each timed run; one that exists and was not made by the
// lab stops the script. Concurrency (async loops, connections, processes), w: 0 / majority and the
// PostgreSQL peer are the Node layer's: `mongo-perf-lab run inserts`.

load(__dirname + '/../fixtures/inserts-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/source-002/inserts-lab.mongosh.js');
load(__dirname + '/inserts_functions.js');

// Documents per run at a size: N, cut so that one run holds at most MAX_MB of documents.
function insDocsAt(p, size) {
  return Math.max(1, Math.min(p.N, Math.floor((p.MAX_MB * 1048576) / size)));
}

// The documents of a point, generated once (untimed) and reused by every variant and round.
var insDocCache = { key: null, docs: null };
function insDocs(p, size) {
  var key = p.SEED + '/' + size + '/' + insDocsAt(p, size);
  if (insDocCache.key !== key) {
    insDocCache.docs = null;
    insDocCache.docs = LabInserts.payloadDocs(p.SEED, 0, insDocsAt(p, size), size);
    insDocCache.key = key;
  }
  return insDocCache.docs;
}

// Shell variants run one writer on the standalone, at the default write concern.
function insShellPoint(point) {
  return point.W === 1 && point.w === 1 && !point.server;
}

// Empties the variant's collection (untimed), runs `write`, times only the writes, and answers
// with the number of documents the server then holds.
function insTimed(p, name, write) {
  var coll = LabInsertsLab.scratch(db, p.COLL + '_' + name);
  var t0 = lab.now();
  write(coll);
  var ms = lab.now() - t0;
  var n = coll.countDocuments({});
  return lab.took(ms, n, { docs: n, docsPerSec: Math.round((n / ms) * 1000) });
}

var STUDY = {
  name: 'inserts',
  title: "inserts: one by one, in batches, concurrent, by write concern and size; the server's ceiling",
  source: LabInsertsLab.source('MySQL and MongoDB Performance Comparison, parts 1-3', 2012),
  params: {
    N: { kind: 'positive', def: 20000, what: 'documents per timed run' },
    SIZE: { kind: 'positive', def: 1024, what: 'document size (BSON bytes) at the batch points' },
    SIZES: { kind: 'names', def: '128,1024,4096,16384', what: 'document sizes at batch 1000' },
    BATCHES: { kind: 'names', def: '1,10,100,1000,10000', what: 'batch sizes (1: insertOne per document)' },
    WRITERS: { kind: 'names', def: '1,2,4,8,16', what: 'concurrent writers (W > 1: Node only)' },
    WRITERS_AT: {
      kind: 'names',
      def: '',
      what: 'batch sizes at which W > 1 writers run (default: every batch in BATCHES)',
    },
    WCONCERN: { kind: 'bool', def: true, what: 'add w: 0 / 1 / majority points on a replica set (Node only)' },
    MAX_MB: { kind: 'positive', def: 64, what: 'at most this many MB of documents per run' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'perflab_ins', what: 'prefix of the scratch collections' },
    RUNS: { kind: 'count', def: 3, what: 'timed rounds after the warm-up' },
    LIMITS: {
      kind: 'bool',
      def: true,
      what: 'Node side: the connection limit and a 16 MiB (+1 B) document, after the points',
    },
    BULK_MB: {
      kind: 'names',
      def: '1,10,48',
      what: 'Node side: insertMany batch sizes in MB for the large-bulk tries',
    },
    BULK_TRIES: { kind: 'count', def: 50, what: 'Node side: tries per large batch (0: none)' },
  },
  // Batch x writers at SIZE; then sizes at batch 1000; then write concerns on a replica set. The
  // mongosh script alone can only be one writer on the server it is connected to.
  axes: function (p) {
    var nodeMode = typeof LAB_MODE !== 'undefined' && LAB_MODE === 'node';
    var batches = LabInsertsLab.ints('BATCHES', p.BATCHES, 1, 100000);
    var writers = LabInsertsLab.ints('WRITERS', p.WRITERS, 1, 256);
    var sizes = LabInsertsLab.ints('SIZES', p.SIZES, LabInserts.MIN_SIZE, LabInserts.MAX_SIZE);
    if (p.SIZE < LabInserts.MIN_SIZE || p.SIZE > LabInserts.MAX_SIZE) {
      throw lab.paramError(
        'parameter SIZE: expected ' + LabInserts.MIN_SIZE + '..' + LabInserts.MAX_SIZE + ' bytes, got ' + p.SIZE
      );
    }
    var writersAt = lab.list(p.WRITERS_AT).length ? LabInsertsLab.ints('WRITERS_AT', p.WRITERS_AT, 1, 100000) : batches;
    var points = [];
    writers.forEach(function (W) {
      if (W > 1 && !nodeMode) return;
      batches.forEach(function (b) {
        if (W === 1 || writersAt.indexOf(b) >= 0) points.push({ part: 'batch', batch: b, W: W, size: p.SIZE, w: 1 });
      });
    });
    // The size SIZE at batch 1000 by one writer is already a batch point: measured once, shown in both tables.
    var sizeTwin = writers.indexOf(1) >= 0 && batches.indexOf(1000) >= 0;
    sizes.forEach(function (s) {
      if (!(sizeTwin && s === p.SIZE)) points.push({ part: 'size', batch: 1000, W: 1, size: s, w: 1 });
    });
    if (nodeMode && p.WCONCERN) {
      [1, 1000].forEach(function (b) {
        [0, 1, 'majority'].forEach(function (w) {
          points.push({ part: 'wc', batch: b, W: 1, size: p.SIZE, w: w, server: 'replset' });
        });
      });
    }
    return points;
  },
  // The scratch collections of the chosen variants (server-copy also keeps its source there).
  derived: function (p, chosen) {
    var of = { shell: ['shell'], 'shell-unordered': ['shell_unordered'], 'server-copy': ['server_copy', 'src'] };
    return chosen.reduce(function (all, v) {
      return all.concat(
        (of[v] || []).map(function (s) {
          return p.COLL + '_' + s;
        })
      );
    }, []);
  },
  baseline: 'shell',
  unit: 'ms',
  variants: [
    {
      name: 'shell',
      what: 'mongosh: insertOne per document (batch 1), else insertMany ordered',
      minVersion: '3.2',
      able: function (p, point) {
        return insShellPoint(point);
      },
      run: function (p, point) {
        var docs = insDocs(p, point.size);
        return insTimed(p, 'shell', function (coll) {
          if (point.batch === 1) insertSequential(coll, docs);
          else insertBatches(coll, docs, point.batch, true);
        });
      },
    },
    {
      name: 'shell-unordered',
      what: 'mongosh: insertMany {ordered: false}',
      minVersion: '3.2',
      able: function (p, point) {
        return insShellPoint(point) && point.batch > 1;
      },
      run: function (p, point) {
        var docs = insDocs(p, point.size);
        return insTimed(p, 'shell_unordered', function (coll) {
          insertBatches(coll, docs, point.batch, false);
        });
      },
    },
    {
      name: 'server-copy',
      what: 'the ceiling: the same documents copied inside the server ($merge)',
      minVersion: '4.2',
      able: function (p, point) {
        return point.part === 'size' || (insShellPoint(point) && point.batch === 1000);
      },
      run: function (p, point) {
        var docs = insDocs(p, point.size);
        var srcName = p.COLL + '_src';
        var own = LabFixture.owns(db, srcName);
        var meta = db.getCollection(LabFixture.META).findOne({ _id: srcName });
        var key = p.SEED + '/' + point.size + '/' + docs.length;
        if (!own || !meta || meta.key !== key) {
          var src = LabInsertsLab.scratch(db, srcName);
          insertBatches(src, docs, 1000, false);
          db.getCollection(LabFixture.META).updateOne({ _id: srcName }, { $set: { key: key } });
        }
        return insTimed(p, 'server_copy', function (coll) {
          db.getCollection(srcName)
            .aggregate([{ $merge: { into: coll.getName(), whenMatched: 'fail', whenNotMatched: 'insert' } }])
            .toArray();
        });
      },
    },
  ],
};

lab.main(STUDY);
