'use strict';
// Seed 004 with no server: the seeded hit stream (both edges of each day) and the pasteable block of
// scripts/counters_functions.js (plain ES2017, self-contained). The server side: test/counters.test.js.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const gen = require('../../fixtures/counters-gen');
const oracle = require('../../lib/studies/counters/oracle');

const STREAM = { seed: 5, metrics: 12, perMinute: 12, preallocP: 0.02 };
const DAYS = 2;

describe('counters study (seed 004): per-minute counters with upsert $inc', function () {
  describe('the hit stream', function () {
    it('is the same for the same (seed, day, minute) and puts hits on both edges of each day', function () {
      expect(gen.minuteHits(STREAM, 1, 17)).to.deep.equal(gen.minuteHits(STREAM, 1, 17));
      expect(gen.minuteHits(STREAM, 1, 17)).to.not.deep.equal(gen.minuteHits(STREAM, 1, 18));
      for (let d = 0; d < DAYS; d++) {
        const first = gen.minuteHits(STREAM, d, 0)[0];
        const last = gen.minuteHits(STREAM, d, 1439).slice(-1)[0];
        expect(new Date(first.t).toISOString()).to.match(/T00:00:00\.000Z$/);
        expect(new Date(last.t).toISOString()).to.match(/T23:59:59\.999Z$/);
        expect(oracle.dayStart(last.t) + gen.DAY_MS).to.equal(gen.START + (d + 1) * gen.DAY_MS);
      }
    });

    it('rejects bad stream options with one clear message', function () {
      expect(() => gen.minuteHits({ seed: 1, metrics: 0, perMinute: 5 }, 0, 0)).to.throw(
        /metrics must be a whole number >= 1/,
      );
      expect(() => gen.minuteHits({ seed: -1, metrics: 3, perMinute: 5 }, 0, 0)).to.throw(
        /seed must be a whole number >= 0/,
      );
    });
  });

  describe('the pasteable part of scripts/counters_functions.js', function () {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'scripts', 'counters_functions.js'), 'utf8');
    const block = text.slice(text.indexOf('// ---- PASTEABLE: begin'), text.indexOf('// ---- PASTEABLE: end'));

    it('is plain ES2017 that names nothing the 4.2 shell (Robo 3T) lacks', function () {
      const acorn = require('acorn');
      expect(() => acorn.parse(block, { ecmaVersion: 2017 })).to.not.throw();
      expect(block).to.not.match(
        /\?\.|\?\?|\bEJSON\b|\bconsole\b|\brequire\(|\bfromEntries\b|\.flat\(|\bBigInt\b|runCommand|\bawait\b/,
      );
    });

    it('is self-contained: pasted alone into an empty context it records hits into a collection-like object', function () {
      const vm = require('vm');
      const calls = [];
      const coll = {
        updateOne: (f, u, o) => {
          calls.push({ f, u, o });
          return { matchedCount: 1 };
        },
      };
      const ctx = vm.createContext({ coll });
      vm.runInContext(`${block}\nrecordHit(coll, ${gen.START} + 86399999, 'm', 'hierarchical', true);`, ctx);
      expect(calls).to.have.length(2);
      expect(calls[0].f._id).to.equal('20101011/m'); // tomorrow preallocated first
      expect(calls[1].f._id).to.equal('20101010/m');
      expect(calls[1].u.$inc).to.deep.equal({ daily: 1, 'hourly.23': 1, 'minute.23.59': 1 });
      expect(calls[1].o).to.deep.equal({ upsert: true });
    });
  });
});
