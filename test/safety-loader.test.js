'use strict';
// The one write path and the one marker protocol (issue 8, findings 1, 2, 4, 10): every batch's
// outcome is looked at, fixtures are verified before being marked complete, interrupted loads
// resume, foreign and system targets are refused, in Node and in mongosh alike.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const { streamInsert, ensureFixture } = require('../lib/infra/loader');
const { checkTarget, assertOwned, dropOwned } = require('../lib/infra/targets');
const LabFixture = require('../scripts/lib/fixture');
const LabGen = require('../fixtures/gen');
const { ROOT } = require('../lib/core/shell-runner');

function* whereDocs(n, seed = 1, from = 0) {
  const next = LabGen.rng(seed);
  for (let i = 0; i < n; i++) {
    const d = LabGen.whereDoc(next, i);
    if (i >= from) yield d;
  }
}

async function rejects(p) {
  try { await p; } catch (e) { return e; }
  throw new Error('expected a rejection');
}

describe('safety: loader and marker protocol', function () {
  let t;
  let tmp;
  before(async function () {
    t = await testDatabase('safety_loader');
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-loader-'));
  });
  after(async function () {
    if (t) await t.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('decide(): one answer for every state of marker and collection', function () {
    const spec = { fixture: 'f', n: 10, seed: 1 };
    expect(LabFixture.decide(null, 0, spec).action).to.equal('create');
    expect(LabFixture.decide(null, 5, spec).action).to.equal('foreign');
    expect(LabFixture.decide({ ...spec, complete: true }, 10, spec).action).to.equal('reuse');
    expect(LabFixture.decide({ ...spec, complete: false }, 7, spec).action).to.equal('resume');
    expect(LabFixture.decide({ ...spec, complete: true }, 7, spec).action).to.equal('resume');
    expect(LabFixture.decide({ ...spec, complete: true }, 12, spec).action).to.equal('regenerate');
    expect(LabFixture.decide({ ...spec, seed: 2, complete: true }, 10, spec).action).to.equal('regenerate');
    for (const d of Object.values({ a: LabFixture.decide(null, 5, spec) })) expect(d.why).to.be.a('string');
  });

  it('refuses admin, local, config, system.* and the marker collection, in one line', function () {
    for (const [db, coll] of [['admin'], ['local', 'x'], ['config', 'x'], ['CONFIG', 'x'], ['perflab', 'system.js'],
      ['perflab', 'system.profile'], ['perflab', 'perflab_fixtures'], ['a.b', 'x'], ['perflab', '']]) {
      let err;
      try { checkTarget(db, coll); } catch (e) { err = e; }
      expect(err, `${db}.${coll}`).to.be.an('error');
      expect(err.message).to.not.contain('\n');
    }
    checkTarget('perflab', 'mine');
  });

  it('a refused document stops the load with its name; no batch is dropped unseen', async function () {
    await t.db.createCollection('validated', { validator: { a: { $lt: 990 } } });
    const err = await rejects(streamInsert(t.db.collection('validated'), whereDocs(20000), { batchSize: 1000, inflight: 4,
      describe: (d) => `doc ${d._id}` }));
    expect(err.name).to.equal('LoadError');
    expect(err.message).to.match(/refused \d+ document\(s\); first: doc \d+: Document failed validation/);
    // Everything acknowledged is there; nothing was reported as stored that is not.
    const stored = await t.db.collection('validated').countDocuments();
    expect(stored).to.be.greaterThan(0);
    const want = [...whereDocs(20000)].filter((d) => d.a < 990).length;
    expect(stored).to.be.at.most(want);
  });

  it('an oversized document is an error, never "already there"', async function () {
    const docs = [{ _id: 1, s: 'x' }, { _id: 2, s: 'y'.repeat(17 * 1024 * 1024) }, { _id: 3, s: 'z' }];
    const err = await rejects(streamInsert(t.db.collection('big'), docs, { batchSize: 10 }));
    expect(err).to.be.an('error');
  });

  it('duplicates are counted per document; read = stored = new + already there', async function () {
    const c = t.db.collection('dups');
    await c.insertMany([{ _id: 3 }, { _id: 7 }, { _id: 2500 }]);
    const docs = [];
    for (let i = 0; i < 5000; i++) docs.push({ _id: i });
    const r = await streamInsert(c, docs, { batchSize: 1000 });
    expect(r).to.include({ read: 5000, stored: 5000, inserted: 4997, duplicates: 3 });
    expect(await c.countDocuments()).to.equal(5000);
  });

  it('ensureFixture: creates, verifies, reuses, resumes from the acknowledged prefix, regenerates', async function () {
    const spec = { fixture: 'where-ab', n: 12000, seed: 3 };
    const a = await ensureFixture(t.db, 'fx', spec, () => whereDocs(12000, 3), { batchSize: 1000 });
    expect(a).to.include({ action: 'create', generated: true, count: 12000, inserted: 12000 });
    const marker = await t.db.collection('perflab_fixtures').findOne({ _id: 'fx' });
    expect(marker).to.include({ fixture: 'where-ab', n: 12000, seed: 3, complete: true, acked: 12000 });
    expect((await ensureFixture(t.db, 'fx', spec, () => whereDocs(12000, 3))).action).to.equal('reuse');

    // An interrupted load: the first 5000 acknowledged, the rest missing.
    await t.db.collection('fx').deleteMany({ _id: { $gte: 5000 } });
    await t.db.collection('perflab_fixtures').updateOne({ _id: 'fx' }, { $set: { complete: false, acked: 5000 } });
    const b = await ensureFixture(t.db, 'fx', spec, () => whereDocs(12000, 3), { batchSize: 1000 });
    expect(b).to.include({ action: 'resume', count: 12000, inserted: 7000, duplicates: 0 });
    const want = [...whereDocs(12000, 3)];
    const got = await t.db.collection('fx').find().sort({ _id: 1 }).toArray();
    expect(got).to.deep.equal(want);

    const c = await ensureFixture(t.db, 'fx', { ...spec, n: 3000 }, () => whereDocs(3000, 3));
    expect(c).to.include({ action: 'regenerate', count: 3000 });
  });

  it('ensureFixture refuses a foreign collection and a generator that falls short', async function () {
    await t.db.collection('users_own').insertOne({ _id: 'precious' });
    const err = await rejects(ensureFixture(t.db, 'users_own', { fixture: 'x', n: 10, seed: 1 }, () => whereDocs(10)));
    expect(err.name).to.equal('ForeignDataError');
    expect(await t.db.collection('users_own').find().toArray()).to.deep.equal([{ _id: 'precious' }]);

    const short = await rejects(ensureFixture(t.db, 'short', { fixture: 'x', n: 100, seed: 1 }, () => whereDocs(90)));
    expect(short.name).to.equal('LoadError');
    const m = await t.db.collection('perflab_fixtures').findOne({ _id: 'short' });
    expect(m.complete).to.equal(false);
  });

  it('targets: assertOwned/dropOwned never drop data the lab does not own', async function () {
    await t.db.collection('theirs').insertOne({ x: 1 });
    expect((await rejects(dropOwned(t.db, 'theirs'))).name).to.equal('ForeignDataError');
    expect(await t.db.collection('theirs').countDocuments()).to.equal(1);
    await assertOwned(t.db, 'fx');
    await dropOwned(t.db, 'fx');
    expect(await t.db.collection('perflab_fixtures').findOne({ _id: 'fx' })).to.equal(null);
  });

  it('LabFixture.ensure in mongosh: asks for GENERATE, refuses foreign data, verifies and marks', async function () {
    const script = path.join(tmp, 'ensure.js');
    fs.writeFileSync(script, [
      `load(${JSON.stringify(path.join(ROOT, 'fixtures/gen.js'))});`,
      `load(${JSON.stringify(path.join(ROOT, 'scripts/lib/fixture.js'))});`,
      'var out;',
      'try {',
      '  var r = LabFixture.ensure(db, COLL, { fixture: "where-ab", n: N, seed: 1 }, LabGen.whereDoc,',
      '    { generate: GENERATE, useForeign: USE_FOREIGN, batchSize: 700, quiet: true });',
      '  out = "OK " + r.action + " " + r.count + " " + r.own;',
      '} catch (e) { out = "ERR " + e.message; }',
      'print(out);',
    ].join('\n'));
    const run = async (p) => (await t.run(script, { N: 5000, GENERATE: false, USE_FOREIGN: false, ...p })).lines.pop();

    expect(await run({ COLL: 'shellfx' })).to.match(/^ERR .*does not exist.*GENERATE = true/);
    expect(await t.db.listCollections({ name: 'shellfx' }).toArray()).to.have.length(0);
    expect(await run({ COLL: 'shellfx', GENERATE: true })).to.equal('OK create 5000 true');
    expect(await t.db.collection('shellfx').find().sort({ _id: 1 }).toArray()).to.deep.equal([...whereDocs(5000)]);
    expect(await run({ COLL: 'shellfx' })).to.equal('OK reuse 5000 true');

    await t.db.collection('shellmine').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    expect(await run({ COLL: 'shellmine', GENERATE: true })).to.match(/^ERR .*not generated by the lab.*never fills or replaces/);
    expect(await run({ COLL: 'shellmine', USE_FOREIGN: true })).to.equal('OK foreign 2 false');
    expect(await t.db.collection('shellmine').countDocuments()).to.equal(2);
    expect(await t.db.collection('shellmine').indexes()).to.have.length(1);
    expect(await run({ COLL: 'system.js', GENERATE: true })).to.match(/^ERR .*system collection/);

    // A duplicate already there is counted, a refused document stops the load unmarked.
    await t.db.createCollection('shellval', { validator: { a: { $lt: 500 } } });
    await t.db.collection('perflab_fixtures').insertOne({ _id: 'shellval', fixture: 'where-ab', n: 5000, seed: 1, complete: false });
    expect(await run({ COLL: 'shellval', GENERATE: true })).to.match(/^ERR .*refused \d+ document\(s\).*Document failed validation/);
    expect((await t.db.collection('perflab_fixtures').findOne({ _id: 'shellval' })).complete).to.equal(false);
  });
});
