'use strict';
// Source 002's generators with no server (the shell's copy of them is checked in test/inserts.test.js).
const { expect } = require('chai');
const { BSON } = require('mongodb');
const G = require('../../fixtures/inserts-gen');

describe('study 002: inserts, coherency, tasks and joins', function () {
  describe('generators (fixtures/inserts-gen.js)', function () {
    it('payload documents have exactly the requested BSON size, and a set split over workers is the same set', function () {
      for (const size of [31, 128, 1024, 16384])
        expect(BSON.calculateObjectSize(G.payloadDoc(1, 12345, size))).to.equal(size);
      const whole = G.payloadDocs(5, 0, 100, 200);
      const split = [...G.payloadDocs(5, 0, 37, 200), ...G.payloadDocs(5, 37, 100, 200)];
      expect(split).to.deep.equal(whole);
      expect(new Set(whole.map((d) => d.pad)).size).to.equal(100);
    });
  });
});
