'use strict';
// Study "timeseries" (source 003, Vlad Mihalcea, "A beginner's guide to MongoDB performance
// turbocharging", 2013): the Node part of scripts/ts_designs.js's declaration. The script times
// every design at every grain through the harness; this part loads the events, computes the
// answers in plain Node (the oracle), skips the grains the scale cannot show, and adds what only
// Node can do: the source's cold and warm states (server restarts), storage per design, one
// state x grain table with the source's figures beside ours, and the charts.
const { defineStudy } = require('../../core/registry');
const tsFixture = require('../../../fixtures/timeseries');
const LabFormat = require('../../../scripts/lib/format');
const { ParameterError } = require('../../infra/errors');
const S = require('./setting');
const { sameRows, expectedRows, oracle, perMinute } = require('./oracle');
const { measure, runStates, statesOnServer, statesAtSourceFill, chosenStates, limitRam } = require('./states');
const { stateTableLines, scaleNotes } = require('./lines');
const { designsChart, statesChart } = require('./charts');
const { indexOrders, sideNames } = require('./index-orders');

const { NAME, SOURCE_EVENTS, MIN_EVENTS_PER_MINUTE, SOURCE_FIGURES, SOURCE_SETTING, STATE_GRAINS } = S;

// ---- the study ----------------------------------------------------------------------------------
const entry = defineStudy({
  name: NAME,
  script: 'ts_designs.js',
  profiles: {
    // For the test suite. One state (STATES cannot name none: empty means all six), each state
    // being a restart: test/timeseries-cache.test.js runs every state on a server of its own ("cold
    // vs warm: every state ..." and "the runner: cold and warm states as one state x grain table",
    // which also checks the table's printed width). warm-year keeps one restart, its warm-up and the
    // states chart in a tiny run, and is the state quick runs for 003-working-set.
    // 5,000 events: every design is built and every grain but seconds answers (6, 61 and 366 rows).
    // At this sparse scale a build costs about one server write per event (a bucket, a time-series
    // bucket and a rollup per minute that holds one): from 20,000 the three builds took 5-8 s of the
    // study's 14-21 s on 2 loaded cores; from 5,000 the whole study takes 7-9 s.
    // One pass per state (PASSES=1): tiny is never judged, and each pass of a state is a restart.
    tiny: { N: 5000, RUNS: 1, STATES: 'warm-year', PASSES: 1 },
    // 100,000 events: every grain but seconds-in-a-minute has data (~11 events an hour); the
    // headline (rollups answer the year far faster than raw events) holds as at the source's scale.
    // Its states: cold, the year preload, which 003-working-set reads, and warm-no-id, whose presence
    // lets 003-id-index-unneeded/hinders say why it is not reproduced. Every other state claim needs 5,000,000
    // events or data + indexes past the cache and abstains at this scale whatever the states
    // measure, and each state costs a restart (--set STATES=all runs the six).
    // Three passes per state, the states interleaved: the state claims' intervals are over passes
    // (one pass per state gives no interval), each pass with the cache residency before and after it.
    // cold is back: 003-restart-cold reads its residency, and what a cold pass reads into the cache
    // is the yardstick of "the working set was in the cache" for the warm states (2 restarts a pass).
    // ID=objectId: the source's writer, as at seed (57 B documents, an ObjectId _id_), so the
    // quick column judges 003-bytes and the _id index's share of the states (warm-both against
    // warm-no-id) on the source's documents, and agrees with the seed column rather than abstaining.
    quick: { N: 100000, RUNS: 3, STATES: 'cold,warm-no-id,warm-year', PASSES: 3, ID: 'objectId' },
    // Seed: the source's design (raw) and the rollups, the two the headline and 003-compressed-model
    // read; building buckets and the time-series copy from 50M events would take ~45 min more
    // (--set VARIANTS=all builds and times every design). The states run with the cache sized as
    // the source's memory was (STATES_CACHE=source). Left out, read by no claim: the year by day
    // (raw: one ~4 min run over the budget, no interval; the headline falls back to the hours
    // grain; --set GRAINS= restores it) and warm-indexes (no source counterpart; --set STATES=all).
    // The source's writer: {_id: ObjectId, created_on, value} (003-bytes is judged on it).
    seed: {
      N: SOURCE_EVENTS,
      ID: 'objectId',
      RUNS: 3,
      VARIANTS: 'raw,rollup',
      GRAINS: 'seconds,minutes,hours',
      STATES_CACHE: 'source',
      STATES: 'cold,warm-data,warm-both,warm-no-id,warm-year',
      PASSES: 3,
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  // The after step's two created_on_1 side collections (index-orders.js) too.
  derived: (p) => [
    ...['bucket_minute', 'ts', 'rollup_minute', 'rollup_hour'].map((s) => `${p.COLL}_${s}`),
    ...sideNames(p.COLL),
  ],
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~1 min',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  // One pass per state took 12.1 of the 25 min; three passes (PASSES=3) add two more: an estimate.
  seedExpected:
    '~60 min (measured 2026-11-29 on the 2 vCPU AMD EPYC: the 50M events 10.5, the states 3 passes each 38, of it the year preload 8 a pass; docs/journal/seed-column-2.md)',

  /** The Node loader streams the same seeded events as the shell's generator, faster. */
  async load(ctx, p) {
    await limitRam(ctx, p); // RAM_MB: before the load, so the data's file pages count against it
    const f = await tsFixture.load(ctx.db, {
      n: p.N,
      seed: p.SEED,
      idType: p.ID,
      coll: p.COLL,
      progress: ctx.progress,
    });
    if (f.generated)
      ctx.log(
        `${NAME}: ${LabFormat.fmtInt(f.count)} events loaded in ${LabFormat.fmtMs(f.ms)}, index on created_on in ${LabFormat.fmtMs(f.indexMs)}`,
      );
    return { ...f, own: true, coll: p.COLL };
  },

  oracle,
  same: sameRows,
  variants: [],

  /** Leaves out the grains this scale cannot show (says so once). */
  async points(ctx, p, points) {
    chosenStates(p); // refuses an unknown state before anything is timed
    if (!['default', 'source'].includes(p.STATES_CACHE))
      throw new ParameterError(
        `parameter STATES_CACHE: expected default or source, got ${JSON.stringify(p.STATES_CACHE)}`,
      );
    const events = ctx.fixture ? ctx.fixture.count : p.N;
    if (perMinute(events) >= MIN_EVENTS_PER_MINUTE || !points.some((x) => x.grain === 'seconds')) return points;
    ctx.echo('');
    ctx.note(scaleNotes(events, [], 0).join(' '));
    return points.filter((x) => x.grain !== 'seconds');
  },

  headline: (points) => points.find((x) => x.grain === 'days' && !x.state) || points[points.length - 1],
  // The state points are in the state x grain pivot; report.md keeps per-point tables for the designs.
  pointTables: (axis) => !axis.state,

  /** Storage per design, then the cold and warm states (when the lab started the server). */
  async after(ctx, p) {
    const out = [];
    const events = ctx.fixture ? ctx.fixture.count : p.N;
    out.push(measure('events', events, 'documents', 'events in the collection'));
    // The writer, read from the data (not from ID: kept data is what was measured); 003-bytes
    // judges only the source's ObjectId _ids.
    const idType = await tsFixture.idTypeFound(ctx.db, p.COLL);
    out.push(measure('idType', idType, 'type', "the BSON type of the events' _id, read from the data"));
    const sizes = await ctx.shell.tsDesigns.storage(p);
    for (const s of sizes) {
      const o = { variant: s.variant };
      out.push(
        measure('totalSize', s.totalSize, 'bytes', `storage + indexes on disk (${s.colls.join(', ')})`, o),
        measure('storageSize', s.storageSize, 'bytes', 'compressed on disk', o),
        measure('indexSize', s.indexSize, 'bytes', 'indexes on disk', o),
        measure('dataSize', s.dataSize, 'bytes', 'uncompressed', o),
        measure('documents', s.docs, 'documents', 'documents (buckets for a time-series collection)', o),
      );
      if (s.buildMs !== null)
        out.push(measure('buildMs', s.buildMs, 'ms', 'time to build this design from the events', o));
    }
    // created_on_1 grown by inserts and built after the load, on the same events (003-bytes/index).
    out.push(...(await indexOrders(ctx, p, events)));
    // The table itself is printed once, by the declaration's report (the same in drop-in mode).
    const cacheBytes = ctx.server.cacheSizeBytes || ctx.server.cacheBytes;
    const grains = STATE_GRAINS.filter((g) => g !== 'seconds' || perMinute(events) >= MIN_EVENTS_PER_MINUTE);
    if (typeof ctx.server.restart !== 'function') {
      ctx.echo('');
      ctx.note(
        'the cold and warm states restart the server: skipped on a server the lab did not start (run without --uri)',
      );
      return out;
    }
    const opts = {
      grains,
      states: chosenStates(p),
      check: !!(ctx.fixture && ctx.fixture.own !== false),
      passes: p.PASSES || 1,
    };
    const sized = p.STATES_CACHE === 'source' ? await statesAtSourceFill(ctx, p, opts, sizes, events) : null;
    const states = sized ? sized.records : await runStates(ctx, p, opts);
    out.push(...states);
    const notes = sized ? [sized.note] : scaleNotes(events, sizes, cacheBytes).filter((n) => !/^Seconds/.test(n));
    ctx.echo(
      [
        '',
        `cold and warm states: raw design, ${opts.passes} pass(es) over T1..T5 after each state, mean aggregation time per interval ` +
          `(the source: ${SOURCE_SETTING}, in seconds)`,
        ...stateTableLines(out, grains),
        ...notes.map((n) => `note: ${n}`),
      ].join('\n'),
    );
    const wrong = states.filter((r) => r.agrees === false);
    if (wrong.length)
      ctx.echo(
        `STATES DISAGREE with the Node computation: ${wrong.map((r) => LabFormat.pointLabel(r.axis)).join('; ')}`,
      );
    return out;
  },

  claims: require('./claims'),
  practices: require('./practices'),

  tables: [
    {
      title:
        'Designs: median time per interval (T1..T5; days: one aggregation of the year), and against raw (median of per-round ratios)',
      rows: 'variant',
      cols: 'grain',
      filter: (r) => !r.axis.state,
      value: (r) =>
        LabFormat.fmtMs(r.median) +
        (r.ratio && r.ratio.to !== r.variant ? ` (${LabFormat.speedWords(r.ratio).text})` : ''),
    },
    {
      title: `State x grain: raw design, mean aggregation time of T1..T5, mean over the passes (the source's figure in brackets: ${SOURCE_SETTING})`,
      rows: 'state',
      cols: 'grain',
      filter: (r) => !!r.axis.state,
      value: (r) => {
        const src = SOURCE_FIGURES[r.axis.state];
        return LabFormat.fmtMs(r.mean) + (src ? ` (${src.Average[STATE_GRAINS.indexOf(r.axis.grain)]} s)` : '');
      },
    },
  ],
  charts: [designsChart, statesChart],
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: {
    SOURCE_FIGURES,
    SOURCE_WARMUP: S.SOURCE_WARMUP,
    SOURCE_SETTING,
    STATES: S.STATES,
    sameRows,
    expectedRows,
    runStates,
    statesOnServer: (opts) => statesOnServer(entry, opts),
    stateTableLines,
  },
});

module.exports = entry;
