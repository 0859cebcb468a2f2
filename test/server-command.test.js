'use strict';
// `mongo-perf-lab server`: the MongoDB for users who have none. Everything through the real CLI:
// the command as a child process, the real mongosh CLI (through the printed, pasted line), SIGINT.
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { MONGOSH_BIN } = require('../lib/core/shell-runner');
const { BIN, alive, startLabServer: startServer } = require('./helpers');

const ROOT = path.resolve(__dirname, '..');

/** Ctrl-C (or another stop signal), then the exit code; SIGKILL after 30 s. */
async function interrupt(s, sig = 'SIGINT') {
  s.child.kill(sig);
  const timer = setTimeout(() => s.child.kill('SIGKILL'), 30000);
  const r = await s.exited;
  clearTimeout(timer);
  return r;
}

/** Runs a command line through sh from the lab's directory (what a user pastes). */
function sh(line, timeout = 300000) {
  return spawnSync('sh', ['-c', line], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, MONGOSH_NO_TELEMETRY: '1' },
  });
}

function mongoshEval(uri, js) {
  return spawnSync(process.execPath, [MONGOSH_BIN, uri, '--quiet', '--norc', '--eval', js], {
    encoding: 'utf8',
    timeout: 120000,
    env: { ...process.env, MONGOSH_NO_TELEMETRY: '1' },
  });
}

function runCommand(args) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
}

describe('mongo-perf-lab server', function () {
  const started = [];
  afterEach(async function () {
    for (const s of started.splice(0)) if (s.child.exitCode === null) await interrupt(s);
  });

  it('prints a URI mongosh connects to and a pasteable line per script, survives a script run, and cleans up on SIGINT', async function () {
    const s = await startServer([]);
    started.push(s);
    expect(s.uri).to.match(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    expect(s.io.out.trim()).to.equal(s.uri); // stdout carries the connection string alone
    // its own pid, not mongod's, in the line that stops it (no npm above it here)
    expect(s.io.err).to.contain(`From another terminal: \`kill ${s.child.pid}\` (this command's pid) stops it`);
    expect(s.members).to.have.length(1);
    expect(alive(s.members[0].pid)).to.equal(true);
    expect(fs.existsSync(s.members[0].dbPath)).to.equal(true);

    const ping = mongoshEval(s.uri, 'print(db.runCommand({ping: 1}).ok)');
    expect(ping.status, ping.stderr).to.equal(0);
    expect(ping.stdout.trim()).to.equal('1');

    // One line per runnable script; building blocks that others load() are left out.
    const lines = s.io.err.split('\n').filter((l) => /^\s+npx mongosh "/.test(l) && !/--eval/.test(l));
    const dir = path.join(ROOT, 'scripts');
    const all = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
    const loaded = all.filter((f) =>
      all.some((g) => fs.readFileSync(path.join(dir, g), 'utf8').includes(`load(__dirname + '/${f}')`)),
    );
    const printed = lines.map((l) => path.basename(l.trim().split(' ').pop())).sort();
    expect(printed).to.deep.equal(all.filter((f) => !loaded.includes(f)).sort());
    expect(printed).to.include.members(['where_vs_agg.js', 'agg_year.js']);
    if (all.includes('ts_base.js')) expect(printed).to.not.include('ts_base.js');

    // The printed line for where_vs_agg.js, pasted with small parameters, through npx.
    const line = lines.find((l) => l.endsWith('scripts/where_vs_agg.js')).trim();
    expect(line).to.equal(`npx mongosh "${s.uri}random" scripts/where_vs_agg.js`);
    const r = sh(
      line.replace(/ scripts\/where_vs_agg\.js$/, " --quiet --eval 'var N = 2000, RUNS = 1' scripts/where_vs_agg.js"),
    );
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim().length).to.be.greaterThan(0);
    expect(s.child.exitCode).to.equal(null); // still up after the script

    const { code } = await interrupt(s);
    expect(code).to.equal(0);
    expect(s.io.err).to.match(/stopped; its data is deleted/);
    expect(alive(s.members[0].pid)).to.equal(false);
    expect(fs.existsSync(s.members[0].dbPath)).to.equal(false);
  });

  it('--dbpath keeps the data, and the port, across two runs (stopped by SIGINT, then SIGHUP)', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perflab-server-test-'));
    try {
      const first = await startServer(['--dbpath', dir, '--cache-gb', '0.25']);
      started.push(first);
      expect(first.members[0].dbPath).to.equal(dir);
      let c = new MongoClient(first.uri);
      await c
        .db('random')
        .collection('kept')
        .insertMany([{ _id: 1 }, { _id: 2 }]);
      await c.close();
      // A second server on the same directory while the first runs: refused, the first unharmed.
      const again = runCommand(['server', '--dbpath', dir]);
      expect(again.status).to.equal(2);
      expect(again.stderr.trim().split('\n')).to.deep.equal([
        `mongo-perf-lab server: --dbpath ${dir}: a mongod (pid ${first.members[0].pid}) is already running on this directory; stop it first, or use another directory`,
      ]);
      expect(first.child.exitCode).to.equal(null);
      expect((await interrupt(first)).code).to.equal(0);
      expect(first.io.err).to.match(/the data stays in/);
      expect(alive(first.members[0].pid)).to.equal(false);
      expect(fs.existsSync(path.join(dir, 'WiredTiger'))).to.equal(true);

      const second = await startServer(['--dbpath', dir]);
      started.push(second);
      expect(second.uri).to.equal(first.uri); // the same port when it is free: yesterday's URI still works
      c = new MongoClient(second.uri);
      expect(await c.db('random').collection('kept').countDocuments()).to.equal(2);
      await c.close();
      expect((await interrupt(second, 'SIGHUP')).code).to.equal(0);
      expect(second.io.err).to.match(/SIGHUP: stopping the server/);
      expect(fs.existsSync(path.join(dir, 'WiredTiger'))).to.equal(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--replset 1 gives a replicaSet URI that mongosh and the driver use; SIGTERM cleans up', async function () {
    const s = await startServer(['--replset', '1']);
    started.push(s);
    expect(s.uri).to.match(/^mongodb:\/\/127\.0\.0\.1:\d+\/\?replicaSet=perflab$/);
    const r = mongoshEval(s.uri, 'print(db.hello().setName + " " + db.hello().isWritablePrimary)');
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('perflab true');
    expect(s.io.err).to.include(`npx mongosh "${s.uri.replace('/?', '/random?')}" scripts/where_vs_agg.js`);
    const c = new MongoClient(s.uri);
    await c.db('random').collection('x').insertOne({ _id: 1 }); // majority write concern: a real primary
    await c.close();
    expect((await interrupt(s, 'SIGTERM')).code).to.equal(0);
    expect(alive(s.members[0].pid)).to.equal(false);
    expect(fs.existsSync(s.members[0].dbPath)).to.equal(false);
  });

  it("prints its own pid and the line that stops it; under npx, SIGINT or SIGTERM to npm's pid ($!) stops mongod and deletes its data", async function () {
    this.timeout(240000);
    for (const sig of ['SIGINT', 'SIGTERM']) {
      // `npx mongo-perf-lab server &`: $! is npm's pid; npm runs `sh -c`, which runs the command
      const npx = spawn('npx', ['mongo-perf-lab', 'server'], {
        cwd: ROOT,
        env: { ...process.env, MONGODB_URI: '', npm_config_yes: 'true' },
      });
      const io = { out: '', err: '' };
      npx.stdout.on('data', (d) => (io.out += d));
      npx.stderr.on('data', (d) => (io.err += d));
      const exited = new Promise((resolve) => npx.on('exit', (code, signal) => resolve({ code, signal })));
      const t0 = Date.now();
      while (!/From another terminal/.test(io.err) && npx.exitCode === null && Date.now() - t0 < 120000)
        await new Promise((r) => setTimeout(r, 100));
      const stop = io.err.match(
        /^From another terminal: `kill (\d+)` \(this command's pid\), or `kill (\d+)` \(npx's pid/m,
      );
      expect(stop, io.err).to.not.equal(null);
      const [own, npm] = [Number(stop[1]), Number(stop[2])];
      expect(npm).to.equal(npx.pid);
      expect(own).to.not.equal(npx.pid);
      const [, port, mongod, dbPath] = io.err.match(/127\.0\.0\.1:(\d+)\s+pid (\d+)\s+data (\S+)/);
      expect(io.out.trim()).to.equal(`mongodb://127.0.0.1:${port}/`);
      expect(alive(Number(mongod))).to.equal(true);
      npx.kill(sig);
      const timer = setTimeout(() => process.kill(own, 'SIGKILL'), 30000);
      await exited;
      // npm may return before its grandchild has stopped mongod: wait for the command itself
      while (alive(own) && Date.now() - t0 < 150000) await new Promise((r) => setTimeout(r, 100));
      clearTimeout(timer);
      expect(alive(own), `${sig}: the command`).to.equal(false);
      expect(alive(Number(mongod)), `${sig}: mongod`).to.equal(false);
      expect(fs.existsSync(dbPath), `${sig}: ${dbPath}`).to.equal(false);
      expect(io.err).to.match(new RegExp(`npm \\(pid ${npm}\\) .*: stopping the server`));
    }
  });

  it('says so, exits 1 and deletes the data when its mongod dies under it', async function () {
    const s = await startServer([]);
    started.push(s);
    process.kill(s.members[0].pid, 'SIGKILL');
    const { code } = await s.exited;
    expect(code).to.equal(1);
    expect(s.io.err).to.include(
      `mongo-perf-lab server: mongod (pid ${s.members[0].pid}, port ${s.members[0].port}) exited on its own (SIGKILL); stopping`,
    );
    expect(fs.existsSync(s.members[0].dbPath)).to.equal(false);
  });

  it('refuses a busy port with one line, and bad options without starting anything', async function () {
    const blocker = net.createServer();
    await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = blocker.address().port;
    try {
      const r = runCommand(['server', '--port', String(port)]);
      expect(r.status).to.equal(2);
      expect(r.stdout).to.equal('');
      expect(r.stderr.trim().split('\n')).to.deep.equal([
        `mongo-perf-lab server: --port: port ${port} is already in use (another mongod?); choose another with --port, or leave --port out for a free one`,
      ]);
    } finally {
      blocker.close();
    }
    for (const [args, re] of [
      [['--replset', '9'], /--replset: at most 7 members/],
      [['--replset', 'x'], /--replset: expected a whole number/],
      [['--port', '70000'], /--port: expected a port up to 65535/],
      [['--replset', '2', '--dbpath', os.tmpdir()], /--dbpath with --replset: not supported/],
      [['--dbpath', __filename], /not a directory/],
      [['--dbpath', path.join(ROOT, 'docs')], /holds other files and no MongoDB data/],
    ]) {
      const r = runCommand(['server', ...args]);
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr, args.join(' ')).to.match(re);
      expect(r.stderr).to.not.match(/\n\s+at /); // no stack trace
    }
  });
});
