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
//     (awaited) with the number of leading documents that are all settled and on disk;
//     checkpointEvery (8): batches between two proofs of durability (see "durability at checkpoints");
//     journalEveryBatch: every batch j:true instead, as before 2026-11-29 (for bench:loaders).
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
//   so read = stored exactly.
// - What the load reports as stored is on disk: on a standalone mongod batches go with w:1 and a
//   journaled write after every few batches proves them on disk, the batches since the last proof
//   sent again if mongod restarted in between ("durability at checkpoints"); on a replica set each
//   batch asks for the journal and w: majority (unless the URI says otherwise).
// - ensureFixture verifies the count of this load's keys on the server before marking complete,
//   and records how far the load got (only what is proven on disk), so an interrupted load (the
//   loader killed, mongod killed) resumes from there instead of starting over, and is never reused
//   as complete.

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

/**
 * How the load's writes reach the disk (see "durability at checkpoints" below):
 * - a standalone mongod (the embedded one, most users' own): batches with w:1 and no journal wait,
 *   { writeConcern: {w}, barrier: {w, j: true}, processId } for the checkpoints;
 * - a replica set (w: majority unless the URI sets w), mongos, or a server that does not say which
 *   process it is: every batch waits for the journal, { writeConcern: {w, j: true}, barrier: null };
 * - w: 0 in the URI: { writeConcern: undefined } (the user asked for unacknowledged writes).
 * journalEveryBatch: as on a replica set whatever the server (bench:loaders --journal-every-batch
 * compares the two on one machine).
 */
async function loadDurability(coll, journalEveryBatch = false) {
  const own = coll.writeConcern || {};
  if (own.w === 0) return { writeConcern: undefined, barrier: null };
  let hello;
  try {
    hello = await dbOf(coll).admin().command({ hello: 1 });
  } catch (e) {
    hello = null; // unknown: every batch waits for the journal
  }
  const w = own.w !== undefined ? own.w : hello && hello.setName ? 'majority' : 1;
  const processId = standaloneProcessId(hello);
  if (processId === null || journalEveryBatch) return { writeConcern: { w, j: true }, barrier: null };
  return { writeConcern: { w }, barrier: { w, j: true }, processId };
}

function dbOf(coll) {
  return coll.db || coll.s.db;
}

/**
 * The id of the mongod process answering (hello's topologyVersion.processId, new at every start of
 * mongod, 4.4 and later), or null where it cannot speak for the data: a replica set (another member
 * may become primary), mongos (the shards are other processes), an older server.
 */
function standaloneProcessId(hello) {
  if (!hello || hello.setName || hello.msg === 'isdbgrid') return null;
  const tv = hello.topologyVersion;
  return tv && tv.processId ? String(tv.processId) : null;
}

/** Inserts a batch; a duplicate key is not an error (re-runs); returns the number inserted. */
async function insertBatch(coll, docs, writeConcern) {
  try {
    const r = await coll.insertMany(docs, writeConcern ? { ordered: false, writeConcern } : { ordered: false });
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
    let err;
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
  const r = await dbOf(coll).command({ count: coll.collectionName, query: { _id: { $in: ids } } });
  return r.n;
}

/**
 * fn() until it answers: a retryable failure (a restart or step-down in between) is retried like a
 * batch until retryMs has passed. Resolves { value, retries }.
 */
async function untilAnswered(coll, what, fn, { retryMs = 60000, log } = {}) {
  const t0 = Date.now();
  let delay = 200;
  for (let attempts = 1; ; attempts++) {
    try {
      return { value: await fn(), retries: attempts - 1 };
    } catch (err) {
      if (!isRetryable(err)) throw err;
      if (Date.now() - t0 > retryMs) {
        throw new LoadError(
          `${coll.namespace}: ${what} could not be done for ${Math.round(retryMs / 1000)} s ` +
            `(${String(err.message).split('\n')[0]}); the load stopped, nothing is marked complete: run again to resume`,
          { cause: err },
        );
      }
      if (attempts === 1 && log) log(`${coll.namespace}: ${String(err.message).split('\n')[0]}; retrying ${what}`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(2000, delay * 2);
    }
  }
}

/**
 * Counts a settled batch's _ids on the server (a restart between the insert and the count is not a
 * lost batch: the count is retried). Resolves how many times the count was sent again.
 */
async function verifyBatch(coll, batch, { retryMs = 60000, log } = {}) {
  const ids = [...new Map(batch.map((d) => [idKey(d._id), d._id])).values()];
  const { value: n, retries } = await untilAnswered(coll, "a written batch's count", () => countIds(coll, ids), {
    retryMs,
    log,
  });
  if (n !== ids.length) {
    const e = new LoadError(
      `${coll.namespace}: the server acknowledged a batch of ${ids.length} keys but holds ${n} of them; the load stopped`,
    );
    e.missing = ids.length - n;
    throw e;
  }
  return retries;
}

/**
 * verifyBatch, for a load that writes w:1 batches and proves them per chunk (write.processId): a batch
 * acknowledged and then lost because mongod restarted before its journal reached the disk is sent
 * again and counted again, once; short for any other reason (the same mongod process), the load stops.
 */
async function verifyOrResend(coll, batch, write) {
  try {
    return await verifyBatch(coll, batch, write);
  } catch (e) {
    if (!e.missing || !write.processId) throw e;
    const hello = await untilAnswered(coll, 'hello', () => dbOf(coll).admin().command({ hello: 1 }), write);
    const now = standaloneProcessId(hello.value);
    if (now === write.processId) throw e;
    if (write.log) write.log(`${coll.namespace}: mongod restarted; a batch acknowledged before it is sent again`);
    await settleBatch(coll, batch, write);
    return 1 + hello.retries + (await verifyBatch(coll, batch, write));
  }
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
 * The batches acknowledged in order: `batch` counts the leading batches that have all settled and
 * `docs` their documents, so what is reported never has a gap below it.
 */
function ackedPrefix() {
  const settled = new Map(); // batch number -> size, until the settled prefix passes it
  const prefix = {
    batch: 0,
    docs: 0,
    settle(no, size) {
      settled.set(no, size);
    },
    advance() {
      for (let size; (size = settled.get(prefix.batch)) !== undefined; prefix.batch++) {
        prefix.docs += size;
        settled.delete(prefix.batch);
      }
    },
  };
  return prefix;
}

/** Writes one batch, verified when asked (verify 'all', or 'retried' after a retry), and counts it into out. */
async function writeBatch(coll, b, out, write) {
  const { writeConcern, retryMs, describe, log, verify } = write;
  const r = await settleBatch(coll, b, { writeConcern, retryMs, describe, log });
  // A count sent again (the server went away after the batch settled) is a retry the load saw too.
  const countRetries =
    verify === 'all' || (verify === 'retried' && r.attempts > 1) ? await verifyOrResend(coll, b, write) : 0;
  out.inserted += r.inserted;
  out.duplicates += r.duplicates;
  out.stored += b.length;
  out.retries += r.attempts - 1 + countRetries;
}

// ---- durability at checkpoints ----------------------------------------------------------------
// Issue 37.5: a bare `await insertMany(batch)` loop writes with w:1 and never waits for the
// journal; the loader asked every batch for j:true, which put a journal sync (and the wake-ups of
// mongod's journal thread, queued behind any CPU-bound neighbour) on every batch's critical path.
// On a standalone mongod the batches now go with w:1 too: each batch's outcome is still looked at
// (the inserted count, every write error; refused documents stop the load). But an acknowledged
// w:1 batch may be only in mongod's memory until the journal's next group commit (every 100 ms by
// default): measured (journal commit every 500 ms), a 5,000-document batch acknowledged just
// before a kill -9 of mongod was gone after the restart. So durability is proven per chunk of batches instead of per batch:
// 1. once the first k batches have all been acknowledged (every `checkpointEvery` batches, and at
//    the end), one write with j:true is sent: the journal is one ordered log, and a journaled write
//    syncs it with every record written before (measured: that write syncs the log, a w:1 one does
//    not). The write is the last document of the chunk sent again (a duplicate key, "already
//    there"): it needs no privilege beyond the load's own inserts and creates nothing;
// 2. then the id of the mongod process (hello: topologyVersion.processId, new at every start) is
//    compared with the one read before the first batch. The same id: no restart came between, so
//    no acknowledged batch was lost before that sync, and the k batches are on disk. Only then are
//    they reported to onAcked: the fixture marker's "acked", from which a resume starts, never
//    names documents that are not on disk;
// 3. another id: mongod restarted. Every batch since the last proven chunk (they are kept until
//    proven) is sent again once the batches in flight have settled (idempotent: deterministic _ids,
//    duplicates count as "already there"; counted as retries), and 1-2 repeat.
// A load's end (streamInsert returning, ensureFixture's count and "complete") comes after the last
// proof. On a replica set (w: majority: another member may take over, which a process id cannot
// speak for), through mongos, or on a server that does not give its process id, every batch still
// waits for the journal (loadDurability).

/**
 * The checkpoints of one load: keep(no, batch) each batch sent; prove(upto, ...) proves the first
 * `upto` batches (all settled) on disk as above and reports them (onAcked: their documents, from
 * the load's first). Resolves false when the load must stop instead (a failure, an interrupt).
 */
function checkpoints(coll, out, write, { onAcked, sender }) {
  const kept = new Map(); // batch number -> batch, until proven on disk
  let processId = write.processId;
  let proven = 0;
  let provenDocs = 0;
  const stop = () => sender.failure || cleanup.interrupted();
  const answered = (what, fn) => untilAnswered(coll, what, fn, write).then((r) => r.value);
  // A journaled write after everything acknowledged so far; then the process that answered it.
  const syncAndAsk = async (upto) => {
    const last = kept.get(upto - 1);
    const doc = last[last.length - 1];
    await answered('the journal sync', () => insertBatch(coll, [doc], write.barrier));
    const hello = await answered('the server process check', () => dbOf(coll).admin().command({ hello: 1 }));
    return standaloneProcessId(hello);
  };
  // Every batch not yet proven, sent again to the process now answering (after a restart).
  const resend = async (sent) => {
    for (let no = proven; no < sent; no++) {
      if (stop()) return;
      const r = await settleBatch(coll, kept.get(no), write);
      out.retries += r.attempts;
    }
  };
  return {
    keep(no, b) {
      kept.set(no, b);
    },
    due(settled) {
      return settled - proven >= write.checkpointEvery;
    },
    async prove(upto, { settleAll, sent }) {
      if (upto <= proven) return true;
      for (;;) {
        if (stop()) return false;
        const id = await syncAndAsk(upto);
        if (id === processId) break;
        if (write.log)
          write.log(
            `${coll.namespace}: the server restarted during the load; the ${sent() - proven} batches since the last sync go again`,
          );
        await settleAll();
        if (stop()) return false;
        const answering = await answered('the server process check', () => dbOf(coll).admin().command({ hello: 1 }));
        processId = standaloneProcessId(answering);
        upto = sent();
        await resend(upto);
      }
      for (; proven < upto; proven++) {
        provenDocs += kept.get(proven).length;
        kept.delete(proven);
      }
      out.checkpoints++;
      if (onAcked) await onAcked(provenDocs);
      return true;
    },
  };
}

// ---- batches in flight -----------------------------------------------------------------------
// Why a fixed number, and not fewer on a busy machine (issue 37.5 asked whether it should adapt to
// free cores). Measured on 2 cores, 2026-11-28, when every batch still asked for the journal
// (bench:loaders --only stream --inflight N, 300,000 time-series events, 5-6 interleaved rounds,
// 95% CIs; the machine shared with other test suites):
// - the CPU work per document is the same at 1, 2 and 4 batches in flight and in a bare awaited
//   insertMany loop (~2.5 us in Node + ~2.7 us in mongod per event): batches in flight cost no CPU,
//   so when no core is free there is nothing for fewer of them to save;
// - one batch in flight was the slowest beside two burners: 0.78x a bare loop (0.64x..0.95x): each
//   batch's journal sync sat on the critical path. More batches hid that wait: 2 in flight 1.13x
//   (0.97x..1.30x) and 1.07x (0.73x..1.56x), 4 in flight 1.30x (0.89x..1.90x) and 1.25x (0.97x..1.60x);
//   a rule that fell to 2 when the CPU-wait share said no core was free gave 1.02x (0.68x..1.53x);
// - beside other sessions' work (load 12-17) 4 in flight gave 0.78x (0.53x..1.15x; issue 37 saw
//   0.75x), 2 gave 1.02x (0.48x..2.16x), 1 gave 1.00x: undecided, spreads of 2x per round.
// The journal wait is now off the batches' path on a standalone (durability at checkpoints), which
// removes the mechanism measured above rather than hiding it; batches in flight still cost no CPU.
// So `inflight` batches stay in flight whatever the load (bench:loaders --inflight N measures
// others). The adaptive rule (AIMD on the CPU-wait share) is in the history (commits 1806653, 24848f2).

/** Holds a promise in `pending` until it settles. */
function track(pending, p) {
  pending.add(p);
  p.finally(() => pending.delete(p));
}

/**
 * Sends batches with up to `inflight` pending, each counted into out and, once acknowledged in
 * order and on disk, reported to onAcked. The first failure is kept (sender.failure): the caller
 * stops reading.
 */
function batchSender(coll, out, bar, write, { inflight, onAcked }) {
  const pending = new Set();
  const acked = ackedPrefix();
  let nextBatch = 0;
  let reported = 0;
  const sender = { failure: null };
  const durable = write.barrier ? checkpoints(coll, out, write, { onAcked, sender }) : null;
  const settleAll = async () => {
    if (pending.size) await Promise.allSettled([...pending]);
  };
  const proveOptions = { settleAll, sent: () => nextBatch };
  // Each batch journaled (no checkpoints): the settled prefix is on disk as it is.
  const reportSettled = async () => {
    if (onAcked && acked.docs !== reported) await onAcked((reported = acked.docs));
  };
  // The proof's writes, like a batch's, finish before an interrupt's clean-up drops anything.
  const prove = (upto) => cleanup.unbroken(durable.prove(upto, proveOptions));
  Object.assign(sender, {
    async send(b) {
      const no = nextBatch++;
      if (durable) durable.keep(no, b);
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
      acked.advance();
      if (sender.failure) return;
      if (!durable) await reportSettled();
      else if (durable.due(acked.batch)) await prove(acked.batch);
    },
    // Every batch in flight settles (and is looked at), and is proven on disk, before the load returns.
    async drain() {
      await settleAll();
      if (sender.failure || cleanup.interrupted()) return;
      acked.advance();
      if (!durable) await reportSettled();
      else await prove(acked.batch);
    },
    settle: settleAll,
  });
  return sender;
}

/**
 * Writes docs from an iterable into coll, batchSize at a time with up to `inflight` batches
 * pending. Returns { read, stored, inserted, duplicates, retries, keys: {lo, hi, numeric}, ms,
 * inflight, durability: 'checkpoints' | 'every batch', checkpoints }.
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
    checkpointEvery = 8,
    journalEveryBatch = false,
  } = {},
) {
  const bar = createProgress(label, total, { enabled: progress });
  const write = { ...(await loadDurability(coll, journalEveryBatch)), checkpointEvery: Math.max(1, checkpointEvery) };
  Object.assign(write, { retryMs, describe, log, verify });
  const t0 = Date.now();
  const out = {
    read: 0,
    stored: 0,
    inserted: 0,
    duplicates: 0,
    retries: 0,
    checkpoints: 0,
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
  out.durability = write.barrier ? 'checkpoints' : 'every batch';
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
    durability: r.durability,
    checkpoints: r.checkpoints,
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
