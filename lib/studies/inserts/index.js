'use strict';
// Study "inserts" (source 002, parts 1-3 of an undated blog series, 2011-12 by its own dates):
// the Node part of scripts/inserts_bulk.js. Node adds what one mongosh cannot do: W concurrent writers as async
// loops over one client, as separate connections and as separate processes (the source's threads
// vs processes), w: 0 / 1 / majority on a replica set, and the same inserts into PostgreSQL.
//
// Two writers per store, side by side. The source names no client, version or write concern; by
// its own dates (2011-12) and its bulk gains it most likely wrote with PyMongo's `Connection` (an
// inference), whose writes were unacknowledged by default (fire-and-forget, PYTHON-423; the manual's "Default
// Write Concern Change"): the *-w0 variants are that writer (w: 0, pipelined: no reply awaited),
// the others today's acknowledged default (w: 1). PostgreSQL likewise: `pg` commits without
// waiting for its WAL flush (synchronous_commit off), `pg-durable` waits (on, the server's
// default). A w: 0 writer hears of no failure, so its documents are counted afterwards: stored
// (counted) + rejected (never stored) = written, and the count is the variant's answer.
const { defineStudy } = require('../../core/registry');
const LabRecords = require('../../../scripts/lib/records');
const { stopWorkerPool } = require('../source-002/insert-workers');
const { replSet, postgres } = require('../source-002/common');
const sql = require('../sql-peer');
const { docsPerSec, fmtRate } = require('./records');
const { limits } = require('./limits');
const { docsAt, onStandalone, workers, pgInsert, SOURCE_BATCH } = require('./writers');
const { docsPerSecChart } = require('./charts');
const { pyWriters, PY_WRITERS, pyCollection } = require('./py-writers');

module.exports = defineStudy({
  name: 'inserts',
  script: 'inserts_bulk.js',
  profiles: {
    // For the test suite. test/inserts.test.js "inserts: every variant leaves exactly N documents"
    // runs these points at 400 documents and checks every variant's count and the limits part;
    // here (run all, test/sql-peer.test.js) 200: at batch 1 every variant makes a round trip per document.
    tiny: {
      N: 200,
      BATCHES: '1,1000',
      WRITERS: '1,2',
      SIZES: '1024,',
      WCONCERN: false,
      RUNS: 1,
      WARMUP: 0,
      BULK_MB: '1,10',
      BULK_TRIES: 2,
    },
    // npm start: only the points a claim or the headline reads (--profile seed: every batch at W=1).
    // W=1 at batches 1 and 10 (002-bulk, 002-mongo-vs-sql: the source's ~10 KB batches) and 1000
    // (the headline); W=4 and W=16 one by one (002-bulk-vs-threads, 002-shared-connection); SIZES
    // 1024 is the headline's point itself (no size point of its own); the write-concern part is
    // read by no claim (seed). 3 rounds: an interval. Large bulks: 60 tries (seed) bound a failure
    // rate of 0 below 5 % (one-sided 95 %: 59 tries give 4.95 %), 3 do not (inconclusive), so 3 only
    // show that it works.
    // The source's writer (async-w0, processes-w0: w: 0) and the durable PostgreSQL (pg-durable) run
    // beside at the claims' points only (their `able`).
    // 1,000 documents: one by one that is ~0.4 s a round quiet, long enough for the ratios; every
    // verdict the same as at 2,000 (2026-11-24), and a round trip per document is what a busy machine
    // slows most (the study took 4.6x its quiet time beside two CPU-bound processes at 2,000).
    quick: {
      N: 1000,
      BATCHES: '1,10,1000',
      WRITERS: '1,4,16',
      WRITERS_AT: '1',
      SIZES: '1024',
      WCONCERN: false,
      RUNS: 3,
      BULK_TRIES: 3,
    },
    // The source inserted 2^14 matrix rows per run; its concurrency went to 64 processes on 12 cores.
    // No write-concern part (w 0 / 1 / majority on a replica set: ~2 min, read by no claim):
    // --set WCONCERN=true adds it. Every batch one by one (W=1); several writers one by one only
    // (WRITERS_AT 1: the claims read W > 1 at batch 1 alone), no size points (batch 1000 at 128,
    // 4,096 and 16,384 bytes: read by no claim): 19 points of tables, 2.0 of 9.6 min on 2026-11-27,
    // ~2.9 of ~25 on 2026-11-28 with PyMongo, no verdict or figure changed without them
    // (docs/journal/seed-time-2026-11-29.md); --set WRITERS_AT= --set SIZES=128,1024,4096,16384 adds them.
    seed: {
      WCONCERN: false,
      N: 16384,
      BATCHES: '1,10,100,1000,10000',
      WRITERS: '1,2,4,8,16',
      WRITERS_AT: '1',
      SIZES: '1024',
      RUNS: 3,
      BULK_TRIES: 60,
    },
  },
  // Collections its Node part writes besides its data, checked before any work with the ones the
  // script's shell variants name (lib/core/run-study.js): the Node writers' modes, the limits part.
  derived: (p) =>
    ['async', 'connections', 'processes', 'async_w0', 'processes_w0', 'limit', 'bulk']
      .map((s) => `${p.COLL}_${s}`)
      .concat(PY_WRITERS.map((v) => pyCollection(p, v.name))),
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~30 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected:
    '~22 min (19.6 measured 2026-11-28 on a 2 vCPU AMD EPYC with the PyMongo writers, its last 12 points cut to one timed round by a deadline: ~25 at 3 rounds, less ~2.9 for the points no claim reads; 9.6 on 2026-11-27 without PyMongo)',
  peers: ['postgres'],

  /** The end-of-run summary speaks of one writer at batch 1000 (mongosh, Node, PostgreSQL, the ceiling). */
  headline: (points) =>
    points.find((x) => x.part === 'batch' && x.W === 1 && x.batch === 1000) || points[points.length - 1],

  /** Every variant must leave exactly the point's documents in its collection or table. */
  oracle: (p, point) => docsAt(p, point.size),

  // PostgreSQL starts once, before the points, so that `able` knows whether the peer can run (sql.of).
  async points(ctx, p, points) {
    ctx.cleanups.push(stopWorkerPool); // the worker processes kept between races
    await postgres(ctx);
    return points;
  },

  async beforePoint(ctx, p, point) {
    if (point.server === 'replset') await replSet(ctx);
  },

  /** The connection and document limits, and the large insertMany batches (lib/studies/inserts/limits.js). */
  after: (ctx, p) => limits(ctx, p),

  variants: [
    workers('async', "Node: W async loops sharing one client (the source's threads)"),
    workers('connections', 'Node: W clients of one connection each'),
    workers('processes', "Node: W child processes, a client each (the source's processes)"),
    workers(
      'async',
      "Node: W async loops on one client, w: 0 (the source's writer: PyMongo Connection, unacknowledged, pipelined)",
      {
        name: 'async-w0',
        w0: true,
        // the points the claims read: one by one at every W, one writer in batches of 10 and 1,000,
        // and of the source's 5 (--set SIZE=2048 --set BATCHES=1,5: 002-bulk/mongodb's judged cell)
        able: (p, point) =>
          onStandalone(point) &&
          point.part === 'batch' &&
          (point.batch === 1 || (point.W === 1 && [SOURCE_BATCH, 10, 1000].includes(point.batch))),
      },
    ),
    workers('processes', "Node: W child processes, w: 0 (the source's processes and writer), one by one", {
      name: 'processes-w0',
      w0: true,
      able: (p, point) => onStandalone(point) && point.part === 'batch' && point.batch === 1,
    }),
    {
      name: 'pg',
      what: 'PostgreSQL: INSERT per row (batch 1) or multi-row INSERT, W sessions, synchronous_commit off',
      minVersion: '0',
      able: (p, point, ctx) => (!!sql.of(ctx) && !point.server) || sql.note(ctx) || LabRecords.NOT_HERE,
      run: pgInsert(false),
    },
    {
      name: 'pg-durable',
      what: 'PostgreSQL: as pg, synchronous_commit on (each commit waits for its WAL flush: the default), one session',
      minVersion: '0',
      // one session, one by one and in batches of 10 (the claims' points): a durable commit per
      // statement is the disk's flush rate, minutes at the seed profile's 16,384 rows per round
      able: (p, point, ctx) =>
        (!!sql.of(ctx) &&
          onStandalone(point) &&
          point.part === 'batch' &&
          point.W === 1 &&
          [1, 10].includes(point.batch)) ||
        sql.note(ctx) ||
        LabRecords.NOT_HERE,
      run: pgInsert(true),
    },
    // the source's client, PyMongo, beside the Node writers the claims read (py-writers.js)
    ...pyWriters,
  ],

  claims: require('./claims'),
  practices: require('./practices'),

  tables: [
    {
      title: 'docs/s by batch size, one writer (size = SIZE)',
      rows: 'variant',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'batch' && r.axis.W === 1,
    },
    {
      title: 'docs/s by batch size and writers: separate processes',
      rows: 'W',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'batch' && r.variant === 'processes',
    },
    {
      title: 'docs/s by batch size and writers: async loops on one client',
      rows: 'W',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'batch' && r.variant === 'async',
    },
    {
      title: "docs/s by batch size and writers: the source's writer (w: 0, unacknowledged), async loops on one client",
      rows: 'W',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'batch' && r.variant === 'async-w0',
    },
    {
      title: 'docs/s by batch size and writers: one connection per writer',
      rows: 'W',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'batch' && r.variant === 'connections',
    },
    {
      title: 'docs/s by document size (bytes), batch 1000, one writer',
      rows: 'variant',
      cols: 'size',
      value: (r) => fmtRate(docsPerSec(r)),
      // The size SIZE at batch 1000 is the batch part's point (measured once: scripts/inserts_bulk.js).
      filter: (r) =>
        !r.skipped && (r.axis.part === 'size' || (r.axis.part === 'batch' && r.axis.W === 1 && r.axis.batch === 1000)),
    },
    {
      title: 'docs/s by write concern (replica set of 1), one writer',
      rows: 'w',
      cols: 'batch',
      value: (r) => fmtRate(docsPerSec(r)),
      filter: (r) => !r.skipped && r.axis.part === 'wc',
    },
  ],

  charts: [docsPerSecChart],
});
