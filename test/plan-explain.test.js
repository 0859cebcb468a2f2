'use strict';
// A plan worth reading (issue #36): what executionStats says of a find on an index, a collection
// scan and a $lookup, kept by LabRecords.plan and shown in one table cell, on the real mongod.
const { expect } = require('chai');
const LabRecords = require('../scripts/lib/records');
const { testDatabase } = require('./helpers');

describe('plans from explain("executionStats"): keys and documents examined, indexes, the $lookup strategy', function () {
  let t;
  const N = 2000;

  before(async function () {
    t = await testDatabase('plan_explain');
    await t.db.collection('customers').insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, region: i % 4 })));
    await t.db.collection('orders').insertMany(Array.from({ length: N }, (_, i) => ({ cust: i % 57, amount: i % 13 })));
    await t.db.collection('orders').createIndex({ cust: 1 });
  });

  after(async function () {
    if (t) await t.close();
  });

  it('a find on an index: IXSCAN, the index name, keys and documents examined, documents returned', async function () {
    const ex = await t.db
      .collection('orders')
      .find({ cust: { $lt: 5 } })
      .explain('executionStats');
    const p = LabRecords.plan(ex);
    // cust 0..4 of i % 57: 5 values, each ~N/57 times
    const n = Array.from({ length: N }, (_, i) => i % 57).filter((c) => c < 5).length;
    expect(p).to.include({ stage: 'IXSCAN', keysExamined: n, docsExamined: n, nReturned: n });
    expect(p.indexes).to.deep.equal(['cust_1']);
    expect(p.stages).to.deep.equal(['FETCH', 'IXSCAN']);
    expect(p.explainVersion).to.be.oneOf(['1', '2']);
    expect(LabRecords.planCell(p)).to.equal(`IXSCAN cust_1 · ${n} keys, ${n} docs -> ${n}`);
  });

  it('a collection scan: COLLSCAN, no keys, every document examined', async function () {
    const ex = await t.db.collection('orders').find({ amount: 3 }).explain('executionStats');
    const p = LabRecords.plan(ex);
    const n = Array.from({ length: N }, (_, i) => i % 13).filter((a) => a === 3).length;
    expect(p).to.include({ stage: 'COLLSCAN', keysExamined: 0, docsExamined: N, nReturned: n });
    expect(p).to.not.have.property('indexes');
    expect(LabRecords.planCell(p)).to.equal(`COLLSCAN · 0 keys, ${N.toLocaleString('en-US')} docs -> ${n}`);
  });

  it('a $lookup: its strategy (SBE: IndexedLoopJoin on _id, HashJoin without an index; classic: the $lookup stage) and what it examined', async function () {
    const pipe = (from, foreignField) => [{ $lookup: { from, localField: 'cust', foreignField, as: 'c' } }];
    const onId = LabRecords.plan(
      await t.db.collection('orders').aggregate(pipe('customers', '_id')).explain('executionStats'),
    );
    const noIndex = LabRecords.plan(
      await t.db.collection('orders').aggregate(pipe('customers', 'region')).explain('executionStats'),
    );
    for (const p of [onId, noIndex]) {
      expect(p.nReturned).to.equal(N);
      expect(p.docsExamined).to.be.at.least(N); // the orders scanned, then the customers read
      expect(p.lookup).to.be.a('string');
    }
    if (onId.explainVersion === '2') {
      // SBE ran the join (6.0+ with the slot-based engine on)
      expect(onId.stages).to.include('EQ_LOOKUP');
      expect(onId.lookup).to.equal('IndexedLoopJoin');
      expect(onId.indexes).to.include('_id_');
      expect(onId.keysExamined).to.be.at.least(1);
      expect(noIndex.lookup).to.be.oneOf(['HashJoin', 'NestedLoopJoin']);
      expect(LabRecords.planCell(onId)).to.match(
        /^EQ_LOOKUP IndexedLoopJoin _id_ · [\d,]+ keys, [\d,]+ docs -> 2,000$/,
      );
    } else {
      expect(onId.stages).to.include('$lookup');
      expect(onId.lookup).to.match(/^classic (indexed|scan|loop) \$lookup$/);
    }
  });

  it('a variant of several queries: a list of explains, figures summed, the last query returns', async function () {
    const a = await t.db.collection('orders').find({ cust: 3 }).explain('executionStats');
    const b = await t.db.collection('customers').find({ _id: 3 }).explain('executionStats');
    const p = LabRecords.plan([a, b]);
    const one = LabRecords.plan(a);
    expect(p.keysExamined).to.equal(one.keysExamined + 1);
    expect(p.nReturned).to.equal(1);
    expect(p.stages).to.include('|');
    // a summary given back as it is (a study's explain may return one)
    expect(LabRecords.plan({ stage: 'EQ_LOOKUP HashJoin', explainVersion: '2' })).to.deep.equal({
      stage: 'EQ_LOOKUP HashJoin',
      explainVersion: '2',
    });
  });
});
