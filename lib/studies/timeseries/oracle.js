'use strict';
// The timeseries study's oracle: every interval's answer computed in plain Node from the same
// seeded events the server holds, and the comparison of two answers.
const tsFixture = require('../../../fixtures/timeseries');
const LabGen = require('../../../fixtures/gen');
const ref = require('./reference');
const { MINUTES_IN_2012 } = require('./setting');

/** Same groups, counts, min and max; averages equal up to the rounding of another summation order. */
function sameRows(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i];
    return (
      x.t.getTime() === y.t.getTime() &&
      Number(x.count) === Number(y.count) &&
      x.min === y.min &&
      x.max === y.max &&
      Math.abs(x.avg - y.avg) <= 1e-9 * Math.max(1, Math.abs(x.avg))
    );
  });
}

/** The intervals a grain asks about: the source's five start times, or the whole of 2012. */
function intervals(grain) {
  if (grain === 'days') return [{ from: LabGen.TS_YEAR_START, to: LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS }];
  return tsFixture.START_TIMES.map((s) => ref.calibrate(s, tsFixture.GRAINS[grain].width));
}

function groupOf(grain) {
  return grain === 'days' ? tsFixture.DAY : tsFixture.GRAINS[grain].group;
}

/**
 * Every interval's rows in T order, over the given events (any iterable: the seeded generator
 * streams them), in one pass that keeps only the groups (lib/studies/timeseries/reference.js): the year grain
 * holds every event, and 50,000,000 of them do not fit in Node's heap.
 */
function expectedRows(grain, events) {
  const aggs = intervals(grain).map((iv) => ref.aggregator(iv.from, iv.to, groupOf(grain)));
  for (const ev of events) for (const a of aggs) a.add(ev);
  return aggs.flatMap((a) => a.rows());
}

// Keyed by N and SEED alone: the _id's writer (ID) changes no answer, since both writers give the
// same created_on and value (fixtures/gen.js), and the int events cost no ObjectId to make.
const oracleCache = new Map();
function oracle(p, point) {
  const key = `${p.N}/${p.SEED}/${point.grain}`;
  if (!oracleCache.has(key)) oracleCache.set(key, expectedRows(point.grain, tsFixture.events(p.N, p.SEED)));
  return oracleCache.get(key);
}

function perMinute(events) {
  return events / MINUTES_IN_2012;
}

module.exports = { sameRows, expectedRows, oracle, perMinute };
