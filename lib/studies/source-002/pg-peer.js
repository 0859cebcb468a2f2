'use strict';
// Study 002's SQL peer: the same insert, race, task and join workloads against PostgreSQL, with
// the same seeded data (fixtures/inserts-gen.js). Tables live in the schema `perflab`, which
// the lab creates and whose tables it drops and refills; nothing outside it is touched.
//
// Durability is made comparable, not hidden: each session sets synchronous_commit = off, so a
// commit does not wait for its WAL flush, like MongoDB's default w: 1 without j (journal flushed
// every 100 ms). Durable commits would measure the disk's fsync, not the database.

const G = require('../../../fixtures/inserts-gen');
const { LabError } = require('../../infra/errors');
const { stopIfInterrupted } = require('../../infra/cleanup');

function now() {
  return Number(process.hrtime.bigint()) / 1e6;
}

async function session(pgs) {
  const c = await pgs.connect();
  await c.query('CREATE SCHEMA IF NOT EXISTS perflab');
  await c.query('SET search_path TO perflab');
  await c.query('SET synchronous_commit TO off');
  return c;
}

async function sessions(pgs, W) {
  const out = [];
  for (let i = 0; i < W; i++) out.push(await session(pgs));
  return out;
}

async function endAll(cs) {
  await Promise.all(
    cs.map((c) =>
      c.end().catch(() => {
        /* already dropped by the server: nothing to report */
      }),
    ),
  );
}

// INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4) ... for rows of equal length.
function multiInsert(table, cols, rows, suffix = '') {
  const params = [];
  const tuples = rows.map(
    (r) =>
      `(${r
        .map((v) => {
          params.push(v);
          return `$${params.length}`;
        })
        .join(', ')})`,
  );
  return { text: `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${tuples.join(', ')}${suffix}`, values: params };
}

async function loadRows(c, table, cols, rows, batch = 1000) {
  await c.query('BEGIN');
  for (let i = 0; i < rows.length; i += batch) await c.query(multiInsert(table, cols, rows.slice(i, i + batch)));
  await c.query('COMMIT');
}

/**
 * Inserts documents [0, n) of `size` bytes (the same payloads as MongoDB's) with W sessions, one
 * row per statement (batch 1, autocommit) or `batch` rows per multi-row INSERT. `durable`: each
 * commit waits for its WAL flush (synchronous_commit on, the server's default), else off.
 * @returns {Promise<{ms, rows, synchronousCommit}>} synchronousCommit: as the sessions reported it
 */
async function insert(pgs, { n, size, seed, batch, W = 1, durable = false }) {
  const admin = await session(pgs);
  const cs = await sessions(pgs, W);
  try {
    if (durable) for (const c of cs) await c.query('SET synchronous_commit TO on');
    const synchronousCommit = (await cs[0].query('SHOW synchronous_commit')).rows[0].synchronous_commit;
    await admin.query('DROP TABLE IF EXISTS ins');
    await admin.query('CREATE TABLE ins (id integer PRIMARY KEY, k integer NOT NULL, pad text NOT NULL)');
    const per = Math.ceil(n / W);
    const slices = cs.map((c, w) =>
      G.payloadDocs(seed, w * per, Math.min(n, (w + 1) * per), size).map((d) => [d._id, d.k, d.pad]),
    );
    const t0 = now();
    await Promise.all(
      cs.map(async (c, w) => {
        const rows = slices[w];
        if (batch === 1) {
          for (const r of rows) await c.query('INSERT INTO ins (id, k, pad) VALUES ($1, $2, $3)', r);
        } else {
          for (let i = 0; i < rows.length; i += batch)
            await c.query(multiInsert('ins', ['id', 'k', 'pad'], rows.slice(i, i + batch)));
        }
      }),
    );
    const ms = now() - t0;
    const rows = Number((await admin.query('SELECT count(*) AS n FROM ins')).rows[0].n);
    return { ms, rows, synchronousCommit };
  } finally {
    await endAll([admin, ...cs]);
  }
}

// The transaction racers (002-coherency-acid): each entry's check and insert in ONE transaction,
// BEGIN at the named isolation; SELECT by key; INSERT when absent; COMMIT. READ COMMITTED (the
// server's default) shows each statement the rows committed before it began, so two racers can
// both read 'absent' and both insert (no unique index); SERIALIZABLE must refuse one of them.
const TXN_ISOLATION = { 'txn-check-then-insert': 'READ COMMITTED', 'txn-serializable': 'SERIALIZABLE' };
const RACE_PATTERNS = ['check-then-insert', 'on-conflict', ...Object.keys(TXN_ISOLATION)];
// SQLSTATE of a serializable transaction PostgreSQL cancels (serialization_failure) and of a deadlock:
// the loser's transaction is rolled back whole, so it inserted nothing; the racer retries the entry.
const RETRYABLE = new Set(['40001', '40P01']);
// A loser retries its whole check+insert; a retry sees the winner's committed row. Far more failures
// for one entry than racers means the race is not converging: stop, never count a partial race.
const MAX_TRIES = 1000;

/**
 * One entry's check and insert in one transaction at `isolation`, retried whole after a
 * serialization failure. `tally` counts committed inserts, failures, and (once per racer) the
 * isolation the server reports inside the transaction.
 */
async function checkInsertInTransaction(c, e, w, isolation, tally) {
  for (let tries = 1; ; tries++) {
    await c.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    try {
      if (!tally.isolation)
        tally.isolation = (await c.query('SHOW transaction_isolation')).rows[0].transaction_isolation;
      const r = await c.query('SELECT 1 FROM race WHERE key = $1 LIMIT 1', [e.key]);
      let n = 0;
      if (!r.rowCount)
        n = (await c.query('INSERT INTO race (key, data, by) VALUES ($1, $2, $3)', [e.key, e.data, w])).rowCount;
      await c.query('COMMIT');
      tally.inserted += n; // counted only once its transaction committed
      return;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => {
        /* the connection is gone: the error below says why */
      });
      if (!RETRYABLE.has(err.code)) throw err;
      tally.failures++;
      if (tries >= MAX_TRIES)
        throw new LabError(
          `PostgreSQL race (${isolation}): key ${e.key} failed serialization ${tries} times for one racer; run again with fewer racers (--set W=...)`,
        );
    }
  }
}

/** One racer's pass over the entries: returns its tally {inserted, failures, isolation}. */
async function racer(c, w, entries, pattern) {
  const tally = { inserted: 0, failures: 0, isolation: null };
  for (const e of entries) {
    stopIfInterrupted(); // a seed-scale race runs for minutes: an interrupt stops it at the next entry
    if (TXN_ISOLATION[pattern]) {
      await checkInsertInTransaction(c, e, w, TXN_ISOLATION[pattern], tally);
    } else if (pattern === 'on-conflict') {
      const r = await c.query('INSERT INTO race (key, data, by) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING', [
        e.key,
        e.data,
        w,
      ]);
      tally.inserted += r.rowCount;
    } else {
      const r = await c.query('SELECT 1 FROM race WHERE key = $1 LIMIT 1', [e.key]);
      if (!r.rowCount)
        tally.inserted += (
          await c.query('INSERT INTO race (key, data, by) VALUES ($1, $2, $3)', [e.key, e.data, w])
        ).rowCount;
    }
  }
  return tally;
}

/**
 * W sessions race over the same n entries in the same order (the source's experiment):
 *   check-then-insert      SELECT by key, INSERT when absent, each statement its own transaction
 *                          (autocommit, READ COMMITTED, a plain index on key)
 *   on-conflict            a unique index and INSERT ... ON CONFLICT (key) DO NOTHING
 *   txn-check-then-insert  BEGIN ISOLATION LEVEL READ COMMITTED; SELECT; INSERT when absent; COMMIT
 *   txn-serializable       the same at SERIALIZABLE; a racer whose transaction fails (serialization
 *                          failure or deadlock) rolls it back, inserting nothing, and retries the entry
 * Every insert the racers committed is counted and checked against the table's rows afterwards.
 * @returns {Promise<{ms, docs, keys, duplicates, inserted, failures, isolation}>} failures: the
 *   transactions rolled back and retried; isolation: what the server reported inside the racers'
 *   transactions (txn patterns), else null
 */
async function race(pgs, { n, chars, seed, W, pattern }) {
  if (!RACE_PATTERNS.includes(pattern)) throw new Error(`unknown SQL race pattern ${pattern}`);
  const admin = await session(pgs);
  const cs = await sessions(pgs, W);
  try {
    await admin.query('DROP TABLE IF EXISTS race');
    await admin.query(
      'CREATE TABLE race (id bigserial PRIMARY KEY, key integer NOT NULL, data text NOT NULL, by integer)',
    );
    const unique = pattern === 'on-conflict' ? 'UNIQUE ' : '';
    await admin.query(`CREATE ${unique}INDEX race_key ON race (key)`);
    const entries = G.raceEntries(seed, n, chars);
    const t0 = now();
    const tallies = await Promise.all(cs.map((c, w) => racer(c, w, entries, pattern)));
    const ms = now() - t0;
    const r = (await admin.query('SELECT count(*) AS docs, count(DISTINCT key) AS keys FROM race')).rows[0];
    const docs = Number(r.docs);
    const keys = Number(r.keys);
    const inserted = tallies.reduce((a, t) => a + t.inserted, 0);
    if (inserted !== docs)
      throw new LabError(
        `PostgreSQL race ${pattern}: the racers committed ${inserted} inserts, the table holds ${docs} rows: run again`,
      );
    const levels = [...new Set(tallies.map((t) => t.isolation).filter(Boolean))];
    return {
      ms,
      docs,
      keys,
      duplicates: docs - keys,
      inserted,
      failures: tallies.reduce((a, t) => a + t.failures, 0),
      isolation: levels.length ? levels.join('/') : null,
    };
  } finally {
    await endAll([admin, ...cs]);
  }
}

/** Loads customers and orders (the same seeded rows as MongoDB's) unless already there. */
async function loadJoin(pgs, { orders, customers, seed }) {
  const c = await session(pgs);
  try {
    await c.query('CREATE TABLE IF NOT EXISTS fixtures (name text PRIMARY KEY, spec text NOT NULL)');
    const spec = JSON.stringify({ orders, customers, seed });
    const have = await c.query('SELECT spec FROM fixtures WHERE name = $1', ['join']);
    if (have.rowCount && have.rows[0].spec === spec) return;
    await c.query('DROP TABLE IF EXISTS orders');
    await c.query('DROP TABLE IF EXISTS customers');
    await c.query(
      'CREATE TABLE customers (id integer PRIMARY KEY, code text NOT NULL, region text NOT NULL, name text NOT NULL)',
    );
    await c.query(
      'CREATE TABLE orders (id integer PRIMARY KEY, cust integer NOT NULL, cust_code text NOT NULL, cents integer NOT NULL)',
    );
    const nextC = G.rng(seed);
    const cRows = [];
    for (let i = 0; i < customers; i++) {
      const d = G.customerDoc(nextC, i);
      cRows.push([d._id, d.code, d.region, d.name]);
    }
    await loadRows(c, 'customers', ['id', 'code', 'region', 'name'], cRows);
    const nextO = G.rng(seed + 1);
    const oRows = [];
    for (let i = 0; i < orders; i++) {
      const d = G.orderDoc(nextO, i, customers);
      oRows.push([d._id, d.cust, d.custCode, d.cents]);
    }
    await loadRows(c, 'orders', ['id', 'cust', 'cust_code', 'cents'], oRows);
    await c.query('ANALYZE customers');
    await c.query('ANALYZE orders');
    await c.query(
      'INSERT INTO fixtures (name, spec) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET spec = EXCLUDED.spec',
      ['join', spec],
    );
  } finally {
    await c.end();
  }
}

/**
 * The join in SQL, every joined row sent to the client and summed there (like the $lookup
 * variants), plus the plan PostgreSQL chose (Hash Join, Merge Join, Nested Loop).
 * @returns {Promise<{ms, rows, plan}>}
 */
async function join(pgs) {
  const c = await session(pgs);
  try {
    const sql = 'SELECT c.region, o.cents FROM orders o JOIN customers c ON c.id = o.cust';
    const t0 = now();
    const res = await c.query({ text: sql, rowMode: 'array' });
    const acc = {};
    for (const [region, cents] of res.rows) G.joinSummaryAdd(acc, region, cents);
    const ms = now() - t0;
    const plan =
      (await c.query(`EXPLAIN ${sql}`)).rows.map((r) => r['QUERY PLAN']).find((l) => /Join|Nested Loop/.test(l)) || '?';
    return { ms, rows: G.joinSummaryRows(acc), plan: plan.trim().replace(/\s+\(cost.*$/, '') };
  } finally {
    await c.end();
  }
}

/** The source's SQL pick: LIMIT 1 OFFSET R over the unprocessed tasks (tasks loaded by loadTasks). */
async function loadTasks(pgs, { n, seed, doneFraction }) {
  const c = await session(pgs);
  try {
    await c.query('CREATE TABLE IF NOT EXISTS fixtures (name text PRIMARY KEY, spec text NOT NULL)');
    const spec = JSON.stringify({ n, seed, doneFraction });
    const have = await c.query('SELECT spec FROM fixtures WHERE name = $1', ['tasks']);
    if (have.rowCount && have.rows[0].spec === spec) return;
    await c.query('DROP TABLE IF EXISTS tasks');
    await c.query(
      'CREATE TABLE tasks (id integer PRIMARY KEY, processed smallint NOT NULL, r double precision NOT NULL, payload text NOT NULL)',
    );
    const next = G.rng(seed);
    const rows = [];
    for (let i = 0; i < n; i++) {
      const d = G.taskDoc(next, i, doneFraction);
      rows.push([d._id, d.processed, d.r, d.payload]);
    }
    await loadRows(c, 'tasks', ['id', 'processed', 'r', 'payload'], rows);
    await c.query('CREATE INDEX tasks_processed_r ON tasks (processed, r)');
    await c.query('ANALYZE tasks');
    await c.query(
      'INSERT INTO fixtures (name, spec) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET spec = EXCLUDED.spec',
      ['tasks', spec],
    );
  } finally {
    await c.end();
  }
}

/** `offsets.length` picks with LIMIT 1 OFFSET R; returns the picked rows {id, processed}. */
async function pickByOffset(pgs, offsets) {
  const c = await session(pgs);
  try {
    const t0 = now();
    const picks = [];
    for (const r of offsets) {
      const res = await c.query('SELECT id, processed FROM tasks WHERE processed = 0 LIMIT 1 OFFSET $1', [r]);
      if (res.rowCount) picks.push(res.rows[0]);
    }
    return { ms: now() - t0, picks };
  } finally {
    await c.end();
  }
}

module.exports = { insert, race, RACE_PATTERNS, TXN_ISOLATION, loadJoin, join, loadTasks, pickByOffset, session };
