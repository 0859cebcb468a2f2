'use strict';
// Sequential rounds (docs/sequential-rounds.md): synthetic rounds of known difference driven
// through the real harness state machine (scripts/lib/harness.js) with fake times. No server.
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');
const S = require('../../scripts/lib/stats');
const claims = require('../../lib/core/claims');

const BAND = [1 / S.NO_DIFFERENCE, S.NO_DIFFERENCE];

/** A standard normal draw from the lab's seeded generator (Box-Muller). */
function gauss(next) {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/**
 * Drives the harness over a baseline and one variant whose true time ratio is `ratio`, each run's
 * time lognormal around its mean (sigma on the log); a shared drift per round (the machine's speed)
 * hits both alike, as interleaving intends. Returns the harness's result.
 */
function drive({ ratio, sigma = 0.05, seed = 1, o = {}, answers = {}, msOf }) {
  const next = S.rng(seed);
  const h = lab.harness(['base', 'v'], { warmup: 1, rounds: 3, maxRounds: 9, baseline: 'base', ...o });
  const drift = [];
  let step;
  while ((step = h.next()) !== null) {
    const d = drift[step.round] || (drift[step.round] = Math.exp(0.2 * gauss(next)));
    const mean = 100 * (step.variant === 'v' ? ratio : 1);
    const ms = msOf ? msOf(step) : mean * d * Math.exp(sigma * gauss(next));
    h.record(step, ms, step.variant in answers ? answers[step.variant] : 42);
  }
  return h.result();
}

const containsAny = (ci, xs) => xs.some((x) => ci[0] <= x && x <= ci[1]);

describe('sequential rounds: the rule and its numbers', function () {
  it('looks from the fewest rounds an interval needs to the cap, each at 1 - 0.05 / looks (Bonferroni)', function () {
    expect(lab.harness(['a', 'b'], { rounds: 3, maxRounds: 9 }).plan().length).to.equal(2 + 9 * 2);
    const sp = require('../../scripts/lib/harness').sequentialPlan(3, 9);
    expect(sp).to.include({ looks: 9 - S.MIN_ROUNDS + 1, rule: 'bonferroni-rci' });
    expect(sp.level).to.be.closeTo(1 - 0.05 / 7, 1e-12);
    // off: no cap, a cap at or below RUNS, no timed rounds, or no room for one look
    const off = require('../../scripts/lib/harness').sequentialPlan;
    expect([off(3, 0), off(3, 3), off(0, 9), off(1, 2)]).to.deep.equal([null, null, null, null]);
  });

  it('the t quantile of the corrected levels is exact (the 95 % one unchanged)', function () {
    // Student's t tables: t(0.995, 3) 5.8409, t(0.995, 10) 3.1693, t(0.9995, 4) 8.6103
    expect(S.tQuantile(0.995, 3)).to.be.closeTo(5.8409, 5e-4);
    expect(S.tQuantile(0.995, 10)).to.be.closeTo(3.1693, 5e-4);
    expect(S.tQuantile(0.9995, 4)).to.be.closeTo(8.6103, 5e-4);
    expect(S.tQuantile(0.975, 3)).to.be.closeTo(3.1824, 5e-3); // the series, as before
  });

  it('a study declares boundaries as positive ratios; anything else is refused in one line', function () {
    const H = require('../../scripts/lib/harness');
    expect(H.boundariesOf([2, 10])).to.deep.equal([0.8, 1.25, 2, 10]);
    expect(() => H.checkBoundaries([2, -1], 'study x')).to.throw(/^study x: boundaries must be a list of positive/);
    expect(() => H.checkBoundaries('2', 'study x')).to.throw(/boundaries/);
  });
});

describe('sequential rounds: stopping', function () {
  it('(a) a 3x difference with small noise stops early, decided, its interval clear of every boundary', function () {
    for (let seed = 1; seed <= 20; seed++) {
      expect(drive({ ratio: 3, sigma: 0.03, seed }).rounds).to.equal(3); // the first look
      const res = drive({ ratio: 3, sigma: 0.03, seed, o: { boundaries: [2, 10] } });
      expect(res.stop).to.equal('decided');
      expect(res.rounds).to.be.at.most(4); // 2 is nearer: at most one more round
      expect(res.sequential).to.deep.equal({ level: 1 - 0.05 / 7, looks: 7, rule: 'bonferroni-rci' });
      const r = res.variants.v.ratio;
      expect(r.level).to.equal(res.sequential.level);
      expect(containsAny(r.ci, [...BAND, 2, 10])).to.equal(false);
      expect(r.ci[0]).to.be.above(2);
    }
  });

  it('(b) identical variants stop decided inside the no-difference band, or reach the cap', function () {
    const stops = { decided: 0, cap: 0 };
    for (let seed = 1; seed <= 40; seed++) {
      const res = drive({ ratio: 1, sigma: 0.05, seed });
      stops[res.stop]++;
      const ci = res.variants.v.ratio.ci;
      if (res.stop === 'decided') expect(ci[0] > BAND[0] && ci[1] < BAND[1], `seed ${seed}`).to.equal(true);
      else expect(res.rounds).to.equal(9);
    }
    expect(stops.decided + stops.cap).to.equal(40);
    expect(stops.decided).to.be.above(30); // 7 % of noise per round decides within a few rounds
  });

  it('(c) a ratio right on a boundary (1.25) reaches the cap: stop "cap" after the most rounds', function () {
    let capped = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const res = drive({ ratio: 1.25, seed });
      if (res.stop === 'cap') {
        capped++;
        expect(res.rounds).to.equal(9);
        expect(res.variants.v.times).to.have.length(9);
        expect(containsAny(res.variants.v.ratio.ci, [1.25])).to.equal(true);
      }
    }
    expect(capped).to.be.at.least(36);
  });

  it('a capped variant (timed once) and a wrong answer hold no point open', function () {
    const budget = drive({
      ratio: 1.25,
      o: { budgetMs: 1000 },
      msOf: (s) => (s.variant === 'v' ? 5000 : 100),
    });
    expect(budget.variants.v.capped).to.equal(true);
    expect([budget.stop, budget.rounds]).to.deep.equal(['decided', 3]);
    const wrong = drive({ ratio: 1.25, o: { same: (a, b) => a === b }, answers: { v: 41 } });
    expect([wrong.stop, wrong.rounds]).to.deep.equal(['decided', 3]);
    // without `same` the harness does not know the answer is wrong: the boundary keeps it open
    expect(drive({ ratio: 1.25, answers: { v: 41 } }).stop).to.equal('cap');
  });

  it('(e) a deadline lets no round start after it: stop "budget", the first timed round always run', function () {
    let now = 0;
    const clock = () => now;
    const ms = (s) => (s.variant === 'v' ? 62.5 : 50);
    const res = drive({ ratio: 1.25, o: { deadline: 450, clock }, msOf: (s) => ((now += 50), ms(s)) });
    // warm-up 100 ms, then 100 ms a round: rounds 0..3 start before 450, round 4 at 500 does not
    expect([res.stop, res.rounds]).to.deep.equal(['budget', 4]);
    expect(res.variants.v.times).to.have.length(4);
    now = 0;
    const late = drive({ ratio: 3, o: { deadline: -1, clock }, msOf: () => ((now += 50), 50) });
    expect([late.stop, late.rounds, late.variants.v.times.length]).to.deep.equal(['budget', 1, 1]);
    // fixed rounds stop at a deadline too; a point done before it says fixed
    const fixed = drive({ ratio: 1, o: { maxRounds: 0, rounds: 5, deadline: -1 } });
    expect([fixed.stop, fixed.rounds, fixed.sequential]).to.deep.equal(['budget', 1, undefined]);
    expect(drive({ ratio: 1, o: { maxRounds: 0, deadline: Date.now() + 60000 } }).stop).to.equal('fixed');
  });

  it('(f) fixed rounds unchanged: no MAX_RUNS (or one at or below RUNS) runs RUNS rounds at 95 %', function () {
    for (const maxRounds of [undefined, 0, 3]) {
      const res = drive({ ratio: 3, o: { maxRounds, rounds: 5 } });
      expect([res.stop, res.rounds, res.sequential]).to.deep.equal(['fixed', 5, undefined]);
      const r = res.variants.v.ratio;
      expect(r).to.not.have.property('level');
      const per = res.variants.v.times.map((t, i) => t / res.variants.base.times[i]);
      const iv = S.ratioInterval(per);
      expect(r.ci).to.deep.equal([iv.lo, iv.hi]);
    }
  });
});

describe('sequential rounds: the error rate', function () {
  // The stopping rule chooses its look from the data; the interval it stops with must still miss
  // the true ratio at most 5 % of the time. Hardest case: a true ratio on a boundary, where the
  // rule stops exactly when an interval happens to exclude the truth.
  it('(d) 2000 sequential runs of a true ratio on a boundary: the final interval misses it in at most 5 % (+ Monte Carlo margin)', function () {
    this.timeout(20000);
    const se = (n) => 3 * Math.sqrt((0.05 * 0.95) / n); // 3 standard errors of a 5 % rate
    let all = 0;
    for (const sigma of [0.05, 0.2]) {
      const N = 1000;
      let miss = 0;
      for (let i = 0; i < N; i++) {
        const ci = drive({ ratio: 1.25, sigma, seed: 1000 + i }).variants.v.ratio.ci;
        if (!(ci[0] <= 1.25 && 1.25 <= ci[1])) miss++;
      }
      expect(miss / N, `sigma ${sigma}`).to.be.at.most(0.05 + se(N));
      all += miss;
    }
    expect(all / 2000).to.be.at.most(0.05 + se(2000));
  });

  it('the same stopping on uncorrected 95 % intervals misses far more often (what the correction is for)', function () {
    let miss = 0;
    const N = 1000;
    for (let i = 0; i < N; i++) {
      const next = S.rng(5000 + i);
      const per = [];
      let iv;
      for (let n = 1; n <= 9; n++) {
        per.push(1.25 * Math.exp(0.05 * gauss(next) - 0.05 * gauss(next)));
        if (n < 3) continue;
        iv = S.ratioInterval(per, 0.95);
        if (!containsAny([iv.lo, iv.hi], BAND)) break;
      }
      if (!(iv.lo <= 1.25 && 1.25 <= iv.hi)) miss++;
    }
    expect(miss / N).to.be.above(0.1);
  });
});

describe('sequential rounds: records and every reader take the record level', function () {
  const res = drive({ ratio: 1.6, sigma: 0.15, seed: 3 });
  const recs = lab.pointRecords({ name: 's', unit: 'ms' }, {}, {}, res, {}, {});
  const v = recs.find((r) => r.variant === 'v');
  const base = recs.find((r) => r.variant === 'base');

  it('each record says its rounds, why they stopped and the rule', function () {
    expect(res.stop).to.be.oneOf(['decided', 'cap']);
    for (const r of recs) {
      expect(r).to.include({ rounds: res.rounds, stop: res.stop });
      expect(r.sequential).to.deep.equal(res.sequential);
    }
    const fixed = drive({ ratio: 1.6, o: { maxRounds: 0 } });
    const f = lab.pointRecords({ name: 's', unit: 'ms' }, {}, {}, fixed, {}, {})[1];
    expect(f).to.include({ rounds: 3, stop: 'fixed' });
    expect(f).to.not.have.property('sequential');
  });

  it('compare, the point tables and the claims read the interval the record carries (one estimator, its level)', function () {
    const c = S.compareRecord(v, base);
    expect([c.lo, c.hi]).to.deep.equal(v.ratio.ci);
    const iv = claims.intervalOf(recs, 'v', 'base');
    expect([iv.lo, iv.hi]).to.deep.equal(v.ratio.ci);
    // wider than the 95 % interval of the same rounds
    const plain = S.ratioInterval(v.times.map((t, i) => t / base.times[i]));
    expect(iv.hi / iv.lo).to.be.above(plain.hi / plain.lo);
    expect(S.levelOf(v, base)).to.equal(res.sequential.level);
    expect(S.levelOf({}, null)).to.equal(0.95);
  });
});

/**
 * Drives the harness over a baseline and several variants of known true ratios (ratios: name ->
 * ratio), as drive() does for one. Returns the result and each variant's timed steps by round.
 */
function driveMany({ ratios, sigma = 0.05, seed = 1, o = {} }) {
  const next = S.rng(seed);
  const names = ['base', ...Object.keys(ratios)];
  const h = lab.harness(names, { warmup: 1, rounds: 3, maxRounds: 9, baseline: 'base', ...o });
  const drift = [];
  const ran = Object.fromEntries(names.map((n) => [n, []]));
  let step;
  while ((step = h.next()) !== null) {
    const d = drift[step.round] || (drift[step.round] = Math.exp(0.2 * gauss(next)));
    if (step.phase === 'timed') ran[step.variant].push(step.round);
    h.record(step, 100 * (ratios[step.variant] || 1) * d * Math.exp(sigma * gauss(next)), 42);
  }
  return { res: h.result(), ran };
}

describe('sequential rounds: per-variant stopping', function () {
  it('a decided variant stops running while the baseline and an undecided one go on to the cap', function () {
    for (let seed = 1; seed <= 10; seed++) {
      const { res, ran } = driveMany({ ratios: { fast: 3, edge: 1.25 }, sigma: 0.03, seed });
      expect(res.stop).to.equal('cap');
      expect(res.rounds).to.equal(9);
      // fast: decided at the first look, its rounds the point's first three; the others all nine
      expect(ran.fast).to.deep.equal([0, 1, 2]);
      expect(ran.base).to.have.length(9);
      expect(res.variants.fast).to.include({ rounds: 3, stop: 'decided' });
      expect(res.variants.edge).to.not.have.property('stop');
      // its ratio paired with the baseline's first three rounds, at the corrected level
      const per = res.variants.fast.times.map((t, i) => t / res.variants.base.times[i]);
      const iv = S.ratioInterval(per, res.sequential.level);
      expect(res.variants.fast.ratio.ci).to.deep.equal([iv.lo, iv.hi]);
      expect(res.variants.fast.ratio.ci[0]).to.be.above(S.NO_DIFFERENCE);
    }
  });

  it('the records say each variant its rounds and stop; compare and the claims pair them by round index', function () {
    const { res } = driveMany({ ratios: { fast: 3, edge: 1.25 }, sigma: 0.03, seed: 4 });
    const recs = lab.pointRecords({ name: 's', unit: 'ms' }, {}, {}, res, {}, {});
    const by = Object.fromEntries(recs.map((r) => [r.variant, r]));
    expect(by.fast).to.include({ rounds: 3, stop: 'decided' });
    expect(by.base).to.include({ rounds: 9, stop: 'cap' });
    expect(by.edge).to.include({ rounds: 9, stop: 'cap' });
    // the one estimator's comparison: paired by round (n 3), the interval the record carries
    const c = S.compareRecord(by.fast, by.base);
    expect(c).to.include({ perRound: true, n: 3 });
    expect([c.lo, c.hi]).to.deep.equal(by.fast.ratio.ci);
    // the other way round (a report's "use fast instead of base"): the same three rounds, reciprocal
    const back = S.compareTimes(by.base.times, by.fast.times, { to: 'fast', level: S.levelOf(by.base, by.fast) });
    expect(back).to.include({ perRound: true, n: 3 });
    expect(back.lo).to.be.closeTo(1 / c.hi, 1e-9);
    expect(back.hi).to.be.closeTo(1 / c.lo, 1e-9);
    // the claims: fast against the baseline, and against edge over the rounds both ran
    const iv = claims.intervalOf(recs, 'fast', 'base');
    expect([iv.lo, iv.hi]).to.deep.equal(by.fast.ratio.ci);
    const two = claims.intervalOf(recs, 'fast', 'edge');
    expect(two.n).to.equal(3);
    expect(two.mid).to.be.closeTo(3 / 1.25, 0.3);
  });

  it('fixed rounds and a point-wide decision are unchanged: no variant stops on its own', function () {
    const fixed = driveMany({ ratios: { fast: 3, edge: 1.25 }, o: { maxRounds: 0 } });
    expect(fixed.res.stop).to.equal('fixed');
    for (const v of ['base', 'fast', 'edge']) expect(fixed.ran[v]).to.deep.equal([0, 1, 2]);
    expect(fixed.res.variants.fast).to.not.have.property('stop');
    const both = driveMany({ ratios: { a: 3, b: 4 }, sigma: 0.03 });
    expect(both.res).to.include({ stop: 'decided', rounds: 3 });
    expect(both.res.variants.a).to.include({ rounds: 3, stop: 'decided' });
  });

  it('the error rate holds per variant: 1000 runs, a variant stopping on its own beside one on a boundary', function () {
    // true ratio 1.5 (sigma 0.2: it stops at different looks) beside a variant held at the cap
    let miss = 0;
    let early = 0;
    const N = 1000;
    for (let seed = 1; seed <= N; seed++) {
      const { res } = driveMany({ ratios: { mid: 1.5, edge: 1.25 }, sigma: 0.2, seed });
      const r = res.variants.mid;
      if (r.stop === 'decided' && r.rounds < res.rounds) early++;
      if (!(r.ratio.ci && r.ratio.ci[0] <= 1.5 && 1.5 <= r.ratio.ci[1])) miss++;
    }
    const se = Math.sqrt((0.05 * 0.95) / N);
    expect(miss / N).to.be.at.most(0.05 + 3 * se);
    expect(early).to.be.above(0); // it did stop on its own, at looks the data chose
  });
});
