'use strict';
// Faults during loads (issue 8, findings 1 and 5): mongod killed with SIGKILL and restarted in the
// middle of a fixture load and of a CSV import; a replica-set primary stepping down during a
// w: majority load; standard connection strings (multi-host, auth database in the path, options)
// through the driver, the in-process shell, the mongosh CLI and the import command.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { MongoMemoryReplSet } = require('mongodb-memory-server-core');
const { findMongod } = require('../lib/infra/mongod-binary');
const { ensureFixture } = require('../lib/infra/loader');
const { importCsv } = require('../lib/infra/csv-import');
const { describeServer } = require('../lib/infra/server');
const { ShellSession, runCli } = require('../lib/core/shell-runner');
const { BIN, sleep, freePort, ownMongod } = require('./helpers');
const LabGen = require('../fixtures/gen');

function* whereDocs(n, seed = 1) {
  const next = LabGen.rng(seed);
  for (let i = 0; i < n; i++) yield LabGen.whereDoc(next, i);
}

/** A bare mongod of our own (test/helpers.js ownMongod), SIGKILLed and restarted on the same files and port. */
class KillableMongod {
  constructor(port, dbpath) {
    Object.assign(this, { port, dbpath, uri: `mongodb://127.0.0.1:${port}` });
  }

  async start() {
    this.own = await ownMongod(this.dbpath, { port: this.port });
    this.proc = this.own.proc;
  }

  kill9() {
    return this.own.kill9();
  }
}

/**
 * Arms a kill: the server lets `inserts` insert commands through, then holds every later one, and mongod is
 * SIGKILLed and restarted once the collection holds at least `after` documents. Holding the inserts makes
 * the kill land mid-load however busy the machine is: a count poll alone lost the race to a fast load
 * (the load finished before the poll saw it, and nothing was tested). Returns { killed }, a promise (wrapped:
 * an async function returning a promise would make the caller wait for the kill, before the load starts).
 */
async function armKill(m, dbName, coll, { inserts, after }) {
  const c = new MongoClient(m.uri, { serverSelectionTimeoutMS: 2000 });
  await c.db('admin').command({
    configureFailPoint: 'failCommand',
    mode: { skip: inserts },
    data: { failCommands: ['insert'], blockConnection: true, blockTimeMS: 600000 },
  });
  const killed = (async () => {
    try {
      for (;;) {
        const n = await c
          .db(dbName)
          .collection(coll)
          .estimatedDocumentCount()
          .catch(() => 0);
        if (n >= after) break;
        await sleep(15);
      }
    } finally {
      await c.close();
    }
    await m.kill9();
    await sleep(500);
    await m.start(); // a fresh process: the fail point is gone
  })();
  return { killed };
}

describe('safety: faults during loads and standard connection strings', function () {
  this.timeout(240000);
  let m;
  let tmp;
  let client;

  before(async function () {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-faults-'));
    fs.mkdirSync(path.join(tmp, 'db'));
    m = new KillableMongod(await freePort(), path.join(tmp, 'db'));
    await m.start();
    client = new MongoClient(m.uri, { serverSelectionTimeoutMS: 5000 });
  });

  after(async function () {
    if (client) await client.close().catch(() => {});
    if (m && m.proc && m.proc.exitCode === null) await m.kill9();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('mongod SIGKILLed and restarted during a fixture load: exact count, same documents, marked complete', async function () {
    // 12 batches of 2,000: the server lets six insert commands through and holds the rest until the
    // kill at 8,000 documents (armKill), so the kill lands mid-load at any size past seven batches.
    const n = 24000;
    const db = client.db('faults');
    const { killed } = await armKill(m, 'faults', 'fx', { inserts: 6, after: 8000 });
    const r = await ensureFixture(db, 'fx', { fixture: 'where-ab', n, seed: 5 }, () => whereDocs(n, 5), {
      batchSize: 2000,
      inflight: 4,
    });
    await killed;
    expect(r.count).to.equal(n);
    expect(r.retries, 'the load saw the restart').to.be.greaterThan(0);
    expect(await db.collection('fx').countDocuments()).to.equal(n);
    const want = [...whereDocs(n, 5)];
    const got = await db.collection('fx').find().sort({ _id: 1 }).toArray();
    expect(got).to.deep.equal(want);
    expect((await db.collection('perflab_fixtures').findOne({ _id: 'fx' })).complete).to.equal(true);
  });

  it('mongod SIGKILLed and restarted during a CSV import: read = stored + rejected, all stored rows there', async function () {
    // 12 batches of 1,000 (held as above after six); a row every 2,000 rejected, six in all.
    const rows = 12000;
    const lines = ['k,v,w'];
    for (let i = 0; i < rows; i++) lines.push(i % 2000 === 17 ? `${i},oops,${i}` : `${i},${i * 2},w${i}`);
    const f = path.join(tmp, 'load.csv');
    fs.writeFileSync(f, lines.join('\n') + '\n');
    const db = client.db('faults');
    const { killed } = await armKill(m, 'faults', 'csv', { inserts: 6, after: 4000 });
    const r = await importCsv(db, [f], {
      coll: 'csv',
      batchSize: 1000,
      inflight: 4,
      rejectsFile: path.join(tmp, 'rej.csv'),
    });
    await killed;
    expect(r.read).to.equal(rows);
    expect(r.rejected).to.equal(6);
    expect(r.read).to.equal(r.stored + r.rejected);
    expect(await db.collection('csv').countDocuments()).to.equal(r.stored);
    expect(r.files[0].retries).to.be.greaterThan(0);
  });

  describe('a 3-member replica set', function () {
    let rs;
    before(async function () {
      const found = findMongod();
      rs = await MongoMemoryReplSet.create({
        binary: { systemBinary: found.binary, version: found.version },
        replSet: { count: 3, storageEngine: 'wiredTiger', args: ['--nounixsocket', '--wiredTigerCacheSizeGB', '0.25'] },
      });
      await rs.waitUntilRunning();
    });
    after(async function () {
      if (rs) await rs.stop({ doCleanup: true, force: true });
    });

    it('the primary steps down during a w: majority load: no acknowledged row lost, exact count', async function () {
      const uri = rs.getUri();
      expect(uri).to.match(/^mongodb:\/\/[^/]+,[^/]+,[^/]+\//); // multi-host
      const c = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
      try {
        const db = c.db('rsload');
        const n = 40000;
        const stepDown = (async () => {
          for (;;) {
            if (
              (await db
                .collection('fx')
                .estimatedDocumentCount()
                .catch(() => 0)) >= 8000
            )
              break;
            await sleep(15);
          }
          await c
            .db('admin')
            .command({ replSetStepDown: 5, secondaryCatchUpPeriodSecs: 2, force: true })
            .catch(() => {});
        })();
        const r = await ensureFixture(db, 'fx', { fixture: 'where-ab', n, seed: 9 }, () => whereDocs(n, 9), {
          batchSize: 2000,
          inflight: 4,
        });
        await stepDown;
        expect(r.count).to.equal(n);
        const hello = await c.db('admin').command({ hello: 1 });
        expect(hello.setName).to.be.a('string');
        const majority = await db.collection('fx').countDocuments({}, { readConcern: { level: 'majority' } });
        expect(majority).to.equal(n);
      } finally {
        await c.close();
      }
    });

    it('multi-host URIs, an auth database in the path and URI options are used as given', async function () {
      const uri = rs.getUri('admin') + '&tls=false&appName=perflab-test';
      expect(uri).to.match(/,.*\/admin\?/);
      const info = await describeServer(uri);
      expect(info.version).to.match(/^\d+\.\d+/);
      const script = path.join(tmp, 'where.js');
      fs.writeFileSync(script, 'db.probe.insertOne({x: 1}); print(db.getName() + " " + db.probe.countDocuments());');
      const s = await ShellSession.open(uri, 'uridb');
      try {
        expect(await s.run(script)).to.deep.equal(['uridb 1']);
      } finally {
        await s.close();
      }
      const cli = await runCli(script, { uri, db: 'uridb', timeoutMs: 60000 });
      expect(cli.stdout.trim(), cli.stderr).to.equal('uridb 2');
      const f = path.join(tmp, 'rs.csv');
      fs.writeFileSync(f, 'a,b\n1,2\n3,4\n');
      const res = spawnSync(
        process.execPath,
        [BIN, 'import', f, '--uri', uri, '--db', 'uridb', '--coll', 'csv', '--no-progress'],
        { encoding: 'utf8', timeout: 60000 },
      );
      expect(res.status, res.stderr).to.equal(0);
      expect(res.stdout).to.contain('rows read 2 = stored 2 (new 2, already there 0) + rejected 0');
      const c = new MongoClient(uri);
      try {
        expect(await c.db('uridb').collection('csv').countDocuments()).to.equal(2);
        expect(
          await c
            .db('admin')
            .listCollections({ name: { $in: ['csv', 'probe'] } })
            .toArray(),
        ).to.have.length(0);
      } finally {
        await c.close();
      }
    });
  });
});
