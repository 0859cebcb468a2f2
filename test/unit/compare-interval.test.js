'use strict';
// compare's interval of a change (LabStats.ratioChangeInterval): the ratio of two runs' geometric-
// mean per-round ratios with a Welch t interval on the log ratios, the two-sample form of the
// ratioInterval every table reads. Checked against R's t.test, on the Welch-Satterthwaite degrees
// of freedom, below 3 rounds a side, and by its coverage on synthetic rounds of known change.
const { expect } = require('chai');
const stats = require('../../scripts/lib/stats');

const exp = (xs) => xs.map(Math.exp);

/** A standard normal draw from a seeded uniform (Box-Muller). */
function normal(u) {
  return Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

describe('compare: the interval of a change between two runs (Welch t on log ratios)', function () {
  it("gives R's t.test interval: t.test(4:6, 1:3) on the logs is 0.7330546..5.2669454, df 4", function () {
    const iv = stats.ratioChangeInterval(exp([1, 2, 3]), exp([4, 5, 6]));
    expect(iv.df).to.equal(4);
    expect(Math.log(iv.mid)).to.be.closeTo(3, 1e-12);
    // the t quantile's series at df 4 is within 0.03 % of the exact 2.776445
    expect(Math.log(iv.lo)).to.be.closeTo(0.7330546, 1e-3);
    expect(Math.log(iv.hi)).to.be.closeTo(5.2669454, 1e-3);
  });

  it('takes Welch-Satterthwaite degrees of freedom when the runs spread differently', function () {
    // variances 1 and 100, 3 rounds each: (101/3)^2 / ((1/3)^2/2 + (100/3)^2/2) = 2.04
    const iv = stats.ratioChangeInterval(exp([1, 2, 3]), exp([10, 20, 30]));
    expect(iv.df).to.be.closeTo(2.04, 0.001);
    expect(iv.method).to.equal('welch-t-log');
  });

  it('a slowdown and the same speed-up are symmetric; constant rounds give the change itself', function () {
    const a = [1.0, 1.05, 0.97];
    const up = stats.ratioChangeInterval(
      a,
      a.map((x) => x * 1.3),
    );
    const down = stats.ratioChangeInterval(
      a.map((x) => x * 1.3),
      a,
    );
    expect(up.lo * down.hi).to.be.closeTo(1, 1e-12);
    expect(up.hi * down.lo).to.be.closeTo(1, 1e-12);
    const flat = stats.ratioChangeInterval([2, 2, 2], [2.6, 2.6, 2.6]);
    expect([flat.lo, flat.mid, flat.hi].map((x) => +x.toFixed(12))).to.deep.equal([1.3, 1.3, 1.3]);
  });

  it('gives no interval below 3 rounds a side, nor for a time of 0', function () {
    const two = stats.ratioChangeInterval([1, 1.1], [1.3, 1.4, 1.35]);
    expect([two.lo, two.hi]).to.deep.equal([null, null]);
    expect(two.why).to.match(/too few rounds for an interval: 2 \(needs 3 a side\)/);
    expect(stats.ratioChangeInterval([1, 0, 1], [1, 1, 1]).lo).to.equal(null);
  });

  it('covers the true change in about 95 % of 4,000 synthetic pairs of 3 rounds a side, equal and unequal spreads', function () {
    const u = stats.rng(37);
    const coverage = (sdOld, sdNew) => {
      let covered = 0;
      for (let k = 0; k < 4000; k++) {
        const old = [0, 1, 2].map(() => Math.exp(sdOld * normal(u)));
        const neu = [0, 1, 2].map(() => 1.3 * Math.exp(sdNew * normal(u)));
        const iv = stats.ratioChangeInterval(old, neu);
        if (iv.lo <= 1.3 && 1.3 <= iv.hi) covered++;
      }
      return covered / 4000;
    };
    // measured: 0.94 with spreads 3x apart (Satterthwaite's approximation at 2-4 degrees of freedom
    // is a little short there), 0.966 with equal ones (Welch's df below the pooled 4 is conservative);
    // a binomial's sd at 4,000 is 0.0034
    expect(coverage(0.05, 0.15)).to.be.within(0.93, 0.975);
    expect(coverage(0.1, 0.1)).to.be.within(0.945, 0.985);
  });
});
