'use strict';
// Source 000's CSV importer with no server: numbers and timestamps parsed strictly. The import itself
// (rejects file, counts, re-imports): test/mapreduce-import.test.js.
const { expect } = require('chai');
const { Decimal128 } = require('mongodb');
const { parseTimestamp, parseNumber, parseValue } = require('../../lib/infra/csv-import');

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

  it("reads a plain decimal of up to 15 characters as the lossless rule's other branches do", function () {
    // parseValue answers these at once: the cases at the edges of that shortcut, either side
    expect(Object.is(parseValue('-0').value, -0)).to.equal(true);
    expect(Object.is(parseValue('-0.00').value, -0)).to.equal(true);
    expect(parseValue('0.000').value).to.equal(0);
    expect(parseValue('-0.193').value).to.equal(-0.193);
    expect(parseValue('123456789012345').value).to.equal(123456789012345);
    expect(parseValue('1234567890123456').value).to.equal(1234567890123456); // 16 characters
    expect(parseValue('1234567890.123456').value).to.be.instanceOf(Decimal128); // 16 significant digits
    expect(parseValue('00.5')).to.deep.equal({ text: '00.5' });
    expect(parseValue('+5')).to.deep.equal({ value: 5 });
    expect(parseValue('5.')).to.deep.equal({ value: 5 });
    expect(parseValue('1e3')).to.deep.equal({ value: 1000 });
    expect(parseValue('1.5.')).to.deep.equal({ error: 'not a number' });
  });
});
