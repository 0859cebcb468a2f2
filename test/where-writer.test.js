'use strict';
// The source's writer for 001-where-38mb (issue #34): the 2016 shell stored {_id: i, a, b} as three
// BSON doubles (40 B a document). The Node loader and the script's own generator (in-process and
// through the real mongosh CLI) write those bytes, the same for the same N and SEED; the data-size
// measure records the types read from the data; the claim's writer gate passes on such a run's
// records and refuses int32 ones; a lab marker never lets the earlier int32 documents stand for them.
const os = require('os');
const { expect } = require('chai');
const { BSON } = require('mongodb');
const { useTestDatabase } = require('./helpers');
const whereFixture = require('../fixtures/where-ab');
const LabGen = require('../fixtures/gen');
const claims = require('../lib/core/claims');
const { ensureFixture } = require('../lib/infra/loader');
const whereStudy = require('../lib/studies/where');
const { writtenTypes } = require('../lib/studies/where/checks');

const SCRIPT = 'where_vs_agg.js';
const N = 2000;
const SEED = 3;
const DOUBLES = { _id: 'double', a: 'double', b: 'double' };
// The variants that need no JavaScript on the server: the answers, quickly.
const QUICK = { RUNS: 1, WARMUP: 0, VARIANTS: 'plain,hybrid,expr-find,source-agg' };

/** Every document of db.<coll> as its raw BSON in hex, in _id order. */
async function rawDocs(db, coll) {
  const docs = await db.collection(coll).find({}, { raw: true }).sort({ _id: 1 }).toArray();
  return docs.map((b) => Buffer.from(b).toString('hex'));
}

const bsonHex = (docs) => [...docs].map((d) => Buffer.from(BSON.serialize(d)).toString('hex'));
const measured = (records, name) => records.find((r) => r.type === 'measure' && r.name === name).value;
const judged38 = (records) =>
  claims
    .judge(whereStudy, records, { profile: 'quick', server: { version: '6.0.5' } }, { where: { N } })
    .find((j) => j.id === '001-where-38mb');

/** The lab's earlier writer: whereDoc's numbers as they are (the driver stores the integral _id as an int32). */
function* int32Docs(n, seed) {
  const next = LabGen.rng(seed);
  for (let i = 0; i < n; i++) yield LabGen.whereDoc(next, i);
}

function oracle(n, seed) {
  let count = 0;
  for (const d of int32Docs(n, seed)) if (d.a > d.b && d.b < 5) count++;
  return count;
}

describe("where study (source 001): the source's writer, {_id, a, b} as doubles (001-where-38mb)", function () {
  const t = useTestDatabase('wherewriter');

  it("the Node loader, the script's generator in-process and through the real mongosh CLI write the same 40 B documents of three doubles", async function () {
    const want = bsonHex(whereFixture.docs(N, SEED));
    expect(want.every((h) => h.length === 2 * 40)).to.equal(true);
    // the values are the generator's: only their BSON type changed
    expect([...whereFixture.docs(N, SEED)].map(whereFixture.plain)).to.deep.equal([...int32Docs(N, SEED)]);

    expect((await whereFixture.load(t.db, { n: N, seed: SEED, coll: 'nodeMade' })).generated).to.equal(true);
    const shell = await t.run(SCRIPT, { N, SEED, COLL: 'shellMade', GENERATE: true, RUNS: 0, VARIANTS: 'plain' });
    expect(shell.lines.join('\n')).to.match(/generated 2,?000 documents/);
    const cli = await t.cli(
      SCRIPT,
      { N, SEED, COLL: 'cliMade', GENERATE: true, RUNS: 0, VARIANTS: 'plain' },
      { cwd: os.tmpdir() },
    );
    expect(cli.code, cli.stderr).to.equal(0);

    const node = await rawDocs(t.db, 'nodeMade');
    expect(node).to.deep.equal(want);
    expect(await rawDocs(t.db, 'shellMade'), 'in-process mongosh').to.deep.equal(node);
    expect(await rawDocs(t.db, 'cliMade'), 'the mongosh CLI').to.deep.equal(node);
    expect((await t.db.command({ collStats: 'nodeMade' })).size).to.equal(40 * N);
    for (const coll of ['nodeMade', 'shellMade', 'cliMade'])
      expect((await writtenTypes(t.db, coll)).types, coll).to.deep.equal(DOUBLES);
    const marks = await t.db
      .collection('perflab_fixtures')
      .find({ _id: { $in: ['nodeMade', 'shellMade', 'cliMade'] } })
      .toArray();
    expect(marks.map((m) => m.fixture)).to.deep.equal(Array(3).fill(whereFixture.FIXTURE));
    expect(whereFixture.FIXTURE).to.equal('where-ab-doubles');
  });

  it("a run records the types read from the data beside the size; 001-where-38mb holds on it and refuses int32 records (writer); every answer is the oracle's", async function () {
    const run = await t.study('where', { N, SEED, ...QUICK });
    const size = measured(run.records, 'data-size');
    expect(size).to.include({ bytes: 40 * N, count: N });
    expect(size.types).to.deep.equal(DOUBLES);
    expect(size.typeCounts).to.deep.equal([{ ...DOUBLES, n: N }]);
    const ok = judged38(run.records);
    expect(ok.verdict, ok.why).to.equal('holds');
    expect(ok.figure).to.match(/40\.0 B each, _id double, a double, b double.*1\.00x/);
    for (const r of run.records.filter((x) => x.type === 'result')) {
      expect(r.answer, r.variant).to.equal(oracle(N, SEED));
      expect(r.agrees, r.variant).to.equal(true);
    }
    expect(measured(run.records, 'where-functional').whereAgrees).to.equal(true);

    // the same records with the lab's earlier writer's types and size: refused, the figure beside
    const ints = run.records.map((r) =>
      r.type === 'measure' && r.name === 'data-size'
        ? { ...r, value: { ...r.value, bytes: 36 * N, types: { ...DOUBLES, _id: 'int' } } }
        : r,
    );
    const refused = judged38(ints);
    expect(refused.verdict).to.equal('not-reproduced');
    expect(refused.setting.absent).to.equal('writer');
    expect(refused.setting.here).to.match(/_id as int, a as double, b as double \(recorded\)/);
  });

  it('a field of several types reads mixed, with the counts beside (the gate refuses it)', async function () {
    const c = t.db.collection('mixedTypes');
    await c.insertMany([...whereFixture.docs(5, SEED)]);
    await c.insertOne({ _id: 99, a: 1.5, b: 2.5 }); // an int32 _id among the doubles
    const w = await writtenTypes(t.db, 'mixedTypes');
    expect(w.types).to.deep.equal({ ...DOUBLES, _id: 'mixed' });
    expect(w.typeCounts).to.deep.equal([
      { ...DOUBLES, n: 5 },
      { ...DOUBLES, _id: 'int', n: 1 },
    ]);
    expect(
      judged38([
        { type: 'measure', study: 'where', name: 'data-size', axis: {}, value: { bytes: 40 * 6, count: 6, ...w } },
      ]).verdict,
    ).to.equal('not-reproduced');
  });

  it("kept int32 documents of the lab's earlier writer are regenerated as doubles, never reused (Node loader, study run, shell)", async function () {
    const keep = async (coll) => {
      const r = await ensureFixture(t.db, coll, { fixture: 'where-ab', n: N, seed: SEED }, () => int32Docs(N, SEED));
      expect(r.generated).to.equal(true);
      const w = await writtenTypes(t.db, coll);
      expect(w.types, 'the earlier writer').to.deep.equal({ ...DOUBLES, _id: 'int' });
    };
    const want = bsonHex(whereFixture.docs(N, SEED));

    await keep('keptNode');
    const r = await whereFixture.load(t.db, { n: N, seed: SEED, coll: 'keptNode' });
    expect(r.action).to.equal('regenerate');
    expect(await rawDocs(t.db, 'keptNode')).to.deep.equal(want);

    await keep('mine');
    const run = await t.study('where', { N, SEED, RUNS: 0, VARIANTS: 'expr-find' });
    expect(measured(run.records, 'data-size').types).to.deep.equal(DOUBLES);
    expect(await rawDocs(t.db, 'mine')).to.deep.equal(want);

    await keep('keptShell');
    const s = await t.run(SCRIPT, { N, SEED, COLL: 'keptShell', RUNS: 0, VARIANTS: 'expr-find' });
    expect(s.lines.join('\n')).to.match(
      /keptShell generated by the lab for .*fixture=where-ab n=.*now fixture=where-ab-doubles .*regenerating/,
    );
    expect(s.records.find((x) => x.type === 'environment').fixture).to.include({
      action: 'regenerate',
      name: 'where-ab-doubles',
    });
    expect(await rawDocs(t.db, 'keptShell')).to.deep.equal(want);
  });
});
