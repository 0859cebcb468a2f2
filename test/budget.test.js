'use strict';
// `findings --budget` end to end with the real CLI on the test mongod: a budget too small for the
// quick profile's stated ~12 s plans where at tiny, prints the plan before the run, and ends with the
// claims it left open and the run that decides them, also in findings.json's `budget` object.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { testUri, labRun } = require('./helpers');

describe('findings --budget: a plan, deadlines, the claims left open', function () {
  let out;
  let run;

  before(async function () {
    this.timeout(300000); // a tiny run of one study: seconds quiet, minutes on a loaded machine
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-budget-'));
    run = await labRun(
      ['findings', 'where', '--budget', '5s', '--uri', testUri(), '--db', 'labtest_budget', '--out', out, '--quiet'],
      { cwd: process.cwd() },
    ).done;
  });
  after(function () {
    if (out) fs.rmSync(out, { recursive: true, force: true });
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
    expect(run.stdout).to.contain('decided by `npx mongo-perf-lab run where --profile seed` (~5-16 min): where ');
  });

  it("writes findings.json's budget object: given, spent, plan, open claims", function () {
    const json = JSON.parse(fs.readFileSync(path.join(out, 'findings.json'), 'utf8'));
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
