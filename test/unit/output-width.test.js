'use strict';
// The shell side's printed output fits 100 columns (issue #20): a table wider than that is cut into
// blocks of columns, each repeating the first, and no cell is lost; a point's table, summary and
// legend (scripts/lib/lines.js) fit with long variant names and many columns.
const { expect } = require('chai');
const F = require('../../scripts/lib/format');
const L = require('../../scripts/lib/lines');
const { findStudy } = require('../../lib/studies');

const fits = (lines) => lines.forEach((l) => expect(l.length, l).to.be.at.most(100));

describe('shell-side output within 100 columns', function () {
  it('a wide table is cut into blocks of columns, the first repeated, every cell kept', function () {
    // a column per variant of the mapreduce study (the registry's): far wider than 100 columns
    const names = findStudy('mapreduce').variants.map((v) => v.name);
    const cols = [{ key: 'n', title: 'batch', right: true }, ...names.map((v) => ({ key: v, title: v, right: true }))];
    const rows = ['1', '1,000'].map((n, i) =>
      Object.fromEntries([['n', n], ...names.map((v, k) => [v, `${i}.${k}7`])]),
    );
    const wide = F.tableLines(cols, rows);
    expect(Math.max(...wide.map((l) => l.length))).to.be.above(100);
    const cut = F.tableLines(cols, rows, 100);
    fits(cut);
    const blocks = cut.join('\n').split('\n\n');
    expect(blocks.length).to.be.above(1);
    for (const b of blocks) expect(b).to.match(/^batch /);
    for (const v of names) expect(cut.join('\n')).to.contain(v);
    for (const r of rows) for (const v of names) expect(cut.join('\n')).to.contain(r[v]);
    // a table that fits is unchanged
    expect(F.tableLines(cols.slice(0, 4), rows, 100)).to.deep.equal(F.tableLines(cols.slice(0, 4), rows));
  });

  it("wrap keeps a line's leading spaces on its first line", function () {
    expect(F.wrap('  why: ' + 'word '.repeat(30).trim(), 40, '    ')).to.deep.equal([
      '  why: word word word word word word',
      '    word word word word word word word',
      '    word word word word word word word',
      '    word word word word word word word',
      '    word word word',
    ]);
  });

  it("a point's lines fit with long names, a plan, an interval and a disagreement", function () {
    const ratio = (m) => ({
      to: 'client-parallel-baseline',
      median: m,
      min: m * 0.9,
      max: m * 1.1,
      ci: [m * 0.95, m * 1.05],
      perRound: [m],
    });
    const rec = (variant, i) => ({
      type: 'result',
      study: 'toy',
      variant,
      axis: { part: 'split', compressor: 'snappy', clustered: true },
      answer: { count: 123456, mean: 1234.5678 },
      mean: 1234.5 + i,
      sd: 12.3,
      min: 1200,
      max: 1300.25,
      median: 1234,
      runs: 10,
      unit: 'ms',
      ratio: ratio(1 + i / 10),
      plan: { stage: 'COLLSCAN_AND_MORE', explainVersion: '2' },
      agrees: i !== 1,
      what: 'a variant whose description is long enough to need wrapping on a terminal of one hundred columns at least once',
    });
    const recs = ['client-parallel-baseline', 'mr-stored-jsmode-long-name', 'accumulator-with-function'].map(rec);
    const lines = L.pointLines(recs, {});
    expect(lines.join('\n')).to.contain('Summary at part=split');
    // a summary row keeps its indent under the heading, its continuation deeper; the variant whose
    // answer disagrees is not ranked, and comes last
    expect(lines.join('\n')).to.match(
      /^ {2}accumulator-with-function no clear difference from client-parallel-baseline \(95% CI .*\n {6}\S.*\n {2}mr-stored-jsmode-long-name not ranked, not compared with client-parallel-baseline:.*\n {6}\S/m,
    );
    fits(lines);
  });
});
