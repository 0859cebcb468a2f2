'use strict';
// The end-of-run drop of a database the run created (lib/infra/tracked-databases.js trackDatabase) drops it
// only while every collection in it is the lab's by identity (lib/infra/targets.js ownsAll): a
// collection someone else added meanwhile keeps the whole database in place, untouched.
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri } = require('./helpers');
const cleanup = require('../lib/infra/cleanup');
const { trackDatabase } = require('../lib/infra/tracked-databases');
const { createOwned } = require('../lib/infra/targets');

describe('safety: the drop of a database the run created proves every collection by its UUID', function () {
  let client;
  const logs = [];
  before(async function () {
    client = await new MongoClient(testUri()).connect();
    cleanup.install({ signals: false, log: (m) => logs.push(m) });
  });
  after(async function () {
    for (const n of ['labtest_drop_owned', 'labtest_drop_foreign', 'labtest_drop_again'])
      await client.db(n).dropDatabase();
    await client.close();
    cleanup.install({ signals: false, log: (m) => process.stderr.write(m + '\n') });
  });
  const exists = async (name) =>
    (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases.some((d) => d.name === name);

  it("a database holding only the lab's collections is dropped", async function () {
    const tracked = await trackDatabase(testUri(), 'labtest_drop_owned');
    expect(tracked.created).to.equal(true);
    await createOwned(client.db('labtest_drop_owned'), 'mine');
    await tracked.drop();
    expect(await exists('labtest_drop_owned')).to.equal(false);
  });

  it('a collection the lab did not make keeps the database, and its documents, in place', async function () {
    const tracked = await trackDatabase(testUri(), 'labtest_drop_foreign');
    const db = client.db('labtest_drop_foreign');
    await createOwned(db, 'mine');
    await db.collection('theirs').insertOne({ _id: 1, keep: true });
    await tracked.drop();
    expect(await exists('labtest_drop_foreign')).to.equal(true);
    expect(await db.collection('theirs').find().toArray()).to.deep.equal([{ _id: 1, keep: true }]);
    expect(logs.join('\n')).to.match(/left database labtest_drop_foreign in place/);
  });

  it('what re-appears after the drop is dropped again only under the same proof: a foreign collection survives', async function () {
    const name = 'labtest_drop_again';
    const tracked = await trackDatabase(testUri(), name);
    await createOwned(client.db(name), 'mine');
    // Someone writes into the database the moment it is gone (the drop loop looks again 250 ms on).
    const planted = (async () => {
      for (let i = 0; i < 500 && (await exists(name)); i++) await new Promise((r) => setTimeout(r, 5));
      await client.db(name).collection('theirs').insertOne({ _id: 'x', keep: true });
    })();
    await Promise.all([tracked.drop(), planted]);
    expect(await client.db(name).collection('theirs').find().toArray()).to.deep.equal([{ _id: 'x', keep: true }]);
    expect(logs.join('\n')).to.match(new RegExp(`database ${name} re-appeared after its drop holding theirs`));
  });
});
