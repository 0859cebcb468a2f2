'use strict';
// The report model and its three renderers (lib/report/model.js, render-*.js): escaping, alignment,
// wrapping within 100 columns, verdict cells and images; findings.md and findings.html are two
// renderings of one document (same claims, same verdicts); report.md stays well-formed. Pure: no server.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const m = require('../../lib/report/model');
const { renderMarkdown, tableToMarkdown } = require('../../lib/report/render-markdown');
const { renderHtml } = require('../../lib/report/render-html');
const { renderTerminal, renderTableLines } = require('../../lib/report/render-terminal');
const { findingsDocument } = require('../../lib/report/findings-report');

// A 1x1 PNG, enough for a file to inline.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A temp folder as a run leaves it, with one chart (charts/<name>, a real PNG). */
function folderWithChart(prefix, name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.mkdirSync(path.join(dir, 'charts'));
  fs.writeFileSync(path.join(dir, 'charts', name), PNG);
  return dir;
}

function sample() {
  return m.doc('A <report> & its "figures"', [
    m.heading(2, 'Results: $where vs. plain', 'res'),
    m.paragraph('Made by ', m.code('lab run `x`'), ', see ', m.link('the section', '#res'), ' and ', m.bold('this')),
    m.table(
      ['name', { title: 'time', align: 'right' }, 'verdict'],
      [
        [
          'a|b',
          m.number(12.5, 'ms', '12.5 ms'),
          m.verdictCell('holds', 'holds', ['1.2x', '95 % CI 1.1–1.3'], 'here: 2 cores'),
        ],
        [m.link('w', 'docs/w.md'), m.number(3), m.verdictCell('inconclusive', 'inconclusive')],
      ],
    ),
    m.codeBlock('line one\n```\nline three'),
    m.warning('busy machine'),
    m.note('a note'),
    m.image('charts/x.png', 'x chart'),
  ]);
}

describe('report model: Markdown', function () {
  const md = renderMarkdown(sample());

  it('writes the title, headings, inline parts and a link to a heading by its GitHub anchor', function () {
    expect(md.startsWith('# A <report> & its "figures"\n\n## Results: $where vs. plain\n')).to.equal(true);
    expect(md).to.contain('Made by `` lab run `x` ``, see [the section](#results-where-vs-plain) and **this**');
  });

  it('escapes a pipe inside a cell, aligns numbers right, and reads verdict cells as figure (details); context', function () {
    expect(md).to.contain('| name | time | verdict |\n|---|---:|---|');
    expect(md).to.contain('| a\\|b | 12.5 ms | holds (1.2x; 95 % CI 1.1–1.3); here: 2 cores |');
    expect(md).to.contain('| [w](docs/w.md) | 3 | inconclusive |');
  });

  it('fences code with a fence no line inside can close; notes, warnings and images', function () {
    expect(md).to.contain('````\nline one\n```\nline three\n````');
    expect(md).to.contain('> warning: busy machine\n\n> a note');
    expect(md).to.contain('![x chart](charts/x.png)');
  });

  it('a line break in a cell does not end the row', function () {
    expect(tableToMarkdown(m.table(['a', 'b'], [['one\ntwo', 'x']]))).to.equal(
      '| a | b |\n|---|---|\n| one<br>two | x |',
    );
  });
});

describe('report model: HTML', function () {
  let dir;
  let html;
  before(function () {
    dir = folderWithChart('lab-render-', 'x.png');
    html = renderHtml(sample(), { baseDir: dir });
  });
  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('escapes text and attributes', function () {
    expect(html).to.contain('<title>A &lt;report&gt; &amp; its &quot;figures&quot;</title>');
    expect(html).to.contain('<h2 id="res">Results: $where vs. plain</h2>');
    expect(html).to.contain('<code>lab run `x`</code>');
    expect(html).not.to.contain('<report>');
    const evil = renderHtml(m.doc('t', [m.paragraph(m.link('x" onclick="y', 'javascript:alert(1)'))]));
    expect(evil).to.contain('<a href="#">x&quot; onclick=&quot;y</a>');
  });

  it('gives a verdict cell its class and its details on lines of their own; numbers right-aligned', function () {
    expect(html).to.contain(
      '<td class="v holds">holds<br><small>1.2x</small><br><small>95 % CI 1.1–1.3</small><br><small>here: 2 cores</small></td>',
    );
    expect(html).to.contain('<th class="r">time</th>');
    expect(html).to.contain('<td class="r">12.5 ms</td>');
    const wide = renderHtml(m.doc('t', [m.table(['v'], [[m.verdictCell('gone', 'gone')]], { verdictWrap: true })]));
    expect(wide).to.contain('<td class="gv gone">gone</td>');
  });

  it('inlines images as data: URIs and keeps the file self-contained', function () {
    expect(html).to.contain(`<img alt="x chart" src="data:image/png;base64,${PNG.toString('base64')}">`);
    expect(html).not.to.match(/src="(?!data:)/);
    expect(html).to.contain('<blockquote class="warning"><p>warning: busy machine</p></blockquote>');
    expect(html).to.contain('<pre><code>line one\n```\nline three</code></pre>');
  });
});

describe('report model: terminal', function () {
  const long = 'client 604 ms, node-map 503 ms, lookup-id 1.14 s (EQ_LOOKUP IndexedLoopJoin), lookup-unindexed 811 ms';
  const wide = m.table(
    ['claim', 'published (setting)', { title: 'n', align: 'right' }, 'verdict'],
    [
      [
        'a claim that is long enough to need two lines in a narrow column',
        'Z'.repeat(130),
        m.number(7),
        m.verdictCell('holds', 'holds', [long]),
      ],
      ['short', 'y', m.number(12345), m.verdictCell('weaker', 'weaker')],
    ],
  );

  it('fits every line in 100 columns, wrapping cells within their column and never cutting a figure', function () {
    const lines = renderTableLines(wide);
    expect(Math.max(...lines.map((l) => l.length))).to.be.at.most(100);
    expect(lines.length).to.be.greaterThan(4);
    const text = lines.join(' ').replace(/\s+/g, ' ');
    for (const word of long.split(' ')) expect(text).to.contain(word);
    expect(lines.join('').replace(/[^Z]/g, '')).to.have.length(130); // the unbreakable word is broken, not cut
    expect(text).not.to.contain('…');
  });

  it('aligns right-aligned columns to the right and keeps a short table as it is', function () {
    const lines = renderTableLines(
      m.table(
        ['a', { title: 'n', align: 'right' }],
        [
          ['x', m.number(5)],
          ['yy', m.number(12345)],
        ],
      ),
    );
    expect(lines).to.deep.equal(['a       n', '--  -----', 'x       5', 'yy  12345']);
  });

  it('writes plain text (ANSI only when asked) and wraps paragraphs and long code lines at the width', function () {
    const doc = m.doc('Summary', [
      m.paragraph('word '.repeat(60)),
      m.codeBlock(`  ${'z'.repeat(150)}`),
      m.table(['a'], [['b']]),
    ]);
    const text = renderTerminal(doc);
    expect(text).not.to.contain('\u001b[');
    expect(Math.max(...text.split('\n').map((l) => l.length))).to.be.at.most(100);
    expect(text.startsWith('Summary\n=======\n\n')).to.equal(true);
    expect(renderTerminal(doc, { color: true })).to.contain('\u001b[1mSummary');
    expect(
      Math.max(
        ...renderTerminal(doc, { width: 40 })
          .split('\n')
          .map((l) => l.length),
      ),
    ).to.be.at.most(40);
  });
});

describe('findings: one document, two renderings', function () {
  const entries = [
    { name: 'toy', title: 'a toy study', source: '000' },
    { name: 'other', title: 'another', source: '001', writeUp: 'docs/studies/other.md#a-section' },
  ];
  const claim = (study, id, verdict, extra = {}) => ({
    study,
    id,
    claim: `${study} claim ${id} with a | pipe`,
    published: '2x',
    verdict,
    figure: '1.5x',
    interval: { lo: 1.2, hi: 1.9, level: 0.95, n: 5 },
    setting: { needed: 'MongoDB 2.4', here: null, ok: null },
    why: `why ${id}`,
    ...extra,
  });
  const judged = [
    [
      claim('toy', 'a', 'holds'),
      claim('toy', 'b', 'not-reproduced', { setting: { needed: 'x', here: 'no x', ok: false } }),
      claim('other', 'c', 'reversed'),
    ],
    [claim('toy', 'a', 'inconclusive'), claim('toy', 'b', 'not-reproduced'), claim('other', 'c', 'reversed')],
  ];
  const docs = [
    { results: [{ study: 'toy' }, { study: 'other' }], environment: {} },
    { results: [{ study: 'toy' }], environment: {} },
  ];
  const model = findingsDocument({
    entries,
    docs,
    judged,
    labels: ['seed', 'quick'],
    images: { toy: ['charts/toy.png'] },
    outDir: path.join(__dirname, '..', '..', 'docs', 'findings'),
    profile: 'seed',
    command: 'mongo-perf-lab findings --from a.json',
    environment: [['seed', 'toy', 'MongoDB 6.0.5']],
    differences: [{ entry: entries[0], claim: judged[0][0], cells: [judged[0][0], judged[1][0]] }],
  });
  let dir;
  let md;
  let html;
  before(function () {
    dir = folderWithChart('lab-findings-model-', 'toy.png');
    md = renderMarkdown(model);
    html = renderHtml(model, { baseDir: dir });
  });
  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is plain data: a JSON copy renders the same', function () {
    const copy = JSON.parse(JSON.stringify(model));
    expect(copy).to.deep.equal(model);
    expect(renderMarkdown(copy)).to.equal(md);
  });

  it('findings.md and findings.html carry the same claims with the same verdicts, per column', function () {
    const { LABEL } = require('../../lib/core/claims');
    const sections = model.blocks.filter((b) => b.type === 'table' && b.columns[0].title === 'claim');
    expect(sections).to.have.length(2);
    for (const t of sections) {
      for (const row of t.rows) {
        const text = row[0].text;
        const verdicts = row.slice(2, 4).map((c) => c.verdict);
        const mdRow = md.split('\n').find((l) => l.startsWith(`| ${text.replace(/\|/g, '\\|')} |`));
        expect(mdRow, text).to.be.a('string');
        for (const v of verdicts) expect(mdRow).to.contain(`| ${LABEL[v]}`);
        const htmlRow = html.split('<tr>').find((r) => r.startsWith(`<td>${text}</td>`));
        expect(htmlRow, text).to.be.a('string');
        expect([...htmlRow.matchAll(/class="v ([a-z-]+)"/g)].map((x) => x[1])).to.deep.equal(verdicts);
      }
    }
    // the glance table: every claim of the first column, in both
    expect(html.match(/<td class="gv /g)).to.have.length(6);
    for (const j of judged[0]) expect(md).to.contain(j.claim.replace(/\|/g, '\\|'));
  });

  it("keeps what today's readers look for", function () {
    expect(md).to.contain(
      'Profile: **seed**. Generated by `mongo-perf-lab findings --from a.json` from result records',
    );
    expect(md).to.contain('## At a glance\n\n| study | claim | published | setting | seed | quick |');
    expect(md).to.contain(
      '| [toy](../studies/toy.md) | toy claim a with a \\| pipe | 2x | S1 | holds (1.5x; 95 % CI 1.2–1.9, n 5) | inconclusive (1.5x; 95 % CI 1.2–1.9, n 5) |',
    );
    // the glance table fits a screen: each setting once, below it, behind its mark
    expect(md).to.contain('**S1**: MongoDB 2.4\n\n**S2**: x');
    expect(md).to.contain('not reproduced here (1.5x; 95 % CI 1.2–1.9, n 5); here: no x (setting absent)');
    expect(md).to.contain(
      '## Where the columns differ\n\n| study | claim | seed | quick |\n|---|---|---|---|\n| [toy](#toy-a-toy-study-source-000) |',
    );
    expect(md).to.contain('![toy](charts/toy.png)');
    expect(md).to.contain('Full write-up: [docs/studies/other.md#a-section](../studies/other.md#a-section)');
    expect(html).to.contain('<h2 id="glance">At a glance</h2>');
    expect(html).to.contain('<h2 id="toy">toy: a toy study (source 000)</h2>');
    expect(html).to.contain('<a href="#toy">toy</a>');
    expect(html).to.contain('src="data:image/png;base64,');
  });
});

describe('report.md: the run report through the model', function () {
  it('renders every documented result file with well-formed tables', function () {
    const report = require('../../lib/report/report');
    const { readResults } = require('../../lib/core/results');
    const { studies } = require('../../lib/studies');
    const data = path.join(__dirname, '..', '..', 'docs', 'data');
    const file = path.join(data, 'quick-run.json');
    const md = report.markdown(readResults(file), studies);
    expect(md.startsWith('# mongo-perf-lab results\n\nMongoDB ')).to.equal(true);
    let cells = null;
    for (const line of md.split('\n')) {
      if (!line.startsWith('|')) {
        cells = null;
        continue;
      }
      const n = line.replace(/\\\|/g, '').split('|').length;
      if (cells === null) cells = n;
      expect(n, line).to.equal(cells);
    }
    expect(md).to.match(/\| variant \| median \| mean ± σ \|/);
  });
});

describe("run's closing summary through the terminal renderer", function () {
  it('fits 100 columns for every study of the documented quick run, each claim with its verdict', function () {
    const { readResults } = require('../../lib/core/results');
    const { studies } = require('../../lib/studies');
    const claims = require('../../lib/core/claims');
    const { summaryDocument } = require('../../lib/cli/run');
    const doc = readResults(path.join(__dirname, '..', '..', 'docs', 'data', 'quick-run.json'));
    doc.claims = studies.flatMap((e) => claims.judge(e, doc.results, doc.environment, doc.params));
    const text = renderTerminal(summaryDocument(doc, studies, 'quick'));
    const lines = text.split('\n');
    expect(Math.max(...lines.map((l) => l.length))).to.be.at.most(100);
    expect(text).not.to.contain('\u001b[');
    const flat = text.replace(/\s+/g, ' ');
    for (const j of doc.claims) expect(flat, j.claim).to.contain(claims.LABEL[j.verdict]);
    expect(lines.filter((l) => /^claim +published \(setting\) +verdict here +why$/.test(l))).to.have.length(
      new Set(doc.claims.map((j) => j.study)).size,
    );
  });
});

describe("a study's own charts carry 95 % intervals (#36 item 6)", function () {
  // Every layer of a Vega-Lite spec, however nested (facet's spec, layer inside layer).
  function layersOf(spec) {
    if (!spec || typeof spec !== 'object') return [];
    const inner = [...(spec.layer || []), ...(spec.spec ? [spec.spec] : [])];
    return [spec, ...inner.flatMap(layersOf)];
  }
  // An interval layer: a rule or errorbar from lo to hi (y..y2, or x..x2 on a horizontal chart).
  const isInterval = (l) =>
    l.mark &&
    ['rule', 'errorbar'].includes(l.mark.type || l.mark) &&
    l.encoding &&
    ((l.encoding.y2 && l.encoding.y.field === 'lo') || (l.encoding.x2 && l.encoding.x.field === 'lo'));

  it('the joins chart, made from the documented quick run, has an interval per timed variant', function () {
    const { readResults } = require('../../lib/core/results');
    const { findStudy } = require('../../lib/studies');
    const doc = readResults(path.join(__dirname, '..', '..', 'docs', 'data', 'quick-2026-11-28.json'));
    const joins = findStudy('joins');
    const spec = joins.charts[0](
      doc.results.filter((r) => r.study === 'joins'),
      doc.environment,
      doc,
    );
    expect(layersOf(spec).filter(isInterval)).to.have.length(1);
    const timed = doc.results.filter((r) => r.study === 'joins' && !r.skipped && r.times && r.times.length >= 3);
    const withInterval = spec.data.values.filter((v) => typeof v.lo === 'number');
    expect(withInterval.length).to.equal(timed.filter((r) => !r.capped).length);
    for (const v of withInterval) expect(v.lo, v.variant).to.be.below(v.hi);
    // the data size is in the subtitle
    expect(spec.title.subtitle[0]).to.match(/[\d,]+ orders x [\d,]+ customers/);
  });

  it('every study chart of a time or a ratio has an interval layer; coherency (a count) has none', function () {
    const { readResults } = require('../../lib/core/results');
    const { findStudy } = require('../../lib/studies');
    const doc = readResults(path.join(__dirname, '..', '..', 'docs', 'data', 'quick-2026-11-28.json'));
    const specsOf = (name) =>
      findStudy(name)
        .charts.map((f) =>
          f(
            doc.results.filter((r) => r.study === name),
            doc.environment,
            doc,
          ),
        )
        .filter(Boolean);
    // how many of each study's charts carry an interval layer
    const timed = { bigagg: 2, inserts: 1, joins: 1, mapreduce: 1, timeseries: 2, counters: 2 };
    // every registered study with a chart is in that list or is coherency: a study added later with
    // charts fails here until it says how many carry an interval
    const { studies } = require('../../lib/studies');
    const charted = studies.filter((e) => e.charts && e.charts.length).map((e) => e.name);
    expect(charted).to.have.members([...Object.keys(timed), 'coherency']);
    for (const [name, n] of Object.entries(timed)) {
      const withIntervals = specsOf(name).filter((s) => layersOf(s).some(isInterval));
      expect(withIntervals.length, name).to.equal(n);
    }
    expect(specsOf('coherency').some((s) => layersOf(s).some(isInterval))).to.equal(false);
  });
});
