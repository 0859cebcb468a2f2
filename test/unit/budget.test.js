'use strict';
// --budget (lib/core/budget.js, lib/report/budget-report.js, lib/cli/options.js): the wall time parsed or refused in one line, the
// plan read from the registry's stated durations (the ones `list` prints), the deadlines each study
// inherits, and the claims a budget leaves open with the run that would decide them.
const { expect } = require('chai');
const path = require('path');
const { spawnSync } = require('child_process');
const budget = require('../../lib/core/budget');
const budgetReport = require('../../lib/report/budget-report');
const { budgetMs, budgetProfile } = require('../../lib/cli/options');
const { UsageError } = require('../../lib/infra/errors');
const { studies } = require('../../lib/studies');

const LAB = path.join(__dirname, '..', '..', 'bin', 'mongo-perf-lab.js');
const study = (name) => studies.find((s) => s.name === name);
// Studies with stated durations chosen for the test: quick 1 min / seed 10 min, quick 1 min / seed 50 min.
const fake = (name, expected, seedExpected) => ({ name, expected, seedExpected });

describe('--budget: the duration parser', function () {
  it('accepts s, m and h, with decimals and a space', function () {
    expect(budgetMs('90s')).to.equal(90000);
    expect(budgetMs('30m')).to.equal(1800000);
    expect(budgetMs('1.5h')).to.equal(5400000);
    expect(budgetMs('2 m')).to.equal(120000);
    expect(budgetMs(undefined)).to.equal(undefined);
  });

  it('refuses anything else in one line naming the option and the form', function () {
    for (const bad of ['30', '30d', '0s', '-5m', 'm', '1e3s', '30 min', '0.5s', '']) {
      expect(() => budgetMs(bad), bad)
        .to.throw(/^--budget: expected a wall time of at least 1s in s, m or h \(e\.g\. 90s, 30m, 1\.5h\), got /)
        .and.be.instanceOf(UsageError);
    }
    expect(() => budgetMs('49h')).to.throw(/at most 48h/);
  });

  it('refuses --budget with --profile (the budget chooses the profiles)', function () {
    expect(() => budgetProfile('30m', 'seed')).to.throw(/give --budget or --profile, not both/);
    expect(() => budgetProfile('30m', undefined)).not.to.throw();
  });

  it('the CLI exits 2 with one line for a bad --budget, before any server', function () {
    for (const cmd of ['findings', 'run']) {
      const r = spawnSync(process.execPath, [LAB, cmd, 'where', '--budget', '30'], {
        encoding: 'utf8',
        timeout: 20000,
      });
      expect(r.status, r.stderr).to.equal(2);
      expect(r.stderr.split('\n')[0]).to.equal(
        'mongo-perf-lab: --budget: expected a wall time of at least 1s in s, m or h (e.g. 90s, 30m, 1.5h), got "30"',
      );
      expect(r.stderr).not.to.match(/\n\s+at /);
    }
  });
});

describe('--budget: the planner', function () {
  it("reads the registry's stated durations (list's): seconds, minutes, a range's upper end", function () {
    expect(budget.estimateMinutes('~50 s')).to.be.closeTo(50 / 60, 1e-9);
    expect(budget.estimateMinutes('~17 min (measured 2026-11-27 on a 2.5 GHz Xeon)')).to.equal(17);
    expect(budget.estimateMinutes('~1.5 min (measured)')).to.equal(1.5);
    expect(budget.estimateMinutes('~5-16 min ($where 61 s a run)')).to.equal(16);
    expect(budget.estimateMinutes('?')).to.equal(null);
    for (const s of studies) {
      const est = budget.profileMinutes(s);
      expect(est.quick, s.name).to.be.a('number');
      expect(est.seed, s.name).to.be.greaterThan(est.quick);
    }
  });

  it('picks per study the largest profile whose time fits its share', function () {
    const entries = [fake('a', '~1 min', '~10 min'), fake('b', '~1 min', '~50 min')];
    const at = (minutes) => budget.planBudget(entries, minutes * 60000).map((r) => r.profile);
    expect(at(0.5)).to.deep.equal(['tiny', 'tiny']);
    expect(at(2)).to.deep.equal(['quick', 'quick']);
    // 24 min: shares of 12, a's seed (10) fits; b's (50) does not
    expect(at(24)).to.deep.equal(['seed', 'quick']);
    expect(at(60)).to.deep.equal(['seed', 'seed']);
  });

  it('gives what the shares left unused to the cheapest upgrades, within the budget', function () {
    // shares of 6 min: both quick; the 10 min left over lift a to seed (9 more), not b (49 more)
    const plan = budget.planBudget([fake('a', '~1 min', '~10 min'), fake('b', '~1 min', '~50 min')], 12 * 60000);
    expect(plan.map((r) => r.profile)).to.deep.equal(['seed', 'quick']);
    expect(plan.reduce((s, r) => s + r.minutes, 0)).to.equal(11);
    // the allotments add up to the budget
    expect(plan.reduce((s, r) => s + r.allotMs, 0)).to.be.closeTo(12 * 60000, 1);
  });

  it('a study with no stated duration runs at tiny (an unknown time never fits)', function () {
    const plan = budget.planBudget([fake('own', '?', '?')], 3600000);
    expect(plan[0].profile).to.equal('tiny');
  });

  it('the real studies: where at tiny in 5 s, quick in 2 min, seed in its stated 23 min', function () {
    const where = [study('where')];
    expect(budget.planBudget(where, 5000)[0].profile).to.equal('tiny');
    expect(budget.planBudget(where, 120000)[0].profile).to.equal('quick');
    expect(budget.planBudget(where, 12 * 60000)[0].profile).to.equal('quick');
    expect(budget.planBudget(where, 23 * 60000)[0].profile).to.equal('seed');
  });

  it('deadlines: each study inherits what the studies before it left unused; the last ends the budget', function () {
    const plan = budget.planBudget([fake('a', '~1 min', '~10 min'), fake('b', '~1 min', '~50 min')], 12 * 60000);
    const deadlineOf = budget.deadlineClock(plan, 1000);
    expect(deadlineOf({ name: 'a' })).to.equal(1000 + Math.round(plan[0].allotMs));
    expect(deadlineOf({ name: 'b' })).to.equal(1000 + 12 * 60000);
    expect(budget.profileOfPlan(plan)({ name: 'b' })).to.equal('quick');
    expect(budget.columnProfile(plan)).to.equal('seed');
  });

  it('prints the plan within 100 columns: study, profile, estimated and allotted minutes', function () {
    const plan = budget.planBudget(studies, 30 * 60000);
    const lines = budgetReport.planLines(plan, 30 * 60000);
    expect(lines[0]).to.match(/^budget 30 min: /);
    expect(lines[1]).to.match(/^study +profile +estimated min +allotted min$/);
    expect(lines.length).to.equal(studies.length + 4);
    expect(Math.max(...lines.map((l) => l.length))).to.be.at.most(100);
  });
});

describe('--budget: the claims it left open', function () {
  const plan = budget.planBudget([study('where'), study('joins')], 5000);
  const judged = [
    { study: 'where', id: 'a', verdict: 'inconclusive', why: 'test scale (--profile tiny): not a finding' },
    { study: 'where', id: 'b', verdict: 'holds', why: '' },
    { study: 'joins', id: 'c', verdict: 'not-reproduced', why: '1,000 documents here, the source had 100,000' },
    { study: 'joins', id: 'd', verdict: 'not-reproduced', why: 'the server is not a replica set' },
  ];

  it('inconclusive, or not reproduced for scale or rounds, each with its deciding run', function () {
    const open = budgetReport.openClaims(judged, plan);
    expect(open.map((o) => o.id)).to.deep.equal(['a', 'c']);
    expect(open[0].command).to.equal('npx mongo-perf-lab run where --profile seed');
    expect(open[0].takes).to.equal('~5-23 min');
    const lines = budgetReport.openLines(open);
    expect(lines[0]).to.match(/^the budget left 2 claim\(s\) open/);
    expect(lines.join('\n')).to.contain(
      'decided by `npx mongo-perf-lab run where --profile seed` (~5-23 min): where a',
    );
    expect(Math.max(...lines.map((l) => l.length))).to.be.at.most(100);
  });

  it('the budget object of findings.json: given, spent, plan, open claims', function () {
    const open = budgetReport.openClaims(judged, plan);
    const rec = budgetReport.budgetRecord({ budgetMs: 5000, spentMs: 4000, plan, open });
    expect(rec.given).to.deep.equal({ ms: 5000, minutes: 0.08 });
    expect(rec.spent.ms).to.equal(4000);
    expect(rec.plan.map((r) => [r.study, r.profile])).to.deep.equal([
      ['where', 'tiny'],
      ['joins', 'tiny'],
    ]);
    expect(rec.open[0]).to.deep.equal({
      study: 'where',
      id: 'a',
      verdict: 'inconclusive',
      decidedBy: 'npx mongo-perf-lab run where --profile seed',
      takes: '~5-23 min',
    });
  });
});

describe('kept data: the marker names the generator version, and only the same version is reused', function () {
  const LabFixture = require('../../scripts/lib/fixture');
  const U = '0123456789abcdef0123456789abcdef';
  const info = { name: 'fx', type: 'collection', info: { uuid: U } };
  const spec = { fixture: 'where-ab', n: 10, seed: 1 };
  const marker = (extra) => ({ ...LabFixture.marker('fx', U, 'fixture', {}, spec), complete: true, ...extra });

  it('a generated fixture is marked with the generators version', function () {
    expect(marker().generatorVersion).to.equal(LabFixture.GENERATOR_VERSION);
    // a collection that is not generated data (a scratch or derived one) carries none
    expect(LabFixture.marker('x', U, 'collection', {}, {}).generatorVersion).to.equal(undefined);
  });

  it('the same generator, version, seed and size: reuse; another version: regenerate (the lab owns it)', function () {
    expect(LabFixture.decide(marker(), 10, spec, info).action).to.equal('reuse');
    const older = LabFixture.decide(marker({ generatorVersion: LabFixture.GENERATOR_VERSION + 1 }), 10, spec, info);
    expect(older.action).to.equal('regenerate');
    expect(older.why).to.match(/^generated by the lab with generator version \d+, now \d+$/);
    // a marker from before versions counts as version 1
    const { generatorVersion, ...before } = marker();
    expect(generatorVersion).to.equal(1);
    expect(LabFixture.decide(before, 10, spec, info).action).to.equal('reuse');
  });

  it('a foreign collection stays foreign whatever its marker says about versions', function () {
    const other = { ...info, info: { uuid: 'f'.repeat(32) } };
    expect(LabFixture.decide(marker({ generatorVersion: 99 }), 10, spec, other).action).to.equal('foreign');
  });
});

describe('--budget: each study read at its own profile (records stamped by lib/core/session.js)', function () {
  const { findingsJson } = require('../../lib/report/findings-files');
  const { findingsDocument } = require('../../lib/report/findings-report');
  const { renderMarkdown } = require('../../lib/report/render-markdown');
  const { summaryDocument } = require('../../lib/cli/run');
  const entries = [study('where'), study('joins')];
  // A quick column in which --budget ran joins at tiny: only joins's records carry a profile.
  const doc = {
    environment: { profile: 'quick', server: { version: '6.0.5' } },
    params: {},
    results: [
      { study: 'where', variant: 'where', point: {}, times: [5, 5] },
      { study: 'joins', variant: 'lookup-indexed', point: {}, times: [5, 5], profile: 'tiny' },
    ],
    claims: [
      { study: 'where', id: 'w', claim: 'cw', verdict: 'inconclusive', why: '' },
      { study: 'joins', id: 'j', claim: 'cj', verdict: 'inconclusive', why: 'test scale' },
    ],
  };

  it("findings.json: each claim's profile and testScale from its study's records", function () {
    const json = findingsJson({ entries, docs: [doc], judged: [doc.claims], command: 'x' });
    expect(json.claims.map((c) => [c.study, c.profile, c.testScale])).to.deep.equal([
      ['where', 'quick', false],
      ['joins', 'tiny', true],
    ]);
    expect(json.columns[0].profiles).to.deep.equal(['quick', 'tiny']);
  });

  it("the run's summary and findings.md name each study's own profile", function () {
    const summary = renderMarkdown(summaryDocument(doc, entries, 'quick'));
    expect(summary).to.match(/## where:[^]*judged on this run \(quick profile\):/);
    expect(summary).to.match(/## joins:[^]*judged on this run \(tiny profile: test scale, not findings\):/);
    const md = renderMarkdown(
      findingsDocument({
        entries,
        docs: [doc],
        judged: [doc.claims],
        labels: ['c'],
        environment: [],
        profile: 'quick',
        outDir: path.join(__dirname, 'out'),
      }),
    );
    expect(md).to.contain('Profile: **quick** (each study at its own profile: joins at tiny).');
  });
});
