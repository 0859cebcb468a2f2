'use strict';
// The source's cache settings on an embedded mongod, on the SAME data files: restart the lab's
// server with other WiredTiger cache arguments (lib/infra/server.js restart() keeps the dbPath and port).
//
//   default  no cache flag: 50 % of (RAM - 1 GB)
//   0.25GB   --wiredTigerCacheSizeGB 0.25, the smallest value mongod accepts
//   2MB      --wiredTigerEngineConfigString cache_size=2M, the source's unsupported setting
//            (WiredTiger's own option, passed through; mongod still starts)

const { canRestart, restartWithCacheFlags, restartWithArgs } = require('../../infra/restart-args');
const { LabError } = require('../../infra/errors');

const CACHES = {
  default: [],
  '0.25GB': ['--wiredTigerCacheSizeGB', '0.25'],
  '2MB': ['--wiredTigerEngineConfigString', 'cache_size=2M'],
};

/**
 * mongod would not start with a cache setting: `line` is what its log said (its first error or
 * fatal line), `argsBefore` the arguments it ran with before, to start it again with.
 */
class CacheStartRefused extends LabError {
  constructor(name, line, argsBefore, cause) {
    super(`mongod refused to start with the ${name} cache (${CACHES[name].join(' ')}): ${line}`, { cause });
    this.cache = name;
    this.line = line;
    this.argsBefore = argsBefore;
  }
}

/** A log line of mongod as one readable line: its message and the error it names, else the text. */
function readable(line) {
  let o;
  try {
    o = JSON.parse(line);
  } catch (e) {
    return line.trim();
  }
  const a = o.attr || {};
  const err = a.error && typeof a.error === 'object' ? a.error.errmsg || a.error.codeName : a.error;
  const detail = [a.message, err].filter((x) => typeof x === 'string' && x).join('; ');
  return `${o.msg}${detail ? `: ${detail}` : ''}`;
}

/**
 * The line that says why a start failed: the first error ("E") or fatal ("F") entry of mongod's log
 * (a WiredTiger configuration error comes before the fatal assertion it causes), else the first
 * line of the start's own error.
 */
function refusalLine(lines, err) {
  const bad = lines.find((l) => /"s":"[EF]"/.test(l));
  return bad ? readable(bad) : String((err && err.message) || err).split('\n')[0];
}

/** mongod's log lines (stdout and stderr) from now until stop() is called. */
function followLog(server) {
  const inst = server.mms.instanceInfo.instance;
  const lines = [];
  const add = (text) => lines.push(...String(text).split('\n').filter(Boolean));
  inst.on('instanceSTDOUT', add);
  inst.on('instanceSTDERR', add);
  return {
    lines,
    stop() {
      inst.off('instanceSTDOUT', add);
      inst.off('instanceSTDERR', add);
    },
  };
}

/**
 * Restarts the lab's embedded mongod with the cache setting `name` (a key of CACHES), keeping
 * every other argument; returns the arguments it started with. A mongod that will not start with
 * it throws CacheStartRefused (the server is then down: restartWithArgs(server, e.argsBefore)).
 */
async function restartWithCache(server, name) {
  if (!Object.prototype.hasOwnProperty.call(CACHES, name)) {
    throw new Error(`cache ${JSON.stringify(name)}: expected one of ${Object.keys(CACHES).join(', ')}`);
  }
  if (!canRestart(server)) return restartWithCacheFlags(server, CACHES[name]); // its own refusal
  const before = (server.mms.instanceInfo.instance.instanceOpts.args || []).slice();
  // Followed from the stop on: the old mongod's shutdown lines are all informational.
  const log = followLog(server);
  try {
    return await restartWithCacheFlags(server, CACHES[name]);
  } catch (e) {
    throw new CacheStartRefused(name, refusalLine(log.lines, e), before, e);
  } finally {
    log.stop();
  }
}

module.exports = { CACHES, CacheStartRefused, restartWithCache, restartWithArgs, canRestart, refusalLine };
