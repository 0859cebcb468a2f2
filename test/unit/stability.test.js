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

  it('a not-reproduced for busy cores decides nothing (the burners run takes them away); any other not-reproduced does', function () {
    const busy = {
      verdict: 'not-reproduced',
      setting: { needed: 'x', here: 'contended', ok: false, absent: 'busy-cores' },
    };
    const at = (id, v) => ({
      study: 'toy',
      id,
      claim: id,
      column: 1,
      figure: null,
      ...(typeof v === 'string' ? { verdict: v } : v),
    });
    const d = verdictDifferences([
      { claims: [at('pg', 'weaker'), at('x', 'holds'), at('pg-gone', 'holds')] },
      { claims: [at('pg', 'weaker'), at('x', 'holds'), at('pg-gone', 'holds')] },
      { claims: [at('pg', busy), at('x', 'reversed'), at('pg-gone', 'not-reproduced')] },
    ]);
    expect(d.flips.map((r) => r.id)).to.deep.equal(['x', 'pg-gone']);
    expect(d.allowed.map((r) => r.id)).to.deep.equal(['pg']);
  });

  it('claims are matched by study, id and column; one missing in a run is not a flip', function () {
    const two = { claims: [{ study: 'toy', id: 'a', column: 2, verdict: 'weaker' }] };
    const d = verdictDifferences([report([['a', 'holds']]), { claims: [] }, two]);
    expect(d.claims).to.equal(2);
    expect(d.flips).to.deep.equal([]);
  });
});
