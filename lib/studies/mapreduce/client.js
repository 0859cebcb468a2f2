'use strict';
// Source 000's client-side variants, with the Node driver instead of Python: statistics of one field
// over the first n documents (the batch every in-database variant reads too: the first n in
// natural order, which for data the lab imported is also _id order, see scripts/mr_variants.js).
//   client-list      whole documents into a list, then statistics over the list (the source's first
//                    Python program: it fetched all ~40 fields to use one)
//   client-field-list the same list code over one projected field (the source's part 3 "Python":
//                    "the selected value is pulled from the database, stored in a list"): against
//                    client-list only the projection differs, against client-acc only the list
// All of them walk the cursor document by document, as the source's Python loops did (a Node
// toArray() takes whole batches at once: a difference of the driver, not of the method).
//   client-acc       one projected field, running accumulators, no list ("Python, Accumulators")
//   client-chunked   the same, in 10 sequential queries of n/10 (the source's "10 x 100k versus
//                    1 x 1M"), each continuing after the last _id of the one before
//   client-parallel  k concurrent cursors over _id ranges (the source's multithreaded test); the
//                    range boundaries are found first, with index-only queries, and timed too
// Each returns { sum, min, max, count, mean }, blank readings (missing field) skipped.

function emptyStats() {
  return { sum: 0, min: null, max: null, count: 0 };
}

function add(s, v) {
  if (typeof v !== 'number' || Number.isNaN(v)) return;
  s.sum += v;
  if (s.min === null || v < s.min) s.min = v;
  if (s.max === null || v > s.max) s.max = v;
  s.count++;
}

function merge(a, b) {
  return {
    sum: a.sum + b.sum,
    min: a.min === null ? b.min : b.min === null ? a.min : Math.min(a.min, b.min),
    max: a.max === null ? b.max : b.max === null ? a.max : Math.max(a.max, b.max),
    count: a.count + b.count,
  };
}

function finish(s) {
  return { ...s, mean: s.count ? s.sum / s.count : null };
}

/** Documents into an array as the cursor streams, then the statistics over a list of the field's values. */
async function listStats(cursor, field) {
  const docs = [];
  for await (const d of cursor) docs.push(d);
  const values = [];
  for (const d of docs) if (typeof d[field] === 'number') values.push(d[field]);
  const s = emptyStats();
  for (const v of values) add(s, v);
  return finish(s);
}

/** Whole documents into a list, then the statistics over a list of the field's values. */
function clientList(coll, n, field) {
  return listStats(coll.find({}).limit(n), field);
}

/** client-list's code with one change: the server projects the one field. */
function clientFieldList(coll, n, field) {
  return listStats(coll.find({}, { projection: { _id: 0, [field]: 1 } }).limit(n), field);
}

/** One field, projected by the server, into accumulators as the cursor streams. */
async function clientAcc(coll, n, field) {
  const s = emptyStats();
  const cursor = coll.find({}, { projection: { _id: 0, [field]: 1 } }).limit(n);
  for await (const d of cursor) add(s, d[field]);
  return finish(s);
}

/** n documents in `chunks` sequential queries; each resumes after the previous chunk's last _id. */
async function clientChunked(coll, n, field, { chunks = 10 } = {}) {
  const k = Math.max(1, Math.min(chunks, n));
  let total = emptyStats();
  let last;
  for (let c = 0; c < k; c++) {
    const size = Math.floor((n * (c + 1)) / k) - Math.floor((n * c) / k);
    const s = emptyStats();
    const filter = last === undefined ? {} : { _id: { $gt: last } };
    const cursor = coll
      .find(filter, { projection: { _id: 1, [field]: 1 } })
      .sort({ _id: 1 })
      .limit(size);
    let got = 0;
    for await (const d of cursor) {
      add(s, d[field]);
      last = d._id;
      got++;
    }
    total = merge(total, s);
    if (got < size) break; // the collection ended
  }
  return finish(total);
}

/**
 * The _id at each position in _id order (null past the end), read from the _id index only.
 * Queries run concurrently; skip walks index keys without fetching documents.
 */
async function idsAt(coll, positions) {
  return Promise.all(
    positions.map(async (p) => {
      const r = await coll
        .find({}, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .skip(p)
        .limit(1)
        .toArray();
      return r.length ? r[0]._id : null;
    }),
  );
}

/**
 * The batch's first n documents cut into k = min(parallel, n) disjoint _id ranges ({$gte, $lt}, open at
 * the ends), null for a range past the end of a collection smaller than the batch.
 */
async function idRanges(coll, n, parallel) {
  const k = Math.max(1, Math.min(parallel, n));
  const cuts = [];
  for (let j = 1; j <= k; j++) cuts.push(Math.floor((n * j) / k));
  // bounds[j] = first _id of range j+1; the last one is the first _id after the batch.
  const bounds = await idsAt(coll, cuts);
  return bounds.map((hi, j) => {
    const lo = j === 0 ? undefined : bounds[j - 1];
    if (j > 0 && lo === null) return null;
    const range = {};
    if (lo !== undefined) range.$gte = lo;
    if (hi !== null) range.$lt = hi;
    return range;
  });
}

/** k concurrent cursors, each over its own _id range of the batch. */
async function clientParallel(coll, n, field, { parallel = 4 } = {}) {
  const parts = await Promise.all(
    (await idRanges(coll, n, parallel)).map(async (range) => {
      if (range === null) return emptyStats(); // batch larger than the collection
      const filter = Object.keys(range).length ? { _id: range } : {};
      const s = emptyStats();
      for await (const d of coll.find(filter, { projection: { _id: 0, [field]: 1 } })) add(s, d[field]);
      return s;
    }),
  );
  return finish(parts.reduce(merge, emptyStats()));
}

/**
 * k concurrent map/reduce commands, each over its own _id range of the batch, merged here (the
 * source's untested "similar results by doing multiple Map Reduce jobs"): client-parallel's ranges
 * with the server's map/reduce in place of the client's loop. The functions are the study's own
 * (scripts/mr_functions.js), sent as code; the field goes in `scope`, as data.
 */
async function mrParallel(coll, n, field, { parallel = 4, db } = {}) {
  const { Code } = require('mongodb');
  const fns = require('../../../scripts/mr_functions');
  const parts = await Promise.all(
    (await idRanges(coll, n, parallel)).map(async (range) => {
      if (range === null) return emptyStats();
      const reply = await db.command({
        mapReduce: coll.collectionName,
        map: new Code(fns.mrStatsMap.toString()),
        reduce: new Code(fns.mrStatsReduce.toString()),
        out: { inline: 1 },
        scope: { field },
        query: Object.keys(range).length ? { _id: range } : {},
      });
      if (!reply.results.length) return emptyStats();
      const v = reply.results[0].value;
      return { sum: v.sum, min: v.min, max: v.max, count: v.count };
    }),
  );
  return finish(parts.reduce(merge, emptyStats()));
}

const CLIENT_VARIANTS = [
  { name: 'client-list', what: 'driver: whole documents into a list', fn: clientList },
  { name: 'client-field-list', what: 'driver: one projected field into a list', fn: clientFieldList },
  { name: 'client-acc', what: 'driver: one projected field into accumulators', fn: clientAcc },
  { name: 'client-chunked', what: 'driver: one field, 10 sequential chunks of n/10 by _id', fn: clientChunked },
  { name: 'client-parallel', what: 'driver: one field, 4 concurrent cursors over _id ranges', fn: clientParallel },
  {
    name: 'mr-parallel',
    what: 'server: 4 concurrent map/reduce commands over _id ranges, merged by the driver',
    fn: mrParallel,
    inServer: true,
  },
];

/** min, max, count exact; sum to 1e-9 relative. Returns null when equal, else what differs. */
function statsDiffer(a, b, rel = 1e-9) {
  const diffs = [];
  for (const k of ['count', 'min', 'max']) if (a[k] !== b[k]) diffs.push(`${k} ${a[k]} != ${b[k]}`);
  const scale = Math.max(Math.abs(a.sum), Math.abs(b.sum));
  if (Math.abs(a.sum - b.sum) > rel * scale) diffs.push(`sum ${a.sum} != ${b.sum}`);
  return diffs.length ? diffs.join(', ') : null;
}

module.exports = {
  clientList,
  clientFieldList,
  clientAcc,
  clientChunked,
  clientParallel,
  mrParallel,
  idsAt,
  CLIENT_VARIANTS,
  statsDiffer,
  emptyStats,
  add,
  merge,
  finish,
};
