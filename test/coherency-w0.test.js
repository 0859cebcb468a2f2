'use strict';
// 002-coherency's writer: the source's racers wrote with PyMongo < 2.4's Connection (inferred:
// unacknowledged, w: 0). check-then-insert-w0 races that writer on the real embedded mongod: each
// racer checks (findOne by key), inserts with writeConcern {w: 0}, and ends with a ping on its own
// connection, so the server has applied its inserts before they are counted.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { useTestDatabase, labCli, tinyArgs } = require('./helpers');
const { runWorkers } = require('../lib/studies/source-002/insert-workers');
const { checkInserted } = require('../lib/studies/coherency/races');
const { findStudy } = require('../lib/studies');
const { readResults } = require('../lib/core/results');
const claims = require('../lib/core/claims');

const W0 = 'check-then-insert-w0';
const N = 128;

/** The collection counted another way than the study's $group: every document, every distinct key. */
async function independentCount(coll) {
  const docs = await coll.countDocuments({});
  const keys = (await coll.distinct('key')).length;
  return { docs, keys, duplicates: docs - keys };
}

const results = (records) => records.filter((r) => r.type === 'result' && !r.skipped);
const judged = (records, env) =>
  claims.judge(findStudy('coherency'), records, env).find((c) => c.id === '002-coherency');

describe('coherency: the w: 0 racer (check-then-insert-w0, the source inferred writer)', function () {
  const t = useTestDatabase('coherency_w0');

  for (const mode of ['connections', 'processes']) {
    it(`${mode}: every insert sent is in the collection after the barriers; duplicates = documents - keys`, async function () {
      const name = `w0_${mode}`;
      const coll = t.db.collection(name);
      await coll.drop().catch(() => {});
      await coll.createIndex({ key: 1 });
      const job = { kind: 'race', db: t.dbName, coll: name, pattern: W0, n: N, chars: 128, seed: 5 };
      const r = await runWorkers({ uri: t.uri, mode, W: 4, job });
      // the barrier (a ping per racer) has returned: the count is final, no waiting for it to settle
      const c = await independentCount(coll);
      const sent = r.results.reduce((a, x) => a + x.inserted, 0);
      expect(c.keys, 'every key present').to.equal(N);
      expect(sent, 'inserts sent = documents stored').to.equal(c.docs);
      expect(c.duplicates).to.be.at.least(0);
      for (const x of r.results) expect(x.ops, 'one timed entry per key').to.equal(N);
      // each racer's own client, one connection (read from the client the racer used)
      for (const x of r.results) expect(x.maxPoolSize, 'a pool of one per racer').to.equal(1);
      await coll.drop();
    });
  }

  it('a w: 0 insert the server refuses says nothing: the count afterwards finds it, and the study stops', async function () {
    const name = 'w0_refused';
    await t.db
      .collection(name)
      .drop()
      .catch(() => {});
    // the validator refuses every document whose data is shorter than 100 chars: all of them here
    await t.db.createCollection(name, { validator: { $expr: { $gte: [{ $strLenCP: '$data' }, 100] } } });
    const job = { kind: 'race', db: t.dbName, coll: name, pattern: W0, n: 16, chars: 8, seed: 5 };
    const r = await runWorkers({ uri: t.uri, mode: 'connections', W: 2, job });
    const sent = r.results.reduce((a, x) => a + x.inserted, 0);
    const c = await independentCount(t.db.collection(name));
    expect(sent, 'each racer found every key absent and sent it').to.equal(32);
    expect(c.docs).to.equal(0);
    expect(() => checkInserted(W0, sent, c.docs)).to.throw(/sent 32 unacknowledged inserts, the collection holds 0/);
    expect(() => checkInserted(W0, c.docs, c.docs)).to.not.throw();
  });

  it('async racers (one shared pool) are refused: a ping would not follow each racer own inserts', async function () {
    const job = { kind: 'race', db: t.dbName, coll: 'w0_async', pattern: W0, n: 4, chars: 8, seed: 5 };
    let err = null;
    await runWorkers({ uri: t.uri, mode: 'async', W: 2, job }).catch((e) => (err = e));
    expect(err && err.message).to.match(/connections of their own/);
  });

  describe('through the study runner (W=4 processes, one race each)', function () {
    let run;
    before(async function () {
      run = await t.study('coherency', {
        N,
        CHARS: 128,
        W: 4,
        MODE: 'processes',
        RUNS: 1,
        WARMUP: 0,
        VARIANTS: `check-then-insert,${W0}`,
      });
    });

    it('the records name the writer (extra.w 0 and 1); duplicates = documents - keys, as the collection counts', async function () {
      const rs = results(run.records);
      const w0 = rs.find((r) => r.variant === W0);
      const w1 = rs.find((r) => r.variant === 'check-then-insert');
      expect(w0, 'the w: 0 race ran').to.not.equal(undefined);
      expect(w0.agrees, 'every key there').to.equal(true);
      expect(w0.extra).to.include({ w: 0, W: 4, mode: 'processes', maxPoolSize: 1, clients: 4 });
      expect(w1.extra.w).to.equal(1);
      expect(w0.extra.duplicates).to.equal(w0.extra.docs - N);
      expect(w0.extra.duplicatesPerRun).to.deep.equal([w0.extra.duplicates]);
      // the race's collection, counted again with countDocuments and distinct
      const c = await independentCount(t.db.collection(`perflab_race_${W0.replace(/-/g, '_')}`));
      expect(c).to.deep.equal({ docs: w0.extra.docs, keys: N, duplicates: w0.extra.duplicates });
    });

    it('the gate: its writer part passes on these records, refuses w: 1-only records and names the command', function () {
      const rs = run.records;
      // the machine's part of the gate is replaced by a quiet one of enough cores (2 shared cores here)
      const quiet = rs.map((r) =>
        r.type === 'result' ? { ...r, loadavg: { start: 0.1, end: 0.1, cores: 8, cpuWait: 0 } } : r,
      );
      const env = { host: { cores: 8, usableCores: 8 } };
      const v = judged(quiet, env);
      expect(v.verdict).to.not.equal(claims.VERDICT.NOT_REPRODUCED);
      expect(v.setting.ok).to.equal(true);
      expect(v.setting.here).to.include('racers writing unacknowledged (w: 0)');
      expect(v.setting.here).to.include('each on one connection (maxPoolSize 1)');
      expect(v.figure).to.match(
        /unacknowledged \(w: 0\) racers, maxPoolSize 1 each; beside, not judged: acknowledged \(w: 1\) racers/,
      );
      // existence, not a rate: holds when the w: 0 races duplicated, else (one race) decides nothing
      const d = results(quiet).find((r) => r.variant === W0).extra.duplicates;
      expect(v.verdict).to.equal(d > 0 ? claims.VERDICT.HOLDS : claims.VERDICT.INCONCLUSIVE);
      expect(v.figure).to.match(/duplicates \(extra documents\) in 1 race of W=4 racers/);
      // the window a racer leaves open, beside the rate: a race entry's time (check, then insert sent)
      expect(results(quiet).find((r) => r.variant === W0).latency.p50).to.be.a('number');
      expect(v.figure).to.match(/a race entry \(check, then insert\) took [\d.]+ ms \(p50\)/);
      // the records as measured: only the cores may refuse, never the writer
      const real = judged(rs, env);
      expect(real.setting.here).to.not.match(/did not race/);
      // without the w: 0 race: refused for the writer, with the command that runs it
      const w1only = quiet.filter((r) => r.variant !== W0);
      const refused = judged(w1only, env);
      expect(refused.verdict).to.equal(claims.VERDICT.NOT_REPRODUCED);
      expect(refused.setting.absent).to.equal('no-evidence');
      expect(refused.setting.here).to.match(/the inferred unacknowledged writer \(w: 0\) did not race/);
      expect(refused.figure).to.include('acknowledged (w: 1) racers');
      expect(refused.why).to.include(`VARIANTS=check-then-insert,${W0}`);
      expect(refused.why).to.not.include('not written yet');
      // a w: 0 record whose writer field is missing (an older file) is not taken for w: 0
      const unnamed = quiet.map((r) => (r.variant === W0 ? { ...r, extra: { ...r.extra, w: undefined } } : r));
      expect(judged(unnamed, env).verdict).to.equal(claims.VERDICT.NOT_REPRODUCED);
      // a w: 0 race whose racers' pool is not recorded (an older file), or wider than one, is not evidence
      for (const pool of [undefined, 2]) {
        const wide = quiet.map((r) => (r.variant === W0 ? { ...r, extra: { ...r.extra, maxPoolSize: pool } } : r));
        const o = judged(wide, env);
        expect(o.verdict).to.equal(claims.VERDICT.NOT_REPRODUCED);
        expect(o.setting.here).to.match(pool ? /pool was maxPoolSize 2/ : /pool is not recorded/);
      }
    });
  });

  it('the CLI: a tiny run with the quick profile variants completes, the w: 0 race among them', async function () {
    this.timeout(600000);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-coh-w0-'));
    try {
      const variants = findStudy('coherency').profiles.quick.VARIANTS;
      expect(variants.split(',')).to.include(W0);
      const args = tinyArgs('run', 'coherency', 'labtest_coherency_w0_cli', '--no-charts', '--out', out);
      const r = await labCli([...args, '--set', `VARIANTS=${variants}`]);
      expect(r.code, r.stderr).to.equal(0);
      const doc = readResults(out);
      const w0 = doc.results.find((x) => x.variant === W0 && !x.skipped);
      expect(w0, 'the w: 0 race ran').to.not.equal(undefined);
      expect(w0.agrees).to.equal(true);
      expect(w0.extra.w).to.equal(0);
      expect(w0.extra.duplicates).to.equal(w0.extra.docs - w0.answer.keys);
      expect(doc.results.find((x) => x.variant === 'check-then-insert').extra.w).to.equal(1);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
