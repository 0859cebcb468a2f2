'use strict';
// Seed 000's CSV importer with no server: numbers and timestamps parsed strictly. The import itself
// (rejects file, counts, re-imports): test/mapreduce-import.test.js.
const { expect } = require('chai');
const { parseTimestamp, parseNumber } = require('../../lib/infra/csv-import');

describe('mapreduce fixtures: sensor CSV generator and importer', function () {
  it('parses numbers and timestamps strictly', function () {
    expect(parseNumber('1.5e3')).to.equal(1500);
    expect(parseNumber('-.5')).to.equal(-0.5);
    for (const bad of ['-', 'abc', '1,5', 'NaN', 'Infinity', '0x10', '']) expect(parseNumber(bad), bad).to.be.NaN;
    expect(parseTimestamp('2015-02-22T10:21:42Z').toISOString()).to.equal('2015-02-22T10:21:42.000Z');
    expect(parseTimestamp('2015-02-22 10:21:42').toISOString()).to.equal('2015-02-22T10:21:42.000Z');
    expect(parseTimestamp('Sun Feb 22 10:21:42 PST 2015').toISOString()).to.equal('2015-02-22T18:21:42.000Z');
    for (const bad of ['2015-02-30T10:00:00Z', 'yesterday', 'abc 12', '12', '2015-13-01'])
      expect(parseTimestamp(bad), bad).to.equal(null);
  });
});
