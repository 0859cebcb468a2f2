'use strict';
// The measurement behind the source's finding 3: what one $inc of minute 0 costs against minute
// 1439 (flat and array) or 00:00 against 23:59 (hierarchical), on preallocated documents, three
// ways: many updates in one bulk (server work dominates), one round trip each (client and
// network dominate), and updateMany over many documents. First and last alternate round by round
// (A B, B A, ...) in the one harness (lib/studies/counters/index.js); the server's own time comes from
// the collection's latencyStats ($collStats), not serverStatus().opLatencies: the server-wide sum
// takes in every other client's writes made during the run, so on a shared server it could exceed
// the client's own wall time several times over. Only the lab writes to its own collection.
const { performance } = require('perf_hooks');
const C = require('../../../scripts/counters_functions');
const gen = require('../../../fixtures/counters-gen');

const LAYOUTS = ['flat', 'hierarchical', 'array'];
const MODES = ['bulk', 'single', 'updateMany'];
const OWNER = 'counters-004';
const { assertAllOwned, claim, META } = require('../../infra/targets');

const schemaOf = (layout) => (layout === 'flat' ? 'preallocated' : layout);
const collOf = (layout) => `counters_micro_${layout}`;
const fieldOf = (layout, at) => C.minuteField(schemaOf(layout), at === 'first' ? 0 : 1439);

/** One collection of `docs` preallocated documents per layout (the lab's own, marked). */
async function prepareMicro(db, docs) {
  const marks = db.collection(META);
  await assertAllOwned(db, LAYOUTS.map(collOf), 'drop and re-create');
  for (const layout of LAYOUTS) {
    const name = collOf(layout);
    await claim(db, name, { kind: OWNER, fresh: true, spec: { fixture: OWNER }, doing: 'drop and re-create' });
    await preallocated(db.collection(name), schemaOf(layout), docs);
    await marks.updateOne({ _id: name }, { $set: { complete: true } });
  }
}

/**
 * Metrics 0..docs-1 preallocated for the day in an empty collection. The first document is made by
 * the preallocation upsert itself; the others are inserted as copies of it under their own _id and
 * metadata, the same documents field for field. An upsert applies its 1,464 zeroed paths one by one
 * (~10 ms of server time a document, seconds for the three layouts), a plain insert does not.
 */
async function preallocated(coll, schema, docs) {
  if (docs < 1) return;
  const first = C.preallocUpdate(schema, gen.START, gen.metricName(0));
  await coll.updateOne(first.filter, first.update, { upsert: true });
  const made = await coll.findOne({ _id: first.filter._id });
  const copies = [];
  for (let k = 1; k < docs; k++) {
    const key = C.key(gen.START, gen.metricName(k));
    copies.push({ ...made, _id: key._id, metadata: key.metadata });
  }
  if (copies.length) await coll.insertMany(copies, { ordered: false });
}

// Summed over the documents $collStats returns (one per shard behind a mongos).
async function writeLatency(coll) {
  const rows = await coll.aggregate([{ $collStats: { latencyStats: {} } }]).toArray();
  let us = 0;
  let ops = 0;
  for (const r of rows) {
    us += Number(r.latencyStats.writes.latency);
    ops += Number(r.latencyStats.writes.ops);
  }
  return { us, ops };
}

// One timed run: resolves to { ms, updates, serverUs, serverOps } (serverUs: the server-side
// latency of this collection's writes over the run; serverOps: the write statements it counted,
// one per update in a bulk, one for an updateMany).
async function runOnce(db, layout, mode, at, o) {
  const coll = db.collection(collOf(layout));
  const field = fieldOf(layout, at);
  const id = C.key(gen.START, gen.metricName(0))._id;
  const before = await writeLatency(coll);
  const t0 = performance.now();
  let updates;
  if (mode === 'bulk') {
    const ops = [];
    for (let i = 0; i < o.bulk; i++) ops.push({ updateOne: { filter: { _id: id }, update: { $inc: { [field]: 1 } } } });
    await coll.bulkWrite(ops, { ordered: true });
    updates = o.bulk;
  } else if (mode === 'single') {
    for (let i = 0; i < o.single; i++) await coll.updateOne({ _id: id }, { $inc: { [field]: 1 } });
    updates = o.single;
  } else {
    const r = await coll.updateMany({}, { $inc: { [field]: 1 } });
    updates = r.modifiedCount;
  }
  const ms = performance.now() - t0;
  const after = await writeLatency(coll);
  return { ms, updates, serverUs: after.us - before.us, serverOps: after.ops - before.ops };
}

module.exports = { prepareMicro, runOnce, LAYOUTS, MODES, fieldOf, collOf };
