'use strict';
// A frozen server (mongod paused with SIGSTOP: it takes connections and never answers) is reported
// by every command that talks to it, in one line, within a bound: `run` (on the user's server and
// on its own embedded mongod), `findings`, `import` and `server`, frozen mid-run or before the
// command connects. And a server that answers pings while one operation runs long (a command the
// server holds for twice the freeze window) is not frozen: the import finishes.
// Everything through the real CLI against a real mongod, resumed (SIGCONT) and killed in cleanup.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { FROZEN_AFTER_MS } = require('../lib/infra/liveness');
const { sleep, alive, until, freePort, lab, labSync, ownLines, oneLine, ownMongod } = require('./helpers');

// The freeze window: the first test runs with the real default (12 s), the others with the window
// shortened through LAB_FROZEN_AFTER_MS to a hello's timeout (4 s, the shortest it takes), so that
// each frozen server costs seconds instead of twelve. The bound asserted: the window, the hello
// timeout, and a wide margin for a busy machine.
const SHORT_MS = 4000;
const SHORT = { LAB_FROZEN_AFTER_MS: String(SHORT_MS) };
const boundMs = (windowMs) => windowMs + 25000;

describe('safety: a frozen server is reported in one line, in bounded time', function () {
  this.timeout(300000);
  let tmp;
  let mongod;
  let port;
  let uri;
  const frozen = () => mongod.proc.kill('SIGSTOP');
  const thawed = () => mongod.proc.kill('SIGCONT');
  const running = () => mongod && mongod.proc.exitCode === null && mongod.proc.signalCode === null;

  // This file is mostly waiting (freeze windows, a connect timeout, a held insert), little CPU. So
  // every test but the first and the last runs on a server of its own (a mongod of its own, the
  // embedded one, `server`'s), started together in the first hook, while the first test waits out
  // its 12 s window on `mongod`; each test awaits its own (its assertions inside, as written).
  const early = new Map();
  const startEarly = (name, fn) => {
    const p = fn();
    p.catch(() => {}); // reported by the test that awaits it
    early.set(name, p);
  };
  // Ports handed out here are never handed out again in this file: two of its mongods on one port
  // would freeze each other.
  const taken = new Set();
  const ownPort = async () => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  /** fn(m) with a mongod of its own (ownMongod), resumed and killed once fn is done. */
  const withOwnMongod = async (name, fn) => {
    const m = await ownMongod(fs.mkdtempSync(path.join(tmp, `db-${name}-`)), { port: await ownPort() });
    try {
      return await fn(m);
    } finally {
      if (m.proc.exitCode === null && m.proc.signalCode === null) m.proc.kill('SIGCONT');
      await m.kill9();
    }
  };

  before(async function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labtest-frozen-'));
    // the first test's mongod first: that test is the longest
    const first = ownPort().then((p) => ownMongod(fs.mkdtempSync(path.join(tmp, 'db-')), { port: p }));
    startEarly('connect', frozenBeforeConnect);
    startEarly('held', heldNotFrozen);
    startEarly('import', frozenWhileInsertHeld);
    startEarly('embedded', embeddedFrozen);
    startEarly('server', serverFrozen);
    mongod = await first;
    ({ port, uri } = mongod);
  });
  // (no fail point is turned off here: mongod waits for every thread a fail point holds to leave it)
  afterEach(function () {
    if (running()) thawed();
  });
  after(async function () {
    await Promise.allSettled(early.values());
    if (running()) {
      thawed();
      await mongod.kill9();
    }
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('run --uri, frozen mid-run: one line naming the server, the study and what to do; the database it made is named', async function () {
    // The real window (LAB_FROZEN_AFTER_MS unset): the report comes no sooner than it says.
    let stoppedAt = null;
    const r = lab(
      [
        'run',
        'where',
        '--profile',
        'tiny',
        '--uri',
        uri,
        '--db',
        'labtest_frozen_run',
        '--out',
        path.join(tmp, 'run1'),
        '--no-progress',
      ],
      {
        cwd: tmp,
        env: { LAB_FROZEN_AFTER_MS: '' },
        onOutput: (io) => {
          // once the study has begun (its heading), so that the line can name it
          if (stoppedAt === null && /^=== where:/m.test(io.out)) {
            frozen();
            stoppedAt = Date.now();
          }
        },
      },
    );
    const { code, at } = await r.done;
    expect(stoppedAt, r.io.err).to.not.equal(null);
    const line = oneLine(r, code);
    expect(line, r.io.err).to.match(
      new RegExp(
        `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${port}/? stopped answering during study where: ` +
          'no reply to a ping for \\d+ s \\(paused with SIGSTOP or a debugger, hung, or cut off by the network\\); check that it is running and not paused',
      ),
    );
    expect(line).to.match(
      /the database labtest_frozen_run this run created is left there: drop it once the server answers$/,
    );
    expect(r.io.err).to.not.match(/\n\s+at |MongoNetwork|MongoServerSelection/);
    expect(at - stoppedAt, `reported ${at - stoppedAt} ms after the freeze`).to.be.below(boundMs(FROZEN_AFTER_MS));
    expect(at - stoppedAt).to.be.at.least(FROZEN_AFTER_MS - 1000);
    thawed();
    const c = await MongoClient.connect(uri);
    await c.db('labtest_frozen_run').dropDatabase();
    await c.close();
  });

  // The three commands wait at once (each on its own connect timeout), on a mongod of their own
  // frozen before any of them starts; each test reads its own.
  const commands = [
    ['run', ['run', 'where', '--profile', 'tiny', '--db', 'labtest_frozen_x']],
    ['findings', ['findings', 'where', '--profile', 'tiny', '--db', 'labtest_frozen_x', '--quiet']],
    ['import', ['import', 'FILE', '--db', 'labtest_frozen_x', '--no-progress']],
  ];
  function frozenBeforeConnect() {
    return withOwnMongod('connect', async (m) => {
      const file = path.join(tmp, 'small.csv');
      fs.writeFileSync(file, 'a,b\n1,2\n');
      m.proc.kill('SIGSTOP');
      const runs = new Map();
      for (const [label, args] of commands) {
        const r = lab(
          [
            ...args.map((a) => (a === 'FILE' ? file : a)),
            '--uri',
            m.uri,
            ...(label === 'import' ? [] : ['--out', path.join(tmp, `out-${label}`)]),
          ],
          { cwd: tmp },
        );
        runs.set(label, { r, done: r.done });
      }
      for (const run of runs.values()) run.result = await run.done;
      return { port: m.port, runs };
    });
  }

  describe('the server frozen before the command connects', function () {
    let frozenPort;
    let runs;
    before(async function () {
      ({ port: frozenPort, runs } = await early.get('connect'));
    });

    for (const [label] of commands) {
      it(`${label}, the server frozen before it connects: one line, "stopped answering", well within the bound`, function () {
        const { r, result } = runs.get(label);
        const { code, ms } = result;
        expect(oneLine(r, code)).to.match(
          new RegExp(
            `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${frozenPort}/? stopped answering: it took the connection ` +
              'but sent no reply within 5 s \\(paused with SIGSTOP or a debugger, hung, or a firewall dropping packets\\): resume or restart it',
          ),
        );
        expect(r.io.err).to.not.match(/\n\s+at /);
        expect(ms, `reported after ${ms} ms`).to.be.below(boundMs(FROZEN_AFTER_MS));
      });
    }
  });

  function heldNotFrozen() {
    return withOwnMongod('held', async (m) => {
      const holdMs = 2 * SHORT_MS + 2000;
      const file = path.join(tmp, 'slow.csv');
      fs.writeFileSync(file, 'k,v\n1,2\n3,4\n');
      const c = await MongoClient.connect(m.uri);
      await c.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['insert'], blockConnection: true, blockTimeMS: holdMs },
      });
      await c.close();
      const r = lab(
        ['import', file, '--uri', m.uri, '--db', 'labtest_frozen_slow', '--coll', 'slow', '--no-progress'],
        {
          cwd: tmp,
          env: SHORT,
        },
      );
      const { code, ms } = await r.done;
      expect(code, r.io.err).to.equal(0);
      expect(ms).to.be.at.least(holdMs);
      expect(r.io.out).to.contain('rows read 2 = stored 2');
    });
  }
  it('a server that answers pings while it holds an operation for twice the window is not frozen: the import finishes', function () {
    return early.get('held');
  });

  function frozenWhileInsertHeld() {
    return withOwnMongod('import', async (m) => {
      const file = path.join(tmp, 'rows.csv');
      fs.writeFileSync(file, 'k,v\n' + Array.from({ length: 20000 }, (_, i) => `${i},${i * 3}`).join('\n') + '\n');
      const c = await MongoClient.connect(m.uri);
      // the first insert held 40 s: the server is paused while it holds it
      await c.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { times: 1 },
        data: { failCommands: ['insert'], blockConnection: true, blockTimeMS: 40000 },
      });
      const r = lab(['import', file, '--uri', m.uri, '--db', 'labtest_frozen_imp', '--coll', 'held', '--no-progress'], {
        cwd: tmp,
        env: SHORT,
      });
      // freeze once an insert of the import is being held (the first one: its claim of the database,
      // in perflab_fixtures). A command held by failCommand shows in $currentOp on the database's $cmd
      // namespace, not on a collection's.
      const held = async () =>
        (
          await c
            .db('admin')
            .aggregate([
              { $currentOp: {} },
              { $match: { 'command.insert': { $exists: true }, 'command.$db': 'labtest_frozen_imp' } },
            ])
            .toArray()
        ).length > 0;
      expect(await until(held, 60000, 100), r.io.err).to.equal(true);
      await c.close();
      m.proc.kill('SIGSTOP');
      const stoppedAt = Date.now();
      const { code, at } = await r.done;
      expect(oneLine(r, code)).to.match(
        new RegExp(
          `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${m.port}/? stopped answering during the import into labtest_frozen_imp\\.held: no reply to a ping`,
        ),
      );
      expect(r.io.err).to.not.match(/\n\s+at /);
      expect(at - stoppedAt, `reported ${at - stoppedAt} ms after the freeze`).to.be.below(boundMs(SHORT_MS));
    });
  }
  it('import, frozen while the server holds its inserts: one line naming the import, within the bound', function () {
    return early.get('import');
  });

  async function embeddedFrozen() {
    let pid = null;
    let stoppedAt = null;
    const r = lab(['run', 'where', '--profile', 'tiny', '--out', path.join(tmp, 'run2'), '--no-progress'], {
      cwd: tmp,
      env: { MONGODB_URI: '', ...SHORT },
      onOutput: (io) => {
        const m = /^server: embedded mongod \(pid (\d+), data (\S+)\)/m.exec(io.err.replace(/\n +/g, ' ')); // run wraps at 100 columns
        if (m && pid === null && /^=== where:/m.test(io.out)) {
          pid = Number(m[1]);
          process.kill(pid, 'SIGSTOP');
          stoppedAt = Date.now();
        }
      },
    });
    try {
      const { code, at } = await r.done;
      expect(pid, r.io.err).to.not.equal(null);
      expect(oneLine(r, code)).to.match(
        new RegExp(
          `^mongo-perf-lab: the embedded mongod \\(pid ${pid}, mongodb://127\\.0\\.0\\.1:\\d+\\) stopped answering during study where: ` +
            'no reply to a ping for \\d+ s .*; it is killed and its data removed; run again$',
        ),
      );
      expect(at - stoppedAt).to.be.below(boundMs(SHORT_MS));
      for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
      expect(alive(pid), 'the frozen mongod is killed').to.equal(false);
      const dataDir = /data (\S+)\)/.exec(r.io.err.replace(/\n +/g, ' '))[1];
      expect(fs.existsSync(dataDir), dataDir).to.equal(false);
    } finally {
      if (pid && alive(pid)) {
        process.kill(pid, 'SIGCONT');
        process.kill(pid, 'SIGKILL');
      }
    }
  }
  it('run on its embedded mongod, frozen mid-run: one line with its pid; it is killed and its data removed', function () {
    return early.get('embedded');
  });

  async function serverFrozen() {
    let member = null;
    let stoppedAt = null;
    const r = lab(['server'], {
      cwd: tmp,
      env: { MONGODB_URI: '', ...SHORT },
      onOutput: (io) => {
        const m = /127\.0\.0\.1:(\d+)\s+pid (\d+)/.exec(io.err);
        if (m && member === null && /Ctrl-C stops/.test(io.err)) {
          member = { port: Number(m[1]), pid: Number(m[2]) };
          process.kill(member.pid, 'SIGSTOP');
          stoppedAt = Date.now();
        }
      },
    });
    try {
      const { code, at } = await r.done;
      expect(member, r.io.err).to.not.equal(null);
      expect(oneLine(r, code), r.io.err).to.equal(
        `mongo-perf-lab server: mongod (pid ${member.pid}, port ${member.port}) stopped answering: ` +
          `no reply to a ping for ${SHORT_MS / 1000} s (paused with SIGSTOP or a debugger, or hung); it is killed; start the server again`,
      );
      expect(at - stoppedAt).to.be.below(boundMs(SHORT_MS));
      expect(alive(member.pid)).to.equal(false);
    } finally {
      if (member && alive(member.pid)) {
        process.kill(member.pid, 'SIGCONT');
        process.kill(member.pid, 'SIGKILL');
      }
    }
  }
  it('server: its mongod frozen: one line, exit 1, the mongod killed', function () {
    return early.get('server');
  });

  it('a LAB_FROZEN_AFTER_MS that is not a whole number of ms >= 4000 is refused in one line, before any work', function () {
    for (const v of ['abc', '3999', '5s']) {
      const r = labSync(['list'], { cwd: tmp, env: { LAB_FROZEN_AFTER_MS: v } });
      expect(r.status, r.stderr).to.equal(2);
      expect(ownLines(r.stderr), r.stderr).to.deep.equal([
        `mongo-perf-lab: LAB_FROZEN_AFTER_MS: expected a whole number of milliseconds >= 4000, got "${v}": unset it for the default (12000)`,
      ]);
      expect(r.stdout).to.equal('');
    }
  });
});
