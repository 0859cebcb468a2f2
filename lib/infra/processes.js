'use strict';
// Processes, one home: whether a pid still runs, its command line, the processes a directory's path
// names, and the lock file that says which command holds a directory. Linux's /proc is the source
// (the lab runs its mongod and PostgreSQL there); where /proc is absent these answer "unknown" (null,
// []) rather than guess. Used by the clean-up and its watchdog (cleanup.js), the servers
// (server.js, postgres.js), the `server` command (lib/cli/server.js) and the tests.
//
//   alive(pid)               the process exists (EPERM: it does, someone else's)
//   running(pid)             it exists and is not a zombie (a killed child its dead parent never reaped)
//   cmdlineOf(pid)           its command line as /proc has it (NUL-separated), or null
//   processesUsing(dir)      the pids whose command line names dir (a mongod started with --dbpath in it)
//   killUsingSync(dir, ms)   SIGKILLs those and waits (at most ms) until none of them runs
//   sleepSync(ms)            a synchronous pause, for exit hooks (which cannot await)
//   takeLock(file) -> release() | null   an exclusively created {pid, cmd} file; one whose holder
//                            is gone (its pid dead or reused by another program) is taken over
//   lockHolder(file)         {pid, cmd} of the live holder of a lock file, or null
//   pidFileHolder(file)      the live pid a pid file names (mongod.lock), not this process, or null
const fs = require('fs');

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function running(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'Z';
  } catch (e) {
    return false;
  }
}

function cmdlineOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch (e) {
    return null;
  }
}

function processesUsing(dir) {
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch (e) {
    return [];
  }
  const out = [];
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    const cmd = cmdlineOf(e);
    if (cmd && cmd.includes(dir)) out.push(Number(e));
  }
  return out;
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function killUsingSync(dir, waitMs = 5000) {
  const pids = processesUsing(dir);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (e) {
      /* gone */
    }
  }
  for (const t0 = Date.now(); pids.some(running) && Date.now() - t0 < waitMs;) sleepSync(20);
}

function lockHolder(file) {
  try {
    const held = JSON.parse(fs.readFileSync(file, 'utf8'));
    // the same pid running another program now is not the holder (a pid reused after a SIGKILL)
    const cmd = held.pid ? cmdlineOf(held.pid) : null;
    return held.pid && alive(held.pid) && (cmd === null || cmd === held.cmd) ? held : null;
  } catch (e) {
    return null;
  }
}

/**
 * Takes the lock file for this process: null when a live holder has it (so of two commands started
 * at once the loser always knows). A file left by a killed holder is taken over, once. Returns
 * release(), which removes the file only while it is still this process's.
 */
function takeLock(file) {
  const mine = JSON.stringify({ pid: process.pid, cmd: cmdlineOf(process.pid) });
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, mine, { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (attempt > 0 || lockHolder(file)) return null;
      fs.rmSync(file, { force: true }); // left by a command that was killed
    }
  }
  return () => {
    try {
      if (fs.readFileSync(file, 'utf8') === mine) fs.rmSync(file, { force: true });
    } catch (e) {
      /* already gone */
    }
  };
}

/** The live pid a pid file (mongod.lock) names, other than this process, or null (no file, empty, gone). */
function pidFileHolder(file) {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return pid && pid !== process.pid && alive(pid) ? pid : null;
  } catch (e) {
    return null;
  }
}

module.exports = {
  alive,
  running,
  cmdlineOf,
  processesUsing,
  killUsingSync,
  sleepSync,
  takeLock,
  lockHolder,
  pidFileHolder,
};
