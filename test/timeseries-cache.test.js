'use strict';
// Source 003, the cache side: warm-up scripts (through the real mongosh CLI) on a server of our own
// that can be restarted cold, and the study's cold-versus-warm states (lib/studies/timeseries/index.js).
const os = require('os');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { startEmbedded } = require('../lib/infra/server');
const { runCli } = require('../lib/core/shell-runner');
const { parseLabLines } = require('../lib/core/lab-lines');
const tsFixture = require('../fixtures/timeseries');
const timeseries = require('../lib/studies/timeseries');
const { linesOver100 } = require('./helpers');

const N = 100000;
const DB = 'tscache';

describe('timeseries study (source 003): warm-up and cold vs warm, on a restartable server', function () {
  let server;
  let client;

  before(async function () {
    server = await startEmbedded({ cacheSizeGB: 0.25 });
    client = new MongoClient(server.uri);
    await client.connect();
    await tsFixture.load(client.db(DB), { n: N, seed: 4 });
  });
  after(async function () {
    if (client) await client.close();
    if (server) await server.stop();
  });

  async function coldWarmup(script) {
    await client.close();
    await server.restart();
    client = new MongoClient(server.uri);
    await client.connect();
    const r = await runCli(script, { uri: server.uri, db: DB, params: { LAB_LINES: true }, cwd: os.tmpdir() });
    expect(r.code, r.stderr).to.equal(0);
    const records = parseLabLines(r.lines);
    for (const x of records) expect(x.kind).to.equal(undefined);
    const rec = records.find((x) => x.type === 'result' && /^warmup-/.test(x.variant));
    expect(rec.times).to.have.length(1);
    return { r, row: rec.extra };
  }

  it("warmup_data.js (CLI, from another directory): touch is gone, the scan raises the collection's residency only", async function () {
    const { r, row } = await coldWarmup('warmup_data.js');
    expect(row.method).to.equal('scan');
    expect(r.stdout).to.include('touch: CommandNotFound');
    expect(r.stdout).to.match(/Warm-up \{data\} took/);
    expect(r.stdout).to.match(/server \d+\.\d+\.\d+ \| \w+ \| storage wiredTiger/);
    expect(row.after.cached).to.be.greaterThan(row.before.cached);
    expect(row.after.cached).to.be.at.least(0.5 * row.after.dataSize);
    const idx = row.after.indexes.created_on_1;
    expect(idx.cached - row.before.indexes.created_on_1.cached).to.be.lessThan(0.25 * idx.size);
  });

  it("warmup_indexes.js (CLI): raises every index's residency, not the collection's", async function () {
    const { row } = await coldWarmup('warmup_indexes.js');
    for (const name of ['_id_', 'created_on_1']) {
      expect(row.after.indexes[name].cached, name).to.be.greaterThan(row.before.indexes[name].cached);
      expect(row.after.indexes[name].cached, name).to.be.at.least(0.5 * row.after.indexes[name].size);
    }
    expect(row.after.cached - row.before.cached).to.be.lessThan(0.25 * row.after.dataSize);
    expect(row.steps.map((s) => s.what).join(' ')).to.match(
      /index _id_ scan \(100000 keys\).*index created_on_1 scan \(100000 keys\)/,
    );
    // The index scans never fetch a document: that is why the collection stays cold.
    for (const s of row.steps) {
      expect(s.plan.stage, s.what).to.match(/^(COUNT_SCAN|IXSCAN)$/);
      expect(s.plan.explainVersion).to.be.oneOf(['1', '2']);
    }
  });

  it('warmup.js (CLI): data and indexes', async function () {
    const { row } = await coldWarmup('warmup.js');
    expect(row.mode).to.equal('both');
    expect(row.after.cached).to.be.at.least(0.5 * row.after.dataSize);
    expect(row.after.indexes.created_on_1.cached).to.be.at.least(0.5 * row.after.indexes.created_on_1.size);
  });

  it('cold vs warm: every state runs the three grains from a restart, each pass equal to the Node computation', async function () {
    await client.close();
    const logged = [];
    const records = await timeseries.helpers.statesOnServer({
      server,
      dbName: DB,
      params: { COLL: 'randomData', N, SEED: 4, PASSES: 1 },
      check: true,
      log: (m) => logged.push(m),
    });
    client = new MongoClient(server.uri);
    await client.connect();
    for (const state of timeseries.helpers.STATES.map((s) => s.name)) {
      for (const grain of ['seconds', 'minutes', 'hours']) {
        const rec = records.find((x) => x.type === 'result' && x.axis.state === state && x.axis.grain === grain);
        expect(rec, `${state} ${grain}`).to.be.an('object');
        expect(rec.variant).to.equal('raw');
        // one pass: one time (its mean of T1..T5); the pass keeps T1..T5 and the residency around it
        expect(rec.times, `${state} ${grain}`).to.have.length(1);
        expect(rec.extra.passes[0].times, `${state} ${grain}`).to.have.length(5);
        expect(rec.extra.passes[0].residency.before.indexes.created_on_1.size).to.be.greaterThan(0);
        expect(
          rec.extra.intervals.map((x) => x.T),
          `${state} ${grain}`,
        ).to.deep.equal(['T1', 'T2', 'T3', 'T4', 'T5']);
        expect(rec.agrees, `${state} ${grain} against Node`).to.equal(true);
        expect(rec.plan.explainVersion).to.be.oneOf(['1', '2']);
      }
    }
    const warm = records.filter((x) => x.type === 'measure' && x.name === 'warmupMs');
    expect(warm.map((x) => x.axis.state)).to.deep.equal([
      'warm-data',
      'warm-indexes',
      'warm-both',
      'warm-no-id',
      'warm-year',
    ]);
    expect(warm.every((x) => x.value > 0)).to.equal(true);
    // The data warm-up leaves the collection in the cache; the index warm-up leaves it (mostly) out.
    const cached = (state) => records.find((x) => x.name === 'dataCachedAfterWarmup' && x.axis.state === state).value;
    expect(cached('warm-data')).to.be.greaterThan(cached('warm-indexes'));
    // warm-no-id warms the data and created_on_1 but leaves _id_ out: fewer index bytes than warm-both
    const indexCached = (state) =>
      records.find((x) => x.name === 'indexCachedAfterWarmup' && x.axis.state === state).value;
    expect(cached('warm-no-id')).to.be.at.least(0.5 * cached('warm-both'));
    expect(indexCached('warm-no-id')).to.be.greaterThan(0);
    expect(indexCached('warm-no-id')).to.be.lessThan(indexCached('warm-both'));
    expect(logged.join('\n')).to.match(/8 server restarts/);
    // ONE state x grain table, with the source's figures beside ours.
    const lines = timeseries.helpers.stateTableLines(records, ['seconds', 'minutes', 'hours']);
    expect(lines[0]).to.match(
      /^state\s+warm-up\s+seconds in a minute\s+source\s+minutes in an hour\s+source\s+hours in a day\s+source$/,
    );
    expect(lines.slice(2).map((l) => l.split(/\s+/)[0])).to.deep.equal(timeseries.helpers.STATES.map((s) => s.name));
    expect(lines[2]).to.include('1.3132 s');
  });

  it('passes: each state runs PASSES times, interleaved; every pass records what the collection and each index held in the cache before and after it', async function () {
    await client.close();
    const records = await timeseries.helpers.statesOnServer({
      server,
      dbName: DB,
      params: { COLL: 'randomData', N, SEED: 4, PASSES: 3 },
      grains: ['hours'],
      states: timeseries.helpers.STATES.filter((s) => ['cold', 'warm-data'].includes(s.name)),
    });
    client = new MongoClient(server.uri);
    await client.connect();
    const rec = (state) => records.find((x) => x.type === 'result' && x.axis.state === state);
    for (const state of ['cold', 'warm-data']) {
      expect(rec(state).times, state).to.have.length(3);
      expect(rec(state).extra.passes.map((x) => x.pass)).to.deep.equal([1, 2, 3]);
    }
    expect(records.filter((x) => x.name === 'warmupMs').map((x) => x.extra.pass)).to.deep.equal([1, 2, 3]);
    // A restart empties the cache: each cold pass starts with (almost) nothing of the collection and
    // reads what it needs into the cache; after the data scan the pass finds the documents there.
    const read = (p) => p.residency.after.data.read - p.residency.before.data.read;
    for (const p of rec('cold').extra.passes) {
      expect(p.residency.before.data.cached).to.be.below(0.01 * p.residency.before.data.size);
      expect(read(p)).to.be.greaterThan(0);
    }
    for (const p of rec('warm-data').extra.passes) {
      expect(p.residency.before.data.cached).to.be.at.least(0.9 * p.residency.before.data.size);
      expect(read(p)).to.equal(0);
    }
  });

  it('the runner: cold and warm states as one state x grain table, storage per design, charts with the states', async function () {
    const { runStudy } = require('../lib/core/run-study');
    const { findStudy } = require('../lib/studies');
    await client.close();
    const shown = [];
    const logged = [];
    const res = await runStudy(findStudy('timeseries'), {
      server,
      dbName: 'tsrunner',
      params: { N: 20000, SEED: 2, RUNS: 1, VARIANTS: 'raw,rollup', STATES: 'all', PASSES: 1 },
      echo: (x) => shown.push(x),
      log: (x) => logged.push(x),
    });
    client = new MongoClient(server.uri);
    await client.connect();
    const text = shown.join('\n');
    // 20,000 events hold ~0.04 per minute: no seconds table, and one line saying why and what scale shows it.
    expect(text.match(/Seconds in a minute is left out/g)).to.have.length(1);
    expect(text).to.not.include('grain=seconds');
    expect(text.match(/^state\s+warm-up/gm)).to.have.length(1);
    // Every state's row as `run` would print it, within 100 columns (issue #20): the tiny profile
    // runs one state, so `run all --profile tiny`'s width check sees a table of one row.
    const long = linesOver100({ echoed: shown, logged });
    expect(long, long.join('\n')).to.deep.equal([]);
    expect(text).to.match(/storage per design/);
    const states = res.records.filter((r) => r.type === 'result' && r.axis.state);
    expect(states).to.have.length(timeseries.helpers.STATES.length * 2);
    expect(states.every((r) => r.agrees === true)).to.equal(true);
    const env = { server: { version: server.version }, host: { cores: 2 }, startedAt: new Date().toISOString() };
    const doc = { params: { timeseries: res.params } };
    for (const chart of findStudy('timeseries').charts) {
      const spec = chart(res.records, env, doc);
      expect(spec.title.subtitle[0]).to.include(`20,000 events | MongoDB ${server.version}`);
    }
  });
});
