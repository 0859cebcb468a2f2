'use strict';
// A mistyped parameter is refused before anything touches the server: through the real mongosh CLI,
// a typo in each drop-in script's main parameter is refused (a run of its own exits non-zero) with
// one line naming it and the nearest known name, and the database stays absent. The lab's CLI
// refuses a parameter, or a foreign collection under a derived name, of any chosen study before the
// first study works.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { useTestDatabase, lab } = require('./helpers');

// script -> [the typo, the name it should suggest]
const TYPOS = {
  'where_vs_agg.js': ['NN', 'N'],
  'bigagg.js': ['NN', 'N'],
  'counters_day.js': ['METRIC', 'METRICS'],
  'inserts_bulk.js': ['NN', 'N'],
  'inserts_joins.js': ['ORDER', 'ORDERS'],
  'inserts_race.js': ['NN', 'N'],
  'inserts_tasks.js': ['NN', 'N'],
  'mr_variants.js': ['NN', 'N'],
  'mr_store_functions.js': ['NN', 'N'],
  'ts_designs.js': ['NN', 'N'],
  'ts_hours_in_day.js': ['NN', 'N'],
  'ts_minutes_in_hour.js': ['NN', 'N'],
  'ts_seconds_in_minute.js': ['NN', 'N'],
  'agg_year.js': ['COL', 'COLL'],
  'sizes.js': ['COL', 'COLL'],
  'warmup.js': ['COL', 'COLL'],
  'warmup_data.js': ['COL', 'COLL'],
  'warmup_indexes.js': ['COL', 'COLL'],
};

describe('unknown parameters', function () {
  const t = useTestDatabase('typo');

  async function databaseExists(name) {
    const { databases } = await t.client.db('admin').admin().listDatabases({ nameOnly: true });
    return databases.some((d) => d.name === name);
  }

  // The nearest-name rule alone (no server): test/unit/params-typo.test.js.
  describe('through the real mongosh CLI', function () {
    // All the scripts in one mongosh process (test/helpers.js cliBatch), each on a database of its
    // own: a mongosh start per script was most of this file's time. A refusal is an error the script
    // throws, which a mongosh run of its own reports by exiting non-zero; the last script's error is
    // left uncaught, so the process shows that exit and how mongosh prints the line (no stack).
    const entries = Object.entries(TYPOS);
    const dbOf = (i) => `${t.dbName}_${i}`;
    let batch;
    before(async function () {
      this.timeout(600000);
      batch = await t.cliBatch(
        entries.map(([script, [typo]], i) => ({ script, db: dbOf(i), params: { [typo]: 5 } })),
        { lastUncaught: true },
      );
    });
    after(async function () {
      for (let i = 0; i < entries.length; i++)
        await t.client
          .db(dbOf(i))
          .dropDatabase()
          .catch(() => {});
    });

    entries.forEach(([script, [typo, near]], i) => {
      it(`${script}: ${typo} is refused (did you mean ${near}?), nothing written`, async function () {
        const last = i === entries.length - 1;
        const c = batch.cases[i];
        const out = `${c.stdout}\n${last ? batch.stderr : c.error || ''}`;
        if (last) expect(batch.code, out).to.not.equal(0);
        else expect(c.error, out).to.be.a('string');
        const line = out.split('\n').find((l) => l.includes(`parameter ${typo}:`));
        expect(line, out).to.be.a('string');
        expect(line).to.include(`did you mean ${near}?`);
        expect(line.length).to.be.below(120);
        expect(out).to.not.match(/^\s+at /m); // no stack trace
        expect(await databaseExists(dbOf(i)), `${dbOf(i)} was created`).to.equal(false);
      });
    });
  });

  it('an unknown VARIANTS name is refused before the fixture step: nothing generated', async function () {
    const s = await t.shell();
    const err = await s.run('where_vs_agg.js', { N: 200, RUNS: 0, VARIANTS: 'expr-fnd' }).catch((e) => e);
    expect(String(err && err.message)).to.match(/parameter VARIANTS: unknown variant "expr-fnd"/);
    expect(await t.db.listCollections().toArray()).to.deep.equal([]);
  });

  it('the lab CLI: a parameter the second study refuses is refused before the first runs, no PostgreSQL started, nothing written', async function () {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-typo-'));
    const db = `${t.dbName}_cli`;
    try {
      // VARIANTS=plain is one of where's variants and none of joins'.
      const args = ['run', 'where', 'joins', '--uri', t.uri, '--db', db, '--set', 'VARIANTS=plain', '--out', out];
      const { io, done } = lab(args, { env: { PG_URI: '' } });
      const r = await done;
      const text = `${io.out}\n${io.err}`;
      expect(r.code, text).to.equal(2);
      expect(io.err).to.match(/^mongo-perf-lab: parameter VARIANTS: unknown variant "plain"/m);
      expect(text).to.not.contain('=== where');
      expect(text).to.not.contain('PostgreSQL');
      expect(text).to.not.match(/^\s+at /m);
      expect(fs.readdirSync(out)).to.deep.equal([]);
      expect(await databaseExists(db), `${db} was created`).to.equal(false);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("the lab CLI: a foreign collection under the second study's derived name is refused before the first runs", async function () {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-typo-'));
    const db = t.client.db(`${t.dbName}_foreign`);
    try {
      await db.collection('perflab_tasks_claims').insertOne({ _id: 'theirs' });
      const args = ['run', 'where', 'tasks', '--uri', t.uri, '--db', db.databaseName, '--out', out];
      const { io, done } = lab(args, { env: { PG_URI: '' } });
      const r = await done;
      const text = `${io.out}\n${io.err}`;
      expect(r.code, text).to.not.equal(0);
      expect(io.err).to.match(/^mongo-perf-lab: .*perflab_tasks_claims/m);
      expect(text).to.not.contain('=== where');
      expect(text).to.not.contain('PostgreSQL');
      expect(fs.readdirSync(out)).to.deep.equal([]);
      const names = (await db.listCollections().toArray()).map((c) => c.name);
      expect(names).to.deep.equal(['perflab_tasks_claims']);
      expect(await db.collection('perflab_tasks_claims').find().toArray()).to.deep.equal([{ _id: 'theirs' }]);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
      await db.dropDatabase();
    }
  });

  it('in-process runs: a parameter of an earlier run is not taken for a typo in the next', async function () {
    const s = await t.shell();
    await s.run('where_vs_agg.js', { N: 200, RUNS: 0, VARIANTS: 'expr-find' }).catch((e) => e);
    let err = null;
    await s.run('sizes.js', {}).catch((e) => {
      err = e;
    });
    // sizes.js has no N: had the earlier run's N survived, it would be refused as unknown.
    expect(String(err && err.message)).to.not.match(/parameter N:/);
    await t.db.dropDatabase();
  });
});
