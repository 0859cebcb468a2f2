'use strict';
// Study "counters" (source 004, Rick Copeland, "MongoDB Schema Design at Scale", 2012): the Node
// part of scripts/counters_day.js's declaration. The script's variants are the four schemas written
// hit by hit from the shell (one writer); the Node variants are the same schemas and today's
// alternatives written by WRITERS concurrent connections, fed the very same hits minute by minute.
// After the day: storage and read-back cost, minute 0 vs 1439 (finding 3), writers and write
// concerns, and the verdicts on the source's four findings.
//
// Where things are: variants.js (the Node day: collections, writers, each minute), after.js (what
// runs after the day), sweeps.js (minute 0 vs 1439, writers x write concerns), lines.js (the after
// step's tables), charts.js, schedule.js (which minutes run), state.js (the run's own state).
const { defineStudy } = require('../../core/registry');
const { fmtInt } = require('../../../scripts/lib/format');
const { median } = require('../../../scripts/lib/stats');
const micro = require('./micro');
const { target } = require('./schemas');
const { wpsOf, wpsOver, ratioOver, scanRatio } = require('./records');
const { LAYOUTS: pgSizeLayouts } = require('./pg-size');
const { NODE_SCHEMAS, COUNTERS, minuteOfHour, slotsOf } = require('./schedule');
const { NODE_VARIANTS, nodeVariant, loadDay, hourOracle } = require('./variants');
const { scan, writersSweep, replsetSweep } = require('./sweeps');
const { after } = require('./after');

/** Every collection of this server the parts write (the replica-set part writes on its own server). */
function derivedNames(p) {
  const coll = (schema, prefix) => target(schema, prefix).coll;
  return [
    ...NODE_SCHEMAS.map((s) => coll(s, `${p.PREFIX}node_`)),
    ...COUNTERS.map((s) => coll(s, `${p.PREFIX}sweep_`)),
    coll('preallocated', `${p.PREFIX}wash_one_`),
    ...Array.from({ length: p.METRICS }, (_, k) => coll('preallocated', `${p.PREFIX}wash_m${k}_`)),
    ...pgSizeLayouts.map((l) => `${p.PREFIX}size_${l}`),
    ...micro.LAYOUTS.map((l) => micro.collOf(l)),
    `${p.PREFIX}idregex`,
  ];
}

module.exports = defineStudy({
  name: 'counters',
  script: 'counters_day.js',
  profiles: {
    tiny: {
      METRICS: 5,
      PER_MINUTE: 10,
      RUNS: 2,
      WARMUP: 0,
      WRITERS: 3,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      // Two of the 9 layout-mode pairs, 3 rounds: test/counters.test.js "minute 0 versus minute
      // 1439" times the layouts in bulk and single on the shared server. These two keep in a tiny
      // run the mode that test leaves out (updateMany) and the table's widest layout and mode names.
      SCAN_PAIRS: 'flat-bulk,hierarchical-updateMany',
      SCAN_ROUNDS: 3,
      SWEEP: false,
      REPLSET: false,
      // The after step's three remarks are off: they print no line of their own (a tiny run shows
      // only their verdict cells, saying they did not run), and test/counters.test.js "the Node part
      // through the runner" runs all three at about this scale and checks their records: one collection
      // vs one per metric (24 rounds), the _id prefix regex (plan and answers), the bytes per
      // metric-day against PostgreSQL. test/safety-scratch.test.js sets them on for the names they write.
      IDREGEX: false,
      WASH: false,
      PG_SIZE: false,
      SIZE_DAYS: 60, // what --set PG_SIZE=true sizes at this profile (the script's default is 2,000)
    }, // for the test suite
    // Quick: 20 metrics, 4 minutes per hour, 4 writers (~1-2 min). Seed scale: every minute of the
    // day, 100 metrics, the source's one writer, plus the writers/write-concern sweep (the day claims' note). The
    // 3-member replica set's sweep (w:1 and majority) is read by no claim: ~1.4 min of the after step
    // (10,000 writes per setting at its recorded rates, and the set's start), no verdict or figure
    // changed without it (docs/journal/seed-time-2026-11-29.md); --set REPLSET=true adds it.
    quick: {
      METRICS: 10,
      PER_MINUTE: 20,
      RUNS: 3,
      WARMUP: 0,
      WRITERS: 4,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      // the pairs the claims read (004-field-scan-hierarchy, 004-array-no-faster); seed times all 9
      SCAN_PAIRS: 'flat-bulk,hierarchical-bulk,array-bulk,flat-single',
      SWEEP: false,
      REPLSET: false,
      SIZE_DAYS: 500,
      WASH_PER_HOUR: 2,
    },
    seed: {
      METRICS: 100,
      PER_MINUTE: 100,
      RUNS: 60,
      WARMUP: 0,
      // The source's ONE writer (writer.py), which every day claim's gate needs; the writers sweep
      // (SWEEP) times several writers beside. 004-prealloc-safe/lab-racing needs several writers on
      // the day: --set WRITERS=16 (or the quick profile's 4).
      WRITERS: 1,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      SWEEP: true,
      REPLSET: false,
      WASH_PER_HOUR: 4,
      // the source's writer: unacknowledged upserts (the day's read-back still checks every counter)
      WC: 'w0',
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: derivedNames,
  cli: { docs: 'METRICS', runs: 'RUNS', seed: 'SEED' },
  peers: ['postgres'],
  expected: '~45 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected:
    '~7 min (7.3 measured 2026-11-29 on the 2 vCPU AMD EPYC: the day on one w:0 writer, the sweep; docs/data/counters-seed-2026-11-29.json)',

  load: loadDay,
  oracle: hourOracle,
  variants: NODE_SCHEMAS.map(nodeVariant),
  headline: (points) => points.find((x) => x.day === 0 && x.hour === 23) || points[points.length - 1],
  after,
  claims: require('./claims'),
  practices: require('./practices'),
  tables: [
    {
      title: 'writes/s per simulated hour (median of its minutes)',
      rows: 'hour',
      cols: 'variant',
      filter: (r) => r.axis && r.axis.hour !== undefined && !r.skipped,
      value: (r) => fmtInt(Math.round(median(r.times.map((_, i) => wpsOf(r, i))))),
    },
  ],
  charts: require('./charts'),
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: { minuteOfHour, slotsOf, wpsOver, ratioOver, scanRatio, scan, writersSweep, replsetSweep, NODE_SCHEMAS },
});
