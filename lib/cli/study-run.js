'use strict';
// What `run` and `findings` share before any study starts: the results folder checked, every temp
// dir of the run kept in one run dir that is removed on any exit, and a database the run creates
// dropped on interrupt; one PostgreSQL for the studies that use it; the warning before a seed-profile run.
const path = require('path');
const LabFixture = require('../../scripts/lib/fixture');
const { planBudget, columnProfile, profileOfPlan, deadlineClock } = require('../core/budget');
const budgetReport = require('../report/budget-report');
const cleanup = require('../infra/cleanup');
const { LabError, friendly, clientOptions } = require('../infra/errors');
const { checkWritableDir, removeIfLeftEmpty } = require('../infra/output-paths');
const targets = require('../infra/targets');
const { wantsKeptData, startKeptData } = require('./kept-data');
const { stamp } = require('./options');
const { selfCommand } = require('./self-command');

/**
 * Prepares the process for a run of studies. On each server the run was given (o.uri or
 * $MONGODB_URI; findings: each of o.servers), it reads what database o.db holds before anything is
 * written: resolves the places finishPlaces settles at the end, [{uri, tracked, start}]. With --keep
 * and no server given, the embedded mongod on the kept data (kept-data.js) is such a place: its
 * `kept` is that server, stopped (data kept) once the place is settled; keptUri(places) its URI.
 */
async function prepareRun(o) {
  // Every temp dir of the run (embedded data dir, CSV files) lives in one run dir, removed on
  // any exit, signal, or (by a watchdog) SIGKILL.
  cleanup.install({ root: true, watchdog: true });
  const kept = wantsKeptData(o) ? await startKeptData(o, (m) => process.stderr.write(`${m}\n`)) : null;
  if (kept) return [{ ...(await preparePlace(kept.uri, o).catch(stopFirst(kept))), kept }];
  const uris = o.servers && o.servers.length ? o.servers : [o.uri || process.env.MONGODB_URI].filter(Boolean);
  const places = [];
  for (const uri of uris) places.push(await preparePlace(uri, o));
  return places;
}

/** A failure after the kept data's mongod started: stop it (data kept), then fail. */
function stopFirst(kept) {
  return async (e) => {
    await kept.stop().catch(() => {
      /* the first error is the one to report */
    });
    throw e;
  };
}

/** The URI of the kept data's mongod when the run uses it (--keep, no server given), else undefined. */
function keptUri(places) {
  const place = (places || []).find((p) => p.kept);
  return place ? place.kept.uri : undefined;
}

/**
 * One server's database: tracked (tracked-databases.js trackDatabase: the database the run creates, dropped at
 * its end or on interrupt) unless --keep; else, for a database that existed, what of the lab's it
 * held (targets.runStart), so its end drops only what the run made there, also on interrupt.
 */
async function preparePlace(uri, o) {
  // Lazy: it loads the driver, which `--help` and `list` never need (test/cli.test.js).
  const { trackDatabase } = require('../infra/tracked-databases');
  const tracked = o.keep ? null : await trackDatabase(uri, o.db);
  const place = { uri, db: o.db, keep: Boolean(o.keep), tracked, start: null, unlist: () => {} };
  if (tracked && tracked.created) return place;
  // A user who may not list the database's collections: nothing the run makes there can be proven
  // new at its end, so nothing is dropped (the run itself says what it cannot do).
  place.start = await withDb(uri, o.db, (db) => targets.runStart(db)).catch((e) => {
    // A server that cannot be reached fails the command now, not after the same wait again.
    if (/ServerSelection/.test(e.name || '')) throw new LabError(friendly(e, { uri }), { cause: e });
    return null;
  });
  // Interrupted: what the run made goes all the same (unless --keep); the line names what is left.
  if (!o.keep) place.unlist = cleanup.add(() => settlePlace(place));
  return place;
}

async function withDb(uri, name, fn) {
  // Lazy: the driver (~0.5 s) loads only when a run reaches a server, never for `--help` or `list`.
  const { MongoClient } = require('mongodb');
  const c = new MongoClient(uri, clientOptions(uri));
  try {
    return await fn(c.db(name));
  } finally {
    await c.close().catch(() => {
      /* the outcome is already known */
    });
  }
}

/**
 * The end of one place: the database the run created dropped (proven by UUID, cleanup.js); in one
 * that existed, what the run made dropped unless --keep, and what of the lab's is left named in
 * one line with the command that removes it. Never throws: a failure is that one line too.
 */
function settlePlace(place) {
  // One settling, however many ask (the command's end, an interrupt during it): the interrupt's
  // step stays listed until it is done, so the process does not exit with the drop half made.
  if (!place.settled) place.settled = settleNow(place).finally(() => place.unlist());
  return place.settled;
}

/** What a run on the kept data left (its mongod's port changes per run: the clean command names the data, not a URI). */
function keptLines(place, left) {
  return [
    ...LabFixture.wrapWords(
      `kept in ${place.db} (--keep), in ${place.kept.dir}: the lab's ${left.join(', ')}; a run with --keep reuses them; remove them with:`,
      91,
    ),
    `  ${selfCommand()} clean --kept-data`,
  ];
}

async function settleNow(place) {
  // A database this run created: tracked.drop (lib/infra/tracked-databases.js) drops it only while
  // every collection in it is one the lab's markers prove by UUID, else leaves it and says so.
  if (place.tracked && place.tracked.created) return place.tracked.drop();
  if (!place.start) return undefined;
  // As cleanup.js says what it dropped: not a "mongo-perf-lab:" line, which reports an error. One
  // message within 100 columns, the command alone on its last line.
  const say = (lines) => process.stderr.write(`cleanup: ${lines.join('\n')}\n`);
  const uri = LabFixture.commandUri(place.uri);
  try {
    const r = await withDb(place.uri, place.db, (db) => targets.finishRun(db, place.start, { keep: place.keep }));
    const why = place.keep ? '--keep' : 'made by an earlier run, kept with --keep';
    if (r.left.length && place.kept) say(keptLines(place, r.left));
    else if (r.left.length) say(LabFixture.leftLines(place.db, r.left, uri, why, selfCommand(), 91));
    else if (r.dropped.length)
      say(
        LabFixture.wrapWords(
          `dropped what this run made in ${place.db}: ${r.dropped.join(', ')} (--keep keeps it)`,
          91,
        ),
      );
  } catch (e) {
    const why = friendly(e, { uri: place.uri });
    say([
      ...LabFixture.wrapWords(`could not remove what this run made in ${place.db} (${why}); remove it with:`, 91),
      ...LabFixture.cleanCommandLines(selfCommand(), uri, place.db, 91),
    ]);
  }
  return undefined;
}

/** Settles every place of prepareRun (in order; each one's line as it is settled). */
async function finishPlaces(places) {
  for (const place of places || []) {
    await settlePlace(place);
    if (place.kept) await place.kept.stop();
  }
}

/**
 * One embedded PostgreSQL for every chosen study that declares `peers: ['postgres']` (each started
 * its own, several seconds apiece): started before the first study and handed to all of them as
 * PG_URI, which lib/infra/postgres.js getPostgres reads. A PG_URI of the user's wins; none is
 * started when no chosen study asks for one. Returns stop(): the server stopped and its data dir
 * removed, also on Ctrl-C/SIGTERM (the clean-up's async step; its sync step kills it at any exit).
 */
async function sharedPeers(entries, log) {
  const none = async () => {};
  if (process.env.PG_URI || !entries.some((e) => (e.peers || []).includes('postgres'))) return none;
  // Lazy: the PostgreSQL client loads only for a run whose studies use the SQL peers.
  const { tryPostgres } = require('../infra/postgres');
  const { pgs, note } = await tryPostgres({ log });
  if (!pgs) {
    log(`${note} (each study that uses it says so)`);
    return none;
  }
  process.env.PG_URI = pgs.uri;
  log(`PostgreSQL for the SQL peers: ${pgs.version}, embedded, one for the whole run`);
  let removeStep = () => {};
  const stop = async () => {
    removeStep();
    if (process.env.PG_URI === pgs.uri) delete process.env.PG_URI;
    await pgs.stop();
  };
  removeStep = cleanup.add(stop);
  return stop;
}

/**
 * sharedPeers started on first need: `start` (idempotent) once the run's parameters are accepted,
 * so a refused run starts no PostgreSQL; `stop` stops it if it was started.
 */
function lazyPeers(entries, log) {
  let started = null;
  return {
    start: () => (started = started || sharedPeers(entries, log)),
    stop: async () => {
      if (!started) return;
      // A start that failed has already failed the run through `ready`: the stop in the run's
      // `finally` must not throw that error again over the one being reported.
      const stop = await started.catch(() => null);
      if (stop) await stop();
    },
  };
}

/** Before a seed-profile run: how long each chosen study takes at the sources' scales, so nobody starts hours by surprise. */
function announceSeed(entries, log) {
  log(
    `--profile seed runs at the source articles' scales; on 2 cores:\n${entries.map((e) => `  ${e.name}: ${e.seedExpected || '?'}`).join('\n')}`,
  );
}

/**
 * Where a run's files go: --out, else <LAB_RESULTS_DIR or results>/<prefix><date-time>. The results
 * folder is checked first, so an unwritable LAB_RESULTS_DIR is named as such.
 */
function outDirOf(o, prefix = '') {
  const dir = path.resolve(o.out || path.join(process.env.LAB_RESULTS_DIR || 'results', `${prefix}${stamp()}`));
  removeIfLeftEmpty(dir);
  // A command told where to write (--out) creates nothing in the results folder.
  if (!o.out) checkWritableDir(process.env.LAB_RESULTS_DIR || 'results', 'LAB_RESULTS_DIR');
  return dir;
}

/**
 * --budget (lib/core/budget.js; `budgetMs`, the command's --budget in ms): the plan, printed before any study starts, and what the session
 * takes from it: the column's profile (the plan's largest), each study's planned profile and its
 * deadline (fixed from the command's start, so the budget is the command's wall time). null: no budget.
 */
function startBudget(budgetMs, entries, print, startMs = Date.now()) {
  if (!budgetMs) return null;
  const plan = planBudget(entries, budgetMs);
  print(budgetReport.planLines(plan, budgetMs).join('\n'));
  return {
    plan,
    startMs,
    budgetMs,
    profile: columnProfile(plan),
    profileOf: profileOfPlan(plan),
    deadlineOf: deadlineClock(plan, startMs),
  };
}

/** At the end of a budgeted run: the time spent and the claims left open (lines to print), and the `budget` record. */
function endBudget(budget, judged) {
  const open = budgetReport.openClaims(judged, budget.plan);
  const spentMs = Date.now() - budget.startMs;
  return {
    lines: [budgetReport.spentLine(budget.budgetMs, spentMs), ...budgetReport.openLines(open)],
    record: budgetReport.budgetRecord({ budgetMs: budget.budgetMs, spentMs, plan: budget.plan, open }),
  };
}

/** The files a command wrote, relative to the current directory. */
function fileLines(files) {
  return files.map((f) => `  ${path.relative(process.cwd(), f) || f}`).join('\n');
}

module.exports = {
  prepareRun,
  finishPlaces,
  sharedPeers,
  lazyPeers,
  announceSeed,
  outDirOf,
  fileLines,
  keptUri,
  startBudget,
  endBudget,
};
