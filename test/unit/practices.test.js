'use strict';
// "What this means for you" (#36 item 1): each practice a study declares is read from a documented
// result file with the one estimator (scripts/lib/stats.js compareTimes, scripts/lib/format.js
// comparisonWords) and carries the verdicts of its claims; a practice the records do not decide
// names the run that would decide it and its time. One verdict vocabulary in --help and the README.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const S = require('../../scripts/lib/stats');
const F = require('../../scripts/lib/format');
const claims = require('../../lib/core/claims');
const { studies } = require('../../lib/studies');
const practices = require('../../lib/report/practices');
const { readmeBlock, findingsDocument } = require('../../lib/report/findings-report');
const { renderMarkdown } = require('../../lib/report/render-markdown');
const { renderTerminal } = require('../../lib/report/render-terminal');
const { commandHelp } = require('../../lib/cli/options');

const ROOT = path.join(__dirname, '..', '..');
const doc = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'data', 'quick-run.json'), 'utf8'));
const judged = studies.flatMap((e) => claims.judge(e, doc.results, doc.environment, doc.params));
const column = { records: doc.results, judged, profile: () => doc.environment.profile, label: 'quick' };
const lines = practices.practiceLines(studies, [column]);
const byId = (id) => lines.find((l) => l.id === id);
const recordOf = (study, variant, match = () => true) =>
  doc.results.find((r) => r.type === 'result' && r.study === study && r.variant === variant && !r.skipped && match(r));

describe('What this means for you: practices from the records', function () {
  it('covers the lessons a DBA acts on, each backed by claims its study judges and variants it ran', function () {
    const ids = lines.map((l) => l.id);
    for (const id of [
      'where-to-expr',
      'batch-writes',
      'unique-index',
      'random-field-not-skip',
      'no-preallocation',
      'group-not-mapreduce',
      'group-not-client-loop',
      'lookup-not-client-join',
      'rollups',
      'timeseries-collection',
    ])
      expect(ids, id).to.include(id);
    for (const entry of studies) {
      for (const p of practices.declared(entry)) {
        const ran = new Set(doc.results.filter((r) => r.study === entry.name).map((r) => r.variant));
        for (const side of [p.compare.slow, p.compare.fast])
          expect([...ran], `${entry.name} ${p.id}`).to.include(typeof side === 'string' ? side : side.variant);
        for (const id of p.claims)
          expect(
            judged.some((j) => j.study === entry.name && j.id === id),
            `${entry.name}: ${p.id} names claim ${id}`,
          ).to.equal(true);
      }
    }
  });

  it("gives each practice's figure from the one estimator, and its claims' verdicts in the reports' words", function () {
    // $group against map/reduce at the largest batch of quick-run.json: the same records, compared by hand
    const mr = recordOf('mapreduce', 'mr', (r) => r.axis.batch === 10000);
    const group = recordOf('mapreduce', 'group', (r) => r.axis.batch === 10000);
    const c = S.compareTimes(group.times, mr.times, { to: 'mr' });
    const line = byId('group-not-mapreduce');
    expect(line.decided).to.equal(true);
    expect(line.words).to.equal(F.comparisonWords(c).line.replace(/^ran /, ''));
    expect(line.words).to.equal('3.14 times faster than mr (95% CI 1.82..5.41, 3 rounds)');
    // every practice: its verdicts are the judged claims', labelled as every report labels them
    for (const l of lines) {
      for (const v of l.verdicts) {
        const j = judged.find((x) => x.study === l.study && x.id === v.id);
        expect(v.label, `${l.id} ${v.id}`).to.equal(claims.LABEL[j.verdict]);
      }
      if (l.decided && l.id !== 'unique-index')
        expect(l.words, l.id).to.match(/times (faster|slower) than|no clear difference from/);
    }
    // a practice about correctness: counted, not timed (the duplicates each way left, at one point)
    const unique = byId('unique-index');
    const cti = recordOf('coherency', 'check-then-insert', () => true);
    expect(unique.words).to.match(
      new RegExp(
        `^check-then-insert left ${cti.extra.duplicates.toLocaleString('en-US')} duplicate documents over \\d+ runs?, unique-insert 0$`,
      ),
    );
    expect(unique.decided).to.equal(cti.extra.duplicates > 0);
    const md = renderMarkdown({
      type: 'document',
      title: 't',
      blocks: practices.practiceBlocks(lines, (s) => `${s}.md`),
    });
    expect(md).to.contain(
      '**Aggregate with $group, not map/reduce**: 3.14 times faster than mr (95% CI 1.82..5.41, 3 rounds). Verdicts: gone (000-jsmode: "jsMode makes map/reduce 2-3x faster"), unsupported by source (000-stored), holds (000-overhead). [mapreduce](mapreduce.md)',
    );
    // a practice with a one-sided interval elsewhere: "N times faster" only when the interval says so
    const rollup = byId('rollups');
    const raw = recordOf('timeseries', 'raw', (r) => r.axis.grain === 'hours' && !r.axis.state);
    const ru = recordOf('timeseries', 'rollup', (r) => r.axis.grain === 'hours');
    expect(rollup.words).to.equal(
      F.comparisonWords(S.compareTimes(ru.times, raw.times, { to: 'raw' })).line.replace(/^ran /, ''),
    );
  });

  it('says "not decided at this scale" where the records do not decide, and names the run that would, with its time', function () {
    // $where timed once (its time budget): too few rounds for an interval, whatever its face value
    const where = byId('where-to-expr');
    expect(where.decided).to.equal(false);
    expect(where.words).to.match(/^too few rounds: \d+x faster$/);
    const entry = studies.find((e) => e.name === 'where');
    expect(where.run.command).to.equal('npx mongo-perf-lab run where --profile seed');
    expect(entry.seedExpected.startsWith(where.run.takes)).to.equal(true);
    const md = renderMarkdown({
      type: 'document',
      title: 't',
      blocks: practices.practiceBlocks(lines, (s) => `${s}.md`),
    });
    expect(md).to.match(
      /\*\*Replace \$where with \$expr \(or a plain query\)\*\*: not decided at this scale \(too few rounds: \d+x faster\); decided by `npx mongo-perf-lab run where --profile seed` \(~[^)]+\)\. Verdicts: not reproduced here \(001-where-vs-scan, 001-aggregation\), gone \(001-where-needed: "\$where is needed when the query language cannot compare two fields \(WHERE a > b and b < 5\)"\)\. \[where\]\(where\.md\)/,
    );
    // a "no clear difference" whose interval reaches past the band decides nothing either
    const ts = byId('timeseries-collection');
    expect(ts.decided).to.equal(false);
    expect(ts.words).to.match(/^no clear difference \(95% CI /);
  });

  it('compares each machine state a column holds, decides only when they agree, and names a variant the profile left out', function () {
    const { SEED } = require('../../tools/verdicts-doc');
    const { mergeDocs } = require('../../lib/core/findings');
    const read = (f) => JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'data', f), 'utf8'));
    const seed = mergeDocs(SEED.map(read), SEED);
    const col = { records: seed.results, judged: [], profile: () => 'seed', label: 'seed' };
    const seedLines = practices.practiceLines(studies, [col]);
    const where = seedLines.find((l) => l.id === 'where-to-expr');
    // $where on two cores and pinned to one: both decide, each figure named by its state
    expect(where.words).to.match(
      /^at usableCores 2: [\d.]+ times faster than where .*; at usableCores 1: [\d.]+ times faster than where /,
    );
    expect(where.decided).to.equal(true);
    // the seed profile times raw and rollup only: the time-series collection is a variant it left out
    const ts = seedLines.find((l) => l.id === 'timeseries-collection');
    expect(ts.words).to.equal('not measured here: variant timeseries did not run');
    expect(ts.run.command).to.equal('npx mongo-perf-lab run timeseries --profile seed --set VARIANTS=raw,timeseries');
    // a baseline compared against a variant that stopped rounds before it: paired over the rounds both ran
    const mr = seedLines.find((l) => l.id === 'group-not-mapreduce');
    expect(mr.comparison).to.include({ perRound: true });
    expect(mr.decided).to.equal(true);
  });

  it('opens findings.md, the README block and the run summary, before the glance table', function () {
    const labels = ['quick'];
    const block = readmeBlock(studies, [doc], [judged], labels);
    expect(block.startsWith('## What this means for you\n')).to.equal(true);
    expect(block.indexOf('## Findings at a glance')).to.be.above(block.indexOf('**Replace $where'));
    expect(block).to.contain('[where](docs/studies/where.md)');
    // the glance table's setting column holds marks; each setting text once, below the table
    expect(block).to.match(/\| S1 \|/);
    expect(block).to.match(/\n\*\*S1\*\*: /);
    const md = renderMarkdown(
      findingsDocument({
        entries: studies,
        docs: [doc],
        judged: [judged],
        labels,
        outDir: path.join(ROOT, 'docs', 'findings'),
        profile: 'quick',
        environment: [],
        differences: null,
      }),
    );
    expect(md.indexOf('## What this means for you')).to.be.above(0);
    expect(md.indexOf('## What this means for you')).to.be.below(md.indexOf('## At a glance'));
    const { summaryDocument } = require('../../lib/cli/run');
    const chosen = studies.filter((e) => ['where', 'mapreduce'].includes(e.name));
    const text = renderTerminal(summaryDocument({ ...doc, claims: judged }, chosen, 'quick', { brief: true }));
    expect(text.indexOf('What this means for you')).to.be.below(text.indexOf('where: '));
    expect(text).to.contain('3.14 times faster than mr');
  });

  it('findings --help and the README use the one verdict vocabulary (claims.LABEL and MEANING)', function () {
    const help = commandHelp(require('../../lib/cli/findings')).replace(/\s+/g, ' ');
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const v of claims.VERDICTS) {
      expect(help, v).to.contain(` ${claims.LABEL[v]} ${claims.MEANING[v]}`);
      expect(readme, v).to.contain(`| ${claims.LABEL[v]} | ${claims.MEANING[v]} |`);
    }
    expect(help).not.to.match(/\bobsolete\b|\bchanged \(with/);
  });
});
