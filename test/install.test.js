'use strict';
// Installs anywhere: `npm pack`'s tarball, laid out as `npm install -g --prefix P` lays it out
// (P/lib/node_modules/mongo-perf-lab, P/bin/mongo-perf-lab -> its bin), runs `list`, `server` and
// a tiny study from an unrelated directory, and prints commands that work there.
//
// The dependencies are not fetched: this machine's npm cache cannot serve an offline install (the
// lock file records no download addresses, so npm needs the registry's metadata), and the suite
// must not depend on the network. The unpacked package reaches them through one link,
// node_modules -> the clone's. What is checked is the tarball's contents (package.json `files`)
// and the lab running from outside its clone. README "Using the CLI outside the clone" has the
// real install commands.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { testUri, startLabServer, scratchDirAndDb } = require('./helpers');

const ROOT = path.resolve(__dirname, '..');

describe('install: the packed tarball from another directory', function () {
  let prefix;
  let elsewhere;
  let env;
  const DB = 'labtest_install';
  const tmp = scratchDirAndDb('lab-install-', DB); // tmp.dir: the tarball, the install prefix, results

  before(function () {
    this.timeout(120000);
    const r = spawnSync('npm', ['pack', '--pack-destination', tmp.dir, '--silent'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const tgz = path.join(tmp.dir, r.stdout.trim().split('\n').pop());
    prefix = path.join(tmp.dir, 'prefix');
    const pkg = path.join(prefix, 'lib', 'node_modules', 'mongo-perf-lab');
    fs.mkdirSync(pkg, { recursive: true });
    const x = spawnSync('tar', ['xzf', tgz, '-C', pkg, '--strip-components=1'], { encoding: 'utf8' });
    expect(x.status, x.stderr).to.equal(0);
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(pkg, 'node_modules'));
    fs.mkdirSync(path.join(prefix, 'bin'));
    fs.symlinkSync(
      path.join('..', 'lib', 'node_modules', 'mongo-perf-lab', 'bin', 'mongo-perf-lab.js'),
      path.join(prefix, 'bin', 'mongo-perf-lab'),
    );
    fs.chmodSync(path.join(pkg, 'bin', 'mongo-perf-lab.js'), 0o755);
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-elsewhere-'));
    env = {
      ...process.env,
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
      LAB_RESULTS_DIR: path.join(tmp.dir, 'results'),
    };
    delete env.MONGODB_URI;
  });

  after(function () {
    if (elsewhere) fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  const run = (args, timeout = 300000) =>
    spawnSync('mongo-perf-lab', args, { cwd: elsewhere, env, encoding: 'utf8', timeout });

  it("the tarball holds what the CLI needs, and not the tests or the documented runs' data", function () {
    const pkg = path.join(prefix, 'lib', 'node_modules', 'mongo-perf-lab');
    for (const f of [
      'bin/mongo-perf-lab.js',
      'lib/core/run-study.js',
      'lib/studies/index.js',
      'scripts/where_vs_agg.js',
      'scripts/lib/lab.js',
      'fixtures/gen.js',
      'docs/result-format.schema.json',
      'README.md',
      'package.json',
    ]) {
      expect(fs.existsSync(path.join(pkg, f)), f).to.equal(true);
    }
    for (const f of ['test', 'docs/data', '.ci']) expect(fs.existsSync(path.join(pkg, f)), f).to.equal(false);
  });

  it('`mongo-perf-lab list` runs from another directory', function () {
    const r = run(['list']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^where\s/m);
  });

  it('`mongo-perf-lab server` prints commands that work from there (no npx), and its mongosh line runs', async function () {
    this.timeout(180000);
    const { child, io, exited } = await startLabServer([], { command: 'mongo-perf-lab', cwd: elsewhere, env });
    try {
      expect(io.err).to.not.match(/npx /);
      expect(io.err).to.match(/^\s+mongo-perf-lab run all --uri "mongodb:\/\/127\.0\.0\.1:\d+\/"/m);
      const line = io.err
        .split('\n')
        .find((l) => /where_vs_agg\.js$/.test(l) && !/--eval/.test(l))
        .trim();
      // pasted, with small parameters, from the same directory
      const pasted = line.replace(/ (\S*where_vs_agg\.js)$/, " --eval 'var N = 300, RUNS = 1' $1");
      const r = spawnSync('sh', ['-c', pasted], {
        cwd: elsewhere,
        env: { ...env, MONGOSH_NO_TELEMETRY: '1' },
        encoding: 'utf8',
        timeout: 120000,
      });
      expect(r.status, `${pasted}\n${r.stdout}\n${r.stderr}`).to.equal(0);
      expect(r.stdout).to.include('all variants agree');
    } finally {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30000);
      await exited;
      clearTimeout(timer);
    }
  });

  it('a tiny study runs from another directory and writes its results there', function () {
    this.timeout(300000);
    const out = path.join(elsewhere, 'out');
    const r = run([
      'run',
      'where',
      '--uri',
      testUri(),
      '--db',
      DB,
      '--docs',
      '1000',
      '--runs',
      '1',
      '--out',
      out,
      '--no-progress',
    ]);
    expect(r.status, r.stderr).to.equal(0);
    expect(fs.existsSync(path.join(out, 'results.json'))).to.equal(true);
    expect(fs.existsSync(path.join(out, 'report.md'))).to.equal(true);
  });
});
