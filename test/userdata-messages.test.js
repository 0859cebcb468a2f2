'use strict';
// Issue 18's unclear messages, each now one line naming the cause and what to do, checked through
// the real mongosh CLI or the real command line: the drop-ins (variants that disagree, a count
// over 10^9, the joins script's default names on a fresh database, a user's task collection
// without the lab's index) and the CLI (--docs -1, a read-only file system, a full temp folder, a
// user who may only read).
const fs = require('fs');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const { useTestDatabase, authMongod } = require('./helpers');
const { friendly } = require('../lib/infra/errors');

const ROOT = path.join(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
// A run's results folder is the file's own temp folder, not the checkout's results/: a run that
// fails after its session began keeps its partial results.json, by design.
let labResults = null;
const lab = (args, env = {}) =>
  spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 120000,
    env: { ...process.env, ...(labResults ? { LAB_RESULTS_DIR: labResults } : {}), ...env },
  });

/** A tmpfs of `size` (read-only when asked) for the test's life; null where mounting is not allowed. */
function tmpfs(dir, opts) {
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? dir : null;
}

describe('unclear messages made clear (issue 18)', function () {
  const t = useTestDatabase('userdata_messages', { tmp: 'userdata-messages-' });
  before(function () {
    labResults = path.join(t.tmp, 'results');
  });

  describe('drop-ins through the real mongosh CLI', function () {
    // The four scripts in one mongosh process (test/helpers.js cliBatch), each on the database its
    // check reads: a mongosh start per script was most of this describe's time. A refusal is an
    // error the script throws, which a run of its own reports by exiting non-zero; the last case
    // (variants that disagree) is left uncaught, so the process shows that exit and mongosh's line.
    let batch;
    const hugeDb = () => `${t.dbName}_huge`;
    const joinsDb = () => `${t.dbName}_joins`;
    before(async function () {
      this.timeout(600000);
      const script = path.join(t.tmp, 'disagree.js');
      fs.writeFileSync(
        script,
        `load(${JSON.stringify(path.join(ROOT, 'scripts/lib/lab.js'))});
lab.main({ name: 'toy', title: 'two forms', params: {}, baseline: 'a', unit: 'ms',
  variants: [{ name: 'a', what: 'one', run: function () { return 1; } }, { name: 'b', what: 'two', run: function () { return 2; } }] });`,
      );
      // a user's perflab_tasks without the lab's index
      const docs = Array.from({ length: 300 }, (_, i) => ({
        _id: i,
        processed: i % 10 ? 0 : 1,
        r: ((i * 37) % 300) / 300,
      }));
      await t.db.collection('perflab_tasks').insertMany(docs);
      batch = await t.cliBatch(
        [
          { script: 'bigagg.js', db: hugeDb(), params: { N: 1e12 } },
          {
            script: 'inserts_joins.js',
            db: joinsDb(),
            params: { ORDERS: 500, CUSTOMERS: 100, RUNS: 1, WARMUP: 0, LAB_LINES: false },
          },
          {
            script: 'inserts_tasks.js',
            params: { RUNS: 1, WARMUP: 0, PICKS: 3, VARIANTS: 'skip-scan,skip-index,random-field', LAB_LINES: false },
          },
          { script, params: { RUNS: 1, WARMUP: 0, LAB_LINES: false } },
        ],
        { cwd: process.cwd(), lastUncaught: true },
      );
    });
    after(async function () {
      for (const name of [hugeDb(), joinsDb()])
        await t.client
          .db(name)
          .dropDatabase()
          .catch(() => {});
    });

    it('variants that disagree: the tables, then one line, and a non-zero exit', async function () {
      const r = batch.cases[3];
      expect(batch.code).to.not.equal(0);
      expect(r.stdout).to.contain('VARIANTS DISAGREE with a: b');
      expect(r.stdout + batch.stderr).to.match(
        /variants disagree with a: b \(the tables above show each answer\): their results are not comparable; check the data or report it/,
      );
    });

    it('a count over 10^9 (N = 1e12) is refused before anything is written, as the CLI refuses --docs', async function () {
      const r = batch.cases[0];
      expect(r.error, r.stdout).to.be.a('string');
      expect(r.stdout + r.error).to.match(
        /parameter N: 1000000000000 is over the lab's limit of 1000000000 \(the CLI's too\): give a smaller value/,
      );
      expect(await t.client.db(hugeDb()).listCollections().toArray()).to.have.length(0);
    });

    it('inserts_joins.js with its own default names runs on a fresh database (orders and customers generated)', async function () {
      const r = batch.cases[1];
      expect(r.error, r.stdout).to.equal(null);
      expect(r.stdout).to.match(/all variants agree/);
      expect(await t.client.db(joinsDb()).collection('perflab_join_customers').countDocuments()).to.equal(100);
    });

    it("the tasks drop-in on a user's perflab_tasks without the lab's index: not hinted, said in one line, exit 0", async function () {
      const r = batch.cases[2];
      expect(r.error, r.stdout).to.equal(null);
      expect(r.stdout).to.contain(
        'note: perflab_tasks has no index {processed: 1, r: 1} (the lab does not index a collection it did not make): skip-index is not run',
      );
      expect(batch.stderr).to.not.match(/MongoServerError|hint/);
      expect((await t.db.collection('perflab_tasks').indexes()).map((i) => i.name)).to.deep.equal(['_id_']);
    });
  });

  describe('the command line', function () {
    it('--docs -1 is read as a value and refused as one ("expected a whole number"), not "ambiguous"', function () {
      const r = lab(['run', 'where', '--docs', '-1']);
      expect(r.status).to.equal(2);
      expect(r.stderr.split('\n')[0]).to.equal('mongo-perf-lab: --docs: expected a whole number >= 1, got "-1"');
    });

    it('a missing privilege names the command, not its whole text with session ids', function () {
      const e = Object.assign(
        new Error(
          'not authorized on userdata to execute command { update: "perflab_fixtures", updates: [ { q: {} } ], lsid: { id: UUID("c8") }, $db: "userdata" }',
        ),
        { name: 'MongoServerError', code: 13 },
      );
      expect(friendly(e)).to.match(
        /lacks a privilege \(not authorized on userdata to run update\); the lab needs readWrite/,
      );
      const frozen = Object.assign(new Error('Server selection timed out after 30000 ms'), {
        name: 'MongoServerSelectionError',
      });
      expect(friendly(frozen, { uri: 'mongodb://h' })).to.match(
        /^cannot reach MongoDB at mongodb:\/\/h within 30 s: is it running, answering \(not paused or overloaded\)/,
      );
      const ro = Object.assign(new Error("EROFS: read-only file system, open '/ro/x'"), {
        code: 'EROFS',
        path: '/ro/x',
      });
      expect(friendly(ro)).to.equal('cannot write /ro/x: read-only file system; choose a writable location');
    });

    it('a read-only file system is named as such: server --dbpath and TMPDIR (not ENOENT, not "permission denied")', function () {
      const ro = tmpfs(path.join(t.tmp, 'ro'), 'size=1m,ro');
      if (!ro) this.skip();
      try {
        const s = lab(['server', '--dbpath', path.join(ro, 'data')]);
        expect(s.status).to.not.equal(0);
        expect(s.stderr).to.contain(
          `mongo-perf-lab server: cannot write ${ro}: read-only file system; choose a writable location`,
        );
        const r = lab(['run', 'where', '--docs', '10'], { TMPDIR: ro });
        expect(r.status).to.equal(1);
        expect(r.stderr).to.match(/read-only file system; choose a writable location/);
      } finally {
        spawnSync('umount', [ro]);
      }
    });

    it('a temp folder too full for the embedded mongod is refused up front, not "the server went away" mid-run', function () {
      const small = tmpfs(path.join(t.tmp, 'small'), 'size=8m');
      if (!small) this.skip();
      try {
        const r = lab(['run', 'where', '--docs', '10'], { TMPDIR: small });
        expect(r.status).to.equal(1);
        expect(r.stderr.trim().split('\n')).to.have.length(1);
        expect(r.stderr).to.match(
          /the temp folder .* has \d+ MB free; the embedded mongod needs at least 256 MB: free some space, set TMPDIR to a folder with room, or give --uri/,
        );
        expect(fs.readdirSync(small)).to.deep.equal([]);
      } finally {
        spawnSync('umount', [small]);
      }
    });

    it('two `server --dbpath D` at once: the one that loses names the mongod holding D, every time', async function () {
      // Both start at once, on purpose: the lab's own lock on D is taken before any mongod starts.
      this.timeout(120000);
      for (let trial = 0; trial < 2; trial++) {
        const d = path.join(t.tmp, `race-${trial}`);
        const outs = ['', ''];
        const kids = [0, 1].map((k) => {
          const c = spawn(process.execPath, [BIN, 'server', '--dbpath', d], { stdio: ['ignore', 'pipe', 'pipe'] });
          c.stdout.on('data', (x) => {
            outs[k] += x;
          });
          c.stderr.on('data', (x) => {
            outs[k] += x;
          });
          return c;
        });
        const exits = kids.map((c) => new Promise((resolve) => c.on('close', (code) => resolve(code))));
        const first = await Promise.race(exits.map((p, k) => p.then((code) => ({ k, code }))));
        expect(first.code, outs[first.k]).to.equal(2);
        expect(outs[first.k]).to.match(
          /--dbpath .*race-\d: (a mongod \(pid \d+\) is already running on this directory|another mongod is starting on this directory)/,
        );
        expect(outs[first.k]).to.not.match(/other files|another MongoDB version/);
        kids[1 - first.k].kill('SIGINT');
        await exits[1 - first.k];
      }
    });

    describe('a user who may only read', function () {
      this.timeout(180000);
      let proc;
      let uri;
      before(async function () {
        const dbpath = fs.mkdtempSync(path.join(t.tmp, 'auth-'));
        const m = await authMongod(dbpath, [{ user: 'ro', pwd: 'ropw', roles: [{ role: 'read', db: 'userdata' }] }]);
        proc = m.proc;
        uri = `mongodb://ro:ropw@127.0.0.1:${m.port}/admin`;
      });
      after(function () {
        if (proc && proc.exitCode === null) proc.kill('SIGKILL');
      });

      it('is told the privilege it lacks, is not told to drop a database the run did not create, and sees no "undefined"', function () {
        const r = lab(['run', 'where', '--uri', uri, '--db', 'userdata', '--docs', '300']);
        expect(r.status).to.equal(1);
        expect(r.stderr).to.not.match(/could not drop database/);
        expect(r.stdout + r.stderr).to.not.match(/undefined/);
        expect(r.stderr.split('\n').filter((l) => l.startsWith('mongo-perf-lab:'))).to.have.length(1);
        expect(r.stderr).to.match(
          /the user lacks a privilege \((userdata\.\w+: could not create it \()?not authorized on userdata to run \w+\)+; the lab needs readWrite on its database/,
        );
      });
    });
  });
});
