'use strict';
// Issue 18, the derived and scratch names: every collection a study or drop-in creates besides its
// fixture (rollups, per-minute buckets, time-series copies, per-compressor copies, workers' and
// limits' scratch, join inputs, claims, per-variant counters, map/reduce inserts...) may already be
// the user's. No list of those names is written here: each path first runs on an empty database
// with the server's profiler on, and every collection it created or wrote, but for its fixture, is
// a derived name; a name a study adds later is covered without editing this file. Then a foreign
// collection (documents and an index of the user's) stands under every such name and the path runs
// again: each foreign collection stays byte-identical (count, dbHash, indexes, options, UUID), no
// marker names it, and the run either refuses in one line naming it (that name is then left to the
// lab and the path runs again with the others) or finishes having named each one it worked around.
// A study's Node part declares those names (`derived(p)`) and its run checks them all before any
// work: every name its run writes must be declared, and a refusal of a declared name leaves nothing
// of the run's in the database (it came before the fixture).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { postgresDatabase, labRun, cliBatch, clientAndTmp } = require('./helpers');
const { ROOT } = require('../lib/core/shell-runner');
const { studies } = require('../lib/studies');
const { readDeclaration } = require('../lib/core/registry');
const LabFixture = require('../scripts/lib/fixture');

// Smaller than the tiny profile where the size does not change which collections a run makes: a
// path runs once per name here.
const SMALLER = {
  where: { N: 300, RUNS: 1 },
  bigagg: { N: 300, RUNS: 1 },
  timeseries: { N: 300 },
  tasks: { N: 300, CLAIM_N: 50, WRITERS: '1,2' },
  mapreduce: { N: 300, K: 2, RUNS: 1 },
  joins: { ORDERS: 300, CUSTOMERS: 30 },
  inserts: { N: 200, BULK_MB: '1', BULK_TRIES: 1 },
  // Its scratch collections are named by pattern (COLL_<pattern>, COLL_alone_<...>), never by the
  // keys, the entries' size or how many workers race.
  coherency: { N: 32, CHARS: 8, W: 2 },
  // SCAN_PAIRS: the scan creates every layout's collection (counters_micro_<layout>) before it times
  // any pair. SIZE_DAYS: both PREFIX size_<layout> collections are written at any length. IDREGEX,
  // WASH and PG_SIZE on (the tiny profile leaves them off): PREFIX idregex, PREFIX wash_* and PREFIX
  // size_* are written by nothing else.
  counters: {
    METRICS: 3,
    PER_MINUTE: 5,
    WRITERS: 1,
    RUNS: 1,
    SCAN_ROUNDS: 1,
    SCAN_PAIRS: 'flat-bulk',
    SIZE_DAYS: 1,
    IDREGEX: true,
    WASH: true,
    PG_SIZE: true,
  },
};

// On the CLI path only (a drop-in knows its own variants only). Coherency's transaction patterns
// race on a replica set the run starts for them: a server of its own, which this file's profiler
// does not watch, so leaving them out spares that start and hides no name written here. Every other
// variant, the shell's and the Node side's, still runs, those added later too.
const CLI_ONLY = {
  coherency: (s) => ({
    VARIANTS: variantNames(s)
      .filter((v) => !v.startsWith('txn-'))
      .join(','),
  }),
};

function variantNames(s) {
  return [...readDeclaration(s.script).variants, ...s.variants].map((v) => v.name);
}

// The study's own data (its COLL, as its script declares it) is the fixture the other safety tests
// plant under (test/safety-ownership.test.js); every other name a run writes is derived from it.
function fixtureName(script) {
  const m = /\bCOLL: \{ kind: 'name', def: '([^']+)'/.exec(fs.readFileSync(path.join(ROOT, 'scripts', script), 'utf8'));
  return m ? m[1] : null;
}

// A drop-in whose declaration lists the collections it derives checks them before any work.
function declaresDerived(script) {
  return /^ {2}derived: function/m.test(fs.readFileSync(path.join(ROOT, 'scripts', script), 'utf8'));
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every study through the CLI at its tiny profile, and its drop-in with the same values (but the
// profile's VARIANTS, which name the Node side's variants, and CLI_ONLY's).
const PATHS = studies.flatMap((s) => {
  const small = SMALLER[s.name] || {};
  const cliOnly = CLI_ONLY[s.name] ? CLI_ONLY[s.name](s) : {};
  const { VARIANTS, ...tiny } = s.profiles.tiny;
  const sets = Object.entries({ ...small, ...cliOnly }).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const fixture = fixtureName(s.script);
  return [
    {
      label: `mongo-perf-lab run ${s.name} --profile tiny`,
      cli: ['run', s.name, '--profile', 'tiny', ...sets],
      fixture,
      study: s,
    },
    {
      label: `mongosh ${s.script}`,
      script: s.script,
      params: { ...tiny, ...small },
      fixture,
      upfront: declaresDerived(s.script),
    },
  ];
});
// The longest a batch of drop-in runs may take (each of the two: every drop-in found, then every
// run against foreign collections).
const BATCH_MS = 900000;

// The operations that create or change a collection, as the profiler records them.
const WRITE_OPS = ['insert', 'update', 'remove'];
const WRITE_COMMANDS = ['create', 'createIndexes', 'drop', 'findAndModify', 'collMod', 'insert', 'update', 'delete'];

function collOf(ns) {
  return ns.slice(ns.indexOf('.') + 1);
}

// The collection an aggregate's $out/$merge or a mapReduce's out writes into (same database).
function outputOf(command) {
  const last = (command.pipeline || [])[Math.max(0, (command.pipeline || []).length - 1)] || {};
  const target = last.$out || (last.$merge && last.$merge.into) || (command.mapReduce && command.out);
  if (!target || target.inline) return null;
  if (typeof target === 'string') return target;
  return target.coll || target.replace || target.merge || target.reduce || null;
}

// Every collection the profiled operations wrote, the lab's markers and the server's own left out.
async function writtenNames(db) {
  const names = new Set();
  const ops = db.collection('system.profile').find({}, { projection: { op: 1, ns: 1, command: 1 } });
  for await (const op of ops) {
    const c = op.command || {};
    if (WRITE_OPS.includes(op.op)) names.add(collOf(op.ns));
    else if (op.op === 'command') {
      const verb = WRITE_COMMANDS.find((k) => typeof c[k] === 'string');
      if (verb) names.add(c[verb]);
      const out = outputOf(c);
      if (out) names.add(out);
    }
  }
  return [...names].filter((n) => n !== LabFixture.META && !n.startsWith('system.')).sort();
}

// The profiler, on before the path runs, records every write to the database (reads left out).
async function profileAll(db) {
  await db.createCollection('system.profile', { capped: true, size: 64 * 1024 * 1024 });
  await db.command({ profile: 2, filter: { op: { $in: [...WRITE_OPS, 'command'] } } });
}

// What "the user" made under a name: documents and an index of their own.
async function plant(db, name) {
  await db.createCollection(name);
  await db.collection(name).insertMany([
    { _id: 1, user: 'mine', name },
    { _id: 2, user: 'mine', at: new Date(0) },
  ]);
  await db.collection(name).createIndex({ user: 1 }, { name: 'users_own_index' });
}

// Everything that makes the user's collection what it is.
async function snapshot(db, name) {
  const [info] = await db.listCollections({ name }).toArray();
  if (!info) return null;
  const h = await db.command({ dbHash: 1, collections: [name] });
  return {
    count: await db.collection(name).countDocuments(),
    md5: h.collections[name],
    indexes: JSON.stringify(await db.collection(name).listIndexes().toArray()),
    options: JSON.stringify(info.options),
    uuid: LabFixture.identity(info),
  };
}

describe('safety: every derived and scratch name the lab makes, against a foreign collection under it', function () {
  this.timeout(600000);
  let uri;
  let client;
  let tmp;
  const used = [];
  const h = clientAndTmp('labtest-scratch-', used);

  before(function () {
    ({ uri, client, tmp } = h);
  });

  // A fresh database for one run of a path, with the foreign collections planted.
  async function freshDb(dbName, foreign) {
    used.push(dbName);
    const db = client.db(dbName);
    await db.dropDatabase();
    await profileAll(db);
    for (const n of foreign) await plant(db, n);
    return db;
  }

  // A CLI run gets a PostgreSQL database of its own for its SQL peer: the peers' tables have fixed
  // names, and another file runs beside this one (mocha --parallel).
  async function runPath(p, dbName) {
    const out = path.join(tmp, `out-${dbName}`);
    const pg = await postgresDatabase(dbName);
    try {
      return await labRun([...p.cli, '--uri', uri, '--db', dbName, '--no-progress', '--no-charts', '--out', out], {
        cwd: tmp,
        env: { TMPDIR: tmp, LAB_RESULTS_DIR: path.join(tmp, 'results'), ...(pg.uri ? { PG_URI: pg.uri } : {}) },
      }).done;
    } finally {
      await pg.close();
    }
  }

  // The CLI path on an empty database: the names it writes but for its fixture. A study's run
  // declares them (`derived(p)`, checked before any work): every name written must be declared.
  async function derivedNames(p, dbName) {
    const db = await freshDb(dbName, []);
    const res = await runPath(p, dbName);
    expect(res.code, `${p.label} on an empty database\n${res.stdout.slice(-1500)}\n${res.stderr}`).to.equal(0);
    const names = (await writtenNames(db)).filter((n) => n !== p.fixture);
    await db.dropDatabase();
    const doc = JSON.parse(fs.readFileSync(path.join(tmp, `out-${dbName}`, 'results.json'), 'utf8'));
    const params = doc.params[p.study.name];
    const shell = readDeclaration(p.study.script);
    const declared = [
      ...(p.study.derived ? p.study.derived(params) : []),
      ...(shell.derived
        ? shell.derived(
            params,
            shell.variants.map((v) => v.name),
          )
        : []),
    ];
    expect(
      names.filter((n) => !declared.includes(n)),
      `${p.label}: written, not declared by derived(p) or the script's derived(p, variants)`,
    ).to.deep.equal([]);
    return names;
  }

  // What a run left in the database besides the planted collections and the server's own.
  async function labNamesIn(dbName, foreign = []) {
    const all = await client.db(dbName).listCollections({}, { nameOnly: true }).toArray();
    return all.map((c) => c.name).filter((n) => !foreign.includes(n) && !n.startsWith('system.'));
  }

  // A fresh database with `foreign` planted; resolves what each of them is before the run.
  async function planted(dbName, foreign) {
    const db = await freshDb(dbName, foreign);
    const before = {};
    for (const n of foreign) before[n] = await snapshot(db, n);
    return before;
  }

  // After one run with `foreign` planted: each is left as it was and no marker names it; resolves
  // the names the run refused (one line) or, when it finished, null. `res` is a CLI's {code, stdout,
  // stderr}, or a drop-in's case of a batch (byCase below), whose refusal is the error it threw.
  async function judged(p, dbName, foreign, before, res) {
    const db = client.db(dbName);
    const left = p.study ? await labNamesIn(dbName, foreign) : [];
    const said = `${p.label}, ${p.script ? `error ${JSON.stringify(res.error)}` : `exit ${res.code}`}\n${res.stdout.slice(-1500)}\n${res.stderr.slice(-1500)}`;
    for (const n of foreign) {
      expect(await snapshot(db, n), `${n} after ${said}`).to.deep.equal(before[n]);
      const marker = await db.collection(LabFixture.META).findOne({ $or: [{ _id: n }, { uuid: before[n].uuid }] });
      expect(marker, `a lab marker names ${n}\n${said}`).to.equal(null);
    }
    await db.dropDatabase();
    if (res.code === 0) {
      // a drop-in's own output only: the batch's stderr is every case's (the scripts print to stdout)
      const text = p.script ? res.stdout : `${res.stdout}\n${res.stderr}`;
      for (const n of foreign) expect(text, `${n} worked around without a word\n${said}`).to.contain(n);
      return null;
    }
    // The CLI's errors start with its name (its progress notes go to stderr too). mongosh prints a
    // drop-in's uncaught error as its name and message, then on lines of their own what the error
    // carries besides (errInfo, result, ...: `more`).
    const lines = p.script
      ? res.error.split('\n').filter((l) => l.trim())
      : res.stderr.split('\n').filter((l) => /^mongo-perf-lab/.test(l));
    expect(lines, `a refusal is one line\n${said}`).to.have.length(1);
    if (p.script) expect(res.more, `a refusal is one line: mongosh prints more of it\n${said}`).to.deep.equal([]);
    expect(res.stderr, `no stack trace\n${said}`).to.not.match(/^\s+at /m);
    // A name followed by what ends it: perflab_ins_shell is not named by perflab_ins_shell_unordered.
    const named = foreign.filter((n) => new RegExp(`${escapeRe(`${dbName}.${n}`)}(?=[,: ]|$)`).test(lines[0]));
    expect(named, `the refusal names a foreign collection\n${said}`).to.have.length.greaterThan(0);
    // A study's run refuses a declared name before any work: nothing of its own was written.
    if (p.study) expect(left, `written before the refusal\n${said}`).to.deep.equal([]);
    return named;
  }

  // A study's run checks each derived name before any work and names every foreign one in its one
  // line: all planted at once, the line must name them all.
  async function cliPath(p, i) {
    const names = await derivedNames(p, `labtest_scratch_${i}_found`);
    if (!names.length) return { refused: [], around: [] };
    const dbName = `labtest_scratch_${i}_all`;
    const before = await planted(dbName, names);
    const said = await judged(p, dbName, names, before, await runPath(p, dbName));
    expect(said, `${p.label}: one refusal naming each of ${names.join(', ')}`).to.have.members(names);
    return { refused: said, around: [] };
  }

  // The drop-ins' runs go through two real mongosh processes (cliBatch in test/helpers.js), not one
  // each (a mongosh start is ~1.1-1.5 s of CPU, 10-30 s of wall at a load of 20): first every
  // drop-in on an empty database of its own, then every run against foreign collections, each on a
  // database of its own, planted before the batch starts. The profiler and the plants are per
  // database, so each run is still profiled and judged alone; each case runs as a fresh mongosh
  // would see it (cliBatch), and what a run of its own printed on stderr is the error it threw.
  let dropIns = null;
  const dropInRuns = () => (dropIns ||= runDropIns());

  // Runs [{p, dbName, ...}] as one batch; resolves each with its case, read as a run of its own
  // (code 0 when it ran through, else 1) beside the process's exit code and stderr (every case's).
  async function byCase(runs) {
    if (!runs.length) return [];
    const batch = await cliBatch(
      uri,
      runs.map((r) => ({ script: r.p.script, db: r.dbName, params: r.p.params })),
      { cwd: tmp, timeoutMs: BATCH_MS },
    );
    return runs.map((r, k) => {
      const c = batch.cases[k];
      return { ...r, ...c, code: c.error === null ? 0 : 1, stderr: batch.stderr, batchCode: batch.code };
    });
  }

  async function runDropIns() {
    const paths = PATHS.map((p, i) => ({ p, i })).filter(({ p }) => p.script);
    for (const { i } of paths) await freshDb(`labtest_scratch_${i}_found`, []);
    const found = await byCase(paths.map(({ p, i }) => ({ p, i, dbName: `labtest_scratch_${i}_found` })));
    const runs = [];
    for (const f of found) {
      const db = client.db(f.dbName);
      f.names = f.reached && f.code === 0 ? (await writtenNames(db)).filter((n) => n !== f.p.fixture) : [];
      await db.dropDatabase();
      // A drop-in that declares its derived names checks them all before any work: all planted at
      // once. Any other stops at the first foreign collection it meets, so each name needs a run of
      // its own to be reached.
      const sets = f.p.upfront ? (f.names.length ? [f.names] : []) : f.names.map((n) => [n]);
      for (const [j, foreign] of sets.entries()) {
        const dbName = `labtest_scratch_${f.i}_${f.p.upfront ? 'all' : j}`;
        runs.push({ p: f.p, i: f.i, dbName, foreign, before: await planted(dbName, foreign) });
      }
    }
    return { found, against: await byCase(runs) };
  }

  // Each case must have been reached and its process must have ended by itself: a mongosh killed
  // or crashed part-way leaves the cases after it empty, which would read as runs that wrote nothing.
  function ranThrough(r) {
    expect(
      r.reached && r.batchCode === 0,
      `${r.p.label} on ${r.dbName}: batch exit ${r.batchCode}\n${r.stderr}`,
    ).to.equal(true);
  }

  async function dropInPath(p, i) {
    const { found, against } = await dropInRuns();
    const f = found.find((r) => r.i === i);
    ranThrough(f);
    expect(f.code, `${p.label} on an empty database\n${f.stdout.slice(-1500)}\n${f.error}`).to.equal(0);
    const refused = [];
    const around = [];
    for (const r of against.filter((x) => x.i === i)) {
      ranThrough(r);
      const said = await judged(p, r.dbName, r.foreign, r.before, r);
      if (p.upfront) {
        expect(said, `${p.label}: one refusal naming each of ${r.foreign.join(', ')}`).to.have.members(r.foreign);
        refused.push(...said);
      } else (said ? refused : around).push(r.foreign[0]);
    }
    return { refused, around };
  }

  PATHS.forEach((p, i) => {
    it(`${p.label}: every name it derives, foreign`, async function () {
      // the first drop-in waits for every drop-in's runs
      if (p.script) this.timeout(2 * BATCH_MS + 600000);
      const { refused, around } = await (p.script ? dropInPath(p, i) : cliPath(p, i));
      refused.sort();
      this.test.title += ` [refused: ${refused.join(', ') || '-'}; worked around: ${around.join(', ') || '-'}]`;
    });
  });
});
