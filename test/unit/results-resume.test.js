'use strict';
// The result file's resume rules, with no server: what a re-run with the same --out keeps.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { ResultFile, pointKey, settingDiff } = require('../../lib/core/results');

function env(over = {}) {
  return {
    type: 'environment',
    profile: 'seed',
    startedAt: new Date().toISOString(),
    server: {
      version: '6.0.5',
      storageEngine: 'wiredTiger',
      queryFramework: 'trySbeEngine',
      cacheBytes: 1e9,
      topology: 'standalone',
    },
    host: { cores: 2, loadavgStart: [1, 1, 1] },
    software: { node: 'v20', driver: '7', mongosh: '2' },
    lab: { commit: 'abc' },
    ...over,
  };
}
const rec = (study, axis, variant = 'a') => ({ type: 'result', study, variant, axis, mean: 1 });

describe('result file: resuming', function () {
  let dir;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-rf-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function interrupted(file, e = env()) {
    const rf = new ResultFile(file, e, { resume: true, studies: ['s'] });
    rf.beginStudy('s', { N: 10 });
    rf.addPoint('s', { k: 1 }, [rec('s', { k: 1 }), rec('s', { k: 1 }, 'b')]);
    rf.addPoint('s', { k: 2 }, [rec('s', { k: 2 })]);
    return rf;
  }

  /** The interrupted run's file resumed at study s's parameters: { rf, kept, lines (what it logged) }. */
  function resumedAt(params) {
    const file = path.join(dir, 'results.json');
    interrupted(file);
    const lines = [];
    const rf = new ResultFile(file, env(), { resume: true, studies: ['s'], log: (l) => lines.push(l) });
    return { rf, kept: rf.beginStudy('s', params), lines };
  }

  it('a point is keyed by its coordinates, whatever their order', function () {
    expect(pointKey({ a: 1, b: 'x' })).to.equal(pointKey({ b: 'x', a: 1 }));
    expect(pointKey({ a: 1 })).to.not.equal(pointKey({ a: '1' }));
    expect(pointKey(undefined)).to.equal(pointKey({}));
  });

  it('the same setting and parameters: the finished points are kept, the session counted', function () {
    const { rf, kept, lines } = resumedAt({ N: 10 });
    expect(kept.done).to.equal(false);
    expect([...kept.points.keys()]).to.deep.equal([pointKey({ k: 1 }), pointKey({ k: 2 })]);
    expect(kept.points.get(pointKey({ k: 1 })).length).to.equal(2);
    expect(rf.doc.progress.sessions.map((s) => s.kept)).to.deep.equal([0, 3]);
    expect(lines).to.deep.equal([]);
  });

  it('a study run to its end is skipped whole; its records made after the points stay', function () {
    const file = path.join(dir, 'results.json');
    const rf0 = interrupted(file);
    rf0.add([{ type: 'measure', study: 's', name: 'size', axis: {} }]); // an `after` record
    rf0.studyDone('s');
    const rf = new ResultFile(file, env(), { resume: true, studies: ['s'] });
    const kept = rf.beginStudy('s', { N: 10 });
    expect(kept.done).to.equal(true);
    expect(rf.doc.results.length).to.equal(4);
  });

  it('records made after the points by a run that did not finish the study are dropped', function () {
    const file = path.join(dir, 'results.json');
    const rf0 = interrupted(file);
    rf0.add([{ type: 'measure', study: 's', name: 'size', axis: {} }]);
    const rf = new ResultFile(file, env(), { resume: true, studies: ['s'] });
    expect(rf.beginStudy('s', { N: 10 }).done).to.equal(false);
    expect(rf.doc.results.length).to.equal(3);
  });

  it('other parameters: the study is measured again, and says so', function () {
    const { rf, kept, lines } = resumedAt({ N: 20 });
    expect(kept.points.size).to.equal(0);
    expect(rf.doc.results).to.deep.equal([]);
    expect(lines.join('\n')).to.match(/s: measured in .* with other parameters: measuring it again/);
  });

  it('another setting (server version, profile, studies): starts over, the earlier file moved aside, never lost', function () {
    for (const [i, [e, studies, what]] of [
      [env({ server: { ...env().server, version: '7.0.2' } }), ['s'], /server version "6\.0\.5" then, "7\.0\.2" now/],
      [env({ profile: 'quick' }), ['s'], /profile "seed" then, "quick" now/],
      [env(), ['s', 't'], /studies s then, s,t now/],
    ].entries()) {
      const sub = path.join(dir, String(i));
      fs.mkdirSync(sub);
      const file = path.join(sub, 'results.json');
      interrupted(file);
      const before = fs.readFileSync(file, 'utf8');
      const lines = [];
      const rf = new ResultFile(file, e, { resume: true, studies, log: (l) => lines.push(l) });
      expect(rf.doc.results).to.deep.equal([]);
      expect(lines.join('\n')).to.match(what);
      const aside = fs.readdirSync(sub).filter((f) => f !== 'results.json');
      expect(aside.length).to.equal(1);
      expect(fs.readFileSync(path.join(sub, aside[0]), 'utf8')).to.equal(before);
    }
  });

  it('settingDiff names the first thing that differs, null when none does', function () {
    expect(settingDiff(env(), env({ startedAt: 'later', host: { cores: 2, loadavgStart: [9, 9, 9] } }))).to.equal(null);
    expect(settingDiff(env(), env({ lab: { commit: 'def' } }))).to.match(/lab's commit/);
  });

  it('a run pinned to fewer cores (taskset) is not resumed from one that had them all, nor the reverse', function () {
    const host = (usableCores) => env({ host: { cores: 2, ...(usableCores ? { usableCores } : {}) } });
    expect(settingDiff(host(null), host(2)), 'a file from before usableCores ran on all').to.equal(null);
    expect(settingDiff(host(2), host(1))).to.equal('usable cores 2 then, 1 now');
    expect(settingDiff(host(1), host(null))).to.equal('usable cores 1 then, 2 now');
  });

  it('without resume, an existing file is replaced as before', function () {
    const file = path.join(dir, 'results.json');
    interrupted(file);
    const rf = new ResultFile(file, env(), { studies: ['s'] });
    expect(rf.doc.results).to.deep.equal([]);
  });
});
