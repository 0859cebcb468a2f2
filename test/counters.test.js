'use strict';
// Seed 004: per-minute counters with upsert $inc. Every schema's documents after a seeded stretch
// of hits are compared, document by document, with a plain Node tally of the same hits (the
// preallocation's zero fields and the hits at 00:00:00.000 and 23:59:59.999 included), through the
// Node writers and through the pasteable shell functions; preallocation is safe to repeat and never
// loses a hit racing with recordHit; the real mongosh CLI runs the drop-in script.
const os = require('os');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const gen = require('../scripts/lib/counters-gen');
const C = require('../scripts/lib/counters');
const oracle = require('../lib/counters/oracle');
const day = require('../lib/counters/day');
const { target, ALL, COUNTERS } = require('../lib/counters/schemas');
const { measureScan } = require('../lib/counters/micro');

const STREAM = { seed: 5, metrics: 12, perMinute: 12, preallocP: 0.02 };
const DAYS = 2;
const EVERY = 97;   // about 15 minutes a day, always with 00:00 and 23:59

function sortKeys(o) {
  if (Array.isArray(o)) return o.map(sortKeys);
  if (o && typeof o === 'object') return Object.fromEntries(Object.keys(o).sort().map((k) => [k, sortKeys(o[k])]));
  return o;
}

// Compares a collection with the tally; returns the list of differences (empty when equal).
async function differences(coll, layout, tally) {
  const stored = new Map((await coll.find().toArray()).map((d) => [d._id, sortKeys(oracle.normalizeDoc(d))]));
  const diffs = [];
  for (const d of tally.values()) {
    const want = sortKeys(oracle.expectedDoc(layout, d));
    const got = stored.get(d.id);
    if (JSON.stringify(got) !== JSON.stringify(want)) diffs.push(d.id);
    stored.delete(d.id);
  }
  for (const id of stored.keys()) diffs.push(`unexpected ${id}`);
  return diffs;
}

const tallyFor = (schema, slots) => oracle.tally(STREAM, slots, { preallocate: schema !== 'initial', preallocatedDays: schema === 'initial' ? [] : [0] });
const layoutOf = (schema) => (schema === 'bulk' ? 'hierarchical' : schema);

describe('counters study (seed 004): per-minute counters with upsert $inc', function () {
  let t;
  before(async function () {
    t = await testDatabase('counters');
  });
  after(async function () {
    if (t) await t.close();
  });

  describe('the hit stream', function () {
    it('is the same for the same (seed, day, minute) and puts hits on both edges of each day', function () {
      expect(gen.minuteHits(STREAM, 1, 17)).to.deep.equal(gen.minuteHits(STREAM, 1, 17));
      expect(gen.minuteHits(STREAM, 1, 17)).to.not.deep.equal(gen.minuteHits(STREAM, 1, 18));
      for (let d = 0; d < DAYS; d++) {
        const first = gen.minuteHits(STREAM, d, 0)[0];
        const last = gen.minuteHits(STREAM, d, 1439).slice(-1)[0];
        expect(new Date(first.t).toISOString()).to.match(/T00:00:00\.000Z$/);
        expect(new Date(last.t).toISOString()).to.match(/T23:59:59\.999Z$/);
        expect(oracle.dayStart(last.t) + gen.DAY_MS).to.equal(gen.START + (d + 1) * gen.DAY_MS);
      }
    });

    it('rejects bad stream options with one clear message', function () {
      expect(() => gen.minuteHits({ seed: 1, metrics: 0, perMinute: 5 }, 0, 0)).to.throw(/metrics must be a whole number >= 1/);
      expect(() => gen.minuteHits({ seed: -1, metrics: 3, perMinute: 5 }, 0, 0)).to.throw(/seed must be a whole number >= 0/);
    });
  });

  describe('Node writers (4 connections, w:1) against the oracle', function () {
    let run;
    before(async function () {
      run = await day.simulateDay({ db: t.db, uri: t.uri, dbName: t.dbName, schemas: ALL, stream: STREAM, days: DAYS, every: EVERY, writers: 4, wc: 'w1' });
    });

    for (const schema of ['initial', 'preallocated', 'hierarchical', 'array', 'bulk']) {
      it(`${schema}: every document equals the tally (zero fields, edges, tomorrow's preallocations)`, async function () {
        const tally = tallyFor(schema, run.slots);
        const diffs = await differences(t.db.collection(`counters_${schema}`), layoutOf(schema), tally);
        expect(diffs, diffs.slice(0, 5).join(', ')).to.deep.equal([]);
        // the check is not vacuous: day 1 exists with its 00:00 hit, 23:59 counts exist, tomorrow was preallocated
        const ids = [...tally.keys()];
        expect(ids.some((id) => id.startsWith('20101011/'))).to.equal(true);
        expect([...tally.values()].some((d) => d.minute[1439] > 0 && d.minute[0] > 0)).to.equal(true);
        if (schema !== 'initial') expect(ids.some((id) => id.startsWith('20101012/'))).to.equal(true);
      });
    }

    it('every schema and alternative reads back the tally\'s 1,440 minutes of every metric-day', async function () {
      const tally = oracle.tally(STREAM, run.slots, {});
      for (const d of [0, 1]) {
        const dayMs = gen.START + d * gen.DAY_MS;
        const cost = await day.readCost(t.db, run.targets, dayMs, STREAM.metrics, (m) => oracle.dayMinutes(tally, dayMs, m), 1);
        for (const name of ALL) expect(cost[name].wrongReads, `${name} day ${d}`).to.equal(0);
      }
    });

    it('records a sample per schema and slot, and hourly ratios to the preallocated schema', function () {
      expect(run.samples.length).to.equal(run.slots.length * ALL.length);
      const hours = day.hourly(run.samples);
      expect(hours.find((h) => h.schema === 'preallocated').ratio).to.equal(1);
      for (const h of hours) expect(h.wps).to.be.greaterThan(0);
    });

    it('sizes: one document per metric-day for the counters, one per hit in the time-series collection', async function () {
      const tally = oracle.tally(STREAM, run.slots, {});
      const s = await day.sizes(t.db, run.targets, tally.size);
      expect(s.initial.docs).to.equal(tally.size);
      const hits = run.slots.length * STREAM.perMinute;
      expect(s['minute-docs'].docs).to.be.at.most(hits);
      // a whole preallocated day: 1,440 minute fields
      expect(s.preallocated.maxBsonSize).to.be.greaterThan(1440 * 10);
      for (const name of ALL) expect(s[name].storageSize, name).to.be.greaterThan(0);
    });
  });

  describe('the pasteable shell functions (drop-in script) against the oracle', function () {
    let out;
    before(async function () {
      out = await t.run('counters_day.js', { METRICS: STREAM.metrics, PER_MINUTE: STREAM.perMinute, SEED: STREAM.seed, DAYS, EVERY, PREFIX: 'shell_' });
    });

    for (const schema of COUNTERS) {
      it(`${schema}: recordHit + preallocate leave the same documents as the tally`, async function () {
        // the shell draws tomorrow's preallocation with the stream's own flags at p = 1/2000
        const stream = { ...STREAM, preallocP: undefined };
        const slots = gen.slots(DAYS, EVERY);
        const tally = oracle.tally(stream, slots, { preallocate: schema !== 'initial', preallocatedDays: schema === 'initial' ? [] : [0] });
        const diffs = await differences(t.db.collection(`shell_${schema}`), schema, tally);
        expect(diffs, diffs.slice(0, 5).join(', ')).to.deep.equal([]);
      });
    }

    it('prints writes/s per simulated hour for every schema, and one record per schema and hour', function () {
      const text = out.lines.join('\n');
      expect(text).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger/);
      expect(text).to.match(/hour\s+initial\s+preallocated\s+hierarchical\s+array/);
      const recs = out.records.filter((r) => r.kind === 'day-hour');
      const hours = new Set(gen.slots(DAYS, EVERY).map((x) => `${x.day}|${Math.floor(x.minute / 60)}`));
      expect(recs.length).to.equal(hours.size * 4);
      expect(recs.every((r) => r.wps > 0)).to.equal(true);
    });
  });

  describe('preallocation', function () {
    it('is idempotent: twice gives the same document, and after hits it changes no count', async function () {
      const s = await t.shell();
      for (const schema of ['preallocated', 'hierarchical', 'array']) {
        const coll = `idem_${schema}`;
        const args = JSON.stringify([coll, gen.START, 'm1', schema]);
        await s.runtime.evaluate(`load(${JSON.stringify(require.resolve('../scripts/lib/counters.js'))});
          (function (a) { var c = db.getCollection(a[0]); preallocate(c, a[1], a[2], a[3]); })(${args});`);
        const once = await t.db.collection(coll).find().toArray();
        await s.runtime.evaluate(`(function (a) { var c = db.getCollection(a[0]); preallocate(c, a[1], a[2], a[3]);
          recordHit(c, a[1] + 86399999, a[2], a[3], false); recordHit(c, a[1], a[2], a[3], false); preallocate(c, a[1], a[2], a[3]); })(${args});`);
        const after = await t.db.collection(coll).find().toArray();
        expect(once.length).to.equal(1);
        expect(after.length).to.equal(1);
        const a = oracle.normalizeDoc(after[0]);
        const o = oracle.normalizeDoc(once[0]);
        expect(a.daily).to.equal(2);
        expect(o.daily).to.equal(0);
        // the same document but for the two hits
        const minutes = (doc) => require('../lib/counters/schemas').docMinutes(schema, doc);
        const diff = minutes(after[0]).map((n, i) => n - minutes(once[0])[i]);
        expect(diff[0]).to.equal(1);
        expect(diff[1439]).to.equal(1);
        expect(diff.reduce((x, y) => x + y, 0)).to.equal(2);
        expect(Object.keys(after[0])).to.deep.equal(Object.keys(once[0]));
      }
    });

    it('racing recordHit on 8 connections never loses a hit (new day, no document yet)', async function () {
      const stream = { seed: 9, metrics: 3, perMinute: 40, preallocP: 0 };
      const dayMs = gen.START;
      for (const schema of ['preallocated', 'hierarchical', 'array']) {
        const tgt = target(schema);
        tgt.coll = `race_${schema}`;
        const writers = await day.openWriters(t.uri, t.dbName, 8);
        try {
          const slots = [0, 1, 2, 1438, 1439].map((minute) => ({ day: 0, minute }));
          const hits = slots.flatMap((s) => gen.minuteHits(stream, s.day, s.minute));
          // 8 writers record the hits while 4 of the same connections keep preallocating the
          // very documents they write to
          const pre = async (db) => {
            for (let r = 0; r < 6; r++) {
              for (let k = 0; k < stream.metrics; k++) {
                const p = C.preallocUpdate(schema, dayMs, gen.metricName(k));
                await db.collection(tgt.coll).updateOne(p.filter, p.update, { upsert: true }).catch((e) => { if (e.code !== 11000) throw e; });
              }
            }
          };
          await Promise.all([
            day.runSlot(writers, tgt, hits, { w: 1 }),
            ...writers.dbs.slice(0, 4).map(pre),
          ]);
          const tally = oracle.tally(stream, slots, { preallocatedDays: [0] });
          const diffs = await differences(t.db.collection(tgt.coll), schema, tally);
          expect(diffs, `${schema}: ${diffs.join(', ')}`).to.deep.equal([]);
        } finally {
          await writers.close();
        }
      }
    });
  });

  describe('minute 0 versus minute 1439 (interleaved, median of per-round ratios)', function () {
    let scan;
    before(async function () {
      scan = await measureScan(t.db, { docs: 100, bulk: 500, single: 50, rounds: 5, modes: ['bulk', 'updateMany'] });
    });
    const find = (layout, mode) => scan.find((x) => x.layout === layout && x.mode === mode);

    it('flat: an update of minute 1439 in bulk costs at least 1.3x one of minute 0', function () {
      expect(find('flat', 'bulk').ratio).to.be.at.least(1.3);
    });
    it('hierarchical: 23:59 in bulk is within 1.3x of 00:00', function () {
      expect(find('hierarchical', 'bulk').ratio).to.be.within(1 / 1.3, 1.3);
    });
    it('reports server-side latency from opLatencies next to the client\'s', function () {
      for (const x of scan) {
        expect(x.first.serverUsPerUpdate).to.be.greaterThan(0);
        expect(x.first.serverUsPerUpdate).to.be.at.most(x.first.usPerUpdate * 1.5);
      }
    });
  });

  describe('the drop-in script through the real mongosh CLI', function () {
    it('runs from another directory and prints the day table', async function () {
      const r = await t.cli('counters_day.js', { METRICS: 5, PER_MINUTE: 4, EVERY: 240, PREFIX: 'cli_' }, { cwd: os.tmpdir() });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger/);
      expect(r.stdout).to.match(/day 0 23:00/);
      expect(await t.db.collection('cli_preallocated').countDocuments()).to.be.at.least(5);
    });

    for (const [params, message] of [
      [{ METRICS: 0 }, 'parameter METRICS: expected a whole number >= 1'],
      [{ SCHEMAS: 'initial,bogus' }, 'unknown schema "bogus"'],
      [{ EVERY: 5000 }, 'parameter EVERY: at most 1440'],
      [{ PREFIX: 'system.x' }, 'parameter PREFIX'],
    ]) {
      it(`rejects ${JSON.stringify(params)} with one clear line and a non-zero exit`, async function () {
        const r = await t.cli('counters_day.js', params, { cwd: os.tmpdir() });
        expect(r.code).to.not.equal(0);
        expect(r.stdout + r.stderr).to.include(message);
      });
    }

    it('never touches a collection of that name the lab did not make', async function () {
      await t.db.collection('mine_initial').insertOne({ _id: 'theirs' });
      const r = await t.cli('counters_day.js', { SCHEMAS: 'initial', PREFIX: 'mine_', EVERY: 1440 }, { cwd: os.tmpdir() });
      expect(r.code).to.not.equal(0);
      expect(r.stdout + r.stderr).to.include('was not made by the lab');
      expect(await t.db.collection('mine_initial').find().toArray()).to.deep.equal([{ _id: 'theirs' }]);
    });
  });
});
