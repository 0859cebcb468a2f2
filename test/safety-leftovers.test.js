'use strict';
// Nothing left on a user's server (issues #38 item 3, #36 item 5). Each path that used to leave
// something runs against "the user's" database and the server is compared before and after: the
// databases (this file's), and in the user's database every collection with its UUID, count, indexes
// and data hash (dbHash). Through the real CLI and the real mongosh CLI:
//   - `findings --servers URI --db NEW` drops the database it created;
//   - `run <study> --db shop` on an existing database drops what it made there, and its `server:`
//     line names the database; with --keep it keeps them and names them in one line with the
//     command that removes them, and that command (`clean`) removes them and only them;
//   - the drop-ins ts_designs.js and inserts_joins.js on a user's database drop what they made at
//     their end; KEEP = true keeps it, named in one line; `clean` removes it;
//   - a run refused on a forged marker writes nothing: the user's own perflab_fixtures untouched.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { testUri, labRun } = require('./helpers');
const { runCli } = require('../lib/core/shell-runner');

const PREFIX = 'labtest_left_';

/** The user's data: two collections of their own, one with an index of theirs. */
async function plantUser(db) {
  await db.dropDatabase();
  await db.collection('orders').insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, cents: i * 7 })));
  await db.collection('orders').createIndex({ cents: 1 }, { name: 'users_cents' });
  await db.collection('customers').insertMany([{ _id: 'a' }, { _id: 'b' }]);
}

/** This file's databases, and everything that makes `dbName` what it is. */
async function serverState(client, dbName) {
  const dbs = (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases
    .map((d) => d.name)
    .filter((n) => n.startsWith(PREFIX))
    .sort();
  const db = client.db(dbName);
  const infos = await db.listCollections().toArray();
  const hash = infos.length ? (await db.command({ dbHash: 1 })).collections : {};
  const colls = {};
  for (const info of infos.sort((a, b) => a.name.localeCompare(b.name))) {
    const plain = !info.type || info.type === 'collection';
    colls[info.name] = {
      type: info.type,
      uuid: info.info && info.info.uuid ? info.info.uuid.toString('hex') : null,
      options: JSON.stringify(info.options),
      count: plain ? await db.collection(info.name).countDocuments() : null,
      indexes: plain ? JSON.stringify(await db.collection(info.name).listIndexes().toArray()) : null,
      md5: hash[info.name] || null,
    };
  }
  return { dbs, colls };
}

const run = (args, tmp) =>
  labRun(args, { cwd: tmp, env: { TMPDIR: tmp, LAB_RESULTS_DIR: path.join(tmp, 'results') } }).done;
// A message of the lab's as one line: its continuation lines (indented by two) joined back.
// A command continued with a backslash (a deep checkout's long path) is joined too.
const flat = (text) => text.replace(/ \\\n {4}/g, ' ').replace(/\n {2}/g, ' ');
const said = (r) => `exit ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`;

describe('safety: nothing left on a user server', function () {
  this.timeout(600000);
  let uri;
  let client;
  let tmp;
  const shell = (script, dbName, params) =>
    runCli(script, { uri, db: dbName, params: { RUNS: 1, WARMUP: 0, ...params }, cwd: tmp });

  before(async function () {
    uri = testUri();
    client = await MongoClient.connect(uri);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labtest-left-'));
  });

  after(async function () {
    const dbs = (await client.db('admin').admin().listDatabases({ nameOnly: true })).databases;
    for (const d of dbs.filter((x) => x.name.startsWith(PREFIX))) await client.db(d.name).dropDatabase();
    await client.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('findings --servers URI --db NEW drops the database it created', async function () {
    const name = `${PREFIX}findings_new`;
    await client.db(name).dropDatabase();
    const before = await serverState(client, name);
    const r = await run(
      ['findings', 'where', '--profile', 'tiny', '--servers', uri, '--db', name, '--out', path.join(tmp, 'f1'), '-q'],
      tmp,
    );
    expect(r.code, said(r)).to.equal(0);
    expect(await serverState(client, name)).to.deep.equal(before);
    expect(r.stderr).to.match(new RegExp(`dropped database ${name}, which this run created`));
  });

  it('run <study> --db on an existing database: what it made is dropped, the server line names the database', async function () {
    const name = `${PREFIX}shop`;
    await plantUser(client.db(name));
    const before = await serverState(client, name);
    const r = await run(
      ['run', 'where', '--profile', 'tiny', '--uri', uri, '--db', name, '--no-charts', '--no-progress'],
      tmp,
    );
    expect(r.code, said(r)).to.equal(0);
    expect(await serverState(client, name)).to.deep.equal(before);
    expect(r.stderr).to.match(new RegExp(`^server: .*, database ${name}( |$)`, 'm'));
    const lines = flat(r.stderr)
      .split('\n')
      .filter((l) => /dropped what this run made|left in/.test(l));
    expect(lines, said(r)).to.have.length(1);
    expect(lines[0]).to.match(/dropped what this run made in \S+: mine, perflab_fixtures/);
  });

  it("run --keep keeps and names them in one line; `clean` then removes only the lab's", async function () {
    const name = `${PREFIX}keep`;
    await plantUser(client.db(name));
    const before = await serverState(client, name);
    const r = await run(
      ['run', 'where', '--profile', 'tiny', '--uri', uri, '--db', name, '--no-charts', '--no-progress', '--keep'],
      tmp,
    );
    expect(r.code, said(r)).to.equal(0);
    const kept = await serverState(client, name);
    expect(Object.keys(kept.colls)).to.include.members(['mine', 'perflab_fixtures']);
    for (const user of ['orders', 'customers']) expect(kept.colls[user]).to.deep.equal(before.colls[user]);
    const line = flat(r.stderr)
      .split('\n')
      .filter((l) => /left in /.test(l));
    expect(line, said(r)).to.have.length(1);
    expect(line[0]).to.match(
      /the lab's mine, perflab_fixtures; remove them with: .*mongo-perf-lab(\.js)? clean --uri \S+ --db /,
    );
    // A run without --keep on what the first kept: it names what is still there (made earlier).
    const again = await run(
      ['run', 'where', '--profile', 'tiny', '--uri', uri, '--db', name, '--no-charts', '--no-progress', '-q'],
      tmp,
    );
    expect(again.code, said(again)).to.equal(0);
    expect(flat(again.stderr)).to.match(
      /left in \S+ \(made by an earlier run, kept with --keep\): the lab's mine, perflab_fixtures/,
    );
    // The advised command, as printed (with this server's address).
    const advised = /mongo-perf-lab(?:\.js)? (clean --uri \S+ --db \S+)$/.exec(line[0])[1].split(' ');
    const c = await run(advised, tmp);
    expect(c.code, said(c)).to.equal(0);
    expect(c.stdout).to.match(/clean: dropped from \S+: mine, perflab_fixtures/);
    expect(c.stdout).to.match(/left alone, no lab marker names them: (orders, customers|customers, orders)/);
    expect(await serverState(client, name)).to.deep.equal(before);
  });

  it('run <study> --db on an existing database, interrupted (SIGINT) mid-load: what it made is dropped all the same', async function () {
    const name = `${PREFIX}intr`;
    await plantUser(client.db(name));
    const before = await serverState(client, name);
    const r = labRun(
      ['run', 'where', '--uri', uri, '--db', name, '--docs', '400000', '--runs', '1', '--no-progress', '--no-charts'],
      { cwd: tmp, env: { TMPDIR: tmp, LAB_RESULTS_DIR: path.join(tmp, 'results') } },
    );
    // Once the lab's collection exists (the load has begun), then a little later.
    const t0 = Date.now();
    while (Date.now() - t0 < 120000) {
      if ((await client.db(name).listCollections({ name: 'mine' }).toArray()).length) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await new Promise((res) => setTimeout(res, 500));
    r.child.kill('SIGINT');
    const done = await r.done;
    expect(done.code, said(done)).to.equal(130);
    expect(flat(done.stderr)).to.match(/dropped what this run made in \S+: mine, perflab_fixtures/);
    expect(await serverState(client, name)).to.deep.equal(before);
  });

  it('ts_designs.js on a user database drops its derived collections at its end (KEEP = true keeps and names them)', async function () {
    const name = `${PREFIX}random`;
    await plantUser(client.db(name));
    const before = await serverState(client, name);
    const params = { N: 300, GRAINS: 'hours' };
    const r = await shell('ts_designs.js', name, params);
    expect(r.code, said(r)).to.equal(0);
    expect(flat(r.stdout)).to.match(/dropped what this run made in \S+: randomData, .*randomData_ts.*perflab_fixtures/);
    expect(await serverState(client, name)).to.deep.equal(before);

    const k = await shell('ts_designs.js', name, { ...params, KEEP: true });
    expect(k.code, said(k)).to.equal(0);
    const line = flat(k.stdout)
      .split('\n')
      .filter((l) => /left in /.test(l));
    expect(line, said(k)).to.have.length(1);
    for (const n of ['randomData_ts', 'randomData_rollup_hour', 'randomData_rollup_minute', 'randomData_bucket_minute'])
      expect(line[0]).to.include(n);
    expect(line[0]).to.match(
      /\(KEEP = true\).*: node \S+\/bin\/mongo-perf-lab\.js clean --uri \S+ --db labtest_left_random$/,
    );
    const kept = await serverState(client, name);
    expect(Object.keys(kept.colls)).to.include.members(['randomData_ts', 'perflab_fixtures']);
    // The advised command, its own line as printed, run through a shell.
    const lines = k.stdout.split('\n');
    const at = lines.findIndex((l) => /^ {2}\S.* clean( --uri | \\$)/.test(l));
    const advised = lines[at].endsWith('\\') ? `${lines[at]}\n${lines[at + 1]}` : lines[at];
    const c = spawnSync('sh', ['-c', advised], { cwd: tmp, encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
    expect(c.status, `${advised}\n${c.stdout}\n${c.stderr}`).to.equal(0);
    expect(c.stdout).to.match(/clean: dropped from \S+: randomData, /);
    expect(await serverState(client, name)).to.deep.equal(before);
  });

  it('inserts_joins.js on a user database drops perflab_join_orders and _customers at its end', async function () {
    const name = `${PREFIX}joins`;
    await plantUser(client.db(name));
    const before = await serverState(client, name);
    const r = await shell('inserts_joins.js', name, { ORDERS: 300, CUSTOMERS: 30 });
    expect(r.code, said(r)).to.equal(0);
    expect(flat(r.stdout)).to.match(
      /dropped what this run made in \S+: perflab_join_orders, perflab_join_customers, perflab_fixtures/,
    );
    expect(await serverState(client, name)).to.deep.equal(before);
  });

  it("a run refused on a forged marker writes nothing: the user's own perflab_fixtures is untouched", async function () {
    const name = `${PREFIX}forged`;
    const db = client.db(name);
    await plantUser(db);
    // The user's own randomData_ts, and a perflab_fixtures of theirs with a marker naming another UUID.
    await db.collection('randomData_ts').insertOne({ _id: 1, mine: true });
    await db.collection('perflab_fixtures').insertMany([
      { _id: 'randomData_ts', uuid: '0123456789abcdef0123456789abcdef', complete: true },
      { _id: 'notes', text: 'the user keeps notes here' },
    ]);
    const before = await serverState(client, name);
    const r = await shell('ts_designs.js', name, { N: 300, GRAINS: 'hours' });
    expect(r.code, said(r)).to.not.equal(0);
    expect(r.stderr).to.match(/randomData_ts is not the collection the lab made/);
    expect(await serverState(client, name)).to.deep.equal(before);
    // The CLI on the same database refuses the same way, and writes nothing either.
    const c = await run(
      ['run', 'timeseries', '--profile', 'tiny', '--uri', uri, '--db', name, '--no-charts', '--no-progress'],
      tmp,
    );
    expect(c.code, said(c)).to.not.equal(0);
    expect(await serverState(client, name)).to.deep.equal(before);
    // clean touches none of it: nothing there is provably the lab's.
    const k = await run(['clean', '--uri', uri, '--db', name], tmp);
    expect(k.code, said(k)).to.equal(0);
    expect(k.stdout).to.match(/nothing in \S+ is provably the lab's/);
    expect(k.stdout).to.match(/left alone \S+\.perflab_fixtures: the lab cannot prove it made it/);
    expect(await serverState(client, name)).to.deep.equal(before);
  });

  it('clean drops only what the lab can prove it made, and names what it refused', async function () {
    const name = `${PREFIX}clean`;
    const db = client.db(name);
    await plantUser(db);
    const before = await serverState(client, name);
    const k = await shell('inserts_joins.js', name, { ORDERS: 200, CUSTOMERS: 20, KEEP: true });
    expect(k.code, said(k)).to.equal(0);
    // The user then writes a marker of their own into the lab's perflab_fixtures for their orders.
    await db.collection('perflab_fixtures').insertOne({ _id: 'orders', uuid: '0123456789abcdef0123456789abcdef' });
    const c = await run(['clean', '--uri', uri, '--db', name], tmp);
    expect(c.code, said(c)).to.equal(0);
    expect(c.stdout).to.match(/dropped from \S+: perflab_join_orders, perflab_join_customers, perflab_fixtures/);
    expect(c.stdout).to.match(/left alone \S+\.orders: is not the collection the lab made/);
    expect(await serverState(client, name)).to.deep.equal(before);
    // Refused in one line, exit 2: MongoDB's own databases, and no database named.
    const adm = await run(['clean', '--uri', uri, '--db', 'admin'], tmp);
    expect(adm.code).to.equal(2);
    expect(adm.stderr.split('\n').filter((l) => /^mongo-perf-lab:/.test(l))).to.have.length(1);
    const none = await run(['clean', '--uri', uri], tmp);
    expect(none.code).to.equal(2);
    expect(none.stderr).to.match(/clean: name the database with --db NAME/);
  });
});
