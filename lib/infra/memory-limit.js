'use strict';
// RAM made short for the lab's embedded mongod, as the source's 7.13 GB in 8 GB (003-touch-both):
// a memory cgroup of its own (Linux, root), whose limit bounds mongod AND the file pages it brings
// into the OS page cache (the kernel charges a cached page to the group of the process that read or
// wrote it first). A WiredTiger cache that overflows is not enough: what it evicts comes back from
// the page cache, not the disk. Under the group's limit the kernel evicts those file pages and the
// next read goes to the disk, which the pass records (process-io.js) then show.
//
//   limitMemory(server, mb, {log}) -> {dir, mb, add(pid), release()}
//       a cgroup mongo-perf-lab-<pid>-<n> with that limit, beside (under) the lab's own memory
//       cgroup, holding the server's mongod; the server's restart() is followed (the new pid joins
//       the group after every restart). release() moves what is left to the parent group and
//       removes the group; the exit clean-up does the same however the process ends (SIGINT,
//       SIGTERM, a failure), so the lab leaves no group behind; one left by a run killed with
//       SIGKILL is removed by the next one (once empty: the run's watchdog kills its mongod).
//   cacheGBFor(mb)              the largest WiredTiger cache (GB, 2 decimals) that leaves mongod its
//                               own memory under mb; null when even the smallest (0.25) does not fit
//   MONGOD_OWN_MB               what mongod needs besides its cache (its heap, connections, the
//                               allocator's slack): a margin (a 6.0.5 mongod with a 0.25 GB cache,
//                               joined at start, charged its group 95 MB at most loading 300,000 events)
//   LAB_CGROUP_ROOT (env)       for tests only: where the cgroup file systems are mounted, instead
//                               of /sys/fs/cgroup (a folder the lab cannot write shows the refusal)
//
// cgroup v1 (a `memory` hierarchy: memory.limit_in_bytes) is tried first, then v2 (memory.max, a
// root whose cgroup.subtree_control enables memory). Where neither is writable the refusal is one
// line (ParameterError: exit 2).
const fs = require('fs');
const path = require('path');
const cleanup = require('./cleanup');
const { ParameterError } = require('./errors');
const { alive, running, sleepSync } = require('./processes');

const MONGOD_OWN_MB = 256;
const MIN_CACHE_GB = 0.25; // mongod refuses a smaller --wiredTigerCacheSizeGB
const MB = 1048576;

function cgroupRoot() {
  return process.env.LAB_CGROUP_ROOT || '/sys/fs/cgroup';
}

function cacheGBFor(mb) {
  const gb = Math.floor(((mb - MONGOD_OWN_MB) / 1024) * 100) / 100;
  return gb >= MIN_CACHE_GB ? gb : null;
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    return null;
  }
}

/** This process's own group in a hierarchy (/proc/self/cgroup), '' when not listed. */
function ownGroup(match) {
  const line = (readText('/proc/self/cgroup') || '').split('\n').find(match);
  return line ? line.split(':').slice(2).join(':') : '';
}

/**
 * Where a group with a memory limit can be made: {version, parent, limitFile} or {missing: why}.
 * v1: under the lab's own memory group when that folder exists (its limits still bound ours), else
 * the hierarchy's root. v2: under the root, the only level that may both enable memory for its
 * children and hold processes of its own.
 */
function findController(root) {
  const v1 = path.join(root, 'memory');
  if (fs.existsSync(path.join(v1, 'memory.limit_in_bytes'))) {
    const own = path.join(
      v1,
      ownGroup((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l)),
    );
    const parent = own !== v1 && fs.existsSync(path.join(own, 'memory.limit_in_bytes')) ? own : v1;
    return { version: 1, parent, limitFile: 'memory.limit_in_bytes' };
  }
  const controllers = readText(path.join(root, 'cgroup.controllers'));
  if (controllers !== null) {
    if (!/\bmemory\b/.test(readText(path.join(root, 'cgroup.subtree_control')) || ''))
      return { missing: `cgroup v2 at ${root} does not enable the memory controller for its groups` };
    return { version: 2, parent: root, limitFile: 'memory.max' };
  }
  return { missing: `no memory cgroup controller under ${root} (neither ${v1} nor a cgroup v2 root)` };
}

function refusal(mb, where, why) {
  return new ParameterError(
    `parameter RAM_MB=${mb}: cannot make a memory cgroup ${where} (${why}): run as root on Linux with the ` +
      'memory cgroup controller mounted (v1 memory, or v2 with memory enabled), or leave RAM_MB out',
  );
}

let made = 0;

/**
 * Groups left by runs killed with SIGKILL (no exit step ran): removed once their run is gone and
 * nothing runs in them any more (their mongod went with the run's watchdog).
 */
function sweepAbandoned(parent) {
  let names;
  try {
    names = fs.readdirSync(parent);
  } catch (e) {
    return;
  }
  for (const name of names) {
    const m = /^mongo-perf-lab-(\d+)-\d+$/.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    const dir = path.join(parent, name);
    const procs = readText(path.join(dir, 'cgroup.procs'));
    if (procs === null || procs.trim()) continue; // not a group, or its mongod still runs
    try {
      fs.rmdirSync(dir);
    } catch (e) {
      /* in use again, or not ours to remove: left alone */
    }
  }
}

/** Writes a pid into a group's cgroup.procs; a process already gone is no error. */
function movePid(dir, pid) {
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  } catch (e) {
    if (e.code !== 'ESRCH' && running(pid)) throw e;
  }
}

/** Empties the group into its parent and removes it (a group with processes cannot be removed). */
function removeGroup(dir, parent) {
  if (!fs.existsSync(dir)) return;
  for (let attempt = 0; ; attempt++) {
    const pids = (readText(path.join(dir, 'cgroup.procs')) || '').split('\n').filter(Boolean);
    for (const pid of pids) movePid(parent, Number(pid));
    try {
      fs.rmdirSync(dir);
      return;
    } catch (e) {
      if (e.code === 'ENOENT') return;
      // EBUSY: a process still leaving (a mongod being killed), for a moment
      if (e.code !== 'EBUSY' || attempt >= 50) throw e;
      sleepSync(20);
    }
  }
}

/** A memory cgroup of mb megabytes: {dir, add(pid), release()}; refused in one line where none can be made. */
function makeGroup(mb) {
  const root = cgroupRoot();
  const c = findController(root);
  cleanup.install(); // the exit and signal hooks that run the group's removal
  sweepAbandoned(c.parent);
  if (c.missing) throw refusal(mb, `under ${root}`, c.missing);
  const dir = path.join(c.parent, `mongo-perf-lab-${process.pid}-${++made}`);
  try {
    fs.mkdirSync(dir);
  } catch (e) {
    throw refusal(mb, `in ${c.parent}`, `${e.code || e.message}: not writable here`);
  }
  const release = () => {
    dropAtExit();
    removeGroup(dir, c.parent);
  };
  const dropAtExit = cleanup.addSync(() => removeGroup(dir, c.parent));
  try {
    fs.writeFileSync(path.join(dir, c.limitFile), String(mb * MB));
  } catch (e) {
    release();
    throw refusal(mb, `in ${c.parent}`, `${c.limitFile}: ${e.code || e.message}`);
  }
  const add = (pid) => {
    try {
      movePid(dir, pid);
    } catch (e) {
      throw refusal(mb, `in ${c.parent}`, `moving mongod (pid ${pid}) into it: ${e.code || e.message}`);
    }
  };
  return { dir, version: c.version, add, release };
}

/**
 * The server's mongod in a memory cgroup of mb megabytes, followed across its restarts. Only a
 * mongod the lab started (its pid on this machine, a restart() the lab drives) can be confined.
 */
function limitMemory(server, mb) {
  if (!(server && server.embedded && server.pid && typeof server.restart === 'function'))
    throw new ParameterError(
      `parameter RAM_MB=${mb}: only the lab's own embedded mongod can be put in a memory cgroup: run without --uri, or leave RAM_MB out`,
    );
  const group = makeGroup(mb);
  const restart = server.restart;
  const own = Object.prototype.hasOwnProperty.call(server, 'restart');
  server.restart = async function restartInGroup(...args) {
    await restart.apply(this, args);
    group.add(this.pid);
  };
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (own) server.restart = restart;
    else delete server.restart;
    group.release();
  };
  try {
    group.add(server.pid);
  } catch (e) {
    release();
    throw e;
  }
  return { dir: group.dir, mb, add: group.add, release };
}

/** Whether the lab could make a memory group under `root` here (a controller and a writable parent). */
function cgroupsWritable(root = process.env.LAB_CGROUP_ROOT || '/sys/fs/cgroup') {
  const c = findController(root);
  if (c.missing) return false;
  try {
    fs.accessSync(c.parent, fs.constants.W_OK);
    return true;
  } catch (e) {
    return false;
  }
}

module.exports = { limitMemory, cacheGBFor, findController, cgroupsWritable, MONGOD_OWN_MB, MIN_CACHE_GB };
