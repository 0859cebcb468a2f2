'use strict';
// A study of your own (docs/own-study.md): a user's declaration file run from another folder
// against the user's collections, which are read and never written.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri } = require('./helpers');

const CLI = path.join(__dirname, '..', 'bin', 'mongo-perf-lab.js');
const EXAMPLE = path.join(__dirname, '..', 'docs', 'examples', 'my_study.js');

describe('a study of your own: run ./my_study.js from any folder', function () {
  const dbName = 'labtest_own';
  let uri;
  let dir;
  let client;

  async function state() {
    const d = client.db(dbName);
    const names = (await d.listCollections().toArray()).map((c) => c.name).sort();
    return { md5: (await d.command({ dbHash: 1 })).md5, names };
  }

  function run(file, extra = []) {
    return spawnSync(
      process.execPath,
      [CLI, 'run', file, '--uri', uri, '--db', dbName, '--no-progress', '--out', path.join(dir, 'out'), ...extra],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, MONGODB_URI: '' },
        timeout: 170000,
      },
    );
  }

  /** The example with one piece of text replaced, written beside it as `file`; returns its text. */
  function edited(file, from, to) {
    const text = fs.readFileSync(path.join(dir, 'my_study.js'), 'utf8').replace(from, to);
    fs.writeFileSync(path.join(dir, file), text);
    return text;
  }

  before(async function () {
    uri = testUri();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-own-'));
    fs.copyFileSync(EXAMPLE, path.join(dir, 'my_study.js'));
    client = await MongoClient.connect(uri);
    const d = client.db(dbName);
    await d.dropDatabase();
    await d
      .collection('customers')
      .insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, region: ['n', 's', 'e', 'w'][i % 4] })));
    await d.collection('orders').insertMany(Array.from({ length: 600 }, (_, i) => ({ cust: i % 57, amount: i % 13 })));
  });

  after(async function () {
    if (client) {
      await client.db(dbName).dropDatabase();
      await client.close();
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs with the harness, intervals and the agreement check, and leaves the user's data as it was", async function () {
    this.timeout(180000);
    const before = await state();
    const r = run('./my_study.js', ['--runs', '3']);
    expect(r.status, r.stderr + r.stdout).to.equal(0);
    expect(r.stdout).to.match(
      /lookup (ran [\d.]+ times (faster|slower) than two-finds \(95% CI [\d.]+\.\.[\d.]+, 3 rounds\)|no clear difference from two-finds \(95% CI \S+ \w+\.\.\S+ \w+, 3 rounds\)|interval too wide to compare with two-finds)/,
    );
    expect(r.stdout).to.contain("every answer checked: all agree with the baseline's answer (two-finds)\n");
    expect(r.stdout).to.contain(
      'answers compared by value: numbers within 1e-9 relative, dates to the ms, keys in any order',
    );
    // the count read, before the tables
    expect(r.stdout).to.contain(`note: reads ${dbName}.orders (600 documents), ${dbName}.customers (50 documents)`);
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'results.json'), 'utf8'));
    const recs = doc.results.filter((x) => x.type === 'result');
    expect(recs.map((x) => x.variant).sort()).to.deep.equal(['lookup', 'two-finds']);
    for (const x of recs) expect(x.agrees, x.variant).to.equal(true);
    // the example declares explain: the plans carry what executionStats says
    const plan = (v) => recs.find((x) => x.variant === v).plan;
    expect(plan('two-finds')).to.include({ keysExamined: 50, docsExamined: 650, nReturned: 50 });
    expect(plan('two-finds').indexes).to.deep.equal(['_id_']);
    expect(plan('lookup').nReturned).to.equal(5); // the regions n, s, e, w and (none)
    expect(plan('lookup').docsExamined).to.be.at.least(600);
    if (plan('lookup').explainVersion === '2') expect(plan('lookup').lookup).to.equal('IndexedLoopJoin');
    else expect(plan('lookup').lookup).to.match(/classic .*\$lookup/);
    expect(r.stdout).to.match(/two-finds .*COLLSCAN\+IXSCAN _id_ · 50 keys, 650 docs -> 50/);
    // 3 rounds: the fewest compare decides from (a Welch interval on 3 a side): no note
    expect(r.stderr + r.stdout).to.not.contain('too few rounds for `compare`');
    // report.md opens with the summary the terminal printed; the chart names the data and has whiskers
    const report = fs.readFileSync(path.join(dir, 'out', 'report.md'), 'utf8');
    expect(report).to.match(/## Summary \(as the run printed it\)[^]*every answer checked[^]*\| two-finds \|/);
    const svg = fs.readFileSync(path.join(dir, 'out', 'my-orders.svg'), 'utf8');
    expect(svg).to.contain(`(${dbName}.orders 600 docs, ${dbName}.customers 50 docs)`);
    expect(svg).to.contain('whiskers: 95% interval of the typical time');
    const { defaultChart } = require('../lib/report/report');
    const spec = defaultChart(doc, { name: 'my-orders', title: 'x' });
    expect(spec.layer.map((l) => l.mark.type)).to.include('errorbar');
    for (const v of spec.data.values) expect(v.lo, v.variant).to.be.below(v.hi);
    expect(await state()).to.deep.equal(before);
  });

  it('--quiet prints the summary and the files only', function () {
    this.timeout(120000);
    const r = run('./my_study.js', ['--runs', '4', '--quiet', '--out', path.join(dir, 'out-quiet')]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^\nSummary\n=======\n/);
    expect(r.stdout).to.not.match(/mean ± σ|^note:/m);
    expect(r.stdout).to.contain("every answer checked: all agree with the baseline's answer (two-finds)");
    expect(r.stdout.trim().split('\n').length).to.be.at.most(20);
    expect(r.stderr).to.equal('');
  });

  it('refuses a misspelled collection or database in one line (exit 2), naming what is there', function () {
    this.timeout(120000);
    const typo = run('./my_study.js', ['--set', 'ORDERS=ordrs']);
    expect(typo.status, typo.stderr).to.equal(2);
    expect(typo.stderr.split('\n').filter((l) => l.startsWith('mongo-perf-lab'))).to.deep.equal([
      `mongo-perf-lab: ORDERS=ordrs: ${dbName}.ordrs: no such collection, nothing to measure (collections in ${dbName}: customers, orders); check --set ORDERS=... and --db (\`empty: true\` on the parameter runs it on an empty one)`,
    ]);
    expect(typo.stdout).to.not.match(/agree|faster|slower/);
    const noDb = spawnSync(
      process.execPath,
      [
        CLI,
        'run',
        './my_study.js',
        '--uri',
        uri,
        '--db',
        `${dbName}_typo`,
        '--no-progress',
        '--out',
        path.join(dir, 'o2'),
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, MONGODB_URI: '' }, timeout: 110000 },
    );
    expect(noDb.status).to.equal(2);
    expect(noDb.stderr).to.match(/ORDERS=orders: labtest_own_typo\.orders: no such collection.*none: check --db/);
  });

  it('a planted wrong variant, the fastest, is never ranked: WRONG ANSWER in the table and the report, DISAGREE in the summary', async function () {
    this.timeout(180000);
    const text = edited(
      'wrong.js',
      '  ],\n};\nlab.main',
      "    { name: 'wrong', what: 'planted', run: function (p) { return { n: 1 }; } },\n  ],\n};\nlab.main",
    );
    expect(text).to.contain("name: 'wrong'");
    const r = run('./wrong.js', ['--runs', '5', '--out', path.join(dir, 'out-wrong')]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^wrong\s.*WRONG ANSWER/m);
    expect(r.stdout).to.contain(
      'wrong not ranked, not compared with two-finds: its answer disagrees with the reference',
    );
    expect(r.stdout).to.match(
      /DISAGREE with the baseline's answer \(two-finds\): wrong @ the point \(not ranked\)\n {2}answers compared by value/,
    );
    // no sentence ranks it, anywhere: not "ran ... faster", not "all agree"
    expect(r.stdout).to.not.match(/wrong (ran|no clear|too few|interval)/);
    expect(r.stdout).to.not.contain('all variants agree');
    const report = fs.readFileSync(path.join(dir, 'out-wrong', 'report.md'), 'utf8');
    expect(report).to.match(/\| wrong \|[^\n]*WRONG ANSWER/);
    expect(report).to.not.match(/wrong ran/);
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'out-wrong', 'results.json'), 'utf8'));
    expect(doc.results.find((x) => x.variant === 'wrong').agrees).to.equal(false);
  });

  it('refuses a declaration that would write (a fixture) in one line, before touching the server', async function () {
    this.timeout(60000);
    edited(
      'writer.js',
      "baseline: 'two-finds',",
      "baseline: 'two-finds',\n  fixture: function (p) { return { coll: p.ORDERS, name: 'x', n: 1, seed: 1 }; },",
    );
    const before = await state();
    const r = run('./writer.js');
    expect(r.status).to.not.equal(0);
    expect(r.stderr.trim().split('\n')[0]).to.match(
      /writer\.js: STUDY has fixture: a study of your own reads your data as it is/,
    );
    expect(r.stderr).to.not.match(/\n\s+at /);
    expect(await state()).to.deep.equal(before);
  });

  it('a missing file is one line', function () {
    const r = run('./nothere.js');
    expect(r.status).to.not.equal(0);
    expect(r.stderr).to.match(/nothere\.js: no such file/);
    expect(r.stderr).to.not.match(/\n\s+at /);
  });
});
