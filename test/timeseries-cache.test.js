'use strict';
// Seed 003, the cache side: warm-up scripts (through the real mongosh CLI) on a server of our own
// that can be restarted cold, and the study's cold-versus-warm states.
const os = require('os');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { startEmbedded } = require('../lib/server');
const { runCli } = require('../lib/shell-runner');
const { parseLabLines } = require('../lib/lab-lines');
const tsFixture = require('../fixtures/timeseries');
const { coldWarm, STATES } = require('../lib/ts-study');

const N = 100000;
const DB = 'tscache';

describe('timeseries study (seed 003): warm-up and cold vs warm, on a restartable server', function () {
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
    const r = await runCli(script, { uri: server.uri, db: DB, params: {}, cwd: os.tmpdir() });
    expect(r.code, r.stderr).to.equal(0);
    const row = parseLabLines(r.lines).find((x) => x.kind === 'row' && x.table === 'warmup');
    return { r, row };
  }

  it('warmup_data.js (CLI, from another directory): touch is gone, the scan raises the collection\'s residency only', async function () {
    const { r, row } = await coldWarmup('warmup_data.js');
    expect(row.method).to.equal('scan');
    expect(r.stdout).to.include('touch: CommandNotFound');
    expect(r.stdout).to.match(/Warm-up \{data\} took/);
    expect(r.stdout).to.match(/server \d+\.\d+\.\d+ \| storage wiredTiger/);
    expect(row.after.cached).to.be.greaterThan(row.before.cached);
    expect(row.after.cached).to.be.at.least(0.5 * row.after.dataSize);
    const idx = row.after.indexes.created_on_1;
    expect(idx.cached - row.before.indexes.created_on_1.cached).to.be.lessThan(0.25 * idx.size);
  });

  it('warmup_indexes.js (CLI): raises every index\'s residency, not the collection\'s', async function () {
    const { row } = await coldWarmup('warmup_indexes.js');
    for (const name of ['_id_', 'created_on_1']) {
      expect(row.after.indexes[name].cached, name).to.be.greaterThan(row.before.indexes[name].cached);
      expect(row.after.indexes[name].cached, name).to.be.at.least(0.5 * row.after.indexes[name].size);
    }
    expect(row.after.cached - row.before.cached).to.be.lessThan(0.25 * row.after.dataSize);
    expect(row.steps.map((s) => s.what).join(' ')).to.match(/index _id_ scan \(100000 keys\).*index created_on_1 scan \(100000 keys\)/);
    // The index scans never fetch a document: that is why the collection stays cold.
    for (const s of row.steps) {
      expect(s.stage, s.what).to.match(/^(COUNT_SCAN|IXSCAN)$/);
      expect(s.explainVersion).to.be.oneOf(['1', '2']);
    }
  });

  it('warmup.js (CLI): data and indexes', async function () {
    const { row } = await coldWarmup('warmup.js');
    expect(row.mode).to.equal('both');
    expect(row.after.cached).to.be.at.least(0.5 * row.after.dataSize);
    expect(row.after.indexes.created_on_1.cached).to.be.at.least(0.5 * row.after.indexes.created_on_1.size);
  });

  it('cold vs warm: every state runs the three grains from a restart and records the seed\'s table', async function () {
    await client.close();
    const records = await coldWarm({ server, dbName: DB, coll: 'randomData' });
    client = new MongoClient(server.uri);
    await client.connect();
    for (const state of STATES.map((s) => s.name)) {
      for (const grain of ['seconds', 'minutes', 'hours']) {
        const rows = records.filter((x) => x.table === 'seed' && x.state === state && x.grain === grain);
        expect(rows.map((x) => x.T), `${state} ${grain}`).to.deep.equal(['T1', 'T2', 'T3', 'T4', 'T5', 'Average']);
      }
    }
    const warm = records.filter((x) => x.table === 'warmup');
    expect(warm.map((x) => x.state)).to.deep.equal(['warm-data', 'warm-indexes', 'warm-both', 'warm-year']);
    expect(warm.every((x) => x.ms > 0)).to.equal(true);
  });
});
