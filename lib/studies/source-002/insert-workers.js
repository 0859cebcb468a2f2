'use strict';
// W concurrent workers on one MongoDB collection, three ways (the source's "threads vs processes"):
//   async        W async loops sharing one MongoClient (its connection pool): Node's "threads"
//   connections  W MongoClients of one connection each, in this process
//   processes    W child processes (child_process.fork), each with its own client
// Every worker prepares its inputs and connects first; then all start together at a barrier, so
// the time is the work alone and a race between workers is a real race.
//
// A job is plain data (it crosses process boundaries): { kind, coll, ... } with kind
//   insert  { from, to, size, seed, batch, ordered, w }   documents [from, to) split over W
//   race    { pattern, n, chars, seed, guards }           the same n entries, in order, per worker
//   claim   { random, seed }                               claim tasks until none is left

const path = require('path');
const { fork } = require('child_process');
const G = require('../../../fixtures/inserts-gen');
const { Latency, merged } = require('../../core/latency');
const cleanup = require('../../infra/cleanup');

const MODES = ['async', 'connections', 'processes'];
const RACE_PATTERNS = [
  'check-then-insert',
  'check-then-insert-w0',
  'unique-insert',
  'upsert-unique',
  'upsert-index',
  'upsert-noindex',
  'txn-check-insert',
  'txn-guard',
];

// The race whose racers write unacknowledged: its barrier needs each racer on one connection of its own.
const W0_RACE = 'check-then-insert-w0';

function now() {
  const t = process.hrtime.bigint();
  return Number(t) / 1e6;
}

function isDuplicateKey(e) {
  return (
    !!e && (e.code === 11000 || (e.writeErrors && e.writeErrors.some && e.writeErrors.some((x) => x.code === 11000)))
  );
}

// ---- what one worker does ------------------------------------------------------------------

/** Builds a worker's inputs before the barrier (untimed). */
function prepare(job, w, W) {
  if (job.kind === 'insert') {
    const per = Math.ceil((job.to - job.from) / W);
    const from = job.from + w * per;
    const to = Math.min(job.to, from + per);
    return { docs: from < to ? G.payloadDocs(job.seed, from, to, job.size) : [] };
  }
  if (job.kind === 'race') return { entries: G.raceEntries(job.seed, job.n, job.chars) };
  return {};
}

// Every worker times each operation it sends (an insertOne, an insertMany of one batch, one race
// entry, one claim attempt) into its own histogram, shipped back encoded with its result.
async function insertWork(coll, job, input, lat) {
  const docs = input.docs;
  const wc = job.w === undefined ? undefined : { w: job.w };
  const opts = wc ? { writeConcern: wc } : {};
  if (job.batch === 1) {
    for (const d of docs) await lat.time(() => coll.insertOne(d, opts));
  } else {
    for (let i = 0; i < docs.length; i += job.batch) {
      await lat.time(() => coll.insertMany(docs.slice(i, i + job.batch), { ...opts, ordered: job.ordered !== false }));
    }
  }
  return { docs: docs.length };
}

// One entry of a race: the pattern's reads and writes for one key (one operation for the histogram).
async function raceEntry(r, e) {
  const { job, coll, guards, session, out, w } = r;
  const txn = !!session;
  const doc = { key: e.key, data: e.data, by: w };
  if (job.pattern === 'check-then-insert') {
    if (!(await coll.findOne({ key: e.key }, { projection: { _id: 1 } }))) {
      await coll.insertOne(doc);
      out.inserted++;
    }
  } else if (job.pattern === W0_RACE) {
    // The source's inferred writer (PyMongo < 2.4 Connection): the insert returns once sent, before
    // the server applies it, and says nothing of its fate. `inserted` counts the inserts sent; the
    // coordinator's count afterwards (sent = stored, after every racer's barrier) is their check.
    if (!(await coll.findOne({ key: e.key }, { projection: { _id: 1 } }))) {
      const res = await coll.insertOne(doc, { writeConcern: { w: 0 } });
      if (res.acknowledged !== false) throw new Error(`${W0_RACE}: the driver acknowledged a w: 0 insert`);
      out.inserted++;
    }
  } else if (job.pattern === 'unique-insert') {
    try {
      await coll.insertOne(doc);
      out.inserted++;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      out.dupErrors++;
    }
  } else if (job.pattern.startsWith('upsert-')) {
    try {
      const r = await coll.updateOne({ key: e.key }, { $setOnInsert: { data: e.data, by: w } }, { upsert: true });
      if (r.upsertedCount) out.inserted++;
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      out.dupErrors++;
    }
  } else if (txn) {
    let inserted = false;
    await session.withTransaction(async () => {
      out.attempts++;
      inserted = false;
      // txn-guard writes a per-key guard document first: two transactions for the same key
      // then write the same document, so one of them gets a write conflict and retries on a
      // snapshot that shows the other's insert. Without it, snapshot isolation lets both read
      // "absent" and both insert (write skew): a transaction alone does not fix the race.
      if (job.pattern === 'txn-guard') {
        await guards.updateOne({ _id: e.key }, { $inc: { n: 1 } }, { upsert: true, session });
      }
      if (!(await coll.findOne({ key: e.key }, { projection: { _id: 1 }, session }))) {
        await coll.insertOne({ ...doc }, { session });
        inserted = true;
      }
    });
    if (inserted) out.inserted++;
  } else {
    throw new Error(`unknown race pattern ${job.pattern}`);
  }
}

async function raceWork(client, coll, job, input, w, lat) {
  const out = { inserted: 0, dupErrors: 0, attempts: 0 };
  const guards = client.db(job.db).collection(job.guards || `${job.coll}_guards`);
  const session = job.pattern.startsWith('txn-') ? client.startSession() : null;
  const r = { job, coll, guards, session, out, w };
  try {
    for (const e of input.entries) await lat.time(() => raceEntry(r, e));
    // The w: 0 racer's barrier: a ping on its own (only) connection returns after the server has
    // applied every message the racer sent before it, so the count afterwards sees all its inserts.
    if (job.pattern === W0_RACE) await client.db('admin').command({ ping: 1 });
  } finally {
    if (session) await session.endSession();
  }
  return out;
}

async function claimOne(coll, w, x) {
  const update = { $set: { processed: 1, by: w } };
  if (x === null) return coll.findOneAndUpdate({ processed: 0 }, update, { sort: { r: 1 }, projection: { _id: 1 } });
  const doc = await coll.findOneAndUpdate({ processed: 0, r: { $gte: x } }, update, {
    sort: { r: 1 },
    projection: { _id: 1 },
  });
  if (doc) return doc;
  return coll.findOneAndUpdate({ processed: 0, r: { $lt: x } }, update, { sort: { r: 1 }, projection: { _id: 1 } });
}

async function claimWork(coll, job, w, lat) {
  const next = job.random ? G.rng((job.seed * 7919 + w) >>> 0) : null;
  const ids = [];
  for (;;) {
    const doc = await lat.time(() => claimOne(coll, w, next ? next() : null));
    if (!doc) break;
    ids.push(doc._id);
  }
  return { claims: ids.length, ids };
}

async function work(client, job, input, w) {
  const coll = client.db(job.db).collection(job.coll);
  const lat = new Latency();
  let out;
  if (job.kind === 'insert') out = await insertWork(coll, job, input, lat);
  else if (job.kind === 'race') out = await raceWork(client, coll, job, input, w, lat);
  else if (job.kind === 'claim') out = await claimWork(coll, job, w, lat);
  else throw new Error(`unknown job kind ${job.kind}`);
  // The worker's pool as its client was built (recorded by the races: a w: 0 racer's ping follows
  // its own inserts only on the one connection its pool of 1 allows; operations are ordered per
  // connection, not per client).
  const pool = client.options && client.options.maxPoolSize;
  return { ...out, ops: lat.count, latency: lat.encode(), ...(typeof pool === 'number' ? { maxPoolSize: pool } : {}) };
}

// ---- the coordinator -----------------------------------------------------------------------

// Unacknowledged (w: 0) inserts return before the server has applied them, and a refused one says
// nothing: the collection is counted until it holds every document, or until the count has not
// moved for SETTLE_MS (the rest were refused: stored + rejected = written). The caller's count
// then becomes the answer, which the study's oracle checks against the documents written.
const SETTLE_MS = 2000;

async function waitForCount(coll, expected, settleMs = SETTLE_MS) {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const n = await coll.estimatedDocumentCount();
    if (n >= expected) return n;
    if (n !== last) {
      last = n;
      since = Date.now();
    } else if (Date.now() - since > settleMs) return n;
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** W clients opened at once; when one fails, the others are closed and its error thrown. */
async function openAll(W, open) {
  const got = await Promise.allSettled(Array.from({ length: W }, open));
  const bad = got.find((g) => g.status === 'rejected');
  if (!bad) return got.map((g) => g.value);
  const opened = got.filter((g) => g.status === 'fulfilled').map((g) => g.value);
  await Promise.all(
    opened.map((c) =>
      c.close().catch(() => {
        /* the failed open's error is the one reported */
      }),
    ),
  );
  throw bad.reason;
}

async function runInProcess({ uri, mode, W, job, client }) {
  const { MongoClient } = require('mongodb'); // required here: `list` reads the studies without a server
  const open = async () => {
    const c = new MongoClient(uri, mode === 'connections' ? { maxPoolSize: 1 } : { maxPoolSize: Math.max(W, 10) });
    await c.connect();
    await c.db('admin').command({ ping: 1 });
    return c;
  };
  // async: one client for every loop (the caller's, else one of its own); connections: one each,
  // opened together rather than one after the other (their handshakes are untimed setup).
  const own = mode === 'async' ? (client ? [] : [await open()]) : await openAll(W, open);
  const clients = mode === 'async' ? new Array(W).fill(client || own[0]) : own;
  try {
    const inputs = [];
    for (let w = 0; w < W; w++) inputs.push(prepare(job, w, W));
    const t0 = now();
    const results = await Promise.all(clients.map((c, w) => work(c, job, inputs[w], w)));
    const ms = now() - t0;
    return { ms, results };
  } finally {
    await Promise.all(own.map((c) => c.close()));
  }
}

const CHILD = path.join(__dirname, 'insert-worker-child.js');

// Worker processes are kept between races and rounds: forking 16 (or the source's 54) Node
// processes that each load the driver cost more CPU than many of the races they run. A process
// connects once per server (its own connection, as the source's processes), takes one job at a
// time, and waits idle in `idle`; stopWorkerPool() ends them, and they end themselves when this
// process goes (IPC disconnect) or after IDLE_MS without a job.
const IDLE_MS = 60000;
const idle = [];

function forkWorker() {
  const k = fork(CHILD, [String(IDLE_MS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  k.on('exit', () => {
    const i = idle.indexOf(k);
    if (i >= 0) idle.splice(i, 1);
  });
  k.on('error', () => {
    /* a job's own listener reports it; an idle worker that fails is dropped at its exit */
  });
  // An idle worker holds neither the event loop nor the IPC channel: a finished process exits.
  k.unref();
  k.channel.unref();
  return k;
}

function takeWorkers(W) {
  const kids = idle.splice(0, W).filter((k) => k.exitCode === null && k.connected);
  while (kids.length < W) kids.push(forkWorker());
  for (const k of kids) k.channel.ref();
  return kids;
}

function giveBack(kids) {
  for (const k of kids) {
    k.channel.unref();
    idle.push(k);
  }
}

/** Ends every kept worker process (a study's clean-up; they also end on their own). */
async function stopWorkerPool() {
  const kids = idle.splice(0);
  await Promise.all(
    kids.map(
      (k) =>
        new Promise((resolve) => {
          if (k.exitCode !== null || !k.connected) return resolve();
          k.once('exit', resolve);
          k.send({ exit: true });
          setTimeout(() => k.kill('SIGKILL'), 5000).unref();
        }),
    ),
  );
}

function runProcesses({ uri, W, job }) {
  return new Promise((resolve, reject) => {
    const kids = takeWorkers(W);
    const results = new Array(W);
    let ready = 0;
    let done = 0;
    let t0 = 0;
    let failed = false;
    const listeners = [];
    const listen = (k, ev, fn) => {
      k.on(ev, fn);
      listeners.push(() => k.off(ev, fn));
    };
    const fail = (err) => {
      if (failed) return;
      failed = true;
      stopOnInterrupt();
      for (const off of listeners) off();
      for (const k of kids) if (k.exitCode === null) k.kill('SIGKILL');
      reject(err);
    };
    // An interrupt stops the racers at once: a 54-process race at seed scale runs for minutes,
    // and the run's clean-up (its database's drop) waits for the study to settle first.
    const stopOnInterrupt = cleanup.add(() => fail(cleanup.interruptedError()));
    kids.forEach((k, w) => {
      listen(k, 'error', fail);
      listen(k, 'exit', (code) => {
        if (!failed && results[w] === undefined) fail(new Error(`worker process ${w} exited with code ${code}`));
      });
      listen(k, 'message', (m) => {
        if (m.error) return fail(new Error(`worker process ${w}: ${m.error}`));
        if (m.ready) {
          ready++;
          if (ready === W) {
            t0 = now();
            for (const kk of kids) kk.send({ go: true });
          }
        } else if (m.result) {
          results[w] = m.result;
          done++;
          if (done === W) {
            const ms = now() - t0;
            stopOnInterrupt();
            for (const off of listeners) off();
            giveBack(kids);
            resolve({ ms, results });
          }
        }
      });
      k.send({ uri, job, w, W });
    });
  });
}

/**
 * Runs W workers on `job` and times them from the barrier to the last one's end.
 * @param {object} o { uri, mode: 'async'|'connections'|'processes', W, job, client? }
 *   job.db / job.coll name the collection. For insert jobs with w: 0 the time includes waiting
 *   until the server holds every document (unacknowledged writes return before they happen), or
 *   until its count settles short (`stored` then says how many arrived).
 * @returns {Promise<{ms, results: object[], latency: Latency}>} latency: every worker's operations
 */
async function runWorkers(o) {
  if (!MODES.includes(o.mode))
    throw new Error(`mode: expected one of ${MODES.join(', ')}, got ${JSON.stringify(o.mode)}`);
  if (!Number.isInteger(o.W) || o.W < 1) throw new Error(`W: expected a whole number >= 1, got ${JSON.stringify(o.W)}`);
  // async racers share one pool: a ping would not follow each racer's own w: 0 inserts
  if (o.job.kind === 'race' && o.job.pattern === W0_RACE && o.mode === 'async')
    throw new Error(`${W0_RACE}: needs racers on connections of their own (mode connections or processes), got async`);
  let out;
  if (o.mode === 'processes') out = await runProcesses(o);
  else out = await runInProcess(o);
  out.latency = merged(out.results.map((r) => r.latency));
  if (o.job.kind === 'insert' && o.job.w === 0) {
    const client = o.client || new (require('mongodb').MongoClient)(o.uri);
    try {
      const t0 = now();
      const stored = await waitForCount(client.db(o.job.db).collection(o.job.coll), o.job.to - o.job.from);
      // a count that settled short is timed to when the last document arrived, not to the wait's end
      out.ms += now() - t0 - (stored < o.job.to - o.job.from ? SETTLE_MS : 0);
      out.stored = stored;
    } finally {
      if (!o.client) await client.close();
    }
  }
  return out;
}

module.exports = { runWorkers, stopWorkerPool, prepare, work, MODES, RACE_PATTERNS, isDuplicateKey };
