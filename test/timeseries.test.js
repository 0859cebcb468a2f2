'use strict';
// Seed 003: time series. Every design's answer for every grain and start time is checked against a
// plain Node computation over the same seeded events (plus events placed exactly on the edges),
// and the real mongosh CLI runs each script once.
const os = require('os');
const { expect } = require('chai');
const { testDatabase } = require('./helpers');
const tsFixture = require('../fixtures/timeseries');
const ref = require('../lib/ts-reference');
const { streamInsert } = require('../lib/loader');
const { yearRollupVsRaw } = require('../lib/ts-study');
const { summarizeComparison } = require('../lib/report');
const LabGen = require('../scripts/lib/gen');

const N = 30000;
const SEED = 3;
const GRAIN_SCRIPTS = { seconds: 'ts_seconds_in_minute.js', minutes: 'ts_minutes_in_hour.js', hours: 'ts_hours_in_day.js' };
const DESIGNS = ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'];

function allEvents() {
  return [...tsFixture.events(N, SEED), ...tsFixture.edgeEvents(SEED)];
}

// The reference answer for one grain and start time.
function expected(events, grain, start) {
  const g = tsFixture.GRAINS[grain];
  const iv = ref.calibrate(start, g.width);
  return ref.aggregate(events, iv.from, iv.to, g.group);
}

function groupsOf(records, filter) {
  return records.filter((r) => r.kind === 'group' && Object.entries(filter).every(([k, v]) => r[k] === v))
    .map((r) => ({ t: new Date(r.t), count: r.count, min: r.min, max: r.max, avg: r.avg }));
}

function expectSameRows(actual, wanted, what) {
  expect(actual.map((r) => r.t.toISOString()), `${what}: groups`).to.deep.equal(wanted.map((r) => r.t.toISOString()));
  actual.forEach((r, i) => {
    const w = wanted[i];
    expect(r.count, `${what} ${w.t.toISOString()} count`).to.equal(w.count);
    expect(r.min, `${what} ${w.t.toISOString()} min`).to.equal(w.min);
    expect(r.max, `${what} ${w.t.toISOString()} max`).to.equal(w.max);
    expect(r.avg, `${what} ${w.t.toISOString()} avg`).to.be.closeTo(w.avg, 1e-9);
  });
}

describe('timeseries study (seed 003): grains, agg_year, designs, sizes', function () {
  let t;
  let events;
  let designs; // ts_designs.js output: builds every design, then compares them with EMIT_GROUPS

  before(async function () {
    t = await testDatabase('timeseries');
    await tsFixture.load(t.db, { n: N, seed: SEED });
    // The edge events go in through the same duplicate-safe loader.
    await streamInsert(t.db.collection('randomData'), tsFixture.edgeEvents(SEED), { progress: false });
    events = allEvents();
    designs = await t.run('ts_designs.js', { N, SEED, RUNS: 0, EMIT_GROUPS: true });
  });
  after(async function () {
    if (t) await t.close();
  });

  it('generates events in UTC over 2012, the same ones in the shell and in Node', async function () {
    const first = [...tsFixture.events(5, SEED)];
    const stored = await t.db.collection('randomData').find({ _id: { $gte: 0 } }).sort({ _id: 1 }).limit(5).toArray();
    expect(stored).to.deep.equal(first);
    for (const e of tsFixture.events(2000, SEED)) {
      expect(e.created_on.getUTCFullYear()).to.equal(2012);
    }
    const r = await t.run('ts_seconds_in_minute.js', { COLL: 'selfmade', N: 2000, SEED: 5, VARIANTS: 'raw', EMIT_GROUPS: false, PRINT_ROWS: false });
    expect(r.lines.join('\n')).to.include('generated 2,000 documents');
    const shellMade = await t.db.collection('selfmade').find().sort({ _id: 1 }).toArray();
    expect(shellMade).to.deep.equal([...tsFixture.events(2000, 5)]);
  });

  it('the edge events sit exactly on interval and group boundaries, and change the answers', function () {
    // Without the [from, to) rule the event at `to` would be counted: make sure the data can tell.
    const g = tsFixture.GRAINS.minutes;
    const iv = ref.calibrate(tsFixture.START_TIMES[0], g.width);
    const atEnd = events.filter((e) => e.created_on.getTime() === iv.to);
    const atStart = events.filter((e) => e.created_on.getTime() === iv.from);
    expect(atEnd.length).to.be.greaterThan(0);
    expect(atStart.length).to.be.greaterThan(0);
    const rows = expected(events, 'minutes', tsFixture.START_TIMES[0]);
    expect(rows[rows.length - 1].t.getTime()).to.be.lessThan(iv.to);
    expect(rows[0].t.getTime()).to.equal(iv.from);
  });

  for (const grain of Object.keys(GRAIN_SCRIPTS)) {
    it(`${grain}: every design, at each of the five start times, equals the Node computation`, async function () {
      const r = await t.run(GRAIN_SCRIPTS[grain], { N, SEED, VARIANTS: 'all', EMIT_GROUPS: true, PRINT_ROWS: false });
      const able = grain === 'seconds' ? DESIGNS.filter((d) => d !== 'rollup') : DESIGNS;
      tsFixture.START_TIMES.forEach((start, i) => {
        const wanted = expected(events, grain, start);
        expect(wanted.length).to.be.greaterThan(0);
        for (const v of able) {
          expectSameRows(groupsOf(r.records, { variant: v, grain, start: `T${i + 1}` }), wanted, `${grain} T${i + 1} ${v}`);
        }
      });
      const text = r.lines.join('\n');
      expect(text).to.include('all designs agree on every interval');
      // The seed's table: T1..T5 and the average, aggregation and aggregation + fetch.
      expect(text).to.match(/Type\s+interval \[from, to\) UTC\s+groups\s+events\s+aggregation\s+aggregation \+ fetch/);
      expect(text).to.match(/^Average\s/m);
      const seedRows = r.records.filter((x) => x.kind === 'row' && x.table === 'seed' && x.variant === 'raw');
      expect(seedRows.map((x) => x.T)).to.deep.equal(['T1', 'T2', 'T3', 'T4', 'T5', 'Average']);
      for (const x of seedRows) {
        expect(x.explainVersion).to.be.oneOf(['1', '2']);
        expect(x.fetchMs).to.be.at.least(x.aggMs);
      }
    });
  }

  it('ts_designs.js: one table per grain, all designs agree with each other and with Node, storage per design', function () {
    const rows = designs.records.filter((r) => r.kind === 'row' && r.table === 'designs');
    expect([...new Set(rows.map((r) => r.grain))]).to.deep.equal(['seconds', 'minutes', 'hours', 'days']);
    for (const r of rows) {
      expect(r.agree, `${r.grain} ${r.variant}`).to.equal(true);
      expect(r.explainVersion).to.be.oneOf(['1', '2']);
      expect(r.totalSize).to.be.greaterThan(0);
    }
    expect(rows.filter((r) => r.grain === 'seconds').map((r) => r.variant)).to.deep.equal(DESIGNS.filter((d) => d !== 'rollup'));
    expect(rows.filter((r) => r.grain === 'days').map((r) => r.variant)).to.deep.equal(DESIGNS);
    // Every design's answers, grain by grain, against Node.
    for (const grain of Object.keys(GRAIN_SCRIPTS)) {
      tsFixture.START_TIMES.forEach((start, i) => {
        const wanted = expected(events, grain, start);
        for (const v of rows.filter((r) => r.grain === grain).map((r) => r.variant)) {
          expectSameRows(groupsOf(designs.records, { table: 'designs', variant: v, grain, start: `T${i + 1}` }), wanted, `designs ${grain} T${i + 1} ${v}`);
        }
      });
    }
    const year = ref.aggregate(events, LabGen.TS_YEAR_START, LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS, tsFixture.DAY);
    expect(year).to.have.length(366);
    for (const v of DESIGNS) expectSameRows(groupsOf(designs.records, { table: 'designs', variant: v, grain: 'days' }), year, `designs year ${v}`);
    const storage = designs.records.filter((r) => r.kind === 'row' && r.table === 'storage');
    expect(storage.map((r) => r.variant)).to.deep.equal(DESIGNS);
    const ts = storage.find((r) => r.variant === 'timeseries');
    const raw = storage.find((r) => r.variant === 'raw');
    expect(ts.totalSize).to.be.lessThan(raw.totalSize);
  });

  it('the time-series collection and the rollups hold the same events as the raw collection', async function () {
    expect(await t.db.collection('randomData_ts').countDocuments()).to.equal(events.length);
    const [m] = await t.db.collection('randomData_rollup_minute').aggregate([{ $group: { _id: null, n: { $sum: '$count' } } }]).toArray();
    const [h] = await t.db.collection('randomData_rollup_hour').aggregate([{ $group: { _id: null, n: { $sum: '$count' } } }]).toArray();
    const [b] = await t.db.collection('randomData_bucket_minute').aggregate([{ $group: { _id: null, n: { $sum: { $size: '$ev' } } } }]).toArray();
    expect([m.n, h.n, b.n]).to.deep.equal([events.length, events.length, events.length]);
  });

  it('agg_year.js: every day of 2012, one row per day, equal to Node (raw and rollup)', async function () {
    const year = ref.aggregate(events, LabGen.TS_YEAR_START, LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS, tsFixture.DAY);
    for (const v of ['raw', 'rollup']) {
      const r = await t.run('agg_year.js', { VARIANT: v, EMIT_GROUPS: true, PRINT_ROWS: true, COLL: 'randomData' });
      expectSameRows(groupsOf(r.records, { table: 'year', variant: v }), year, `agg_year ${v}`);
      const row = r.records.find((x) => x.kind === 'row' && x.table === 'year');
      expect(row.days).to.equal(366);
      expect(r.lines.join('\n')).to.match(/Aggregation took: .* explainVersion [12]/);
      expect(r.lines.filter((l) => /^2012-\d\d-\d\d\s/.test(l))).to.have.length(366);
    }
  });

  it('rollups keep up: refreshed with $merge after new events, they still agree with the raw events', async function () {
    const extra = [
      { _id: -900001, created_on: new Date(Date.UTC(2012, 6, 4, 12, 30, 0)), value: 0.999999 },
      { _id: -900002, created_on: new Date(Date.UTC(2012, 6, 4, 12, 59, 59, 999)), value: 0.000001 },
    ];
    await t.db.collection('fresh').drop().catch(() => {});
    await t.db.collection('fresh').insertMany([...tsFixture.events(3000, 9)]);
    await t.run('ts_designs.js', { COLL: 'fresh', VARIANTS: 'rollup', BUILD_ONLY: true, N: 3000, SEED: 9, EMIT_GROUPS: false });
    await t.db.collection('fresh').insertMany(extra);
    const s = await t.shell();
    // The hour that received events is recomputed; nothing else is touched.
    await s.runtime.evaluate(`load(${JSON.stringify(require('path').join(__dirname, '..', 'scripts', 'ts_base.js'))});
      TS.refreshRollups(db, 'fresh', new Date(Date.UTC(2012, 6, 4, 12)), new Date(Date.UTC(2012, 6, 4, 13)))`);
    const r = await t.run('agg_year.js', { COLL: 'fresh', VARIANT: 'rollup', EMIT_GROUPS: true, PRINT_ROWS: false });
    const all = [...tsFixture.events(3000, 9), ...extra];
    const year = ref.aggregate(all, LabGen.TS_YEAR_START, LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS, tsFixture.DAY);
    expectSameRows(groupsOf(r.records, { table: 'year', variant: 'rollup' }), year, 'refreshed rollup');
  });

  it('rollups answer the year by day at least 10x faster than the raw aggregation (interleaved)', async function () {
    // Enough events that the raw aggregation has real work: 250,000 against 8,784 hourly rollups.
    const n = 250000;
    await tsFixture.load(t.db, { n, seed: 21, coll: 'yearData' });
    await t.run('ts_designs.js', { COLL: 'yearData', VARIANTS: 'rollup', BUILD_ONLY: true, N: n, SEED: 21, EMIT_GROUPS: false });
    const res = await yearRollupVsRaw(await t.shell(), 'yearData', { rounds: 5, warmup: 1 });
    process.stderr.write(`      year by day, ${n} events:\n${summarizeComparison(res).replace(/^/gm, '      ')}\n`);
    expect(1 / res.variants.rollup.ratio.median).to.be.at.least(10);
  });

  it('sizes.js: dataSize, storageSize, totalIndexSize, totalSize, indexSizes and cache residency', async function () {
    const r = await t.run('sizes.js', { COLL: 'randomData' });
    const row = r.records.find((x) => x.kind === 'row' && x.table === 'sizes' && x.coll === 'randomData');
    const st = await t.db.command({ collStats: 'randomData' });
    expect(row.dataSize).to.equal(st.size);
    expect(row.totalIndexSize).to.equal(st.totalIndexSize);
    expect(Object.keys(row.indexSizes)).to.have.members(['_id_', 'created_on_1']);
    expect(row.totalSize).to.equal(row.storageSize + row.totalIndexSize);
    expect(row.cached).to.be.a('number');
    expect(row.indexes.created_on_1.cached).to.be.a('number');
    const text = r.lines.join('\n');
    expect(text).to.match(/dataSize\(\) [\d,]+ \| storageSize\(\) [\d,]+ \| totalIndexSize\(\) [\d,]+ \| totalSize\(\) [\d,]+/);
    expect(text).to.include('randomData_ts');
  });

  describe('the real mongosh CLI', function () {
    it('runs scripts/agg_year.js from another directory on a collection the lab did not generate', async function () {
      const foreign = await testDatabase('timeseries_foreign');
      try {
        // Someone else's events: ObjectIds, no lab marker, some outside 2012.
        const next = LabGen.rng(77);
        const docs = [];
        for (let i = 0; i < 1500; i++) {
          docs.push({ created_on: new Date(Date.UTC(2011, 11, 1) + Math.floor(next() * 400 * tsFixture.DAY)), value: next() * 100 });
        }
        await foreign.db.collection('randomData').insertMany(docs);
        const r = await foreign.cli('agg_year.js', { EMIT_GROUPS: true }, { cwd: os.tmpdir() });
        expect(r.code, r.stderr).to.equal(0);
        const { parseLabLines } = require('../lib/lab-lines');
        const records = parseLabLines(r.lines);
        const wanted = ref.aggregate(docs, LabGen.TS_YEAR_START, LabGen.TS_YEAR_START + LabGen.TS_YEAR_MS, tsFixture.DAY);
        expectSameRows(groupsOf(records, { table: 'year', variant: 'raw' }), wanted, 'CLI agg_year');
        expect(r.stdout).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger \| query framework \w+/);
        expect(await foreign.db.collection('randomData').countDocuments()).to.equal(1500);
      } finally {
        await foreign.close();
      }
    });

    for (const [script, params] of [
      ['ts_seconds_in_minute.js', { VARIANTS: 'raw,bucket' }],
      ['ts_minutes_in_hour.js', { VARIANTS: 'raw,rollup' }],
      ['ts_hours_in_day.js', { VARIANTS: 'raw,timeseries' }],
      ['ts_designs.js', { RUNS: 0, GRAINS: 'hours' }],
      ['sizes.js', {}],
    ]) {
      it(`runs scripts/${script} from another directory`, async function () {
        const r = await t.cli(script, params, { cwd: os.tmpdir() });
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stdout).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger \| query framework \w+/);
        if (script.startsWith('ts_') && script !== 'ts_designs.js') {
          expect(r.stdout).to.match(/^Average\s/m);
          if (Object.values(params)[0].includes(',')) expect(r.stdout).to.include('all designs agree on every interval');
        }
        if (script === 'ts_designs.js') expect(r.stdout).to.match(/hours in a day .*\n.*design\s+median/);
      });
    }

    it('rejects a bad parameter without running anything', async function () {
      const r = await t.cli('agg_year.js', { VARIANT: 'nosuch' }, { cwd: os.tmpdir() });
      expect(r.code).to.not.equal(0);
      expect(r.stdout + r.stderr).to.include('unknown design');
    });
  });
});
