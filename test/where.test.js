'use strict';
// Seed 001: $where versus plain, hybrid and aggregation queries.
const os = require('os');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const whereFixture = require('../fixtures/where-ab');
const { findStudy } = require('../lib/studies');
const { compareVariants } = require('../lib/run-study');
const { summarizeComparison } = require('../lib/report');

const SCRIPT = 'where_vs_agg.js';
const N = 5000;
const SEED = 7;

// The independent computation: the predicate in plain JavaScript over the same generated docs.
function expectedCount(n, seed) {
  let count = 0;
  for (const d of whereFixture.docs(n, seed)) if (d.a > d.b && d.b < 5) count++;
  return count;
}

function rowsByVariant(records) {
  return Object.fromEntries(records.filter((r) => r.kind === 'row').map((r) => [r.variant, r]));
}

describe('where study (seed 001): $where vs plain, hybrid, aggregation, $expr, $function', function () {
  let t;
  let inProcess;
  const expected = expectedCount(N, SEED);

  before(async function () {
    t = await testDatabase('where');
    await whereFixture.load(t.db, { n: N, seed: SEED });
    inProcess = await t.run(SCRIPT, { N, SEED, RUNS: 1 });
  });
  after(async function () {
    if (t) await t.close();
  });

  it('has enough matching documents for the check to mean something', function () {
    expect(expected).to.be.greaterThan(10);
  });

  it('every variant counts what plain Node counts over the same seeded documents', function () {
    const rows = rowsByVariant(inProcess.records);
    expect(Object.keys(rows)).to.have.members(findStudy('where').variants);
    for (const [name, row] of Object.entries(rows)) {
      expect(row.count, name).to.equal(expected);
    }
    expect(inProcess.lines.join('\n')).to.include(`all variants agree: ${expected}`);
  });

  it('explain: the hybrid and the indexed $expr use IXSCAN; the plain forced scan is a COLLSCAN', function () {
    const rows = rowsByVariant(inProcess.records);
    expect(rows.hybrid.plan).to.equal('IXSCAN');
    expect(rows['expr-find'].plan).to.equal('IXSCAN');
    expect(rows['expr-agg'].plan).to.equal('IXSCAN');
    expect(rows.plain.plan).to.equal('COLLSCAN');
    expect(rows.where.plan).to.equal('COLLSCAN');
    for (const row of Object.values(rows)) expect(row.explainVersion).to.be.oneOf(['1', '2']);
  });

  it('prints a header naming server version, storage engine and query engine, and a table', function () {
    const text = inProcess.lines.join('\n');
    expect(text).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger \| query framework \w+/);
    expect(text).to.match(/variant\s+count\s+mean ± σ\s+min\.\.max\s+runs\s+x fastest\s+plan\s+explainVersion/);
    const server = inProcess.records.find((r) => r.kind === 'server');
    expect(server).to.include({ storageEngine: 'wiredTiger', docs: N });
  });

  it('generates the same documents itself when run on an empty collection (shell and Node generators agree)', async function () {
    const n = 3000;
    const r = await t.run(SCRIPT, { N: n, SEED: 11, COLL: 'selfmade', RUNS: 0, ONLY: 'expr-find,plain' });
    expect(r.lines.join('\n')).to.include('generated 3,000 documents');
    for (const row of r.records.filter((x) => x.kind === 'row')) expect(row.count).to.equal(expectedCount(n, 11));
    const docs = await t.db.collection('selfmade').find().sort({ _id: 1 }).limit(3).toArray();
    expect(docs).to.deep.equal([...whereFixture.docs(3, 11)]);
  });

  it('relative speed: $where is at least 10x slower than the $expr hybrid (median of interleaved runs)', async function () {
    const session = await t.shell();
    const res = await compareVariants(session, findStudy('where'), ['expr-find', 'where'],
      { docs: N, seed: SEED, rounds: 3, warmup: 1 });
    this.test.title += ` [measured ${res.variants.where.ratio.median.toFixed(0)}x]`;
    if (process.env.LAB_VERBOSE) console.log(summarizeComparison(res));
    expect(res.variants.where.ratio.median).to.be.at.least(10);
  });

  it('the real mongosh CLI runs the script from another directory and prints the same results', async function () {
    const r = await t.cli(SCRIPT, { N, SEED, RUNS: 1 }, { cwd: os.tmpdir() });
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.include('plan');
    expect(r.stdout).to.match(/hybrid\s+[\d,]+\s.*IXSCAN/);
    const cli = rowsByVariant(require('../lib/lab-lines').parseLabLines(r.lines));
    const inproc = rowsByVariant(inProcess.records);
    for (const name of Object.keys(inproc)) {
      expect({ count: cli[name].count, plan: cli[name].plan }, name)
        .to.deep.equal({ count: inproc[name].count, plan: inproc[name].plan });
    }
  });

  describe('bad parameters', function () {
    const cases = [
      [{ N: -1 }, /parameter N: expected a whole number >= 0, got -1/],
      [{ N: 'abc' }, /parameter N: expected a whole number >= 0, got "abc" \(string\)/],
      [{ N: 2.5 }, /parameter N: expected a whole number >= 0, got 2\.5/],
      [{ RUNS: '3' }, /parameter RUNS: expected a whole number >= 0, got "3" \(string\)/],
      [{ COLL: 'x"; db.dropDatabase(); "' }, /parameter COLL: expected a collection or field name/],
      [{ ONLY: 'nosuch' }, /parameter ONLY: unknown variant "nosuch"/],
    ];
    for (const [params, message] of cases) {
      it(`rejects ${JSON.stringify(params)} in-process with a clear error, touching nothing`, async function () {
        let err;
        try {
          await t.run(SCRIPT, { N, SEED, ...params });
        } catch (e) { err = e; }
        expect(err, 'expected an error').to.exist;
        expect(err.message).to.match(message);
        expect(await t.db.collection('mine').countDocuments()).to.equal(N);
      });
    }

    it('the mongosh CLI exits non-zero with the same message for a string where a number belongs', async function () {
      const r = await t.cli(SCRIPT, { N: 'abc' }, { cwd: os.tmpdir() });
      expect(r.code).to.not.equal(0);
      expect(r.stderr + r.stdout).to.match(/parameter N: expected a whole number >= 0, got "abc"/);
    });
  });
});
