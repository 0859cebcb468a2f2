'use strict';
// 001-where-38mb's writer gate (read-3 dispute 5), judged on hand-made records: the size of {_id, a, b}
// is fixed by the BSON spec once the types are, so only the source's doubles make it the source's figure.
const { expect } = require('chai');
const claims = require('../../lib/core/claims');

const entry = { name: 'where', claims: require('../../lib/studies/where/claims') };
const size = (bytes, types) => ({
  type: 'measure',
  study: 'where',
  name: 'data-size',
  axis: {},
  value: { bytes, count: 1000000, ...(types ? { types } : {}) },
});
const judged = (records) =>
  claims
    .judge(entry, records, { server: { version: '6.0.5' } }, { where: { N: 1000000 } })
    .find((j) => j.id === '001-where-38mb');

describe("001-where-38mb: the source's writer, then a one-sided size check", function () {
  const doubles = { _id: 'double', a: 'double', b: 'double' };

  it("holds on the source's doubles (40 B a document), fails above 1.25x, never 'stronger'", function () {
    expect(judged([size(40e6, doubles)]).verdict).to.equal('holds');
    expect(judged([size(60e6, doubles)]).verdict).to.equal('fails');
    expect(judged([size(20e6, doubles)]).verdict, 'smaller is still "only 38MB"').to.equal('holds');
    expect(entry.claims.find((c) => c.id === '001-where-38mb').verdict.bands).to.not.match(/stronger/);
  });

  it("the lab's int32 _id, or no recorded types, is not reproduced (writer), the figure beside", function () {
    const lab = judged([size(36e6)]);
    expect(lab.verdict).to.equal('not-reproduced');
    expect(lab.setting.absent).to.equal('writer');
    expect(lab.figure).to.match(/36\.0 B each.*0\.90x/);
    const ints = judged([size(36e6, { _id: 'int', a: 'double', b: 'double' })]);
    expect(ints.verdict).to.equal('not-reproduced');
    expect(ints.setting.here).to.match(/_id as int, a as double, b as double \(recorded\)/);
  });
});
