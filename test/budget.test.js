'use strict';
// `findings --budget` end to end with the real CLI on the test mongod: a budget too small for the
// quick profile's stated ~12 s plans where at tiny, prints the plan before the run, and ends with the
// claims it left open and the run that decides them, also in findings.json's `budget` object.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { testUri, labRun, useTmpDir } = require('./helpers');

describe('findings --budget: a plan, deadlines, the claims left open', function () {
  const tmp = useTmpDir('lab-budget-');
  let run;

  before(async function () {
    this.timeout(300000); // a tiny run of one study: seconds quiet, minutes on a loaded machine
    run = await labRun(
      [
        'findings',
        'where',
        '--budget',
        '5s',
        '--uri',
        testUri(),
        '--db',
        'labtest_budget',
        '--out',
        tmp.dir,
        '--quiet',
      ],
      { cwd: process.cwd() },
    ).done;
  });

  it('prints the plan first: where at tiny, within 100 columns', function () {
    expect(run.code, run.stderr).to.equal(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).to.equal(
      'budget 5 s: each study at the largest profile whose stated time (see list) fits its share',
    );
    expect(lines[1]).to.match(/^study +profile +estimated min +allotted min$/);
    expect(lines[3]).to.match(/^where +tiny +seconds \(test scale\) +0\.1$/);
    expect(Math.max(...lines.map((l) => l.length))).to.be.at.most(100);
  });

  it('ends with the claims left open and the run that would decide them', function () {
    expect(run.stdout).to.match(/\nbudget 5 s, spent \d+(\.\d+)? (s|min)\n/);
    expect(run.stdout).to.match(/\nthe budget left \d+ claim\(s\) open \(inconclusive, or not reproduced/);
    expect(run.stdout).to.contain('decided by `npx mongo-perf-lab run where --profile seed` (~5-23 min): where ');
  });

  it("writes findings.json's budget object: given, spent, plan, open claims", function () {
    const json = JSON.parse(fs.readFileSync(path.join(tmp.dir, 'findings.json'), 'utf8'));
    const b = json.budget;
    expect(b.given).to.deep.equal({ ms: 5000, minutes: 0.08 });
    expect(b.spent.ms).to.be.greaterThan(0);
    expect(b.plan).to.deep.equal([{ study: 'where', profile: 'tiny', estimatedMinutes: 0, allottedMinutes: 0.08 }]);
    // at test scale every measured claim is inconclusive: each is open, decided at the source's scale
    const measured = json.claims.filter((c) => c.verdict === 'inconclusive');
    expect(measured.length).to.be.greaterThan(0);
    expect(b.open.map((o) => o.id)).to.include.members(measured.map((c) => c.id));
    for (const o of b.open) expect(o.decidedBy).to.equal('npx mongo-perf-lab run where --profile seed');
  });
});

describe('run --budget: each study labelled with its own profile', function () {
  const tmp = useTmpDir('lab-budget-mixed-');
  let run;
  let fromFindings;

  before(async function () {
    this.timeout(300000); // where at quick (~12 s quiet) and bigagg at tiny (~8 s): minutes on a loaded machine
    // 30 s for two studies: where's quick (~12 s) fits its 15 s share, bigagg's (~50 s) does not.
    run = await labRun(
      ['run', 'where', 'bigagg', '--budget', '30s', '--uri', testUri(), '--db', 'labtest_budget_mixed'].concat([
        '--out',
        path.join(tmp.dir, 'run'),
        '--no-charts',
        '--quiet',
      ]),
      { cwd: process.cwd() },
    ).done;
    // findings.json and findings.md from the same records (no server: --from).
    fromFindings = await labRun(
      ['findings', '--from', path.join(tmp.dir, 'run', 'results.json'), '--out', path.join(tmp.dir, 'f'), '--quiet'],
      { cwd: process.cwd() },
    ).done;
  });

  it('plans where at quick and bigagg at tiny, and the summary says so per study', function () {
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/\nwhere +quick +0\.2 /);
    expect(run.stdout).to.match(/\nbigagg +tiny +seconds \(test scale\) /);
    expect(run.stdout).to.match(/where: [^\n]*\n(.*\n)*?The source article's claims \(quick profile\): /);
    expect(run.stdout).to.contain("The source article's claims (tiny profile: test scale, not findings): ");
    const report = fs.readFileSync(path.join(tmp.dir, 'run', 'report.md'), 'utf8');
    expect(report).to.contain("The source article's claims, judged on this run (quick profile):");
    expect(report).to.contain(
      "The source article's claims, judged on this run (tiny profile: test scale, not findings):",
    );
  });

  it("findings.json's per-claim profile and findings.md's profile line are each study's own", function () {
    expect(fromFindings.code, fromFindings.stderr).to.equal(0);
    const json = JSON.parse(fs.readFileSync(path.join(tmp.dir, 'f', 'findings.json'), 'utf8'));
    const profiles = (study) => [...new Set(json.claims.filter((c) => c.study === study).map((c) => c.profile))];
    expect(profiles('where')).to.deep.equal(['quick']);
    expect(profiles('bigagg')).to.deep.equal(['tiny']);
    expect(json.claims.filter((c) => c.study === 'bigagg').every((c) => c.testScale)).to.equal(true);
    expect(json.claims.filter((c) => c.study === 'where').some((c) => c.testScale)).to.equal(false);
    expect(json.columns[0].profiles).to.have.members(['quick', 'tiny']);
    const md = fs.readFileSync(path.join(tmp.dir, 'f', 'findings.md'), 'utf8');
    expect(md).to.contain('Profile: **quick** (each study at its own profile: bigagg at tiny)');
  });
});
