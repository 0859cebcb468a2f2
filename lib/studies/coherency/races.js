'use strict';
// The coherency study's races: W workers (connections or processes, on this server or on the
// run's replica set for the transaction patterns) or W PostgreSQL sessions insert the same keys at
// a barrier; duplicates are counted exactly afterwards. The state of one run (every race's
// duplicates, the default point) is the study's own, reset by startRaces.
const LabHarness = require('../../../scripts/lib/harness');
const LabRecords = require('../../../scripts/lib/records');
const LabStats = require('../../../scripts/lib/stats');
const { runWorkers } = require('../source-002/insert-workers');
const { scratch, replSet, postgres } = require('../source-002/common');
const pgPeer = require('../source-002/pg-peer');
const sql = require('../sql-peer');
const { RACE_INDEX } = require('../../../fixtures/inserts-gen'); // one table for shell and Node
const { LabError } = require('../../infra/errors');

// The w: 0 race has check-then-insert's index (a plain one on key): only the writer differs.
const W0 = 'check-then-insert-w0';
const INDEX = { ...RACE_INDEX, [W0]: RACE_INDEX['check-then-insert'] };

/**
 * The writer a race's record names (extra.w, read by the claims' writer gate): 0 for the source's
 * inferred unacknowledged writer, 1 for the driver's acknowledged default on the run's standalone;
 * null for the transaction patterns (their replica set's default write concern).
 */
function writerOf(pattern) {
  if (pattern === W0) return 0;
  return pattern.startsWith('txn-') ? null : 1;
}

/**
 * Sent (the racers' own tally) against stored (the collection's count after the race). For the w: 0
 * race this is the only check its writes get: an unacknowledged insert reports nothing, and every
 * racer's barrier has let the server apply them, so a shortfall is a write lost or refused silently.
 */
function checkInserted(pattern, inserted, docs) {
  if (inserted === docs) return;
  if (pattern === W0)
    throw new LabError(
      `${W0}: the racers sent ${inserted} unacknowledged inserts, the collection holds ${docs} after every racer's barrier (an unacknowledged write lost or refused says nothing): run again, or leave the variant out with --set VARIANTS=...`,
    );
  throw new Error(`${pattern}: workers counted ${inserted} inserts, the collection holds ${docs}`);
}

const WHAT = {
  'check-then-insert': "the source's pattern: findOne by key, insertOne when absent (plain index on key)",
  'check-then-insert-w0':
    "the source's pattern with its inferred writer (PyMongo < 2.4 Connection): insertOne with writeConcern {w: 0}; a ping per racer at the end, then counted",
  'unique-insert': 'fixed: unique index on key, insertOne, duplicate-key error 11000 = already there',
  'upsert-unique': 'fixed: updateOne({key}, {$setOnInsert}, {upsert: true}) with a unique index',
  'upsert-index': 'upsert $setOnInsert with a plain (non-unique) index on key',
  'upsert-noindex': 'upsert $setOnInsert with no index on key',
  'txn-check-insert': 'check-then-insert inside a transaction (replica set): snapshot isolation allows write skew',
  'txn-guard': 'fixed: transaction that first writes a per-key guard document, then checks and inserts',
};

// Every race's duplicates, per variant and point (the harness keeps only the last answer).
const seen = new Map();
function note(variant, point, dups) {
  const k = `${variant} ${JSON.stringify(point)}`;
  if (!seen.has(k)) seen.set(k, []);
  seen.get(k).push(dups);
  return seen.get(k).slice();
}

const defaultPoint = { chars: null, n: null };

// The tables' filter: the default point of this run (all points when the module state is gone,
// e.g. a report made again from a result file).
function atDefault(r) {
  return defaultPoint.n === null || (r.axis.chars === defaultPoint.chars && r.axis.n === defaultPoint.n);
}

function isDefault(p, point) {
  return point.n === p.N && point.chars === p.CHARS;
}

/** A run's start: no race seen yet, this run's default point. */
function startRaces(p) {
  seen.clear();
  defaultPoint.chars = p.CHARS;
  defaultPoint.n = p.N;
}

/** Duplicates of every race at a point as measure records (median and range over the runs). */
function duplicatesMeasures(p, point) {
  const out = [];
  for (const [k, d] of seen) {
    if (!k.endsWith(` ${JSON.stringify(point)}`)) continue;
    const variant = k.slice(0, k.indexOf(' '));
    out.push(
      LabRecords.measureRecord({
        study: 'coherency',
        name: 'duplicates',
        variant,
        axis: point,
        value: LabStats.median(d),
        unit: 'documents',
        what: `duplicates per race (median of ${d.length}: ${d.join(', ')}) with W=${p.W} ${p.MODE}`,
      }),
    );
  }
  return out;
}

function raceVariant(pattern) {
  return {
    name: pattern,
    what: WHAT[pattern],
    minVersion: pattern.startsWith('txn-') ? '4.0' : '3.2',
    // The grid (seed: GRID) is check-then-insert's (002-dups-vs-n, -vs-size); the w: 0 race, like the
    // fixed patterns, runs at the default cell only, where 002-coherency judges it.
    able: (p, point) => pattern === 'check-then-insert' || isDefault(p, point),
    async run(ctx, p, point) {
      const target = pattern.startsWith('txn-') ? await replSet(ctx) : { uri: ctx.server.uri, db: ctx.db };
      const name = `${p.COLL}_${pattern.replace(/-/g, '_')}`;
      const coll = await scratch(target.db, name);
      if (INDEX[pattern]) await coll.createIndex({ key: 1 }, { unique: INDEX[pattern].unique });
      const guards = `${name}_guards`;
      if (pattern === 'txn-guard') await scratch(target.db, guards);
      const job = {
        kind: 'race',
        db: ctx.dbName,
        coll: name,
        guards,
        pattern,
        n: point.n,
        chars: point.chars,
        seed: p.SEED,
      };
      const r = await runWorkers({ uri: target.uri, mode: p.MODE, W: p.W, job });
      const [d] = await coll
        .aggregate([
          { $group: { _id: '$key', n: { $sum: 1 } } },
          { $group: { _id: null, keys: { $sum: 1 }, docs: { $sum: '$n' } } },
        ])
        .toArray();
      const dups = d.docs - d.keys;
      const inserted = r.results.reduce((a, x) => a + x.inserted, 0);
      checkInserted(pattern, inserted, d.docs);
      const w = writerOf(pattern);
      const attempts = r.results.reduce((a, x) => a + (x.attempts || 0), 0);
      // The racers' pools as their clients were built (the largest: one racer on a shared or wider
      // pool is enough to reorder a w: 0 insert and its ping); read by 002-coherency's writer gate.
      const pools = r.results.map((x) => x.maxPoolSize).filter((x) => typeof x === 'number');
      const maxPoolSize = pools.length === r.results.length ? Math.max(...pools) : null;
      return Object.assign(
        LabHarness.took(
          r.ms,
          { keys: d.keys },
          {
            duplicates: dups,
            duplicatesPerRun: note(pattern, point, dups),
            docs: d.docs,
            W: p.W,
            mode: p.MODE,
            ...(w === null ? {} : { w }),
            ...(maxPoolSize === null ? {} : { maxPoolSize, clients: p.MODE === 'async' ? 1 : p.W }),
            opsPerSec: Math.round(((p.W * point.n) / r.ms) * 1000),
            ...(attempts ? { txnAttempts: attempts } : {}),
          },
        ),
        { latency: r.latency },
      );
    },
  };
}

// How a PostgreSQL racer's statements group into transactions (lib/studies/source-002/pg-peer.js
// race): the autocommit racers run every statement as its own transaction, so no transaction spans
// a check and its insert; the txn racers run each entry's check and insert in one. 002-coherency-acid
// judges ACID only on a racer whose check and insert share one (extra.txn "transaction...").
const PG_TXN = {
  'check-then-insert': 'autocommit: SELECT, then INSERT, each its own transaction',
  'on-conflict': 'autocommit: one INSERT ... ON CONFLICT DO NOTHING per entry',
  'txn-check-then-insert':
    'transaction: BEGIN ISOLATION LEVEL READ COMMITTED; SELECT by key; INSERT when absent; COMMIT, one per check+insert',
  'txn-serializable':
    'transaction: BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT by key; INSERT when absent; COMMIT, one per check+insert (a failed one rolled back, inserting nothing, and retried)',
};
const isTxnPattern = (pattern) => PG_TXN[pattern].startsWith('transaction');

function pgVariant(pattern, what) {
  return {
    name: `pg-${pattern}`,
    what,
    minVersion: '0',
    able: (p, point, ctx) =>
      (!!sql.of(ctx) && ((pattern === 'check-then-insert' && p.PG_GRID) || isDefault(p, point))) ||
      sql.note(ctx) ||
      LabRecords.NOT_HERE,
    async run(ctx, p, point) {
      const pgs = await postgres(ctx);
      // The isolation every racer ran at, read by 002-coherency-acid beside the racers' transaction
      // shape: the txn racers read it inside their own transactions (SHOW transaction_isolation);
      // the autocommit racers set none, so theirs is the server's default.
      const r = await pgPeer.race(pgs, { n: point.n, chars: point.chars, seed: p.SEED, W: p.W, pattern });
      const iso =
        r.isolation || (await pgs.query('SHOW default_transaction_isolation')).rows[0].default_transaction_isolation;
      return LabHarness.took(
        r.ms,
        { keys: r.keys },
        {
          duplicates: r.duplicates,
          duplicatesPerRun: note(`pg-${pattern}`, point, r.duplicates),
          docs: r.docs,
          W: p.W,
          opsPerSec: Math.round(((p.W * point.n) / r.ms) * 1000),
          postgres: pgs.version,
          isolation: iso,
          txn: PG_TXN[pattern],
          transaction: isTxnPattern(pattern) ? 'one per check+insert' : 'one per statement (autocommit)',
          // transactions rolled back (serialization failure or deadlock) and retried: each inserted nothing
          ...(isTxnPattern(pattern) ? { serializationFailures: r.failures } : {}),
        },
      );
    },
  };
}

module.exports = {
  raceVariant,
  pgVariant,
  startRaces,
  duplicatesMeasures,
  atDefault,
  defaultPoint,
  W0,
  writerOf,
  checkInserted,
  PG_TXN,
};
