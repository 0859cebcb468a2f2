'use strict';
// Streams generated documents into a collection with the Node driver.
//
// - Constant memory: documents come from an iterator, at most `inflight` batches exist at once.
// - Keeps the server busy: several insertMany batches in flight, unordered.
// - Safe to re-run: fixtures have deterministic _ids, and duplicate-key errors (11000) are the
//   expected result of inserting a batch twice, so a re-run or a resumed run adds nothing.
// - Marked: <db>.perflab_fixtures records what generated a collection, so a re-run with the same
//   spec skips the work, a different spec regenerates it, and a collection the lab did not make
//   is never overwritten.

const { createProgress } = require('./progress');

const META = 'perflab_fixtures';

class ForeignDataError extends Error {}

function sameSpec(meta, spec) {
  return meta && Object.keys(spec).every((k) => meta[k] === spec[k]);
}

function isOnlyDuplicates(err) {
  const errs = err && (err.writeErrors || (err.result && err.result.getWriteErrors && err.result.getWriteErrors()));
  if (err && err.code === 11000) return true;
  return Array.isArray(errs) && errs.length > 0 && errs.every((e) => e.code === 11000);
}

/** Inserts a batch; a duplicate key is not an error (re-runs); returns the number inserted. */
async function insertBatch(coll, docs) {
  try {
    const r = await coll.insertMany(docs, { ordered: false });
    return r.insertedCount;
  } catch (e) {
    if (isOnlyDuplicates(e)) return e.insertedCount !== undefined ? e.insertedCount : (e.result && e.result.insertedCount) || 0;
    throw e;
  }
}

/**
 * Writes docs from an iterable into coll, batchSize at a time with up to `inflight` batches
 * pending. Returns { inserted, read, ms }.
 */
async function streamInsert(coll, docs, { batchSize = 10000, inflight = 4, total, label = 'loading', progress } = {}) {
  const bar = createProgress(label, total, { enabled: progress });
  const pending = new Set();
  let inserted = 0;
  let read = 0;
  let batch = [];
  const t0 = Date.now();
  const flush = async (b) => {
    const p = insertBatch(coll, b).then((n) => { inserted += n; bar.increment(b.length); });
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => {});
    if (pending.size >= inflight) await Promise.race(pending);
  };
  try {
    for await (const d of docs) {
      batch.push(d);
      read++;
      if (batch.length === batchSize) {
        const b = batch;
        batch = [];
        await flush(b);
      }
    }
    if (batch.length) await flush(batch);
    await Promise.all(pending);
  } finally {
    bar.stop();
  }
  return { inserted, read, ms: Date.now() - t0 };
}

/**
 * Makes sure db.collName holds the fixture described by spec ({ fixture, n, seed, ... }),
 * generating it with makeDocs() when needed. Returns { generated, count, inserted, ms }.
 */
async function ensureFixture(db, collName, spec, makeDocs, opts = {}) {
  const coll = db.collection(collName);
  const meta = await db.collection(META).findOne({ _id: collName });
  if (meta && meta.complete && sameSpec(meta, spec)) {
    return { generated: false, count: await coll.estimatedDocumentCount(), inserted: 0, ms: 0 };
  }
  if (!meta) {
    const count = await coll.estimatedDocumentCount();
    if (count > 0) {
      throw new ForeignDataError(`${db.databaseName}.${collName} holds ${count} documents the lab did not generate; ` +
        'the lab never overwrites data it does not own: choose another database (--db)');
    }
  } else if (!sameSpec(meta, spec)) {
    await coll.drop().catch(() => {});
  }
  // Incomplete with the same spec: resume; the duplicate _ids of what is there already are skipped.
  await db.collection(META).replaceOne({ _id: collName }, { _id: collName, ...spec, complete: false }, { upsert: true });
  const r = await streamInsert(coll, makeDocs(), { total: spec.n, label: `${collName}`, ...opts });
  await db.collection(META).updateOne({ _id: collName }, { $set: { complete: true, loadMs: r.ms } });
  // The collection's metadata count: a countDocuments() here would scan all of it again (minutes at 50M).
  return { generated: true, count: await coll.estimatedDocumentCount(), inserted: r.inserted, ms: r.ms };
}

module.exports = { streamInsert, insertBatch, ensureFixture, ForeignDataError, META };
