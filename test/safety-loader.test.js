'use strict';
// The one write path and the one marker protocol (issue 8, findings 1, 2, 4, 10): every batch's
// outcome is looked at, fixtures are verified before being marked complete, interrupted loads
// resume, foreign and system targets are refused, in Node and in mongosh alike.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { UUID, Binary } = require('mongodb');
const { useTestDatabase, rejects } = require('./helpers');
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

describe('safety: loader and marker protocol', function () {
  const t = useTestDatabase('safety_loader', { tmp: 'safety-loader-' });

  it('decide(): one answer for every state of marker, collection and identity', function () {
    const spec = { fixture: 'f', n: 10, seed: 1 };
    const U = '0123456789abcdef0123456789abcdef';
    const info = (uuid) => ({ name: 'c', type: 'collection', info: { uuid } });
    const mine = (m) => ({ ...spec, uuid: U, ...m });
    expect(LabFixture.decide(null, 0, spec, null).action).to.equal('create');
    expect(LabFixture.decide(mine({ complete: true }), 0, spec, null)).to.include({ action: 'create', stale: true });
    // an existing collection without a marker naming its UUID is foreign, EMPTY OR NOT
    expect(LabFixture.decide(null, 0, spec, info(U)).action).to.equal('foreign');
    expect(LabFixture.decide(null, 5, spec, info(U)).action).to.equal('foreign');
    expect(LabFixture.decide(mine({ complete: true }), 10, spec, info('f'.repeat(32)))).to.include({
      action: 'foreign',
      stale: true,
    });
    expect(LabFixture.decide({ ...spec, complete: true }, 10, spec, info(U))).to.include({
      action: 'foreign',
      stale: true,
    }); // no identity
    expect(LabFixture.decide(mine({ complete: true }), 10, spec, { ...info(U), type: 'view' }).action).to.equal(
      'foreign',
    );
    expect(LabFixture.decide(mine({ complete: true }), 10, spec, info(U)).action).to.equal('reuse');
    expect(LabFixture.decide(mine({ complete: false }), 7, spec, info(U)).action).to.equal('resume');
    expect(LabFixture.decide(mine({ complete: true }), 7, spec, info(U)).action).to.equal('resume');
    expect(LabFixture.decide(mine({ complete: true }), 12, spec, info(U)).action).to.equal('regenerate');
    expect(LabFixture.decide(mine({ seed: 2, complete: true }), 10, spec, info(U)).action).to.equal('regenerate');
    expect(LabFixture.decide(null, 5, spec, info(U)).why).to.be.a('string');
    // a UUID reads the same from the Node driver, mongosh and a hex string
    expect(LabFixture.uuidHex(new UUID(U))).to.equal(U);
    expect(LabFixture.uuidHex(new Binary(Buffer.from(U, 'hex'), 4))).to.equal(U);
    expect(LabFixture.uuidHex('01234567-89AB-cdef-0123-456789abcdef')).to.equal(U);
  });

  it('refuses admin, local, config, system.* and the marker collection, in one line', function () {
    for (const [db, coll] of [
      ['admin'],
      ['local', 'x'],
      ['config', 'x'],
      ['CONFIG', 'x'],
      ['perflab', 'system.js'],
      ['perflab', 'system.profile'],
      ['perflab', 'perflab_fixtures'],
      ['a.b', 'x'],
      ['perflab', ''],
    ]) {
      let err;
      try {
        checkTarget(db, coll);
      } catch (e) {
        err = e;
      }
      expect(err, `${db}.${coll}`).to.be.an('error');
      expect(err.message).to.not.contain('\n');
    }
    checkTarget('perflab', 'mine');
  });

  it('a refused document stops the load with its name; no batch is dropped unseen', async function () {
    await t.db.createCollection('validated', { validator: { a: { $lt: 990 } } });
    const err = await rejects(
      streamInsert(t.db.collection('validated'), whereDocs(20000), {
        batchSize: 1000,
        inflight: 4,
        describe: (d) => `doc ${d._id}`,
      }),
    );
    expect(err.name).to.equal('LoadError');
    expect(err.message).to.match(/refused \d+ document\(s\); first: doc \d+: Document failed validation/);
    // Everything acknowledged is there; nothing was reported as stored that is not.
    const stored = await t.db.collection('validated').countDocuments();
    expect(stored).to.be.greaterThan(0);
    const want = [...whereDocs(20000)].filter((d) => d.a < 990).length;
    expect(stored).to.be.at.most(want);
  });

  it('an oversized document is an error, never "already there"', async function () {
    const docs = [
      { _id: 1, s: 'x' },
      { _id: 2, s: 'y'.repeat(17 * 1024 * 1024) },
      { _id: 3, s: 'z' },
    ];
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

  it('with batches in flight every batch settles and is counted: read = stored exactly', async function () {
    for (const inflight of [1, 4]) {
      const c = t.db.collection(`inflight_${inflight}`);
      await c.insertMany([{ _id: 11 }, { _id: 15000 }]);
      const r = await streamInsert(c, whereDocs(30000), { batchSize: 500, verify: 'all', inflight });
      expect(r, `${inflight}`).to.include({ read: 30000, stored: 30000, inserted: 29998, duplicates: 2, inflight });
      expect(await c.countDocuments(), `${inflight}`).to.equal(30000);
    }
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

    // A failed generation removes what it wrote and its marker (and says so in one line).
    const said = [];
    const short = await rejects(
      ensureFixture(t.db, 'short', { fixture: 'x', n: 100, seed: 1 }, () => whereDocs(90), {
        log: (m) => said.push(m),
      }),
    );
    expect(short.name).to.equal('LoadError');
    expect(await t.db.collection('perflab_fixtures').findOne({ _id: 'short' })).to.equal(null);
    expect(await t.db.listCollections({ name: 'short' }).toArray()).to.have.length(0);
    expect(said).to.have.length(1);
    expect(said[0]).to.match(/^removed .*short and its lab marker: /);
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
    const script = path.join(t.tmp, 'ensure.js');
    fs.writeFileSync(
      script,
      [
        `load(${JSON.stringify(path.join(ROOT, 'fixtures/gen.js'))});`,
        `load(${JSON.stringify(path.join(ROOT, 'scripts/lib/fixture.js'))});`,
        'var out;',
        'try {',
        '  var r = LabFixture.ensure(db, COLL, { fixture: "where-ab", n: N, seed: 1 }, LabGen.whereDoc,',
        '    { generate: GENERATE, useForeign: USE_FOREIGN, batchSize: 700, quiet: true, progress: function () {},',
        '      options: VALIDATE ? { validator: { a: { $lt: 500 } } } : undefined });',
        '  out = "OK " + r.action + " " + r.count + " " + r.own;',
        '} catch (e) { out = "ERR " + e.message; }',
        'print(out);',
      ].join('\n'),
    );
    const run = async (p) =>
      (await t.run(script, { N: 5000, GENERATE: false, USE_FOREIGN: false, VALIDATE: false, ...p })).lines.pop();

    expect(await run({ COLL: 'shellfx' })).to.match(/^ERR .*does not exist.*GENERATE = true/);
    expect(await t.db.listCollections({ name: 'shellfx' }).toArray()).to.have.length(0);
    expect(await run({ COLL: 'shellfx', GENERATE: true })).to.equal('OK create 5000 true');
    expect(await t.db.collection('shellfx').find().sort({ _id: 1 }).toArray()).to.deep.equal([...whereDocs(5000)]);
    expect(await run({ COLL: 'shellfx' })).to.equal('OK reuse 5000 true');

    await t.db.collection('shellmine').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    expect(await run({ COLL: 'shellmine', GENERATE: true })).to.match(
      /^ERR .*was not made by the lab.*never fills, indexes, drops or converts/,
    );
    expect(await run({ COLL: 'shellmine', USE_FOREIGN: true })).to.equal('OK foreign 2 false');
    expect(await t.db.collection('shellmine').countDocuments()).to.equal(2);
    expect(await t.db.collection('shellmine').indexes()).to.have.length(1);
    expect(await run({ COLL: 'system.js', GENERATE: true })).to.match(/^ERR .*system collection/);

    // A user's validated collection with a marker that names no identity: foreign, untouched; the
    // marker stays where it is (it grants nothing, and a refused run writes nothing at all).
    await t.db.createCollection('shellval', { validator: { a: { $lt: 500 } } });
    await t.db
      .collection('perflab_fixtures')
      .insertOne({ _id: 'shellval', fixture: 'where-ab', n: 5000, seed: 1, complete: false });
    expect(await run({ COLL: 'shellval', GENERATE: true })).to.match(
      /^ERR .*shellval is not the collection the lab made/,
    );
    expect(await t.db.collection('shellval').countDocuments()).to.equal(0);
    expect(await t.db.collection('perflab_fixtures').findOne({ _id: 'shellval' })).to.include({ complete: false });
    // A refused document in a collection the lab made: the load stops, its collection and marker go.
    expect(await run({ COLL: 'shellval2', GENERATE: true, VALIDATE: true })).to.match(
      /^ERR .*refused \d+ document\(s\).*Document failed validation/,
    );
    expect(await t.db.listCollections({ name: 'shellval2' }).toArray()).to.have.length(0);
    expect(await t.db.collection('perflab_fixtures').findOne({ _id: 'shellval2' })).to.equal(null);
  });
});
