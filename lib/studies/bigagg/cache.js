'use strict';
// The source's cache settings on an embedded mongod, on the SAME data files: restart the lab's
// server with other WiredTiger cache arguments (lib/infra/server.js restart() keeps the dbPath and port).
//
//   default  no cache flag: 50 % of (RAM - 1 GB)
//   0.25GB   --wiredTigerCacheSizeGB 0.25, the smallest value mongod accepts
//   2MB      --wiredTigerEngineConfigString cache_size=2M, the source's unsupported setting
//            (WiredTiger's own option, passed through; mongod still starts)

const { canRestart, restartWithCacheFlags, restartWithArgs } = require('../../infra/restart-args');

const CACHES = {
  default: [],
  '0.25GB': ['--wiredTigerCacheSizeGB', '0.25'],
  '2MB': ['--wiredTigerEngineConfigString', 'cache_size=2M'],
};

/**
 * Restarts the lab's embedded mongod with the cache setting `name` (a key of CACHES), keeping
 * every other argument; returns the arguments it started with.
 */
async function restartWithCache(server, name) {
  if (!Object.prototype.hasOwnProperty.call(CACHES, name)) {
    throw new Error(`cache ${JSON.stringify(name)}: expected one of ${Object.keys(CACHES).join(', ')}`);
  }
  return restartWithCacheFlags(server, CACHES[name]);
}

module.exports = { CACHES, restartWithCache, restartWithArgs, canRestart };
