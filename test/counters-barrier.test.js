'use strict';
// Source 004's writer (writer.py:47-49): unacknowledged upserts with a getLastError every 100th write
// and at each simulated minute's end, so at most 100 writes in flight. The lab's w:0 writer waits for
// a barrier (a ping on its own connection, answered after the writes sent before it) every 100th
// write and at the minute's end, seen here in the commands the driver sends; the day's records carry
// barrierEvery, on which the day claims' writer gate passes; every hit is still counted.
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { useTestDatabase } = require('./helpers');
const gen = require('../fixtures/counters-gen');
const day = require('../lib/studies/counters/day');
const { target, ownCollections } = require('../lib/studies/counters/schemas');
const { runStudy } = require('../lib/core/run-study');
const { describeServer } = require('../lib/infra/server');
const study = require('../lib/studies/counters');
const { judge } = require('../lib/core/claims');

const STREAM = { seed: 11, metrics: 5, perMinute: 250, preallocP: 0 };

describe("counters: the source's writer, a barrier every 100th write at w:0 (004 day claims)", function () {
  const t = useTestDatabase('counters_barrier');

  describe('runSlot, one writer on its own connection, the commands it sends', function () {
    let client;
    let writers;
    const sent = [];
    before(async function () {
      // the lab's writer (openWriters: maxPoolSize 1), with the driver's command monitoring
      client = new MongoClient(t.uri, { maxPoolSize: 1, minPoolSize: 1, monitorCommands: true });
      client.on('commandStarted', (e) => {
        if (['update', 'insert', 'ping'].includes(e.commandName)) sent.push(e.commandName);
      });
      await client.connect();
      writers = { dbs: [client.db(t.dbName)] };
    });
    after(async function () {
      if (client) await client.close();
    });

    async function slot(schema, wc, minute) {
      const tgt = target(schema, 'barrier_');
      await ownCollections(t.db, [tgt]);
      const hits = gen.minuteHits(STREAM, 0, minute);
      sent.length = 0;
      const ms = await day.runSlot(writers, tgt, hits, wc);
      expect(ms).to.be.greaterThan(0);
      return { tgt, hits, sent: [...sent] };
    }

    // the minute's hits summed over the collection, read after the slot (w:0 answers nothing)
    async function counted(tgt) {
      const [g] = await t.db
        .collection(tgt.coll)
        .aggregate([{ $group: { _id: null, n: { $sum: '$daily' } } }])
        .toArray();
      return g ? g.n : 0;
    }

    it('w:0: a ping after every 100th write and at the minute end, every hit counted; the waits at them timed', async function () {
      const waits = day.newWaits();
      const tgt0 = target('initial', 'barrier_');
      await ownCollections(t.db, [tgt0]);
      const ms0 = await day.runSlot(writers, tgt0, gen.minuteHits(STREAM, 0, 599), { w: 0 }, undefined, waits);
      // the writer's time at its three barriers, within the slot's wall time
      expect(waits.slotMs).to.be.closeTo(ms0, 1e-6);
      expect(waits.waitMs).to.be.greaterThan(0).and.at.most(waits.slotMs);
      const share = day.barrierShare(waits);
      expect(share).to.be.greaterThan(0).and.at.most(1);
      expect(day.barrierShare(day.newWaits())).to.equal(null);
      const { tgt, hits, sent: cmds } = await slot('initial', { w: 0 }, 600);
      expect(hits).to.have.length(250);
      const pattern = [
        ...Array(100).fill('update'),
        'ping',
        ...Array(100).fill('update'),
        'ping',
        ...Array(50).fill('update'),
        'ping',
      ];
      expect(cmds).to.deep.equal(pattern);
      expect(day.barrierEvery(tgt, { w: 0 }))
        .to.equal(day.BARRIER_EVERY)
        .and.to.equal(100);
      expect(await counted(tgt)).to.equal(hits.length);
    });

    it('w:1: every write acknowledged, no ping and no barrierEvery', async function () {
      const { tgt, hits, sent: cmds } = await slot('initial', { w: 1 }, 601);
      expect(cmds).to.deep.equal(Array(hits.length).fill('update'));
      expect(day.barrierEvery(tgt, { w: 1 })).to.equal(null);
      expect(await counted(tgt)).to.equal(hits.length);
    });

    it("bulk at w:0: its one bulkWrite of the writer's slot unchanged, then the minute end's ping", async function () {
      const { tgt, hits, sent: cmds } = await slot('bulk', { w: 0 }, 602);
      expect(cmds.filter((c) => c === 'ping')).to.have.length(1);
      expect(cmds[cmds.length - 1]).to.equal('ping');
      expect(day.barrierEvery(tgt, { w: 0 })).to.equal(null);
      expect(await counted(tgt)).to.equal(hits.length);
    });
  });

  describe('the day through the runner: WC=w0, WRITERS=1', function () {
    const P = {
      METRICS: 5,
      PER_MINUTE: 230,
      SEED: 7,
      DAYS: 1,
      RUNS: 1,
      WARMUP: 0,
      WRITERS: 1,
      WC: 'w0',
      VARIANTS: 'node-preallocated,node-initial,node-hierarchical,node-bulk',
      PREFIX: 'barrier_run_',
      SCAN: false,
      SWEEP: false,
      REPLSET: false,
      IDREGEX: false,
      WASH: true,
      WASH_PER_HOUR: 1,
      PG_SIZE: false,
    };
    let res;
    before(async function () {
      this.timeout(300000);
      const info = await describeServer(t.uri);
      res = await runStudy(study, { server: { uri: t.uri, ...info }, dbName: t.dbName, params: P });
    });

    const dayRecords = () => res.records.filter((r) => r.type === 'result' && r.axis.hour !== undefined);

    it("every hour's hits counted exactly; the per-hit schemas' records carry barrierEvery 100", function () {
      const recs = dayRecords();
      expect(recs).to.have.length(24 * 4);
      for (const r of recs) {
        expect(r.agrees, `${r.variant} ${JSON.stringify(r.axis)}`).to.equal(true);
        expect(r.extra).to.include({ wc: 'w0', writers: 1, hitsPerMinute: P.PER_MINUTE });
        if (r.variant === 'node-bulk') expect(r.extra).to.not.have.property('barrierEvery');
        else {
          expect(r.extra.barrierEvery, r.variant).to.equal(100);
          // the hour's share of the writer's time at its barriers: who set the rate (third read, item 22)
          expect(r.extra.barrierWait, r.variant).to.be.a('number').within(0, 1);
        }
      }
    });

    it('the wash: written by the same one w:0 writer, its records name it (barrierEvery, barrierWait)', function () {
      const recs = res.records.filter((r) => r.type === 'result' && r.axis.part === 'wash');
      expect(recs.map((r) => r.variant).sort()).to.deep.equal(['one-collection', 'per-metric']);
      for (const r of recs) {
        expect(r.agrees, r.variant).to.equal(true);
        expect(r.extra).to.include({ wc: 'w0', writers: 1, barrierEvery: 100 });
        expect(r.extra.barrierWait, r.variant).to.be.a('number').within(0, 1);
      }
      // the gate reads the writer from them; server-bound or not is what the shares say on this machine
      const v = judge(study, res.records).find((c) => c.id === '004-collections-wash');
      expect(v.setting.here, v.why).to.match(/^judged on 1 Node driver writer, w:0, a barrier every 100 writes; /);
      if (!v.setting.ok) expect(v.setting.absent, v.why).to.equal('client-bound');
    });

    it("the day claims' writer gate passes on them, and refuses them without barrierEvery", function () {
      const v = judge(study, res.records).find((c) => c.id === '004-midnight-burst');
      // the writer passes; the server-bound part (barrierWait >= 0.5) is what this machine's shares say
      expect(v.setting.here, v.why).to.match(/w:0 .*a barrier every 100 writes; /);
      if (!v.setting.ok) expect(v.setting.absent, v.why).to.equal('client-bound');
      const bare = res.records.map((r) =>
        r.type === 'result' && r.axis.hour !== undefined ? { ...r, extra: { ...r.extra, barrierEvery: undefined } } : r,
      );
      const no = judge(study, bare).find((c) => c.id === '004-midnight-burst');
      expect(no.verdict).to.equal('not-reproduced');
      expect(no.setting).to.include({ ok: false, absent: 'writer' });
      expect(no.why).to.match(/recorded no barrier every 100th write/);
    });
  });
});
