'use strict';
// tools/seed-estimate.js: the replay of recorded rounds under per-variant stopping (no server).
const { expect } = require('chai');
const { replayRounds, estimate } = require('../../tools/seed-estimate');

const rec = (variant, times, o = {}) => ({
  type: 'result',
  study: 's',
  variant,
  axis: { n: 1 },
  times,
  warmup: [times[0]],
  ratio: { to: 'base' },
  ...o,
});

describe('tools/seed-estimate.js: replaying recorded rounds', function () {
  const base = rec('base', [100, 101, 99, 100, 102, 100, 98, 100, 101]);
  const fast = rec('fast', [300, 303, 297, 300, 306, 300, 294, 300, 303]); // 3x: decided at once
  const edge = rec('edge', [125, 140, 112, 126, 130, 120, 124, 128, 122]); // ~1.25x: open

  it('a decided variant stops at the first look; an open one and the baseline run to the cap', function () {
    const r = replayRounds([base, fast, edge], base, { RUNS: 3, MAX_RUNS: 9, mode: 'variant' });
    expect(r).to.deep.equal({ fast: 3, edge: 9, base: 9 });
    // point mode: every variant runs as long as the longest
    const p = replayRounds([base, fast, edge], base, { RUNS: 3, MAX_RUNS: 9, mode: 'point' });
    expect(p).to.deep.equal({ fast: 9, edge: 9, base: 9 });
    // no MAX_RUNS: the recorded rounds (RUNS alone cuts them)
    expect(replayRounds([base, fast], base, {})).to.deep.equal({ base: 9, fast: 9 });
    expect(replayRounds([base, fast], base, { RUNS: 4 })).to.deep.equal({ base: 4, fast: 4 });
  });

  it('a variant open beyond its records is charged its median per round to the cap', function () {
    const short = [base, fast, edge].map((r) => ({ ...r, times: r.times.slice(0, 5), warmup: [] }));
    const data = { results: short, progress: { studies: ['s'], times: { s: { totalMs: 60000 * 30 } } } };
    const [row] = estimate(data, { set: { s: { RUNS: 3, MAX_RUNS: 9 } }, mode: 'variant', since: false });
    const sum = (xs) => xs.reduce((a, x) => a + x, 0);
    // fast: 3 rounds; edge and base: 5 recorded + 4 at their medians (126, 100)
    const want =
      sum(fast.times.slice(0, 3)) + sum(edge.times.slice(0, 5)) + 4 * 126 + sum(base.times.slice(0, 5)) + 4 * 100;
    expect(row.points[0].newTimed).to.be.closeTo(want, 1e-9);
    expect(row.predicted).to.be.closeTo(row.total - row.timed - row.warm + want, 1e-9);
  });

  it('DROP leaves a variant out everywhere or at one point; never the baseline', function () {
    const at2 = (r) => ({ ...r, axis: { n: 2 } });
    const recs = [base, fast, edge, at2(base), at2(fast), at2(edge)];
    const data = { results: recs, progress: { studies: ['s'], times: { s: { totalMs: 60000 * 30 } } } };
    const work = (r) => r.times.reduce((a, x) => a + x, 0) + r.warmup[0];
    const run = (DROP) => estimate(data, { set: { s: { DROP } }, mode: 'variant', since: false })[0];
    const all = run(undefined);
    expect(all.points.map((p) => p.newTimed + p.newWarm)).to.deep.equal(
      [1, 1].map(() => work(base) + work(fast) + work(edge)),
    );
    const everywhere = run(['edge']);
    expect(everywhere.predicted).to.be.closeTo(all.predicted - 2 * work(edge), 1e-9);
    const onePoint = run(['edge@n=2', 'base']);
    expect(onePoint.predicted).to.be.closeTo(all.predicted - work(edge), 1e-9);
    // the dropped variant's records are not replayed (no verdict reads them)
    expect(onePoint.points[1].replay.recs.map((r) => r.variant)).to.deep.equal(['base', 'fast']);
  });
});
