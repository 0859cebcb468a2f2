'use strict';
// One line for any error a user can meet: what went wrong and what to do. bin/mongo-perf-lab.js
// prints only this line (plus the stack with --debug or DEBUG=mongo-perf-lab).
//
//   friendly(err, {uri}) -> string      one line, no stack; the URI's password is never shown
//   LabError(message)                   an error whose message is already the line to show
//   ForeignDataError, TargetError, LoadError (InterruptedLoad), UsageError (InputFileError),
//   ParameterError, GuidanceError (its whole message shown, several lines): LabError kinds
//   debugEnabled(argv)                  --debug or DEBUG containing mongo-perf-lab
//   CONNECT_TIMEOUT_MS (5000)           default server selection / connect timeout
//   clientOptions(uri)                  MongoClient options with that timeout, unless the URI sets its own
//   explainGone(fn)                     fn() -> a line or null: why a server the lab started went away
//                                       (its log said the disk is full); friendly() prefers it
//   noteEmbedded(host:port, pid|null)   a mongod this process started, named as such in its lines
//   during(text), frozenLine(uri, o)    what the command does now; the line for a server that froze
//
// Why: driver errors (MongoServerSelectionError, ECONNRESET, code 13 ...) say what happened at the
// socket, not what the user should do; a missing privilege used to be reported as "cannot reach".

const pendingDrops = require('./pending-drops');

const CONNECT_TIMEOUT_MS = 5000;

class LabError extends Error {
  constructor(message, opts) {
    super(message, opts);
    this.name = this.constructor.name;
  }
}
class UsageError extends LabError {}
// A file given as input that cannot be used (not JSON, not a result file, a record the lab did not
// write): bad input (exit 2), one line naming the file and the record; no --help hint, which cannot
// fix a file.
class InputFileError extends UsageError {}
class ForeignDataError extends LabError {}
class TargetError extends LabError {}
class LoadError extends LabError {}
// A load stopped by an interrupt: its acknowledged prefix stays marked, so a re-run resumes it.
class InterruptedLoad extends LoadError {}
// An error whose whole message is the text to show: several lines, each a way out (no mongod could
// be found or fetched: lib/infra/mongod-binary.js NoMongodError).
class GuidanceError extends LabError {}

// The code the shell side puts on an error about a study parameter (scripts/lib/params.js
// paramError: a value of the wrong kind, an unknown name, an unknown variant): the user's input, not
// a bug.
const PARAMETER_CODE = require('../../scripts/lib/params').CODE;

/** A study parameter refused (from --set, --docs, ... or a script's --eval): a usage error. */
class ParameterError extends UsageError {
  /** The ParameterError an error from the shell side stands for, or null when it is another error. */
  static of(e) {
    if (!e || e instanceof ParameterError) return e || null;
    return e.code === PARAMETER_CODE ? new ParameterError(firstLine(e.message), { cause: e }) : null;
  }

  /** Awaits fn(), turning a shell-side parameter error into a ParameterError. */
  static async from(fn) {
    try {
      return await fn();
    } catch (e) {
      throw ParameterError.of(e) || e;
    }
  }
}

function redact(uri) {
  return String(uri).replace(/\/\/([^@/]*)@/, '//***@');
}

/**
 * A command line as it may be written into a result file or a report: the values of --uri and
 * --servers left out, and any other connection string's user and password masked (a connection
 * string may carry a password, and result files are shared).
 */
function safeArgv(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^(--uri|--servers)(=.*)?$/.exec(argv[i]);
    if (m) {
      out.push(m[1], '...');
      if (!m[2]) i++;
    } else out.push(/:\/\//.test(argv[i]) ? redact(argv[i]) : argv[i]);
  }
  return out;
}

function clientOptions(uri, extra = {}) {
  const o = { ...extra };
  const u = String(uri || '');
  if (!/[?&]serverSelectionTimeoutMS=/i.test(u)) o.serverSelectionTimeoutMS = CONNECT_TIMEOUT_MS;
  if (!/[?&]connectTimeoutMS=/i.test(u)) o.connectTimeoutMS = CONNECT_TIMEOUT_MS;
  return o;
}

function debugEnabled(argv = process.argv) {
  return argv.includes('--debug') || /(^|,)\s*(mongo-perf-lab|\*)\s*(,|$)/.test(process.env.DEBUG || '');
}

const AUTH_CODES = new Set([18]); // AuthenticationFailed
const PRIVILEGE_CODES = new Set([13, 8000]); // Unauthorized, AtlasError (user lacks the action)
const GONE_CODES = new Set([91, 11600, 11602, 189, 10107, 13435, 13436, 6, 89, 9001]);

// What the command is doing now ("study where", "the import into db.coll"), for the lines about a
// server that stopped answering (lib/infra/liveness.js sets it).
let doing = null;

function during(text) {
  doing = text;
}

/**
 * The one line for a server that stopped answering (lib/infra/liveness.js's verdict, or the
 * driver's own monitor timing out first on a client with a short connectTimeoutMS).
 */
function frozenLine(uri, { pid, embedded, silentMs, leftDatabases = [] }) {
  const who = embedded ? `the embedded mongod (pid ${pid}, ${redact(uri)})` : `the server at ${redact(uri)}`;
  const what = embedded
    ? 'it is killed and its data removed; run again'
    : 'check that it is running and not paused (kill -CONT <its pid>), overloaded or cut off, then run again; loads resume where they stopped';
  const left = leftDatabases.length
    ? `; the database ${leftDatabases.join(', ')} this run created is left there: drop it once the server answers`
    : '';
  return (
    `${who} stopped answering${doing ? ` during ${doing}` : ''}: no reply to a ping for ${Math.round(silentMs / 1000)} s ` +
    `(paused with SIGSTOP or a debugger, hung, or cut off by the network); ${what}${left}`
  );
}

// host:port -> pid of the mongods this process started (lib/infra/server.js), so that a line about
// one of them names it as the embedded mongod it is.
const embeddedPids = new Map();

function noteEmbedded(address, pid) {
  if (pid) embeddedPids.set(address, pid);
  else embeddedPids.delete(address);
}

// Why a server went away, as only the process that started it can know (lib/infra/server.js reads
// its mongod's log): preferred to "went away" or "cannot reach", which would send the user looking
// at the network.
const goneExplainers = [];

function explainGone(fn) {
  goneExplainers.push(fn);
}

function goneCause() {
  for (const fn of goneExplainers) {
    const line = fn();
    if (line) return line;
  }
  return null;
}

/**
 * True when a server selection failed because no server sent anything back within the timeout (a
 * paused or hung mongod takes the connection and stays silent): every server is still unknown, with
 * no error yet (its first hello still waits) or a timeout; not one that refused or was not found.
 */
function noReplyAtConnect(err) {
  const servers = err && err.reason && err.reason.servers;
  if (!servers || typeof servers.values !== 'function' || !servers.size) return false;
  return [...servers.values()].every(
    (d) =>
      d.type === 'Unknown' &&
      (!d.error ||
        (/NetworkTimeout/.test(d.error.name || '') &&
          !/ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(String(d.error.message)))),
  );
}

function chain(err) {
  const out = [];
  for (let e = err, i = 0; e && i < 5; e = e.cause, i++) out.push(e);
  return out;
}

function firstLine(s) {
  return String(s || '')
    .split('\n')[0]
    .trim();
}

/**
 * The line for a server that cannot be reached, went away or stopped answering, or null for
 * another error. facts: {all, text, code, codeName, where} as friendly() computed them.
 */
function connectionLine(err, ctx, { all, text, code, codeName, where }) {
  const unreachable =
    /ServerSelection/.test(err.name || '') || /ECONNREFUSED|ETIMEDOUT|Server selection timed out/i.test(text);
  const gone =
    /ECONNRESET|EPIPE|connection .* closed|socket .*closed|InterruptedAtShutdown|ShutdownInProgress|MongoNetworkError/i.test(
      text,
    ) ||
    (GONE_CODES.has(code) && !/ServerSelection/i.test(err.name || ''));
  if ((unreachable || gone) && goneCause()) return goneCause();
  // The driver's monitor got no reply on its own connection and interrupted the operations in flight.
  if (
    all.some(
      (e) =>
        /PoolClearedOnNetworkError/.test(e.name || '') ||
        /interrupted due to server monitor timeout/.test(e.message || ''),
    )
  ) {
    const addr = (/Connection to (\S+) interrupted/.exec(text) || [])[1];
    const pid = embeddedPids.get(addr);
    const leftDatabases = pendingDrops.list();
    return frozenLine(ctx.uri || `mongodb://${addr || '?'}`, {
      pid,
      embedded: Boolean(pid),
      silentMs: CONNECT_TIMEOUT_MS,
      leftDatabases,
    });
  }
  if (unreachable) {
    // the wait the driver really gave (a run's own clients may wait longer than the 5 s connect)
    const waited = /after (\d+) ?ms/i.exec(text);
    const secs = Math.round((waited ? Number(waited[1]) : CONNECT_TIMEOUT_MS) / 1000);
    if (noReplyAtConnect(err)) {
      return (
        `the server${where} stopped answering: it took the connection but sent no reply within ${secs} s ` +
        '(paused with SIGSTOP or a debugger, hung, or a firewall dropping packets): resume or restart it (kill -CONT <its pid>), then run again'
      );
    }
    return (
      `cannot reach MongoDB${where} within ${secs} s: is it running, answering (not paused or overloaded) and reachable (host, port, TLS options, firewall)? ` +
      'Without --uri the lab starts its own mongod'
    );
  }
  if (gone) {
    return (
      `the server${where} went away during the run (${firstLine(codeName || err.message)}): check that it is running, then run again; ` +
      'loads resume where they stopped'
    );
  }
  return null;
}

/**
 * The line to print for err. ctx.uri (redacted) names the server; ctx.what says what was being done;
 * ctx.output and ctx.outputFlag: where the command writes and the option that moves it (--out).
 */
function friendly(err, ctx = {}) {
  if (!err) return 'unknown error';
  if (err instanceof GuidanceError) return err.message;
  if (err instanceof LabError) return firstLine(err.message);
  const where = ctx.uri ? ` at ${redact(ctx.uri)}` : '';
  const all = chain(err);
  const text = all.map((e) => `${e.name || ''} ${e.message || ''} ${e.code || ''}`).join(' | ');
  const code = all.map((e) => e.code).find((c) => typeof c === 'number');
  const codeName = all.map((e) => e.codeName).find(Boolean);
  if (err.code && String(err.code).startsWith('ERR_PARSE_ARGS')) return `${firstLine(err.message)}: see --help`;
  if (
    err.code === 'ERR_INVALID_URL' ||
    /Invalid (scheme|connection string)|URI must include|Invalid URL|MongoParseError|MongoAPIError.*URI/i.test(text)
  ) {
    return `the connection string is not valid (${firstLine(err.message)}): expected mongodb://host[:port][,host2...]/[authDb][?options] or mongodb+srv://...`;
  }
  if (AUTH_CODES.has(code) || /Authentication failed|auth.*failed|SCRAM/i.test(text)) {
    return `authentication failed${where}: check the user name and password, and the auth database (authSource=... or the /db part of the URI)`;
  }
  if (PRIVILEGE_CODES.has(code) || /not authorized|Unauthorized|requires authentication/i.test(text)) {
    // the server quotes the whole command (session ids and all): its name is what a person needs
    const said = firstLine(err.errmsg || err.message).replace(/to execute command \{ (\w+):.*\}/, 'to run $1');
    return (
      `the server${where} refused the operation: the user lacks a privilege (${said}); ` +
      'the lab needs readWrite on its database (and clusterMonitor for server facts), or run it against a server of your own'
    );
  }
  if (/ENOTFOUND|EAI_AGAIN|querySrv|getaddrinfo/i.test(text)) {
    return `cannot resolve the server's host name${where}: check the host in the URI`;
  }
  const conn = connectionLine(err, ctx, { all, text, code, codeName, where });
  if (conn) return conn;
  if (/ssl|tls|certificate/i.test(text)) {
    return `TLS handshake with the server${where} failed (${firstLine(err.message)}): check tls=, tlsCAFile= and the server's certificate`;
  }
  if (err.code === 'EROFS')
    return `cannot write ${err.path || 'a file'}: read-only file system; choose a writable location`;
  if (err.code === 'EACCES' || err.code === 'EPERM') {
    return `cannot write ${err.path || 'a file'}: permission denied; choose a writable location`;
  }
  if (err.code === 'ENOENT' && err.path) return `${err.path}: no such file or directory`;
  // The lab's own writes (reports, result files, rejects): a smaller --docs would not help them (a
  // server's full disk is goneCause's line); another place for the output does.
  if (err.code === 'ENOSPC') {
    const where = err.path || ctx.output;
    const elsewhere = ctx.outputFlag ? `, or write the output elsewhere with ${ctx.outputFlag}` : '';
    return `no space left on the device${where ? ` holding ${where}` : ''}: free some space there${elsewhere}, and run again`;
  }
  if (typeof code === 'number' && (err.errmsg || err.message)) {
    if (goneCause()) return goneCause(); // a server the lab started refused it as its disk filled
    return `MongoDB refused the operation${where}: ${firstLine(err.errmsg || err.message)} (${codeName || 'code ' + code})`;
  }
  return firstLine(err.message || String(err));
}

module.exports = {
  friendly,
  redact,
  safeArgv,
  clientOptions,
  debugEnabled,
  explainGone,
  noteEmbedded,
  during,
  frozenLine,
  CONNECT_TIMEOUT_MS,
  LabError,
  UsageError,
  InputFileError,
  ForeignDataError,
  TargetError,
  LoadError,
  InterruptedLoad,
  GuidanceError,
  ParameterError,
  PARAMETER_CODE,
};
