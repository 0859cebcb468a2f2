'use strict';
// Durability at checkpoints (issue 37.5, lib/infra/loader.js): on a standalone mongod the loader's
// batches go with w:1, like a bare insertMany loop's, and a journaled write every few batches
// proves them on disk. What must hold: each batch's outcome is still looked at; the fixture marker
// never says more is loaded than is on disk; a loader killed mid-load leaves a load that the next
// run resumes and never reuses; mongod killed mid-load loses acknowledged w:1 batches, and the load
// sends them again and ends exact.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { useTestDatabase, ownMongod, freePort, sleep } = require('./helpers');
const { streamInsert, ensureFixture } = require('../lib/infra/loader');
const { inspect } = require('../lib/infra/targets');
const LabGen = require('../fixtures/gen');

const ROOT = path.join(__dirname, '..');

function* whereDocs(n, seed) {
  const next = LabGen.rng(seed);
  for (let i = 0; i < n; i++) yield LabGen.whereDoc(next, i);
}

/** The count once the server answers again (the client's connections died with mongod). */
async function countWhenBack(coll) {
  for (let i = 0; ; i++) {
    try {
      return await coll.countDocuments();
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100);
    }
  }
}

/** The insert commands a client sends: { n documents, writeConcern }. */
function watchInserts(client) {
  const seen = [];
  client.on('commandStarted', (e) => {
    if (e.commandName === 'insert') seen.push({ n: e.command.documents.length, wc: e.command.writeConcern || {} });
  });
  return seen;
}

// The loader of the kill test, in a process of its own: a where-ab fixture of 200,000 documents
// whose generator stops the event loop 120 ms every 4,000 documents (at least 6 s in all), so the
// kill lands mid-load however fast the machine is.
const CHILD = `
const { MongoClient } = require(${JSON.stringify(path.join(ROOT, 'node_modules/mongodb'))});
const { ensureFixture } = require(${JSON.stringify(path.join(ROOT, 'lib/infra/loader'))});
const LabGen = require(${JSON.stringify(path.join(ROOT, 'fixtures/gen'))});
const [uri, dbName, n, seed] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));
function* docs() {
  const next = LabGen.rng(Number(seed));
  for (let i = 0; i < Number(n); i++) {
    if (i && i % 4000 === 0) Atomics.wait(pause, 0, 0, 120);
    yield LabGen.whereDoc(next, i);
  }
}
(async () => {
  const c = new MongoClient(uri);
  await c.connect();
  const spec = { fixture: 'where-ab', n: Number(n), seed: Number(seed) };
  await ensureFixture(c.db(dbName), 'fx', spec, docs, { batchSize: 2000, progress: false });
  process.stdout.write('complete\\n');
  await c.close();
})();
`;

describe('loader durability: w:1 batches, journaled checkpoints, kills mid-load', function () {
  this.timeout(180000);
  const t = useTestDatabase('loader_durability', { tmp: 'loader-durability-' });

  it('on a standalone every batch goes with w:1 and is checked; one journaled write per 8 batches and at the end', async function () {
    const client = new MongoClient(t.uri, { monitorCommands: true });
    await client.connect();
    try {
      const seen = watchInserts(client);
      const coll = client.db(t.dbName).collection('wc');
      await coll.insertMany([{ _id: 5 }, { _id: 17000 }]);
      seen.length = 0;
      const acked = [];
      const r = await streamInsert(coll, whereDocs(20000, 2), {
        batchSize: 1000,
        onAcked: (n) => acked.push(n),
      });
      // Every batch's outcome looked at: the two documents already there are counted as such.
      expect(r).to.include({ read: 20000, stored: 20000, inserted: 19998, duplicates: 2, durability: 'checkpoints' });
      const batches = seen.filter((s) => s.n === 1000);
      const syncs = seen.filter((s) => s.wc.j === true);
      expect(batches).to.have.length(20);
      for (const b of batches) expect(b.wc).to.deep.equal({ w: 1 });
      // 20 batches: a proof once 8 more have settled, and at the end; each a single document sent again.
      expect(r.checkpoints).to.be.within(2, 3);
      expect(syncs.map((s) => s.n)).to.deep.equal(Array(r.checkpoints).fill(1));
      // onAcked hears only proven prefixes, at least 8 batches apart (but the last, at the end), and at
      // last all of it.
      expect(acked).to.have.length(r.checkpoints);
      acked.slice(0, -1).forEach((a, i) => i && expect(a - acked[i - 1]).to.be.at.least(8000));
      expect(acked[acked.length - 1]).to.equal(20000);
      expect(await coll.countDocuments()).to.equal(20000);
    } finally {
      await client.close();
    }
  });

  it('journalEveryBatch (bench:loaders --journal-every-batch): every batch asks for the journal, no proofs', async function () {
    const client = new MongoClient(t.uri, { monitorCommands: true });
    await client.connect();
    try {
      const seen = watchInserts(client);
      const coll = client.db(t.dbName).collection('wc_every');
      const r = await streamInsert(coll, whereDocs(5000, 2), { batchSize: 1000, journalEveryBatch: true });
      expect(r).to.include({ read: 5000, inserted: 5000, durability: 'every batch', checkpoints: 0 });
      expect(seen.map((s) => [s.n, s.wc])).to.deep.equal(Array(5).fill([1000, { w: 1, j: true }]));
    } finally {
      await client.close();
    }
  });

  it('the loader killed (SIGKILL) mid-load: the marker is not complete, names only what is there; the next run resumes, never reuses', async function () {
    const n = 200000;
    const seed = 7;
    const spec = { fixture: 'where-ab', n, seed };
    const script = path.join(t.tmp, 'child-loader.js');
    fs.writeFileSync(script, CHILD);
    const child = spawn(process.execPath, [script, t.uri, t.dbName, String(n), String(seed)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    child.stdout.on('data', (d) => (said += d));
    child.stderr.on('data', (d) => (said += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const markers = t.db.collection('perflab_fixtures');
    // Killed once the marker records a proven prefix (the loader writes it at most every 2 s).
    const deadline = Date.now() + 120000;
    let marker = null;
    while (Date.now() < deadline && child.exitCode === null) {
      marker = await markers.findOne({ _id: 'fx' });
      if (marker && marker.acked > 0) break;
      await sleep(20);
    }
    child.kill('SIGKILL');
    await exited;
    expect(said, 'the load finished before the kill: nothing was tested').to.not.contain('complete');
    expect(marker && marker.acked, `no progress recorded before the kill: ${said}`).to.be.greaterThan(0);

    const after = await markers.findOne({ _id: 'fx' });
    expect(after.complete).to.equal(false);
    const count = await t.db.collection('fx').countDocuments();
    expect(count).to.be.below(n);
    // What the marker says is loaded is there, as a prefix with no gap.
    expect(await t.db.collection('fx').countDocuments({ _id: { $lt: after.acked } })).to.equal(after.acked);
    expect(count).to.be.at.least(after.acked);
    // The decision every entry point reads (--keep, the budget's reuse, mongosh's LabFixture.ensure).
    const s = await inspect(t.db, 'fx', spec);
    expect(s.decision.action).to.equal('resume');

    const r = await ensureFixture(t.db, 'fx', spec, () => whereDocs(n, seed), { batchSize: 2000 });
    expect(r).to.include({ action: 'resume', count: n });
    expect(r.inserted + r.duplicates).to.equal(n - after.acked);
    const got = await t.db.collection('fx').find().sort({ _id: 1 }).toArray();
    expect(got).to.deep.equal([...whereDocs(n, seed)]);
    expect(await markers.findOne({ _id: 'fx' })).to.include({ complete: true, acked: n });
    expect((await inspect(t.db, 'fx', spec)).decision.action).to.equal('reuse');
  });

  describe('mongod killed (SIGKILL) and restarted mid-load', function () {
    let tmp;
    let m;
    let port;
    // A journal commit every 500 ms (the longest allowed): acknowledged w:1 batches are lost by a kill.
    const start = async () => {
      m = await ownMongod(path.join(tmp, 'db'), { port, args: ['--journalCommitInterval', '500'] });
    };

    before(async function () {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loader-durability-kill-'));
      fs.mkdirSync(path.join(tmp, 'db'));
      port = await freePort();
      await start();
    });

    after(async function () {
      if (m) await m.kill9();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('acknowledged w:1 batches lost with mongod are sent again at the next proof: exact documents, marked complete', async function () {
      const n = 30000;
      const seed = 11;
      const client = new MongoClient(m.uri, { serverSelectionTimeoutMS: 5000 });
      const db = client.db('durable');
      const said = [];
      let lost = null;
      // Six batches of 2,000 acknowledged (visible on the server), then mongod killed at once and
      // restarted before the generator goes on: no batch in flight, no error the load would see
      // except a dead connection; the proof after batch 8 finds another process id.
      async function* docs() {
        let i = 0;
        for (const d of whereDocs(n, seed)) {
          if (i++ === 12000) {
            while ((await db.collection('fx').countDocuments()) < 12000) await sleep(5);
            await m.kill9();
            await start();
            lost = 12000 - (await countWhenBack(db.collection('fx')));
          }
          yield d;
        }
      }
      try {
        const r = await ensureFixture(db, 'fx', { fixture: 'where-ab', n, seed }, docs, {
          batchSize: 2000,
          log: (line) => said.push(line),
        });
        expect(lost, 'the kill happened').to.be.a('number');
        expect(said.join('\n')).to.match(
          /the server restarted during the load; the \d+ batches since the last sync go again/,
        );
        expect(r).to.include({ count: n });
        expect(r.retries).to.be.greaterThan(0);
        const got = await db.collection('fx').find().sort({ _id: 1 }).toArray();
        expect(got).to.deep.equal([...whereDocs(n, seed)]);
        expect(await db.collection('perflab_fixtures').findOne({ _id: 'fx' })).to.include({ complete: true });
        if (lost === 0) this.test.title += ' (this time the journal had them before the kill)';
      } finally {
        await client.close();
      }
    });
  });
});
