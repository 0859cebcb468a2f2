'use strict';
// Per-operation latency percentiles of the write studies (HdrHistogram, lib/core/latency.js): every
// operation a worker sends is in the histogram once, whether the worker is an async loop, a
// connection or a separate process, and the runner merges the timed rounds only.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const { describeServer } = require('../lib/infra/server');
const { runWorkers } = require('../lib/studies/source-002/insert-workers');
const { Latency } = require('../lib/core/latency');
const { runStudy } = require('../lib/core/run-study');
const { findStudy } = require('../lib/studies');
const day = require('../lib/studies/counters/day');
const { target } = require('../lib/studies/counters/schemas');
const gen = require('../fixtures/counters-gen');
const report = require('../lib/report/report');
const lab = require('../scripts/lib/lab');

describe('latency percentiles (HdrHistogram)', function () {
  const t = useTestDatabase('latency', { postgres: true });
  let server;
  before(async function () {
    server = { uri: t.uri, ...(await describeServer(t.uri)), embedded: false };
  });

  // Merging and percentiles alone (no server): test/unit/latency.test.js.
  const job = (coll, extra) => ({
    kind: 'insert',
    db: t.dbName,
    coll,
    from: 0,
    to: 101,
    size: 200,
    seed: 1,
    batch: 10,
    ...extra,
  });
  for (const mode of ['async', 'connections', 'processes']) {
    it(`${mode}: the histogram counts every insertMany the workers sent (W=2, 101 documents, batches of 10: 6 + 5)`, async function () {
      await t.db
        .collection(`lat_${mode}`)
        .drop()
        .catch(() => {});
      const r = await runWorkers({ uri: t.uri, mode, W: 2, job: job(`lat_${mode}`) });
      expect(r.results.map((x) => x.ops)).to.deep.equal([6, 5]);
      expect(r.latency.count).to.equal(11);
      expect(await t.db.collection(`lat_${mode}`).countDocuments()).to.equal(101);
    });
  }

  it("claims: one operation per claim attempt (each worker's last finds nothing)", async function () {
    const coll = t.db.collection('lat_claims');
    await coll.drop().catch(() => {});
    await coll.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, processed: 0, r: i / 50 })));
    await coll.createIndex({ processed: 1, r: 1 });
    const r = await runWorkers({
      uri: t.uri,
      mode: 'connections',
      W: 3,
      job: { kind: 'claim', db: t.dbName, coll: 'lat_claims', random: true, seed: 2 },
    });
    const claimed = r.results.reduce((a, x) => a + x.claims, 0);
    expect(claimed).to.equal(50);
    expect(r.latency.count).to.equal(50 + 3);
  });

  it('counters: one operation per hit recorded', async function () {
    const tgt = target('hierarchical');
    tgt.coll = 'lat_counters';
    const writers = await day.openWriters(t.uri, t.dbName, 3);
    try {
      const hits = gen.minuteHits({ seed: 3, metrics: 2, perMinute: 25 }, 0, 10);
      const lat = new Latency();
      await day.runSlot(writers, tgt, hits, { w: 1 }, lat);
      expect(lat.count).to.equal(hits.length);
    } finally {
      await writers.close();
    }
  });

  it('through the runner: records carry p50/p95/p99/max over the timed rounds only; the table and a chart show them', async function () {
    const out = [];
    const RUNS = 2;
    const r = await runStudy(findStudy('inserts'), {
      server,
      dbName: t.dbName,
      echo: (x) => out.push(x),
      params: {
        N: 60,
        BATCHES: '1,20',
        WRITERS: '2',
        WRITERS_AT: '1,20', // W > 1 at both batches (the quick profile, runStudy's default, has it at 1 only)
        SIZES: '1024,',
        WCONCERN: false,
        RUNS,
        WARMUP: 1,
        VARIANTS: 'async,processes',
        LIMITS: false,
        BULK_TRIES: 0,
      },
    });
    const ran = r.records.filter((x) => x.type === 'result' && !x.skipped);
    expect(ran.filter((x) => x.axis.part === 'batch').length).to.equal(4);
    for (const x of ran) {
      // W writers share 60 documents evenly, each sending them in batches of `batch`
      const opsPerRun = x.axis.W * Math.ceil(60 / x.axis.W / x.axis.batch);
      expect(x.latency, x.variant).to.include.keys('count', 'p50', 'p95', 'p99', 'max', 'unit');
      expect(x.latency.count, `${x.variant} ${lab.pointLabel(x.axis)}`).to.equal(RUNS * opsPerRun);
      expect(x.latency.p50).to.be.at.most(x.latency.p99);
    }
    const text = out.join('\n');
    expect(text).to.match(/latency per operation\s+ops\s+p50\s+p95\s+p99\s+max/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-latency-'));
    try {
      const doc = {
        environment: {
          server: { version: server.version },
          host: { cores: os.cpus().length },
          startedAt: new Date().toISOString(),
          software: {},
          lab: {},
        },
        results: r.records,
        params: {},
      };
      const files = await report.latencyChart(doc, findStudy('inserts'), dir);
      expect(files.some((f) => f.endsWith('.png') && fs.statSync(f).size > 1000)).to.equal(true);
      if (process.env.LAB_KEEP_CHART)
        fs.copyFileSync(
          files.find((f) => f.endsWith('.png')),
          process.env.LAB_KEEP_CHART,
        );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
