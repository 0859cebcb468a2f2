'use strict';
// Study 004 on the Node side: every way of keeping per-minute counts, as targets the concurrent
// writers drive with the same hits. The four counter schemas issue exactly the update documents
// of scripts/counters_functions.js (the pasteable recordHit/preallocate); the three alternatives are
// what one would pick today.
const C = require('../../../scripts/counters_functions');
const gen = require('../../../fixtures/counters-gen');

const DAY = gen.DAY_MS;
const OWNER = 'counters-004';
const { assertAllOwned, createOwned, dropOwned, META } = require('../../infra/targets');

function isDup(e) {
  return (
    e &&
    (e.code === 11000 ||
      (Array.isArray(e.writeErrors) && e.writeErrors.length > 0 && e.writeErrors.every((w) => w.code === 11000)))
  );
}

// Two first upserts of the same new _id can race; the loser fails with E11000 and retries.
async function retryDup(fn) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isDup(e) || attempt >= 3) throw e;
    }
  }
}

// Times fn as one operation when a latency recorder is given (lib/core/latency.js).
function timed(lat, fn) {
  return lat ? lat.time(fn) : fn();
}

function zeros() {
  return new Array(1440).fill(0);
}

// Minute counts of one stored counter document, whatever its layout.
function docMinutes(schema, doc) {
  const out = zeros();
  if (!doc || !doc.minute) return out;
  if (schema === 'array') return doc.minute.map(Number);
  if (schema === 'hierarchical' || schema === 'bulk') {
    for (const [hh, mins] of Object.entries(doc.minute))
      for (const [mm, n] of Object.entries(mins)) out[+hh * 60 + +mm] = Number(n);
  } else {
    for (const [k, n] of Object.entries(doc.minute)) out[+k] = Number(n);
  }
  return out;
}

function counterTarget(schema, prefix = 'counters_') {
  const layout = schema === 'bulk' ? 'hierarchical' : schema;
  return {
    name: schema,
    coll: `${prefix}${schema}`,
    layout,
    preallocates: schema !== 'initial',
    kind: 'counter',
    async create(db) {
      await createOwned(db, this.coll, {}, OWNER, { fixture: OWNER });
    },
    async preallocateDay(db, dayMs, metrics) {
      const ops = [];
      for (let k = 0; k < metrics; k++) {
        const p = C.preallocUpdate(layout, dayMs, gen.metricName(k));
        ops.push({ updateOne: { filter: p.filter, update: p.update, upsert: true } });
      }
      if (ops.length) await db.collection(this.coll).bulkWrite(ops, { ordered: false });
    },
    // One writer's share of a slot, hit by hit (the source's record_hit); lat: times each hit's writes.
    async write(db, hits, wc, lat) {
      const coll = db.collection(this.coll);
      const opts = { writeConcern: wc };
      for (const hit of hits) await timed(lat, () => this.recordHit(coll, hit, opts));
    },
    async recordHit(coll, hit, opts) {
      if (this.preallocates && hit.prealloc) {
        const p = C.preallocUpdate(layout, hit.t + DAY, hit.metric);
        await retryDup(() => coll.updateOne(p.filter, p.update, { ...opts, upsert: true }));
      }
      const key = C.key(hit.t, hit.metric);
      const upd = C.hitUpdate(layout, hit.t);
      if (layout === 'array') {
        const r = await coll.updateOne(key, upd, opts);
        if (r.acknowledged && r.matchedCount === 0) {
          const p = C.preallocUpdate('array', hit.t, hit.metric);
          await retryDup(() => coll.updateOne(p.filter, p.update, { ...opts, upsert: true }));
          await coll.updateOne(key, upd, opts);
        }
      } else {
        await retryDup(() => coll.updateOne(key, upd, { ...opts, upsert: true }));
      }
    },
    async readDay(db, dayMs, metric) {
      const doc = await db
        .collection(this.coll)
        .findOne({ _id: C.key(dayMs, metric)._id }, { projection: { minute: 1 } });
      return docMinutes(layout, doc);
    },
  };
}

// bulk: each writer adds up its hits of the slot per metric on the client and sends one unordered
// bulkWrite of $inc (hierarchical documents, preallocated like the hierarchical schema).
function bulkTarget(prefix) {
  const t = counterTarget('bulk', prefix);
  t.batched = true; // one bulkWrite per writer and slot: a w:0 barrier only at the slot's end (day.js)
  t.write = async function (db, hits, wc, lat) {
    const coll = db.collection(this.coll);
    const ops = [];
    const seen = new Set();
    for (const hit of hits) {
      if (!hit.prealloc) continue;
      const p = C.preallocUpdate('hierarchical', hit.t + DAY, hit.metric);
      if (seen.has(p.filter._id)) continue;
      seen.add(p.filter._id);
      ops.push({ updateOne: { filter: p.filter, update: p.update, upsert: true } });
    }
    const agg = new Map();
    for (const hit of hits) {
      const minute = Math.floor(hit.t / 60000);
      const k = `${minute}|${hit.metric}`;
      const a = agg.get(k);
      if (a) a.n++;
      else agg.set(k, { t: minute * 60000, metric: hit.metric, n: 1 });
    }
    for (const a of agg.values()) {
      ops.push({
        updateOne: { filter: C.key(a.t, a.metric), update: C.hitUpdate('hierarchical', a.t, a.n), upsert: true },
      });
    }
    if (!ops.length) return;
    await timed(lat, async () => {
      try {
        await coll.bulkWrite(ops, { ordered: false, writeConcern: wc });
      } catch (e) {
        if (!isDup(e)) throw e;
        // only the upserts that lost a race failed: send those again
        const again = e.writeErrors.map((w) => ops[w.index]);
        await retryDup(() => coll.bulkWrite(again, { ordered: false, writeConcern: wc }));
      }
    });
  };
  return t;
}

// timeseries: one small document per hit in a time-series collection; counts by $group on read.
function timeseriesTarget(prefix = 'counters_') {
  return {
    name: 'timeseries',
    coll: `${prefix}timeseries`,
    kind: 'alternative',
    preallocates: false,
    async create(db) {
      await createOwned(
        db,
        this.coll,
        { timeseries: { timeField: 't', metaField: 'metric', granularity: 'minutes' } },
        OWNER,
        { fixture: OWNER },
      );
    },
    async write(db, hits, wc, lat) {
      const coll = db.collection(this.coll);
      for (const hit of hits)
        await timed(lat, () => coll.insertOne({ t: new Date(hit.t), metric: hit.metric }, { writeConcern: wc }));
    },
    async readDay(db, dayMs, metric) {
      const start = new Date(dayMs);
      const rows = await db
        .collection(this.coll)
        .aggregate([
          { $match: { metric, t: { $gte: start, $lt: new Date(dayMs + DAY) } } },
          { $group: { _id: { $floor: { $divide: [{ $subtract: ['$t', start] }, 60000] } }, n: { $sum: 1 } } },
        ])
        .toArray();
      const out = zeros();
      for (const r of rows) out[r._id] = r.n;
      return out;
    },
  };
}

// minute-docs: one small document per (metric, minute), upsert $inc {n: 1}; unique index on the key.
function minuteDocsTarget(prefix = 'counters_') {
  return {
    name: 'minute-docs',
    coll: `${prefix}minute_docs`,
    kind: 'alternative',
    preallocates: false,
    async create(db) {
      await createOwned(db, this.coll, {}, OWNER, { fixture: OWNER });
      await db.collection(this.coll).createIndex({ metric: 1, minute: 1 }, { unique: true });
    },
    async write(db, hits, wc, lat) {
      const coll = db.collection(this.coll);
      for (const hit of hits) {
        const minute = new Date(Math.floor(hit.t / 60000) * 60000);
        await timed(lat, () =>
          retryDup(() =>
            coll.updateOne({ metric: hit.metric, minute }, { $inc: { n: 1 } }, { upsert: true, writeConcern: wc }),
          ),
        );
      }
    },
    async readDay(db, dayMs, metric) {
      const docs = await db
        .collection(this.coll)
        .find(
          { metric, minute: { $gte: new Date(dayMs), $lt: new Date(dayMs + DAY) } },
          { projection: { _id: 0, minute: 1, n: 1 } },
        )
        .toArray();
      const out = zeros();
      for (const d of docs) out[(d.minute - dayMs) / 60000] = Number(d.n);
      return out;
    },
  };
}

const TARGETS = {
  initial: (prefix) => counterTarget('initial', prefix),
  preallocated: (prefix) => counterTarget('preallocated', prefix),
  hierarchical: (prefix) => counterTarget('hierarchical', prefix),
  array: (prefix) => counterTarget('array', prefix),
  timeseries: timeseriesTarget,
  'minute-docs': minuteDocsTarget,
  bulk: bulkTarget,
};
const ALL = Object.keys(TARGETS);

/** A schema's target; its collection is prefix + name (default prefix 'counters_'). */
function target(name, prefix) {
  const f = TARGETS[name];
  if (!f) throw new Error(`unknown counters schema ${JSON.stringify(name)} (known: ${ALL.join(', ')})`);
  return f(prefix);
}

/**
 * Drops and re-creates the collections of `targets`, after checking the lab owns them (by UUID,
 * lib/infra/targets.js): a collection the lab did not make, empty or not, is never touched.
 */
async function ownCollections(db, targets) {
  // Every target is checked before any is touched: a foreign collection stops the run with nothing
  // dropped, and one line names every foreign one.
  await assertAllOwned(
    db,
    targets.map((t) => t.coll),
    'drop and re-create',
  );
  for (const t of targets) {
    await dropOwned(db, t.coll);
    await t.create(db); // createOwned: create, read the UUID, mark
    await db.collection(META).updateOne({ _id: t.coll }, { $set: { complete: true } });
  }
}

module.exports = {
  target,
  ALL,
  COUNTERS: ['initial', 'preallocated', 'hierarchical', 'array'],
  ownCollections,
  docMinutes,
  retryDup,
  OWNER,
};
