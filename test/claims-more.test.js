'use strict';
// The verdict rules of bigagg, inserts, coherency, tasks, joins and counters on crafted records:
// a figure on either side of a rule's threshold flips its verdict, and missing records make it
// not measurable. The records are built the way the runner builds them (lab.harness rounds, then
// lab.pointRecords; lab.measureRecord for measures), with the axes, variants and `extra` fields each
// study really writes (see its variants and docs/data/*.json). Pure: no server is started.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const lab = require('../scripts/lib/lab');
const claims = require('../lib/core/claims');
const bigagg = require('../lib/studies/bigagg');
const inserts = require('../lib/studies/inserts');
const coherency = require('../lib/studies/coherency');
const tasks = require('../lib/studies/tasks');
const joins = require('../lib/studies/joins');
const counters = require('../lib/studies/counters');

/**
 * One axis point as the runner records it: `variants` maps a name to its per-run ms (or
 * { ms, answer, extra, plan }); 3 timed rounds against `baseline` at 0.99, 1 and 1.01 times `ms` (a drift
 * every variant shares): medians are the given times, per-round ratios their ratios. `expected` is
 * the oracle's answer.
 */
function point(study, axis, variants, baseline, expected) {
  const spec = Object.fromEntries(Object.entries(variants).map(([n, v]) => [n, typeof v === 'number' ? { ms: v } : v]));
  const h = lab.harness(Object.keys(spec), { warmup: 0, rounds: 3, baseline });
  let step;
  while ((step = h.next()) !== null) {
    const v = spec[step.variant];
    h.record(step, v.ms * (0.99 + 0.01 * step.round), v.answer === undefined ? 1 : v.answer, v.extra);
  }
  const o = expected === undefined ? {} : { expected };
  const plans = Object.fromEntries(Object.entries(spec).filter(([, v]) => v.plan).map(([n, v]) => [n, v.plan]));
  return lab.pointRecords({ name: study }, {}, axis, h.result(), plans, o);
}

function measure(study, name, axis, value, variant) {
  return lab.measureRecord({ study, name, variant, axis, value, unit: '' });
}

const ENV = { server: { version: '6.0.5' }, host: { cores: 2 } };

function verdictOf(entry, id, recs, env = ENV) {
  const v = claims.judge(entry, recs, env).find((c) => c.id === id);
  expect(v, id).to.not.equal(undefined);
  return v;
}

describe('claims ledger, more studies: verdict rules flip with the figure', function () {
  describe('bigagg', function () {
    const GB = 1024 ** 3;
    const MB = 1024 ** 2;
    // collStats per compressor, as measures() writes them at each compression point
    const sizes = (compressor, data, storage) => [
      measure('bigagg', 'dataBytes', { part: 'compression', compressor }, data),
      measure('bigagg', 'storageBytes', { part: 'compression', compressor }, storage),
    ];

    it('zlib size: holds at BSON/zlib 2.6x, changed at 2.4x (threshold 2.5x), not measurable without a zlib collection', function () {
      const held = verdictOf(bigagg, '001-bigagg-zlib-size', sizes('zlib', 2.6e9, 1e9));
      expect(held).to.include({ verdict: 'holds', figure: 'BSON/zlib 2.60x' });
      expect(held.why).to.match(/still cuts it/);
      const v = verdictOf(bigagg, '001-bigagg-zlib-size', sizes('zlib', 2.4e9, 1e9));
      expect(v).to.include({ verdict: 'changed', figure: 'BSON/zlib 2.40x' });
      expect(v.why).to.match(/only 2\.40x/);
      expect(verdictOf(bigagg, '001-bigagg-zlib-size', sizes('snappy', 2.6e9, 1e9)).verdict).to.equal('not-measurable');
    });

    // cold: one 'cold' variant per compressor point; warm: the script's 'seed' at the compression points
    const coldWarm = (noneCold, zlibCold) => [
      ...point('bigagg', { part: 'compression', compressor: 'none' }, { seed: 1000 }),
      ...point('bigagg', { part: 'compression', compressor: 'zlib' }, { seed: 1050 }),
      ...point('bigagg', { part: 'cold', compressor: 'none' }, { cold: noneCold }),
      ...point('bigagg', { part: 'cold', compressor: 'zlib' }, { cold: zlibCold }),
    ];

    it('zlib read speed: holds when zlib is clearly faster cold (0.7x), changed at 0.9x and at 1.06x (no disk wait)', function () {
      const held = verdictOf(bigagg, '001-bigagg-compressor-speed', coldWarm(1000, 700));
      expect(held).to.include({ verdict: 'holds', figure: 'zlib/none: cold 0.70x, warm 1.05x' });
      expect(held.why).to.match(/read faster/);
      expect(verdictOf(bigagg, '001-bigagg-compressor-speed', coldWarm(1000, 900)).verdict).to.equal('changed');
      const v = verdictOf(bigagg, '001-bigagg-compressor-speed', coldWarm(1000, 1060));
      expect(v).to.include({ verdict: 'changed', figure: 'zlib/none: cold 1.06x, warm 1.05x' });
      expect(v.why).to.match(/decompressing is a cost/);
      expect(verdictOf(bigagg, '001-bigagg-compressor-speed', coldWarm(1000, 700).filter((r) => r.axis.part !== 'cold')).verdict).to.equal('not-measurable');
    });

    // the cache part: scan-cpu at each cache size (one point each), extra from B.measured
    const cache = (size, ms, extra, expected) => point('bigagg', { part: 'cache', cache: size, compressor: 'zlib' },
      { 'scan-cpu': { ms, answer: { rows: 12 }, extra } }, 'scan-cpu', expected);
    const smallCache = (diskMB, dataBytes = 1.5 * GB) => [
      ...sizes('zlib', dataBytes, 0.45 * GB),
      ...cache('default', 1000, { cpuSeconds: 1, bytesReadIntoCache: 0, diskReadBytes: 4096, cacheMaxBytes: 12 * GB }),
      ...cache('0.25GB', 1200, { cpuSeconds: 1.2, bytesReadIntoCache: 1500e6, diskReadBytes: diskMB * 1e6, cacheMaxBytes: 0.25 * GB }),
    ];

    it('small cache: holds when under 5% of a run comes from the disk (60 of 1,500 MB), not measurable at 90 MB or when the data fits', function () {
      const held = verdictOf(bigagg, '001-bigagg-small-cache', smallCache(60));
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.equal('0.25 GB vs default: time 1.20x, mongod CPU 1.20x; per run 1,500 MB into the cache, 60 MB from disk');
      expect(held.why).to.match(/from the OS page cache/);
      // the rule has no 'changed' side: disk reads mean this machine's RAM did not keep the files
      const v = verdictOf(bigagg, '001-bigagg-small-cache', smallCache(90));
      expect(v.verdict).to.equal('not-measurable');
      expect(v.figure).to.match(/90 MB from disk/);
      expect(v.why).to.match(/did not keep the files in the OS page cache/);
      expect(verdictOf(bigagg, '001-bigagg-small-cache', smallCache(60, 0.2 * GB)).why).to.match(/fits in 0\.25 GB/);
      expect(verdictOf(bigagg, '001-bigagg-small-cache', sizes('zlib', GB, GB)).why).to.match(/needs the cache part/);
    });

    // `expected`: the oracle's answer (12 rows); another one makes the 2 MB run disagree
    const twoMB = (max, expected = { rows: 12 }) => [
      ...cache('default', 1000, { cacheMaxBytes: 12 * GB }, { rows: 12 }),
      ...cache('2MB', 1200, { cacheMaxBytes: max }, expected),
    ];

    it('2 MB cache: holds with a 2 MB cache and the right answer, changed when the cache is raised (256 MB) or the answer is wrong', function () {
      const held = verdictOf(bigagg, '001-bigagg-2mb-cache', twoMB(2 * MB));
      expect(held).to.include({ verdict: 'holds', figure: '2 MB vs default: 1.20x the time; cache 2.0 MB' });
      expect(held.why).to.match(/^mongod 6\.0\.5 still starts/);
      expect(verdictOf(bigagg, '001-bigagg-2mb-cache', twoMB(4 * MB)).verdict).to.equal('holds');
      const raised = verdictOf(bigagg, '001-bigagg-2mb-cache', twoMB(256 * MB));
      expect(raised).to.include({ verdict: 'changed', figure: '2 MB vs default: 1.20x the time; cache 256 MB' });
      expect(raised.why).to.match(/does not keep the cache that small/);
      const wrong = twoMB(2 * MB, { rows: 11 });
      expect(wrong.find((r) => r.axis.cache === '2MB').agrees).to.equal(false);
      const v = verdictOf(bigagg, '001-bigagg-2mb-cache', wrong);
      expect(v.verdict).to.equal('changed');
      expect(v.why).to.match(/answers wrongly/);
      expect(verdictOf(bigagg, '001-bigagg-2mb-cache', twoMB(2 * MB).filter((r) => r.axis.cache !== '2MB')).verdict).to.equal('not-measurable');
    });

    // the split part: k ranges at once against split-1, cores in each record's extra
    const split = (k2speedup, cores = 2) => point('bigagg', { part: 'split', compressor: 'snappy', clustered: true }, {
      'split-1': { ms: 1000, answer: { rows: 12 }, extra: { k: 1, cores } },
      'split-2': { ms: 1000 / k2speedup, answer: { rows: 12 }, extra: { k: 2, cores } },
      'split-4': { ms: 1000 / k2speedup, answer: { rows: 12 }, extra: { k: 4, cores } },
    }, 'split-1');

    it('shards scale: holds at k=2 1.4x, changed at 1.2x (threshold 1.3x), not measurable on one core or without the split part', function () {
      const held = verdictOf(bigagg, '001-bigagg-shards-scale', split(1.4));
      expect(held).to.include({ verdict: 'holds', figure: 'k=2 1.40x, k=4 1.40x on 2 cores' });
      const v = verdictOf(bigagg, '001-bigagg-shards-scale', split(1.2));
      expect(v).to.include({ verdict: 'changed', figure: 'k=2 1.20x, k=4 1.20x on 2 cores' });
      expect(v.why).to.match(/not faster than one/);
      // the cores come from the records (the machine that ran them), not from the one judging
      expect(verdictOf(bigagg, '001-bigagg-shards-scale', split(1.4, 1), { ...ENV, host: { cores: 16 } }).verdict).to.equal('not-measurable');
      expect(verdictOf(bigagg, '001-bigagg-shards-scale', []).why).to.equal('needs the split part');
    });

    const together = (gain) => point('bigagg', { part: 'concurrent', compressor: 'snappy' }, {
      'together-1': 1000, 'together-2': 2000 / gain, 'together-4': 4000 / gain,
    }, 'together-1');

    it('one thread per aggregation: holds when 2 at once give 1.4x the throughput, changed at 1.2x, not measurable on one core', function () {
      const held = verdictOf(bigagg, '001-bigagg-one-thread', together(1.4));
      expect(held).to.include({ verdict: 'holds', figure: '2 at once: 1.40x the throughput of 1' });
      expect(held.why).to.match(/one thread on 6\.0\.5/);
      const v = verdictOf(bigagg, '001-bigagg-one-thread', together(1.2));
      expect(v).to.include({ verdict: 'changed', figure: '2 at once: 1.20x the throughput of 1' });
      expect(v.why).to.match(/under 1\.3x/);
      expect(verdictOf(bigagg, '001-bigagg-one-thread', together(1.4), { ...ENV, host: { cores: 1 } }).verdict).to.equal('not-measurable');
      expect(verdictOf(bigagg, '001-bigagg-one-thread', []).why).to.equal('needs the concurrent part');
    });
  });
  describe('inserts', function () {
    // A point of the batch part: each variant inserts N documents (its answer is the count), at the
    // given docs/s; the rules read docs/s = answer / median.
    const N = 1000;
    const batchPoint = (batch, W, rates) => point('inserts', { part: 'batch', batch, W, size: 1024, w: 1 },
      Object.fromEntries(Object.entries(rates).map(([v, rate]) => [v, { ms: N / rate * 1000, answer: N, extra: { docs: N, docsPerSec: rate } }])), 'async');
    const bulk = ({ mongo1 = 2000, mongo1000 = 40000, pg1, pg1000 } = {}) => [
      ...batchPoint(1, 1, pg1 ? { async: mongo1, pg: pg1 } : { async: mongo1 }),
      ...batchPoint(1000, 1, pg1000 ? { async: mongo1000, pg: pg1000 } : { async: mongo1000 }),
    ];

    it('bulk: holds with 20x batches and MongoDB 6.7x PostgreSQL one by one, changed at 4x (threshold 5x) and when batches give 1.4x', function () {
      const held = verdictOf(inserts, '002-bulk', bulk({ pg1: 300, pg1000: 5000 }));
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.include('MongoDB insertMany 1000 20x insertOne (2,000/s -> 40,000/s)');
      expect(held.figure).to.include('MongoDB/PostgreSQL: 6.7x one by one, 8.0x in batches');
      expect(held.why).to.match(/MongoDB leads the SQL peer \(6\.7x one by one\)/);
      const v = verdictOf(inserts, '002-bulk', bulk({ pg1: 500, pg1000: 5000 }));
      expect(v.verdict).to.equal('changed');
      expect(v.why).to.match(/not ~16x faster than a SQL store/);
      const flat = verdictOf(inserts, '002-bulk', bulk({ mongo1000: 2800, pg1: 300, pg1000: 5000 }));
      expect(flat).to.include({ verdict: 'changed', why: 'batches did not beat one-by-one inserts here' });
      // PostgreSQL's own batches must win too
      expect(verdictOf(inserts, '002-bulk', bulk({ pg1: 300, pg1000: 400 })).verdict).to.equal('changed');
    });

    it('bulk: without PostgreSQL only the bulk half is judged; not measurable without batch 1 and 1000', function () {
      const v = verdictOf(inserts, '002-bulk', bulk());
      expect(v.verdict).to.equal('holds');
      expect(v.why).to.match(/PostgreSQL was not measured/);
      expect(verdictOf(inserts, '002-bulk', batchPoint(1, 1, { async: 2000 })).verdict).to.equal('not-measurable');
    });

    // insertOne (batch 1) by W writers of each kind
    const writers = (procs, asyncs = procs) => Object.keys(procs).flatMap((W) =>
      batchPoint(1, Number(W), { async: asyncs[W], connections: asyncs[W], processes: procs[W] }));

    it('processes: holds when 4 processes give 1.4x one, changed at 1.2x (threshold 1.3x), not measurable with one W', function () {
      const held = verdictOf(inserts, '002-processes', writers({ 1: 1000, 2: 1200, 4: 1400 }));
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.match(/^insertOne, processes: W1 1,000\/s, W2 1,200\/s, W4 1,400\/s; async loops/);
      expect(held.why).to.match(/best 4 processes, 1\.4x one\), then flatten: on 2 cores/);
      expect(held.why).to.match(/keep up with processes/);
      const v = verdictOf(inserts, '002-processes', writers({ 1: 1000, 2: 1100, 4: 1200 }, { 1: 500, 2: 600, 4: 700 }));
      expect(v.verdict).to.equal('changed');
      expect(v.why).to.match(/did not raise throughput on this machine \(2 cores; best 4 processes, 1\.20x one/);
      expect(v.why).to.match(/did not keep up with processes/);
      expect(verdictOf(inserts, '002-processes', writers({ 1: 1000 })).verdict).to.equal('not-measurable');
    });
  });
  describe('coherency', function () {
    // One race point: each pattern keeps every key (answer) and counts its duplicates per race.
    const race = (dups, mode = 'connections') => point('coherency', { chars: 1024, n: 1024 },
      Object.fromEntries(Object.entries(dups).map(([v, runs]) => [v, { ms: 1000, answer: { keys: 1024 },
        extra: { duplicates: runs[runs.length - 1], duplicatesPerRun: runs, docs: 1024 + runs[runs.length - 1], W: 16,
          ...(v.startsWith('pg-') ? {} : { mode }) } }])), 'check-then-insert', { keys: 1024 });

    it('holds when check-then-insert duplicates (even once) and PostgreSQL does not, changed at 0 duplicates', function () {
      const held = verdictOf(coherency, '002-coherency', race({ 'check-then-insert': [1, 1, 1], 'unique-insert': [0, 0, 0] }));
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.equal('W=16 connections: check-then-insert duplicates 1,024 chars x 1,024: 1 (1..1); fixed patterns unique-insert 0 (0..0)');
      expect(held.why).to.equal('the race is real, and every fixed pattern gives 0; PostgreSQL was not measured');
      const none = verdictOf(coherency, '002-coherency', race({ 'check-then-insert': [0, 0, 0], 'unique-insert': [0, 0, 0] }));
      expect(none).to.include({ verdict: 'changed', why: 'no duplicates appeared in this race' });
      const pgClean = verdictOf(coherency, '002-coherency', race({ 'check-then-insert': [400, 430, 500], 'pg-check-then-insert': [0, 0, 0] }));
      expect(pgClean.verdict).to.equal('holds');
      expect(pgClean.why).to.match(/PostgreSQL \(ACID, READ COMMITTED\) racing the same way did not duplicate/);
    });

    it('changed when PostgreSQL duplicates as well (the pattern, not the store); not measurable without check-then-insert', function () {
      const v = verdictOf(coherency, '002-coherency', race({ 'check-then-insert': [400, 430, 500], 'unique-insert': [0, 0, 0],
        'pg-check-then-insert': [380, 410, 450], 'pg-on-conflict': [0, 0, 0] }));
      expect(v.verdict).to.equal('changed');
      expect(v.figure).to.match(/check-then-insert duplicates 1,024 chars x 1,024: 430 \(400\.\.500\).*PostgreSQL check-then-insert 410 \(380\.\.450\), ON CONFLICT 0/);
      expect(v.why).to.match(/it is the pattern, not the store/);
      expect(verdictOf(coherency, '002-coherency', race({ 'unique-insert': [0, 0, 0] })).verdict).to.equal('not-measurable');
    });
  });
  describe('tasks', function () {
    // The pick point: each variant makes PICKS picks per run (answer.picks); the rule reads ms per pick.
    const PICKS = 10;
    const picks = (msPerPick) => point('tasks', { part: 'pick' }, Object.fromEntries(Object.entries(msPerPick).map(([v, ms]) =>
      [v, { ms: ms * PICKS, answer: { picks: PICKS, unprocessed: PICKS } }])), 'skip-scan', { picks: PICKS, unprocessed: PICKS });
    const claiming = (double = 0) => point('tasks', { part: 'claim', W: 4 }, {
      'claim-first': { ms: 1000, answer: { claimed: 1000, double, lost: 0, left: 0, mismatched: 0 }, extra: { claimsPerSec: 1000, writeConflicts: 900, W: 4 } },
      'claim-random': { ms: 600, answer: { claimed: 1000, double: 0, lost: 0, left: 0, mismatched: 0 }, extra: { claimsPerSec: 1667, writeConflicts: 20, W: 4 } },
    }, 'claim-first');

    it('random pick: changed when a random indexed field picks 2.1x faster than skip(R), holds at 1.9x (threshold 2x)', function () {
      const v = verdictOf(tasks, '002-random-pick', [...picks({ 'skip-scan': 4.2, 'skip-index': 4.4, 'random-field': 2 }), ...claiming()]);
      expect(v.verdict).to.equal('changed');
      expect(v.figure).to.equal('skip-scan 4.20 ms/pick, skip-index 4.40 ms/pick, random-field 2.00 ms/pick; ' +
        'claiming: claim-first W4: 1,000 claims/s, 900 write conflicts; claim-random W4: 1,667 claims/s, 20 write conflicts; no task claimed twice or lost');
      expect(v.why).to.match(/^skip\(R\) still works but walks R entries per pick \(2\.10x a random indexed field here/);
      const held = verdictOf(tasks, '002-random-pick', picks({ 'skip-scan': 3.8, 'skip-index': 4.4, 'random-field': 2, 'pg-offset': 3 }));
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.equal('skip-scan 3.80 ms/pick, skip-index 4.40 ms/pick, random-field 2.00 ms/pick, pg-offset 3.00 ms/pick');
      expect(held.why).to.match(/^skip\(R\) picks within 2x of the fastest alternative here \(a random indexed field: skip takes 1\.90x its time\)/);
    });

    it('random pick: the faster skip form against the fastest alternative; double claims show in the figure; not measurable without random-field', function () {
      // skip over the index at 1.5x the random field: holds, though the scan form is 5x
      expect(verdictOf(tasks, '002-random-pick', picks({ 'skip-scan': 10, 'skip-index': 3, 'random-field': 2 })).verdict).to.equal('holds');
      // $sample first is the fastest alternative here: skip takes 2.5x its time
      const v = verdictOf(tasks, '002-random-pick', picks({ 'skip-scan': 2.5, 'sample-first': 1, 'match-sample': 30, 'random-field': 2 }));
      expect(v.verdict).to.equal('changed');
      expect(v.why).to.match(/\(2\.50x \$sample first here.*\$sample first is the fastest pick here/);
      expect(verdictOf(tasks, '002-random-pick', [...picks({ 'skip-scan': 4, 'random-field': 1 }), ...claiming(3)]).figure).to.match(/DOUBLE CLAIMS OR LOSSES$/);
      expect(verdictOf(tasks, '002-random-pick', picks({ 'skip-scan': 4, 'sample-first': 1 }))).to.include({ verdict: 'not-measurable', why: 'needs skip-scan and random-field' });
    });
  });
  describe('joins', function () {
    // One point, every variant returning the same per-region rows; plans as the study records them.
    const ROWS = [{ region: 'a', orders: 1, cents: 1 }];
    const PLANS = { 'lookup-id': 'EQ_LOOKUP IndexedLoopJoin', 'lookup-indexed': 'EQ_LOOKUP IndexedLoopJoin', 'lookup-unindexed': 'EQ_LOOKUP HashJoin',
      'lookup-pipeline': '$lookup (classic, per document)', 'pg-join': 'Hash Join' };
    const join = (ms) => point('joins', {}, Object.fromEntries(Object.entries(ms).map(([v, t]) =>
      [v, { ms: t, answer: ROWS, plan: PLANS[v] ? { stage: PLANS[v], explainVersion: v === 'pg-join' ? 'sql' : '2' } : undefined }])), Object.keys(ms)[0], ROWS);

    it('joins: changed when the client join beats the best $lookup (as documented: 1.7x), holds when $lookup is 2.1x faster, changed at 1.9x', function () {
      const v = verdictOf(joins, '002-joins', join({ client: 800, 'node-map': 730, 'lookup-id': 1970, 'lookup-indexed': 1950, 'lookup-unindexed': 1260, 'lookup-pipeline': 4810, 'pg-join': 102 }));
      expect(v.verdict).to.equal('changed');
      expect(v.figure).to.equal('client 800 ms, node-map 730 ms, lookup-id 1.97 s (EQ_LOOKUP IndexedLoopJoin), lookup-indexed 1.95 s (EQ_LOOKUP IndexedLoopJoin), ' +
        'lookup-unindexed 1.26 s (EQ_LOOKUP HashJoin), lookup-pipeline 4.81 s ($lookup (classic, per document)), pg-join 102 ms (Hash Join)');
      expect(v.why).to.match(/the client join \(node-map\) is 1\.7x faster than the best \$lookup \(lookup-unindexed\)/);
      expect(v.why).to.match(/PostgreSQL's Hash Join took 102 ms \(7\.16x faster than the client join\)$/);
      const held = verdictOf(joins, '002-joins', join({ 'node-map': 1050, 'lookup-indexed': 500, 'lookup-unindexed': 900 }));
      expect(held.verdict).to.equal('holds');
      expect(held.why).to.match(/^the best \$lookup \(lookup-indexed\) is 2\.10x faster than the client join \(node-map\): simulating the join in the client still costs/);
      const near = verdictOf(joins, '002-joins', join({ 'node-map': 950, 'lookup-indexed': 500 }));
      expect(near.verdict).to.equal('changed');
      expect(near.why).to.match(/is only 1\.9x slower than the best \$lookup \(lookup-indexed\)/);
    });

    it('joins: the mongosh client join when Node\'s did not run; not measurable without a client join or without a $lookup', function () {
      expect(verdictOf(joins, '002-joins', join({ client: 1050, 'lookup-id': 500 })).why).to.match(/lookup-id\) is 2\.10x faster than the client join \(client\)/);
      expect(verdictOf(joins, '002-joins', join({ 'lookup-id': 500, 'pg-join': 50 }))).to.include({ verdict: 'not-measurable', why: 'no client join ran' });
      const v = verdictOf(joins, '002-joins', join({ 'node-map': 700, 'pg-join': 100 }));
      expect(v).to.include({ verdict: 'not-measurable', figure: 'node-map 700 ms, pg-join 100 ms (Hash Join)' });
      expect(v.why).to.match(/no \$lookup ran/);
    });
  });
  describe('counters', function () {
    // The simulated day: one point per hour, each schema timed minute by minute (times[i] = ms of
    // HITS hits), against node-preallocated. `wps` gives each schema's writes/s at 00-02h and 22-24h.
    const HITS = 100;
    const day = (wps) => [0, 1, 22, 23].flatMap((hour) => point('counters', { day: 0, hour },
      Object.fromEntries(Object.entries(wps).map(([schema, [start, end]]) => [`node-${schema}`,
        { ms: HITS * 1000 / (hour < 12 ? start : end), answer: { hits: HITS }, extra: { hitsPerMinute: HITS, writers: 4, wc: 'w1' } }])),
      'node-preallocated'));
    // minute 0 vs minute 1439 per layout and way of sending: `ratios` maps 'layout/mode' to 1439 / 0
    const scan = (ratios) => Object.entries(ratios).flatMap(([k, x]) => {
      const [layout, mode] = k.split('/');
      return point('counters', { part: 'scan', layout, mode }, {
        'minute-0': { ms: 10, answer: 1000, extra: { updates: 1000 } },
        'minute-1439': { ms: 10 * x, answer: 1000, extra: { updates: 1000 } },
      }, 'minute-0');
    });
    const judge = (id, recs) => verdictOf(counters, id, recs);

    it('growing documents collapse: holds at 0.35x the start ratio, changed at 0.45x and 0.75x, obsolete at 0.85x (thresholds 0.4x, 0.8x)', function () {
      const at = (end) => judge('004-growing-documents-collapse', day({ preallocated: [4000, 4000], initial: [4000, 4000 * end] }));
      const held = at(0.35);
      expect(held).to.include({ verdict: 'holds', figure: 'initial 4,000 -> 1,400 writes/s; from 1.00x to 0.35x the preallocated schema (0.35x)' });
      expect(held.why).to.match(/loses most of its rate/);
      expect(at(0.45).verdict).to.equal('changed');
      expect(at(0.75)).to.include({ verdict: 'changed', why: 'the growing schema loses some ground, far from the source\'s collapse' });
      const gone = at(0.85);
      expect(gone.verdict).to.equal('obsolete');
      expect(gone.why).to.match(/^WiredTiger never updates a document in place/);
      expect(judge('004-growing-documents-collapse', day({ preallocated: [4000, 4000] })).verdict).to.equal('not-measurable');
    });

    it('preallocation fixes it: holds at 2.2x the growing schema by 22-24h, changed at 1.8x with a collapse, obsolete without one', function () {
      const at = (initialEnd) => judge('004-preallocation-fixes-it', day({ preallocated: [4000, 4000], initial: [4000, initialEnd] }));
      const held = at(1800);
      expect(held).to.include({ verdict: 'holds', figure: 'preallocated / initial at 22-24h: 2.22x' });
      const v = at(2200);
      expect(v).to.include({ verdict: 'changed', figure: 'preallocated / initial at 22-24h: 1.82x', why: 'preallocation helps less than in the source' });
      const gone = at(3800);
      expect(gone).to.include({ verdict: 'obsolete', figure: 'preallocated / initial at 22-24h: 1.05x' });
      expect(gone.why).to.match(/no collapse left to fix/);
      expect(judge('004-preallocation-fixes-it', day({ initial: [4000, 1000] })).verdict).to.equal('not-measurable');
    });

    const SCAN = { 'flat/bulk': 2.3, 'flat/updateMany': 3, 'flat/single': 1.1, 'hierarchical/bulk': 1.05, 'array/bulk': 2 };

    it('field scan and hierarchy: holds when the scan shows over the day (1.3x), changed at 1.2x, obsolete without a scan cost, changed when the hierarchy keeps it', function () {
      const at = (hierEnd) => judge('004-field-scan-hierarchy', [...scan(SCAN), ...day({ preallocated: [4000, 4000], hierarchical: [4000, hierEnd] })]);
      const held = at(5200);
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.equal('minute 1439 / minute 0 per update: flat 2.30x in bulk, 3.00x with updateMany, 1.10x with one round trip each; ' +
        'hierarchical 23:59 / 00:00 1.05x in bulk; over the day hierarchical / preallocated goes from 1.00x to 1.30x (1.30x)');
      const v = at(4800);
      expect(v.verdict).to.equal('changed');
      expect(v.why).to.match(/a hit-by-hit workload hardly sees it/);
      expect(judge('004-field-scan-hierarchy', scan({ ...SCAN, 'flat/bulk': 1.2 }))).to.include({ verdict: 'obsolete', why: 'no measurable cost of the field\'s position' });
      expect(judge('004-field-scan-hierarchy', scan({ ...SCAN, 'hierarchical/bulk': 1.4 }))).to.include({ verdict: 'changed', why: 'the scan is there, but the hierarchy does not remove it' });
      const none = judge('004-field-scan-hierarchy', day({ preallocated: [4000, 4000], hierarchical: [4000, 5200] }));
      expect(none.verdict).to.equal('not-measurable');
      expect(none.why).to.match(/SCAN/);
    });

    it('array no faster: holds when the array pays the scan (2x) and keeps its ratio over the day, changed without the scan or with a drift', function () {
      const at = (arrScan, arrEnd) => judge('004-array-no-faster', [...scan({ ...SCAN, 'array/bulk': arrScan }), ...day({ preallocated: [4000, 4000], array: [4000, arrEnd] })]);
      const held = at(2, 4200);
      expect(held.verdict).to.equal('holds');
      expect(held.figure).to.equal('array minute 1439 / minute 0 in bulk 2.00x (flat 2.30x); array / preallocated writes/s 1.05x at 22-24h (1.05x its 00-02h ratio)');
      expect(held.why).to.match(/walking the array like a field/);
      const fast = at(1.2, 4200);
      expect(fast.verdict).to.equal('changed');
      expect(fast.why).to.match(/reaches minute 1439 about as fast as minute 0/);
      const gains = at(2, 5200);
      expect(gains.verdict).to.equal('changed');
      expect(gains.why).to.match(/gains ground against the preallocated sub-document over the day \(1\.30x\)/);
      expect(at(2, 3000).why).to.match(/loses ground .* \(0\.75x\)/);
      // without the day, the scan alone decides
      expect(judge('004-array-no-faster', scan(SCAN)).verdict).to.equal('holds');
      expect(judge('004-array-no-faster', day({ preallocated: [4000, 4000], array: [4000, 4000] })).verdict).to.equal('not-measurable');
    });
  });
  // The documented runs, judged again: the verdicts docs/ reports. A rule change that moves one of
  // them shows here (and must be reported with the change). The environment is the file's own, so
  // cores come from the file, not from the machine running the test.
  describe('the documented result files keep their verdicts', function () {
    const STUDIES = { bigagg, inserts, coherency, tasks, joins, counters };
    const NM = 'not-measurable';
    const BIGAGG = ['001-bigagg-zlib-size', '001-bigagg-compressor-speed', '001-bigagg-small-cache', '001-bigagg-2mb-cache', '001-bigagg-shards-scale', '001-bigagg-one-thread'];
    const bigaggVerdicts = (...vs) => Object.fromEntries(BIGAGG.map((id, i) => [id, vs[i]]));
    const EXPECTED = {
      'bigagg-10m.json': bigaggVerdicts('holds', 'changed', NM, 'holds', NM, NM),
      'bigagg-10m-cache.json': bigaggVerdicts(NM, NM, 'holds', 'holds', NM, NM),
      'bigagg-1m.json': bigaggVerdicts(NM, NM, NM, NM, 'holds', 'holds'),
      'inserts-doc-run.json': { '002-bulk': 'changed', '002-processes': 'changed' },
      'inserts-seed.json': { '002-bulk': 'changed', '002-processes': 'holds' },
      'coherency-doc-run.json': { '002-coherency': 'changed' },
      'coherency-grid-doc-run.json': { '002-coherency': 'changed' },
      'coherency-54-processes-doc-run.json': { '002-coherency': 'holds' },
      'coherency-seed.json': { '002-coherency': 'changed' },
      'tasks-doc-run.json': { '002-random-pick': 'changed' },
      'tasks-seed.json': { '002-random-pick': 'changed' },
      'joins-doc-run.json': { '002-joins': 'changed' },
      'joins-20k-doc-run.json': { '002-joins': 'changed' },
      'counters-seed-run.json': { '004-growing-documents-collapse': 'obsolete', '004-preallocation-fixes-it': 'obsolete', '004-field-scan-hierarchy': 'changed', '004-array-no-faster': 'holds' },
      'counters-scan-quiet.json': { '004-growing-documents-collapse': NM, '004-preallocation-fixes-it': NM, '004-field-scan-hierarchy': 'changed', '004-array-no-faster': 'holds' },
      'quick-run.json': { ...bigaggVerdicts('holds', 'changed', NM, 'holds', 'holds', 'holds'), '002-bulk': 'changed', '002-processes': 'changed',
        '002-coherency': 'changed', '002-random-pick': 'changed', '002-joins': 'changed',
        '004-growing-documents-collapse': 'obsolete', '004-preallocation-fixes-it': 'obsolete', '004-field-scan-hierarchy': 'holds', '004-array-no-faster': 'changed' },
    };

    for (const [file, want] of Object.entries(EXPECTED)) {
      it(file, function () {
        const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'data', file), 'utf8'));
        const got = {};
        for (const entry of Object.values(STUDIES)) {
          if (!doc.results.some((r) => r.study === entry.name)) continue;
          for (const v of claims.judge(entry, doc.results, doc.environment)) got[v.id] = v.verdict;
        }
        expect(got).to.deep.equal(want);
      });
    }

    it('quick-run.json: the verdicts stored with the run are the ones the rules give now', function () {
      const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'docs', 'data', 'quick-run.json'), 'utf8'));
      for (const entry of Object.values(STUDIES)) {
        for (const v of claims.judge(entry, doc.results, doc.environment)) {
          expect(v.verdict, v.id).to.equal(doc.claims.find((c) => c.id === v.id).verdict);
        }
      }
    });
  });
});
