'use strict';
// The source's cold and warm states, measured: server restarts, warm-ups, passes over T1..T5 with
// the cache residency before and after each, and the states with the cache sized as the source's
// memory was. The Node side of the study (the shell's script cannot restart its server).
const fs = require('fs');
const LabFormat = require('../../../scripts/lib/format');
const LabParams = require('../../../scripts/lib/params');
const LabRecords = require('../../../scripts/lib/records');
const LabStats = require('../../../scripts/lib/stats');
const { ParameterError } = require('../../infra/errors');
const { canRestart, restartWithCacheFlags, restartWithArgs, usable } = require('../../infra/restart-args');
const { NAME, SOURCE_FILL, STATES, STATE_GRAINS } = require('./setting');
const { sameRows, oracle } = require('./oracle');
const { fmtBytes } = require('./lines');
const { ioCounters, ioSince, localMongodPid, onLoopback } = require('../../infra/process-io');
const { limitMemory, cacheGBFor, MIN_CACHE_GB, MONGOD_OWN_MB } = require('../../infra/memory-limit');

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

/**
 * The pid of the mongod the states run on when it runs on this machine (its /proc is readable), else
 * null: a remote server's disk reads cannot be seen from here, and are recorded as unknown (null).
 */
async function mongodPid(ctx) {
  if (ctx.server.embedded || !onLoopback(ctx.server.uri)) return localMongodPid(ctx.server);
  try {
    return localMongodPid(ctx.server, await ctx.db.admin().command({ serverStatus: 1 }));
  } catch (e) {
    return null; // no clusterMonitor privilege: unknown, which the RAM gate refuses
  }
}

/**
 * Runs `work` and says what the mongod read from its disk meanwhile ({diskReadBytes, majorFaults}:
 * process-io.js, nulls for a server not on this machine). The residency snapshots around a pass are
 * inside the bracket; they read the catalog's statistics, not the data.
 */
async function withDiskReads(ctx, work) {
  const pid = await mongodPid(ctx);
  const before = ioCounters(pid);
  const r = await work();
  return { r, io: { ...ioSince(before, pid), rssBytes: rssOf(pid) } };
}

/**
 * The mongod's resident memory after a pass (/proc/<pid>/status VmRSS), or null: with RAM_MB the
 * page cache its files can use is the limit less this (read-3 dispute 16), shown beside the RAM gate.
 */
function rssOf(pid) {
  if (!pid) return null;
  try {
    const m = /^VmRSS:\s*(\d+)\s*kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch (e) {
    return null; // gone, or not this machine's
  }
}

async function pass(ctx, p, grain, state, check) {
  const { r, io } = await withDiskReads(ctx, () => ctx.shell.tsDesigns.pass(p, grain, { state: state.name }));
  if (check) r.record.agrees = sameRows(r.rows, oracle(p, { grain }));
  r.io = io;
  return r;
}

/** What the collection and each index held in the WiredTiger cache, and had read into it (ts-cache.mongosh.js residency). */
function residencyOf(x) {
  const indexes = {};
  for (const [name, i] of Object.entries(x.indexes || {}))
    indexes[name] = { size: i.size, cached: i.cached, read: i.read };
  // storageSize: the collection's file bytes (compressed), against which a memory limit's page cache is read
  return { data: { size: x.dataSize, storageSize: x.storageSize, cached: x.cached, read: x.read }, indexes };
}

/**
 * One result record per state and grain from its passes: `times` are the passes' means of T1..T5
 * (the source's "Average" row), so the interval the claims read is over passes, not over the five
 * intervals of one pass; `extra.passes` keeps each pass's T1..T5, what the collection and each
 * index held in the cache before and after it (`residency`), and what the mongod read from its disk
 * during it (`diskReadBytes`, `majorFaults`: null when it does not run on this machine), the
 * evidence of RAM short that 003-touch-both's gate reads (claims.js ramShort).
 */
function stateRecord(runs, ramMB) {
  const first = runs[0].record;
  const passes = runs.map((r, i) => ({
    pass: i + 1,
    times: r.record.times,
    intervals: r.record.extra.intervals,
    residency: { before: residencyOf(r.before), after: residencyOf(r.after) },
    diskReadBytes: r.io ? r.io.diskReadBytes : null,
    majorFaults: r.io ? r.io.majorFaults : null,
    rssBytes: r.io ? r.io.rssBytes : null,
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
      // RAM_MB: the memory cgroup mongod and its file cache ran in (absent: no limit)
      ...(ramMB ? { ramMB } : {}),
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
      const { r: w, io } = await withDiskReads(ctx, () => ctx.shell.tsDesigns.warm(p, state.warm));
      if (w.ms > 5000) ctx.log(`  ${state.name} (pass ${k}): warm-up took ${LabFormat.fmtMs(w.ms)}`);
      const idx = (x) => Object.values(x.indexes).reduce((a, i) => a + i.cached, 0);
      const axis = { state: state.name };
      // steps: each scan's time and plan (an index warm-up reads keys only: COUNT_SCAN or IXSCAN, no FETCH; read-3 dispute 20)
      const steps = (w.steps || []).map((s) => ({ what: s.what, ms: s.ms, plan: s.plan || null }));
      const extra = { pass: k, before: residencyOf(w.before), after: residencyOf(w.after), ...io, steps };
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
  const ramMB = ctx.memoryLimit ? ctx.memoryLimit.mb : null;
  for (const state of states) for (const g of grains) out.push(stateRecord(runs.get(`${state.name}/${g}`), ramMB));
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
  let limit = null;
  try {
    limit = await limitRam(ctx, ctx.p);
    return await runStates(ctx, ctx.p, { grains, states, check, passes: ctx.p.PASSES || 1 });
  } finally {
    if (limit) await limit.release();
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
  cacheFitsRam(ctx, gb, 'STATES_CACHE=source');
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

/**
 * RAM_MB (megabytes, 0: no limit): the embedded mongod in a memory cgroup of that size from now on
 * (lib/infra/memory-limit.js), followed across every restart of the states, so that mongod and the
 * file pages it caches share RAM_MB as the source's mongod and its mapped files shared 8 GB. Called
 * before the load: a file page is charged to the group of the process that first cached it, and
 * pages the mongod cached outside the group would be read from memory whatever the limit. Its
 * WiredTiger cache is lowered to fit (cacheGBFor: RAM_MB less mongod's own). At the end of the run
 * (ctx.cleanups) or the states (statesOnServer) release() removes the group and restarts mongod on
 * its own cache; the exit clean-up removes the group however the process ends. Returns
 * {mb, dir, release()}, or null without RAM_MB.
 */
async function limitRam(ctx, p) {
  const mb = p.RAM_MB;
  if (!mb) return null;
  const gb = cacheGBFor(mb);
  if (gb === null)
    throw new ParameterError(
      `parameter RAM_MB=${mb}: below what mongod needs with its smallest cache (${MIN_CACHE_GB} GB + ${MONGOD_OWN_MB} MB of its own): ` +
        `give at least ${MIN_CACHE_GB * 1024 + MONGOD_OWN_MB}, or leave RAM_MB out`,
    );
  const group = limitMemory(ctx.server, mb);
  const server = ctx.server;
  const described = server.cacheSizeBytes;
  let before = null; // the mongod's arguments before its cache was lowered, restored at the end
  // Out of the group first, then the server's own cache back: a later study of the run (or test)
  // measures the server as it was.
  const release = async () => {
    group.release();
    if (!before) return;
    const args = before;
    before = null;
    await restartWithArgs(server, args);
    server.cacheSizeBytes = described;
  };
  let cache;
  try {
    // required here: the server module loads the driver, which `list` and `--help` must not pay for
    const { describeServer } = require('../../infra/server');
    cache = (await describeServer(server.uri)).cacheSizeBytes;
    if (!cache || cache > gb * 1073741824) {
      before = await restartWithCacheFlags(server, ['--wiredTigerCacheSizeGB', String(gb)]);
      cache = gb * 1073741824;
      server.cacheSizeBytes = cache;
      await ctx.reopen();
    }
  } catch (e) {
    await release().catch(() => {
      /* the error that matters is the one thrown */
    });
    throw e;
  }
  const limit = { mb, dir: group.dir, release };
  if (ctx.cleanups) ctx.cleanups.push(release);
  ctx.memoryLimit = limit;
  ctx.log(
    `${NAME}: RAM_MB=${mb}: the embedded mongod and the file pages it caches share ${mb} MB (memory cgroup ${group.dir}), ` +
      `its WiredTiger cache ${fmtBytes(cache)} at most`,
  );
  return limit;
}

/** A states cache (GB) that mongod cannot hold with its own memory under RAM_MB is refused before the restart. */
function cacheFitsRam(ctx, gb, why) {
  const mb = ctx.memoryLimit && ctx.memoryLimit.mb;
  const fits = mb ? cacheGBFor(mb) : null;
  if (mb && (fits === null || gb > fits))
    throw new ParameterError(
      `parameter RAM_MB=${mb}: ${why} needs a ${gb} GB WiredTiger cache, which with mongod's own ${MONGOD_OWN_MB} MB does not fit: ` +
        `give RAM_MB >= ${Math.ceil(gb * 1024 + MONGOD_OWN_MB)}, or leave STATES_CACHE default`,
    );
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

module.exports = { measure, runStates, statesOnServer, statesAtSourceFill, chosenStates, limitRam };
