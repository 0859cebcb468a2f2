'use strict';
// The recipe of docs/contract.md ("Adding a study, step by step"), followed to the letter in a copy
// of the repository with a toy study that has a shell variant, a Node-side variant, a variant the
// server is too old for, and an oracle; then the result format, `compare`, and an interrupted run.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const Ajv = require('ajv/dist/2020');
const addFormats = require('ajv-formats');
const { testUri, lab, labCli } = require('./helpers');
const { MongoClient } = require('mongodb');

const ROOT = path.resolve(__dirname, '..');
const SCHEMA = require('../docs/result-format.schema.json');
const TOY = path.join(__dirname, 'fixtures', 'toy');
// The toy's files, at the paths they take in the repository.
const TOY_FILES = [
  'scripts/toy_count.js',
  'lib/studies/toy/index.js',
  'lib/studies/toy/child-count.js',
  'lib/studies/toy/count-worker.js',
  'lib/studies/toy/oracle.js',
];

/** Every file under dir, relative to it. */
function tree(dir, base = dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tree(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))],
    );
}

/** The copy's CLI (its bin, from its folder), never a developer's MONGODB_URI. */
const cli = (dir, args, { timeoutMs = 120000 } = {}) =>
  labCli(args, { cwd: dir, bin: path.join(dir, 'bin', 'mongo-perf-lab.js'), timeoutMs });

describe('adding a study: the recipe of docs/contract.md, in a copy of the repository', function () {
  let dir;
  let uri;
  const db = 'labtest_toy';
  const validate = addFormats(new Ajv({ strict: false })).compile(SCHEMA);

  before(function () {
    uri = testUri();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-recipe-'));
    for (const d of ['bin', 'lib', 'scripts', 'fixtures', 'docs'])
      fs.cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    // 1. the declaration, 2. the Node part and what only it uses (a worker run as a child process,
    // a helper), each at the path docs/contract.md gives
    for (const f of TOY_FILES) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.copyFileSync(path.join(TOY, f), path.join(dir, f));
    }
    // 3. one line in the registry
    const reg = path.join(dir, 'lib', 'studies', 'index.js');
    const text = fs.readFileSync(reg, 'utf8');
    expect(text).to.contain('const studies = [\n');
    fs.writeFileSync(reg, text.replace('const studies = [\n', "const studies = [\n  require('./toy'),\n"));
  });

  after(async function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    const c = new MongoClient(uri);
    try {
      await c.db(db).dropDatabase();
    } finally {
      await c.close();
    }
  });

  it('1-3. each file of the study is where docs/contract.md says, and the core names no study', function () {
    expect(tree(TOY).sort()).to.deep.equal([...TOY_FILES].sort());
    const contract = fs.readFileSync(path.join(ROOT, 'docs', 'contract.md'), 'utf8');
    // the recipe copies this toy, by the paths this test copies it from
    for (const from of ['test/fixtures/toy/scripts/toy_count.js', 'test/fixtures/toy/lib/studies/toy/'])
      expect(contract, from).to.contain(`Copy \`${from}\``);
    for (const doc of ['README.md', path.join('docs', 'own-study.md')])
      expect(fs.readFileSync(path.join(ROOT, doc), 'utf8'), doc).to.contain('test/fixtures/toy/');
    for (const place of [
      '`scripts/<script>.js`',
      '`lib/studies/<name>/index.js`',
      '`lib/studies/<name>/*.js`',
      '`lib/studies/index.js`',
    ]) {
      expect(contract, place).to.contain(`| ${place} |`);
    }
    // every study of the registry, the toy, and every folder of the copy's lib/studies (shared code
    // such as source-002/ too): a study added later is checked without a word here
    const { studies } = require('../lib/studies');
    const folders = fs
      .readdirSync(path.join(dir, 'lib', 'studies'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    const names = [...new Set(['toy', ...studies.map((s) => s.name), ...folders])];
    expect(names).to.include.members(['toy', 'where', 'source-002']);
    const namesAStudy = new RegExp(`studies/(${names.join('|')})\\b|require\\(['"][./]*studies`);
    for (const layer of ['core', 'report', 'infra']) {
      for (const f of tree(path.join(dir, 'lib', layer))) {
        const text = fs.readFileSync(path.join(dir, 'lib', layer, f), 'utf8');
        expect(text, `lib/${layer}/${f}`).to.not.match(namesAStudy);
      }
    }
  });

  it('defineStudy refuses a definition with an unknown key, a missing profile, or a title of its own', function () {
    const { defineStudy } = require(path.join(dir, 'lib', 'core', 'registry'));
    const good = {
      name: 'toy',
      script: 'toy_count.js',
      profiles: { tiny: {}, quick: {}, seed: {} },
      expected: '~5 s',
      seedExpected: '~10 s',
    };
    expect(defineStudy(good).title).to.equal('count the documents three ways');
    expect(String(defineStudy(good).source)).to.equal('toy');
    expect(() => defineStudy({ ...good, oracel: () => 1 })).to.throw(/study toy: unknown key "oracel"/);
    expect(() => defineStudy({ ...good, profiles: { quick: {}, seed: {} } })).to.throw(/profiles: tiny is required/);
    expect(() => defineStudy({ ...good, title: 'x' })).to.throw(/the title is the script's/);
    expect(() => defineStudy({ ...good, seedScale: {} })).to.throw(/profiles: \{tiny, quick, seed\}/);
    expect(() =>
      defineStudy({ ...good, variants: [{ name: 'v', what: 'w', run: () => 1, skipWhy: () => '' }] }),
    ).to.throw(/variants\[0\] \(v\): unknown key "skipWhy"/);
  });

  it('4. list shows it, with its quick profile and expected duration', async function () {
    const r = await cli(dir, ['list']);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(
      /^toy\s+toy\s+scripts\/toy_count\.js\s+~5 s\s+~10 s\n {2}count the documents three ways\n {2}quick: N=2000 RUNS=3$/m,
    );
  });

  let first;
  it('4. run prints its table and summary and writes results.json (valid against the schema), report.md and a chart', async function () {
    const out = path.join(dir, 'out1');
    const r = await cli(dir, ['run', 'toy', '--uri', uri, '--db', db, '--keep', '--out', out]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/variant\s+(answer\s+)?mean ± σ/);
    // the summary's one decision (scripts/lib/stats.js compareTimes): decided, or said why not
    expect(r.stdout).to.match(
      /client-count (ran [\d.]+ times (faster|slower) than count|no clear difference from count|too few rounds to compare with count|interval too wide to compare with count)/,
    );
    expect(r.stdout).to.contain('every answer checked: all agree with the independent Node computation');
    expect(r.stdout).to.match(/total time .*; files written:/);
    first = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(validate(first), JSON.stringify(validate.errors)).to.equal(true);
    expect(first.complete).to.equal(true);
    const byName = Object.fromEntries(first.results.map((x) => [x.variant, x]));
    for (const v of ['count', 'slow-count', 'client-count', 'child-count']) {
      expect(byName[v].agrees, v).to.equal(true);
      expect(byName[v].answer, v).to.equal(2000);
      expect(byName[v].ratio.to).to.equal('count');
    }
    expect(byName['client-count'].where).to.equal('node');
    expect(byName['child-count'].where).to.equal('node');
    expect(byName.future.skipped).to.deep.equal({ code: 'version', why: 'needs MongoDB >= 99.0' });
    expect(first.version).to.equal(2);
    expect(byName.count.overheadMs).to.be.below(20);
    for (const k of ['server', 'host', 'software', 'lab']) expect(first.environment).to.have.property(k);
    expect(first.environment.host.cores).to.equal(os.cpus().length);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).to.contain('## toy: count the documents three ways');
    expect(fs.statSync(path.join(out, 'toy.png')).size).to.be.greaterThan(1000);
  });

  it('5. the study runs as a drop-in mongosh script too (the real CLI, from another directory)', async function () {
    const { runCli } = require('../lib/core/shell-runner');
    const r = await runCli(path.join(dir, 'scripts', 'toy_count.js'), {
      uri,
      db,
      params: { RUNS: 1 },
      cwd: os.tmpdir(),
    });
    expect(r.code, r.stderr).to.equal(0);
    // one timed round: a figure at face value, no decision
    expect(r.stdout).to.match(/slow-count too few rounds to compare with count: [\d.]+x (faster|slower) at face value/);
    expect(r.stdout).to.contain('future: skipped (needs MongoDB >= 99.0)');
  });

  it('compare: two runs of the same build exit 0; a deliberately slowed variant exits 1', async function () {
    const runToy = async (out) =>
      expect(
        (await cli(dir, ['run', 'toy', '--uri', uri, '--db', db, '--keep', '--out', out, '--runs', '7', '--no-charts']))
          .code,
      ).to.equal(0);
    const [same1, same2, slow] = ['same1', 'same2', 'slow'].map((x) => path.join(dir, x));
    await runToy(same1);
    await runToy(same2);
    // A slower build, same parameters (compare refuses to call a change between different
    // workloads): the copy's slow-count sleeps 1 s in its code for one run. The baseline, a count of
    // a few milliseconds, is mostly the machine's noise under load (its rounds spread 4-7x with three
    // test files on two cores or at load 20, and compare calls only a change beyond that spread):
    // 1 s, x50 or more on the ratio to count, is far beyond it.
    const script = path.join(dir, 'scripts', 'toy_count.js');
    const original = fs.readFileSync(script, 'utf8');
    expect(original).to.contain('if (p.DELAY_MS) sleep(p.DELAY_MS);');
    fs.writeFileSync(script, original.replace('if (p.DELAY_MS) sleep(p.DELAY_MS);', 'sleep(1000);'));
    try {
      await runToy(slow);
    } finally {
      fs.writeFileSync(script, original);
    }
    // Commands of milliseconds on a shared 2-core machine drift between runs: a wide threshold for
    // "the same build".
    const a = await cli(dir, ['compare', same1, same2, '--threshold', '100%']);
    expect(a.code, a.stdout + a.stderr).to.equal(0);
    expect(a.stdout).to.match(/^0 clearly slower/m);
    const b = await cli(dir, ['compare', same1, path.join(slow, 'results.json'), '--threshold', '100%']);
    expect(b.code, b.stdout).to.equal(1);
    // under the heading of its study and point, the row of slow-count
    expect(b.stdout).to.match(/^toy: k=1; ratio: each round's time over count's\n\n[^]*?^slow-count\s.*SLOWER$/m);
    // The first run had 3 rounds, the fewest a side the interval is given for: a second's sleep is
    // called from them, unless the count's few milliseconds spread so far under load that the
    // interval spans more than 100x ("interval too wide": nothing decided, never "faster").
    const few = await cli(dir, ['compare', path.join(dir, 'out1'), slow]);
    expect(few.stdout).to.contain('toy: measured differently: RUNS 3 vs 7');
    expect(few.stdout).to.match(/^slow-count\s.*(SLOWER|interval too wide)/m);
    expect(few.code, few.stdout).to.equal(/^slow-count\s.*SLOWER$/m.test(few.stdout) ? 1 : 0);
    const bad = await cli(dir, ['compare', path.join(dir, 'package.json'), same1]);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.match(/not a mongo-perf-lab result file/);
    expect(bad.stderr.split('\n').filter(Boolean).length).to.be.at.most(2);
  });

  it('a run killed mid-way leaves valid JSON holding the points it finished', async function () {
    const out = path.join(dir, 'killed');
    const { child, done } = lab(
      [
        'run',
        'toy',
        '--uri',
        uri,
        '--db',
        db,
        '--keep',
        '--out',
        out,
        '--set',
        'POINTS=50',
        '--set',
        'DELAY_MS=20',
        '--runs',
        '3',
      ],
      { cwd: dir, bin: path.join(dir, 'bin', 'mongo-perf-lab.js'), env: { MONGODB_URI: undefined } },
    );
    const file = path.join(out, 'results.json');
    const t0 = Date.now();
    while (Date.now() - t0 < 60000) {
      await new Promise((r) => setTimeout(r, 200));
      try {
        const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
        if (doc.results.length >= 10) break;
      } catch (e) {
        /* not written yet */
      }
    }
    child.kill('SIGKILL');
    await done;
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(validate(doc), JSON.stringify(validate.errors)).to.equal(true);
    expect(doc.complete).to.equal(false);
    expect(doc.results.length).to.be.at.least(10);
    expect(doc.results.length % 5).to.equal(0); // whole axis points only
  });

  it('an unwritable --out or --json fails at once, before any work', async function () {
    const r = await cli(dir, ['run', 'toy', '--uri', uri, '--db', db, '--json', '/proc/x/y.json']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/--json \/proc\/x\/y\.json: not a place for/);
  });
});
