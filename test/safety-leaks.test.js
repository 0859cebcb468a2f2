'use strict';
// Nothing of the lab's own is left behind (issue 18): the `server` command's mongods and their data
// die with it even on SIGKILL (standalone, --replset 2; a kept --dbpath keeps only its data),
// `findings --uri --db X` drops the database it created (as `run` does), a failed write of a result
// file (full disk) leaves no temporary file, and `findings --out ELSEWHERE` creates nothing in the
// current folder. Everything through the real CLI, except the result writer on a full disk.
const fs = require('fs');
const { cmdlineOf } = require('../lib/infra/processes');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri, tinyArgs, BIN, alive, until, labSync, startLabServer: startServer } = require('./helpers');
const { ResultFile } = require('../lib/core/results');

const ROOT = path.resolve(__dirname, '..');

/**
 * The unix socket a mongod on `port` would leave in /tmp (mongod puts it there whatever TMPDIR
 * says). Checked by port: other programs' mongods on this machine may make their own meanwhile.
 */
const socketOf = (port) => `/tmp/mongodb-${port}.sock`;

const cli = (args, cwd, env = {}) => labSync(args, { cwd, env });

describe('safety: nothing of its own left behind', function () {
  this.timeout(300000);
  let tmp;
  // The first four tests mostly wait (mongods starting, a replica set electing its primary, the
  // watchdogs' kills): they start together in the first hook, and each test awaits its own (its
  // assertions inside, as written). Each has servers, ports and folders of its own; the tests after
  // them block this process (spawnSync) and run once these are done.
  const early = new Map();
  const startEarly = (name, fn) => {
    const p = fn();
    p.catch(() => {}); // reported by the test that awaits it
    early.set(name, p);
  };
  const SERVERS = [
    ['standalone', []],
    ['--replset 2', ['--replset', '2']],
  ];
  before(function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labtest-leaks-'));
    for (const [label, args] of SERVERS) startEarly(label, () => serverKilled(args));
    startEarly('kept', keptKilled);
    startEarly('run', runKilled);
  });
  after(async function () {
    await Promise.allSettled(early.values());
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function serverKilled(args) {
    const s = await startServer(args);
    expect(s.members).to.have.length(args.length ? 2 : 1);
    for (const m of s.members) expect(fs.existsSync(m.dbPath), m.dbPath).to.equal(true);
    for (const m of s.members)
      expect(fs.existsSync(socketOf(m.port)), `mongod ${m.port} makes no unix socket`).to.equal(false);
    s.child.kill('SIGKILL');
    const gone = await until(() => s.members.every((m) => !alive(m.pid) && !fs.existsSync(m.dbPath)), 60000);
    expect(
      gone,
      JSON.stringify(s.members.map((m) => ({ ...m, alive: alive(m.pid), dir: fs.existsSync(m.dbPath) }))),
    ).to.equal(true);
    for (const m of s.members) expect(fs.existsSync(socketOf(m.port)), socketOf(m.port)).to.equal(false);
  }
  for (const [label] of SERVERS) {
    it(`server (${label}) killed with SIGKILL: its mongods die and their data folders go, and no /tmp/mongodb-<port>.sock`, function () {
      return early.get(label);
    });
  }

  async function keptKilled() {
    const dir = path.join(tmp, 'kept');
    const s = await startServer(['--dbpath', dir]);
    s.child.kill('SIGKILL');
    expect(await until(() => s.members.every((m) => !alive(m.pid)), 60000)).to.equal(true);
    expect(fs.existsSync(path.join(dir, 'WiredTiger'))).to.equal(true);
  }
  it('server --dbpath killed with SIGKILL: its mongod dies, the data it was told to keep stays', function () {
    return early.get('kept');
  });

  async function runKilled() {
    const env = { ...process.env, MONGODB_URI: '' };
    const child = spawn(
      process.execPath,
      [BIN, 'run', 'where', '--profile', 'tiny', '--out', path.join(tmp, 'killed'), '--no-progress'],
      { cwd: tmp, env },
    );
    let err = '';
    const seen = new Promise((resolve, reject) => {
      child.stderr.on('data', (d) => {
        err += d;
        const m = /^server: embedded mongod \(pid (\d+), data (\S+)\)/m.exec(err.replace(/\n +/g, ' '));
        if (m) resolve({ pid: Number(m[1]), dbPath: m[2] });
      });
      child.on('exit', () => reject(new Error(`run ended before its server line: ${err}`)));
    });
    const m = await seen;
    const port = Number(/--port (\d+)/.exec(cmdlineOf(m.pid).replace(/\0/g, ' '))[1]);
    expect(fs.existsSync(socketOf(port)), 'the embedded mongod makes no unix socket').to.equal(false);
    child.kill('SIGKILL');
    expect(await until(() => !alive(m.pid) && !fs.existsSync(m.dbPath), 60000)).to.equal(true);
    expect(fs.existsSync(socketOf(port)), socketOf(port)).to.equal(false);
  }
  it('run killed with SIGKILL mid-run: its embedded mongod dies, and leaves no /tmp/mongodb-<port>.sock', function () {
    return early.get('run');
  });

  it('findings <study> --uri --db X drops the database it created, like run', async function () {
    const name = 'labtest_leaks_findings';
    const client = await MongoClient.connect(testUri());
    try {
      await client.db(name).dropDatabase();
      const r = cli(tinyArgs('findings', 'where', name, '--out', path.join(tmp, 'f1'), '--quiet'), tmp, {
        TMPDIR: tmp,
      });
      expect(r.status, r.stderr).to.equal(0);
      const dbs = (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases.map((d) => d.name);
      expect(dbs).to.not.include(name);
    } finally {
      await client.close();
    }
  });

  it('findings --from FILE --out ELSEWHERE creates nothing in the current folder', function () {
    const cwd = fs.mkdtempSync(path.join(tmp, 'cwd-'));
    const r = cli(
      [
        'findings',
        'where',
        '--from',
        path.join(ROOT, 'docs', 'data', 'quick-run.json'),
        '--out',
        path.join(tmp, 'elsewhere'),
        '--quiet',
      ],
      cwd,
      { LAB_RESULTS_DIR: '' },
    );
    expect(r.status, r.stderr).to.equal(0);
    expect(fs.readdirSync(cwd)).to.deep.equal([]);
    expect(fs.existsSync(path.join(tmp, 'elsewhere', 'findings.md'))).to.equal(true);
  });

  it('a result file that cannot be written (full disk) leaves no temporary file', function () {
    const dir = path.join(tmp, 'full');
    fs.mkdirSync(dir);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0;
    try {
      if (mounted) {
        fs.writeFileSync(path.join(dir, 'filler'), Buffer.alloc(56 * 1024)); // leaves less than one result file
      }
      // Without tmpfs (not root): the rename fails instead, onto a folder of the file's name.
      const file = path.join(dir, 'results.json');
      if (!mounted) fs.mkdirSync(file);
      let err;
      try {
        const f = new ResultFile(file, { note: 'x'.repeat(1000) });
        f.add(Array.from({ length: 200 }, (x, i) => ({ type: 'result', i, pad: 'y'.repeat(100) })));
      } catch (e) {
        err = e;
      }
      expect(err, 'the failed write is reported').to.be.an('error');
      expect(fs.readdirSync(dir).filter((f) => /\.tmp$/.test(f))).to.deep.equal([]);
    } finally {
      if (mounted) spawnSync('umount', [dir]);
    }
  });
});
