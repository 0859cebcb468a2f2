'use strict';
// `mongo-perf-lab server`: a MongoDB for people who have none, for the drop-in scripts and `import`.
//
// Modelled on MongoDB's own `mongodb-runner` (mongodb-js/devtools-shared): it listens on 127.0.0.1,
// on a free port unless told otherwise, keeps its data in a temporary directory that is deleted when
// it stops, and writes ONLY the connection string to stdout (everything for people goes to stderr),
// so `mongo-perf-lab server > uri.txt &` captures it. Unlike `mongodb-runner start`, which detaches,
// it stays in the foreground until Ctrl-C, like `mongod` itself: nothing is left running by mistake.
// --dbpath keeps the data (and the port, for a stable URI) across runs.

const fs = require('fs');
const net = require('net');
const path = require('path');
const cleanup = require('../infra/cleanup');
const processes = require('../infra/processes');
const { makeDirs } = require('../infra/output-paths');
const npmParent = require('../infra/npm-parent');
const liveness = require('../infra/liveness');
const { LabError, UsageError, friendly } = require('../infra/errors');
const { NoMongodError } = require('../infra/mongod-binary');
const opt = require('./options');
const { valueOption } = require('./option-kinds');

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPTS = path.join(ROOT, 'scripts');
const { selfCommand } = require('./self-command');
// The mongosh the lab depends on, wherever npm put it (the same resolution as lib/core/shell-runner.js).
const MONGOSH_BIN = require.resolve('@mongosh/cli-repl/bin/mongosh.js');
const META = 'mongo-perf-lab-server.json'; // what a kept data directory was started as
const LOCK = 'mongo-perf-lab-server.lock'; // {pid, cmd} of the server command using a kept directory
const SCRIPT_DB = 'random'; // the database the studies' scripts use, as their source articles did

class ServerError extends LabError {}

const usage = 'mongo-perf-lab server [--port N] [--dbpath DIR] [--cache-gb X] [--replset N]';
const summary = 'a MongoDB for the scripts and import; stays up until Ctrl-C';
const about = 'Starts a MongoDB for the scripts and import; it stays up until Ctrl-C.';
const options = {
  port: valueOption('N', 'listen on 127.0.0.1:N (default: a free port; a replica set uses N, N+1, ...)'),
  dbpath: valueOption('DIR', 'keep the data in DIR across runs (default: a temporary directory, deleted on stop)'),
  'cache-gb': valueOption('X', 'WiredTiger cache size, in GB (>= 0.25)'),
  replset: valueOption('N', 'a replica set of N members (1-7) instead of a standalone (not with --dbpath)'),
};
const notes = `Prints the connection string alone on stdout, and on stderr a ready-to-paste
\`npx mongosh "<uri>/random" scripts/<script>.js\` line for every script, and the \`kill PID\` that
stops it from elsewhere. SIGINT, SIGTERM or SIGHUP stop mongod and delete its data, also when sent
to npm's pid under npx (\`npx mongo-perf-lab server &\`, then \`kill $!\`).`;

function parse(values) {
  const o = {
    port: opt.wholeNumber('port', values.port, 1),
    replset: opt.wholeNumber('replset', values.replset, 1),
    dbPath: values.dbpath,
    cacheSizeGB: opt.cacheGb(values['cache-gb']),
    debug: values.debug,
  };
  if (o.port !== undefined && o.port > 65535 - ((o.replset || 1) - 1))
    throw new UsageError(`--port: expected a port up to 65535, got ${o.port}`);
  if (o.replset !== undefined && o.replset > 7)
    throw new UsageError(`--replset: at most 7 members (all of them vote), got ${o.replset}`);
  if (o.dbPath === '') throw new UsageError('--dbpath: give a directory');
  return o;
}

/** Rejects with ServerError if something already listens on 127.0.0.1:port. */
function checkPortFree(port, flag) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (e) => {
      if (e.code === 'EADDRINUSE') {
        reject(
          new ServerError(
            `${flag}: port ${port} is already in use (another mongod?); choose another with --port, or leave --port out for a free one`,
          ),
        );
      } else if (e.code === 'EACCES') {
        reject(new ServerError(`${flag}: port ${port} needs privileges; choose a port above 1023`));
      } else reject(e);
    });
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(resolve));
  });
}

/** Reads what a kept directory holds: null (new or empty), or {port, ...} from an earlier run. */
function inspectDbPath(dir) {
  if (!fs.existsSync(dir)) return null;
  if (!fs.statSync(dir).isDirectory()) throw new ServerError(`--dbpath ${dir}: not a directory`);
  const entries = fs.readdirSync(dir).filter((e) => e !== LOCK);
  if (!entries.length) return null;
  const pid = lockHolder(dir);
  if (pid) {
    throw new ServerError(
      `--dbpath ${dir}: a mongod (pid ${pid}) is already running on this directory; stop it first, or use another directory`,
    );
  }
  if (entries.includes(META)) {
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, META), 'utf8'));
    } catch (e) {
      return {};
    }
  }
  if (entries.includes('WiredTiger')) return {}; // a mongod data directory from elsewhere: the user's own
  // a mongod.lock and little else: another mongod is starting here right now (its pid not yet
  // written), not "other files"
  if (entries.includes('mongod.lock')) {
    throw new ServerError(
      `--dbpath ${dir}: another mongod is starting on this directory (its mongod.lock is there); stop it first, or use another directory`,
    );
  }
  throw new ServerError(
    `--dbpath ${dir}: this directory holds other files and no MongoDB data; give a new or empty directory`,
  );
}

/** The server command holding dir's lab lock: {pid} while that process still runs, else null. */
function labLockHolder(dir) {
  return processes.lockHolder(path.join(dir, LOCK));
}

/**
 * Takes dir for this command before any mongod starts, so that of two commands started at once on
 * one --dbpath the loser always learns why ("in use", exit 2), whoever's mongod would have won
 * mongod's own lock. The lock is an exclusively created file; one left by a killed command (its
 * pid gone) is taken over. Returns release(), also run at exit.
 */
function lockDbPath(dir) {
  if (fs.existsSync(dir) && !fs.statSync(dir).isDirectory()) throw new ServerError(`--dbpath ${dir}: not a directory`);
  try {
    makeDirs(dir);
  } catch (e) {
    if (e.code !== 'EEXIST') throw e; // the other command made it a moment ago
  }
  const release = processes.takeLock(path.join(dir, LOCK));
  if (!release) throw inUse(dir);
  const unlist = cleanup.addSync(release);
  return () => {
    unlist();
    release();
  };
}

/** The ServerError for a dir another server (lab command or mongod) holds. */
function inUse(dir) {
  const pid = lockHolder(dir);
  if (pid)
    return new ServerError(
      `--dbpath ${dir}: a mongod (pid ${pid}) is already running on this directory; stop it first, or use another directory`,
    );
  const held = labLockHolder(dir);
  return new ServerError(
    `--dbpath ${dir}: another mongod is starting on this directory (by \`mongo-perf-lab server\`, pid ${held ? held.pid : '?'}); stop it first, or use another directory`,
  );
}

/** The live pid in dir's mongod.lock other than our own children's, or null. */
function lockHolder(dir) {
  return processes.pidFileHolder(path.join(dir, 'mongod.lock'));
}

/** mongodb://h:p/?replicaSet=x -> mongodb://h:p/random?replicaSet=x */
function withDb(uri, db) {
  return uri.replace(/\/(\?|$)/, `/${db}$1`);
}

function shellQuote(s) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/** Paths as the user should type them: relative to the current directory when inside it. */
function shown(p) {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

/** scripts/*.js that one runs: not the ones other scripts load() as building blocks (ts_base.js). */
function runnableScripts() {
  const all = fs
    .readdirSync(SCRIPTS)
    .filter((f) => f.endsWith('.js'))
    .sort();
  const loaded = new Set();
  for (const f of all) {
    const text = fs.readFileSync(path.join(SCRIPTS, f), 'utf8');
    for (const m of text.matchAll(/^\s*load\(__dirname \+ ['"]\/([^'"/]+\.js)['"]\)/gm)) loaded.add(m[1]);
  }
  return all.filter((f) => !loaded.has(f));
}

/** `npx mongosh` finds the lab's mongosh only from inside the lab's directory; elsewhere, its path. */
function mongoshCommand() {
  const inside = !path.relative(ROOT, process.cwd()).startsWith('..');
  return inside ? 'npx mongosh' : shellQuote(MONGOSH_BIN);
}

function readyText(server, npm) {
  const scripts = runnableScripts();
  const mongosh = mongoshCommand();
  const q = (u) => `"${u}"`;
  const dbUri = withDb(server.uri, SCRIPT_DB);
  const where = scripts.includes('where_vs_agg.js') ? 'where_vs_agg.js' : scripts[0];
  const lines = [
    '',
    `The drop-in scripts, from ${process.cwd()} (paste one into another terminal; database "${SCRIPT_DB}"):`,
    ...scripts.map((f) => `  ${mongosh} ${q(dbUri)} ${shellQuote(shown(path.join(SCRIPTS, f)))}`),
    'Parameters go before the file, e.g.:',
    `  ${mongosh} ${q(dbUri)} --eval 'var N = 100000, RUNS = 3' ${shellQuote(shown(path.join(SCRIPTS, where)))}`,
    'What each script does and needs: its head comment (parameters, which data it expects).',
    'The studies, and your CSV files, on this server:',
    `  ${selfCommand()} run all --uri ${q(server.uri)}`,
    `  ${selfCommand()} import FILE.csv --uri ${q(server.uri)}`,
    '',
    server.dbPath
      ? `Ctrl-C stops the server; the data stays in ${server.dbPath} (\`mongo-perf-lab server --dbpath ${shellQuote(server.dbPath)}\` starts it again).`
      : 'Ctrl-C stops the server and deletes its data (--dbpath DIR keeps it).',
    stopLine(npm),
  ];
  return lines.join('\n') + '\n';
}

/**
 * The line that stops this command from elsewhere (in the background, under nohup): its own pid,
 * not mongod's, which would leave the command to report a death. Under npx, npm's pid ($!) too.
 */
function stopLine(npm) {
  const via = npm ? `, or \`kill ${npm.npm}\` (npx's pid, the $! of \`npx mongo-perf-lab server &\`)` : '';
  return `From another terminal: \`kill ${process.pid}\` (this command's pid)${via} stops it the same way.`;
}

function describe(server) {
  const kind = server.replSetName
    ? `replica set "${server.replSetName}" of ${server.members.length} member${server.members.length > 1 ? 's' : ''}`
    : 'standalone';
  const cache = server.cacheSizeBytes ? `, cache ${(server.cacheSizeBytes / 2 ** 30).toFixed(2)} GB` : '';
  const head = `MongoDB ${server.version} (${server.storageEngine}${cache}), ${kind}:`;
  const who = server.members.map((m) => `  127.0.0.1:${m.port}  pid ${m.pid}  data ${m.dbPath}`);
  return [head, ...who, 'Connection string:'].join('\n') + '\n';
}

/** The port to use: --port (checked free), else the one a kept --dbpath had when it is free. */
async function choosePort(o, dbPath) {
  let port = o.port;
  if (dbPath) {
    const meta = inspectDbPath(dbPath);
    // Same port as last time when it is free, so the URI pasted yesterday still works.
    if (!port && meta && meta.port) {
      port = await checkPortFree(meta.port, '--dbpath').then(
        () => meta.port,
        () => undefined,
      );
    }
  }
  if (o.port) {
    for (let i = 0; i < (o.replset || 1); i++) await checkPortFree(o.port + i, '--port');
  }
  return port;
}

async function start(o, port, dbPath, stderr) {
  // Loaded when a server starts: the driver and mongodb-memory-server are not needed for --help.
  const { startStandalone, startReplSet } = require('../infra/server');
  const log = (m) => stderr.write(m + '\n');
  stderr.write(o.replset ? `starting a replica set of ${o.replset} mongod...\n` : 'starting mongod...\n');
  const server = o.replset
    ? await startReplSet({ members: o.replset, port, cacheSizeGB: o.cacheSizeGB, log })
    : await startStandalone({ port, dbPath, cacheSizeGB: o.cacheSizeGB, log });
  if (dbPath) {
    fs.writeFileSync(
      path.join(dbPath, META),
      JSON.stringify(
        {
          port: server.members[0].port,
          version: server.version,
          lastStarted: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
  }
  return server;
}

/**
 * Resolves when a signal asks to stop ({sig}), a mongod exits on its own ({died, code, signal}), or
 * the server stops answering ({frozen}: paused or hung; lib/infra/liveness.js).
 */
function stopOrDeath(server, stopRequested) {
  let watch;
  const frozen = new Promise((resolve) => {
    watch = liveness.watch(server.uri, { onFailure: (e) => resolve({ frozen: e }) });
  });
  return Promise.race([
    stopRequested,
    frozen,
    new Promise((resolve) => {
      // Ctrl-C in a terminal signals mongod too (same process group): let our own signal win.
      server.onUnexpectedExit((m, code, signal) => setTimeout(() => resolve({ died: m, code, signal }), 300));
    }),
  ]).finally(() => watch.stop());
}

/** The line for a mongod that died or froze while serving. */
function endLine(server, how) {
  if (how.frozen) {
    const who = server.members.map((m) => `pid ${m.pid}, port ${m.port}`).join('; ');
    return `mongod (${who}) stopped answering: no reply to a ping for ${Math.round(liveness.frozenAfterMs() / 1000)} s (paused with SIGSTOP or a debugger, or hung); it is killed; start the server again`;
  }
  const disk = server.disk && server.disk.line();
  const why = disk ? `: ${disk}` : '';
  return `mongod (pid ${how.died.pid}, port ${how.died.port}) exited on its own (${how.signal || `code ${how.code}`})${why}; stopping`;
}

/** The one line for a failed start or run; returns the exit code (2: the user's input). */
function reportFailure(e, o, stderr) {
  // mongod's own refusal of a directory another mongod (not the lab's) holds: the user's input too
  if (o.dbPath && /DBPathInUse|Unable to lock the lock file|already running on the dbpath/i.test(e.message || ''))
    e = inUse(path.resolve(o.dbPath));
  const known = e instanceof ServerError || e instanceof NoMongodError;
  const fsError = typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code);
  let msg = known ? e.message : fsError ? friendly(e) : (e.message || String(e)).split('\n')[0];
  if (/already in use/i.test(msg) && !known)
    msg = `--port: ${msg}; choose another port, or leave --port out for a free one`;
  stderr.write(`mongo-perf-lab server: ${msg}\n`);
  if (!known && o.debug) stderr.write(`${e.stack}\n`);
  return e instanceof ServerError ? 2 : 1;
}

/**
 * mongodb-memory-server 11 throws from a stream handler (so nobody can catch it) when it cannot
 * parse mongod's start-up error, e.g. two servers racing for one new --dbpath: one line, clean up.
 */
function crashHandler(stderr, dbPath, state) {
  return (e) => {
    // the winner of a race for the directory may not have written its pid yet: wait up to 6 s
    let holder = null;
    for (let i = 0; dbPath && !state.server && !holder && i < 60; i++) {
      holder = lockHolder(dbPath);
      if (!holder) processes.sleepSync(100);
    }
    const why = state.server
      ? 'unexpected error'
      : holder
        ? `--dbpath ${dbPath}: a mongod (pid ${holder}) is already running on this directory; stop it first, or use another directory`
        : `mongod did not start${dbPath ? ` on ${dbPath} (used by another mongod, or data of another MongoDB version?)` : ''}`;
    if (holder) {
      // the other server won the race for the directory: that is the whole reason
      stderr.write(`mongo-perf-lab server: ${why}\n`);
      process.exit(2);
    }
    const detail = e instanceof SyntaxError ? '' : `: ${String((e && e.message) || e).split('\n')[0]}`;
    stderr.write(`mongo-perf-lab server: ${why}${detail}\n`);
    if (state.server) state.server.killSync();
    process.exit(1);
  };
}

/** Serves until a signal or a mongod's death; then stops. Returns the exit code. */
async function serveUntilStopped(server, { stopRequested, signals, onSignal, dbPath, stderr }) {
  const how = await stopOrDeath(server, stopRequested);
  if (how.died || how.frozen) stderr.write(`mongo-perf-lab server: ${endLine(server, how)}\n`);
  else stderr.write(`\n${how.sig}: stopping the server...\n`);
  // A second Ctrl-C while stopping: stop at once (the 'exit' hook kills what is left).
  for (const sig of signals) process.removeListener(sig, onSignal);
  for (const sig of signals) process.once(sig, () => process.exit(130));
  // a paused mongod never handles a polite stop: SIGKILL (its journal keeps a kept --dbpath sound)
  if (how.frozen) server.killSync();
  await server.stop();
  stderr.write(dbPath ? `stopped; the data stays in ${dbPath}\n` : 'stopped; its data is deleted\n');
  return how.died || how.frozen ? 1 : 0;
}

/**
 * Runs the command until a signal. Returns the exit code; prints its own one-line errors.
 * @param {{port?: number, dbPath?: string, cacheSizeGB?: number, replset?: number}} o
 */
async function serverCommand(o, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const state = { server: null };
  const exitHook = () => {
    if (state.server) state.server.killSync();
  };
  // Listen before starting: a Ctrl-C during the start stops the server as soon as it is up,
  // instead of killing this process and leaving mongod's temporary data behind.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let onSignal;
  const stopRequested = new Promise((resolve) => {
    onSignal = (sig) => resolve({ sig });
  });
  for (const sig of signals) process.once(sig, onSignal);
  // Under npx a signal to npm never reaches this process (lib/infra/npm-parent.js): watch npm's shell.
  const npm = npmParent.npmParent();
  const unwatch = npm ? npmParent.watch(npm, (why) => onSignal(why)) : () => {};
  const dbPath = o.dbPath ? path.resolve(o.dbPath) : undefined;
  // Killed even by SIGKILL, this process takes its mongods and their temporary data with it: they
  // live in a run directory that a watchdog removes, after killing what still runs from it (and the
  // mongod of a kept --dbpath, which lives elsewhere). This command stops gracefully on its own signals.
  cleanup.install({ root: true, watchdog: true, signals: false });
  const onCrash = crashHandler(stderr, dbPath, state);
  process.on('uncaughtException', onCrash);
  try {
    if (dbPath && o.replset) {
      throw new ServerError(
        '--dbpath with --replset: not supported (a kept replica set does not restart cleanly yet); keep a standalone with --dbpath, or drop --dbpath',
      );
    }
    if (dbPath) state.unlock = lockDbPath(dbPath);
    const port = await choosePort(o, dbPath);
    process.once('exit', exitHook);
    state.server = await start(o, port, dbPath, stderr);
    for (const m of state.server.members) cleanup.watchPid(m.pid);
    stderr.write(describe(state.server));
    stdout.write(state.server.uri + '\n');
    stderr.write(readyText(state.server, npm));
    const code = await serveUntilStopped(state.server, { stopRequested, signals, onSignal, dbPath, stderr });
    state.server = null;
    return code;
  } catch (e) {
    const code = reportFailure(e, o, stderr);
    if (state.server)
      await state.server.stop().catch(() => {
        /* the error printed above is the one that matters */
      });
    state.server = null;
    return code;
  } finally {
    if (state.unlock) state.unlock();
    unwatch();
    process.removeListener('uncaughtException', onCrash);
    process.removeListener('exit', exitHook);
    for (const sig of signals) process.removeListener(sig, onSignal);
  }
}

module.exports = {
  name: 'server',
  usage,
  summary,
  about,
  options,
  notes,
  parse,
  run: (o) => serverCommand(o),
  serverCommand,
  ServerError,
  withDb,
};
