'use strict';
// Restarting the lab's own embedded mongod with other WiredTiger cache arguments, on the same data
// files (lib/infra/server.js restart() keeps the dbPath and port). Only a server the lab started can
// be restarted: a user's server (--uri) is never stopped.

const CACHE_FLAGS = ['--wiredTigerCacheSizeGB', '--wiredTigerEngineConfigString'];

function instanceOf(server) {
  const info = server && server.mms && server.mms.instanceInfo;
  return info ? info.instance : null;
}

/** Whether the server can be restarted with other arguments here (the lab started this mongod). */
function canRestart(server) {
  return !!(server && server.embedded && typeof server.restart === 'function' && instanceOf(server));
}

/**
 * Restarts the lab's embedded mongod with these cache flags in place of its current ones, keeping
 * every other argument; returns the arguments it started with (for restartWithArgs).
 */
async function restartWithCacheFlags(server, flags) {
  if (!canRestart(server))
    throw new Error('the cache size can only be changed on a mongod the lab started (not with MONGODB_URI)');
  const inst = instanceOf(server);
  const old = inst.instanceOpts.args || [];
  const args = [];
  for (let j = 0; j < old.length; j++) {
    if (CACHE_FLAGS.includes(old[j])) {
      j++;
      continue;
    }
    args.push(old[j]);
  }
  inst.instanceOpts.args = args.concat(flags);
  await server.restart();
  return old.slice();
}

/** Restarts with exactly these arguments (what restartWithCacheFlags returned): undo a cache change. */
async function restartWithArgs(server, args) {
  if (!canRestart(server)) throw new Error('only a mongod the lab started can be restarted');
  instanceOf(server).instanceOpts.args = args.slice();
  await server.restart();
}

/**
 * Waits until a client's pool works again after the server restarted (its old sockets died with
 * the old mongod): pings for up to ~5 s, then gives up with the last error.
 */
async function usable(db) {
  for (let i = 0; ; i++) {
    try {
      await db.command({ ping: 1 });
      return;
    } catch (e) {
      if (i >= 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

module.exports = { canRestart, restartWithCacheFlags, restartWithArgs, usable };
