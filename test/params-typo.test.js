'use strict';
// A mistyped parameter is refused before anything touches the server: through the real mongosh CLI,
// a typo in each drop-in script's main parameter exits non-zero with one line naming it and the
// nearest known name, and the database stays absent.
const os = require('os');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const LabParams = require('../scripts/lib/params');

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
  let t;
  before(async function () { t = await testDatabase('typo'); });
  after(async function () { if (t) await t.close(); });

  async function databaseExists() {
    const { databases } = await t.client.db('admin').admin().listDatabases({ nameOnly: true });
    return databases.some((d) => d.name === t.dbName);
  }

  it('the nearest known name is suggested', function () {
    expect(LabParams.nearest('NN', ['RUNS', 'N', 'SEED'])).to.equal('N');
    expect(LabParams.nearest('RUN', ['RUNS', 'N', 'SEED'])).to.equal('RUNS');
    expect(() => LabParams.refuseUnknown(['RUNS', 'N'], ['N'], 'x')).to.not.throw();
    expect(() => LabParams.refuseUnknown(['WARMPU'], ['N'], 'x')).to.throw(/parameter WARMPU: x has no such parameter \(did you mean WARMUP\?\)/);
  });

  for (const [script, [typo, near]] of Object.entries(TYPOS)) {
    it(`${script}: ${typo} is refused (did you mean ${near}?), nothing written`, async function () {
      this.timeout(60000);
      const r = await t.cli(script, { [typo]: 5 }, { cwd: os.tmpdir(), timeoutMs: 45000 });
      const out = r.stdout + r.stderr;
      expect(r.code, out).to.not.equal(0);
      const line = out.split('\n').find((l) => l.includes(`parameter ${typo}:`));
      expect(line, out).to.be.a('string');
      expect(line).to.include(`did you mean ${near}?`);
      expect(line.length).to.be.below(120);
      expect(out).to.not.match(/^\s+at /m); // no stack trace
      expect(await databaseExists(), `${t.dbName} was created`).to.equal(false);
    });
  }

  it('in-process runs: a parameter of an earlier run is not taken for a typo in the next', async function () {
    const s = await t.shell();
    await s.run('where_vs_agg.js', { N: 200, RUNS: 0, VARIANTS: 'expr-find' }).catch((e) => e);
    let err = null;
    await s.run('sizes.js', {}).catch((e) => { err = e; });
    // sizes.js has no N: had the earlier run's N survived, it would be refused as unknown.
    expect(String(err && err.message)).to.not.match(/parameter N:/);
    await t.db.dropDatabase();
  });
});
