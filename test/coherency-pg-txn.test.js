'use strict';
// 002-coherency-acid's racers: PostgreSQL sessions racing check-then-insert with each entry's check
// and insert in ONE transaction (BEGIN; SELECT by key; INSERT when absent; COMMIT), at READ
// COMMITTED (the server's default: both racers can read 'absent' and both insert, no unique index)
// and at SERIALIZABLE (a loser's transaction fails, is rolled back and retried: 0 duplicates). On
// the real embedded PostgreSQL (or a database of this file's own on the suite's shared PG_URI).
const { expect } = require('chai');
const { useTestDatabase, postgresDatabase } = require('./helpers');
const { tryPostgres } = require('../lib/infra/postgres');
const pgPeer = require('../lib/studies/source-002/pg-peer');
const { findStudy } = require('../lib/studies');
const claims = require('../lib/core/claims');

const results = (records) => records.filter((r) => r.type === 'result' && !r.skipped);
const acid = (records, env) =>
  claims.judge(findStudy('coherency'), records, env).find((c) => c.id === '002-coherency-acid');

/** The race table counted by a session of the test's own: rows, distinct keys, rows - distinct keys. */
async function independentCount(pgs) {
  const c = await pgs.connect();
  try {
    const r = await c.query(
      'SELECT count(*) AS docs, count(DISTINCT key) AS keys, count(*) - count(DISTINCT key) AS dups FROM perflab.race',
    );
    return { docs: Number(r.rows[0].docs), keys: Number(r.rows[0].keys), duplicates: Number(r.rows[0].dups) };
  } finally {
    await c.end();
  }
}

describe('coherency: PostgreSQL racers with the check and the insert in one transaction', function () {
  const t = useTestDatabase('coherency_pg_txn');
  let pgs = null;
  let own = null;
  const savedUri = process.env.PG_URI;
  before(async function () {
    // the suite's shared server: a database of this file's own (the race table has a fixed name)
    own = await postgresDatabase('coherency_pg_txn');
    if (own.uri) process.env.PG_URI = own.uri;
    const r = await tryPostgres();
    if (!r.pgs) {
      process.stderr.write(`      (${r.note})\n`);
      this.skip();
    }
    pgs = r.pgs;
    // the study's runs below use this server too (getPostgres prefers PG_URI)
    process.env.PG_URI = pgs.uri;
  });
  after(async function () {
    if (savedUri === undefined) delete process.env.PG_URI;
    else process.env.PG_URI = savedUri;
    if (pgs) await pgs.stop();
    if (own) await own.close();
  });

  it('READ COMMITTED in one transaction duplicates; every committed insert is a row; the isolation read inside', async function () {
    const r = await pgPeer.race(pgs, { n: 256, chars: 128, seed: 3, W: 8, pattern: 'txn-check-then-insert' });
    expect(r.isolation).to.equal('read committed');
    expect(r.keys, 'every key present').to.equal(256);
    expect(r.inserted, 'inserts committed = rows').to.equal(r.docs);
    expect(await independentCount(pgs)).to.deep.equal({ docs: r.docs, keys: 256, duplicates: r.duplicates });
    // the window spans the check, the insert and the commit: 8 racers over 256 keys always overlap
    expect(r.duplicates).to.be.greaterThan(0);
    expect(r.failures).to.equal(0);
  });

  it('SERIALIZABLE: 0 duplicates, serialization failures counted (rolled back, inserting nothing, retried)', async function () {
    const r = await pgPeer.race(pgs, { n: 128, chars: 128, seed: 3, W: 6, pattern: 'txn-serializable' });
    expect(r.isolation).to.equal('serializable');
    expect(r).to.include({ docs: 128, keys: 128, duplicates: 0, inserted: 128 });
    expect(await independentCount(pgs)).to.deep.equal({ docs: 128, keys: 128, duplicates: 0 });
    expect(r.failures).to.be.a('number').and.at.least(0);
  });

  it('an unknown pattern is refused before any table is touched', async function () {
    let err = null;
    await pgPeer.race(pgs, { n: 4, chars: 8, seed: 3, W: 1, pattern: 'txn-nope' }).catch((e) => (err = e));
    expect(err && err.message).to.match(/unknown SQL race pattern txn-nope/);
  });

  describe('through the study runner, and 002-coherency-acid on its records', function () {
    let run;
    before(async function () {
      run = await t.study('coherency', {
        N: 128,
        CHARS: 128,
        W: 4,
        MODE: 'connections',
        RUNS: 1,
        WARMUP: 0,
        VARIANTS: 'check-then-insert,pg-check-then-insert,pg-txn-check-then-insert,pg-txn-serializable',
      });
    });

    it('the records carry the shape, the isolation read back and the duplicates as rows - keys', function () {
      const rs = results(run.records);
      const rc = rs.find((r) => r.variant === 'pg-txn-check-then-insert');
      const ser = rs.find((r) => r.variant === 'pg-txn-serializable');
      const auto = rs.find((r) => r.variant === 'pg-check-then-insert');
      for (const r of [rc, ser, auto]) {
        expect(r, 'raced').to.not.equal(undefined);
        expect(r.agrees, `${r.variant}: every key there`).to.equal(true);
        expect(r.extra.duplicates).to.equal(r.extra.docs - 128);
        expect(r.extra.duplicatesPerRun).to.deep.equal([r.extra.duplicates]);
      }
      expect(rc.extra).to.include({ isolation: 'read committed', transaction: 'one per check+insert', W: 4 });
      expect(rc.extra.txn).to.match(/^transaction: BEGIN ISOLATION LEVEL READ COMMITTED; SELECT by key; INSERT/);
      expect(rc.extra.serializationFailures).to.equal(0);
      expect(ser.extra).to.include({ isolation: 'serializable', transaction: 'one per check+insert', duplicates: 0 });
      expect(ser.extra.txn).to.match(/^transaction: BEGIN ISOLATION LEVEL SERIALIZABLE/);
      expect(ser.extra.serializationFailures).to.be.a('number');
      expect(auto.extra.txn).to.match(/^autocommit/);
      expect(auto.extra.transaction).to.equal('one per statement (autocommit)');
    });

    it('the rule: FAILS on a READ COMMITTED transaction race that duplicated; SERIALIZABLE beside, never judged', function () {
      // the machine's part is replaced by a quiet one of enough cores (2 shared cores here); the rule
      // has no core gate (one ACID race that duplicates is enough), so the verdict is the same without
      const quiet = run.records.map((r) =>
        r.type === 'result' ? { ...r, loadavg: { start: 0.1, end: 0.1, cores: 8, cpuWait: 0 } } : r,
      );
      const env = { host: { cores: 8, usableCores: 8 } };
      // at 4 racers x 128 keys a race may end without a duplicate: the record says one (unit-level edit)
      const dupd = quiet.map((r) =>
        r.variant === 'pg-txn-check-then-insert' && r.type === 'result'
          ? { ...r, extra: { ...r.extra, duplicates: 3, duplicatesPerRun: [Math.max(3, r.extra.duplicates)] } }
          : r,
      );
      const v = acid(dupd, env);
      expect(v.verdict).to.equal(claims.VERDICT.FAILS);
      expect(v.setting.ok).to.equal(true);
      expect(v.setting.here).to.match(
        /1 PostgreSQL race with the check and the insert in one transaction \(read committed\)/,
      );
      expect(v.why).to.match(/an ACID store duplicated/);
      expect(v.figure).to.match(
        /PostgreSQL, check and insert in one transaction \(READ COMMITTED\): \d+ duplicates in 1 race/,
      );
      expect(v.figure).to.match(/SERIALIZABLE beside: 0 duplicates in 1 race, \d+ serialization failures/);
      expect(acid(dupd, {}).verdict, 'no core gate').to.equal(claims.VERDICT.FAILS);
      // the records as measured: FAILS when the race duplicated, else one race decides nothing
      const real = acid(quiet, env);
      const d = results(quiet).find((r) => r.variant === 'pg-txn-check-then-insert').extra.duplicates;
      expect(real.verdict).to.equal(d > 0 ? claims.VERDICT.FAILS : claims.VERDICT.INCONCLUSIVE);
      // a record holds one race per round: the figure and the setting count races, not records
      const rounds = dupd.map((r) =>
        r.variant === 'pg-txn-check-then-insert' && r.type === 'result'
          ? { ...r, extra: { ...r.extra, duplicatesPerRun: [3, 4, 5, 6] } }
          : r,
      );
      const four = acid(rounds, env);
      expect(four.figure).to.match(/\(READ COMMITTED\): 3, 4, 5, 6 duplicates in 4 races/);
      expect(four.setting.here).to.match(/^4 PostgreSQL races with the check and the insert/);
      expect(four.why).to.match(/18 extra rows in 4 races/);
      // SERIALIZABLE alone is never judged, even with duplicates recorded
      const serOnly = dupd
        .filter((r) => r.variant !== 'pg-txn-check-then-insert')
        .map((r) => (r.variant === 'pg-txn-serializable' ? { ...r, extra: { ...r.extra, duplicatesPerRun: [5] } } : r));
      const s = acid(serOnly, env);
      expect(s.verdict).to.equal(claims.VERDICT.UNSUPPORTED);
      expect(s.why).to.match(/pg-txn-check-then-insert and pg-txn-serializable, which did not race/);
      // a transaction record whose isolation is not READ COMMITTED is not the judged race
      const rr = dupd.map((r) =>
        r.variant === 'pg-txn-check-then-insert' ? { ...r, extra: { ...r.extra, isolation: 'repeatable read' } } : r,
      );
      expect(acid(rr, env).verdict).to.equal(claims.VERDICT.UNSUPPORTED);
      // the autocommit racer alone (the documented files): unsupported by source, as before
      const autoOnly = quiet.filter((r) => !/^pg-txn-/.test(r.variant));
      expect(acid(autoOnly, env).verdict).to.equal(claims.VERDICT.UNSUPPORTED);
    });
  });
});
