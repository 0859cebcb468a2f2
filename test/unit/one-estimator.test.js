'use strict';
// One conclusion engine (issue #34, item 9): one result file, and every place that prints or decides
// "a variant against its baseline" gives the same figure and the same decision: the run summary and
// the point table (the shell side's lines.js, what mongosh prints), `compare`, report.md's tables and
// the findings' headlines. The file is the documented quick run (docs/data/quick-run.json, records as
// lib/core/results.js writes them) with one answer made wrong: it holds decided comparisons, a wide
// interval (no clear difference), an interval too wide to show, rounds below 3 and a time-budget cap.
const path = require('path');
const { expect } = require('chai');
const S = require('../../scripts/lib/stats');
const F = require('../../scripts/lib/format');
const L = require('../../scripts/lib/lines');
const { compareResults } = require('../../lib/core/compare');
const { compareDocument } = require('../../lib/report/compare-report');
const { resultsDocument, headline } = require('../../lib/report/report');
const { findingsDocument } = require('../../lib/report/findings-report');
const { renderTerminal } = require('../../lib/report/render-terminal');
const { renderMarkdown } = require('../../lib/report/render-markdown');
const { cellText } = require('../../lib/report/model');
const { studies } = require('../../lib/studies');

const QUICK = path.join(__dirname, '..', '..', 'docs', 'data', 'quick-run.json');
// Every registered study's records in the file (a study added later is checked too; 0.35 s for all).
const STUDIES = new Set(studies.map((e) => e.name));
// The variant whose answer is made wrong: the fastest at its point, so a ranking by time alone would put it first.
const WRONG = { study: 'timeseries', variant: 'rollup', axis: { grain: 'days' } };

const key = (r) => `${r.study} ${JSON.stringify(r.axis || {})}`;
const isWrong = (r) => r.study === WRONG.study && r.variant === WRONG.variant && key(r) === key(WRONG);

function loadDoc() {
  const doc = JSON.parse(require('fs').readFileSync(QUICK, 'utf8'));
  doc.results = doc.results.filter((r) => STUDIES.has(r.study));
  doc.results.filter(isWrong).forEach((r) => {
    r.agrees = false;
  });
  return doc;
}

/** The records of each axis point that ran, by point. */
function points(doc) {
  const out = new Map();
  for (const r of doc.results.filter((x) => x.type === 'result' && !x.skipped)) {
    if (!out.has(key(r))) out.set(key(r), []);
    out.get(key(r)).push(r);
  }
  return out;
}

/** Figure and decision only (why and the name may be worded per place). */
const essence = (c) => ({ to: c.to, mid: c.mid, lo: c.lo, hi: c.hi, n: c.n, decision: c.decision });

describe('one conclusion engine: the same figure and decision everywhere (issue #34)', function () {
  const doc = loadDoc();
  const entries = studies.filter((e) => STUDIES.has(e.name));
  const all = [];
  for (const [, at] of points(doc)) for (const c of S.comparePoint(at)) all.push({ at, c });

  it('the file holds every kind of comparison', function () {
    const kinds = new Set(all.map(({ c }) => c.decision));
    for (const d of [
      'faster',
      'slower',
      'no clear difference',
      'too few rounds',
      'interval too wide',
      'wrong answer',
    ]) {
      expect(kinds, d).to.include(d);
    }
    // the figure is the centre of the claims' interval: the geometric mean of the per-round ratios
    const { c, at } = all.find((x) => x.c.decision === 'faster' && x.c.perRound);
    const rec = at.find((r) => r.variant === c.variant);
    const base = at.find((r) => r.variant === c.to);
    const iv = S.ratioInterval(rec.times.map((t, i) => t / base.times[i]));
    expect([c.mid, c.lo, c.hi]).to.deep.equal([iv.mid, iv.lo, iv.hi]);
  });

  it('decides only when the whole interval lies beyond the no-difference band', function () {
    for (const { c } of all) {
      if (c.decision === 'faster') expect(c.hi, c.variant).to.be.below(1 / S.NO_DIFFERENCE);
      if (c.decision === 'slower') expect(c.lo, c.variant).to.be.above(S.NO_DIFFERENCE);
      if (c.decision === 'no clear difference') {
        expect(c.lo < S.NO_DIFFERENCE && c.hi > 1 / S.NO_DIFFERENCE, c.variant).to.equal(true);
        expect(c.hi / c.lo).to.be.at.most(S.MAX_SPAN);
      }
      if (c.decision === 'too few rounds') {
        expect(c.lo).to.equal(null);
        if (c.perRound) expect(c.n).to.be.below(S.MIN_ROUNDS);
      }
      if (c.decision === 'interval too wide') expect(c.lo).to.equal(null);
    }
    // the case of the issue: a figure "1.08x faster" whose interval reaches from slower to faster
    expect(S.decide(1 / 2.19, 1 / 0.54)).to.equal('no clear difference');
    expect(S.decide(0.07, 1249200851190573)).to.equal('interval too wide');
  });

  it("the run summary and the point table (the shell side) print the engine's words", function () {
    for (const [, at] of points(doc)) {
      const cmps = S.comparePoint(at);
      if (!cmps.length) continue;
      const text = L.pointLines(at)
        .join('\n')
        .replace(/\n {6}/g, ' ');
      for (const c of cmps) {
        const w = F.comparisonWords(c);
        expect(text, c.variant).to.contain(`  ${c.variant} ${w.line}`);
        const row = text.split('\n').find((l) => l.startsWith(`${c.variant} `) && l.includes(w.cell));
        expect(row, `${c.variant}: ${w.cell}`).to.be.a('string');
        if (w.ci) expect(text).to.contain(w.ci);
      }
      // ranked by the one figure; the wrong answer last and unranked
      const order = cmps.map((c) => text.indexOf(`\n  ${c.variant} `));
      expect(order).to.deep.equal([...order].sort((a, b) => a - b));
    }
  });

  it("`compare` gives each run's comparison with the same figure and decision, in the same words", function () {
    const res = compareResults(doc, doc);
    const out = renderTerminal(compareDocument(res), { width: 100 });
    for (const { c, at } of all) {
      const row = res.rows.find((r) => r.variant === c.variant && key(r) === key(at[0]));
      expect(essence(row.newVsBase), c.variant).to.deep.equal(essence(c));
      expect(essence(row.oldVsBase)).to.deep.equal(essence(c));
    }
    // the wrong answer is never called faster between runs either
    const wrongRow = res.rows.find(isWrong);
    expect(wrongRow.verdict).to.equal('wrong answer');
    expect(out).to.match(/rollup .*WRONG ANSWER/);
    expect(out).not.to.match(/\bunclear\b/);
  });

  it("report.md's point tables: the same cell and interval, the wrong answer marked", function () {
    const model = resultsDocument(doc, entries);
    const tables = model.blocks.filter((b) => b.type === 'table' && /^vs /.test((b.columns[5] || {}).title || ''));
    expect(tables.length).to.be.above(5);
    let checked = 0;
    for (const { c } of all) {
      const rows = tables.flatMap((t) => t.rows).filter((r) => r[0].text === c.variant);
      const w = F.comparisonWords(c);
      const match = rows.find((r) => cellText(r[5]) === w.cell && cellText(r[6]) === w.ci);
      if (rows.length) {
        expect(match, `${c.variant}: ${w.cell} ${w.ci}`).to.not.equal(undefined);
        checked++;
      }
    }
    expect(checked).to.be.above(all.length / 2);
    expect(renderMarkdown(model)).to.match(/^\| rollup \|.*\| WRONG ANSWER \|/m);
  });

  it("the findings' headlines carry the run summary's lines", function () {
    const judged = [
      entries.map((e) => ({ study: e.name, id: `${e.name}-x`, claim: 'x', published: '-', verdict: 'holds' })),
    ];
    const model = findingsDocument({
      entries,
      docs: [doc],
      judged,
      labels: ['quick'],
      outDir: path.join(__dirname, '..', '..', 'docs', 'findings'),
      profile: 'quick',
      environment: [],
    });
    const blocks = model.blocks.filter((b) => b.type === 'codeBlock').map((b) => b.text.replace(/\n {6}/g, ' '));
    let checked = 0;
    for (const entry of entries) {
      const head = headline(doc, entry);
      expect(blocks.some((b) => b === head.replace(/\n {6}/g, ' '))).to.equal(true);
    }
    for (const { c } of all) {
      const line = `  ${c.variant} ${F.comparisonWords(c).line}`;
      if (blocks.some((b) => b.includes(line))) checked++;
    }
    expect(checked).to.be.above(10);
    // the wrong answer: never ranked, never faster, said as such
    const ts = blocks.find((b) => b.includes('Summary at grain=days'));
    expect(ts).to.contain('  rollup not ranked, not compared with raw');
    expect(ts).not.to.match(/rollup ran/);
  });
});
