'use strict';
// The source's writer for 003-bytes (issue #34): the timeseries study's ID = objectId writes the
// events with ObjectId _ids, the same documents byte for byte from the Node loader and from the
// shell's generator (in-process and through the real mongosh CLI); every run records an idType
// measure read from the data; 003-bytes/data's gate passes on such a run's records and refuses an
// int run's; a lab marker never lets one writer's events stand for the other's.
const { expect } = require('chai');
const { BSON } = require('mongodb');
const { useTestDatabase } = require('./helpers');
const tsFixture = require('../fixtures/timeseries');
const LabGen = require('../fixtures/gen');
const claims = require('../lib/core/claims');
const { findStudy } = require('../lib/studies');

const N = 3000;
const SEED = 5;
const WT = { server: { version: '6.0.5', storageEngine: 'wiredTiger' }, host: { cores: 2 } };
// The study at its smallest: the raw design, one grain, one timed round.
const SMALL = { N, SEED, VARIANTS: 'raw', GRAINS: 'hours', RUNS: 1 };

/** Every document of db.<coll> as its raw BSON in hex, in _id order. */
async function rawDocs(db, coll) {
  const docs = await db.collection(coll).find({}, { raw: true }).sort({ _id: 1 }).toArray();
  return docs.map((b) => Buffer.from(b).toString('hex'));
}

const bsonHex = (events) => [...events].map((e) => Buffer.from(BSON.serialize(e)).toString('hex'));
const idTypeOf = (records) => records.filter((r) => r.type === 'measure' && r.name === 'idType').map((r) => r.value);
const bytesData = (records) =>
  claims.judge(findStudy('timeseries'), records, WT, {}).find((c) => c.id === '003-bytes/data');

describe("timeseries study (source 003): the source's writer, ObjectId _ids (ID)", function () {
  const t = useTestDatabase('tswriter');

  it("the Node loader and the shell's generator write the same ObjectId events byte for byte: 57 B each, _ids rising with the insert order, created_on and value the int writer's", async function () {
    const want = [...tsFixture.events(N, SEED, 'objectId')];
    const ints = [...tsFixture.events(N, SEED)];
    expect(want.map((e) => [e.created_on, e.value])).to.deep.equal(ints.map((e) => [e.created_on, e.value]));
    // strictly increasing with i (the source's client made them at insert time), across a second's edge
    const hex = want.map((e) => e._id.toHexString());
    expect(hex.every((h, i) => i === 0 || h > hex[i - 1])).to.equal(true);
    const far = LabGen.tsObjectIdMachine(SEED);
    expect(LabGen.tsObjectIdHex(far, 16383) < LabGen.tsObjectIdHex(far, 16384)).to.equal(true);
    expect(LabGen.tsObjectIdHex(far, 16777215) < LabGen.tsObjectIdHex(far, 16777216)).to.equal(true);
    expect(hex[0].slice(0, 8)).to.equal('52cb898b'); // the second of the source's printed _id

    const loaded = await tsFixture.load(t.db, { n: N, seed: SEED, idType: 'objectId', coll: 'nodeMade' });
    expect(loaded.generated).to.equal(true);
    const r = await t.run('ts_hours_in_day.js', {
      COLL: 'shellMade',
      GENERATE: true,
      N,
      SEED,
      ID: 'objectId',
      VARIANTS: 'raw',
      EMIT_GROUPS: false,
      PRINT_ROWS: false,
    });
    expect(r.lines.join('\n')).to.match(/generated 3,?000 documents/);
    const node = await rawDocs(t.db, 'nodeMade');
    expect(node).to.deep.equal(bsonHex(want));
    expect(await rawDocs(t.db, 'shellMade')).to.deep.equal(node);
    expect(node.every((h) => h.length === 2 * 57)).to.equal(true);
    expect((await t.db.command({ collStats: 'nodeMade' })).size).to.equal(57 * N);
    // the markers name the writer
    const marks = await t.db
      .collection('perflab_fixtures')
      .find({ _id: { $in: ['nodeMade', 'shellMade'] } })
      .toArray();
    expect(marks.map((m) => m.fixture)).to.deep.equal(['timeseries-2012-objectid', 'timeseries-2012-objectid']);
  });

  it('a run records idType from the data; 003-bytes/data holds on an objectId run and is not reproduced (writer) on an int run; ID=objectId regenerates kept int events', async function () {
    const intRun = await t.study('timeseries', { ...SMALL, COLL: 'runs', ID: 'int' });
    expect(idTypeOf(intRun.records)).to.deep.equal(['int']);
    const refused = bytesData(intRun.records);
    expect(refused.verdict).to.equal(claims.VERDICT.NOT_REPRODUCED);
    expect(refused.setting.absent).to.equal('writer');
    expect(refused.figure).to.match(/49\.0 B of documents per event/);

    // the same collection, kept: the other writer's events are the lab's but not this fixture
    // every design, built from the ObjectId events (the time-series copy carries their _ids)
    const oidRun = await t.study('timeseries', {
      ...SMALL,
      COLL: 'runs',
      ID: 'objectId',
      VARIANTS: '',
      GRAINS: 'hours,days',
    });
    expect(oidRun.fixture.action).to.equal('regenerate');
    expect(idTypeOf(oidRun.records)).to.deep.equal(['objectId']);
    expect(await tsFixture.idTypeFound(t.db, 'runs')).to.equal('objectId');
    const results = oidRun.records.filter((x) => x.type === 'result' && !x.skipped);
    expect(results.map((x) => `${x.variant}/${x.axis.grain}`)).to.include.members([
      'raw/hours',
      'rollup/days',
      'timeseries/days',
    ]);
    for (const x of results)
      expect(x.agrees, `${x.variant}/${x.axis.grain} against the Node computation`).to.equal(true);
    const held = bytesData(oidRun.records);
    expect(held.verdict, held.why).to.equal(claims.VERDICT.HOLDS);
    expect(held.setting.ok).to.equal(true);
    expect(held.figure).to.match(/57\.0 B of documents per event/);

    // and back: a kept objectId collection is never reused by an int run
    const again = await t.study('timeseries', { ...SMALL, COLL: 'runs', ID: 'int' });
    expect(again.fixture.action).to.equal('regenerate');
    expect(idTypeOf(again.records)).to.deep.equal(['int']);
    const same = await t.study('timeseries', { ...SMALL, COLL: 'runs', ID: 'int' });
    expect(same.fixture.action).to.equal('reuse');
  });

  it("the shell's generator regenerates the lab's events of the other writer (never reuses them), and idType reads the data: mixed, none", async function () {
    await tsFixture.load(t.db, { n: N, seed: SEED, coll: 'kept' });
    const r = await t.run('ts_hours_in_day.js', { COLL: 'kept', N, SEED, ID: 'objectId', VARIANTS: 'raw' });
    expect(r.lines.join('\n')).to.match(
      /fixture=timeseries-2012 [^\n]*, now fixture=timeseries-2012-objectid n=3000 seed=5: regenerating/,
    );
    expect(await rawDocs(t.db, 'kept')).to.deep.equal(bsonHex(tsFixture.events(N, SEED, 'objectId')));
    // the same writer: kept as it is, whatever N the script names
    const kept = await t.run('ts_hours_in_day.js', { COLL: 'kept', N: 10, SEED, ID: 'objectId', VARIANTS: 'raw' });
    expect(kept.lines.join('\n')).to.include('note: using the 3,000 events already loaded');
    expect(await tsFixture.idTypeFound(t.db, 'kept')).to.equal('objectId');

    await t.db.collection('kept').insertMany(tsFixture.edgeEvents(SEED).slice(0, 3));
    expect(await tsFixture.idTypeFound(t.db, 'kept')).to.equal('mixed');
    await t.db.createCollection('nothing');
    expect(await tsFixture.idTypeFound(t.db, 'nothing')).to.equal('none');
  });

  it('ID other than int or objectId: one line naming the parameter, nothing written (Node and shell)', async function () {
    let err = null;
    await t.study('timeseries', { ...SMALL, COLL: 'badId', ID: 'oid' }).catch((e) => {
      err = e;
    });
    expect(err && err.name).to.equal('ParameterError');
    expect(err.message).to.match(/^parameter ID: expected int or objectId .* got "oid"$/);
    let shellErr = null;
    await t.run('ts_hours_in_day.js', { COLL: 'badId', GENERATE: true, N, ID: 'oid' }).catch((e) => {
      shellErr = e;
    });
    expect(String(shellErr && shellErr.message)).to.match(/parameter ID: expected int or objectId/);
    expect(await t.db.listCollections({ name: 'badId' }).toArray()).to.deep.equal([]);
  });

  it('the real mongosh CLI: generates the ObjectId events byte for byte, ts_designs.js records idType, a bad ID exits non-zero in one line', async function () {
    this.timeout(300000);
    const batch = await t.cliBatch(
      [
        {
          script: 'ts_hours_in_day.js',
          params: { COLL: 'cliMade', GENERATE: true, N: 2000, SEED, ID: 'objectId', VARIANTS: 'raw' },
        },
        {
          script: 'ts_designs.js',
          params: { COLL: 'cliMade', N: 2000, SEED, ID: 'objectId', VARIANTS: 'raw', GRAINS: 'hours', RUNS: 1 },
        },
        { script: 'ts_hours_in_day.js', params: { COLL: 'cliBad', GENERATE: true, N: 10, ID: 'oid' } },
      ],
      { lastUncaught: true },
    );
    const [gen, designs, bad] = batch.cases;
    expect(gen.error, gen.stdout).to.equal(null);
    expect(await rawDocs(t.db, 'cliMade')).to.deep.equal(bsonHex(tsFixture.events(2000, SEED, 'objectId')));
    expect(designs.error, designs.stdout).to.equal(null);
    expect(idTypeOf(designs.records)).to.deep.equal(['objectId']);
    expect(batch.code).to.not.equal(0);
    const said = `${bad.stdout}\n${batch.stderr}`;
    expect(said).to.match(/parameter ID: expected int or objectId/);
    expect(said).to.not.match(/\n\s+at .*:\d+:\d+/);
  });
});
