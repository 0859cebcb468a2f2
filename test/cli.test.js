'use strict';
// The command line: help, list, an end-to-end run on an embedded mongod, and bad input.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri, postgresDatabase, labCli, alive, databaseNames } = require('./helpers');

const CLI = path.join(__dirname, '..', 'bin', 'mongo-perf-lab.js');
// Runs write results/<date-time>/ under LAB_RESULTS_DIR: keep them out of the checkout and of os.tmpdir()'s root.
// Made when a test of this file runs (a run that selects none of them leaves nothing).
let RESULTS;
before(() => {
  RESULTS = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cli-results-'));
});
after(() => RESULTS && fs.rmSync(RESULTS, { recursive: true, force: true }));

// The run's results under RESULTS, never a developer's MONGODB_URI (labCli leaves it out).
const cli = (args, { env = {}, onStderr } = {}) =>
  labCli(args, { env: { LAB_RESULTS_DIR: RESULTS, ...env }, onStderr });

function embeddedFrom(stderr) {
  // A deep temp folder makes the line wrap to 100 columns before the path (kept whole on its line).
  const m = /embedded mongod \(pid (\d+), data\s+([^)]+)\)/.exec(stderr);
  return m && { pid: Number(m[1]), dbPath: m[2].trim() };
}

describe('CLI', function () {
  it('--help explains the commands and options', async function () {
    const r = await cli(['--help']);
    expect(r.code).to.equal(0);
    for (const word of [
      'list',
      'run <study...|all>',
      'compare OLD.json NEW.json',
      '--uri',
      '--docs',
      '--runs',
      '--json',
      '--out',
      '--set',
      '--profile',
      'MONGOMS_SYSTEM_BINARY',
    ]) {
      expect(r.stdout).to.include(word);
    }
    // the test suite's profile is listed, as test scale, not findings
    expect(r.stdout.replace(/\s+/g, ' ')).to.match(
      /--profile P quick .* tiny \(test scale, seconds: what the test suite runs; its verdicts are not findings\)/,
    );
    expect(r.stdout).to.include('findings [study...] [--profile quick|seed|tiny | --budget 30m]');
    // within 100 columns, an option group never split across lines
    for (const line of r.stdout.split('\n')) expect(line.length, line).to.be.at.most(100);
  });

  it('each command has its own help: `<command> --help` and `help <command>`', async function () {
    let run;
    for (const [args, word] of [
      [['run', '--help'], '--docs'],
      [['help', 'compare'], '--threshold'],
      [['server', '-h'], '--replset'],
      [['import', '--help'], '--rejects'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).to.equal(0);
      expect(r.stdout, args.join(' ')).to.match(
        new RegExp(`^Usage: mongo-perf-lab ${args[0] === 'help' ? args[1] : args[0]}`),
      );
      expect(r.stdout, args.join(' ')).to.include(word);
      if (args[0] === 'run') run = r;
    }
    expect(run.stdout).to.not.include('--threshold');
  });

  it('an option of another command is refused with one line, a typo with the closest name', async function () {
    for (const [args, re] of [
      [
        ['list', '--threshold', '5%'],
        /^mongo-perf-lab: list: Unknown option '--threshold'; --threshold is an option of compare, not of list$/m,
      ],
      [
        ['run', 'where', '--dbpath', 'X'],
        /run: Unknown option '--dbpath'; --dbpath is an option of server, not of run/,
      ],
      [['run', 'where', '--doc', '5'], /run: Unknown option '--doc'; did you mean --docs\?/],
      [['lsit'], /unknown command "lsit" .*did you mean list\?/],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.stderr, args.join(' ')).to.match(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).to.have.length(2); // the line, and where to find help
    }
  });

  it('--help loads neither the driver nor a study; list loads the studies but not the driver', function () {
    const probe = `
      const seen = new Set(); const M = require('module'); const load = M._load;
      M._load = function (r) { seen.add(r); return load.apply(this, arguments); };
      process.argv = [process.argv[0], ${JSON.stringify(CLI)}, ...process.env.CMD.split(' ')];
      process.stdout.write = () => true;
      require(${JSON.stringify(CLI)});
      setTimeout(() => { process.stderr.write(JSON.stringify([...seen])); process.exit(0); }, 300);`;
    const file = path.join(RESULTS, 'probe.js');
    fs.writeFileSync(file, probe);
    const heavy = /^(mongodb|pg|pg-copy-streams|mongodb-memory-server-core|@mongosh\/.*)$/;
    for (const cmd of ['--help', 'run --help', 'help findings', 'list']) {
      const r = require('child_process').spawnSync(process.execPath, [file], {
        env: { ...process.env, CMD: cmd },
        encoding: 'utf8',
      });
      const loaded = JSON.parse(r.stderr);
      expect(
        loaded.filter((m) => heavy.test(m)),
        cmd,
      ).to.deep.equal([]);
      if (cmd !== 'list')
        expect(
          loaded.filter((m) => /studies/.test(m)),
          cmd,
        ).to.deep.equal([]);
    }
  });

  it('list names every study with its source article, script, quick profile and duration', async function () {
    const r = await cli(['list']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.match(
      /^where\s+001\s+scripts\/where_vs_agg\.js\s+~\d+ s\s+~[\d.-]+ min\n {2}\$where vs plain.*\n {2}quick: N=50000 RUNS=5 BUDGET_MS=\d+$/m,
    );
    expect(r.stdout).to.match(/^mapreduce\s+000\s+scripts\/mr_variants\.js/m);
    // within 100 columns
    for (const line of r.stdout.split('\n')) expect(line.length, line).to.be.at.most(100);
  });

  // One `run all --profile tiny` on an embedded mongod serves the two tests below: it runs every
  // study end to end (where among them) and prints all their output. Each of these tests started a
  // run of its own (where alone, on its own embedded mongod, then all the studies).
  let allRun = null;
  after(async function () {
    if (!allRun) return;
    const { out, json, pg } = await allRun;
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(json, { force: true });
    await pg.close();
  });
  const runAll = () =>
    (allRun ||= (async () => {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cli-all-'));
      const json = path.join(os.tmpdir(), `lab-cli-${process.pid}.json`);
      // A PostgreSQL database of its own on the suite's shared server (none without one): the SQL
      // peers' tables have fixed names, and another file's CLI runs (test/safety-cli.test.js runs
      // mapreduce on the shared PG_URI) may be writing them at the same time.
      const pg = await postgresDatabase('cli');
      const r = await cli(['run', 'all', '--profile', 'tiny', '--json', json, '--out', out], {
        env: pg.uri ? { PG_URI: pg.uri } : {},
      });
      return { r, out, json, pg };
    })());

  it('runs a study end to end on an embedded mongod, writes JSON, and leaves no server or data behind', async function () {
    this.timeout(1200000);
    const { r, out, json } = await runAll();
    expect(r.code, r.stderr.slice(-2000)).to.equal(0);
    expect(r.stdout).to.match(/expr-find\s+\d+.*IXSCAN/);
    expect(r.stdout).to.match(
      /expr-find (ran [\d.]+ times faster than where|too few rounds to compare with where: [\d.]+x faster)/,
    );
    expect(r.stdout).to.not.include('@@LAB');
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.environment.server.storageEngine).to.equal('wiredTiger');
    expect(doc.environment.server.topology).to.equal('standalone');
    const rows = doc.results.filter((x) => x.study === 'where' && x.type === 'result');
    expect(rows).to.have.length(7);
    expect(new Set(rows.map((x) => x.answer)).size).to.equal(1);
    expect(rows.every((x) => x.agrees === true)).to.equal(true);
    // the report, the result file and the charts: each study's, where's among them, and nothing else
    const studies = require('../lib/studies').studies.map((x) => x.name);
    const files = fs.readdirSync(out).sort();
    expect(files).to.include.members(['report.md', 'results.json', 'where.png', 'where.svg']);
    // a chart is <study>.png/.svg, or <study>-<name> when a study draws several (lib/report/report.js)
    for (const f of files) {
      const chart = /^([a-z0-9]+)(-[a-z0-9-]+)?\.(png|svg)$/.exec(f);
      expect(['report.md', 'results.json'].includes(f) || (chart && studies.includes(chart[1])), f).to.equal(true);
      if (chart) expect(files, f).to.include(f.replace(/(png|svg)$/, (x) => (x === 'png' ? 'svg' : 'png')));
    }
    const e = embeddedFrom(r.stderr);
    expect(e, r.stderr).to.exist;
    expect(alive(e.pid)).to.equal(false);
    expect(fs.existsSync(e.dbPath)).to.equal(false);
  });

  it('run all --profile tiny prints no line over 100 columns, on stdout or stderr (issue #20)', async function () {
    // Every study's printed output: drop-in shell tables and summaries, study echoes, the banner,
    // the server line, progress lines and the closing summary. A few minutes on 2 loaded cores.
    // The restart parts the tiny profiles leave out (bigagg's cold and cache tables, timeseries'
    // other states) are checked where they run: test/bigagg.test.js, test/timeseries-cache.test.js.
    // Its other cuts print no kind of line the run does not print otherwise: counters' three remarks
    // print only verdict cells, mapreduce's 10^3 batch is a point table like 10^2's.
    this.timeout(1200000);
    const { r } = await runAll();
    expect(r.code, r.stderr.slice(-2000)).to.equal(0);
    expect(r.stdout).to.match(/^=== counters: /m);
    const long = [...r.stdout.split('\n'), ...r.stderr.split('\n')].filter((l) => [...l].length > 100);
    expect(long, long.join('\n')).to.deep.equal([]);
  });

  it('stops the embedded mongod and removes its data on SIGTERM', async function () {
    let sent = false;
    const r = await cli(['run', 'where', '--docs', '400000', '--runs', '1', '--no-progress'], {
      onStderr: (err, child) => {
        if (!sent && embeddedFrom(err)) {
          sent = true;
          setTimeout(() => child.kill('SIGTERM'), 300);
        }
      },
    });
    expect(sent, r.stderr).to.equal(true);
    expect(r.code).to.equal(128 + 15);
    const e = embeddedFrom(r.stderr);
    expect(alive(e.pid)).to.equal(false);
    expect(fs.existsSync(e.dbPath)).to.equal(false);
  });

  it('on a server of your own, drops the database it created and leaves everything else alone', async function () {
    const uri = testUri();
    // A marker in the connection string stands for a password: the result file must not keep it.
    const marked = `${uri}${uri.includes('?') ? '&' : '?'}appName=labSecretMarker`;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-cli-owned-'));
    try {
      const r = await cli([
        'run',
        'where',
        '--uri',
        marked,
        '--db',
        'labtest_cli_owned',
        '--docs',
        '2000',
        '--runs',
        '0',
        '--no-progress',
        '--no-charts',
        '--out',
        out,
      ]);
      expect(r.code, r.stderr).to.equal(0);
      expect(await databaseNames(uri)).to.not.include('labtest_cli_owned');
      // --no-charts: the result file and the report, no drawing
      expect(fs.readdirSync(out).sort()).to.deep.equal(['report.md', 'results.json']);
      const saved = fs.readFileSync(path.join(out, 'results.json'), 'utf8');
      expect(JSON.parse(saved).environment.argv).to.include.members(['--uri', '...']);
      expect(saved + fs.readFileSync(path.join(out, 'report.md'), 'utf8')).to.not.contain('labSecretMarker');
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite a collection it did not create, and keeps it intact', async function () {
    const uri = testUri();
    const c = new MongoClient(uri);
    const db = c.db('labtest_cli_foreign');
    try {
      await db.collection('mine').insertMany([
        { _id: 1, a: 1, b: 2 },
        { _id: 2, a: 3, b: 4 },
      ]);
      const r = await cli([
        'run',
        'where',
        '--uri',
        uri,
        '--db',
        'labtest_cli_foreign',
        '--docs',
        '2000',
        '--no-progress',
      ]);
      expect(r.code).to.equal(1);
      expect(r.stderr).to.match(
        /labtest_cli_foreign\.mine exists and was not made by the lab .*holds 2 documents; .*never fills, indexes, drops or converts/,
      );
      expect(await db.collection('mine').countDocuments()).to.equal(2);
    } finally {
      await db.dropDatabase();
      await c.close();
    }
  });

  describe('bad input: a clear message, a non-zero exit, no server started', function () {
    const cases = [
      [['run', 'where', '--docs', 'abc'], 2, /--docs: expected a whole number >= 1, got "abc"/],
      [['run', 'where', '--docs=-5'], 2, /--docs: expected a whole number >= 1, got "-5"/],
      [['run', 'where', '--docs', '1.5'], 2, /--docs: expected a whole number >= 1, got "1.5"/],
      [['run', 'where', '--runs', 'many'], 2, /--runs: expected a whole number >= 0, got "many"/],
      [['run', 'nosuch'], 2, /unknown study "nosuch" \(known: .*where/],
      [['run'], 2, /run: name a study/],
      [['frobnicate'], 2, /unknown command "frobnicate"/],
      [['run', 'where', '--bogus'], 2, /Unknown option '--bogus'/],
      [['run', 'where', '--db', 'a/b'], 2, /--db: "a\/b" is not a valid database name/],
      // An unset shell variable ($FILES) must not turn "read these files" into "run every study".
      [['findings', '--from', ''], 2, /--from: "" names nothing/],
      [['findings', '--servers', ' , '], 2, /--servers: " , " names nothing/],
      [
        ['run', 'where', '--uri', 'mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=500'],
        1,
        /cannot reach MongoDB at mongodb:\/\/127\.0\.0\.1:1/,
      ],
    ];
    for (const [args, code, message] of cases) {
      it(`${args.join(' ')} -> exit ${code}`, async function () {
        const r = await cli(args);
        expect(r.code).to.equal(code);
        expect(r.stderr).to.match(message);
        expect(embeddedFrom(r.stderr)).to.equal(null);
      });
    }
  });
});
