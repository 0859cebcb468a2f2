'use strict';
// The timeseries study's derived designs (buckets, the time-series copy, the rollups) are copies of
// the events they were built from: each one's lab marker names those events (builtFrom: the events
// collection's UUID and count, and for the lab's events their fixture, N, seed and generator
// version). Events regenerated (another SEED or writer ID) make every kept design stale: rebuilt,
// never reused, and the answers agree with the plain-Node computation over the new events; the same
// events again reuse them; a collection under a derived name the lab did not make is refused and
// left as it is. Through the Node runner, the in-process shell and the real mongosh CLI.
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const tsFixture = require('../fixtures/timeseries');
const { expectedRows, sameRows } = require('../lib/studies/timeseries/oracle');

const N = 3000;
const DERIVED = ['bucket_minute', 'ts', 'rollup_minute', 'rollup_hour'];
// Every design, the grains that answer at this scale, one timed round.
const ALL = { N, ID: 'int', VARIANTS: '', GRAINS: 'hours,days', RUNS: 1 };

const markersOf = (t, coll) =>
  t.db
    .collection('perflab_fixtures')
    .find({ _id: { $in: [coll, ...DERIVED.map((d) => `${coll}_${d}`)] } })
    .toArray()
    .then((ms) => Object.fromEntries(ms.map((m) => [m._id, m])));

const built = (records) =>
  records
    .filter((r) => r.type === 'measure' && r.name === 'buildMs')
    .map((r) => r.variant)
    .sort();

/** Every derived design's marker names the events there now, and the build finished. */
async function expectBuiltFrom(t, coll, { fixture, seed }) {
  const m = await markersOf(t, coll);
  const ev = m[coll];
  expect(ev.fixture).to.equal(fixture);
  for (const d of DERIVED) {
    const mk = m[`${coll}_${d}`];
    expect(mk, d).to.be.an('object');
    expect(mk.complete, d).to.equal(true);
    expect(mk.builtFrom, d).to.include({ coll, uuid: ev.uuid, own: true, fixture, n: N, seed, count: N });
  }
  return m;
}

function expectAgreeing(records, designs = ['raw', 'bucket', 'timeseries', 'rollup']) {
  const results = records.filter((x) => x.type === 'result' && !x.skipped);
  expect(results.map((x) => x.variant)).to.include.members(designs);
  for (const x of results) expect(x.agrees, `${x.variant}/${x.axis.grain} against the Node computation`).to.equal(true);
}

/** A grain script's rows of one design (EMIT_GROUPS), against the Node computation over the events. */
function expectRowsOf(records, variant, events) {
  const rec = records.find((r) => r.type === 'result' && r.variant === variant && r.axis.grain === 'hours');
  expect(rec, `${variant}/hours`).to.be.an('object');
  const rows = rec.extra.intervals.flatMap((iv) =>
    iv.rows.map((r) => ({ t: new Date(r.t), count: Number(r.count), min: r.min, max: r.max, avg: r.avg })),
  );
  expect(rows.length, variant).to.be.greaterThan(0);
  expect(sameRows(rows, expectedRows('hours', events)), `${variant}: the Node computation's rows`).to.equal(true);
}

describe('timeseries study (source 003): derived designs name the events they were built from', function () {
  const t = useTestDatabase('tskeep');

  it('the Node runner: another SEED or ID rebuilds every design (its marker names the new events), the same events reuse them; the answers agree with Node', async function () {
    this.timeout(300000);
    const first = await t.study('timeseries', { ...ALL, COLL: 'keep', SEED: 5 });
    expect(built(first.records)).to.deep.equal(['bucket', 'rollup', 'timeseries']);
    expectAgreeing(first.records);
    const m1 = await expectBuiltFrom(t, 'keep', { fixture: 'timeseries-2012', seed: 5 });

    // the same events: nothing built, the same collections (UUIDs) read
    const same = await t.study('timeseries', { ...ALL, COLL: 'keep', SEED: 5 });
    expect(same.fixture.action).to.equal('reuse');
    expect(built(same.records)).to.deep.equal([]);
    expect(same.text).to.not.match(/building design/);
    expectAgreeing(same.records);
    const m2 = await expectBuiltFrom(t, 'keep', { fixture: 'timeseries-2012', seed: 5 });
    for (const d of DERIVED) expect(m2[`keep_${d}`].uuid, d).to.equal(m1[`keep_${d}`].uuid);

    // another seed: the events regenerated, every design rebuilt from them, never reused
    const seed6 = await t.study('timeseries', { ...ALL, COLL: 'keep', SEED: 6 });
    expect(seed6.fixture.action).to.equal('regenerate');
    expect(built(seed6.records)).to.deep.equal(['bucket', 'rollup', 'timeseries']);
    expect(seed6.text).to.match(/keep_bucket_minute was built from timeseries-2012 N=3000 seed=5, 3000 documents/);
    expectAgreeing(seed6.records);
    const m3 = await expectBuiltFrom(t, 'keep', { fixture: 'timeseries-2012', seed: 6 });
    expect(m3.keep.uuid).to.not.equal(m1.keep.uuid);
    for (const d of DERIVED) expect(m3[`keep_${d}`].uuid, d).to.not.equal(m1[`keep_${d}`].uuid);

    // another writer: the time-series copy carries the new events' ObjectId _ids, not the old ints
    const oid = await t.study('timeseries', { ...ALL, COLL: 'keep', SEED: 6, ID: 'objectId' });
    expect(oid.fixture.action).to.equal('regenerate');
    expect(built(oid.records)).to.deep.equal(['bucket', 'rollup', 'timeseries']);
    expectAgreeing(oid.records);
    await expectBuiltFrom(t, 'keep', { fixture: 'timeseries-2012-objectid', seed: 6 });
    const copied = await t.db.collection('keep_ts').find({}).limit(5).toArray();
    expect(copied.map((d) => d._id._bsontype)).to.deep.equal([
      'ObjectId',
      'ObjectId',
      'ObjectId',
      'ObjectId',
      'ObjectId',
    ]);
    expect(await t.db.collection('keep_ts').countDocuments()).to.equal(N);
  });

  it('a design whose build did not finish, or built before the lab named its events, is rebuilt', async function () {
    this.timeout(120000);
    await t.study('timeseries', { ...ALL, VARIANTS: 'raw,rollup', COLL: 'cut', SEED: 5 });
    await t.db.collection('perflab_fixtures').updateOne({ _id: 'cut_rollup_hour' }, { $set: { complete: false } });
    // a reader refuses it, with the reason
    let yearErr = null;
    await t.run('agg_year.js', { COLL: 'cut', VARIANTS: 'rollup', PRINT_ROWS: false }).catch((e) => {
      yearErr = e;
    });
    expect(String(yearErr && yearErr.message)).to.match(
      /design rollup: \S*cut_rollup_hour: its build did not finish: run ts_designs.js first/,
    );
    const again = await t.study('timeseries', { ...ALL, VARIANTS: 'raw,rollup', COLL: 'cut', SEED: 5 });
    expect(built(again.records)).to.deep.equal(['rollup']);
    expect(again.text).to.match(/cut_rollup_hour: its build did not finish: rebuilding/);
    await t.db.collection('perflab_fixtures').updateOne({ _id: 'cut_rollup_minute' }, { $unset: { builtFrom: '' } });
    const old = await t.study('timeseries', { ...ALL, VARIANTS: 'raw,rollup', COLL: 'cut', SEED: 5 });
    expect(built(old.records)).to.deep.equal(['rollup']);
    expect(old.text).to.match(/cut_rollup_minute was built from no events named/);
    expectAgreeing(old.records, ['raw', 'rollup']);
  });

  it("a collection under a derived name that is not the lab's (no marker, or a marker naming another UUID) is refused and left as it is", async function () {
    this.timeout(120000);
    await t.study('timeseries', { ...ALL, VARIANTS: 'raw,bucket', COLL: 'theirs', SEED: 5 });
    // the user's own collection under a derived name, and the lab's buckets dropped and made again by hand
    await t.db.collection('theirs_rollup_hour').insertOne({ _id: 'mine', keep: true });
    await t.db.collection('theirs_bucket_minute').drop();
    await t.db.collection('theirs_bucket_minute').insertOne({ _id: 'mine too' });
    const before = await t.db.listCollections({ name: /^theirs_/ }).toArray();
    let err = null;
    await t.study('timeseries', { ...ALL, COLL: 'theirs', SEED: 6 }).catch((e) => {
      err = e;
    });
    expect(err, 'refused').to.not.equal(null);
    expect(err.message).to.match(/theirs_bucket_minute/);
    expect(err.message).to.match(/theirs_rollup_hour/);
    expect(err.message).to.match(/never fills, indexes, drops or converts a collection it did not make/);
    const after = await t.db.listCollections({ name: /^theirs_/ }).toArray();
    expect(after.map((c) => [c.name, String(c.info.uuid)]).sort()).to.deep.equal(
      before.map((c) => [c.name, String(c.info.uuid)]).sort(),
    );
    expect(await t.db.collection('theirs_rollup_hour').find({}).toArray()).to.deep.equal([{ _id: 'mine', keep: true }]);
    expect(await t.db.collection('theirs_bucket_minute').find({}).toArray()).to.deep.equal([{ _id: 'mine too' }]);
    // the events were not regenerated either: the refusal comes before any work
    expect((await markersOf(t, 'theirs')).theirs.seed).to.equal(5);

    // the shell's own path refuses them the same way
    let shellErr = null;
    await t
      .run('ts_designs.js', { COLL: 'theirs', N, SEED: 5, VARIANTS: 'raw,bucket', BUILD_ONLY: true })
      .catch((e) => {
        shellErr = e;
      });
    expect(String(shellErr && shellErr.message)).to.match(
      /theirs_bucket_minute .*(not the collection the lab made|was not made by the lab)/,
    );
    expect(await t.db.collection('theirs_bucket_minute').find({}).toArray()).to.deep.equal([{ _id: 'mine too' }]);
  });

  it('the real mongosh CLI: ts_designs.js rebuilds the designs of regenerated events, reuses them for the same events; a grain script skips stale ones', async function () {
    this.timeout(300000);
    const D = { COLL: 'cli', N, SEED: 5, VARIANTS: 'raw,bucket,timeseries', GRAINS: 'hours', RUNS: 1 };
    const G = { COLL: 'cli', N, SEED: 5, VARIANTS: 'raw,bucket,timeseries', EMIT_GROUPS: true, PRINT_ROWS: false };
    const batch = await t.cliBatch([
      { script: 'ts_designs.js', params: { ...D, GENERATE: true } },
      { script: 'ts_designs.js', params: D },
      // the other writer: the shell regenerates the events; the designs kept are the int events'
      { script: 'ts_hours_in_day.js', params: { ...G, ID: 'objectId' } },
      { script: 'ts_designs.js', params: { ...D, ID: 'objectId' } },
      { script: 'ts_hours_in_day.js', params: { ...G, ID: 'objectId' } },
    ]);
    const [build, reuse, stale, rebuild, after] = batch.cases;
    for (const c of batch.cases) expect(c.error, c.stdout).to.equal(null);
    expect(build.stdout).to.match(/built bucket in/);
    expect(build.stdout).to.match(/built timeseries in/);
    expect(reuse.stdout).to.not.match(/building design/);
    expect(reuse.stdout).to.match(/\(existed\)/);
    expect(stale.stdout).to.match(/regenerating/);
    expect(stale.stdout).to.match(
      /bucket: \S*cli_bucket_minute was built from timeseries-2012 N=3000 seed=5, 3000 documents, UUID [0-9a-f]{32}; the events are now timeseries-2012-objectid N=3000 seed=5, 3000 documents, UUID [0-9a-f]{32}, run ts_designs.js first \(skipped\)/,
    );
    expect(stale.records.filter((r) => r.type === 'result').map((r) => r.variant)).to.deep.equal(['raw']);
    expect(rebuild.stdout).to.match(/note: design bucket: \S*cli_bucket_minute was built from timeseries-2012 N=3000/);
    expect(rebuild.stdout).to.match(/built bucket in/);
    expect(rebuild.stdout).to.match(/built timeseries in/);
    const events = [...tsFixture.events(N, 5, 'objectId')];
    for (const v of ['raw', 'bucket', 'timeseries']) expectRowsOf(after.records, v, events);
    await expectBuiltFromPart(t, 'cli', ['bucket_minute', 'ts'], 'timeseries-2012-objectid');
    const copied = await t.db.collection('cli_ts').findOne({});
    expect(copied._id._bsontype).to.equal('ObjectId');
  });
});

async function expectBuiltFromPart(t, coll, parts, fixture) {
  const m = await markersOf(t, coll);
  for (const d of parts)
    expect(m[`${coll}_${d}`].builtFrom, d).to.include({ uuid: m[coll].uuid, fixture, seed: 5, count: N });
}
