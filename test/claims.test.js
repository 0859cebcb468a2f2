'use strict';
// The verdict rules are code over result records: a figure on either side of a rule flips it.
const { expect } = require('chai');
const lab = require('../scripts/lib/lab');
const claims = require('../lib/core/claims');
const where = require('../lib/studies/where');
const mapreduce = require('../lib/studies/mapreduce');
const timeseries = require('../lib/studies/timeseries');

/** Records as the runner makes them: variants timed in rounds against a baseline. */
function records(study, medians, baseline, axis = {}) {
  const names = Object.keys(medians);
  const h = lab.harness(names, { warmup: 0, rounds: 3, baseline });
  let step;
  while ((step = h.next()) !== null) h.record(step, medians[step.variant] * (1 + 0.01 * step.round), 1);
  return lab.pointRecords({ name: study }, {}, axis, h.result(), {}, {});
}

const ENV = { server: { version: '6.0.5' } };

function verdictOf(entry, id, recs, env = ENV) {
  return claims.judge(entry, recs, env).find((c) => c.id === id);
}

describe('claims ledger: verdict rules flip with the figure', function () {
  it('$where ~100x slower than a scan: holds at 100x and 250x, changed at 1,000x and at 10x', function () {
    const at = (x) => verdictOf(where, '001-where-vs-scan', records('where', { where: 100 * x, plain: 100 }, 'where'));
    expect(at(100).verdict).to.equal('holds');
    expect(at(250).verdict).to.equal('holds');
    expect(at(1000)).to.include({ verdict: 'changed' });
    expect(at(1000).why).to.match(/larger than the published/);
    expect(at(10).verdict).to.equal('changed');
    expect(at(100).figure).to.match(/^10\dx|^9\d\.\dx|^100x/);
  });

  it('hybrid ~150x: holds at 120x, changed at 20x (smaller)', function () {
    expect(verdictOf(where, '001-hybrid', records('where', { where: 1200, hybrid: 10 }, 'where')).verdict).to.equal('holds');
    const v = verdictOf(where, '001-hybrid', records('where', { where: 200, hybrid: 10 }, 'where'));
    expect(v.verdict).to.equal('changed');
    expect(v.why).to.match(/smaller/);
  });

  it('jsMode: obsolete on 4.4+, judged by its figure on an older server', function () {
    const recs = records('mapreduce', { group: 10, mr: 100, 'mr-jsmode': 40 }, 'group', { batch: 1000 });
    expect(verdictOf(mapreduce, '000-jsmode', recs).verdict).to.equal('obsolete');
    expect(verdictOf(mapreduce, '000-jsmode', recs, { server: { version: '4.2.0' } }).verdict).to.equal('holds');
    const none = records('mapreduce', { group: 10, mr: 100, 'mr-jsmode': 100 }, 'group', { batch: 1000 });
    expect(verdictOf(mapreduce, '000-jsmode', none, { server: { version: '4.2.0' } }).verdict).to.equal('changed');
  });

  it('stored functions ~2x: holds at 2x, "no clear difference" at 1.05x', function () {
    expect(verdictOf(mapreduce, '000-stored', records('mapreduce', { group: 10, mr: 100, 'mr-stored': 50 }, 'group', { batch: 10 })).verdict).to.equal('holds');
    const v = verdictOf(mapreduce, '000-stored', records('mapreduce', { group: 10, mr: 100, 'mr-stored': 95 }, 'group', { batch: 10 }));
    expect(v.verdict).to.equal('changed');
    expect(v.why).to.match(/no clear difference/);
  });

  it('the peak at 10^4-10^5: not measurable below 10^6, holds with a drop, changed without one', function () {
    const sweep = (rates) => Object.entries(rates).flatMap(([n, rate]) => records('mapreduce', { group: 1, mr: Number(n) / rate }, 'group', { batch: Number(n) }));
    expect(verdictOf(mapreduce, '000-peak', sweep({ 1000: 10, 10000: 20 })).verdict).to.equal('not-measurable');
    expect(verdictOf(mapreduce, '000-peak', sweep({ 1000: 10, 10000: 20, 100000: 25, 1000000: 12 })).verdict).to.equal('holds');
    expect(verdictOf(mapreduce, '000-peak', sweep({ 1000: 10, 10000: 20, 100000: 25, 1000000: 26 })).verdict).to.equal('changed');
  });

  // The time-series states: one record per (state, grain) with the mean time of T1..T5.
  function states(means) {
    return Object.entries(means).map(([state, mean]) => ({ type: 'result', study: 'timeseries', variant: 'raw', axis: { grain: 'hours', state },
      times: [mean], mean, median: mean, min: mean, max: mean, runs: 1, ratio: null }));
  }

  it('time series, touch both: holds when warming data and indexes is ~4x slower than cold, changed when it helps', function () {
    expect(verdictOf(timeseries, '003-touch-both', states({ cold: 10, 'warm-both': 40 })).verdict).to.equal('holds');
    const v = verdictOf(timeseries, '003-touch-both', states({ cold: 10, 'warm-both': 3 }));
    expect(v.verdict).to.equal('changed');
    expect(v.why).to.match(/reversed/);
    expect(verdictOf(timeseries, '003-touch-both', []).verdict).to.equal('not-measurable');
  });

  it('time series, touch data: holds at 1.3x faster than cold, changed at no gain and at 3x', function () {
    expect(verdictOf(timeseries, '003-touch-data', states({ cold: 13, 'warm-data': 10 })).verdict).to.equal('holds');
    expect(verdictOf(timeseries, '003-touch-data', states({ cold: 10, 'warm-data': 10 })).verdict).to.equal('changed');
    expect(verdictOf(timeseries, '003-touch-data', states({ cold: 30, 'warm-data': 10 })).verdict).to.equal('changed');
  });

  it('time series, preload: holds when the year aggregation leaves the fastest state, changed when another is', function () {
    expect(verdictOf(timeseries, '003-preload', states({ cold: 10, 'warm-data': 8, 'warm-year': 7 })).verdict).to.equal('holds');
    expect(verdictOf(timeseries, '003-preload', states({ cold: 10, 'warm-data': 5, 'warm-year': 7 })).verdict).to.equal('changed');
  });

  it('time series, bytes per event: holds near 64 B + 54 B, changed at a third of it', function () {
    const sizes = (data, index) => [
      { type: 'measure', study: 'timeseries', name: 'events', axis: {}, value: 1000 },
      { type: 'measure', study: 'timeseries', name: 'storageSize', variant: 'raw', axis: {}, value: data * 1000 },
      { type: 'measure', study: 'timeseries', name: 'indexSize', variant: 'raw', axis: {}, value: index * 1000 },
    ];
    expect(verdictOf(timeseries, '003-bytes', sizes(60, 50)).verdict).to.equal('holds');
    expect(verdictOf(timeseries, '003-bytes', sizes(25, 22)).verdict).to.equal('changed');
  });

  it('a rule that throws is reported as not measurable, with the reason', function () {
    const entry = { name: 'x', claims: [{ id: 'x1', claim: 'c', seedFigure: '1', setting: 's', verdict: () => { throw new Error('boom'); } }] };
    expect(claims.judge(entry, [], ENV)[0]).to.include({ verdict: 'not-measurable', why: 'the rule failed: boom' });
  });
});
