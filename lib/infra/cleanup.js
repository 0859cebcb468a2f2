'use strict';
// Nothing left behind: temp dirs, the embedded mongod and its data dir, and a database the run
// created on the user's server are removed however the process ends.
//
//   install({root, watchdog, log})  once per process: handlers for SIGINT/SIGTERM/SIGHUP and exit.
//       root: true -> a run directory mongo-perf-lab-run-<pid>-XXXXXX under the system temp dir,
//                     and TMPDIR pointed at it, so every temp dir made by any module (CSV files,
//                     mongodb-memory-server's mongo-mem-* data dirs, mongosh) lands inside it and
//                     goes with it. Returns its path (runDir()). First removes the run directories
//                     of runs killed with their watchdog (sweepAbandoned).
//       watchdog: true -> a detached watcher process that, once this process is gone (even by
//                     SIGKILL), kills what still runs from the run directory (mongod) and removes it.
//       signals: false -> no signal handlers (a command with its own graceful stop, `server`);
//                     the exit steps and the watchdog still work.
//   watchPid(pid)              the watchdog also kills this process (a mongod whose data lives outside
//                              the run directory, `server --dbpath`), if it still runs the same command
//   add(fn) -> remove()        an async step run on interrupt (last added, first run)
//   addSync(fn) -> remove()    a synchronous step run at exit whatever happened (kill, rmSync)
//   addDir(dir) -> remove()    a directory removed at exit
//   stopAtEnd(servers, {graceful})  servers: a module's Set of the servers it started (killSync(),
//                              and stop() if graceful): stopped on interrupt, killed at exit
//   say(line)                  a line where the clean-up's own lines go (install's log)
//   settleUnbroken()           waits (at most UNBROKEN_WAIT_MS) for the unbroken steps in flight
// The databases a run created are tracked-databases.js's; processes (alive, command lines) are
// processes.js's.
//   interrupted()              true once a signal arrived
//   stopIfInterrupted()        throws once a signal arrived (a study's loops call it between steps)
//   interruptedError()         the error it throws (a step an interrupt stops fails with it)
//   settleFirst(promise)       -> remove(): an interrupt waits for it (a study) before earlier steps
//   unbroken(promise)          a step an interrupt lets finish (at most UNBROKEN_WAIT_MS) before its own
//                              steps: creating a collection and writing the marker that names its UUID
//
// Signals: the first runs the async steps (at most STEP_BUDGET_MS), then the sync steps, and
// exits 128+signal. A second one says what is still being done and keeps going, so a double
// Ctrl-C still removes everything; a third skips the async steps (sync steps still run at exit).

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { LabError } = require('./errors');
const { alive, cmdlineOf, processesUsing } = require('./processes');

const STEP_BUDGET_MS = 10000;
const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };

const steps = [];
// Between a collection's creation and the marker naming its UUID, the lab cannot prove it made the
// collection: an interrupt landing there (a busy machine widens the gap) would leave the run's
// database behind. The interrupt waits for such steps first; they take milliseconds.
const UNBROKEN_WAIT_MS = 5000;
const unbrokenSteps = new Set();
const syncSteps = [];
let installed = false;
let root = null;
let signalCount = 0;
let log = (m) => process.stderr.write(m + '\n');

function add(fn) {
  steps.push(fn);
  return () => {
    const i = steps.indexOf(fn);
    if (i >= 0) steps.splice(i, 1);
  };
}

function addSync(fn) {
  syncSteps.push(fn);
  return () => {
    const i = syncSteps.indexOf(fn);
    if (i >= 0) syncSteps.splice(i, 1);
  };
}

function addDir(dir) {
  return addSync(() => fs.rmSync(dir, { recursive: true, force: true }));
}

function runSync() {
  for (const fn of syncSteps.splice(0).reverse()) {
    try {
      fn();
    } catch (e) {
      log(`cleanup: ${e.message}`);
    }
  }
}

async function runAsync() {
  const todo = steps.splice(0).reverse();
  const all = (async () => {
    for (const fn of todo) {
      try {
        await fn();
      } catch (e) {
        log(`cleanup: ${e.message}`);
      }
    }
  })();
  let timer;
  await Promise.race([
    all,
    new Promise((r) => {
      timer = setTimeout(r, STEP_BUDGET_MS);
    }),
  ]);
  clearTimeout(timer);
}

function unbroken(promise) {
  const p = Promise.resolve(promise);
  // Deliberately quiet: the caller gets `p` itself and sees its failure; the entry only marks when
  // the step has settled, failed or not, for settleUnbroken.
  const entry = p.catch(() => {});
  unbrokenSteps.add(entry);
  entry.finally(() => unbrokenSteps.delete(entry));
  return p;
}

async function settleUnbroken() {
  if (!unbrokenSteps.size) return;
  let timer;
  await Promise.race([
    Promise.all([...unbrokenSteps]),
    new Promise((r) => {
      timer = setTimeout(r, UNBROKEN_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
}

function onSignal(sig) {
  signalCount++;
  const code = 128 + SIGNALS[sig];
  if (signalCount === 1) {
    log(`\ninterrupted (${sig}): stopping and cleaning up...`);
    settleUnbroken()
      .then(runAsync)
      .finally(() => {
        runSync();
        process.exit(code);
      });
  } else if (signalCount === 2) {
    log('still cleaning up (the server and temporary files are removed in any case); once more to skip the rest');
  } else {
    runSync();
    process.exit(code);
  }
}

function runDir() {
  return root;
}

function startWatchdog(dir) {
  try {
    const child = spawn(process.execPath, [__filename, '--watch', String(process.pid), dir], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: process.env.PATH || '' },
    });
    // A spawn that fails (EAGAIN, ENOMEM) says so as an 'error' event, which unheard would crash the run.
    child.on('error', (e) => log(`cleanup: no watchdog (${e.code || e.message}); a killed run may leave ${dir}`));
    child.unref();
    return child.pid;
  } catch (e) {
    log(`cleanup: no watchdog (${e.message}); a killed run may leave ${dir}`);
    return null;
  }
}

function install(opts = {}) {
  if (opts.log) log = opts.log;
  if (!installed) {
    installed = true;
    if (opts.signals !== false) for (const sig of Object.keys(SIGNALS)) process.on(sig, () => onSignal(sig));
    process.on('exit', runSync);
  }
  if (opts.root && !root) {
    const base = os.tmpdir();
    sweepAbandoned(base);
    root = fs.mkdtempSync(path.join(base, `mongo-perf-lab-run-${process.pid}-`));
    // Traverse-only for others: an embedded PostgreSQL runs initdb as the `postgres` user, which must
    // reach its password file and data folder in here, but may not list what else the run keeps.
    fs.chmodSync(root, 0o711);
    process.env.TMPDIR = root; // os.tmpdir() reads it on every call
    addSync(() => fs.rmSync(root, { recursive: true, force: true }));
    if (opts.watchdog) startWatchdog(root);
  }
  return root;
}

// A run killed together with its watchdog (a container stopped, a CI job cancelled) cannot clean up
// after itself: the next run removes such a directory once its owner process is gone and nothing
// still runs from it. A directory some process still uses is left alone and named.
function sweepAbandoned(base, say = log) {
  let names;
  try {
    names = fs.readdirSync(base);
  } catch (e) {
    return;
  }
  for (const name of names) {
    const m = /^mongo-perf-lab-run-(\d+)-[A-Za-z0-9]{6}$/.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    const dir = path.join(base, name);
    try {
      const st = fs.lstatSync(dir);
      if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) continue;
      const users = processesUsing(dir);
      // Its own watchdog is still at work on it: that one removes it.
      if (users.some((pid) => /--watch/.test(cmdlineOf(pid) || ''))) continue;
      if (users.length) {
        say(`cleanup: ${dir} was left by a killed run and is still used by process ${users.join(', ')}: not removed`);
        continue;
      }
      fs.rmSync(dir, { recursive: true, force: true });
      say(`cleanup: removed ${dir}, left by a run that was killed (process ${m[1]} is gone)`);
    } catch (e) {
      say(`cleanup: could not remove ${dir} (${e.code || e.message})`);
    }
  }
}

const PIDS_FILE = '.watch-pids';

/** Asks the watchdog to kill pid too once this process is gone (only if pid still runs the same command). */
function watchPid(pid) {
  if (!root || !pid) return;
  const cmd = cmdlineOf(pid);
  if (cmd) fs.appendFileSync(path.join(root, PIDS_FILE), `${JSON.stringify({ pid, cmd })}\n`);
}

function watchedPids(dir) {
  let text;
  try {
    text = fs.readFileSync(path.join(dir, PIDS_FILE), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        return null;
      }
    })
    .filter((w) => w && cmdlineOf(w.pid) === w.cmd)
    .map((w) => w.pid);
}

function interrupted() {
  return signalCount > 0;
}

/**
 * Throws once a signal arrived: a study stops at its next variant or point, instead of writing on
 * while the clean-up drops what the run created (a collection made again after the drop is one the
 * lab cannot prove it made, and stays). The error's line is never shown: the interrupt's exit says it.
 */
function stopIfInterrupted() {
  if (signalCount > 0) throw interruptedError();
}

/** The error a step stopped by an interrupt fails with (never shown: the interrupt's exit says it). */
function interruptedError() {
  return new LabError('interrupted');
}

/**
 * An interrupt waits (at most ms) for `work` to settle before the steps added earlier run (the
 * database's drop, the peers' stop): its own clean-ups (workers, peers, clients) run first. Returns
 * remove().
 */
function settleFirst(work, ms = STEP_BUDGET_MS / 2) {
  const settled = Promise.resolve(work).then(
    () => {},
    () => {},
  );
  return add(() => {
    let timer;
    return Promise.race([settled, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() => clearTimeout(timer));
  });
}

// ---- the watchdog process -------------------------------------------------------------------
async function watch(parentPid, dir) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // Until the parent is gone, even when the run directory went first: a mongod the run could not
  // stop (still starting) creates its data folders again, the whole path down from the run
  // directory, when its diagnostic data capture writes next.
  while (alive(parentPid)) await sleep(300);
  for (let round = 0; round < 20; round++) {
    const pids = [...new Set([...processesUsing(dir), ...watchedPids(dir)])];
    if (!pids.length) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch (e) {
        /* gone */
      }
    }
    await sleep(100);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

if (require.main === module && process.argv[2] === '--watch') {
  const dir = process.argv[4];
  // Only ever a run directory the lab made.
  if (!/mongo-perf-lab-run-\d+-/.test(path.basename(dir || ''))) process.exit(2);
  process.on('SIGINT', () => {});
  process.on('SIGHUP', () => {});
  watch(Number(process.argv[3]), dir).then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

/**
 * The servers a module starts (a Set it keeps, adding each server it starts and deleting each it
 * stopped), stopped however the process ends: on interrupt, when graceful, each one's stop() runs
 * (within the step budget); at exit, whatever is left gets killSync(). Once per Set, however often
 * called (each start calls it, so that a module used as a library is covered too).
 */
const stoppedSets = new WeakSet();
function stopAtEnd(servers, { graceful = false } = {}) {
  if (stoppedSets.has(servers)) return;
  stoppedSets.add(servers);
  install();
  if (graceful) add(() => Promise.allSettled([...servers].map((s) => s.stop())));
  addSync(() => {
    for (const s of servers) s.killSync();
  });
}

function say(line) {
  log(line);
}

module.exports = {
  install,
  add,
  addSync,
  addDir,
  interrupted,
  stopIfInterrupted,
  interruptedError,
  settleFirst,
  unbroken,
  settleUnbroken,
  stopAtEnd,
  say,
  runDir,
  sweepAbandoned,
  watchPid,
  STEP_BUDGET_MS,
};
