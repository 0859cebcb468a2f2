'use strict';
// The HdrHistogram wrapper with no server: merging encoded histograms, percentiles in ms. The
// workers' operations counted in it: test/latency.test.js.
const { expect } = require('chai');
const { Latency, merged } = require('../../lib/core/latency');

describe('latency percentiles (HdrHistogram)', function () {
  it('merges encoded histograms exactly; percentiles are ordered; values in ms', function () {
    const a = new Latency();
    for (let i = 1; i <= 1000; i++) a.record(i / 100);
    const m = merged([a.encode(), a.encode()]).summary();
    expect(m.count).to.equal(2000);
    expect(m.unit).to.equal('ms');
    expect(m.p50).to.be.closeTo(5, 0.01);
    expect(m.max).to.be.closeTo(10, 0.02);
    expect(m.p50 <= m.p95 && m.p95 <= m.p99 && m.p99 <= m.max).to.equal(true);
  });
});
