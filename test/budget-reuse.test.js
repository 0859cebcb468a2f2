'use strict';
// #37 item 3, data reuse on the user's server: a run with --keep leaves the data it generated,
// marked; a re-run with the same generator, seed and size reuses it by its marker (the same
// collection, same UUID, not generated again) and says so; another seed regenerates only the lab's
// own collection (a new UUID); `clean` removes what was kept. A collection the lab did not make at
// that name is never filled (the ownership protocol: docs/safety.md).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri, labRun, tinyArgs } = require('./helpers');

const DB = 'labtest_budget_reuse';
const FOREIGN_DB = 'labtest_budget_reuse_foreign';

describe('--keep, then a re-run: the generated data reused where its marker proves it the same', function () {
  this.timeout(300000); // tiny runs of where: seconds each quiet, a minute on a loaded machine
  let client;
  let out;
  let runs = 0;
  // each run its own --out: the same result file again would resume, measuring nothing
  const runWhere = (db, extra = []) =>
    labRun(tinyArgs('run', 'where', db, '--no-charts', '--out', path.join(out, String(++runs)), ...extra), {
      cwd: process.cwd(),
    }).done;
  // The where fixture's marker: the one marker of the database with a generator (fixture) field.
  const fixtureMarker = () =>
    client
      .db(DB)
      .collection('perflab_fixtures')
      .findOne({ fixture: { $exists: true } });

  before(async function () {
    client = await MongoClient.connect(testUri());
    for (const db of [DB, FOREIGN_DB]) await client.db(db).dropDatabase();
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-reuse-'));
  });
  after(async function () {
    for (const db of [DB, FOREIGN_DB]) await client.db(db).dropDatabase();
    await client.close();
    fs.rmSync(out, { recursive: true, force: true });
  });

  let first;
  it('a run with --keep leaves its generated data, marked with generator, seed and size, and says how to remove it', async function () {
    const r = await runWhere(DB, ['--keep']);
    expect(r.code, r.stderr).to.equal(0);
    first = await fixtureMarker();
    expect(first, 'the fixture marker').to.not.equal(null);
    expect(first).to.include({ complete: true, seed: 1 });
    expect(first.fixture).to.be.a('string');
    expect(first.n).to.be.a('number');
    expect(first.uuid).to.match(/^[0-9a-f]{32}$/);
    expect(first.generatorVersion).to.equal(require('../scripts/lib/fixture').GENERATOR_VERSION);
    expect(r.stdout + r.stderr).to.match(/--keep/);
    expect(r.stdout + r.stderr).to.match(/mongo-perf-lab clean/);
  });

  it('a re-run reuses it: the same collection (same UUID), not generated again, and says so', async function () {
    const r = await runWhere(DB);
    expect(r.code, r.stderr).to.equal(0);
    const again = await fixtureMarker();
    expect(again.uuid).to.equal(first.uuid);
    expect(again.made.at.getTime()).to.equal(first.made.at.getTime());
    // the line may wrap at 100 columns
    const said = r.stderr.replace(/\s+/g, ' ');
    expect(said).to.contain(`where: reuses ${DB}.${first._id}`);
    expect(said).to.contain("its lab marker names this collection's UUID, generator, seed and size");
    // a run that found the data there leaves it there (it was the lab's at the start)
    const colls = (await client.db(DB).listCollections({ name: first._id }).toArray()).length;
    expect(colls).to.equal(1);
  });

  it("another seed regenerates the lab's own collection: a new UUID, the new seed in its marker", async function () {
    const r = await runWhere(DB, ['--seed', '2', '--keep']);
    expect(r.code, r.stderr).to.equal(0);
    const other = await fixtureMarker();
    expect(other.seed).to.equal(2);
    expect(other.uuid).to.not.equal(first.uuid);
    expect(r.stderr).not.to.contain('where: reuses');
  });

  it('a collection the lab did not make at that name is never filled: the run refuses in one line', async function () {
    const coll = client.db(FOREIGN_DB).collection(first._id);
    await coll.insertOne({ _id: 'mine', a: 1 });
    const r = await runWhere(FOREIGN_DB);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.match(/was not made by the lab|not the collection the lab made/);
    expect(await coll.find().toArray()).to.deep.equal([{ _id: 'mine', a: 1 }]);
  });

  it('clean removes what was kept', async function () {
    const r = await labRun(['clean', '--uri', testUri(), '--db', DB], { cwd: process.cwd() }).done;
    expect(r.code, r.stderr).to.equal(0);
    const dbs = await client.db('admin').admin().listDatabases({ nameOnly: true });
    expect(dbs.databases.map((d) => d.name)).to.not.include(DB);
  });
});
