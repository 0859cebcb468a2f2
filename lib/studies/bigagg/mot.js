'use strict';
// Study 001 (second half), Node side: MOT-like fixtures per block compressor, the plain-Node
// oracle, storage figures, the split-and-merge runner (k _id ranges, as a sharded $group runs),
// mongod CPU time and WiredTiger cache counters.
const fs = require('fs');
const { execFileSync } = require('child_process');
const LabGen = require('../../../fixtures/gen');
const LabMot = require('../../../fixtures/mot-gen');
const LabBands = require('../../../scripts/bigagg_pipelines');
const { ensureFixture } = require('../../infra/loader');
const { memoryLimitOf } = require('../../infra/cgroup-memory');

const COMPRESSORS = ['none', 'snappy', 'zlib', 'zstd'];

function* motDocs(n, seed) {
  const next = LabGen.rng(seed);
  for (let i = 0; i < n; i++) yield LabMot.doc(next, i);
}

/** The answer in plain Node: [{_id: band, count, miles}] sorted by band, over _id in [lo, hi). */
function oracle(n, seed, { lo = null, hi = null } = {}) {
  // streamed: the source's 10,000,000 records never sit in the heap at once
  function* inRange() {
    for (const d of motDocs(n, seed)) if (!((lo !== null && d._id < lo) || (hi !== null && d._id >= hi))) yield d;
  }
  return oracleOf(inRange());
}

/** A BSON number (int, double, Long, Decimal128) as a JS number; null for any other value. */
function bsonNumber(x) {
  if (typeof x === 'number') return x;
  if (x && ['Long', 'Int32', 'Double', 'Decimal128'].includes(x._bsontype)) return parseFloat(x.toString());
  if (typeof x === 'bigint') return Number(x);
  return null;
}

/**
 * An exact running sum of BSON numbers, as $sum keeps it: whole numbers and Longs as a BigInt,
 * Decimal128s as a scaled BigInt, doubles as a double. value() is the JS number nearest the exact
 * sum, so it equals what the server's exact sum reads as (normalize), not a rounded running total.
 */
function exactSum() {
  let ints = 0n;
  let dec = 0n; // scaled by 10^34
  let dbl = 0;
  const SCALE = 34;
  return {
    add(x) {
      if (typeof x === 'number') {
        if (Number.isSafeInteger(x)) ints += BigInt(x);
        else dbl += x;
      } else if (x && (x._bsontype === 'Long' || x._bsontype === 'Int32')) {
        ints += BigInt(x.toString());
      } else if (x && x._bsontype === 'Decimal128') {
        const m = /^(-?)(\d*)\.?(\d*)(?:E([+-]?\d+))?$/i.exec(x.toString());
        if (!m) {
          dbl += parseFloat(x.toString());
          return;
        }
        const exp = Number(m[4] || 0) - m[3].length;
        const digits = BigInt((m[1] || '') + (m[2] + m[3] || '0'));
        dec += exp + SCALE >= 0 ? digits * 10n ** BigInt(exp + SCALE) : digits / 10n ** BigInt(-(exp + SCALE));
      } else if (x && x._bsontype === 'Double') {
        dbl += Number(x.valueOf());
      }
    },
    value() {
      const total = ints * 10n ** BigInt(SCALE) + dec;
      const neg = total < 0n;
      const abs = (neg ? -total : total).toString().padStart(SCALE + 1, '0');
      const text = `${neg ? '-' : ''}${abs.slice(0, -SCALE)}.${abs.slice(-SCALE)}`;
      return parseFloat(text) + dbl;
    },
  };
}

/**
 * The answer for any documents (a user's too; any iterable): each band as the source's pipeline computes it
 * (LabMot.band: any `e` in BSON order), miles summed as $sum sums them (exactly; non-numeric `m`
 * ignored).
 */
function oracleOf(docs) {
  const by = new Map();
  for (const d of docs) {
    const b = LabMot.band(d);
    let g = by.get(b);
    if (!g) by.set(b, (g = { _id: b, count: 0, sum: exactSum() }));
    g.count++;
    g.sum.add(d.m);
  }
  return [...by.values()]
    .map((g) => ({ _id: g._id, count: g.count, miles: g.sum.value() }))
    .sort((a, b) => a._id - b._id);
}

/** Server rows as plain numbers (int32, double, Long and Decimal128 keys/sums alike), sorted by band. */
function normalize(rows) {
  return rows
    .map((r) => ({ _id: bsonNumber(r._id), count: bsonNumber(r.count), miles: bsonNumber(r.miles) }))
    .sort((a, b) => a._id - b._id);
}

function same(a, b) {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function collName(base, compressor) {
  return `${base}_${compressor}`;
}

function assertCompressor(c) {
  if (!COMPRESSORS.includes(c)) {
    throw new Error(`compressor ${JSON.stringify(c)}: expected one of ${COMPRESSORS.join(', ')}`);
  }
}

/**
 * Makes sure db[name] holds n MOT records of `seed`, stored with block compressor `compressor`.
 * The collection is created explicitly (createCollection with a WiredTiger configString) before
 * the streaming load, since an implicit create would take the server's default (snappy).
 * Returns ensureFixture's { generated, count, inserted, ms }.
 */
async function loadMot(
  db,
  name,
  { n, seed = 1, compressor = 'snappy', clustered = false, progress, batchSize = 10000, inflight = 4 } = {},
) {
  assertCompressor(compressor);
  const spec = { fixture: 'mot', n, seed, compressor, clustered };
  // ensureFixture creates it (explicitly, with these options) only where no collection exists, drops
  // and re-creates it only when the lab's marker names its UUID, and never touches a foreign one.
  // clustered (5.3+): documents stored in _id order, so an _id range is a bounded collection
  // scan with no separate index, like a shard scanning only its own chunks.
  const options = {
    storageEngine: { wiredTiger: { configString: `block_compressor=${compressor}` } },
    ...(clustered ? { clusteredIndex: { key: { _id: 1 }, unique: true } } : {}),
  };
  return ensureFixture(db, name, spec, () => motDocs(n, seed), { progress, batchSize, inflight, options });
}

/** Storage figures of one collection, from $collStats (bytes), and the compressor WiredTiger uses. */
async function storage(db, name) {
  // storageSize counts checkpointed blocks only: a fresh load reads as 4 KB until a checkpoint.
  await db.admin().command({ fsync: 1 });
  const [s] = await db
    .collection(name)
    .aggregate([{ $collStats: { storageStats: {} } }])
    .toArray();
  const st = s.storageStats;
  const m = /block_compressor=(\w*)/.exec((st.wiredTiger && st.wiredTiger.creationString) || '');
  // A checkpoint during the load leaves blocks WiredTiger reuses but keeps in the file, so the
  // file's size depends on when checkpoints fell, not on the compressor: count the bytes in use.
  const reusable = Number(((st.wiredTiger || {})['block-manager'] || {})['file bytes available for reuse'] || 0);
  const inUse = st.storageSize - reusable;
  return {
    count: st.count,
    dataBytes: st.size, // uncompressed BSON
    storageBytes: inUse, // on disk, compressed, in use
    indexBytes: st.totalIndexSize,
    avgObjBytes: st.avgObjSize,
    ratio: st.size / inUse,
    compressor: m ? m[1] || 'none' : null,
  };
}

async function aggregate(db, name, pipeline) {
  return normalize(await db.collection(name).aggregate(pipeline, { allowDiskUse: true }).toArray());
}

const rangeCache = new Map();

/**
 * k ranges of a collection in the server's own _id order (any _id types: numbers, strings,
 * ObjectIds, mixed): the k-1 cut values are read from an _id-sorted scan, never computed. Cached
 * per collection, k, weights and document count, so a timed run does not pay for the cuts.
 */
async function serverRanges(db, name, k, weights) {
  const coll = db.collection(name);
  // the key's count is the metadata one (no scan inside a timed run); the cuts use the exact one
  const key = `${db.databaseName}.${name}|${k}|${weights || ''}|${await coll.estimatedDocumentCount()}`;
  if (rangeCache.has(key)) return rangeCache.get(key);
  const count = await coll.countDocuments({});
  const at = async (pos, dir = 1) => {
    const [d] = await coll
      .find({}, { projection: { _id: 1 }, promoteLongs: false })
      .sort({ _id: dir })
      .skip(pos)
      .limit(1)
      .toArray();
    return d ? d._id : undefined;
  };
  const cuts = [];
  for (const pos of LabBands.cutPositions(count, k, weights)) cuts.push(pos < count ? await at(pos) : undefined);
  const first = await at(0);
  const last = await at(0, -1);
  const r = {
    ranges: LabBands.rangesFromCuts(cuts),
    oneClass: count === 0 || LabBands.typeClass(first) === LabBands.typeClass(last),
  };
  rangeCache.set(key, r);
  return r;
}

/**
 * The sharded plan on one server: the shards part ($match on an _id range + the partial $group)
 * runs for k ranges at once, each on its own pooled connection (so mongod runs k operations in
 * parallel), then the merger part ($group on _id summing the partials) combines them, as mongos
 * does. The ranges follow the server's _id order (serverRanges), or, given numeric lo/hi, split
 * [lo, hi) arithmetically with the outermost ranges open; every document is counted once.
 * Partial sums keep their exact types (Longs stay Longs); the merger part runs on the server
 * ($documents, 5.1+) with `serverMerge`, or when a sum is a Decimal128 that JavaScript cannot add.
 */
async function splitMerge(db, name, { k, lo, hi, weights, serverMerge = false }) {
  const numeric = typeof lo === 'number' && typeof hi === 'number';
  const { ranges, oneClass } = numeric
    ? { ranges: LabBands.ranges(lo, hi, k, weights), oneClass: true }
    : await serverRanges(db, name, k, weights);
  const partials = await Promise.all(
    ranges.map(([a, b]) =>
      db
        .collection(name)
        .aggregate(LabBands.shardPart(a, b, oneClass), { allowDiskUse: true, promoteLongs: false })
        .toArray(),
    ),
  );
  return normalize(await mergeExact(db, partials, serverMerge));
}

/** The merged rows with exact sums: in JavaScript, or on the server when asked or needed. */
async function mergeExact(db, partials, serverMerge) {
  if (!serverMerge) {
    try {
      return LabBands.mergePartials(partials);
    } catch (e) {
      if (e.code !== 'DECIMAL_MERGE') throw e;
    }
  }
  const docs = [].concat(...partials).map((r) => ({ _id: r._id, count: r.count, miles: r.miles }));
  return db.aggregate([{ $documents: docs }, ...LabBands.mergerPart()], { promoteLongs: false }).toArray();
}

/** Runs c copies of the same aggregation at once; resolves to the answers. */
async function concurrent(db, name, pipeline, c) {
  return Promise.all(Array.from({ length: c }, () => aggregate(db, name, pipeline)));
}

// ---- server-side measures ----------------------------------------------------------------------
let clkTck = null;
function ticksPerSecond() {
  if (clkTck === null) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch (e) {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** CPU seconds (user + system) a local process has used, from /proc/<pid>/stat; null elsewhere. */
function cpuSeconds(pid) {
  if (!pid) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state is f[0]; utime and stime are fields 14 and 15 of the full line
    return (Number(f[11]) + Number(f[12])) / ticksPerSecond();
  } catch (e) {
    return null;
  }
}

/** Bytes a local process really caused to be read from storage (/proc/<pid>/io read_bytes): reads
 * served by the OS page cache do not count, so this says whether the disk was touched. */
function diskReadBytes(pid) {
  if (!pid) return null;
  try {
    const m = /read_bytes:\s*(\d+)/.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch (e) {
    return null;
  }
}

/**
 * WiredTiger cache counters that say how much was read into the cache, what it holds and how many
 * pages it evicted (clean and dirty: WiredTiger's own two counters), and mongod's resident memory
 * (serverStatus mem.resident, MB, as bytes): the cache is only part of what mongod holds.
 */
async function cacheCounters(db) {
  const s = await db.admin().command({ serverStatus: 1 });
  const c = (s.wiredTiger && s.wiredTiger.cache) || {};
  const evicted = [c['unmodified pages evicted'], c['modified pages evicted']];
  return {
    bytesReadIntoCache: c['bytes read into cache'],
    pagesReadIntoCache: c['pages read into cache'],
    bytesInCache: c['bytes currently in the cache'],
    pagesEvicted: evicted.every((n) => typeof n === 'number') ? evicted[0] + evicted[1] : null,
    maxBytes: c['maximum bytes configured'],
    residentBytes: s.mem && typeof s.mem.resident === 'number' ? s.mem.resident * 1048576 : null,
  };
}

/**
 * Times fn() and reports what the server spent on it: wall ms, mongod CPU seconds (local pid
 * only), bytes read into the WiredTiger cache, what the cache held before and after and the pages
 * it evicted meanwhile (a page evicted and read again counts twice in the bytes read), and what
 * the OS page cache had beside it: mongod's resident memory after fn and the memory cgroup limit
 * on mongod (null: none applies, or not a local mongod).
 */
async function measured(db, pid, fn) {
  const c0 = await cacheCounters(db);
  const cpu0 = cpuSeconds(pid);
  const io0 = diskReadBytes(pid);
  const t0 = process.hrtime.bigint();
  const answer = await fn();
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu1 = cpuSeconds(pid);
  const io1 = diskReadBytes(pid);
  const c1 = await cacheCounters(db);
  return {
    ms,
    answer,
    cpuSeconds: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    bytesReadIntoCache: c1.bytesReadIntoCache - c0.bytesReadIntoCache,
    diskReadBytes: io0 === null || io1 === null ? null : io1 - io0,
    cacheMaxBytes: c1.maxBytes,
    bytesInCacheBefore: c0.bytesInCache,
    bytesInCache: c1.bytesInCache,
    pagesEvicted: c0.pagesEvicted === null || c1.pagesEvicted === null ? null : c1.pagesEvicted - c0.pagesEvicted,
    residentBytes: c1.residentBytes,
    memoryLimitBytes: memoryLimitOf(pid),
  };
}

// ---- mongos ------------------------------------------------------------------------------------
/** Whether the client talks to a mongos (hello.msg === 'isdbgrid'), and its shard count. */
async function topology(db) {
  const hello = await db.admin().command({ hello: 1 });
  if (hello.msg !== 'isdbgrid') return { mongos: false, shards: 0 };
  const ls = await db.admin().command({ listShards: 1 });
  return { mongos: true, shards: ls.shards.length };
}

/**
 * On a mongos the plain pipeline IS the split-and-merge: mongos sends the shards part to each
 * shard holding chunks and merges. explain shows the split ({splitPipeline: {shardsPart,
 * mergerPart}}), which must match LabBands.shardPart/mergerPart in shape.
 */
async function shardedSplit(db, name) {
  const ex = await db.collection(name).aggregate(LabBands.groupPipeline()).explain('queryPlanner');
  return ex.splitPipeline || null;
}

module.exports = {
  COMPRESSORS,
  motDocs,
  oracle,
  oracleOf,
  bsonNumber,
  serverRanges,
  mergeExact,
  normalize,
  same,
  collName,
  loadMot,
  storage,
  aggregate,
  splitMerge,
  concurrent,
  cpuSeconds,
  diskReadBytes,
  cacheCounters,
  measured,
  topology,
  shardedSplit,
  assertCompressor,
};
