'use strict';
// Source 001a's functional points, measured untimed once per run (measure records, judged by
// lib/studies/where/claims.js):
//   where-functional  the string filter find('this.a > this.b') against {$where: 'this.a > this.b'}
//                     (the first 200 matches by _id, in mongosh's runtime: the shorthand is the
//                     shell's) and a $where whose body touches db; the oracle is the generator's
//   bson-types        one document of Date, int32, int64, double and Decimal128 written to a scratch
//                     collection and read back, its types by $type and its values compared
//   data-size         the collection's BSON size and count (collStats), for "only 38MB", and the
//                     BSON types its documents hold in _id, a and b (the claim's writer gate)
const LabRecords = require('../../../scripts/lib/records');
const whereFixture = require('../../../fixtures/where-ab');
const { claim, dropOwned } = require('../../infra/targets');

/** The first `limit` _ids (ascending) of the generated documents with a > b: what both filters must return. */
function expectedIds(n, seed, limit) {
  const out = [];
  for (const d of whereFixture.docs(n, seed)) {
    if (d.a > d.b) out.push(Number(d._id));
    if (out.length === limit) break;
  }
  return out;
}

const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);

async function whereFunctional(ctx, p, point) {
  const f = await ctx.shell.whereFunctional(p.COLL);
  const want = expectedIds(p.N, p.SEED, f.limit);
  const value = {
    checked: f.limit,
    whereAgrees: same(f.whereIds, want),
    stringFilter: f.stringError ? 'rejected' : same(f.stringIds, f.whereIds) ? 'same' : 'differs',
    stringError: f.stringError || null,
    sandbox: f.dbError ? 'refused' : 'reached',
    dbError: f.dbError || null,
  };
  return LabRecords.measureRecord({
    study: 'where',
    name: 'where-functional',
    axis: point,
    value,
    unit: 'state',
    what: `find('this.a > this.b') and {$where} on the first ${f.limit} matches by _id; a $where touching db`,
  });
}

// name -> [the value written, the $type name BSON keeps for it]
function typedDoc() {
  const { Int32, Long, Double, Decimal128 } = require('mongodb'); // here: `list` reads the studies without the driver
  return {
    date: [new Date(Date.UTC(2016, 2, 31, 12, 0, 0, 123)), 'date'],
    int32: [new Int32(2147483647), 'int'],
    int64: [Long.fromString('9007199254740993'), 'long'], // 2^53 + 1: not a double
    double: [new Double(0.1), 'double'],
    decimal: [Decimal128.fromString('0.1'), 'decimal'],
  };
}

const text = (v) =>
  v instanceof Date
    ? v.toISOString()
    : v && typeof v.toString === 'function'
      ? `${v._bsontype || typeof v}:${v.toString()}`
      : String(v);

async function bsonTypes(ctx, p, point) {
  const name = `${p.COLL}_types`;
  const spec = typedDoc();
  await claim(ctx.db, name, { kind: 'scratch', fresh: true, doing: 'write a typed document into' });
  try {
    const coll = ctx.db.collection(name);
    const doc = { _id: 1 };
    for (const [k, [v]] of Object.entries(spec)) doc[k] = v;
    const w = await coll.insertOne(doc);
    if (!w.acknowledged) throw new Error(`${name}: the typed document's insert was not acknowledged`);
    const [types] = await coll
      .aggregate([{ $project: Object.fromEntries(Object.keys(spec).map((k) => [k, { $type: `$${k}` }])) }])
      .toArray();
    const back = await coll.findOne({ _id: 1 }, { promoteValues: false, promoteLongs: false });
    const value = Object.fromEntries(
      Object.entries(spec).map(([k, [v, t]]) => [k, { want: t, type: types[k], same: text(back[k]) === text(v) }]),
    );
    return LabRecords.measureRecord({
      study: 'where',
      name: 'bson-types',
      axis: point,
      value,
      unit: 'state',
      what: 'Date, int32, int64, double, Decimal128 written and read back ($type)',
    });
  } finally {
    await dropOwned(ctx.db, name);
  }
}

const TYPED_FIELDS = ['_id', 'a', 'b'];

/**
 * The BSON types the collection's documents hold in _id, a and b, read from the data (the writer
 * gate of 001-where-38mb reads them: the size is the source's only when the types are). Counted
 * over every document, not a sample: numbers of every BSON type sort together, so the ends of the
 * _id index cannot tell an int32 from a double, and one grouped pass is well under a second at the
 * source's 10^6 (measures run after the timed variants). A field of several types reads 'mixed'
 * (the counts beside say which); an empty collection records no types (the gate refuses it).
 */
async function writtenTypes(db, coll) {
  const t0 = Date.now();
  const groups = await db
    .collection(coll)
    .aggregate([
      { $group: { _id: Object.fromEntries(TYPED_FIELDS.map((k) => [k, { $type: `$${k}` }])), n: { $sum: 1 } } },
      { $sort: { n: -1 } },
    ])
    .toArray();
  const field = (k) => {
    const seen = [...new Set(groups.map((g) => g._id[k]))];
    return seen.length === 1 ? seen[0] : 'mixed';
  };
  return {
    types: groups.length ? Object.fromEntries(TYPED_FIELDS.map((k) => [k, field(k)])) : null,
    // at most a few rows: one per combination of types found
    typeCounts: groups.slice(0, 10).map((g) => ({ ...g._id, n: g.n })),
    typesMs: Date.now() - t0,
  };
}

/**
 * The collection's BSON size (collStats size) and count: the source's "That database is only 38MB",
 * with the BSON types of _id, a and b beside (the size per document follows from them).
 */
async function dataSize(ctx, p, point) {
  const [s] = await ctx.db
    .collection(p.COLL)
    .aggregate([
      { $collStats: { storageStats: {} } },
      { $project: { size: '$storageStats.size', count: '$storageStats.count' } },
    ])
    .toArray();
  return LabRecords.measureRecord({
    study: 'where',
    name: 'data-size',
    axis: point,
    value: { bytes: s ? s.size : null, count: s ? s.count : null, ...(await writtenTypes(ctx.db, p.COLL)) },
    unit: 'bytes',
    what: `BSON size of ${p.COLL} (collStats size), its document count and the BSON types of _id, a and b ($type over every document)`,
  });
}

/** The study's measures: once per run (the where study has one axis point). */
async function measures(ctx, p, point) {
  return [await whereFunctional(ctx, p, point), await bsonTypes(ctx, p, point), await dataSize(ctx, p, point)];
}

module.exports = { measures, expectedIds, typedDoc, writtenTypes };
