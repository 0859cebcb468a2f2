'use strict';
// A command started by `npx mongo-perf-lab ...` (or `npm exec`) is not npm's child: npm runs
// `sh -c 'mongo-perf-lab ...'`, and the shell runs this process. `npx mongo-perf-lab server &` gives
// npm's pid as $!, and a signal sent there stops at the shell: npm forwards SIGINT and SIGTERM to
// its own child only (@npmcli/run-script's signal-manager). On SIGTERM the shell dies and this
// process is left running, orphaned; on SIGINT the shell waits for its child (dash, bash), so
// nothing happens at all. Neither is visible to this process as a signal.
//
// What is visible (Linux, /proc): the shell, blocked waiting for this process, wakes only when a
// signal reaches it (its context-switch count moves), and when it dies this process gets a new
// parent. watch() turns either into a stop request. Outside npm (a plain `mongo-perf-lab server &`,
// nohup) nothing is watched: a parent shell that exits must not stop a server meant to outlive it.
const fs = require('fs');

const EVERY_MS = 200;

function readProc(pid, file) {
  try {
    return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch (e) {
    return null;
  }
}

/** {ppid, switches} of a live process (switches: voluntary + involuntary context switches), or null. */
function statusOf(pid) {
  const text = readProc(pid, 'status');
  if (text === null) return null;
  const field = (name) => Number((text.match(new RegExp(`^${name}:\\s*(\\d+)`, 'm')) || [])[1] || 0);
  return {
    ppid: field('PPid'),
    switches: field('voluntary_ctxt_switches') + field('nonvoluntary_ctxt_switches'),
  };
}

/** A process's argv (its title for npm, which sets "npm exec ..."), or [] when it is gone. */
function argvOf(pid) {
  const raw = readProc(pid, 'cmdline');
  return raw ? raw.split('\0').filter(Boolean) : [];
}

/**
 * {shell, npm}: the pids of the `sh -c` npm started to run this process and of npm itself, when
 * that is how this process runs; else null (not Linux, started another way).
 */
function npmParent() {
  if (process.platform !== 'linux') return null;
  const shell = process.ppid;
  const sh = argvOf(shell);
  if (!/(^|\/)(sh|dash|bash)$/.test(sh[0] || '') || sh[1] !== '-c') return null;
  const st = statusOf(shell);
  if (!st) return null;
  const npm = argvOf(st.ppid).join(' ');
  // npm's process title ("npm exec mongo-perf-lab server"), or its argv before it sets one
  if (!/^(npm|npx)( |$)|(^|\/)(npm|npx)(-cli\.js)?( |$)/.test(npm)) return null;
  return { shell, npm: st.ppid };
}

/**
 * Calls onStop(why) once, when npm's shell is signalled or gone (see the head comment). Returns
 * stop(), which ends the watch. The timer does not keep the process alive.
 */
function watch(parent, onStop, { everyMs = EVERY_MS } = {}) {
  const first = statusOf(parent.shell);
  let timer = null;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const check = () => {
    const now = statusOf(parent.shell);
    if (process.ppid !== parent.shell || !now) {
      stop();
      onStop(`npm (pid ${parent.npm}) was stopped: its shell (pid ${parent.shell}) is gone`);
    } else if (first && now.switches !== first.switches) {
      stop();
      onStop(`npm (pid ${parent.npm}) passed on a signal`);
    }
  };
  timer = setInterval(check, everyMs);
  timer.unref();
  return stop;
}

module.exports = { npmParent, watch, statusOf };
