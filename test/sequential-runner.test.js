'use strict';
// Sequential rounds through the real runners (docs/sequential-rounds.md): MAX_RUNS reaches the
// harness in the mongosh drop-in and in the Node runner alike, and every timed record says its
// rounds, why they stopped and the rule. The rule itself: test/unit/sequential.test.js.
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const { studyParams } = require('../lib/cli/run');

const SCRIPT = 'where_vs_agg.js';

describe('sequential rounds in the runners', function () {
  const t = useTestDatabase('sequential');

  it('MAX_RUNS over RUNS: each point runs RUNS to MAX_RUNS rounds, its records stamped (drop-in and runner)', async function () {
    const p = { N: 2000, SEED: 7, RUNS: 1, MAX_RUNS: 4, WARMUP: 0, VARIANTS: 'plain,expr-find,hybrid' };
    const shell = (await t.run(SCRIPT, p)).records.filter((r) => r.type === 'result');
    const node = (await t.study('where', p)).records.filter((r) => r.type === 'result' && !r.skipped);
    for (const [side, recs] of Object.entries({ shell, node })) {
      expect(recs, side).to.have.length(3);
      for (const r of recs) {
        expect(r.stop, `${side} ${r.variant}`).to.be.oneOf(['decided', 'cap']);
        expect(r.sequential, side).to.deep.equal({ level: 1 - 0.05 / 2, looks: 2, rule: 'bonferroni-rci' });
        expect(r.rounds).to.be.within(1, 4);
        expect(r.runs).to.equal(r.rounds);
        if (r.stop === 'cap') expect(r.rounds).to.equal(4);
        if (r.ratio && r.ratio.ci) expect(r.ratio.level).to.equal(r.sequential.level);
      }
    }
  });

  it('a deadline (the --budget option) lets no round start after it but the first: stop "budget"', async function () {
    const p = { N: 2000, SEED: 7, RUNS: 3, MAX_RUNS: 6, WARMUP: 0, VARIANTS: 'plain,expr-find' };
    const recs = (await t.study('where', p, { deadline: Date.now() - 1 })).records;
    for (const r of recs.filter((x) => x.type === 'result' && !x.skipped))
      expect(r, r.variant).to.include({ rounds: 1, runs: 1, stop: 'budget' });
  });

  it('fixed rounds by default: stop "fixed", no sequential field; --runs N stays N fixed rounds', async function () {
    const recs = (await t.study('where', { N: 2000, SEED: 7, RUNS: 2, WARMUP: 0, VARIANTS: 'plain,expr-find' }))
      .records;
    for (const r of recs.filter((x) => x.type === 'result' && !x.skipped)) {
      expect(r).to.include({ rounds: 2, stop: 'fixed' });
      expect(r).to.not.have.property('sequential');
    }
    const entry = { name: 'where', cli: { runs: 'RUNS' } };
    expect(studyParams(entry, { runs: 4, sets: {} })).to.deep.equal({ RUNS: 4, MAX_RUNS: 0 });
    expect(studyParams(entry, { runs: 4, sets: { MAX_RUNS: 9 } })).to.deep.equal({ RUNS: 4, MAX_RUNS: 9 });
  });
});
