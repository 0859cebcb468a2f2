'use strict';
// The MOT oracle and the partial-group merger on a user's values, with no server: any value banded
// in BSON order as the source's $gt orders it; Longs summed exactly, Decimal128 refused. The forms and
// splits on the server: test/userdata-bigagg.test.js.
const { expect } = require('chai');
const { Long, Decimal128 } = require('mongodb');
const LabBands = require('../../scripts/bigagg_pipelines');
const LabMot = require('../../fixtures/mot-gen');

describe("bigagg on a user's data: every form and every split give the source's answer", function () {
  it("the oracle bands any value as the source's $gt orders it (BSON order)", function () {
    const band = (e, f) => LabMot.band(e === undefined ? { f } : { e, f });
    expect([undefined, null, NaN, -Infinity, 1000, 999].map((e) => band(e, 'P'))).to.deep.equal([1, 1, 1, 1, 1, 1]);
    expect(['1500', new Date(0), true, [1], {}, Infinity, 4000].map((e) => band(e, 'P'))).to.deep.equal([
      7, 7, 7, 7, 7, 7, 7,
    ]);
    expect([1000.5, Long.fromString('1201'), Decimal128.fromString('1600.5')].map((e) => band(e, 'D'))).to.deep.equal([
      3, 4.5, 6,
    ]);
  });

  it('mergePartials keeps exact types: Longs stay exact Longs; a Decimal128 sum is refused (merged on the server instead)', function () {
    const m = LabBands.mergePartials([
      [{ _id: 1, count: 1, miles: Long.fromString('9007199254740993') }],
      [{ _id: 1, count: 2, miles: Long.fromString('2') }],
    ]);
    expect(m[0].miles._bsontype).to.equal('Long');
    expect(m[0].miles.toString()).to.equal('9007199254740995');
    expect(m[0].count).to.equal(3);
    expect(() =>
      LabBands.mergePartials([
        [{ _id: 1, count: 1, miles: Decimal128.fromString('1.1') }],
        [{ _id: 1, count: 1, miles: 2 }],
      ]),
    ).to.throw(/Decimal128 sum cannot be added exactly/);
  });
});
