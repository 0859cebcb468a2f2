'use strict';
// Study 001, second half, with no server: the MOT generator, the source's pipeline as published and
// the band collision the oracle must reproduce. The server's answers: test/bigagg.test.js.
const { expect } = require('chai');
const LabGen = require('../../fixtures/gen');
const LabMot = require('../../fixtures/mot-gen');
const LabBands = require('../../scripts/bigagg_pipelines');
const B = require('../../lib/studies/bigagg/mot');
const { line: csvLine, HEADER: CSV_HEADER } = require('../../lib/studies/bigagg/csv');

const N = 30000;
const SEED = 5;

describe('bigagg (source 001, second half): the MOT banding aggregation', function () {
  const want = B.oracle(N, SEED);

  describe('generator', function () {
    it("is deterministic and makes ~150-byte records with the source's fields (engine as e)", function () {
      const a = LabMot.doc(LabGen.rng(3), 0);
      const b = LabMot.doc(LabGen.rng(3), 0);
      expect(a).to.deep.equal(b);
      expect(Object.keys(a)).to.include.members([
        '_id',
        't',
        'v',
        'd',
        'c',
        'y',
        'r',
        'm',
        's',
        'k',
        'o',
        'u',
        'f',
        'e',
      ]);
      const { BSON } = require('mongodb');
      let bytes = 0;
      for (const d of B.motDocs(2000, 1)) bytes += BSON.calculateObjectSize(d);
      expect(bytes / 2000).to.be.within(130, 170);
    });

    it('as CSV: one line per record, the 14 MOT columns, dates as YYYY-MM-DD, an unknown first-use date empty', function () {
      const d = LabMot.doc(LabGen.rng(3), 0);
      const cells = csvLine(d).replace(/\n$/, '').split(',');
      expect(cells).to.have.length(CSV_HEADER.split(',').length);
      expect(cells.slice(0, 3)).to.deep.equal([String(d.t), String(d.v), d.d.toISOString().slice(0, 10)]);
      expect(csvLine({ ...d, i: undefined }).endsWith(',\n')).to.equal(true);
      expect(csvLine({ ...d, o: 'A, "B"' })).to.include('"A, ""B"""');
    });

    it('has records exactly on the band boundaries and both colliding pairs (diesel 2/petrol 3, diesel 4/petrol 6)', function () {
      const seen = new Set();
      const pairs = new Set();
      for (const d of B.motDocs(N, SEED)) {
        seen.add(d.e);
        pairs.add(`${d.f === 'D' ? 'D' : 'P'}${LabMot.band(d) / (d.f === 'D' ? 1.5 : 1)}`);
      }
      for (const e of [1000, 1200, 1600, 2000, 2500, 3500]) expect(seen.has(e), `e = ${e}`).to.equal(true);
      for (const p of ['D2', 'P3', 'D4', 'P6']) expect(pairs.has(p), p).to.equal(true);
    });
  });

  describe('pipeline forms against the plain-Node oracle', function () {
    it("the source's pipeline is quoted as published: nested $cond on $e, $project then $group then $sort", function () {
      const p = LabBands.seedPipeline();
      expect(JSON.stringify(p)).to.include('{"$cond":[{"$gt":["$e",1000]},{"$cond":[{"$gt":["$e",1200]}');
      expect(p.map((s) => Object.keys(s)[0])).to.deep.equal(['$project', '$group', '$sort']);
    });

    it('the collision is real: band 3 and band 6 hold petrol and diesel vehicles together', function () {
      let p3 = 0;
      let d2 = 0;
      for (const d of B.motDocs(N, SEED)) {
        if (d.f !== 'D' && LabMot.band(d) === 3) p3++;
        if (d.f === 'D' && LabMot.band(d) === 3) d2++;
      }
      expect(p3).to.be.greaterThan(0);
      expect(d2).to.be.greaterThan(0);
      expect(want.find((r) => r._id === 3).count).to.equal(p3 + d2);
      expect(want.map((r) => r._id)).to.deep.equal([1, 1.5, 2, 3, 4, 4.5, 5, 6, 7, 7.5, 9, 10.5]);
    });
  });
});
