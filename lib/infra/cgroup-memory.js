'use strict';
// The memory a cgroup lets a local process use: what the OS page cache and the process share when
// a limit applies (001-bigagg-default-cache-disk's room is that limit, else the RAM, less mongod's
// resident memory). memory-limit.js makes such a group; this reads the one a process is in,
// whoever made it (the lab's RAM_MB, a container, systemd).
//
//   memoryLimitOf(pid)  the smallest limit of the process's memory group and its ancestors, in
//                       bytes; null when none applies (v1 writes "none" as a value near 2^63, v2 as
//                       "max") or when nothing can be read (no /proc, no cgroup file system, gone)
//
// The group comes from /proc/<pid>/cgroup: a v1 line naming the memory controller
// ("4:memory:/a/b": <root>/memory/a/b/memory.limit_in_bytes), else the v2 line ("0::/a/b":
// <root>/a/b/memory.max, where <root> is a v2 root). A limit set on an ancestor bounds its children
// too, so every level up to the root is read. LAB_CGROUP_ROOT (env, tests) moves <root> as in
// memory-limit.js.
const fs = require('fs');
const path = require('path');

// cgroup v1 reports "no limit" as the largest page multiple below 2^63 (9223372036854771712);
// nothing real comes near 2^60 bytes.
const NO_LIMIT_V1 = 2 ** 60;

function cgroupRoot() {
  return process.env.LAB_CGROUP_ROOT || '/sys/fs/cgroup';
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    return null;
  }
}

/** The process's memory group: {base, group, file} for v1 or v2, or null (no such line, no /proc). */
function memoryGroupOf(pid, root) {
  const lines = (readText(`/proc/${pid}/cgroup`) || '').split('\n').filter(Boolean);
  const v1 = lines.find((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l));
  if (v1 && fs.existsSync(path.join(root, 'memory')))
    return { base: path.join(root, 'memory'), group: v1.split(':').slice(2).join(':'), file: 'memory.limit_in_bytes' };
  const v2 = lines.find((l) => l.startsWith('0::'));
  if (v2 && fs.existsSync(path.join(root, 'cgroup.controllers')))
    return { base: root, group: v2.slice(3), file: 'memory.max' };
  return null;
}

/** A limit file's bytes, or null for "no limit" ("max", a v1 value near 2^63) and unreadable files. */
function limitIn(file) {
  const text = readText(file);
  if (text === null) return null;
  const n = Number(text.trim());
  return Number.isFinite(n) && n > 0 && n < NO_LIMIT_V1 ? n : null;
}

function memoryLimitOf(pid) {
  if (!pid) return null;
  const root = cgroupRoot();
  const g = memoryGroupOf(pid, root);
  if (!g) return null;
  let least = null;
  // From the process's own group up to the hierarchy's root ('/a/b', '/a', '/').
  for (let dir = path.posix.normalize(`/${g.group}`); ; dir = path.posix.dirname(dir)) {
    const n = limitIn(path.join(g.base, dir, g.file));
    if (n !== null && (least === null || n < least)) least = n;
    if (dir === '/') return least;
  }
}

module.exports = { memoryLimitOf, NO_LIMIT_V1 };
