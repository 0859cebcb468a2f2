'use strict';
// What a mongod on this machine read from its disk, from Linux's /proc: the evidence that RAM was
// short (a pass that re-read its working set from the block device, not from the OS page cache).
// The WiredTiger cache's own counters cannot tell the two apart: a page it evicted and reads again
// counts as read into the cache whether the kernel had it in memory or fetched it from the disk.
//
//   ioCounters(pid)          {readBytes, majorFaults} of a live process, or null (no /proc, gone,
//                            not readable): read_bytes of /proc/<pid>/io (bytes its reads made the
//                            kernel fetch from the storage layer, all its threads) and majflt of
//                            /proc/<pid>/stat (field 12: page faults that needed the disk)
//   ioSince(before, pid)     {diskReadBytes, majorFaults}: the growth of both since `before`, or
//                            nulls when either end is unknown (a remote server, a restart between)
//   localMongodPid(server, status)  the pid of the server's mongod when it runs on this machine:
//                            the embedded one's, else serverStatus' pid for a loopback URI whose
//                            /proc entry is a mongod; null for a remote server (nothing to read)
const fs = require('fs');
const { running, cmdlineOf } = require('./processes');

function readBytesOf(pid) {
  const m = /^read_bytes:\s*(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'));
  return m ? Number(m[1]) : null;
}

function majorFaultsOf(pid) {
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = Number(rest[12 - 3]); // rest[0] is field 3 (state)
  return Number.isFinite(n) ? n : null;
}

function ioCounters(pid) {
  if (!pid) return null;
  try {
    const readBytes = readBytesOf(pid);
    const majorFaults = majorFaultsOf(pid);
    return readBytes === null || majorFaults === null ? null : { pid, readBytes, majorFaults };
  } catch (e) {
    return null; // no /proc here, the process is gone, or another user's
  }
}

function ioSince(before, pid) {
  const after = before && before.pid === pid ? ioCounters(pid) : null;
  const delta = (k) => (after && after[k] >= before[k] ? after[k] - before[k] : null);
  return { diskReadBytes: delta('readBytes'), majorFaults: delta('majorFaults') };
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/** Every host the URI names is this machine's loopback (a URI that cannot be parsed is not). */
function onLoopback(uri) {
  const m = /^mongodb:\/\/(?:[^@/]*@)?([^/?]+)/.exec(String(uri || ''));
  return !!m && m[1].split(',').every((h) => LOOPBACK.test(h));
}

function localMongodPid(server, status) {
  if (!server) return null;
  if (server.embedded && server.pid) return running(server.pid) ? server.pid : null;
  const pid = status && Number(status.pid);
  if (!pid || !onLoopback(server.uri) || !running(pid)) return null;
  // serverStatus' pid is in the server's own pid namespace (a container): only a /proc entry that
  // is a mongod is taken for it.
  return /(^|\/)mongod\0/.test(cmdlineOf(pid) || '') ? pid : null;
}

module.exports = { ioCounters, ioSince, localMongodPid, onLoopback };
