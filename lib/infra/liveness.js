'use strict';
// Is the server still answering? A frozen server (paused with SIGSTOP or a debugger, hung, cut off
// by a network that drops packets) still accepts connections but never replies: the lab's own
// operations would wait without end, since they set no socket timeout (a $where scan or a
// mapReduce at the sources' scales legitimately runs for minutes), and the driver's monitor gives
// up only after 30 s or more, with text about sockets. So each server a command works with is
// watched on a separate connection: a `hello` every second (the driver's own monitor, in poll
// mode, on a client of its own). No reply for FROZEN_AFTER_MS = frozen; a long operation on
// the server does not delay a hello. A server that refuses connections (stopped, restarting) is
// not frozen: loads retry it until it is back, other work reports it gone.
//
//   enable(what)              the command line uses the watch (bin/mongo-perf-lab.js); what: the
//                             command, named in the line until during() says more
//   watch(uri, o) -> {pause(), resume(), stop()}   o: {pid, embedded, onFailure(err)}; without
//                             onFailure a failure rejects failed(). A no-op until enable().
//   during(text)              what the command is doing now ("study where"), for the line
//   fail(err)                 a failure found elsewhere (an embedded mongod died): rejects failed()
//   failed() -> Promise       never resolves; rejects with the first ServerFrozenError/ServerGoneError
//   FROZEN_AFTER_MS           how long without a reply makes a server frozen (the default)
//   frozenAfterMs()           the window in force: FROZEN_AFTER_MS, or LAB_FROZEN_AFTER_MS
//
// A blocked event loop (a long synchronous step in this process) is not the server's silence:
// any lag of the loop over LAG_MS restarts the count.

const errors = require('./errors');
const { LabError, UsageError, frozenLine } = errors;
const pendingDrops = require('./pending-drops');

const FROZEN_AFTER_MS = 12000;
const HEARTBEAT_MS = 1000;
const HELLO_TIMEOUT_MS = 4000;
const TICK_MS = 500;
const LAG_MS = 2000;

class ServerFrozenError extends LabError {}
class ServerGoneError extends LabError {}

let enabled = null;
let rejectFailure;
let failedAlready = null;
const failure = new Promise((resolve, reject) => {
  rejectFailure = reject;
});
failure.catch(() => {
  /* awaited by the command line only; a library user who never enables the watch never sees it */
});

/**
 * The window in force. LAB_FROZEN_AFTER_MS shortens it for the test suite, whose frozen servers
 * would otherwise cost 12 s each; no shorter than a hello's timeout, since a silence is only known
 * once a hello has timed out.
 */
function frozenAfterMs() {
  const v = process.env.LAB_FROZEN_AFTER_MS;
  if (v === undefined || v === '') return FROZEN_AFTER_MS;
  if (!/^\d+$/.test(v) || Number(v) < HELLO_TIMEOUT_MS)
    throw new UsageError(
      `LAB_FROZEN_AFTER_MS: expected a whole number of milliseconds >= ${HELLO_TIMEOUT_MS}, got "${v}": ` +
        `unset it for the default (${FROZEN_AFTER_MS})`,
    );
  return Number(v);
}

function enable(what) {
  frozenAfterMs(); // a bad LAB_FROZEN_AFTER_MS is refused before any work
  enabled = what || 'the command';
  errors.during(enabled);
}

/** What the command is doing now ("study where"): named in the line (lib/infra/errors.js keeps it). */
function during(text) {
  errors.during(text);
}

function fail(err) {
  if (failedAlready) return;
  failedAlready = err;
  rejectFailure(err);
}

function failed() {
  return failure;
}

/** The failure that ended the command, if any (bin exits at once after reporting it). */
function failedWith() {
  return failedAlready;
}

function isNoAnswer(err) {
  for (let e = err, i = 0; e && i < 4; e = e.cause, i++) {
    if (/NetworkTimeout/.test(e.name || '') || /timed out/i.test(e.message || '')) return true;
  }
  return false;
}

/**
 * Watches uri until stop(). The state: silentSince = when the first unanswered hello of the
 * current silence was sent (null while the server answers or refuses).
 */
function watch(uri, { pid, embedded = false, onFailure } = {}) {
  const noop = { pause() {}, resume() {}, stop() {} };
  if (!enabled && !onFailure) return noop;
  const frozenAfter = frozenAfterMs();
  const st = { silentSince: null, paused: false, stopped: false, lastTick: Date.now(), client: null, retry: null };
  /** A check that got no reply for ms extends the silence (or starts it); any other failure ends it. */
  const unanswered = (err, ms) => {
    if (!isNoAnswer(err)) st.silentSince = null;
    else if (st.silentSince === null) st.silentSince = Date.now() - (ms || 0);
  };
  listen(uri, st, unanswered);
  const timer = setInterval(() => {
    const now = Date.now();
    const lag = now - st.lastTick - TICK_MS;
    st.lastTick = now;
    if (lag > LAG_MS || st.paused) st.silentSince = null;
    if (st.silentSince === null || now - st.silentSince < frozenAfter) return;
    const leftDatabases = pendingDrops.list();
    const err = new ServerFrozenError(
      frozenLine(uri, { pid, embedded, silentMs: now - st.silentSince, leftDatabases }),
    );
    stop();
    (onFailure || fail)(err);
  }, TICK_MS);
  timer.unref();
  function stop() {
    if (st.stopped) return;
    st.stopped = true;
    clearInterval(timer);
    clearTimeout(st.retry);
    st.client.close().catch(() => {
      /* a watcher's close: nothing depends on it */
    });
  }
  return {
    pause() {
      st.paused = true;
      st.silentSince = null;
    },
    resume() {
      st.paused = false;
      st.silentSince = null;
    },
    stop,
  };
}

/**
 * The watching client (st.client): the driver's monitor, in poll mode, reports each hello through
 * unanswered(err, ms) or a success. Its connect() does more than start the monitor: once the monitor
 * has its first reply, the driver opens one pooled connection, and when that connection's handshake
 * fails it closes the whole client, monitor included. A server frozen between the two replies (the
 * watch starts just before a run's first study, which is when a server is paused) left the watch
 * deaf for good, and the run waited on the driver's 30 s instead. So that failure counts like an
 * unanswered hello (its handshake waited HELLO_TIMEOUT_MS), and a new client takes over, a heartbeat
 * later (a server that answers the monitor but refuses the connection is not retried in a loop).
 */
function listen(uri, st, unanswered) {
  if (st.stopped) return;
  // Loaded here, not at the top: bin loads this module for every command, --help too, and the
  // driver costs ~0.1 s of each such process (the test suite starts them by the dozen).
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(uri, {
    serverMonitoringMode: 'poll',
    heartbeatFrequencyMS: HEARTBEAT_MS,
    connectTimeoutMS: HELLO_TIMEOUT_MS,
    // it only listens: connect() waits as long as the server is away, with the monitor running
    serverSelectionTimeoutMS: 24 * 3600 * 1000,
    maxPoolSize: 1,
  });
  st.client = client;
  // a client given up may still report its last hello (on its own closed connection): not news
  client.on('serverHeartbeatSucceeded', () => {
    if (st.client === client) st.silentSince = null;
  });
  client.on('serverHeartbeatFailed', (ev) => {
    if (st.client === client) unanswered(ev.failure, ev.duration);
  });
  client.connect().catch((err) => {
    if (st.stopped) return; // closed by stop()
    // closed already by the driver in the case above; closed here in any other, so that a client
    // given up never keeps a monitor polling beside its successor
    client.close().catch(() => {
      /* a watcher's close: nothing depends on it */
    });
    unanswered(err, HELLO_TIMEOUT_MS);
    st.retry = setTimeout(() => listen(uri, st, unanswered), HEARTBEAT_MS);
    st.retry.unref();
  });
}

module.exports = {
  enable,
  watch,
  during,
  fail,
  failed,
  failedWith,
  ServerFrozenError,
  ServerGoneError,
  FROZEN_AFTER_MS,
  frozenAfterMs,
};
