'use strict';
// `mongo-perf-lab findings`: end to end at a tiny scale, the query engine as a column, and the
// HTML report opened in a real headless browser (Debian's chromium) with every chart showing.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { ownPostgres, labCli, tinyArgs } = require('./helpers');
const { studies } = require('../lib/studies');

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) =>
  fs.existsSync(p),
);

const cli = (args) => labCli(args, { cwd: process.cwd() });

describe('findings: every claim judged, one Markdown and one self-contained HTML report', function () {
  let out;
  let run;
  let pg;
  const names = ['where', 'mapreduce'];

  before(async function () {
    this.timeout(600000); // an end-to-end run of two studies: over 180 s at a load average of 40
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-findings-'));
    // its own PostgreSQL database on a shared server (the CLIs inherit PG_URI): the SQL peers' tables have fixed names
    pg = await ownPostgres('findings');
    run = await cli(tinyArgs('findings', names, 'labtest_findings', '--out', out, '--quiet'));
  });
  after(async function () {
    if (out) fs.rmSync(out, { recursive: true, force: true });
    if (pg) await pg.close();
  });

  it('runs end to end and gives every claim of the studies a verdict', function () {
    expect(run.code, run.stderr).to.equal(0);
    const md = fs.readFileSync(path.join(out, 'findings.md'), 'utf8');
    for (const name of names) {
      const entry = studies.find((s) => s.name === name);
      expect(entry.claims.length).to.be.greaterThan(0);
      for (const c of entry.claims) expect(md, c.id).to.contain(c.claim);
    }
    expect(md).to.match(/\| (holds|stronger|weaker|REVERSED|gone|not reproduced here|inconclusive)/);
    expect(md).to.contain('## Where it was measured');
    // the glance table on the terminal: wrapped within 100 columns
    expect(run.stdout).to.match(/^study +claim +published +setting +MongoDB/m);
    expect(Math.max(...run.stdout.split('\n').map((l) => l.length))).to.be.at.most(100);
  });

  it('writes findings.json: one object per claim, valid against docs/findings.schema.json, tiny marked test scale', function () {
    const Ajv = require('ajv/dist/2020');
    const addFormats = require('ajv-formats');
    const validate = addFormats(new Ajv({ strict: false })).compile(require('../docs/findings.schema.json'));
    const json = JSON.parse(fs.readFileSync(path.join(out, 'findings.json'), 'utf8'));
    expect(validate(json), JSON.stringify(validate.errors)).to.equal(true);
    const ids = names.flatMap((name) => studies.find((s) => s.name === name).claims.map((c) => `${name}/${c.id}`));
    expect(json.claims.map((c) => `${c.study}/${c.id}`)).to.deep.equal(ids);
    for (const c of json.claims) {
      expect(c).to.include({ column: 1, profile: 'tiny', testScale: true });
      expect(c.scale).to.match(/^N [\d,]+, \d+ rounds?/);
    }
    expect(json.columns).to.have.length(1);
    expect(json.columns[0].testScale).to.equal(true);
    expect(Object.values(json.columns[0].verdicts).reduce((a, b) => a + b, 0)).to.equal(ids.length);
    // the reports say so too
    expect(fs.readFileSync(path.join(out, 'findings.md'), 'utf8')).to.contain(
      'Profile: **tiny** (test scale, not findings',
    );
    const html = fs.readFileSync(path.join(out, 'findings.html'), 'utf8');
    expect(html).to.contain('<h2 id="glance">At a glance</h2>');
    expect(html.match(/<td class="gv /g)).to.have.length(ids.length);
    expect(html).to.contain('test scale, not findings');
  });

  it('the glance table shows every figure whole, with its interval and the setting (no figure cut mid-word)', function () {
    const { glanceTable } = require('../lib/report/findings-report');
    const { tableToMarkdown } = require('../lib/report/render-markdown');
    const entry = { name: 'toy' };
    const long =
      'client 604 ms, node-map 503 ms, lookup-id 1.14 s (EQ_LOOKUP IndexedLoopJoin), lookup-unindexed 811 ms (EQ_LOOKUP HashJoin)';
    const judged = [
      [
        {
          study: 'toy',
          id: 'a',
          claim: 'a claim',
          published: '~100x (38,226 ms vs 384 ms) in a published sentence that goes on for a while',
          verdict: 'holds',
          figure: long,
          interval: { lo: 120, hi: 150.4, level: 0.95, n: 5 },
          setting: { needed: 'data larger than the cache', here: '0.2 GB in an 11 GB cache', ok: false },
        },
      ],
      [
        {
          study: 'toy',
          id: 'a',
          verdict: 'inconclusive',
          figure: '1.05x',
          interval: { lo: null, hi: null, level: 0.95, n: 2 },
          setting: 'MongoDB 3.2',
        },
      ],
    ];
    const table = tableToMarkdown(glanceTable([entry], judged, ['seed', 'quick'], () => 'x.md'));
    expect(table).not.to.contain('…');
    expect(table).to.contain(long);
    expect(table).to.contain('in a published sentence that goes on for a while');
    expect(table).to.contain('| data larger than the cache |');
    expect(table).to.contain(`holds (${long}; 95 % CI 120–150, n 5); here: 0.2 GB in an 11 GB cache (setting absent)`);
    expect(table).to.contain('inconclusive (1.05x; no 95 % interval (n 2))');
  });

  it('the HTML opens in headless chromium without errors and shows every chart', async function () {
    if (!CHROMIUM) this.skip(); // .ci/run installs Debian's chromium
    const puppeteer = require('puppeteer-core');
    const browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('requestfailed', (r) => errors.push(`request failed: ${r.url().slice(0, 80)}`));
      await page.setViewport({ width: 1300, height: 900 });
      await page.goto(`file://${path.join(out, 'findings.html')}`, { waitUntil: 'load' });
      const imgs = await page.$$eval('figure img', (els) =>
        els.map((i) => ({ w: i.naturalWidth, h: i.naturalHeight, inline: i.src.startsWith('data:image/png;base64,') })),
      );
      expect(imgs).to.have.length(names.length);
      for (const i of imgs) {
        expect(i.inline).to.equal(true);
        expect(i.w).to.be.greaterThan(300);
        expect(i.h).to.be.greaterThan(200);
      }
      const verdicts = await page.$$eval('td.v', (els) => els.map((e) => e.className));
      expect(verdicts.length).to.equal(
        names.reduce((n, name) => n + studies.find((s) => s.name === name).claims.length, 0),
      );
      const shot = path.join(out, 'findings.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect(fs.statSync(shot).size).to.be.greaterThan(50000);
      expect(errors).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });

  it('the query engine is a column: classic and slot-based side by side on an embedded mongod', async function () {
    const dir = path.join(out, 'engines');
    const r = await cli([
      'findings',
      'mapreduce',
      '--profile',
      'tiny',
      '--engines',
      'sbe,classic',
      '--out',
      dir,
      '--quiet',
    ]);
    expect(r.code, r.stderr).to.equal(0);
    const cols = fs
      .readdirSync(dir)
      .filter((d) => d.startsWith('column-'))
      .sort();
    expect(cols).to.deep.equal(['column-1', 'column-2']);
    const docs = cols.map((c) => JSON.parse(fs.readFileSync(path.join(dir, c, 'results.json'), 'utf8')));
    expect(docs.map((d) => d.environment.engine)).to.deep.equal(['sbe', 'classic']);
    const groupPlans = docs.map((d) =>
      d.results.filter((x) => x.variant === 'group').map((x) => x.plan.explainVersion),
    );
    expect(groupPlans[0]).to.include('2'); // $group runs in the slot-based engine on 6.0 ...
    expect(new Set(groupPlans[1])).to.deep.equal(new Set(['1'])); // ... and in the classic one when forced
    const md = fs.readFileSync(path.join(dir, 'findings.md'), 'utf8');
    expect(md).to.match(/slot-based engine \| MongoDB 6\.0\.5 classic engine|slot-based engine.*classic engine/);
  });

  it('--from judges saved result files again without a server', async function () {
    const dir = path.join(out, 'again');
    const r = await cli(['findings', ...names, '--from', path.join(out, 'column-1'), '--out', dir, '--quiet']);
    expect(r.code, r.stderr).to.equal(0);
    // the links to the write-ups are relative to each report's folder
    const glance = (file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('## At a glance')[1]
        .split('\n## ')[0]
        .replace(/\]\([^)]*\)/g, ']()');
    expect(glance(path.join(dir, 'findings.md'))).to.equal(glance(path.join(out, 'findings.md')));
    expect(fs.readFileSync(path.join(dir, 'findings.md'), 'utf8')).to.contain('Profile: **tiny**');
  });

  it("a column of several files beside another: labelled, with each study's scale, and where the verdicts differ", async function () {
    const dir = path.join(out, 'columns');
    const seedWhere = path.join(__dirname, '..', 'docs', 'data', 'where-seed.json');
    const r = await cli([
      'findings',
      ...names,
      '--from',
      `${path.join(out, 'column-1')}+${seedWhere},${path.join(out, 'column-1')}`,
      '--labels',
      'assembled,tiny',
      '--out',
      dir,
      '--quiet',
    ]);
    expect(r.code, r.stderr).to.equal(0);
    const md = fs.readFileSync(path.join(dir, 'findings.md'), 'utf8');
    expect(md).to.contain(
      '| claim | published | setting | assembled (test scale, not findings) | tiny (test scale, not findings) |',
    );
    // the merged column names its files and the scale each study ran at
    expect(md).to.match(/\| assembled: where-seed\.json, 2026-\d\d-\d\d \| where \(N 1,000,000, 5 rounds\) \|/);
    expect(md).to.match(
      /\| assembled: column-1, [\d-]+ \(test scale, not findings\) \| mapreduce \(N [\d,]+, \d+ rounds?\) \|/,
    );
    expect(md).to.contain('## Where the columns differ');
    expect(md).to.contain('--labels assembled,tiny'); // the report names the command that made it ...
    const masked = await cli([
      'findings',
      'where',
      '--from',
      seedWhere,
      '--uri',
      'mongodb://lab:s3cret@db.example:27017/x',
      '--out',
      path.join(dir, 'masked'),
      '--quiet',
    ]);
    expect(masked.code, masked.stderr).to.equal(0);
    const maskedMd = fs.readFileSync(path.join(dir, 'masked', 'findings.md'), 'utf8');
    expect(maskedMd).to.contain('--uri ...').and.not.contain('s3cret'); // ... without a connection string's password
    const html = fs.readFileSync(path.join(dir, 'findings.html'), 'utf8');
    expect(html).to.contain('<h2>Where the columns differ</h2>');
    const bad = await cli([
      'findings',
      ...names,
      '--from',
      path.join(out, 'column-1'),
      '--labels',
      'a,b',
      '--out',
      path.join(dir, 'bad'),
    ]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/--labels: 2 name\(s\) for 1 column/);
  });

  it('"where the columns differ" lists a claim only when two columns that ran the study disagree', function () {
    const { differences } = require('../lib/core/findings');
    const entry = { name: 'toy' };
    const j = (id, verdict) => ({ id, study: 'toy', claim: id, verdict });
    const ran = { results: [{ study: 'toy' }] };
    const none = { results: [] };
    const judged = [
      [j('a', 'holds'), j('b', 'holds')],
      [j('a', 'stronger'), j('b', 'holds')],
      [j('a', 'not-reproduced'), j('b', 'not-reproduced')],
    ];
    expect(differences([entry], judged, [ran, ran, none]).map((d) => d.claim.id)).to.deep.equal(['a']);
    expect(differences([entry], judged.slice(0, 1).concat([judged[2]]), [ran, none])).to.deep.equal([]);
  });
});
