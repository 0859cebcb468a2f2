'use strict';
// bench/stability.js counts decisive flips between findings runs; the benchmark itself is not part
// of `npm test` (three quick findings runs), its counting is. Pure: no server.
const { expect } = require('chai');
const { verdictDifferences } = require('../../bench/stability');

const report = (verdicts) => ({
  claims: verdicts.map(([id, verdict]) => ({ study: 'toy', id, claim: id, column: 1, verdict, figure: null })),
});

describe('bench/stability: what counts as a flip', function () {
  it('two decisive verdicts that disagree are a flip; inconclusive beside a decisive one is not', function () {
    const d = verdictDifferences([
      report([
        ['a', 'holds'],
        ['b', 'holds'],
        ['c', 'holds'],
        ['d', 'not-reproduced'],
        ['e', 'stronger'],
      ]),
      report([
        ['a', 'holds'],
        ['b', 'inconclusive'],
        ['c', 'reversed'],
        ['d', 'not-reproduced'],
        ['e', 'stronger'],
      ]),
      report([
        ['a', 'holds'],
        ['b', 'holds'],
        ['c', 'holds'],
        ['d', 'holds'],
        ['e', 'inconclusive'],
      ]),
    ]);
    expect(d.claims).to.equal(5);
    expect(d.flips.map((r) => r.id)).to.deep.equal(['c', 'd']);
    expect(d.allowed.map((r) => r.id)).to.deep.equal(['b', 'e']);
    expect(d.flips[0].verdicts).to.deep.equal(['holds', 'reversed', 'holds']);
  });

  it('beside CPU-bound processes, not-reproduced decides nothing (the run took the quiet cores away); quiet, it does', function () {
    const runs = [
      report([
        ['pg', 'weaker'],
        ['x', 'holds'],
      ]),
      report([
        ['pg', 'weaker'],
        ['x', 'holds'],
      ]),
      report([
        ['pg', 'not-reproduced'],
        ['x', 'reversed'],
      ]),
    ];
    const d = verdictDifferences(runs, { busy: [false, false, true] });
    expect(d.flips.map((r) => r.id)).to.deep.equal(['x']);
    expect(d.allowed.map((r) => r.id)).to.deep.equal(['pg']);
    expect(verdictDifferences(runs).flips.map((r) => r.id)).to.deep.equal(['pg', 'x']);
  });

  it('claims are matched by study, id and column; one missing in a run is not a flip', function () {
    const two = { claims: [{ study: 'toy', id: 'a', column: 2, verdict: 'weaker' }] };
    const d = verdictDifferences([report([['a', 'holds']]), { claims: [] }, two]);
    expect(d.claims).to.equal(2);
    expect(d.flips).to.deep.equal([]);
  });
});
