'use strict';
// The loader's batches in flight follow the free cores (issue 37.5, lib/infra/loader.js
// inflightControl): two batches when no core is free (one would put each batch's journal wait on
// the critical path: 0.78x a bare loop beside burners), more only once a core has been seen idle,
// never more than asked for; one when asked for one.
const { expect } = require('chai');
const { nextInflight, inflightControl, BUSY_SHARE, FREE_SHARE, FLOOR } = require('../../lib/infra/loader');
const { cpuWaitMicros } = require('../../lib/infra/cpu-wait');
const { startBurners } = require('../burners');

/** A clock and a PSI counter the test moves: each window waits `share` of its 300 ms. */
function fakeMachine() {
  const m = { t: 0, waited: 0 };
  m.now = () => m.t;
  m.readWait = () => m.waited;
  m.window = (share) => {
    m.t += 300;
    m.waited += Math.round(share * 300 * 1000);
  };
  return m;
}

describe('loader: batches in flight adapt to free cores', function () {
  it('no core free: the number in flight halves down to two batches and stays there', function () {
    expect(FLOOR).to.equal(2);
    expect(nextInflight(8, 1, 8)).to.equal(4);
    expect(nextInflight(4, 1, 4)).to.equal(2);
    expect(nextInflight(2, 0.9, 4)).to.equal(2);
    expect(nextInflight(3, BUSY_SHARE, 4)).to.equal(2);
    expect(nextInflight(1, 0.99, 1)).to.equal(1); // asked for one (a caller that needs order): one
  });

  it('a free core: one more batch at a time, up to the most asked for; in between it holds', function () {
    expect(nextInflight(2, 0, 4)).to.equal(3);
    expect(nextInflight(3, FREE_SHARE / 2, 4)).to.equal(4);
    expect(nextInflight(4, 0, 4)).to.equal(4);
    expect(nextInflight(3, (BUSY_SHARE + FREE_SHARE) / 2, 4)).to.equal(3);
  });

  it('an unknown share (no PSI) keeps the number asked for', function () {
    expect(nextInflight(2, null, 4)).to.equal(4);
    expect(nextInflight(2, NaN, 3)).to.equal(3);
  });

  it('the control starts at two batches, earns more on idle windows, falls back to two beside burners', function () {
    const m = fakeMachine();
    const c = inflightControl(4, { readWait: m.readWait, now: m.now, windowMs: 250 });
    expect(c.adaptive).to.equal(true);
    expect(c.level()).to.equal(2);
    for (let i = 0; i < 5; i++) {
      m.window(0.05); // quiet: the load alone leaves a core idle
      c.observe();
    }
    expect(c.level()).to.equal(4);
    for (let i = 0; i < 2; i++) {
      m.window(0.97); // two CPU-bound neighbours: every wake-up queues
      c.observe();
    }
    expect(c.level()).to.equal(2);
    m.t += 100; // a batch settling inside the window decides nothing
    c.observe();
    expect(c.level()).to.equal(2);
  });

  it('pinned (adaptive: false), asked for the floor or less, or without PSI: the number asked for, always', function () {
    const m = fakeMachine();
    const pinned = inflightControl(4, { adaptive: false, readWait: m.readWait, now: m.now });
    const one = inflightControl(1, { readWait: m.readWait, now: m.now });
    const two = inflightControl(2, { readWait: m.readWait, now: m.now });
    const noPsi = inflightControl(3, { readWait: () => null, now: m.now });
    const all = [pinned, one, two, noPsi];
    m.window(1);
    for (const c of all) c.observe();
    expect(all.map((c) => c.level())).to.deep.equal([4, 1, 2, 3]);
    expect(all.map((c) => c.adaptive)).to.deep.equal([false, false, false, false]);
  });

  it('mean(): the average number in flight over the batches sent', function () {
    const m = fakeMachine();
    const c = inflightControl(4, { readWait: m.readWait, now: m.now });
    c.sent(); // at 2
    m.window(0);
    c.observe();
    c.sent(); // at 3
    c.sent();
    expect(c.mean()).to.equal(2.67);
  });

  it('on this machine: a runnable loader beside two burners reads as no core free (real PSI)', async function () {
    if (cpuWaitMicros() === null) this.skip(); // no pressure stall information: nothing to read
    this.timeout(10000);
    const burners = startBurners(2, { maxMs: 5000 });
    try {
      await new Promise((r) => setTimeout(r, 400)); // the burners are spinning
      const u0 = cpuWaitMicros();
      const t0 = Date.now();
      let x = 0;
      while (Date.now() - t0 < 500) x = (x * 31 + 7) % 1000003; // this process runnable, like a loader
      const share = (cpuWaitMicros() - u0) / 1000 / (Date.now() - t0);
      expect(x).to.be.a('number');
      // Three runnable tasks on two cores: some task waits nearly all the time (wide margin: >= 0.5).
      expect(share, `CPU-wait share ${share.toFixed(2)}`).to.be.at.least(BUSY_SHARE);
      expect(nextInflight(8, share, 8)).to.be.at.most(4);
      expect(nextInflight(4, share, 4)).to.equal(2);
    } finally {
      burners.stop();
    }
  });
});
