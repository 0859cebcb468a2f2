'use strict';
// Source 000's map/reduce functions as a user pastes them into Robo 3T, with no server: plain
// ES2017, self-contained, and the reduce's re-reduce rule (which the source's own reduce breaks).
// On the server, the same functions are checked in test/mapreduce.test.js and test/pasteable.test.js.
const vm = require('vm');
const acorn = require('acorn');
const { expect } = require('chai');
const sensors = require('../../fixtures/sensors');
const fns = require('../../scripts/mr_functions');
const { statsDiffer } = require('../../lib/studies/mapreduce/client');
const { SEED_REDUCE } = require('../fixtures/seed-reduce');

const FIELD = 'engine_rpm';
const SEED = 1;

/** The map function's emitted values over the first n generated rows, computed in Node. */
function mappedValues(n) {
  const out = [];
  const sandbox = { emit: (k, v) => out.push(v), field: FIELD };
  const map = vm.runInNewContext(`(${fns.mrStatsMap.toString()})`, sandbox);
  const next = sensors.LabSensorGen.rng(SEED);
  for (let i = 0; i < n; i++) map.call(sensors.LabSensorGen.doc(next, i));
  return out;
}

function sameStats(a, b) {
  return statsDiffer({ ...a, min: a.min, max: a.max }, b) === null;
}

describe('mapreduce study (source 000)', function () {
  describe('the functions a user pastes into Robo 3T', function () {
    // every function the file defines but mrFunctionsStored, which stores them on a server (db.system.js)
    const pasteable = Object.keys(fns).filter((k) => typeof fns[k] === 'function' && k !== 'mrFunctionsStored');

    it('are plain ES2017 without shell-only or modern helpers', function () {
      for (const name of pasteable) {
        const src = fns[name].toString();
        expect(() => acorn.parse(`(${src})`, { ecmaVersion: 2017 }), name).to.not.throw();
        expect(src, name).to.not.match(
          /\?\.|\?\?|fromEntries|\.flat\(|BigInt|\brequire\b|\bconsole\b|\bEJSON\b|\bdb\./,
        );
      }
    });

    it('are self-contained: each runs from its own source in an empty context', function () {
      const emitted = [];
      const ctx = { emit: (k, v) => emitted.push([k, v]), field: 'x' };
      const map = vm.runInNewContext(`(${fns.mrStatsMap})`, ctx);
      map.call({ x: 3 });
      map.call({ y: 1 }); // no reading: nothing emitted
      map.call({ x: 'n/a' });
      expect(emitted).to.deep.equal([[0, { sum: 3, min: 3, max: 3, count: 1 }]]);
      const reduce = vm.runInNewContext(`(${fns.mrStatsReduce})`, {});
      const finalize = vm.runInNewContext(`(${fns.mrStatsFinalize})`, {});
      expect(finalize(0, reduce(0, [emitted[0][1], { sum: 5, min: 5, max: 5, count: 1 }]))).to.deep.equal({
        sum: 8,
        min: 3,
        max: 5,
        count: 2,
        mean: 4,
      });
    });

    it('reduce(k, [reduce(k, A), reduce(k, B)]) equals reduce(k, A + B), at any split and depth', function () {
      const reduce = vm.runInNewContext(`(${fns.mrStatsReduce})`, {});
      const values = mappedValues(5000);
      const whole = reduce(
        0,
        values.map((v) => ({ ...v })),
      );
      const next = sensors.LabSensorGen.rng(99);
      for (let trial = 0; trial < 50; trial++) {
        const cut = 1 + Math.floor(next() * (values.length - 2));
        const a = reduce(0, values.slice(0, cut));
        const b = reduce(0, values.slice(cut));
        expect(sameStats(reduce(0, [a, b]), whole), `split at ${cut}`).to.equal(true);
        // re-reduce of a re-reduce mixed with fresh map values, as the server may do
        const c = reduce(0, [reduce(0, [a]), ...values.slice(cut, cut + 3)]);
        expect(sameStats(reduce(0, [c, reduce(0, values.slice(cut + 3))]), whole)).to.equal(true);
      }
      expect(sameStats(whole, sensors.referenceStats(5000, FIELD, { seed: SEED }))).to.equal(true);
    });

    it("the source's reduce breaks that rule (it added values[i] where it meant values[i].sum)", function () {
      const seedReduce = vm.runInNewContext(`(${SEED_REDUCE})`, {});
      const values = mappedValues(100);
      const a = seedReduce(
        0,
        values.slice(0, 50).map((v) => ({ ...v })),
      );
      expect(a.sum).to.be.a('string'); // "3121.6[object Object]..."
      const ours = fns.mrStatsReduce(0, values);
      expect(ours.sum).to.be.a('number');
    });
  });
});
