'use strict';
// Source 004 with no server: the seeded hit stream (both edges of each day) and the pasteable block of
// scripts/counters_functions.js (plain ES2017, self-contained). The server side: test/counters.test.js.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const gen = require('../../fixtures/counters-gen');
const oracle = require('../../lib/studies/counters/oracle');
const lab = require('../../scripts/lib/lab');

const STREAM = { seed: 5, metrics: 12, perMinute: 12, preallocP: 0.02 };
const DAYS = 2;

describe('counters study (source 004): per-minute counters with upsert $inc', function () {
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
      expect(() => gen.minuteHits({ seed: 1, metrics: 0, perMinute: 5 }, 0, 0)).to.throw(
        /metrics must be a whole number >= 1/,
      );
      expect(() => gen.minuteHits({ seed: -1, metrics: 3, perMinute: 5 }, 0, 0)).to.throw(
        /seed must be a whole number >= 0/,
      );
    });
  });

  describe('the pasteable part of scripts/counters_functions.js', function () {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'scripts', 'counters_functions.js'), 'utf8');
    const block = text.slice(text.indexOf('// ---- PASTEABLE: begin'), text.indexOf('// ---- PASTEABLE: end'));

    it('is plain ES2017 that names nothing the 4.2 shell (Robo 3T) lacks', function () {
      const acorn = require('acorn');
      expect(() => acorn.parse(block, { ecmaVersion: 2017 })).to.not.throw();
      expect(block).to.not.match(
        /\?\.|\?\?|\bEJSON\b|\bconsole\b|\brequire\(|\bfromEntries\b|\.flat\(|\bBigInt\b|runCommand|\bawait\b/,
      );
    });

    it('is self-contained: pasted alone into an empty context it records hits into a collection-like object', function () {
      const vm = require('vm');
      const calls = [];
      const coll = {
        updateOne: (f, u, o) => {
          calls.push({ f, u, o });
          return { matchedCount: 1 };
        },
      };
      const ctx = vm.createContext({ coll });
      vm.runInContext(`${block}\nrecordHit(coll, ${gen.START} + 86399999, 'm', 'hierarchical', true);`, ctx);
      expect(calls).to.have.length(2);
      expect(calls[0].f._id).to.equal('20101011/m'); // tomorrow preallocated first
      expect(calls[1].f._id).to.equal('20101010/m');
      expect(calls[1].u.$inc).to.deep.equal({ daily: 1, 'hourly.23': 1, 'minute.23.59': 1 });
      expect(calls[1].o).to.deep.equal({ upsert: true });
    });
  });

  describe("the claims: the source's writer, parts, gates that fail closed (on the source's own rows)", function () {
    const claims = require('../../lib/core/claims');
    const counters = require('../../lib/studies/counters');
    const { sourceEnv } = require('../../lib/core/source-replay');
    const figures = require('../../lib/studies/counters/source-figures');
    const { dayRecords } = figures.helpers;
    const MMAP = sourceEnv(figures.env);
    const WT = { ...MMAP, server: { version: '6.0.5', storageEngine: 'wiredTiger' } };
    const judge = (id, recs, env = MMAP, params = {}) =>
      claims.judge(counters, recs, env, { counters: params }).find((c) => c.id === id);
    const withWriter = (recs, wc, writers = 1) =>
      recs.map((r) => ({ ...r, variant: `node-${r.variant}`, extra: { ...r.extra, wc, writers } }));

    it("a day claim is judged on the source's one unacknowledged writer; an acknowledged day, or several writers, is not reproduced, its figure shown", function () {
      const recs = dayRecords(['initial', 'preallocated', 'hierarchical']);
      const w0 = judge('004-growing-documents-collapse/collapse', withWriter(recs, 'w0'));
      expect(w0.verdict, w0.why).to.equal('holds');
      expect(w0.figure).to.match(/writer: 1 pymongo writer\(s\), w:0/);
      expect(w0.why).to.match(/against the hierarchical schema the growing one loses/);
      // the source's writer waited for the server every 100th write (writer.py:47-49): a day whose
      // records show no such barrier is another writer (second read of 004, dispute 3)
      const unpaced = withWriter(recs, 'w0').map((r) => ({ ...r, extra: { ...r.extra, barrierEvery: undefined } }));
      const np = judge('004-growing-documents-collapse/collapse', unpaced);
      expect(np.verdict).to.equal('not-reproduced');
      expect(np.setting.absent).to.equal('writer');
      expect(np.why).to.match(/not every 100th write as the source's.*runSlot/);
      const sparse = withWriter(recs, 'w0').map((r) => ({ ...r, extra: { ...r.extra, barrierEvery: 200000 } }));
      expect(judge('004-midnight-burst', sparse).setting.absent).to.equal('writer');
      const many = judge('004-growing-documents-collapse/collapse', withWriter(recs, 'w0', 16));
      expect(many.verdict).to.equal('not-reproduced');
      expect(many.setting.absent).to.equal('writer');
      expect(many.why).to.match(/not the source's one writer.*WRITERS=1/);
      const w1 = judge('004-growing-documents-collapse/collapse', withWriter(recs, 'w1'));
      expect(w1.verdict).to.equal('not-reproduced');
      expect(w1.setting.absent).to.equal('writer');
      expect(w1.figure).to.match(/^initial 3,432 -> 291 writes\/s.*w1 \(acknowledged round trips\)/);
      expect(w1.why).to.match(/WC=w0/);
    });

    it("server-bound or not: the lab's day needs the writer's barrier wait (barrierWait >= 0.5) in the compared schema-hours; the source's own rows are judged as published", function () {
      // the lab's records: no `source` flag; the writer's share of its time at the barriers per hour
      const lab0 = (recs, wait) =>
        withWriter(recs, 'w0').map(({ source, ...r }) => ({
          ...r,
          extra: { ...r.extra, client: 'Node driver', ...(wait === undefined ? {} : { barrierWait: wait }) },
        }));
      const recs = dayRecords(['initial', 'preallocated', 'hierarchical']);
      const ok = judge('004-growing-documents-collapse/collapse', lab0(recs, 0.8));
      expect(ok.verdict, ok.why).to.equal('holds');
      expect(ok.setting.here).to.match(/server-bound: the writer waited at its barriers 80 % of its time or more/);
      const none = judge('004-growing-documents-collapse/collapse', lab0(recs));
      expect(none.verdict).to.equal('not-reproduced');
      expect(none.setting.absent).to.equal('no-evidence');
      expect(none.why).to.match(/no barrier wait \(barrierWait\).*runSlot/);
      for (const id of [
        '004-growing-documents-collapse/collapse',
        '004-preallocation-fixes-it/fix',
        '004-midnight-burst',
        '004-preallocated-drift/slows',
        '004-field-scan-hierarchy/level',
      ]) {
        const v = judge(id, lab0(recs, 0.2));
        expect(v.verdict, id).to.equal('not-reproduced');
        expect(v.setting.absent, id).to.equal('client-bound');
        expect(v.why, id).to.match(/only 20 % of its time/);
        expect(counters.claims.find((c) => c.id === id).boundary, id).to.match(
          /barrierEvery <= 100.*barrierWait >= 0\.5/,
        );
      }
      // one client-bound hour among those compared refuses: the lowest share decides
      const oneLow = lab0(recs, 0.8).map((r) =>
        r.variant === 'node-hierarchical' && r.axis.hour === 23 ? { ...r, extra: { ...r.extra, barrierWait: 0.3 } } : r,
      );
      const low = judge('004-field-scan-hierarchy/level', oneLow);
      expect(low.setting.absent).to.equal('client-bound');
      expect(low.why).to.match(/node-hierarchical, day 0 23h/);
      // hours a claim does not compare do not gate it: the fix reads 22-24h only
      const startLow = lab0(recs, 0.8).map((r) =>
        r.axis.hour < 2 ? { ...r, extra: { ...r.extra, barrierWait: 0.1 } } : r,
      );
      expect(judge('004-preallocation-fixes-it/fix', startLow).verdict).to.equal('holds');
    });

    it('/level is a day claim, judged on the hierarchical day (22-24h / 00-02h), the microbenchmark beside', function () {
      const hier = withWriter(dayRecords(['hierarchical']), 'w0');
      const v = judge('004-field-scan-hierarchy/level', hier);
      expect(v.verdict, v.why).to.equal('holds');
      expect(v.figure).to.match(/^hierarchical 3,495 -> 3,333 writes\/s from 00-02h to 22-24h, time per hit 1\.0\dx/);
      // the seed run's 16-writer day is another writer: not reproduced, its figure shown
      const many = judge('004-field-scan-hierarchy/level', withWriter(dayRecords(['hierarchical']), 'w0', 16));
      expect(many.verdict).to.equal('not-reproduced');
      expect(many.setting.absent).to.equal('writer');
      // a hierarchical day that slows by 1.6x is not level: fails (a parity claim)
      const slow = hier.map((r) => (r.axis.hour >= 22 ? { ...r, times: r.times.map((t) => t * 1.6) } : r));
      expect(judge('004-field-scan-hierarchy/level', slow).verdict).to.equal('fails');
      // the microbenchmark alone no longer decides: no day, no verdict
      const { scanRecords } = figures.helpers;
      const bench = judge('004-field-scan-hierarchy/level', scanRecords('hierarchical', 'hierarchical'));
      expect(bench.verdict).to.equal('inconclusive');
      expect(bench.why).to.match(/needs the hierarchical schema's day.*beside, not judged: the microbenchmark's/);
    });

    it('004-document-growth: the growing document after the day against its first hit, on a whole day only', function () {
      const lab = require('../../scripts/lib/lab');
      const size = (variant, value) =>
        lab.measureRecord({
          study: 'counters',
          name: 'avg-bson-bytes',
          variant,
          axis: { part: 'storage' },
          value,
          unit: 'bytes',
          what: '',
        });
      const recs = [size('node-initial', 9437), size('node-preallocated', 14713)];
      const v = judge('004-document-growth', recs, WT, { RUNS: 60, WARMUP: 0, PER_MINUTE: 100, METRICS: 100 });
      expect(v.verdict, v.why).to.equal('holds');
      expect(v.figure).to.match(/137 B after its first hit \(computed\), 9,437 B on average.*68\.9x.*14,713 B, 107x/);
      expect(v.why).to.match(/about 63 % of a metric's minutes/);
      const quick = judge('004-document-growth', [size('node-initial', 941)], WT, { RUNS: 3, WARMUP: 0 });
      expect(quick.verdict).to.equal('inconclusive');
      expect(quick.why).to.match(/72 of its 1,440 minute fields/);
      expect(judge('004-document-growth', [size('node-initial', 200)], WT, { RUNS: 60 }).verdict).to.equal('weaker');
      expect(judge('004-document-growth', [], WT, { RUNS: 60 }).verdict).to.equal('inconclusive');
    });

    it('the acknowledged writer beside: the writers sweep, when the records have it', function () {
      const sweep = ['w0', 'w1'].map((wc, i) =>
        lab.measureRecord({
          study: 'counters',
          name: 'ratio-to-preallocated',
          variant: 'node-initial',
          axis: { part: 'writers', writers: 16, wc },
          value: [1.22, 1.18][i],
          unit: 'x',
          what: '',
        }),
      );
      const v = judge('004-growing-documents-collapse/collapse', [
        ...withWriter(dayRecords(['initial', 'preallocated', 'hierarchical']), 'w0'),
        ...sweep,
      ]);
      expect(v.why).to.match(/1\.22x unacknowledged \(w:0\), 1\.18x acknowledged \(w:1\)/);
    });

    it('a claim with its explanation is judged in parts: the figure measured, the moves gone without MMAPv1', function () {
      const recs = withWriter(dayRecords(['initial', 'preallocated']), 'w0');
      const moves = judge('004-growing-documents-collapse/moves', recs, WT);
      expect(moves.verdict).to.equal('gone');
      expect(moves.of).to.equal('004-growing-documents-collapse');
      expect(moves.mechanism.ref).to.match(/^https:\/\/mongodb\.com\/docs\/v4\.4\/release-notes\/4\.2-compatibility/);
      expect(moves.mechanism.why).to.match(/WT_MODIFY/);
      // on MMAPv1 the lab counts no moves: not measured, never gone
      expect(judge('004-growing-documents-collapse/moves', recs, MMAP).verdict).to.equal('not-measured');
      // the figure part on a flat day (no collapse) is no effect, never gone
      const flat = recs.map((r) => (r.axis.hour >= 22 ? { ...r, times: r.times.map((t) => t * 0.3) } : r));
      const c = judge('004-growing-documents-collapse/collapse', flat, WT);
      expect(c.verdict, c.figure).to.not.equal('gone');
    });

    it('a start-to-end loss needs a level control: fails closed without the hierarchical day, not reproduced when it moved', function () {
      // (/less-than-growing was folded into /collapse: the same L, second read of 004, dispute 9)
      const none = judge(
        '004-growing-documents-collapse/collapse',
        withWriter(dayRecords(['initial', 'preallocated']), 'w0'),
      );
      expect(none.verdict).to.equal('not-reproduced');
      expect(none.setting.absent).to.equal('no-evidence');
      const moved = withWriter(dayRecords(['initial', 'preallocated', 'hierarchical']), 'w0').map((r) =>
        r.variant === 'node-hierarchical' && r.axis.hour >= 22 ? { ...r, times: r.times.map((t) => t / 1.6) } : r,
      );
      const v = judge('004-preallocated-drift/slows', moved);
      expect(v.verdict).to.equal('not-reproduced');
      expect(v.setting.absent).to.equal('control');
      // the fix compares the same hours: no control needed
      expect(
        judge('004-preallocation-fixes-it/fix', withWriter(dayRecords(['initial', 'preallocated']), 'w0')).verdict,
      ).to.equal('holds');
    });

    it("the midnight is the 00:00 minute alone, one per simulated day: the source's single day is too few", function () {
      const v = judge('004-midnight-burst', withWriter(dayRecords(['initial', 'preallocated']), 'w0'));
      expect(v.verdict).to.equal('inconclusive');
      expect(v.figure).to.match(/at 00:00 \(1 midnight/);
      expect(v.why).to.match(/too few rounds: 1 and 5/);
      expect(counters.claims.find((c) => c.id === '004-midnight-burst').mechanism.why).to.match(
        /only the inserts remain/,
      );
    });

    it('concurrency: the racing part needs several writers and two quiet cores, and fails closed', function () {
      const recs = withWriter(dayRecords(['initial', 'preallocated']), 'w0', 16);
      expect(judge('004-prealloc-safe/lab-racing', recs).verdict).to.equal('holds');
      const noWait = recs.map((r) => ({ ...r, loadavg: { start: 0.1, end: 0.1, cores: 2 } }));
      const v = judge('004-prealloc-safe/lab-racing', noWait);
      expect(v.verdict).to.equal('not-reproduced');
      expect(v.setting.absent).to.equal('no-evidence');
      expect(v.figure).to.match(/agree with the oracle/);
      expect(
        judge('004-prealloc-safe/lab-racing', withWriter(dayRecords(['initial']), 'w0', 1)).setting.absent,
      ).to.equal('writers');
      expect(
        judge('004-prealloc-safe/lab-racing', recs, { ...MMAP, host: { cores: 1, usableCores: 1 } }).setting.absent,
      ).to.equal('cores');
      // the source's own claims need no race: judged whatever the cores
      const repeat = (changed, withCounts = 12) =>
        lab.measureRecord({
          study: 'counters',
          name: 'prealloc-repeat',
          variant: 'node-preallocated',
          axis: { part: 'prealloc-repeat' },
          value: changed,
          unit: 'documents',
          what: '',
          extra: { calls: 12, existing: 12, withCounts, changed },
        });
      expect(judge('004-prealloc-safe/repeat', [...noWait, repeat(0)]).verdict).to.equal('holds');
      // "nothing changes" has no direction: a changed count FAILS it, never REVERSED (col-2 read)
      expect(judge('004-prealloc-safe/repeat', [...noWait, repeat(1)]).verdict).to.equal('fails');
      // without the step on counted documents the day's agreement is not evidence: fails closed
      expect(judge('004-prealloc-safe/repeat', noWait).setting.absent).to.equal('no-evidence');
      expect(judge('004-prealloc-safe/repeat', [...noWait, repeat(0, 0)]).verdict).to.equal('not-reproduced');
      expect(judge('004-prealloc-safe/without', noWait).verdict).to.equal('holds');
      const bad = noWait.map((r) => (r.variant === 'node-initial' ? { ...r, agrees: false } : r));
      expect(judge('004-prealloc-safe/without', bad).verdict).to.equal('fails');
    });

    it('every claim that can be judged gone, reversed or unsupported here carries a mechanism with a reference', function () {
      const ids = [
        '004-growing-documents-collapse/collapse',
        '004-growing-documents-collapse/moves',
        '004-preallocation-fixes-it/fix',
        '004-preallocation-fixes-it/never-moved',
        '004-collections-wash',
        '004-id-regex-prefix',
        '004-bson-vs-relational-size',
        // FAILS carries its mechanism too: a changed count or a lost $inc needs the upsert's why
        '004-prealloc-safe/repeat',
        '004-prealloc-safe/without',
        '004-prealloc-safe/lab-racing',
      ];
      for (const id of ids) {
        const c = counters.claims.find((x) => x.id === id);
        expect(c.mechanism, id).to.be.an('object');
        expect(c.mechanism.ref, id).to.match(/^https:\/\/(www\.)?(mongodb\.com\/docs|github\.com\/mongodb\/mongo)\//);
      }
      // "nothing changes", "correct" have no direction: their failing word is FAILS (col-2 read)
      for (const id of ['004-prealloc-safe/repeat', '004-prealloc-safe/without', '004-prealloc-safe/lab-racing']) {
        const c = counters.claims.find((x) => x.id === id);
        expect(c.boundary, id).to.match(/: fails\b/);
        expect(c.boundary, id).not.to.match(/\breversed\b/i);
      }
      // the array claim's note and mechanism assert no conclusion its interval does not give (col-2 read)
      const arr = counters.claims.find((x) => x.id === '004-array-no-faster/absolute');
      expect(arr.mechanism.why).not.to.match(/fits the array being faster/);
      // the old wrong explanation is gone from every entry
      for (const c of counters.claims)
        expect(JSON.stringify(c.mechanism || '') + c.boundary, c.id).to.not.match(
          /never updates (a document )?in place/,
        );
    });
  });
});
