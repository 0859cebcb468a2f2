'use strict';
// Seed 000 (map/reduce statistics) on the real server: the functions, every variant's result
// against plain Node, the interleaved speed claims, and the real mongosh CLI.
const fs = require('fs');
const os = require('os');
const path = require('path');
const vm = require('vm');
const acorn = require('acorn');
const { expect } = require('chai');
const { MongoClient, Code } = require('mongodb');
const { testDatabase } = require('./helpers');
const sensors = require('../fixtures/sensors');
const fns = require('../scripts/mr_functions');
const mrSweep = require('../lib/mr-sweep');
const { CLIENT_VARIANTS, timeClient, statsDiffer } = require('../lib/mr-client');
const { interleave } = require('../lib/harness');
const { runStudy } = require('../lib/run-study');
const { findStudy } = require('../lib/studies');
const { describeServer } = require('../lib/server');

const N = 100000; // the collection; the $group vs map/reduce claim is made at this size
const FIELD = 'engine_rpm';
const SEED = 1;

// The seed's reduce, verbatim (part 1 of the blog post), to show what the re-reduce rule catches.
const SEED_REDUCE = `function reduceit(key, values) {
    var reduced = values[0];
    for (var i = 1; i < values.length; i++) {
        reduced.sum += values[i];
        reduced.min = Math.min(reduced.min, values[i].min);
        reduced.max = Math.max(reduced.max, values[i].max);
        reduced.count += values[i].count;
    }
    return reduced;
}`;

/** The map function's emitted values over the first n generated rows, computed in Node. */
function mappedValues(n) {
  const out = [];
  const sandbox = { emit: (k, v) => out.push(v), field: FIELD };
  const map = vm.runInNewContext(`(${fns.mrStatsMap.toString()})`, sandbox);
  const next = sensors.SensorGen.rng(SEED);
  for (let i = 0; i < n; i++) map.call(sensors.SensorGen.doc(next, i));
  return out;
}

function sameStats(a, b) {
  return statsDiffer({ ...a, min: a.min, max: a.max }, b) === null;
}

describe('mapreduce study (seed 000)', function () {
  let t;

  before(async function () {
    t = await testDatabase('mapreduce');
    await mrSweep.prepareSensors(t.db, { n: N, seed: SEED, progress: false });
  });

  after(async function () {
    if (t) await t.close();
  });

  describe('the functions a user pastes into Robo 3T', function () {
    const pasteable = ['mrStatsMap', 'mrStatsReduce', 'mrStatsFinalize', 'accStatsInit', 'accStatsAccumulate',
      'accStatsMerge', 'accStatsFinalize', 'fnReading', 'mrStoredMap', 'mrStoredReduce', 'mrStoredFinalize'];

    it('are plain ES2017 without shell-only or modern helpers', function () {
      for (const name of pasteable) {
        const src = fns[name].toString();
        expect(() => acorn.parse(`(${src})`, { ecmaVersion: 2017 }), name).to.not.throw();
        expect(src, name).to.not.match(/\?\.|\?\?|fromEntries|\.flat\(|BigInt|\brequire\b|\bconsole\b|\bEJSON\b|\bdb\./);
      }
    });

    it('are self-contained: each runs from its own source in an empty context', function () {
      const emitted = [];
      const ctx = { emit: (k, v) => emitted.push([k, v]), field: 'x' };
      const map = vm.runInNewContext(`(${fns.mrStatsMap})`, ctx);
      map.call({ x: 3 });
      map.call({ y: 1 }); // no reading: nothing emitted
      map.call({ x: 'n/a' });
      expect(emitted).to.deep.equal([[0, { sum: 3, min: 3, max: 3, count: 1 }]]);
      const reduce = vm.runInNewContext(`(${fns.mrStatsReduce})`, {});
      const finalize = vm.runInNewContext(`(${fns.mrStatsFinalize})`, {});
      expect(finalize(0, reduce(0, [emitted[0][1], { sum: 5, min: 5, max: 5, count: 1 }])))
        .to.deep.equal({ sum: 8, min: 3, max: 5, count: 2, mean: 4 });
    });

    it('reduce(k, [reduce(k, A), reduce(k, B)]) equals reduce(k, A + B), at any split and depth', function () {
      const reduce = vm.runInNewContext(`(${fns.mrStatsReduce})`, {});
      const values = mappedValues(5000);
      const whole = reduce(0, values.map((v) => ({ ...v })));
      const next = sensors.SensorGen.rng(99);
      for (let trial = 0; trial < 50; trial++) {
        const cut = 1 + Math.floor(next() * (values.length - 2));
        const a = reduce(0, values.slice(0, cut));
        const b = reduce(0, values.slice(cut));
        expect(sameStats(reduce(0, [a, b]), whole), `split at ${cut}`).to.equal(true);
        // re-reduce of a re-reduce mixed with fresh map values, as the server may do
        const c = reduce(0, [reduce(0, [a]), ...values.slice(cut, cut + 3)]);
        expect(sameStats(reduce(0, [c, reduce(0, values.slice(cut + 3))]), whole)).to.equal(true);
      }
      expect(sameStats(whole, sensors.referenceStats(5000, FIELD, { seed: SEED }))).to.equal(true);
    });

    it('the seed\'s reduce breaks that rule (it added values[i] where it meant values[i].sum)', function () {
      const seedReduce = vm.runInNewContext(`(${SEED_REDUCE})`, {});
      const values = mappedValues(100);
      const a = seedReduce(0, values.slice(0, 50).map((v) => ({ ...v })));
      expect(a.sum).to.be.a('string'); // "3121.6[object Object]..."
      const ours = fns.mrStatsReduce(0, values);
      expect(ours.sum).to.be.a('number');
    });

    it('on the server too: the seed\'s reduce yields a string sum, ours the Node result', async function () {
      const cmd = (reduce) => ({ mapReduce: 'sensors', map: new Code(fns.mrStatsMap.toString()), reduce: new Code(reduce),
        out: { inline: 1 }, scope: { field: FIELD }, sort: { _id: 1 }, limit: 1000 });
      const bad = await t.db.command(cmd(SEED_REDUCE));
      expect(bad.results[0].value.sum).to.be.a('string');
      const good = await t.db.command(cmd(fns.mrStatsReduce.toString()));
      const ref = sensors.referenceStats(1000, FIELD, { seed: SEED });
      expect(statsDiffer(good.results[0].value, ref)).to.equal(null);
    });
  });

  describe('every variant', function () {
    it('equals plain Node at batches 1, 7, 1000, 2500 and 10^4 (min, max, count exact; sum to 1e-9)', async function () {
      const session = await t.shell();
      const sizes = [1, 7, 1000, 2500, 10000];
      const res = await mrSweep.sweep({ session, db: t.db, sizes, runs: 1, warmup: 0, seed: SEED });
      expect(res.rows).to.have.length(sizes.length * mrSweep.ALL_VARIANTS.length);
      for (const r of res.rows) {
        expect(r.agreesWithNode, `${r.variant} at ${r.batch}`).to.equal(true);
        const ref = sensors.referenceStats(r.batch, FIELD, { seed: SEED });
        expect(r.stats.count).to.equal(ref.count);
        expect(r.stats.min).to.equal(ref.min);
        expect(r.stats.max).to.equal(ref.max);
        expect(Math.abs(r.stats.sum - ref.sum)).to.be.at.most(1e-9 * Math.abs(ref.sum));
        expect(r.explainVersion, r.variant).to.be.oneOf(['1', '2']);
      }
      expect(res.table.split('\n')).to.have.length(2 + sizes.length);
    });

    it('sweep checks are real: a wrong reference makes it fail', async function () {
      const session = await t.shell();
      let err;
      try {
        await mrSweep.sweep({ session, db: t.db, sizes: [10], runs: 1, warmup: 0, variants: ['group', 'client-acc'],
          reference: (n) => ({ ...sensors.referenceStats(n, FIELD, { seed: SEED }), max: -1 }) });
      } catch (e) { err = e; }
      expect(err && err.message).to.match(/disagree.*group: max/s);
    });
  });

  describe('mr_variants.js in mongosh\'s runtime', function () {
    let out;

    before(async function () {
      out = await t.run('mr_variants.js', { SIZES: '1000,10000', RUNS: 2 });
    });

    it('prints the server, the seed\'s table and the engine of every variant', function () {
      const text = out.lines.join('\n');
      expect(text).to.match(/server 6\.|server [0-9]+\.[0-9]+/);
      expect(text).to.match(/storage wiredTiger/);
      expect(text).to.contain('documents per millisecond, mean σ=sd');
      expect(out.lines.some((l) => /^\s*10,000\s+\S+ σ=\S+/.test(l))).to.equal(true);
      expect(text).to.match(/group: \S+, explainVersion [12]/);
      expect(text).to.contain('all variants agree at every batch size');
    });

    it('says that jsMode is ignored since 4.4', function () {
      const line = out.lines.find((l) => l.startsWith('jsMode:'));
      expect(line).to.match(/ignores jsMode \(since 4\.4/);
      const server = out.records.find((r) => r.kind === 'server');
      expect(server.jsModeIgnored).to.equal(true);
    });

    it('emits one row per variant and batch, all equal to plain Node', function () {
      const rows = out.records.filter((r) => r.kind === 'row');
      expect(rows).to.have.length(2 * mrSweep.SERVER_VARIANTS.length);
      for (const r of rows) {
        expect(statsDiffer(r.stats, sensors.referenceStats(r.batch, FIELD, { seed: SEED })), `${r.variant} ${r.batch}`).to.equal(null);
        expect(r.times).to.have.length(2);
        expect(r.docsPerMs).to.be.greaterThan(0);
      }
    });

    it('rejects a bad parameter with a clear message', async function () {
      let err;
      try { await t.run('mr_variants.js', { ONLY: 'mr,nope', SIZES: '10' }); } catch (e) { err = e; }
      expect(String(err && err.message)).to.contain('unknown variant "nope"');
      err = null;
      try { await t.run('mr_variants.js', { FIELD: 'a; drop()', SIZES: '10' }); } catch (e) { err = e; }
      expect(String(err && err.message)).to.contain('parameter FIELD');
    });
  });

  describe('speed (interleaved, median of per-round ratios, wide margins)', function () {
    it('$group is at least 3x faster than map/reduce at 10^5 documents', async function () {
      const session = await t.shell();
      const one = (name) => async () => {
        const recs = require('../lib/lab-lines').parseLabLines(await session.run('mr_variants.js', { SIZES: String(N), RUNS: 0, ONLY: name }));
        return recs.find((r) => r.kind === 'row').times[0];
      };
      const res = await interleave([{ name: 'group', run: one('group') }, { name: 'mr', run: one('mr') }],
        { warmup: 1, rounds: 7, baseline: 'group' }); // the 10^6 sweep measured 4.4 [2.8..6.4] at 10^5: take 7 rounds' median
      const ratio = res.variants.mr.ratio.median;
      this.test.title += ` (measured ${ratio.toFixed(1)}x)`;
      expect(ratio).to.be.at.least(3);
    });

    it('one projected field into accumulators is faster than whole documents into a list', async function () {
      const coll = t.db.collection('sensors');
      const v = (name) => CLIENT_VARIANTS.find((c) => c.name === name);
      const n = 20000;
      const run = (name) => async () => (await timeClient(v(name), coll, n, FIELD)).ms;
      const res = await interleave([{ name: 'client-acc', run: run('client-acc') }, { name: 'client-list', run: run('client-list') }],
        { warmup: 1, rounds: 5, baseline: 'client-acc' });
      const ratio = res.variants['client-list'].ratio.median;
      this.test.title += ` (measured ${ratio.toFixed(1)}x)`;
      expect(ratio).to.be.at.least(1.5);
    });
  });

  describe('the real mongosh CLI, from another directory', function () {
    it('runs the store script: functions saved in system.js, map/reduce calling them agrees', async function () {
      const r = await t.cli('mr_store_functions.js', { FIELD }, { cwd: os.tmpdir() });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/server \S+ \| storage wiredTiger \| query framework/);
      expect(r.stdout).to.contain('all three agree');
      const names = (await t.db.collection('system.js').find().toArray()).map((d) => d._id).sort();
      expect(names).to.deep.equal(['labStatsFinalize', 'labStatsMap', 'labStatsReduce']);
    });

    it('runs the variants script and prints the table', async function () {
      const r = await t.cli('mr_variants.js', { K: 2, RUNS: 1 }, { cwd: os.tmpdir() });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.contain('documents per millisecond');
      expect(r.lines.some((l) => /^\s*100\s+\S+ σ=/.test(l))).to.equal(true);
      expect(r.stdout).to.contain('all variants agree at every batch size');
    });
  });

  describe('the study hook (mongo-perf-lab run mapreduce)', function () {
    let dir;
    let client;
    const dbName = 'labtest_mapreduce_study';

    after(async function () {
      if (client) { await client.db(dbName).dropDatabase().catch(() => {}); await client.close(); }
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      delete process.env.LAB_RESULTS_DIR;
    });

    it('imports, sweeps 10^0..10^2, and writes the table, JSON and chart (SVG, PNG)', async function () {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mr-study-test-'));
      process.env.LAB_RESULTS_DIR = dir;
      client = new MongoClient(t.uri);
      const info = await describeServer(t.uri);
      const res = await runStudy(findStudy('mapreduce'), { server: { uri: t.uri, ...info }, db: dbName, docs: 100, runs: 1, seed: 3 });
      expect(res.sweep.sizes).to.deep.equal([1, 10, 100]);
      const all = res.records.filter((r) => r.kind === 'row' || r.kind === 'sweep');
      expect(all).to.have.length(3 * mrSweep.ALL_VARIANTS.length);
      expect(all.every((r) => r.agreesWithNode)).to.equal(true);
      expect(res.rows.every((r) => r.batch === 100)).to.equal(true);
      for (const ext of ['json', 'md', 'svg', 'png']) expect(fs.statSync(path.join(dir, `mapreduce-100.${ext}`)).size).to.be.greaterThan(100);
      expect(fs.readFileSync(path.join(dir, 'mapreduce-100.svg'), 'utf8')).to.contain('client-parallel');
    });
  });
});
