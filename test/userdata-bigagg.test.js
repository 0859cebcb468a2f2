'use strict';
// The MOT drop-in on a user's data: values the generator never makes (missing, null, text,
// fractional, Long, Decimal128 capacities and mileages; string, ObjectId, null and mixed _ids).
// Every form and every split must give the source pipeline's answer, checked against the plain-Node
// oracle (LabMot.band in BSON order, exact $sum), and the real mongosh CLI must answer, not crash.
const { expect } = require('chai');
const { Long, Decimal128, ObjectId } = require('mongodb');
const { useTestDatabase } = require('./helpers');
const LabBands = require('../scripts/bigagg_pipelines');
const B = require('../lib/studies/bigagg/mot');

const CAPACITIES = [
  1500,
  999,
  null,
  undefined,
  '1500',
  1000.5,
  1200.25,
  Long.fromString('2600'),
  Decimal128.fromString('3600.5'),
  Decimal128.fromString('1000.5'),
  NaN,
  Infinity,
  -Infinity,
  2e9,
  -2e9,
  new Date(0),
  true,
  [1500],
  { cc: 1500 },
  1000,
  3500,
];

function userDocs(idOf) {
  const docs = [];
  for (let i = 0; i < 84; i++) {
    const d = { _id: idOf(i), f: [i % 2 ? 'D' : 'P', 'D', null, 'd'][i % 4], m: i };
    const e = CAPACITIES[i % CAPACITIES.length];
    if (e !== undefined) d.e = e;
    if (i % 5 === 0) d.m = Long.fromString('9007199254740993');
    if (i % 7 === 0) d.m = Decimal128.fromString('1.1');
    if (i % 11 === 0) d.m = 'n/a';
    docs.push(d);
  }
  return docs;
}

const ID_KINDS = {
  strings: (i) => `k${i}`,
  objectIds: () => new ObjectId(),
  mixed: (i) => [i, `s${i}`, new ObjectId(), new Date(1e12 + i), Long.fromNumber(i + 0.0 === i ? 1000 + i : i)][i % 5],
};

describe("bigagg on a user's data: every form and every split give the source's answer", function () {
  const t = useTestDatabase('userdata_bigagg');

  // The oracle's banding and mergePartials alone (no server): test/unit/userdata-bigagg.test.js.
  for (const [kind, idOf] of Object.entries(ID_KINDS)) {
    describe(`_ids: ${kind}`, function () {
      let docs;
      let want;
      before(async function () {
        docs = userDocs(idOf);
        if (kind === 'mixed') docs.push({ _id: null, e: 1500, f: 'P', m: 1 });
        await t.db.collection(`u_${kind}`).insertMany(docs);
        want = B.oracleOf(docs);
      });

      it('every form equals the oracle', async function () {
        for (const name of Object.keys(LabBands.FORMS)) {
          expect(await B.aggregate(t.db, `u_${kind}`, LabBands.FORMS[name].pipeline()), name).to.deep.equal(want);
        }
      });

      it("split and merge over k = 1..8 ranges in the server's _id order, and uneven weights, count every document once", async function () {
        for (let k = 1; k <= 8; k++) expect(await B.splitMerge(t.db, `u_${kind}`, { k }), `k=${k}`).to.deep.equal(want);
        expect(await B.splitMerge(t.db, `u_${kind}`, { k: 4, weights: [5, 1, 1, 9] })).to.deep.equal(want);
        expect(await B.splitMerge(t.db, `u_${kind}`, { k: 3, serverMerge: true })).to.deep.equal(want);
        const { ranges, oneClass } = await B.serverRanges(t.db, `u_${kind}`, 4);
        expect(oneClass).to.equal(kind !== 'mixed');
        let total = 0;
        for (const [a, b] of ranges)
          total += await t.db.collection(`u_${kind}`).countDocuments(LabBands.rangeFilter(a, b, oneClass).$match);
        expect(total).to.equal(docs.length);
      });
    });
  }

  it("the real mongosh drop-in answers on a user's collection with such values: all forms agree, exit 0, the odd documents counted", async function () {
    this.timeout(120000);
    await t.db.collection('theirs').insertMany(userDocs(ID_KINDS.mixed));
    const r = await t.cli('bigagg.js', { COLL: 'theirs', RUNS: 1, WARMUP: 0 }, { cwd: '/' });
    expect(r.stderr).to.not.match(/switch could not find/);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).to.match(/all variants agree/);
    expect(r.stdout).to.match(
      /note: \d+ document\(s\) in theirs have no numeric e: banded as the source's \$gt orders them/,
    );
  });
});
