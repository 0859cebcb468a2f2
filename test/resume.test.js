'use strict';
// A run stopped with Ctrl-C and started again with the same --out keeps the axis points it had
// finished (not measured again) and measures the rest: the end file is complete and whole.
const path = require('path');
const { expect } = require('chai');
const { testUri, labRun, readJsonOrNull, scratchDirAndDb } = require('./helpers');
const { pointKey } = require('../lib/core/results');

const DB = 'labtest_resume';
// Twelve small axis points of two variants (no PostgreSQL): the first is written within seconds,
// the last several seconds later even on a quiet machine (six were all done before the Ctrl-C).
const N = 12;
const SIZES = Array.from({ length: N }, (_, i) => i + 1).join(',');

function start(out) {
  const args = [
    'run',
    'mapreduce',
    '--profile',
    'tiny',
    '--set',
    `SIZES=${SIZES}`,
    '--set',
    'VARIANTS=group,mr',
    '--uri',
    testUri(),
    '--db',
    DB,
    '--out',
    out,
    '--no-progress',
    '--no-charts',
  ];
  return labRun(args, { env: { MONGODB_URI: undefined } });
}

describe('resuming a run: the same --out keeps the finished axis points', function () {
  const scratch = scratchDirAndDb('lab-resume-', DB);

  it('SIGINT after the first point, then the same command: only the missing points are measured', async function () {
    const out = path.join(scratch.dir, 'out');
    const file = path.join(out, 'results.json');
    const first = start(out);
    let doc;
    const t0 = Date.now();
    while (Date.now() - t0 < 120000) {
      await new Promise((r) => setTimeout(r, 10));
      doc = readJsonOrNull(file);
      if (doc && doc.progress && (doc.progress.points.mapreduce || []).length >= 1) break;
    }
    first.child.kill('SIGINT');
    await first.done;
    expect(first.code, first.stderr).to.not.equal(0);
    const stopped = readJsonOrNull(file);
    expect(stopped.complete).to.equal(false);
    const keptKeys = stopped.progress.points.mapreduce;
    expect(keptKeys.length).to.be.within(1, N - 1);
    const keptRecords = stopped.results.filter((r) => keptKeys.includes(pointKey(r.axis)));

    const second = await start(out).done;
    expect(second.code, second.stderr).to.equal(0);
    expect(second.stderr.replace(/\n +/g, ' ')).to.contain(
      `resuming: ${keptKeys.length} of ${N} points of mapreduce already measured in ${file}`,
    );
    const end = readJsonOrNull(file);
    expect(end.complete).to.equal(true);
    expect(end.progress.done).to.deep.equal(['mapreduce']);
    expect(end.progress.sessions.length).to.equal(2);
    // Every point once; the kept ones exactly as measured the first time (same samples).
    const keys = end.progress.points.mapreduce;
    expect(new Set(keys).size).to.equal(N);
    const perPoint = new Map();
    for (const r of end.results.filter((x) => x.study === 'mapreduce'))
      perPoint.set(pointKey(r.axis), (perPoint.get(pointKey(r.axis)) || 0) + 1);
    expect(perPoint.size).to.equal(N);
    expect(new Set(perPoint.values()).size, JSON.stringify([...perPoint])).to.equal(1);
    const again = end.results.filter((r) => keptKeys.includes(pointKey(r.axis)));
    expect(again).to.deep.equal(keptRecords);
    expect(end.claims.some((c) => c.study === 'mapreduce')).to.equal(true);

    // A third run finds nothing to measure.
    const third = await start(out).done;
    expect(third.code, third.stderr).to.equal(0);
    expect(third.stderr.replace(/\n +/g, ' ')).to.contain(
      `resuming: ${N} of ${N} points of mapreduce already measured in ${file}: nothing left to measure`,
    );
    expect(readJsonOrNull(file).results).to.deep.equal(end.results);
  });
});
