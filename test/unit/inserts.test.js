'use strict';
// Source 002's generators with no server (the shell's copy of them is checked in test/inserts.test.js).
const { expect } = require('chai');
const { BSON } = require('mongodb');
const G = require('../../fixtures/inserts-gen');
const { readDeclaration } = require('../../lib/core/registry');

/** scripts/inserts_bulk.js's STUDY as Node reads it (the registry's reader: LAB_MODE = 'node'; no server, no `db`). */
const insertsDeclaration = () => readDeclaration('inserts_bulk.js');

describe('study 002: inserts, coherency, tasks and joins', function () {
  describe('inserts: the axis points of a profile', function () {
    const study = insertsDeclaration();
    const defaults = Object.fromEntries(Object.entries(study.params).map(([k, v]) => [k, v.def]));
    const points = (profile, set = {}) => {
      const { profiles } = require('../../lib/studies/inserts');
      return study.axes({ ...defaults, ...profiles[profile], ...set });
    };
    const key = (x) => `${x.part} b${x.batch} W${x.W} s${x.size} w${x.w}`;

    it('quick: only the points a claim or the headline reads', function () {
      expect(points('quick').map(key)).to.deep.equal([
        'batch b1 W1 s1024 w1',
        'batch b10 W1 s1024 w1',
        'batch b1000 W1 s1024 w1',
        'batch b1 W4 s1024 w1',
        'batch b1 W16 s1024 w1',
      ]);
    });

    it('seed: every batch at W=1, W > 1 one by one, no size or write-concern part; the whole grid on request', function () {
      const all = points('seed').map(key);
      expect(all).to.deep.equal([
        'batch b1 W1 s1024 w1',
        'batch b10 W1 s1024 w1',
        'batch b100 W1 s1024 w1',
        'batch b1000 W1 s1024 w1',
        'batch b10000 W1 s1024 w1',
        'batch b1 W2 s1024 w1',
        'batch b1 W4 s1024 w1',
        'batch b1 W8 s1024 w1',
        'batch b1 W16 s1024 w1',
      ]);
      // the size SIZE at batch 1000 is measured once (as a batch point)
      const grid = points('seed', { WRITERS_AT: '', SIZES: '128,1024,4096,16384' }).map(key);
      expect(grid.filter((k) => k.startsWith('batch '))).to.have.length(25);
      expect(grid.filter((k) => k.startsWith('size '))).to.deep.equal([
        'size b1000 W1 s128 w1',
        'size b1000 W1 s4096 w1',
        'size b1000 W1 s16384 w1',
      ]);
      expect(all.filter((k) => k.startsWith('wc '))).to.deep.equal([]);
      const wc = points('seed', { WCONCERN: true }).map(key);
      expect(wc.filter((k) => k.startsWith('wc '))).to.have.length(6);
    });
  });

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
