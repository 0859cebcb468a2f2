'use strict';
// Study "coherency" (source 002, "The Price of Data Coherency", 2013): the Node part of
// scripts/inserts_race.js. W workers (connections or processes) start together at a barrier and
// race through the same N entries in the same order; duplicates are counted exactly afterwards
// (documents minus distinct keys). The same race runs against PostgreSQL.
const { defineStudy } = require('../../core/registry');
const LabFormat = require('../../../scripts/lib/format');
const { stopWorkerPool, RACE_PATTERNS } = require('../source-002/insert-workers');
const { postgres } = require('../source-002/common');
const { fmtDups } = require('./records');
const { raceVariant, pgVariant, startRaces, duplicatesMeasures, atDefault } = require('./races');
const { duplicatesChart } = require('./charts');

const QUICK_VARIANTS = [
  'alone-check-then-insert',
  'alone-unique-insert',
  'alone-upsert-unique',
  ...RACE_PATTERNS.filter((x) => !x.startsWith('txn-')),
  'pg-check-then-insert',
  'pg-on-conflict',
  'pg-txn-check-then-insert',
  'pg-txn-serializable',
].join(',');

module.exports = defineStudy({
  name: 'coherency',
  script: 'inserts_race.js',
  writeUp: 'docs/studies/inserts.md#2-the-price-of-coherency', // source 002's four studies share one write-up
  profiles: {
    // For the test suite. test/inserts.test.js races the patterns at 128 keys and 8 workers and
    // checks their duplicates (the transaction patterns on a replica set of its own); here (run all,
    // test/sql-peer.test.js) a quarter of the operations, every pattern still raced through the
    // runner, the transaction patterns on the replica set the run starts.
    tiny: { N: 64, CHARS: 128, W: 4, RUNS: 1, WARMUP: 0 },
    // npm start: one race per pattern (the warm-up race was a second one: 2 races decide no interval
    // either, so 002-coherency abstains as before; 002-coherency-acid is a count), the source's writer
    // (check-then-insert-w0) beside today's. The transaction patterns, read by no claim, took 60 % of
    // the time and a replica set's start: seed, or --set VARIANTS= (every pattern).
    quick: {
      N: 512,
      CHARS: 1024,
      W: 16,
      MODE: 'connections',
      RUNS: 1,
      WARMUP: 0,
      VARIANTS: QUICK_VARIANTS,
    },
    // The source: 54 processes, the 3x3 grid of entry size x n. A race over the 30 s budget is its
    // cell's only race (its warm-up is the sample). PostgreSQL races at the default cell only: its
    // duplicates (002-coherency-acid) do not need the grid, 8.6 of 33 min on 2026-11-24. Left out,
    // read by no claim: the transaction patterns (and their replica set, 3 min) and upsert-index/
    // upsert-noindex (3.3 min): --set VARIANTS= --set PG_GRID=true runs everything.
    // check-then-insert-w0 (the source's inferred writer, w: 0) races at the default cell, where
    // 002-coherency is judged on it, check-then-insert (w: 1, every cell) beside. The PostgreSQL
    // transaction racers (002-coherency-acid: check and insert in one transaction, READ COMMITTED
    // judged, SERIALIZABLE beside) race at the default cell only.
    seed: {
      N: 1024,
      CHARS: 1024,
      W: 54,
      MODE: 'processes',
      GRID: true,
      RUNS: 3,
      PG_GRID: false,
      VARIANTS:
        'alone-check-then-insert,alone-unique-insert,alone-upsert-unique,check-then-insert,check-then-insert-w0,' +
        'unique-insert,upsert-unique,pg-check-then-insert,pg-on-conflict,pg-txn-check-then-insert,pg-txn-serializable',
    },
  },
  // Collections its Node races write on this server, checked before any work with the script's
  // shell variants' own (lib/core/run-study.js); the transaction patterns race on a replica set of their own.
  derived: (p) => RACE_PATTERNS.filter((x) => !x.startsWith('txn-')).map((x) => `${p.COLL}_${x.replace(/-/g, '_')}`),
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~30 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected:
    '~20 min (20.2 measured 2026-11-29 on the 2 vCPU AMD EPYC with the PostgreSQL transaction racers; 17 on 2026-11-27 on a 2.5 GHz Xeon)',
  peers: ['postgres'],

  /** Whatever the pattern, every key must be there (none lost); duplicates are in extra. */
  oracle: (p, point) => ({ keys: point.n }),

  async points(ctx, p, points) {
    ctx.cleanups.push(stopWorkerPool); // the worker processes kept between races
    startRaces(p);
    await postgres(ctx); // started before the races, so that `able` knows whether the peer can run
    return points;
  },

  variants: [
    ...RACE_PATTERNS.map(raceVariant),
    pgVariant('check-then-insert', 'PostgreSQL (READ COMMITTED): SELECT by key, INSERT when absent'),
    pgVariant('on-conflict', 'PostgreSQL: unique index, INSERT ... ON CONFLICT DO NOTHING'),
    pgVariant(
      'txn-check-then-insert',
      'PostgreSQL: BEGIN (READ COMMITTED); SELECT by key; INSERT when absent; COMMIT: check and insert in one transaction',
    ),
    pgVariant(
      'txn-serializable',
      'PostgreSQL: the same transaction at SERIALIZABLE; serialization failures rolled back (nothing inserted), counted and retried',
    ),
  ],

  /** Duplicates of every race as measure records (median and range over the runs). */
  measures: (ctx, p, point) => duplicatesMeasures(p, point),

  claims: require('./claims'),
  practices: require('./practices'),

  tables: [
    {
      title: 'duplicates per race, every pattern (median, min..max over the runs)',
      rows: 'variant',
      cols: 'n',
      value: fmtDups,
      filter: (r) => !r.skipped && atDefault(r),
    },
    {
      title: 'operations per second (W x N entries / race time, last race)',
      rows: 'variant',
      cols: 'n',
      value: (r) => (r.extra ? LabFormat.fmtInt(r.extra.opsPerSec) : ''),
      filter: (r) => !r.skipped && atDefault(r),
    },
    {
      title: "the source's grid: check-then-insert duplicates, entry size (rows) x keys (columns)",
      rows: 'chars',
      cols: 'n',
      value: fmtDups,
      filter: (r) => !r.skipped && r.variant === 'check-then-insert',
    },
  ],

  charts: [duplicatesChart],
});
