'use strict';
// The source's cold and warm states, measured: server restarts, warm-ups, passes over T1..T5 with
// the cache residency before and after each, and the states with the cache sized as the source's
// memory was. The Node side of the study (the shell's script cannot restart its server).
const LabFormat = require('../../../scripts/lib/format');
const LabParams = require('../../../scripts/lib/params');
const LabRecords = require('../../../scripts/lib/records');
const LabStats = require('../../../scripts/lib/stats');
const { ParameterError } = require('../../infra/errors');
const { canRestart, restartWithCacheFlags, restartWithArgs, usable } = require('../../infra/restart-args');
const { NAME, SOURCE_FILL, STATES, STATE_GRAINS } = require('./setting');
const { sameRows, oracle } = require('./oracle');
const { fmtBytes } = require('./lines');

function measure(name, value, unit, what, o = {}) {
  return LabRecords.measureRecord({
    study: NAME,
    name,
    variant: o.variant || null,
    axis: o.axis || {},
    value,
    unit,
    what,
  });
}

async function restart(ctx) {
  await ctx.server.restart();
  await ctx.reopen();
}

async function pass(ctx, p, grain, state, check) {
  const r = await ctx.shell.tsDesigns.pass(p, grain, { state: state.name });
  if (check) r.record.agrees = sameRows(r.rows, oracle(p, { grain }));
  return r;
}

/** What the collection and each index held in the WiredTiger cache, and had read into it (ts-cache.mongosh.js residency). */
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
  return LabRecords.timesRecord({
    study: NAME,
    variant: first.variant,
    what: first.what,
    axis: first.axis,
    times: runs.map((r) => LabStats.summarize(r.record.times).mean),
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
      const w = await ctx.shell.tsDesigns.warm(p, state.warm);
      if (w.ms > 5000) ctx.log(`  ${state.name} (pass ${k}): warm-up took ${LabFormat.fmtMs(w.ms)}`);
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
 * entry: the study's declaration; params: the script's (COLL, N, SEED ...). Returns runStates' records.
 */
async function statesOnServer(
  entry,
  { server, dbName, params = {}, echo = () => {}, log = () => {}, grains, states, check = false },
) {
  // Required here: run-study loads the driver and mongosh, which `list` and `--help` (reading the
  // studies' declarations) must not pay for.
  const { studySession } = require('../../core/run-study');
  const ctx = await studySession(entry, { server, dbName, values: params, echo, log });
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
    throw new ParameterError('parameter STATES_CACHE=source: needs the raw design and a mongod the lab started');
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
  const only = p.STATES === 'all' ? [] : LabParams.list(p.STATES || '');
  for (const x of only)
    if (!STATES.some((s) => s.name === x))
      throw new ParameterError(
        `parameter STATES: unknown state ${JSON.stringify(x)} (known: ${STATES.map((s) => s.name).join(', ')})`,
      );
  return only.length ? STATES.filter((s) => only.includes(s.name)) : STATES;
}

module.exports = { measure, runStates, statesOnServer, statesAtSourceFill, chosenStates };
