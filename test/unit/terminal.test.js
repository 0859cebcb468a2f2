'use strict';
// What the terminal shows while and after measuring: the harness's plan (for progress estimates),
// the time-left wording, and a point measured on a busy machine flagged in its table, its records
// and the findings' column line.
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');
const { fmtLeft } = require('../../lib/infra/progress');
const { markLoad } = require('../../lib/core/run-study');
const { interleave } = require('../../lib/core/harness');
const report = require('../../lib/report/report');

describe('terminal: progress and busy-machine warnings', function () {
  it('the harness plans its steps in the order it runs them (warm-up, then alternating rounds)', async function () {
    const h = lab.harness(['a', 'b'], { warmup: 1, rounds: 2 });
    const plan = h
      .plan()
      .map((x) => x.variant)
      .join('');
    const seen = [];
    let s;
    while ((s = h.next()) !== null) {
      seen.push(s.variant);
      h.record(s, 1);
    }
    expect(plan).to.equal('ab' + 'ab' + 'ba');
    expect(seen.join('')).to.equal(plan);
  });

  it("interleave drives a progress reporter step by step with each variant's time", async function () {
    const calls = [];
    let planned = null;
    await interleave(
      [
        { name: 'a', run: async () => ({ ms: 5 }) },
        { name: 'b', run: async () => ({ ms: 7 }) },
      ],
      {
        warmup: 1,
        rounds: 1,
        progress: (plan) => {
          planned = plan;
          return { step: (v, ms) => calls.push([v, ms]), stop: () => calls.push('stop') };
        },
      },
    );
    expect(planned).to.deep.equal(['a', 'b', 'a', 'b']);
    expect(calls).to.deep.equal([['a', 5], ['b', 7], ['a', 5], ['b', 7], 'stop']);
  });

  it("time left reads like hyperfine's", function () {
    expect(fmtLeft(4200)).to.equal('4 s');
    expect(fmtLeft(231000)).to.equal('3 min 51 s');
    expect(fmtLeft(2 * 3600 * 1000 + 60000 * 30)).to.equal('2 h 30 min');
  });

  it('a point whose load average exceeds the cores is flagged in its records, its table and the findings line', function () {
    const rec = () =>
      lab.resultRecord({
        study: 's',
        variant: 'a',
        axis: { n: 1 },
        stats: { times: [1, 1.1], runs: 2, mean: 1.05, sd: 0.05, median: 1.05, min: 1, max: 1.1 },
      });
    const quiet = [rec()];
    markLoad(quiet, { start: 1.5, end: 1.9, cores: 2 });
    expect(quiet[0].loadavg).to.deep.equal({ start: 1.5, end: 1.9, cores: 2 });
    expect(lab.isBusy(quiet[0])).to.equal(false);
    expect(report.busyLine({ results: quiet, environment: { host: { cores: 2 } } }, 'c')).to.equal(null);
    const busy = [rec()];
    markLoad(busy, { start: 1.5, end: 9.6, cores: 2 });
    expect(lab.isBusy(busy[0])).to.equal(true);
    expect(lab.pointLines(busy).join('\n')).to.match(
      /^warning: busy machine: load average 1.5 at start, 9.6 at end, on 2 cores/m,
    );
    expect(
      report.busyLine(
        { results: [...busy, ...quiet.map((r) => ({ ...r, axis: { n: 2 } }))], environment: {} },
        'MongoDB 6.0.5',
      ),
    ).to.match(
      /^MongoDB 6.0.5: measured on a busy machine at 1 of 2 points \(load average up to 9.6 on 2 cores; studies s\)/,
    );
  });
});
