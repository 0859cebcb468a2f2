'use strict';
// Study "timeseries" (source 003, Vlad Mihalcea, "A beginner's guide to MongoDB performance
// turbocharging", 2013): the Node part of scripts/ts_designs.js's declaration. The script times
// every design at every grain through the harness; this part loads the events, computes the
// answers in plain Node (the oracle), skips the grains the scale cannot show, and adds what only
// Node can do: the source's cold and warm states (server restarts), storage per design, one
// state x grain table with the source's figures beside ours, and the charts.
const { defineStudy } = require('../../core/registry');
const tsFixture = require('../../../fixtures/timeseries');
const ref = require('./reference');
const lab = require('../../../scripts/lib/lab');
const LabGen = require('../../../fixtures/gen');
const { PALETTE, chartTime } = require('../../report/report');
const { canRestart, restartWithCacheFlags, restartWithArgs, usable } = require('../../infra/restart-args');

const NAME = 'timeseries';
const MINUTES_IN_2012 = 366 * 24 * 60;
const SOURCE_EVENTS = 50000000;
// Below this many events per minute the seconds-in-a-minute intervals are mostly empty groups.
const MIN_EVENTS_PER_MINUTE = 5;

// The source's published figures: aggregation time in seconds, MongoDB 2.4.6 (MMAPv1), 50,000,000
// events, 8 GB RAM workstation; per state, [seconds in a minute, minutes in an hour, hours in a day].
const SOURCE_FIGURES = {
  cold: {
    T1: [0.02, 0.097, 1.771],
    T2: [0.01, 0.089, 1.366],
    T3: [0.02, 0.089, 1.216],
    T4: [0.01, 0.084, 1.135],
    T5: [0.02, 0.082, 1.078],
    Average: [0.016, 0.088, 1.3132],
  },
  'warm-both': {
    T1: [0.016, 0.359, 5.694],
    T2: [0, 0.343, 5.336],
    T3: [0.015, 0.375, 5.179],
    T4: [0.01, 0.359, 5.351],
    T5: [0.016, 0.343, 5.366],
    Average: [0.009, 0.355, 5.385],
  },
  'warm-data': {
    T1: [0, 0.047, 1.014],
    T2: [0, 0.047, 0.968],
    T3: [0.016, 0.047, 1.045],
    T4: [0, 0.047, 0.983],
    T5: [0, 0.046, 0.951],
    Average: [0.003, 0.046, 0.992],
  },
  'warm-year': {
    T1: [0, 0.032, 0.905],
    T2: [0, 0.046, 0.858],
    T3: [0, 0.047, 0.952],
    T4: [0, 0.031, 0.873],
    T5: [0, 0.047, 0.858],
    Average: [0, 0.04, 0.889],
  },
};
const SOURCE_WARMUP = {
  'warm-both': 'touch {data, index}: 15.9 s',
  'warm-data': 'touch {data}: 14.0 s',
  'warm-year': 'year aggregation: 299.7 s',
};
const SOURCE_SETTING = 'MongoDB 2.4.6 (MMAPv1), 50,000,000 events, 8 GB RAM';
// The source's data + indexes (5.9 GB + overhead: 7.13 GB) over its 8 GB of RAM. STATES_CACHE=source
// sizes the WiredTiger cache so that this run's data + indexes fill it as much: the source's setting
// (data fits, data + indexes nearly fill the memory) at any scale, without a machine of 8 GB.
const SOURCE_FILL = 7.13 / 8;

// The source's states: a restart, then a warm-up (none for cold, where every grain starts from a restart).
const STATES = [
  { name: 'cold', title: 'cold (restart before each grain)', warm: null },
  { name: 'warm-data', title: 'after warming the data (warmup_data.js)', warm: 'data' },
  {
    name: 'warm-indexes',
    title: 'after warming the indexes (warmup_indexes.js; no source counterpart)',
    warm: 'indexes',
  },
  { name: 'warm-both', title: "after warming data and indexes (warmup.js; the source's touch)", warm: 'both' },
  {
    name: 'warm-no-id',
    title: "after warming the data and the created_on index only (no _id_: the source's advice)",
    warm: 'data-no-id',
  },
  { name: 'warm-year', title: "after the year aggregation (agg_year.js; the source's preload)", warm: 'year' },
];
const STATE_GRAINS = ['seconds', 'minutes', 'hours'];
const GRAIN_TITLES = {
  seconds: 'seconds in a minute',
  minutes: 'minutes in an hour',
  hours: 'hours in a day',
  days: 'days in the year',
};
const DESIGNS = ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'];

/** Same groups, counts, min and max; averages equal up to the rounding of another summation order. */
function sameRows(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return (
      x.t.getTime() === y.t.getTime() &&
      Number(x.count) === Number(y.count) &&
      x.min === y.min &&
      x.max === y.max &&
      Math.abs(x.avg - y.avg) <= 1e-9 * Math.max(1, Math.abs(x.avg))
    );
  });
}

/** The intervals a grain asks about: the source's five start times, or the whole of 2012. */
function intervals(grain) {
  if (grain === 'days') return [{ from: LabGen.TS_YEAR_START, to: LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS }];
  return tsFixture.START_TIMES.map((s) => ref.calibrate(s, tsFixture.GRAINS[grain].width));
}

function groupOf(grain) {
  return grain === 'days' ? tsFixture.DAY : tsFixture.GRAINS[grain].group;
}

/**
 * Every interval's rows in T order, over the given events (any iterable: the seeded generator
 * streams them), in one pass that keeps only the groups (lib/studies/timeseries/reference.js): the year grain
 * holds every event, and 50,000,000 of them do not fit in Node's heap.
 */
function expectedRows(grain, events) {
  const aggs = intervals(grain).map((iv) => ref.aggregator(iv.from, iv.to, groupOf(grain)));
  for (const ev of events) for (const a of aggs) a.add(ev);
  return aggs.flatMap((a) => a.rows());
}

const oracleCache = new Map();
function oracle(p, point) {
  const key = `${p.N}/${p.SEED}/${point.grain}`;
  if (!oracleCache.has(key)) oracleCache.set(key, expectedRows(point.grain, tsFixture.events(p.N, p.SEED)));
  return oracleCache.get(key);
}

function perMinute(events) {
  return events / MINUTES_IN_2012;
}

function measure(name, value, unit, what, o = {}) {
  return lab.measureRecord({ study: NAME, name, variant: o.variant || null, axis: o.axis || {}, value, unit, what });
}

function fmtBytes(b) {
  if (b >= 1073741824) return `${(b / 1073741824).toFixed(2)} GB`;
  if (b >= 1048576) return `${(b / 1048576).toFixed(1)} MB`;
  return `${Math.round(b / 1024)} KB`;
}

// ---- cold and warm states ------------------------------------------------------------------------
async function restart(ctx) {
  await ctx.server.restart();
  await ctx.reopen();
}

async function pass(ctx, p, grain, state, check) {
  const r = await ctx.session.call('tsDesigns.pass', p, grain, { state: state.name });
  if (check) r.record.agrees = sameRows(r.rows, oracle(p, { grain }));
  return r;
}

/** What the collection and each index held in the WiredTiger cache, and had read into it (ts-cache.js residency). */
function residencyOf(x) {
  const indexes = {};
  for (const [name, i] of Object.entries(x.indexes || {}))
    indexes[name] = { size: i.size, cached: i.cached, read: i.read };
  return { data: { size: x.dataSize, cached: x.cached, read: x.read }, indexes };
}

/**
 * One result record per state and grain from its passes: `times` are the passes' means of T1..T5
 * (the source's "Average" row), so the interval the claims read is over passes, not over the five
 * intervals of one pass; `extra.passes` keeps each pass's T1..T5 and what the collection and each
 * index held in the cache before and after it (`residency`).
 */
function stateRecord(runs) {
  const first = runs[0].record;
  const passes = runs.map((r, i) => ({
    pass: i + 1,
    times: r.record.times,
    intervals: r.record.extra.intervals,
    residency: { before: residencyOf(r.before), after: residencyOf(r.after) },
  }));
  const agrees = runs.every((r) => r.record.agrees !== false)
    ? runs.some((r) => r.record.agrees === true)
      ? true
      : null
    : false;
  return lab.timesRecord({
    study: NAME,
    variant: first.variant,
    what: first.what,
    axis: first.axis,
    times: runs.map((r) => lab.summarize(r.record.times).mean),
    answer: first.answer,
    plan: first.plan,
    agrees,
    extra: {
      pass: `${runs.length} pass(es) over T1..T5, the states interleaved; a time is a pass's mean of T1..T5 (aggregation until its first result)`,
      intervals: first.extra.intervals,
      passes,
    },
  });
}

/**
 * The source's cold and warm states with the raw design, each pass over T1..T5 per grain: cold
 * restarts the server before each grain; every other state restarts once, warms up, then runs the
 * grains. The source ran one pass per state; here `passes` rounds run every state in turn (the
 * states interleaved, so a drift of the machine does not fall on one state), and each pass records
 * the cache residency of the collection and of each index before and after it. Needs
 * ctx.server.restart() and ctx.reopen(). Returns result records (axis {grain, state}, one per state
 * and grain, times over passes) and measure records (each warm-up: its time and residency).
 */
async function runStates(ctx, p, { grains = STATE_GRAINS, states = STATES, check = true, passes = 1 } = {}) {
  const out = [];
  const restarts = passes * states.reduce((n, s) => n + (s.warm === null ? grains.length : 1), 0);
  ctx.log(
    `${NAME}: cold and warm states: ${states.length} states x ${grains.length} grains, ${passes} pass(es) each ` +
      `(the source ran one), ${restarts} server restarts (about ${restarts * 2} s plus the warm-ups)`,
  );
  const runs = new Map();
  const keep = (state, g, r) => {
    const k = `${state.name}/${g}`;
    if (!runs.has(k)) runs.set(k, []);
    runs.get(k).push(r);
  };
  for (let k = 1; k <= passes; k++) {
    for (const state of states) {
      if (state.warm === null) {
        for (const g of grains) {
          await restart(ctx);
          keep(state, g, await pass(ctx, p, g, state, check));
        }
        continue;
      }
      await restart(ctx);
      const w = await ctx.session.call('tsDesigns.warm', p, state.warm);
      if (w.ms > 5000) ctx.log(`  ${state.name} (pass ${k}): warm-up took ${lab.fmtMs(w.ms)}`);
      const idx = (x) => Object.values(x.indexes).reduce((a, i) => a + i.cached, 0);
      const axis = { state: state.name };
      const extra = { pass: k, before: residencyOf(w.before), after: residencyOf(w.after) };
      out.push(
        { ...measure('warmupMs', w.ms, 'ms', `warm-up: ${w.method}`, { axis }), extra },
        measure(
          'dataCachedAfterWarmup',
          w.after.cached,
          'bytes',
          'collection bytes in the WiredTiger cache after the warm-up',
          { axis },
        ),
        measure(
          'indexCachedAfterWarmup',
          idx(w.after),
          'bytes',
          'index bytes in the WiredTiger cache after the warm-up',
          { axis },
        ),
      );
      for (const g of grains) keep(state, g, await pass(ctx, p, g, state, check));
    }
  }
  for (const state of states) for (const g of grains) out.push(stateRecord(runs.get(`${state.name}/${g}`)));
  return out;
}

/**
 * The states outside a study run (lib/studies/timeseries/load-bench.js --states, the tests): a session of our own
 * with the declaration loaded and configured, reopened after every restart.
 * params: the script's (COLL, N, SEED ...). Returns runStates' records.
 */
async function statesOnServer({
  server,
  dbName,
  params = {},
  echo = () => {},
  log = () => {},
  grains,
  states,
  check = false,
}) {
  const { studySession } = require('../../core/run-study');
  const ctx = await studySession(module.exports, { server, dbName, values: params, echo, log });
  try {
    return await runStates(ctx, ctx.p, { grains, states, check, passes: ctx.p.PASSES || 1 });
  } finally {
    if (ctx.session)
      await ctx.session.close().catch(() => {
        /* clean-up must not hide the states' own error */
      });
  }
}

/** The WiredTiger cache the lab's mongod runs with now (serverStatus), waiting out a restart. */
async function cacheMaxBytes(db) {
  await usable(db);
  const st = await db.admin().command({ serverStatus: 1 });
  return st.wiredTiger.cache['maximum bytes configured'];
}

/**
 * The states with the cache sized as the source's memory was (SOURCE_FILL), then the server back
 * on its own arguments. Every state record names that cache on its axis and carries the setting
 * (cache, data and index bytes, events) the claims judge it by.
 */
async function statesAtSourceFill(ctx, p, opts, sizes, events) {
  const raw = sizes.find((s) => s.variant === 'raw');
  if (!raw || !canRestart(ctx.server))
    throw new Error('parameter STATES_CACHE=source: needs the raw design and a mongod the lab started');
  const need = raw.dataSize + raw.indexSize;
  const gb = Math.max(0.25, Math.ceil((need / SOURCE_FILL / 1073741824) * 100) / 100);
  const before = await restartWithCacheFlags(ctx.server, ['--wiredTigerCacheSizeGB', String(gb)]);
  let records;
  let cacheBytes;
  try {
    await ctx.reopen();
    cacheBytes = await cacheMaxBytes(ctx.db);
    records = await runStates(ctx, p, opts);
  } finally {
    await restartWithArgs(ctx.server, before);
    await ctx.reopen();
  }
  const cache = `${gb}GB`;
  const setting = { cacheBytes, dataBytes: raw.dataSize, indexBytes: raw.indexSize, events };
  for (const r of records) {
    r.axis = { ...r.axis, cache };
    if (r.type === 'result') r.extra = { ...(r.extra || {}), setting };
  }
  const note =
    `States with a ${fmtBytes(cacheBytes)} WiredTiger cache (STATES_CACHE=source): data + indexes ` +
    `(${fmtBytes(need)}) fill ${Math.round((need / cacheBytes) * 100)} % of it, as the source's 7.13 GB filled its 8 GB.`;
  return { records, note };
}

/** The states STATES names (all six when empty), in the source's order; an unknown name is refused. */
function chosenStates(p) {
  const only = p.STATES === 'all' ? [] : lab.list(p.STATES || '');
  for (const x of only)
    if (!STATES.some((s) => s.name === x))
      throw new Error(
        `parameter STATES: unknown state ${JSON.stringify(x)} (known: ${STATES.map((s) => s.name).join(', ')})`,
      );
  return only.length ? STATES.filter((s) => only.includes(s.name)) : STATES;
}

/** The one state x grain table, with the source's figures beside ours. */
function stateTableLines(records, grains) {
  const recs = records.filter((r) => r.type === 'result' && r.axis.state);
  const warm = records.filter((r) => r.type === 'measure' && r.name === 'warmupMs');
  const cols = [
    { key: 'state', title: 'state' },
    { key: 'warm', title: 'warm-up', right: true },
  ];
  for (const g of grains) {
    cols.push({ key: g, title: GRAIN_TITLES[g], right: true }, { key: `${g}-src`, title: 'source', right: true });
  }
  const rows = STATES.filter((s) => recs.some((r) => r.axis.state === s.name)).map((s) => {
    const w = warm.filter((m) => m.axis.state === s.name).map((m) => m.value);
    const row = { state: s.name, warm: w.length ? lab.fmtMs(lab.median(w)) : '-' };
    for (const g of grains) {
      const r = recs.find((x) => x.axis.state === s.name && x.axis.grain === g);
      const src = SOURCE_FIGURES[s.name];
      row[g] = r ? lab.fmtMs(r.mean) + (r.agrees === false ? ' WRONG' : '') : '-';
      row[`${g}-src`] = src ? `${src.Average[STATE_GRAINS.indexOf(g)]} s` : '-';
    }
    return row;
  });
  return lab.tableLines(cols, rows);
}

/** What the scale of this run can show and what it cannot, in a few lines. */
function scaleNotes(events, sizes, cacheBytes) {
  const raw = sizes.find((s) => s.variant === 'raw');
  const notes = [];
  if (raw && cacheBytes) {
    const need = raw.dataSize + raw.indexSize;
    notes.push(
      need < cacheBytes
        ? `At ${lab.fmtInt(events)} events the collection and its indexes (${fmtBytes(need)}) fit in the WiredTiger cache (${fmtBytes(cacheBytes)}): ` +
            'a restart empties that cache but not the operating system\'s page cache, so "cold" here means refilling the cache from memory, not reading a disk. ' +
            `The source's ${lab.fmtInt(SOURCE_EVENTS)} events did not fit its 8 GB of RAM; for its "warming does more harm than good" use --set STATES_CACHE=source (the cache sized as its memory was).`
        : `At ${lab.fmtInt(events)} events the collection and its indexes (${fmtBytes(need)}) do NOT fit in the WiredTiger cache (${fmtBytes(cacheBytes)}): warming it all evicts part of what a query needs, as in the source.`,
    );
  }
  if (perMinute(events) < MIN_EVENTS_PER_MINUTE) {
    notes.push(
      `Seconds in a minute is left out: ${lab.fmtInt(events)} events put ~${perMinute(events).toPrecision(2)} events in a minute ` +
        `(the source's ${lab.fmtInt(SOURCE_EVENTS)}: ~${Math.round(perMinute(SOURCE_EVENTS))}); it shows from ~${lab.fmtInt(MIN_EVENTS_PER_MINUTE * MINUTES_IN_2012)} events (--docs), e.g. --profile seed.`,
    );
  }
  return notes;
}

// ---- charts ------------------------------------------------------------------------------------
function spanOf(values) {
  const v = values.filter((x) => x > 0);
  return v.length ? Math.max(...v) / Math.min(...v) : 1;
}

function runFacts(records, env, doc) {
  const p = ((doc && doc.params) || {})[NAME] || {};
  const ev = records.find((r) => r.type === 'measure' && r.name === 'events');
  const events = ev ? ev.value : p.N;
  return {
    p,
    events,
    line: `${lab.fmtInt(events)} events | MongoDB ${env.server.version} | ${String(env.startedAt).slice(0, 10)} | ${env.host.cores} cores`,
  };
}

/** Bars with their value written above them, one panel per grain, each panel with its own scale. */
function panels({ name, title, subtitle, values, x, xSort, color, colorSort, yTitle, log }) {
  const grains = Object.values(GRAIN_TITLES).filter((g) => values.some((v) => v.grain === g));
  // Two lines: a y title longer than the 260-pixel plot makes vega stretch every panel to fit it,
  // leaving empty bands above and below the bars.
  const y = {
    field: 'ms',
    type: 'quantitative',
    stack: null,
    title: log ? [yTitle, '(log scale)'] : yTitle,
    scale: { type: log ? 'log' : 'linear' },
  };
  return {
    name,
    title: { text: title, subtitle },
    // the label sits above the whisker's top, else on the bar
    data: { values: values.map((v) => ({ ...v, label: lab.fmtMs(v.ms), top: v.hi || v.ms })) },
    facet: { column: { field: 'grain', type: 'nominal', sort: grains, title: null, header: { labelFontSize: 12 } } },
    spec: {
      width: Math.max(150, (34 * xSort.length * (color === x ? 1 : colorSort.length)) / 1.5),
      height: 260,
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            x: { field: x, type: 'nominal', sort: xSort, title: null, axis: { labelAngle: -35 } },
            ...(color !== x ? { xOffset: { field: color, type: 'nominal', sort: colorSort } } : {}),
            y,
            color: {
              field: color,
              type: 'nominal',
              sort: colorSort,
              title: color === 'series' ? null : color,
              scale: { domain: colorSort, range: PALETTE },
              legend: { labelLimit: 320, orient: color === 'series' ? 'bottom' : 'right' },
            },
          },
        },
        {
          transform: [{ filter: 'isValid(datum.lo)' }],
          mark: { type: 'rule', color: 'black' },
          encoding: {
            x: { field: x, type: 'nominal', sort: xSort },
            ...(color !== x ? { xOffset: { field: color, type: 'nominal', sort: colorSort } } : {}),
            y: { ...y, field: 'lo' },
            y2: { field: 'hi' },
          },
        },
        {
          mark: { type: 'text', dy: -5, fontSize: 9 },
          encoding: {
            x: { field: x, type: 'nominal', sort: xSort },
            ...(color !== x ? { xOffset: { field: color, type: 'nominal', sort: colorSort } } : {}),
            y: { ...y, field: 'top' },
            text: { field: 'label' },
          },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  };
}

function designsChart(records, env, doc) {
  const recs = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.grain && !r.axis.state);
  if (!recs.length) return null;
  const f = runFacts(records, env, doc);
  const designs = DESIGNS.filter((d) => recs.some((r) => r.variant === d));
  const values = recs.map((r) => ({ grain: GRAIN_TITLES[r.axis.grain], variant: r.variant, ...chartTime(r) }));
  const log = spanOf(values.flatMap((v) => [v.ms, v.lo, v.hi])) > 30;
  return panels({
    name: 'designs',
    title: 'Time series (source 003): time per interval by design',
    subtitle: [
      f.line,
      `median of ${f.p.RUNS === undefined ? '?' : f.p.RUNS} interleaved rounds, whiskers: 95% interval (t on log times, 3+ rounds); days = one aggregation of the whole year by day`,
    ],
    values,
    x: 'variant',
    xSort: designs,
    color: 'variant',
    colorSort: designs,
    yTitle: 'ms per interval (median)',
    log,
  });
}

function statesChart(records, env, doc) {
  const all = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.state);
  if (!all.length) return null;
  // one run of states: a run's cache is on its records' axis (STATES_CACHE=source, a converted run)
  const key = all[0].axis.cache || null;
  const recs = all.filter((r) => (r.axis.cache || null) === key);
  const f = runFacts(records, env, doc);
  const ours = `this run (${lab.fmtInt(f.events)} events)`;
  const theirs = 'source (2.4.6, 50M events)';
  const values = recs.map((r) => ({
    grain: GRAIN_TITLES[r.axis.grain],
    state: r.axis.state,
    series: ours,
    // the whisker: the 95 % interval over the passes (report.js chartTime); the bar, their mean
    ...chartTime(r),
    ms: r.mean,
  }));
  for (const r of recs) {
    const src = SOURCE_FIGURES[r.axis.state];
    const v = src && src.Average[STATE_GRAINS.indexOf(r.axis.grain)];
    if (v > 0) values.push({ grain: GRAIN_TITLES[r.axis.grain], state: r.axis.state, series: theirs, ms: v * 1000 });
  }
  const states = STATES.map((s) => s.name).filter((s) => recs.some((r) => r.axis.state === s));
  return panels({
    name: 'states',
    title: 'Time series (source 003): cold and warm states, raw design',
    subtitle: [
      f.line,
      'mean aggregation time of T1..T5, mean over the passes of each state; whiskers: 95% interval over the passes (3+)',
      `beside ours, the source's: ${SOURCE_SETTING}`,
    ],
    values,
    x: 'state',
    xSort: states,
    color: 'series',
    colorSort: [ours, theirs],
    yTitle: 'ms per interval (mean of T1..T5)',
    log: spanOf(values.flatMap((v) => [v.ms, v.lo, v.hi])) > 30,
  });
}

// ---- the study ----------------------------------------------------------------------------------
module.exports = defineStudy({
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
    quick: { N: 100000, RUNS: 3, STATES: 'cold,warm-no-id,warm-year', PASSES: 3 },
    // Seed: the source's design (raw) and the rollups, the two the headline and 003-compressed-model
    // read; building buckets and the time-series copy from 50M events would take ~45 min more
    // (--set VARIANTS=all builds and times every design). The states run with the cache sized as
    // the source's memory was (STATES_CACHE=source). Left out, read by no claim: the year by day
    // (raw: one ~4 min run over the budget, no interval; the headline falls back to the hours
    // grain; --set GRAINS= restores it) and warm-indexes (no source counterpart; --set STATES=all).
    seed: {
      N: SOURCE_EVENTS,
      RUNS: 3,
      VARIANTS: 'raw,rollup',
      GRAINS: 'seconds,minutes,hours',
      STATES_CACHE: 'source',
      STATES: 'cold,warm-data,warm-both,warm-no-id,warm-year',
      PASSES: 3,
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => ['bucket_minute', 'ts', 'rollup_minute', 'rollup_hour'].map((s) => `${p.COLL}_${s}`),
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  expected: '~1 min',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  // One pass per state took 12.1 of the 25 min; three passes (PASSES=3) add two more: an estimate.
  seedExpected: '~50 min (estimated: 2026-11-27 took 25 with one pass per state, the states 12.1 of it)',

  /** The Node loader streams the same seeded events as the shell's generator, faster. */
  async load(ctx, p) {
    const f = await tsFixture.load(ctx.db, { n: p.N, seed: p.SEED, coll: p.COLL, progress: ctx.progress });
    if (f.generated)
      ctx.log(
        `${NAME}: ${lab.fmtInt(f.count)} events loaded in ${lab.fmtMs(f.ms)}, index on created_on in ${lab.fmtMs(f.indexMs)}`,
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
      throw new Error(`parameter STATES_CACHE: expected default or source, got ${JSON.stringify(p.STATES_CACHE)}`);
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
    const sizes = await ctx.session.call('tsDesigns.storage', p);
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
      ctx.echo(`STATES DISAGREE with the Node computation: ${wrong.map((r) => lab.pointLabel(r.axis)).join('; ')}`);
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
        lab.fmtMs(r.median) + (r.ratio && r.ratio.to !== r.variant ? ` (${lab.speedWords(r.ratio).text})` : ''),
    },
    {
      title: `State x grain: raw design, mean aggregation time of T1..T5, mean over the passes (the source's figure in brackets: ${SOURCE_SETTING})`,
      rows: 'state',
      cols: 'grain',
      filter: (r) => !!r.axis.state,
      value: (r) => {
        const src = SOURCE_FIGURES[r.axis.state];
        return lab.fmtMs(r.mean) + (src ? ` (${src.Average[STATE_GRAINS.indexOf(r.axis.grain)]} s)` : '');
      },
    },
  ],
  charts: [designsChart, statesChart],
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: {
    SOURCE_FIGURES,
    SOURCE_WARMUP,
    SOURCE_SETTING,
    STATES,
    sameRows,
    expectedRows,
    runStates,
    statesOnServer,
    stateTableLines,
  },
});
