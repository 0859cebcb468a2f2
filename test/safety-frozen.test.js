'use strict';
// A frozen server (mongod paused with SIGSTOP: it takes connections and never answers) is reported
// by every command that talks to it, in one line, within a bound: `run` (on the user's server and
// on its own embedded mongod), `findings`, `import` and `server`, frozen mid-run or before the
// command connects. And a server that answers pings while one operation runs long (a command the
// server holds for 25 s, twice the freeze bound) is not frozen: the import finishes.
// Everything through the real CLI against a real mongod, resumed (SIGCONT) and killed in cleanup.
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { findMongod } = require('../lib/infra/mongod-binary');
const { FROZEN_AFTER_MS } = require('../lib/infra/liveness');

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// The bound asserted: the freeze limit (12 s), the hello timeout, and a wide margin for a busy machine.
const BOUND_MS = FROZEN_AFTER_MS + 25000;

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * The CLI as a child process: {child, io, done}; onOutput(io) is called on every chunk of output.
 * done resolves {code, ms (since spawn), at (Date.now() at exit)}.
 */
function lab(args, { cwd, env = {}, onOutput = () => {} } = {}) {
  const t0 = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = { out: '', err: '' };
  child.stdout.on('data', (d) => {
    io.out += d;
    onOutput(io);
  });
  child.stderr.on('data', (d) => {
    io.err += d;
    onOutput(io);
  });
  const done = new Promise((resolve) =>
    child.on('close', (code) => resolve({ code, ms: Date.now() - t0, at: Date.now() })),
  );
  return { child, io, done };
}

/** The lines a command printed as its own (not progress): "mongo-perf-lab...:" lines. */
const ownLines = (text) => text.split('\n').filter((l) => /^mongo-perf-lab( server)?:/.test(l));

describe('safety: a frozen server is reported in one line, in bounded time', function () {
  this.timeout(300000);
  let tmp;
  let proc;
  let port;
  let uri;
  const frozen = () => proc.kill('SIGSTOP');
  const thawed = () => proc.kill('SIGCONT');

  before(async function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labtest-frozen-'));
    port = await freePort();
    uri = `mongodb://127.0.0.1:${port}`;
    const dbpath = fs.mkdtempSync(path.join(tmp, 'db-'));
    proc = spawn(
      findMongod().binary,
      [
        '--port',
        String(port),
        '--dbpath',
        dbpath,
        '--bind_ip',
        '127.0.0.1',
        '--nounixsocket',
        '--wiredTigerCacheSizeGB',
        '0.25',
        '--quiet',
        '--setParameter',
        'enableTestCommands=1',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 300; i++) {
      const c = new MongoClient(uri, { serverSelectionTimeoutMS: 300 });
      try {
        await c.db('admin').command({ ping: 1 });
        return;
      } catch (e) {
        await sleep(100);
      } finally {
        await c.close();
      }
    }
    throw new Error('mongod did not come up');
  });
  // (no fail point is turned off here: mongod waits for every thread a fail point holds to leave it)
  afterEach(function () {
    if (proc && proc.exitCode === null) thawed();
  });
  after(function () {
    if (proc && proc.exitCode === null) {
      thawed();
      proc.kill('SIGKILL');
    }
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('run --uri, frozen mid-run: one line naming the server, the study and what to do; the database it made is named', async function () {
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
    expect(code, r.io.err).to.equal(1);
    const lines = ownLines(r.io.err);
    expect(lines, r.io.err).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(
        `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${port}/? stopped answering during study where: ` +
          'no reply to a ping for \\d+ s \\(paused with SIGSTOP or a debugger, hung, or cut off by the network\\); check that it is running and not paused',
      ),
    );
    expect(lines[0]).to.match(
      /the database labtest_frozen_run this run created is left there: drop it once the server answers$/,
    );
    expect(r.io.err).to.not.match(/\n\s+at |MongoNetwork|MongoServerSelection/);
    expect(at - stoppedAt, `reported ${at - stoppedAt} ms after the freeze`).to.be.below(BOUND_MS);
    expect(at - stoppedAt).to.be.at.least(FROZEN_AFTER_MS - 1000);
    thawed();
    const c = await MongoClient.connect(uri);
    await c.db('labtest_frozen_run').dropDatabase();
    await c.close();
  });

  for (const [label, args] of [
    ['run', ['run', 'where', '--profile', 'tiny', '--db', 'labtest_frozen_x']],
    ['findings', ['findings', 'where', '--profile', 'tiny', '--db', 'labtest_frozen_x', '--quiet']],
    ['import', ['import', 'FILE', '--db', 'labtest_frozen_x', '--no-progress']],
  ]) {
    it(`${label}, the server frozen before it connects: one line, "stopped answering", well within the bound`, async function () {
      const file = path.join(tmp, 'small.csv');
      fs.writeFileSync(file, 'a,b\n1,2\n');
      frozen();
      const r = lab(
        [
          ...args.map((a) => (a === 'FILE' ? file : a)),
          '--uri',
          uri,
          ...(label === 'import' ? [] : ['--out', path.join(tmp, `out-${label}`)]),
        ],
        { cwd: tmp },
      );
      const { code, ms } = await r.done;
      expect(code, r.io.err).to.equal(1);
      const lines = ownLines(r.io.err);
      expect(lines, r.io.err).to.have.length(1);
      expect(lines[0]).to.match(
        new RegExp(
          `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${port}/? stopped answering: it took the connection ` +
            'but sent no reply within 5 s \\(paused with SIGSTOP or a debugger, hung, or a firewall dropping packets\\): resume or restart it',
        ),
      );
      expect(r.io.err).to.not.match(/\n\s+at /);
      expect(ms, `reported after ${ms} ms`).to.be.below(BOUND_MS);
    });
  }

  it('a server that answers pings while it holds an operation for 25 s is not frozen: the import finishes', async function () {
    const file = path.join(tmp, 'slow.csv');
    fs.writeFileSync(file, 'k,v\n1,2\n3,4\n');
    const c = await MongoClient.connect(uri);
    await c.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], blockConnection: true, blockTimeMS: 25000 },
    });
    await c.close();
    const r = lab(['import', file, '--uri', uri, '--db', 'labtest_frozen_slow', '--coll', 'slow', '--no-progress'], {
      cwd: tmp,
    });
    const { code, ms } = await r.done;
    expect(code, r.io.err).to.equal(0);
    expect(ms).to.be.at.least(25000);
    expect(r.io.out).to.contain('rows read 2 = stored 2');
  });

  it('import, frozen while the server holds its inserts: one line naming the import, within the bound', async function () {
    const file = path.join(tmp, 'rows.csv');
    fs.writeFileSync(file, 'k,v\n' + Array.from({ length: 20000 }, (_, i) => `${i},${i * 3}`).join('\n') + '\n');
    const c = await MongoClient.connect(uri);
    // the first insert held 40 s: the import is then surely mid-way when the server is paused
    await c.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: { times: 1 },
      data: { failCommands: ['insert'], blockConnection: true, blockTimeMS: 40000 },
    });
    const r = lab(['import', file, '--uri', uri, '--db', 'labtest_frozen_imp', '--coll', 'held', '--no-progress'], {
      cwd: tmp,
    });
    // freeze once an insert is being held: the import is then surely mid-way
    for (let i = 0; i < 300; i++) {
      const ops = await c
        .db('admin')
        .aggregate([{ $currentOp: {} }, { $match: { ns: 'labtest_frozen_imp.held', 'command.insert': 'held' } }])
        .toArray();
      if (ops.length) break;
      await sleep(100);
    }
    await c.close();
    frozen();
    const stoppedAt = Date.now();
    const { code, at } = await r.done;
    expect(code, r.io.err).to.equal(1);
    const lines = ownLines(r.io.err);
    expect(lines, r.io.err).to.have.length(1);
    expect(lines[0]).to.match(
      new RegExp(
        `^mongo-perf-lab: the server at mongodb://127\\.0\\.0\\.1:${port}/? stopped answering during the import into labtest_frozen_imp\\.held: no reply to a ping`,
      ),
    );
    expect(r.io.err).to.not.match(/\n\s+at /);
    expect(at - stoppedAt, `reported ${at - stoppedAt} ms after the freeze`).to.be.below(BOUND_MS);
  });

  it('run on its embedded mongod, frozen mid-run: one line with its pid; it is killed and its data removed', async function () {
    let pid = null;
    let stoppedAt = null;
    const env = { MONGODB_URI: '' };
    const r = lab(['run', 'where', '--profile', 'tiny', '--out', path.join(tmp, 'run2'), '--no-progress'], {
      cwd: tmp,
      env,
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
      expect(code, r.io.err).to.equal(1);
      const lines = ownLines(r.io.err);
      expect(lines, r.io.err).to.have.length(1);
      expect(lines[0]).to.match(
        new RegExp(
          `^mongo-perf-lab: the embedded mongod \\(pid ${pid}, mongodb://127\\.0\\.0\\.1:\\d+\\) stopped answering during study where: ` +
            'no reply to a ping for \\d+ s .*; it is killed and its data removed; run again$',
        ),
      );
      expect(at - stoppedAt).to.be.below(BOUND_MS);
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
  });

  it('server: its mongod frozen: one line, exit 1, the mongod killed', async function () {
    let member = null;
    let stoppedAt = null;
    const r = lab(['server'], {
      cwd: tmp,
      env: { MONGODB_URI: '' },
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
      expect(code, r.io.err).to.equal(1);
      const lines = ownLines(r.io.err);
      expect(lines, r.io.err).to.deep.equal([
        `mongo-perf-lab server: mongod (pid ${member.pid}, port ${member.port}) stopped answering: ` +
          `no reply to a ping for ${FROZEN_AFTER_MS / 1000} s (paused with SIGSTOP or a debugger, or hung); it is killed; start the server again`,
      ]);
      expect(at - stoppedAt).to.be.below(BOUND_MS);
      expect(alive(member.pid)).to.equal(false);
    } finally {
      if (member && alive(member.pid)) {
        process.kill(member.pid, 'SIGCONT');
        process.kill(member.pid, 'SIGKILL');
      }
    }
  });
});
