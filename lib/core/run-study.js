// @ts-check
'use strict';
// Runs one study end to end on a server, by the contract of docs/contract.md: the study's script is
// loaded ONCE in mongosh's runtime, its shell variants are sampled by calling into it, its Node
// variants (lib/studies/<name>/index.js) are timed here, and both go through the one harness
// (scripts/lib/lab.js). Every axis point's records are appended to the result file as they finish.
const os = require('os');
const { assertAllOwned } = require('../infra/targets');
const { cpuWaitWatch } = require('../infra/cpu-wait');
const { MongoClient } = require('mongodb');
const { roundsProgress } = require('../infra/progress');
const { wrap } = require('../../scripts/lib/format');
const { ShellSession } = require('./shell-runner');
const { shellBridge } = require('./shell-bridge');
const { interleave, timeAsync } = require('./harness');
const lab = require('../../scripts/lib/lab');
const LabPlan = require('../../scripts/lib/plan');
const LabRecords = require('../../scripts/lib/records');
const { pointKey } = require('./results');
const { configValues, derivedNames, checkParams } = require('./params');
const cleanup = require('../infra/cleanup');
const { InputFileError } = require('../infra/errors');

/** @typedef {import('./types').StudyEntry} StudyEntry */
/** @typedef {import('./types').StudyContext} StudyContext */
/** @typedef {import('./types').Params} Params */
/** @typedef {import('./types').LabRecord} LabRecord */

const SLOW_MS = 5000;

/**
 * A session outside a study run (a study's own tools: the time-series states of its load bench):
 * the declaration loaded and configured with `values` as given, reopened by ctx.reopen() after a
 * restart. Close it with ctx.session.close().
 */
async function studySession(entry, { server, dbName, values = {}, echo = () => {}, log = () => {} }) {
  const ctx = { server, dbName, echo, log, session: null };
  ctx.reopen = reopener(ctx, entry, () => values);
  try {
    await ctx.reopen();
  } catch (e) {
    if (ctx.session)
      await ctx.session.close().catch(() => {
        /* the error that matters is the one thrown */
      });
    throw e;
  }
  return ctx;
}

/** A new study context: the client, the run's outputs, and what the study may undo at the end. */
async function openContext(entry, { server, dbName, results, echo, log, progress }) {
  const client = new MongoClient(server.uri, server.clientOptions || {});
  await client.connect();
  // cleanups: what a study started for itself (another database server, workers), undone at the end.
  const ctx = {
    server,
    client,
    db: client.db(dbName),
    dbName,
    echo,
    log,
    progress,
    entry,
    session: null,
    cleanups: [],
  };
  /** A note for people: printed now, and kept in the result file's notes (report.md shows them). */
  ctx.note = (text) => {
    echo(`note: ${text}`);
    if (results) results.note(entry.name, text);
  };
  return ctx;
}

/**
 * ctx.reopen(): a (re)opened session, the script loaded once and configured with the run's
 * parameters; sets ctx.session, ctx.shell (its script's functions: lib/core/shell-bridge.js), ctx.desc,
 * ctx.cfg, ctx.p. A server restart (cold-cache points) ends
 * the old connection pool, so beforePoint may call it again.
 */
function reopener(ctx, entry, valuesOf) {
  return async () => {
    if (ctx.session)
      await ctx.session.close().catch(() => {
        /* after a restart its connections are gone: nothing to close */
      });
    ctx.session = await ShellSession.open(ctx.server.uri, ctx.dbName, { patient: true });
    Object.assign(ctx, await configureStudy(ctx.session, entry, valuesOf, ctx.echo));
    ctx.p = ctx.cfg.params;
  };
}

/** The study's script loaded in `session` and configured: { shell, desc, cfg } (a bad parameter throws). */
async function configureStudy(session, entry, valuesOf, echo) {
  await session.loadStudy(entry.script, { echo });
  const shell = shellBridge(session, entry.name);
  const desc = await shell.describe();
  const variants = (entry.variants || []).map((v) => v.name);
  const cfg = await shell.configure(valuesOf(desc), variants);
  return { shell, desc, cfg };
}

/**
 * Before any study works, for every chosen study: its parameters configured and every collection it
 * will derive or scratch-write proven the lab's or absent. A parameter or a foreign collection of
 * the third study is refused before the first two run for minutes, and before a PostgreSQL is
 * started for them. Reads only; prepare() checks again. The configuration is the one `run` made in
 * Node before any server (`configured`, lib/core/params.js checkParams); a caller that made none
 * (findings) has it made here, the same way: the run's session of the study is then the one shell
 * session that configures it. Returns the configurations (by study name; runStudy's `values`).
 * @param {StudyEntry[]} entries
 * @param {{server: any, dbName: string, profile?: string, paramsOf?: (entry: StudyEntry) => Params,
 *   profileOf?: (entry: StudyEntry) => string, configured?: Map<string, {desc: any, cfg: any, derived: string[]}>}} o
 */
async function checkStudies(
  entries,
  { server, dbName, profile = 'quick', paramsOf = () => ({}), profileOf, configured },
) {
  const made = configured || checkParams(entries, { profile, paramsOf, profileOf });
  const client = new MongoClient(server.uri, server.clientOptions || {});
  try {
    for (const entry of entries) {
      const c = made.get(entry.name);
      if (!c) continue;
      if (entry.own) await readOwnCollections(client.db(dbName), c.desc, c.cfg.params);
      if (c.derived.length) await assertAllOwned(client.db(dbName), c.derived, 'write derived data into');
    }
  } finally {
    await client.close();
  }
  return made;
}

/**
 * The collections a study of your own reads (docs/own-study.md): each `name` parameter its
 * declaration describes as a collection (its `what` says so) or whose default is a collection in
 * the database. Each must hold documents, else one line refuses the run before any work: a typo in a
 * collection or database name reads nothing, and every form "agrees" on an empty answer at a
 * meaningless speed. A parameter declared with `empty: true` (an output the variants write) is not
 * checked. Returns [{param, coll, count}] (count: the collection's estimated document count).
 */
async function readOwnCollections(db, desc, p) {
  // InputFileError: exit 2 with no --help hint: the line names what to fix, which --help cannot
  const existing = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  const decl = desc.params || {};
  const names = Object.keys(decl).filter(
    (k) =>
      decl[k].kind === 'name' &&
      !decl[k].empty &&
      (/collection/i.test(decl[k].what || '') || existing.includes(decl[k].def)),
  );
  const read = [];
  for (const k of names) {
    const coll = p[k];
    const count = existing.includes(coll) ? await db.collection(coll).estimatedDocumentCount() : null;
    if (!count) {
      const here = existing.filter((c) => !c.startsWith('system.')).sort();
      const state = count === null ? 'no such collection' : 'the collection is empty';
      throw new InputFileError(
        `${k}=${coll}: ${db.databaseName}.${coll}: ${state}, nothing to measure (collections in ${db.databaseName}: ` +
          `${here.length ? here.slice(0, 8).join(', ') + (here.length > 8 ? ', ...' : '') : 'none: check --db'}); ` +
          `check --set ${k}=... and --db (\`empty: true\` on the parameter runs it on an empty one)`,
      );
    }
    read.push({ param: k, coll, count });
  }
  return read;
}

/**
 * A fixture found complete and the lab's (its marker names the collection's current UUID, and the
 * same generator, seed and size: LabFixture.decide 'reuse') is used as it is: say so, since a
 * re-run on kept data (--keep) takes seconds where the first took minutes.
 */
function sayReused(ctx, entry, p) {
  const f = ctx.fixture;
  if (!f || f.action !== 'reuse') return;
  const coll = f.coll || p.COLL;
  const count = typeof f.count === 'number' ? ` (${lab.fmtInt(f.count)} documents)` : '';
  ctx.log(
    `${entry.name}: reuses ${ctx.dbName}${coll ? `.${coll}` : ''}${count}: its lab marker names this collection's UUID, generator, seed and size`,
  );
}

/** The fixture, the setup and the axis points; the fixture's time goes into times.loadMs. */
async function prepare(ctx, entry, p, times = {}) {
  const t0 = Date.now();
  // Every collection the study will derive or scratch-write, proven the lab's or absent before any
  // work (checkStudies did so before the run; a collection may have appeared since): a foreign one
  // met half-way would refuse the run after minutes spent on the others. All of them are named at
  // once, so one rename or drop clears the way. The names are the check's when it made them (the
  // same values, the same declaration): only a run without a check derives them here.
  const derived = ctx.derived || derivedNames(await ctx.shell.derived(), entry.derived ? entry.derived(p) : []);
  if (derived.length) await assertAllOwned(ctx.db, derived, 'write derived data into');
  ctx.fixture = entry.load ? await entry.load(ctx, p) : await ctx.shell.fixture();
  sayReused(ctx, entry, p);
  // A study of your own: what it reads, checked again (it may have gone since) and named with its size.
  if (entry.own) {
    const read = await readOwnCollections(ctx.db, ctx.desc, p);
    if (read.length)
      ctx.note(`reads ${read.map((r) => `${ctx.dbName}.${r.coll} (${lab.fmtInt(r.count)} documents)`).join(', ')}`);
  }
  times.loadMs = Date.now() - t0;
  if (times.loadMs > SLOW_MS) ctx.log(`${entry.name}: data ready in ${lab.fmtMs(times.loadMs)}`);
  await ctx.shell.setup();
  const scriptPoints = await ctx.shell.points();
  return entry.points ? entry.points(ctx, p, scriptPoints) : scriptPoints;
}

/**
 * Which variants run at this point, and a skip record for each other one (LabPlan.point: the
 * version, then `able`: the script's for shell variants, the Node part's for Node variants).
 */
async function planPoint(ctx, entry, p, point, own) {
  const shell = ctx.cfg.variants.map((name) => ({
    ...ctx.desc.variants.find((d) => d.name === name),
    where: 'server',
  }));
  const versionOk = shell.filter((v) => LabPlan.versionAtLeast(ctx.server.version, v.minVersion)).map((v) => v.name);
  const shellAble = await ctx.shell.able(versionOk, point);
  // `able` (docs/contract.md): true where the variant runs, false where it cannot answer, or a text
  // saying what it lacks here (a peer, a server the lab started): LabPlan.point's own convention.
  const able = (v) => {
    if (v.where === 'server') return shellAble.includes(v.name);
    const ok = v.able ? v.able(p, point, ctx) : true;
    return typeof ok === 'string' ? ok : Boolean(ok);
  };
  const plan = LabPlan.point([...shell, ...own.map((v) => ({ ...v, where: 'node' }))], ctx.server.version, able);
  return { run: plan.run, skipped: LabRecords.skippedRecords(entry.name, plan.skipped, point) };
}

/** A runner for the harness: a shell variant sampled through the session, its call overhead measured. */
function shellRunner(ctx, entry, name, point) {
  return async () => {
    const w0 = process.hrtime.bigint();
    const r = await ctx.shell.sample(name, point);
    const wall = Number(process.hrtime.bigint() - w0) / 1e6;
    return {
      ms: r.ms,
      answer: r.answer,
      extra: r.extra,
      overheadMs: wall - (typeof r.timedMs === 'number' ? r.timedMs : r.ms),
    };
  };
}

/** The harness's runners, each variant's meta and its plan (explained once, untimed). */
async function runnersOf(ctx, entry, p, point, variants) {
  const runners = [];
  const meta = {};
  const plans = {};
  for (const v of variants) {
    meta[v.name] = { what: v.what, where: v.where };
    if (v.where === 'server') {
      plans[v.name] = await ctx.shell.explain(v.name, point);
      runners.push({ name: v.name, run: shellRunner(ctx, entry, v.name, point) });
    } else {
      plans[v.name] = v.explain ? lab.plan(await v.explain(ctx, p, point)) : null;
      runners.push({ name: v.name, run: () => timeAsync(() => v.run(ctx, p, point)) });
    }
  }
  return { runners, meta, plans };
}

/** The records of one axis point: the harness over its variants, the oracle, the skips, the measures. */
async function measurePoint(ctx, entry, p, point, own) {
  const plan = await planPoint(ctx, entry, p, point, own);
  const { runners, meta, plans } = await runnersOf(ctx, entry, p, point, plan.run);
  const what = `${entry.name}: ${ctx.pointLabel}${runners.length} variants x ${p.WARMUP} warm-up + ${lab.roundsText(p.RUNS, p.MAX_RUNS)}${lab.minMsNote(p.MIN_MS)}`;
  for (const line of wrap(what, 100, '    ')) ctx.log(line);
  let recs = plan.skipped;
  if (runners.length) {
    const load0 = os.loadavg()[0];
    const waited = cpuWaitWatch();
    const evidence = serverEvidence(ctx, runners, p);
    const res = await interleave(evidence.runners, {
      warmup: p.WARMUP,
      rounds: p.RUNS,
      budgetMs: p.BUDGET_MS,
      minMs: p.MIN_MS,
      // sequential rounds (docs/sequential-rounds.md): MAX_RUNS over RUNS, the study's boundaries
      maxRounds: p.MAX_RUNS,
      boundaries: ctx.desc.boundaries,
      same: entry.same || declaredSame(ctx, entry) || lab.same,
      deadline: ctx.deadline,
      baseline: ctx.desc.baseline,
      warmOnce: ctx.desc.warmOnce,
      progress: (steps) =>
        roundsProgress(`${entry.name}${ctx.pointLabel ? ` ${ctx.pointLabel.replace(/, $/, '')}` : ''}`, steps, {
          enabled: ctx.progress === false ? false : undefined,
        }),
      onStep: (step, r) => {
        if (r.ms > SLOW_MS) ctx.log(`  ${step.variant}: ${lab.fmtMs(r.ms)} (${step.phase} ${step.round + 1})`);
      },
    });
    const opts = { meta };
    if (entry.oracle && ctx.fixture && ctx.fixture.own !== false) opts.expected = await entry.oracle(p, point, ctx);
    const ran = lab.pointRecords(
      { name: entry.name, unit: ctx.desc.unit, same: entry.same || declaredSame(ctx, entry) },
      p,
      point,
      res,
      plans,
      opts,
    );
    markLoad(ran, { start: load0, end: os.loadavg()[0], cores: os.cpus().length, cpuWait: waited.stop() });
    for (const r of ran) if (evidence.deltas[r.variant]) r.server = evidence.deltas[r.variant];
    recs = ran.concat(plan.skipped);
  }
  if (entry.measures) recs.push(...(await withLoad(() => entry.measures(ctx, p, point))));
  return recs;
}

/**
 * A study of your own compares its answers with its declaration's `same` when it has one (the
 * function lives in the session's runtime, in-process), else by value (LabRecords.same).
 */
function declaredSame(ctx, entry) {
  if (!entry.own) return undefined;
  const lab0 = ctx.session && ctx.session.ctx && ctx.session.ctx.lab;
  const decl = lab0 && lab0.registry && lab0.registry[entry.name];
  if (!decl || typeof decl.same !== 'function') return undefined;
  entry.sameDeclared = true; // the summary then says "by its own same"
  return decl.same;
}

/**
 * The server's side of one run of each variant (docs/result-format.schema.json, `server`): a
 * serverStatus just before and just after the variant's first timed run (its warm-up when it has
 * no timed run: RUNS=0), outside the timed call, so two commands per variant and point, never one
 * per round. The delta is the server's, all clients together: on a quiet server, the variant's.
 * Returns { runners: the runners wrapped, deltas: variant -> figures (filled as they run) }. A
 * server that refuses serverStatus (no clusterMonitor role) gives no figures, said once.
 */
function serverEvidence(ctx, runners, p) {
  const deltas = {};
  // which call of each variant is its first timed run: the harness's own plan of steps says
  const planned = lab
    .harness(
      runners.map((r) => r.name),
      { warmup: p.WARMUP, rounds: p.RUNS, baseline: ctx.desc.baseline, warmOnce: ctx.desc.warmOnce },
    )
    .plan();
  const target = {};
  for (const r of runners) {
    const mine = planned.filter((s) => s.variant === r.name);
    const first = mine.findIndex((s) => s.phase === 'timed');
    target[r.name] = first >= 0 ? first : 0;
  }
  const admin = ctx.client.db('admin');
  const status = () => admin.command({ serverStatus: 1, repl: 0, locks: 0, network: 0, transactions: 0 });
  const wrapped = runners.map((r) => {
    let calls = 0;
    return {
      ...r,
      run: async () => {
        const capture = calls++ === target[r.name] && ctx.serverStatus !== false;
        const before = capture ? await status().catch((e) => refused(ctx, e)) : null;
        const out = await r.run();
        if (before) {
          const after = await status().catch((e) => refused(ctx, e));
          if (after) deltas[r.name] = serverDelta(before, after);
        }
        return out;
      },
    };
  });
  return { runners: wrapped, deltas };
}

/**
 * A serverStatus that failed: refused for want of a privilege, the run says so once and asks no
 * more; any other failure (a variant that restarts the server) costs that one delta only.
 */
function refused(ctx, e) {
  const denied = e.code === 13 || /not authorized|unauthorized/i.test(e.message || '');
  if (!denied) return null;
  if (ctx.serverStatus !== false)
    ctx.note(
      `no server-side figures: serverStatus refused (${String(e.message).split('\n')[0]}; needs clusterMonitor)`,
    );
  ctx.serverStatus = false;
  return null;
}

/** What one serverStatus says that a claim may lean on; undefined where this server has no such figure. */
function serverFigures(ss) {
  const cache = (ss.wiredTiger && ss.wiredTiger.cache) || {};
  const metrics = ss.metrics || {};
  const qe = metrics.queryExecutor || {};
  const doc = metrics.document || {};
  // tickets: wiredTiger.concurrentTransactions up to 6.0, queues.execution from 7.0
  const t = (ss.wiredTiger && ss.wiredTiger.concurrentTransactions) || (ss.queues && ss.queues.execution) || {};
  const num = (x) => (x === undefined || x === null ? undefined : Number(x));
  const ticket = (k) => (t[k] ? { out: num(t[k].out), available: num(t[k].available) } : undefined);
  return {
    cacheReadBytes: num(cache['bytes read into cache']),
    cacheWrittenBytes: num(cache['bytes written from cache']),
    pagesRead: num(cache['pages read into cache']),
    cacheBytes: num(cache['bytes currently in the cache']),
    cacheMax: num(cache['maximum bytes configured']),
    dirtyBytes: num(cache['tracked dirty bytes in the cache']),
    keysExamined: num(qe.scanned),
    docsExamined: num(qe.scannedObjects),
    docsReturned: num(doc.returned),
    docsWritten: ['inserted', 'updated', 'deleted'].reduce((a, k) => a + (num(doc[k]) || 0), 0),
    read: ticket('read'),
    write: ticket('write'),
    ops: Object.fromEntries(Object.entries(ss.opcounters || {}).map(([k, v]) => [k, num(v)])),
  };
}

/**
 * The serverStatus delta of one run: counters as after minus before (bytes and pages read into the
 * cache, keys and documents examined, documents returned and written, operations), gauges as they
 * stood after it (cache fill and dirty share, read and write tickets in use of those available).
 */
function serverDelta(beforeStatus, afterStatus) {
  const a = serverFigures(beforeStatus);
  const b = serverFigures(afterStatus);
  const d = (k) => (typeof a[k] === 'number' && typeof b[k] === 'number' ? b[k] - a[k] : undefined);
  const out = { runs: 1 };
  for (const k of ['cacheReadBytes', 'cacheWrittenBytes', 'pagesRead', 'keysExamined', 'docsExamined'])
    if (d(k) !== undefined) out[k] = d(k);
  if (d('docsReturned') !== undefined) out.docsReturned = d('docsReturned');
  out.docsWritten = b.docsWritten - a.docsWritten;
  if (b.cacheMax) {
    out.cacheUsedPct = Number(((100 * b.cacheBytes) / b.cacheMax).toPrecision(3));
    out.cacheDirtyPct = Number(((100 * b.dirtyBytes) / b.cacheMax).toPrecision(3));
  }
  if (b.read) out.readTickets = b.read;
  if (b.write) out.writeTickets = b.write;
  // the serverStatus after counts as one command of its own: left out
  out.ops = Object.fromEntries(
    Object.keys(b.ops)
      .map((k) => [k, (b.ops[k] || 0) - (a.ops[k] || 0) - (k === 'command' ? 1 : 0)])
      .filter(([, v]) => Number(v) > 0),
  );
  return out;
}

/** Where a study's time went (docs/testing.md uses it to find what to cut). */
function timesLine(entry, times, measured) {
  return (
    `${entry.name}: ${lab.fmtMs(times.totalMs)} (data ${lab.fmtMs(times.loadMs)}, ${measured} points measured ` +
    `${lab.fmtMs(times.pointsMs)}, after ${lab.fmtMs(times.afterMs)})`
  );
}

/** The records the shell side's printers and a script's report take: results, not measures. */
function forShell(recs) {
  return recs.filter((r) => r.type === 'result');
}

/**
 * Every axis point in turn, each table printed as it finishes: measured (keep() writes its records),
 * or taken as it is from the result file when an earlier run of the same setting finished it.
 */
async function measurePoints(ctx, entry, p, points, { own, kept, keep, records }) {
  const printer = pointPrinter(entry, ctx.echo);
  for (const [i, point] of points.entries()) {
    const label = lab.pointLabel(point);
    const earlier = kept.points.get(pointKey(point));
    if (earlier) {
      // Already in the result file: only this run's records and tables take them again.
      records.push(...earlier);
      printer.point(point, `${label ? `${label} ` : ''}(measured earlier, kept)`, forShell(earlier));
      continue;
    }
    cleanup.stopIfInterrupted();
    ctx.pointLabel = label ? `${label} (${i + 1}/${points.length}), ` : '';
    if (entry.beforePoint) await entry.beforePoint(ctx, p, point);
    await ctx.shell.setupPoint(point);
    const recs = await measurePoint(ctx, entry, p, point, own);
    keep(recs, point);
    printer.point(point, label, forShell(recs));
  }
  printer.flush();
}

/**
 * @typedef {object} RunOptions
 * @property {any} server from lib/infra/server.js getServer()
 * @property {string} dbName database the study works in
 * @property {Params} [params] script parameters (NAME: value) over the profile's
 * @property {Params} [values] the configuration's values as checkStudies made them (profile's and
 *   params together, lib/core/params.js configValues): the session is configured with these, not a
 *   second assembly of the same
 * @property {string[]} [derived] the collections those values derive or scratch-write, as checkStudies
 *   found them (lib/core/params.js configureOffline): proven the lab's again, not derived again
 * @property {string} [profile] 'quick' (default), 'tiny' or 'seed'
 * @property {import('./results').ResultFile} [results] where records go as they are made
 * @property {(text: string) => void} [echo] human-readable output (tables, summaries, the script's prints)
 * @property {(text: string) => void} [log] progress lines
 * @property {boolean} [progress] progress bars
 * @property {number} [deadline] --budget: no new round starts after this Date.now() value
 */

/**
 * @param {StudyEntry} entry a study of lib/studies/index.js
 * @param {RunOptions} o
 * @returns {Promise<{records: LabRecord[], params: Params, fixture: object, points: object[], resumed: number}>} resumed: the
 *   axis points taken from the result file (o.results opened with resume) instead of measured
 */
async function runStudy(entry, o) {
  // Interrupted, the study stops at its next variant or point and runs its own clean-ups (workers,
  // peers, clients) before the run's clean-up drops the database it created: its writes in flight
  // would otherwise create collections again after the drop.
  const work = runStudyNow(entry, { ...o, valuesOf: valuesOfRun(entry, o) });
  const unlist = cleanup.settleFirst(work);
  try {
    return await work;
  } finally {
    unlist();
  }
}

/**
 * The configuration's values for the run's session: those the check made (o.values, the same
 * assembly), else the profile's and o.params' assembled here (lib/core/params.js configValues).
 * @param {StudyEntry} entry
 * @param {Partial<RunOptions>} o
 */
function valuesOfRun(entry, { values, profile = 'quick', params = {} }) {
  return values ? () => values : (desc) => configValues(entry, desc, profile, params);
}

/**
 * @param {StudyEntry} entry
 * @param {Partial<RunOptions> & {valuesOf: (desc: object) => Params}} [o]
 */
async function runStudyNow(
  entry,
  { server, dbName, valuesOf, derived, results, echo = () => {}, log = () => {}, progress, deadline } = {},
) {
  const ctx = await openContext(entry, { server, dbName, results, echo, log, progress });
  // --budget: no new round starts after this Date.now() value (the harness's `deadline` option).
  ctx.deadline = deadline;
  ctx.derived = derived;
  const records = [];
  // A point's records are written together: the file then counts the point as measured (resuming).
  const keep = (recs, point) => {
    records.push(...recs);
    if (!results) return;
    if (point && results.addPoint) results.addPoint(entry.name, point, recs);
    else if (recs.length) results.add(recs);
  };
  ctx.reopen = reopener(ctx, entry, valuesOf);
  const started = Date.now();
  const times = { loadMs: 0, pointsMs: 0, afterMs: 0 };
  try {
    await ctx.reopen();
    const p = ctx.cfg.params;
    const kept = results && results.beginStudy ? results.beginStudy(entry.name, p) : { done: false, points: new Map() };
    if (kept.done) {
      const recs = [...kept.points.values()].flat();
      log(
        `resuming: ${kept.points.size} of ${kept.points.size} points of ${entry.name} already measured in ${results.file}: nothing left to measure`,
      );
      return { records: recs, params: p, fixture: null, points: [], resumed: kept.points.size };
    }
    const t0 = Date.now();
    const points = await prepare(ctx, entry, p, times);
    const only = lab.list(p.VARIANTS);
    const own = (entry.variants || []).filter((v) => !only.length || only.includes(v.name));
    const already = points.filter((pt) => kept.points.has(pointKey(pt))).length;
    if (already)
      log(`resuming: ${already} of ${points.length} points of ${entry.name} already measured in ${results.file}`);
    await measurePoints(ctx, entry, p, points, { own, kept, keep, records });
    times.pointsMs = Date.now() - t0 - times.loadMs;
    const a0 = Date.now();
    await ctx.shell.report(forShell(records));
    cleanup.stopIfInterrupted();
    if (entry.after) keep(await withLoad(() => entry.after(ctx, p, records)));
    times.afterMs = Date.now() - a0;
    times.totalMs = Date.now() - started;
    // The line comes once the file counts the study as done: a Ctrl-C after it keeps the study whole.
    if (results && results.studyDone) results.studyDone(entry.name, times);
    log(timesLine(entry, times, points.length - already));
    return { records, params: p, fixture: ctx.fixture, points, resumed: already };
  } finally {
    for (const undo of ctx.cleanups.reverse())
      await undo().catch((e) => log(`${entry.name}: clean-up failed: ${e.message}`));
    if (ctx.session)
      await ctx.session.close().catch(() => {
        /* clean-up must not hide the run's own error */
      });
    await ctx.client.close();
  }
}

/**
 * Prints each point's table as it finishes; consecutive points of one part where a single variant
 * ran are held and printed as one pivot table (rows and columns from the axes that vary), and each
 * variant's description is printed once.
 */
function pointPrinter(entry, echo) {
  const described = {};
  let held = [];
  const single = (recs) => recs.filter((r) => !r.skipped).length === 1;
  const partOf = (point) => (point.part === undefined ? null : point.part);
  const show = (label, lines) =>
    echo(
      ['']
        .concat(label ? [`-- ${entry.name}: ${label} --`] : [])
        .concat(lines)
        .join('\n'),
    );
  const flush = () => {
    if (held.length === 1) show(held[0].label, lab.pointLines(held[0].recs, { described }));
    else if (held.length > 1) {
      const part = partOf(held[0].point);
      show(
        part === null ? `${held.length} points` : `part=${part}, ${held.length} points`,
        lab.pivotLines(
          held.flatMap((h) => h.recs),
          { described },
        ),
      );
    }
    held = [];
  };
  return {
    point(point, label, recs) {
      if (single(recs) && (!held.length || partOf(held[0].point) === partOf(point))) {
        held.push({ point, label, recs });
        return;
      }
      flush();
      if (single(recs)) held.push({ point, label, recs });
      else show(label, lab.pointLines(recs, { described }));
    },
    flush,
  };
}

/**
 * A study's own measurements outside the harness (a point's `measures`, the `after` step's sweeps:
 * cold scans, cache sizes, a simulated day), with the load and CPU wait of the whole call on every
 * result record it made that has none of its own: the gates that need free cores
 * (claims.quietCores) read it, and fail closed without it. Coarser than a point's (one window for
 * the call), which only makes a busy call look busier, never quieter.
 */
async function withLoad(measure) {
  const load0 = os.loadavg()[0];
  const waited = cpuWaitWatch();
  const recs = (await measure()) || [];
  const bare = recs.filter((r) => r && r.type === 'result' && !r.loadavg);
  markLoad(bare, { start: load0, end: os.loadavg()[0], cores: os.cpus().length, cpuWait: waited.stop() });
  return recs;
}

/**
 * The 1-minute load average at a point's start and end, on every record of the point, and a warning
 * when either exceeds the cores: the point's times were taken on a busy machine (inflated, noisier).
 * cpuWait: the machine's share of the point's time (warm-up and every variant) in which some task
 * waited for a CPU (lib/infra/cpu-wait.js), when the system tells it; claims.quietCores reads it.
 */
function markLoad(recs, load) {
  const loadavg = { start: Number(load.start.toFixed(2)), end: Number(load.end.toFixed(2)), cores: load.cores };
  if (typeof load.cpuWait === 'number') loadavg.cpuWait = load.cpuWait;
  const busy = lab.busyMachine(loadavg);
  for (const r of recs) {
    r.loadavg = loadavg;
    if (busy) r.warnings = (r.warnings || []).concat([busy]);
  }
}

module.exports = { runStudy, checkStudies, studySession, markLoad, serverDelta };
