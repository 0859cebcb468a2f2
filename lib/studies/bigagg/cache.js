'use strict';
// The seed's cache settings on an embedded mongod, on the SAME data files: restart the lab's
// server with other WiredTiger cache arguments (lib/infra/server.js restart() keeps the dbPath and port).
//
//   default  no cache flag: 50 % of (RAM - 1 GB)
//   0.25GB   --wiredTigerCacheSizeGB 0.25, the smallest value mongod accepts
//   2MB      --wiredTigerEngineConfigString cache_size=2M, the seed's unsupported setting
//            (WiredTiger's own option, passed through; mongod still starts)

const CACHE_FLAGS = ['--wiredTigerCacheSizeGB', '--wiredTigerEngineConfigString'];

const CACHES = {
  default: [],
  '0.25GB': ['--wiredTigerCacheSizeGB', '0.25'],
  '2MB': ['--wiredTigerEngineConfigString', 'cache_size=2M'],
};

function instanceOf(server) {
  const info = server && server.mms && server.mms.instanceInfo;
  return info ? info.instance : null;
}

/** Whether restartWithCache can work here (the lab started this mongod). */
function canRestart(server) {
  return !!(server && server.embedded && typeof server.restart === 'function' && instanceOf(server));
}

/**
 * Restarts the lab's embedded mongod with the cache setting `name` (a key of CACHES), keeping
 * every other argument; returns the arguments it started with.
 */
async function restartWithCache(server, name) {
  if (!Object.prototype.hasOwnProperty.call(CACHES, name)) {
    throw new Error(`cache ${JSON.stringify(name)}: expected one of ${Object.keys(CACHES).join(', ')}`);
  }
  if (!canRestart(server))
    throw new Error('the cache size can only be changed on a mongod the lab started (not with MONGODB_URI)');
  const inst = instanceOf(server);
  const args = [];
  const old = inst.instanceOpts.args || [];
  for (let j = 0; j < old.length; j++) {
    if (CACHE_FLAGS.includes(old[j])) {
      j++;
      continue;
    }
    args.push(old[j]);
  }
  const before = old.slice();
  inst.instanceOpts.args = args.concat(CACHES[name]);
  await server.restart();
  return before;
}

/** Restarts with exactly these arguments (what restartWithCache returned): undo a cache change. */
async function restartWithArgs(server, args) {
  if (!canRestart(server)) throw new Error('only a mongod the lab started can be restarted');
  instanceOf(server).instanceOpts.args = args.slice();
  await server.restart();
}

module.exports = { CACHES, restartWithCache, restartWithArgs, canRestart };
