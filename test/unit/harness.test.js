'use strict';
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');

/** Drives the harness with fixed times per variant; returns the steps it gave and its result. */
function drive(names, o, msOf) {
  const h = lab.harness(names, o);
  const steps = [];
  let step;
  while ((step = h.next()) !== null) {
    steps.push(`${step.phase[0]}${step.round}:${step.variant}`);
    h.record(step, msOf(step.variant), 1);
  }
  return { steps, plan: h.plan().map((s) => `${s.phase[0]}${s.round}:${s.variant}`), res: h.result() };
}

describe('harness: warm-up rounds', function () {
  it('warms every variant by default, then alternates the timed rounds', function () {
    const { steps, plan } = drive(['a', 'b'], { warmup: 1, rounds: 2 }, () => 1);
    expect(steps).to.deep.equal(['w0:a', 'w0:b', 't0:a', 't0:b', 't1:b', 't1:a']);
    expect(plan).to.deep.equal(steps);
  });

  it('warmOnce: only the first variant warms up, the plan says so, every variant keeps its rounds', function () {
    const { steps, plan, res } = drive(['a', 'b', 'c'], { warmup: 1, rounds: 2, warmOnce: true }, () => 1);
    expect(steps).to.deep.equal(['w0:a', 't0:a', 't0:b', 't0:c', 't1:c', 't1:b', 't1:a']);
    expect(plan).to.deep.equal(steps);
    expect(res.variants.b.times).to.have.length(2);
    expect(res.variants.b.warmup).to.deep.equal([]);
  });

  it('warmOnce: a variant over the budget with no warm-up is capped by its first timed run', function () {
    const { steps, res } = drive(['a', 'slow'], { warmup: 1, rounds: 3, budgetMs: 10, warmOnce: true }, (v) =>
      v === 'slow' ? 50 : 1,
    );
    expect(steps.filter((s) => s.endsWith(':slow'))).to.deep.equal(['t0:slow']);
    expect(res.variants.slow.capped).to.equal(true);
    expect(res.variants.slow.times).to.deep.equal([50]);
    expect(res.variants.a.times).to.have.length(3);
  });
});

describe('harness: a minimum of timed work (MIN_MS)', function () {
  it('adds whole rounds while the timed work is under minMs, alternating on', function () {
    // 2 variants x 10 ms a round: 3 rounds give 60 ms, 100 ms needs 5 rounds
    const { steps, res } = drive(['a', 'b'], { warmup: 0, rounds: 3, minMs: 100 }, () => 10);
    expect(res.rounds).to.equal(5);
    expect(res.variants.a.times).to.have.length(5);
    expect(res.variants.b.times).to.have.length(5);
    expect(steps.slice(-4)).to.deep.equal(['t3:b', 't3:a', 't4:a', 't4:b']);
  });

  it('a round once started is run through, so every variant has as many samples', function () {
    // the threshold is crossed by a's sample in round 3: b still runs in that round
    const { res } = drive(['a', 'b'], { warmup: 0, rounds: 3, minMs: 65 }, (v) => (v === 'a' ? 15 : 1));
    expect(res.variants.a.times.length).to.equal(res.variants.b.times.length);
    expect(res.rounds).to.equal(5);
  });

  it('at most 10x the rounds; none added when the rounds already did the work, nor for capped variants', function () {
    expect(drive(['a'], { warmup: 0, rounds: 2, minMs: 1e9 }, () => 1).res.rounds).to.equal(20);
    expect(drive(['a', 'b'], { warmup: 1, rounds: 3, minMs: 50 }, () => 100).res.rounds).to.equal(3);
    const capped = drive(['a'], { warmup: 1, rounds: 3, budgetMs: 10, minMs: 1e9 }, () => 50);
    expect(capped.res.variants.a.times).to.deep.equal([50]);
    expect(drive(['a'], { warmup: 1, rounds: 0, minMs: 1e9 }, () => 1).res.variants.a.times).to.have.length(1);
    expect(drive(['a'], { warmup: 0, rounds: 3 }, () => 1).res.rounds).to.equal(3);
  });
});
