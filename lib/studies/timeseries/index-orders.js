'use strict';
// created_on_1 built both ways on the same events, for 003-bytes/index (read-3 dispute 19). An index
// built in bulk after a load packs its pages from sorted keys; one grown by inserts splits pages as
// keys arrive. The source does not say which it did, so the rule wants created_on_1's file bytes
// from both orders: two side collections of the lab's own, each holding the first events of the raw
// collection (record order: the writer's random created_on order), one with created_on_1 made before
// the inserts and one with it built after them. Both are dropped before the step ends.
const LabFormat = require('../../../scripts/lib/format');
const LabRecords = require('../../../scripts/lib/records');
const { claim, dropOwned } = require('../../infra/targets');
const { NAME } = require('./setting');

// Per-event size of sorted Date keys hardly depends on the count (10.8 / 10.9 B at 10^6, 11.3 B at
// 10^5 built after the load): a million events show the packing at a few seconds' cost, at any N.
const SIDE_EVENTS = 1000000;
const INDEX = 'created_on_1';
const SIDES = [
  {
    built: 'before-load',
    suffix: 'ixgrown',
    how: 'created_on_1 made on the empty collection, then the events inserted ($merge)',
  },
  {
    built: 'after-load',
    suffix: 'ixbulk',
    how: 'the events inserted ($merge), then created_on_1 built in bulk',
  },
];

/** The side collections' names for the events collection `coll` (the study's `derived` lists them). */
function sideNames(coll) {
  return SIDES.map((s) => `${coll}_${s.suffix}`);
}

/** Fills side collection `name` (claimed) with the first `k` events of `coll`, the index made before or after. */
async function fillSide(db, coll, name, side, k) {
  const target = db.collection(name);
  const t0 = Date.now();
  if (side.built === 'before-load') await target.createIndex({ created_on: 1 });
  await db
    .collection(coll)
    .aggregate([{ $limit: k }, { $merge: { into: name, whenMatched: 'fail', whenNotMatched: 'insert' } }])
    .toArray();
  if (side.built === 'after-load') await target.createIndex({ created_on: 1 });
  return Date.now() - t0;
}

/** On-disk sizes are only current after a checkpoint: ask for one (a server may refuse fsync). */
async function checkpoint(db) {
  try {
    await db.admin().command({ fsync: 1 });
    return true;
  } catch (e) {
    return false; // sizes as of the last checkpoint
  }
}

/** created_on_1's file bytes (collStats indexSizes, reusable space included), its reusable bytes, the count. */
async function indexFileBytes(db, name) {
  const [{ storageStats: s }] = await db
    .collection(name)
    .aggregate([{ $collStats: { storageStats: {} } }])
    .toArray();
  const bm = s.indexDetails && s.indexDetails[INDEX] && s.indexDetails[INDEX]['block-manager'];
  return {
    bytes: Number(s.indexSizes[INDEX]),
    reusable: bm ? Number(bm['file bytes available for reuse'] || 0) : null,
    count: Number(s.count),
  };
}

function orderRecord(side, name, coll, size, ms, fsynced) {
  return LabRecords.measureRecord({
    study: NAME,
    name: 'createdOnBytes',
    value: size.bytes,
    unit: 'bytes',
    what: `created_on_1's file bytes (collStats indexSizes, reusable space included), ${side.how}`,
    extra: {
      built: side.built,
      events: size.count,
      bytesPerEvent: size.bytes / size.count,
      reusableBytes: size.reusable,
      inUseBytes: size.reusable === null ? size.bytes : size.bytes - size.reusable,
      from: `the first ${LabFormat.fmtInt(size.count)} events of ${coll} in record order`,
      coll: name,
      ms,
      checkpointed: fsynced,
    },
  });
}

/**
 * The two createdOnBytes measures (extra.built 'before-load' and 'after-load', extra.events the side
 * collections' count) from min(events, 1,000,000) events of p.COLL; [] for an empty collection.
 */
async function indexOrders(ctx, p, events) {
  const k = Math.min(events, SIDE_EVENTS);
  if (!k) return [];
  const names = sideNames(p.COLL);
  const made = [];
  try {
    const ms = [];
    for (const [i, side] of SIDES.entries()) {
      // A foreign collection under the name is refused here, before anything is written into it.
      await claim(ctx.db, names[i], { kind: 'scratch', fresh: true, doing: 'build created_on_1 both ways in' });
      made.push(names[i]);
      ms.push(await fillSide(ctx.db, p.COLL, names[i], side, k));
    }
    const fsynced = await checkpoint(ctx.db);
    const sizes = [];
    for (const name of names) sizes.push(await indexFileBytes(ctx.db, name));
    if (sizes.some((x) => !x.count)) return []; // the events went meanwhile: nothing to divide by
    const out = SIDES.map((side, i) => orderRecord(side, names[i], p.COLL, sizes[i], ms[i], fsynced));
    const inUse = out.map((r) => `${(r.extra.inUseBytes / r.extra.events).toFixed(1)} B`);
    const file = out.map((r) => `${r.extra.bytesPerEvent.toFixed(1)} B`);
    ctx.echo(
      `created_on_1 on ${LabFormat.fmtInt(out[0].extra.events)} events: ${inUse[0]} per event grown by inserts, ${inUse[1]} built after the load, in use (the files ${file[0]} and ${file[1]}) (003-bytes/index)`,
    );
    return out;
  } finally {
    // Only what this step claimed: a refused foreign collection is left as it is.
    for (const name of made.reverse()) await dropOwned(ctx.db, name);
  }
}

module.exports = { indexOrders, sideNames, SIDE_EVENTS };
