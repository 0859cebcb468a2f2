'use strict';
// The one write path for every bulk load of the lab (fixtures, CSV import, benchmarks).
//
//   streamInsert(coll, docs, opts) -> {read, stored, inserted, duplicates, retries, keys, ms}
//     docs: any (async) iterable of documents, or with chunked: true an (async) iterable of arrays of
//     documents (a parser's rows per chunk read). opts: batchSize (10000), inflight (4; why not fewer
//     on a busy machine: see "batches in flight" below), total, label, progress,
//     retryMs (60000): how long a batch keeps retrying a retryable failure (step-down, restart,
//     network) before the load stops; verify ('retried' | 'all' | false): count each batch's _ids
//     on the server after it settled ('retried': only batches whose first outcome was unknown);
//     describe(doc) -> string, to name a refused document ("file.csv line 12"); onAcked(n) called
//     (awaited) with the number of leading documents that are all settled.
//   ensureFixture(db, collName, spec, makeDocs, opts) -> {action, generated, count, inserted, duplicates, ms}
//     the ownership protocol of scripts/lib/fixture.js (LabFixture.decide, by collection UUID) on the
//     Node side; opts.options: createCollection options of a collection it creates; opts.log.
//   insertBatch(coll, docs) -> number inserted (duplicate keys are not errors; others throw)
//   ForeignDataError, LoadError, META
//
// Guarantees (each is tested in test/safety-*.test.js):
// - Every batch's outcome is looked at: an unordered insertMany either succeeds, or says per
//   document what failed. Duplicate keys (11000) count as "already there"; any other refused
//   document stops the load with a LoadError naming it (after the batches in flight settled).
// - A batch whose outcome is unknown (the server went away, stepped down, a write-concern error)
//   is sent again until it settles or retryMs passes: deterministic _ids make that idempotent,
//   so read = stored exactly. Writes ask for the journal (j: true; w: majority on a replica set
//   unless the URI says otherwise), so an acknowledged batch survives a kill -9 of mongod.
// - ensureFixture verifies the count of this load's keys on the server before marking complete,
//   and records how far the load got, so an interrupted load resumes from its last acknowledged
//   batch instead of starting over.

const { createProgress } = require('./progress');
const LabFixture = require('../../scripts/lib/fixture');
const { ForeignDataError, LoadError, InterruptedLoad } = require('./errors');
const { inspect, createOwned, dropOwned, release } = require('./targets');
const cleanup = require('./cleanup');

const META = LabFixture.META;

// Errors after which the batch's outcome is unknown and sending it again is the cure.
const RETRY_CODES = new Set([6, 7, 89, 91, 189, 9001, 10107, 11600, 11602, 13435, 13436, 262, 64, 50, 134]);

function isRetryable(e) {
  if (!e) return false;
  if (typeof e.hasErrorLabel === 'function' && (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('ResetPool')))
    return true;
  if (/MongoNetwork|MongoServerSelection|MongoNotConnected|PoolClear|MongoWriteConcernError/.test(e.name || ''))
    return true;
  if (RETRY_CODES.has(e.code)) return true;
  if (e.cause && e.cause !== e) return isRetryable(e.cause);
  return /ECONNRESET|ECONNREFUSED|EPIPE|not primary|NotWritablePrimary|node is recovering|connection .*closed|Server selection timed out|PrimarySteppedDown|InterruptedDueToReplStateChange/i.test(
    e.message || '',
  );
}

/** The write concern of the lab's loads: journaled; majority on a replica set unless the URI sets w. */
async function loadWriteConcern(coll) {
  const own = coll.writeConcern || {};
  if (own.w === 0) return undefined; // the user asked for unacknowledged writes: nothing to add
  let w = own.w;
  if (w === undefined) {
    try {
      const hello = await (coll.db || coll.s.db).admin().command({ hello: 1 });
      w = hello.setName ? 'majority' : 1;
    } catch (e) {
      w = 1;
    }
  }
  return { w, j: true };
}

/** Inserts a batch; a duplicate key is not an error (re-runs); returns the number inserted. */
async function insertBatch(coll, docs) {
  try {
    const r = await coll.insertMany(docs, { ordered: false });
    return r.insertedCount;
  } catch (e) {
    const o = LabFixture.insertOutcome(e, docs.length);
    if (o && !o.other.length) return o.inserted;
    throw e;
  }
}

function refusedError(coll, o, batch, describe) {
  const first = o.other[0];
  const doc = first.index !== undefined ? batch[first.index] : undefined;
  const where = doc ? (describe ? describe(doc) : `_id ${JSON.stringify(doc._id)}`) : 'a document';
  const msg = first.errmsg || (first.err && first.err.errmsg) || first.message || `code ${first.code}`;
  return new LoadError(
    `${coll.namespace}: the server refused ${o.other.length} document(s); first: ${where}: ` +
      `${String(msg).split('\n')[0]} (code ${first.code}); the load stopped`,
  );
}

/**
 * Sends one batch until its outcome is known. Resolves {inserted, duplicates, attempts};
 * rejects with a LoadError (refused documents) or the last error once retryMs has passed.
 */
async function settleBatch(coll, batch, { writeConcern, retryMs, describe, log }) {
  const t0 = Date.now();
  let inserted = 0;
  let attempts = 0;
  let delay = 200;
  for (;;) {
    attempts++;
    let err = null;
    try {
      const r = await coll.insertMany(batch, writeConcern ? { ordered: false, writeConcern } : { ordered: false });
      inserted += r.insertedCount;
      return { inserted, duplicates: batch.length - inserted, attempts };
    } catch (e) {
      err = e;
    }
    const o = LabFixture.insertOutcome(err, batch.length);
    if (o) {
      const refused = o.other.filter((w) => !RETRY_CODES.has(w.code));
      if (refused.length) throw refusedError(coll, { other: refused }, batch, describe);
      if (!o.other.length) {
        inserted += o.inserted;
        return { inserted, duplicates: batch.length - inserted, attempts };
      }
      inserted += o.inserted; // some documents were interrupted (step-down): send the batch again
    } else if (!isRetryable(err)) {
      throw err;
    }
    if (Date.now() - t0 > retryMs) {
      throw new LoadError(
        `${coll.namespace}: a batch could not be written for ${Math.round(retryMs / 1000)} s ` +
          `(${String(err.message).split('\n')[0]}); the load stopped, nothing is marked complete: run again to resume`,
        { cause: err },
      );
    }
    if (attempts === 1 && log) log(`${coll.namespace}: ${String(err.message).split('\n')[0]}; retrying the batch`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(2000, delay * 2);
  }
}

/** A key telling _ids apart (a string as itself: JSON-encoding every row-hash _id cost more than the count). */
function idKey(id) {
  return typeof id === 'string' ? `s${id}` : `j${JSON.stringify(id)}`;
}

/**
 * How many of these _ids the collection holds. The count command with a query counts exactly
 * (only a count without one reads the metadata) and costs mongod ~10 % less than countDocuments'
 * aggregation for a batch of keys.
 */
async function countIds(coll, ids) {
  const db = coll.db || coll.s.db;
  const r = await db.command({ count: coll.collectionName, query: { _id: { $in: ids } } });
  return r.n;
}

/**
 * Counts a settled batch's _ids on the server. The count is retried like the batch (a restart or
 * step-down between the insert and the count is not a lost batch) until retryMs has passed.
 * Resolves how many times the count was sent again.
 */
async function verifyBatch(coll, batch, { retryMs = 60000, log } = {}) {
  const ids = [...new Map(batch.map((d) => [idKey(d._id), d._id])).values()];
  const t0 = Date.now();
  let delay = 200;
  let n;
  let attempts = 1;
  for (; ; attempts++) {
    try {
      n = await countIds(coll, ids);
      break;
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (Date.now() - t0 > retryMs) {
        throw new LoadError(
          `${coll.namespace}: a written batch could not be counted for ${Math.round(retryMs / 1000)} s ` +
            `(${String(err.message).split('\n')[0]}); the load stopped, nothing is marked complete: run again to resume`,
          { cause: err },
        );
      }
      if (attempts === 1 && log)
        log(`${coll.namespace}: ${String(err.message).split('\n')[0]}; retrying the batch's count`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(2000, delay * 2);
    }
  }
  if (n !== ids.length) {
    throw new LoadError(
      `${coll.namespace}: the server acknowledged a batch of ${ids.length} keys but holds ${n} of them; the load stopped`,
    );
  }
  return attempts - 1;
}

/**
 * Batches of `size` documents (the last may be shorter), from an async iterable of arrays of
 * documents (chunked), with one await per array: a synchronous iterable is one such chunk, an
 * async iterable of documents a chunk per document.
 */
function batchesOf(docs, size, chunked) {
  if (chunked) return chunkBatches(docs, size);
  const sync = typeof docs[Symbol.iterator] === 'function' && typeof docs[Symbol.asyncIterator] !== 'function';
  return chunkBatches(sync ? [docs] : oneByOne(docs), size);
}

async function* oneByOne(docs) {
  for await (const d of docs) yield [d];
}

async function* chunkBatches(chunks, size) {
  let batch = [];
  for await (const chunk of chunks) {
    for (const d of chunk) {
      batch.push(d);
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

/** The range of numeric _ids seen (ensureFixture counts that range to verify the load). */
function trackKeys(k, batch) {
  for (const d of batch) {
    if (typeof d._id === 'number') {
      if (k.lo === null || d._id < k.lo) k.lo = d._id;
      if (k.hi === null || d._id > k.hi) k.hi = d._id;
    } else {
      k.numeric = false;
    }
  }
}

/**
 * The documents acknowledged in order: a batch counts once every batch before it has settled too,
 * so onAcked(n) never reports a count with a gap below it.
 */
function ackedPrefix(onAcked) {
  const settled = new Map(); // batch number -> size, until the settled prefix passes it
  let batch = 0;
  let docs = 0;
  let reported = 0;
  return {
    settle(no, size) {
      settled.set(no, size);
    },
    async advance() {
      while (settled.has(batch)) {
        docs += settled.get(batch);
        settled.delete(batch);
        batch++;
      }
      if (onAcked && docs !== reported) {
        reported = docs;
        await onAcked(docs);
      }
    },
  };
}

/** Writes one batch, verified when asked (verify 'all', or 'retried' after a retry), and counts it into out. */
async function writeBatch(coll, b, out, { writeConcern, retryMs, describe, log, verify }) {
  const r = await settleBatch(coll, b, { writeConcern, retryMs, describe, log });
  // A count sent again (the server went away after the batch settled) is a retry the load saw too.
  const countRetries =
    verify === 'all' || (verify === 'retried' && r.attempts > 1) ? await verifyBatch(coll, b, { retryMs, log }) : 0;
  out.inserted += r.inserted;
  out.duplicates += r.duplicates;
  out.stored += b.length;
  out.retries += r.attempts - 1 + countRetries;
}

// ---- batches in flight -----------------------------------------------------------------------
// Why a fixed number, and not fewer on a busy machine (issue 37.5 asked whether it should adapt to
// free cores). Measured on 2 cores, 2026-11-28 (bench:loaders --only stream --inflight N, 300,000
// time-series events, 5-6 interleaved rounds, 95% CIs; the machine shared with other test suites):
// - the CPU work per document is the same at 1, 2 and 4 batches in flight and in a bare awaited
//   insertMany loop (~2.5 us in Node + ~2.7 us in mongod per event): batches in flight cost no CPU,
//   so when no core is free there is nothing for fewer of them to save;
// - one batch in flight is the slowest beside two burners: 0.78x a bare loop (0.64x..0.95x). Every
//   batch asks for the journal (j: true), so its journal flush and the wake-ups of mongod's writer
//   and flusher threads, each queued behind the burners, sit on the critical path (the bare loop,
//   w: 1 without j, does not wait for the journal). More batches hide that wait: 2 in flight 1.13x
//   (0.97x..1.30x) and 1.07x (0.73x..1.56x), 4 in flight 1.30x (0.89x..1.90x) and 1.25x (0.97x..1.60x);
//   a rule that fell to 2 when the CPU-wait share said no core was free gave 1.02x (0.68x..1.53x);
// - beside other sessions' work (load 12-17) 4 in flight gave 0.78x (0.53x..1.15x; issue 37 saw
//   0.75x), 2 gave 1.02x (0.48x..2.16x), 1 gave 1.00x: undecided, spreads of 2x per round.
// So `inflight` batches stay in flight whatever the load. The adaptive rule (AIMD on the CPU-wait
// share) is in the history (commits 1806653, 24848f2) should a decided measurement call for it.

/** Holds a promise in `pending` until it settles. */
function track(pending, p) {
  pending.add(p);
  p.finally(() => pending.delete(p));
}

/**
 * Sends batches with up to `inflight` pending, each counted into out and, once acknowledged in
 * order, reported to onAcked. The first failure is kept (sender.failure): the caller stops reading.
 */
function batchSender(coll, out, bar, write, { inflight, onAcked }) {
  const pending = new Set();
  const acked = ackedPrefix(onAcked);
  let nextBatch = 0;
  const sender = {
    failure: null,
    async send(b) {
      const no = nextBatch++;
      // A batch in flight when a signal comes finishes before the clean-up's ownership proof and
      // drop: sent after the drop, it would re-create the database as a collection with no marker.
      const p = cleanup.unbroken(
        (async () => {
          await writeBatch(coll, b, out, write);
          acked.settle(no, b.length);
          bar.increment(b.length);
        })(),
      );
      track(
        pending,
        p.catch((e) => {
          if (!sender.failure) sender.failure = e;
        }),
      );
      while (pending.size >= inflight) await Promise.race(pending);
      await acked.advance();
    },
    // Every batch in flight settles (and is looked at) before the load returns or throws.
    async drain() {
      await Promise.all([...pending]);
      if (!sender.failure) await acked.advance();
    },
    async settle() {
      if (pending.size) await Promise.allSettled([...pending]);
    },
  };
  return sender;
}

/**
 * Writes docs from an iterable into coll, batchSize at a time with up to `inflight` batches
 * pending. Returns { read, stored, inserted, duplicates, retries, keys: {lo, hi, numeric}, ms, inflight }.
 */
async function streamInsert(
  coll,
  docs,
  {
    batchSize = 10000,
    inflight = 4,
    total,
    label = 'loading',
    progress,
    retryMs = 60000,
    verify = 'retried',
    describe,
    onAcked,
    log,
    chunked = false,
  } = {},
) {
  const bar = createProgress(label, total, { enabled: progress });
  const write = { writeConcern: await loadWriteConcern(coll), retryMs, describe, log, verify };
  const t0 = Date.now();
  const out = {
    read: 0,
    stored: 0,
    inserted: 0,
    duplicates: 0,
    retries: 0,
    keys: { lo: null, hi: null, numeric: true },
  };
  const sender = batchSender(coll, out, bar, write, { inflight: Math.max(1, inflight), onAcked });
  try {
    // Whole batches from the source: a synchronous generator (every fixture) is read without a
    // promise per document, which cost more than generating the documents.
    // Once interrupted, no new batch: the clean-up then finds the database still (no write
    // re-creating it after its drop) and does its work within its time budget.
    const stopping = cleanup.interrupted;
    for await (const b of batchesOf(docs, batchSize, chunked)) {
      if (sender.failure || stopping()) break;
      trackKeys(out.keys, b);
      out.read += b.length;
      await sender.send(b);
    }
    await sender.drain();
  } finally {
    await sender.settle();
    bar.stop();
  }
  if (sender.failure) throw sender.failure;
  if (cleanup.interrupted())
    throw new InterruptedLoad(`${coll.namespace}: the load stopped at ${out.stored} documents (interrupted)`);
  out.ms = Date.now() - t0;
  out.inflight = Math.max(1, inflight);
  return out;
}

/** Skips the first `from` documents of an iterable (the generator still runs: seeds stay in step). */
function skipFirst(docs, from) {
  if (!from) return docs;
  const sync = typeof docs[Symbol.iterator] === 'function' && typeof docs[Symbol.asyncIterator] !== 'function';
  return sync ? skipSync(docs, from) : skipAsync(docs, from);
}

function* skipSync(docs, from) {
  let i = 0;
  for (const d of docs) if (i++ >= from) yield d;
}

async function* skipAsync(docs, from) {
  let i = 0;
  for await (const d of docs) if (i++ >= from) yield d;
}

/**
 * Makes sure db.collName holds the fixture described by spec ({ fixture, n, seed, ... }),
 * generating it with makeDocs() when needed. Returns { action, generated, count, inserted, duplicates, ms }.
 */
async function ensureFixture(db, collName, spec, makeDocs, opts = {}) {
  const s = await inspect(db, collName, spec);
  const d = s.decision;
  const markers = db.collection(META);
  if (d.action === 'reuse')
    return { action: d.action, generated: false, count: s.count, inserted: 0, duplicates: 0, ms: 0 };
  if (d.action === 'foreign') throw new ForeignDataError(LabFixture.foreignMessage(s.target, d.why, 'fill'));
  const { verify = 'retried', options, log, ...rest } = opts;
  if (d.action === 'regenerate') await dropOwned(db, collName);
  if (d.action !== 'resume') await createOwned(db, collName, options, 'fixture', spec);
  // Resume: the documents before the last acknowledged prefix are there; the generator still runs
  // through them (cheap) so the seed stays in step, but they are not sent again.
  const from = d.action === 'resume' && s.meta && Number.isInteger(s.meta.acked) ? s.meta.acked : 0;
  await markers.updateOne({ _id: collName }, { $set: { complete: false, acked: from } });
  try {
    return await fillFixture(db, collName, spec, makeDocs, { from, verify, log, ...rest }, d.action);
  } catch (e) {
    // Refused documents (a validator, a full capped collection...) will be refused again: what this
    // load wrote goes. An unknown outcome (the server went away) keeps the marker: a re-run resumes.
    if (!(e instanceof InterruptedLoad) && !isRetryable(e) && !(e.cause && isRetryable(e.cause)))
      await release(db, collName, String(e.message).split('\n')[0], log || ((m) => process.stderr.write(`${m}\n`)));
    throw e;
  }
}

async function fillFixture(db, collName, spec, makeDocs, { from, verify, ...rest }, action) {
  const coll = db.collection(collName);
  const markers = db.collection(META);
  let lastMark = Date.now();
  const onAcked = async (n) => {
    if (Date.now() - lastMark < 2000) return;
    lastMark = Date.now();
    // A progress note for a later resume: during a restart or an election it is skipped (the next
    // batch writes it again, and a resume from an older prefix re-sends idempotent batches).
    await markers.updateOne({ _id: collName }, { $set: { acked: from + n } }).catch((e) => {
      if (!isRetryable(e)) throw e;
      lastMark = 0;
    });
  };
  const r = await streamInsert(coll, skipFirst(makeDocs(), from), {
    total: spec.n,
    label: `${collName}`,
    verify,
    onAcked,
    ...rest,
  });
  // Verify before marking complete: the keys this fixture consists of must all be on the server.
  let stored;
  if (r.keys.numeric && from === 0 && r.keys.lo !== null) {
    stored = await coll.countDocuments({ _id: { $gte: r.keys.lo, $lte: r.keys.hi } });
  } else {
    stored = await coll.countDocuments({});
  }
  const want = typeof spec.n === 'number' ? spec.n : from + r.read;
  if (from + r.read !== want || stored !== want) {
    throw new LoadError(
      `${db.databaseName}.${collName}: generated ${from + r.read}, the server holds ${stored}, expected ${want}; ` +
        'the load stopped',
    );
  }
  await markers.updateOne({ _id: collName }, { $set: { complete: true, acked: want, loadMs: r.ms } });
  return {
    action,
    generated: true,
    count: stored,
    inserted: r.inserted,
    duplicates: r.duplicates,
    ms: r.ms,
    retries: r.retries,
    inflight: r.inflight,
  };
}

module.exports = {
  streamInsert,
  insertBatch,
  ensureFixture,
  ForeignDataError,
  LoadError,
  META,
  isRetryable,
};
