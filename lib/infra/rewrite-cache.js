'use strict';
// A cache for mongosh's async rewriter, installed by the lab's CLI (bin/mongo-perf-lab.js) before it
// loads the shell runtime, and by the test run (test/global-setup.js) in the mocha process and,
// through NODE_OPTIONS=--require, in every node process the tests start (the real mongosh CLI,
// the lab's CLI, workers).
//
// Why: before it runs a line of a script, mongosh rewrites the script's whole text with Babel
// (@mongosh/async-rewriter2: four Babel passes) so that its shell calls can be awaited. A study's
// shell session loads lab.js and its library files, ~90 KB. A run configures each study once per
// session (its parameters are checked in Node: lib/core/params.js configureOffline), but opens
// a session per study and again after every server restart (cold-cache points; the time-series
// states restart per state and grain), and the test suite opens hundreds.
// Still needed: measured 2026-11-28, once the pre-check session was gone (one session per study),
// `node bin/mongo-perf-lab.js run where --profile tiny`, 3 runs each on the shared 2-core machine
// (load 12-15): with the cache 2.6-2.8 CPU s (wall 10-13 s), without it 5.3-5.6 CPU s (wall
// 20-27 s): ~3 CPU s of Babel per session opened (before the change, without it: 6.2-6.6 CPU s).
// The rewrite is a pure function of the text (Babel with a fixed set of plugins), so its output is
// kept, keyed by the SHA-256 of the text and the versions of the rewriter and Babel, in memory and
// under ~/.cache/mongo-perf-lab/mongosh-rewrite/ (newest 4,000 entries). A miss runs the real
// rewriter; only its output is stored, so what mongosh evaluates is byte for byte what it would
// have evaluated. Babel itself is loaded only on a miss. Timed commands never include a rewrite.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const Module = require('module');

const MAX_FILES = 4000;

let writer;
try {
  writer = require.resolve('@mongosh/async-rewriter2/lib/async-writer-babel.js', {
    paths: [path.join(__dirname, '..', '..')],
  });
} catch (e) {
  writer = null; // no mongosh here: nothing to cache
}

function versionTag() {
  const dir = path.dirname(path.dirname(writer));
  const rewriter = require(path.join(dir, 'package.json')).version;
  const babel = require(require.resolve('@babel/core/package.json', { paths: [dir] })).version;
  return `rewriter-${rewriter}-babel-${babel}`;
}

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'mongo-perf-lab', 'mongosh-rewrite', versionTag());
}

/** A store: get(code) -> rewritten text or undefined; put(code, text). */
function store(dir) {
  const memory = new Map();
  let writes = 0;
  const keyOf = (code) => crypto.createHash('sha256').update(code).digest('hex');
  const fileOf = (key) => path.join(dir, `${key}.js`);
  return {
    get(code) {
      const key = keyOf(code);
      if (memory.has(key)) return memory.get(key);
      try {
        const text = fs.readFileSync(fileOf(key), 'utf8');
        memory.set(key, text);
        return text;
      } catch (e) {
        return undefined;
      }
    },
    put(code, text) {
      const key = keyOf(code);
      memory.set(key, text);
      try {
        fs.mkdirSync(dir, { recursive: true });
        // Written aside and renamed: processes running at once see a whole entry or none.
        const tmp = `${fileOf(key)}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, text);
        fs.renameSync(tmp, fileOf(key));
        if (++writes % 50 === 0) prune(dir);
      } catch (e) {
        /* a cache that cannot be written is only slower */
      }
    },
  };
}

/** Keeps the newest MAX_FILES entries (scripts edited over time leave old texts behind). */
function prune(dir) {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  if (files.length <= MAX_FILES) return;
  const aged = files.map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { f } of aged.slice(0, files.length - MAX_FILES)) fs.rmSync(path.join(dir, f), { force: true });
}

/** The rewriter's class, with process() answered from the store; the real one loaded on a miss. */
function cachedWriterModule(loadReal, cache) {
  let Real = null;
  const real = () => (Real = Real || loadReal().default);
  class AsyncWriter {
    process(code) {
      const hit = cache.get(code);
      if (hit !== undefined) return hit;
      const RealWriter = real();
      const text = RealWriter.prototype.process.call(this, code);
      if (typeof text === 'string') cache.put(code, text);
      return text;
    }
    step(...args) {
      return real().prototype.step.apply(this, args);
    }
    unprocessedRuntimeSupportCode() {
      return real().prototype.unprocessedRuntimeSupportCode.call(this);
    }
    // The runtime support is a prebuilt text: no need to load Babel for it.
    runtimeSupportCode() {
      return require(path.join(path.dirname(writer), 'runtime-support.out.nocov.js')).default;
    }
  }
  return { __esModule: true, default: AsyncWriter };
}

function install() {
  if (!writer || Module._load.labRewriteCache) return;
  let cache;
  const load = Module._load;
  const hooked = function (request, parent, isMain) {
    if (/async-writer-babel(\.js)?$/.test(request) && parent) {
      let file = null;
      try {
        file = Module._resolveFilename(request, parent, isMain);
      } catch (e) {
        /* let the real loader report it */
      }
      if (file === writer) {
        if (!cache) cache = store(cacheDir());
        return cachedWriterModule(() => load.call(this, request, parent, isMain), cache);
      }
    }
    return load.apply(this, arguments);
  };
  hooked.labRewriteCache = true;
  Module._load = hooked;
}

install();

module.exports = { install, PRELOAD: __filename };
