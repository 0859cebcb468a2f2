'use strict';
// Ownership by identity, one mechanism, one table (issue 18). For every write path of the CLI
// (`run <study>`, `import`) and of every drop-in script, with the parameters that name a collection
// or database, the collections the path would write (its default and derived names) are first made
// by "the user": empty and full, capped, with a validator, time-series, and with a stale lab marker
// (the lab's collection dropped and created again by the user). After the run each of them is
// byte-identical (dbHash of its data, its indexes, its options and UUID), no lab marker grants
// ownership of it, no system.js appeared, and the run either read them as they are (exit 0) or
// refused in one line (non-zero exit). Each path runs once, the kinds rotated over its names and
// shifted from one path to the next, so every kind meets the default names of several paths.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { cliBatch, labRun, clientAndTmp } = require('./helpers');
const { runCli, ROOT } = require('../lib/core/shell-runner');
const LabFixture = require('../scripts/lib/fixture');

const KINDS = ['empty', 'capped', 'stale', 'validated', 'timeseries', 'full'];
const TS = [
  'randomData',
  'randomData_bucket_minute',
  'randomData_ts',
  'randomData_rollup_minute',
  'randomData_rollup_hour',
];
const tsOf = (c) => [c, `${c}_bucket_minute`, `${c}_ts`, `${c}_rollup_minute`, `${c}_rollup_hour`];
const SHELL = { RUNS: 1, WARMUP: 0 };

// Every write path: a drop-in (script + params) or a CLI command (args), and the names it writes.
const PATHS = [
  { script: 'where_vs_agg.js', params: { N: 300 }, names: ['mine'] },
  { script: 'where_vs_agg.js', params: { N: 300, COLL: 'w_user', GENERATE: true }, names: ['w_user'] },
  { script: 'bigagg.js', params: { N: 300 }, names: ['mot'] },
  { script: 'ts_designs.js', params: { N: 300, GRAINS: 'hours' }, names: TS },
  {
    script: 'ts_designs.js',
    params: { N: 300, COLL: 'events', GENERATE: true, REBUILD: true, GRAINS: 'hours' },
    names: tsOf('events'),
  },
  { script: 'ts_hours_in_day.js', params: { N: 300 }, names: TS },
  { script: 'agg_year.js', params: { N: 300 }, names: ['randomData'] },
  { script: 'sizes.js', params: {}, names: ['randomData'] },
  { script: 'warmup.js', params: {}, names: ['randomData'] },
  {
    script: 'inserts_bulk.js',
    params: { N: 200, BATCHES: '1,100', SIZES: '128' },
    names: ['perflab_ins_shell', 'perflab_ins_shell_unordered', 'perflab_ins_server_copy', 'perflab_ins_src'],
  },
  {
    script: 'inserts_race.js',
    params: { N: 40, CHARS: 8 },
    names: ['perflab_race_alone_cti', 'perflab_race_alone_unique', 'perflab_race_alone_upsert'],
  },
  {
    script: 'inserts_joins.js',
    params: { ORDERS: 300, CUSTOMERS: 30, GENERATE: true },
    names: ['perflab_join_orders', 'perflab_join_customers'],
  },
  { script: 'inserts_tasks.js', params: { N: 300, PICKS: 2 }, names: ['perflab_tasks'] },
  {
    script: 'counters_day.js',
    params: { METRICS: 3, PER_MINUTE: 5, DAYS: 1 },
    names: ['counters_preallocated', 'counters_initial', 'counters_hierarchical', 'counters_array'],
  },
  {
    script: 'counters_day.js',
    params: { METRICS: 3, PER_MINUTE: 5, PREFIX: 'mine_' },
    names: ['mine_preallocated', 'mine_initial', 'mine_hierarchical', 'mine_array'],
  },
  { script: 'mr_variants.js', params: { N: 300, K: 2, RUNS: 1 }, names: ['sensors'] },
  { script: 'mr_variants.js', params: { N: 300, K: 2, RUNS: 1, STORE_FUNCTIONS: true }, names: ['sensors'] },
  { script: 'mr_store_functions.js', params: { N: 300 }, names: ['sensors'] },
  { cli: ['run', 'where', '--docs', '300', '--runs', '1'], names: ['mine'] },
  { cli: ['run', 'timeseries', '--docs', '300', '--runs', '1', '--set', 'GRAINS=hours'], names: TS },
  {
    cli: ['run', 'bigagg', '--docs', '300', '--runs', '1'],
    names: ['mot_snappy', 'mot_zstd', 'mot_zlib', 'mot_none', 'mot_clustered'],
  },
  {
    cli: ['run', 'tasks', '--docs', '300', '--runs', '1', '--set', 'CLAIM_N=50', '--set', 'WRITERS=1'],
    names: ['perflab_tasks', 'perflab_tasks_claims'],
  },
  {
    cli: [
      'run',
      'counters',
      '--runs',
      '1',
      '--set',
      'METRICS=3',
      '--set',
      'PER_MINUTE=5',
      '--set',
      'REPLSET=false',
      '--set',
      'SWEEP=false',
      '--set',
      'SCAN=false',
      '--set',
      'WRITERS=1',
    ],
    names: [
      'counters_preallocated',
      'counters_initial',
      'counters_hierarchical',
      'counters_array',
      'counters_timeseries',
      'counters_minute_docs',
    ],
  },
  { cli: ['run', 'mapreduce', '--docs', '300', '--runs', '1', '--set', 'K=2'], names: ['sensors'] },
  { cli: ['import', 'CSV'], names: ['sensors'] },
  { cli: ['import', 'CSV', '--coll', 'readings', '--key', 'id'], names: ['readings'] },
];

// What "the user" made under a name.
async function plant(db, name, kind) {
  if (kind === 'empty') {
    await db.createCollection(name);
  } else if (kind === 'capped') {
    await db.createCollection(name, { capped: true, size: 4096, max: 3 });
    await db.collection(name).insertOne({ _id: 'u', user: 'capped' });
  } else if (kind === 'validated') {
    await db.createCollection(name, { validator: { owner: { $eq: 'user' } } });
    await db.collection(name).insertOne({ _id: 'u', owner: 'user' });
  } else if (kind === 'timeseries') {
    await db.createCollection(name, { timeseries: { timeField: 't', metaField: 'm' } });
    await db.collection(name).insertOne({ t: new Date(0), m: 'user', v: 1 });
  } else if (kind === 'stale') {
    // The lab's own collection, complete and marked with its UUID; then the user dropped it and made theirs.
    await db.createCollection(name);
    const [old] = await db.listCollections({ name }).toArray();
    await db
      .collection(LabFixture.META)
      .replaceOne(
        { _id: name },
        { _id: name, uuid: LabFixture.identity(old), fixture: 'stale', n: 1, seed: 1, complete: true },
        { upsert: true },
      );
    await db.collection(name).drop();
    await db.collection(name).insertMany([
      { _id: 1, user: 'recreated' },
      { _id: 2, user: 'recreated' },
    ]);
  } else {
    await db.collection(name).insertMany([
      { _id: 1, user: 'full' },
      { _id: 2, user: 'full' },
    ]);
  }
  if (kind !== 'timeseries') await db.collection(name).createIndex({ user: 1 }, { name: 'users_own_index' });
}

// Everything that makes the user's collection what it is: data hash, indexes, options, identity.
async function snapshot(db, name) {
  const [info] = await db.listCollections({ name }).toArray();
  if (!info) return null;
  const hashed = info.type === 'timeseries' ? `system.buckets.${name}` : name;
  const h = await db.command({ dbHash: 1, collections: [hashed] });
  const [binfo] = info.type === 'timeseries' ? await db.listCollections({ name: hashed }).toArray() : [info];
  return {
    type: info.type,
    options: JSON.stringify(info.options),
    uuid: LabFixture.identity(binfo),
    md5: h.collections[hashed],
    indexes: JSON.stringify(await db.collection(name).listIndexes().toArray()),
  };
}

const runBin = (args, opts) => labRun(args, opts).done;

describe('safety: ownership by identity, every write path against foreign collections', function () {
  this.timeout(600000);
  let uri;
  let client;
  let tmp;
  let csv;
  const used = [];
  const h = clientAndTmp('labtest-own-', used);

  before(function () {
    ({ uri, client, tmp } = h);
    csv = path.join(tmp, 'rows.csv');
    fs.writeFileSync(csv, 'id,timestamp,engine_rpm\n1,2020-01-01T00:00:00Z,900\n2,2020-01-01T00:00:01Z,950\n');
  });

  it('the table holds every registered study: its `run` or its declaration script (a study added later fails here)', function () {
    const { studies } = require('../lib/studies');
    const covered = (e) =>
      PATHS.some((p) => (p.cli ? p.cli[0] === 'run' && p.cli[1] === e.name : p.script === e.script));
    expect(studies.filter((e) => !covered(e)).map((e) => e.name)).to.deep.equal([]);
  });

  // One rotation per path, shifted from path to path: the default names meet every kind across the
  // table (the suite runs on a busy 2-core machine: one run per path keeps it to minutes).
  const kindsOf = (p, i) => p.names.map((n, k) => KINDS[((i % KINDS.length) + k) % KINDS.length]);
  const dbOf = (i) => `labtest_own_${i}_${i % KINDS.length}`;
  const labelOf = (p) => (p.script ? `${p.script} ${JSON.stringify(p.params)}` : `mongo-perf-lab ${p.cli.join(' ')}`);

  /** Plants the user's collections of path i in its own database; resolves their snapshots. */
  async function plantFor(p, i) {
    const dbName = dbOf(i);
    used.push(dbName);
    const db = client.db(dbName);
    await db.dropDatabase();
    const kinds = kindsOf(p, i);
    for (let k = 0; k < p.names.length; k++) await plant(db, p.names[k], kinds[k]);
    const before = {};
    for (const n of p.names) before[n] = await snapshot(db, n);
    return before;
  }

  // The drop-ins' paths all run in ONE real mongosh process (cliBatch in test/helpers.js: each
  // script as a fresh mongosh would see it, on the database of its path), planted first: a mongosh
  // start per path was most of this file's time. A refusal is the error the script threw.
  let scriptRuns = null;
  const scriptBatch = () =>
    (scriptRuns ||= (async () => {
      const paths = PATHS.map((p, i) => ({ p, i })).filter(({ p }) => p.script);
      const befores = new Map();
      for (const { p, i } of paths) befores.set(i, await plantFor(p, i));
      const batch = await cliBatch(
        uri,
        paths.map(({ p, i }) => ({ script: p.script, db: dbOf(i), params: { ...SHELL, ...p.params } })),
        { cwd: tmp },
      );
      const byPath = new Map(paths.map(({ i }, k) => [i, batch.cases[k]]));
      return { batch, befores, byPath };
    })());

  /** Path i of the CLI: planted, then its own `mongo-perf-lab` process. */
  async function cliPath(p, i) {
    const before = await plantFor(p, i);
    const args = p.cli.map((a) => (a === 'CSV' ? csv : a));
    const rot = i % KINDS.length;
    const more =
      args[0] === 'run'
        ? ['--keep', '--no-charts', '--out', path.join(tmp, `out${i}${rot}`)]
        : ['--rejects', path.join(tmp, `rej${i}${rot}.csv`)];
    const res = await runBin([...args, '--uri', uri, '--db', dbOf(i), '--no-progress', ...more], {
      cwd: tmp,
      env: { TMPDIR: tmp, LAB_RESULTS_DIR: path.join(tmp, 'results') },
    });
    const said = `exit ${res.code}\n${res.stdout.slice(-1500)}\n${res.stderr.slice(-1500)}`;
    if (res.code !== 0) {
      // The CLI's errors start with its name (its progress notes go to stderr too).
      const lines = res.stderr.split('\n').filter((l) => /^mongo-perf-lab/.test(l));
      expect(lines, `a refusal is one line\n${said}`).to.have.length(1);
      expect(res.stderr, `no stack trace\n${said}`).to.not.match(/^\s+at /m);
    }
    return { before, said };
  }

  /** A drop-in's path: its case of the batch. */
  async function scriptPath(p, i) {
    const { batch, befores, byPath } = await scriptBatch();
    const run = byPath.get(i);
    const said = `error ${JSON.stringify(run.error)}\n${run.stdout.slice(-1500)}\n(batch stderr) ${batch.stderr.slice(-1500)}`;
    if (run.error !== null) {
      // mongosh's own report of a script's error is the one line of its message.
      expect(
        run.error.split('\n').filter((l) => l.trim()),
        `a refusal is one line\n${said}`,
      ).to.have.length(1);
      expect(run.stdout + batch.stderr, `no stack trace\n${said}`).to.not.match(/^\s+at /m);
    }
    return { before: befores.get(i), said };
  }

  PATHS.forEach((p, i) => {
    const kinds = kindsOf(p, i);
    it(`${labelOf(p)}: ${p.names.map((n, k) => `${n}=${kinds[k]}`).join(', ')}`, async function () {
      const { before, said } = p.script ? await scriptPath(p, i) : await cliPath(p, i);
      const db = client.db(dbOf(i));
      for (const n of p.names)
        expect(await snapshot(db, n), `${n} after ${labelOf(p)}\n${said}`).to.deep.equal(before[n]);
      for (const n of p.names) {
        const marker = await db.collection(LabFixture.META).findOne({ _id: n });
        const [info] = await db.listCollections({ name: n }).toArray();
        expect(LabFixture.ownership(marker, info).state, `a lab marker grants ${n}`).to.not.equal('own');
      }
      expect(await db.listCollections({ name: 'system.js' }).toArray(), `system.js written\n${said}`).to.have.length(0);
    });
  });

  it('system.* and admin/local/config are never written: mr_store_functions.js with DB = "admin" refuses in one line', async function () {
    const res = await runCli('mr_store_functions.js', { uri, db: 'labtest_own_admin', params: { DB: 'admin', N: 10 } });
    expect(res.code).to.not.equal(0);
    expect(res.stderr.trim().split('\n')).to.have.length(1);
    expect(res.stderr).to.match(/belongs to MongoDB itself/);
    expect(await client.db('admin').listCollections({ name: 'system.js' }).toArray()).to.have.length(0);
    used.push('labtest_own_admin');
  });

  it('the map/reduce functions are stored only in a database the lab made, and found where the user stored them', async function () {
    const lab = 'labtest_own_mrlab';
    used.push(lab);
    await client.db(lab).dropDatabase();
    const mine = await runCli('mr_store_functions.js', { uri, db: lab, params: { N: 200 } });
    expect(mine.code, mine.stderr).to.equal(0);
    expect(mine.stdout).to.match(/saved in labtest_own_mrlab\.system\.js/);
    expect(mine.stdout).to.match(/all three agree/);

    // The user's database: refused before anything is written, until the user stores the functions.
    const theirs = 'labtest_own_mruser';
    used.push(theirs);
    const db = client.db(theirs);
    await db.dropDatabase();
    await db.collection('sensors').insertMany([{ engine_rpm: 900 }, { engine_rpm: 1000 }]);
    const refused = await runCli('mr_store_functions.js', { uri, db: theirs, params: {} });
    expect(refused.code).to.not.equal(0);
    expect(refused.stderr.trim().split('\n')).to.have.length(1);
    expect(refused.stderr).to.match(/not a database the lab made.*saveStatsFunctions\(db\)/);
    expect(await db.listCollections({ name: 'system.js' }).toArray()).to.have.length(0);
    // What the header of mr_functions.js tells the user to paste, in a fresh mongosh.
    const paste = path.join(tmp, 'paste.js');
    fs.writeFileSync(
      paste,
      `${fs.readFileSync(path.join(ROOT, 'scripts/mr_functions.js'), 'utf8')}\nsaveStatsFunctions(db);\n`,
    );
    expect((await runCli(paste, { uri, db: theirs, params: {} })).code).to.equal(0);
    const used2 = await runCli('mr_store_functions.js', { uri, db: theirs, params: {} });
    expect(used2.code, used2.stderr).to.equal(0);
    expect(used2.stdout).to.match(/all three agree/);
    expect(await db.collection('sensors').countDocuments()).to.equal(2);
  });

  it('import --append adds to a collection the lab did not make; without it, one line and nothing written', async function () {
    const name = 'labtest_own_append';
    used.push(name);
    const db = client.db(name);
    await db.dropDatabase();
    await db.collection('sensors').insertOne({ _id: 'users', x: 1 });
    const env = { TMPDIR: tmp };
    const no = await runBin(['import', csv, '--uri', uri, '--db', name, '--rejects', path.join(tmp, 'r1.csv')], {
      cwd: tmp,
      env,
    });
    expect(no.code).to.not.equal(0);
    expect(no.stderr).to.match(/--append/);
    expect(await db.collection('sensors').countDocuments()).to.equal(1);
    const yes = await runBin(
      ['import', csv, '--uri', uri, '--db', name, '--append', '--rejects', path.join(tmp, 'r2.csv')],
      { cwd: tmp, env },
    );
    expect(yes.code, yes.stderr).to.equal(0);
    expect(await db.collection('sensors').countDocuments()).to.equal(3);
    // Into a collection the lab creates, and again (the lab's own: re-import adds nothing twice).
    for (let k = 0; k < 2; k++) {
      const own = await runBin(
        ['import', csv, '--uri', uri, '--db', name, '--coll', 'fresh', '--rejects', path.join(tmp, 'r3.csv')],
        { cwd: tmp, env },
      );
      expect(own.code, own.stderr).to.equal(0);
    }
    expect(await db.collection('fresh').countDocuments()).to.equal(2);
  });
});
