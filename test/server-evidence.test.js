'use strict';
// Server-side evidence per point (issue #36): each variant's record carries the serverStatus delta
// of one of its timed runs, and report.md shows it under the point's table. A collection scan of N
// documents examines at least N (other test files share the server: only lower bounds hold).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const Ajv = require('ajv/dist/2020');
const addFormats = require('ajv-formats');
const { testDatabase } = require('./helpers');
const { serverDelta } = require('../lib/core/run-study');

const CLI = path.join(__dirname, '..', 'bin', 'mongo-perf-lab.js');
const SCHEMA = require('../docs/result-format.schema.json');
const N = 3000;

const STUDY = `
var STUDY = {
  name: 'evidence',
  title: 'a scan and a point lookup',
  params: { COLL: { kind: 'name', def: 'items', what: 'the collection' } },
  baseline: 'scan',
  variants: [
    { name: 'scan', what: 'a collection scan that finds nothing',
      run: function (p) { return db.getCollection(p.COLL).find({ never: 1 }).toArray().length; } },
    { name: 'by-id', what: 'the same answer by _id',
      run: function (p) { return db.getCollection(p.COLL).find({ _id: -1 }).toArray().length; } },
  ],
};
lab.main(STUDY);
`;

describe('server-side evidence: a serverStatus delta around one timed run of each variant', function () {
  let t;
  let dir;

  before(async function () {
    t = await testDatabase('evidence');
    await t.db.collection('items').insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, v: i % 7 })));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-evidence-'));
    fs.writeFileSync(path.join(dir, 'evidence.js'), STUDY);
  });

  after(async function () {
    if (t) await t.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a collection scan's record shows at least N documents examined; report.md shows the table", function () {
    this.timeout(120000);
    const out = path.join(dir, 'out');
    const r = spawnSync(
      process.execPath,
      [CLI, 'run', './evidence.js', '--uri', t.uri, '--db', t.dbName, '--runs', '3', '--no-progress', '--out', out],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, MONGODB_URI: '' }, timeout: 110000 },
    );
    expect(r.status, r.stderr + r.stdout).to.equal(0);
    const doc = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    const validate = addFormats(new Ajv({ strict: false })).compile(SCHEMA);
    expect(validate(doc), JSON.stringify(validate.errors)).to.equal(true);
    const rec = (v) => doc.results.find((x) => x.variant === v);
    const scan = rec('scan').server;
    expect(scan.runs).to.equal(1);
    expect(scan.docsExamined).to.be.at.least(N);
    expect(scan.docsWritten).to.be.a('number');
    expect(scan.readTickets.available).to.be.above(0);
    expect(scan.cacheUsedPct).to.be.above(0);
    expect(scan.ops.query).to.be.at.least(1);
    // every variant that ran has its own
    expect(rec('by-id').server.runs).to.equal(1);
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(report).to.contain('On the server (serverStatus just before and after one timed run of each variant');
    expect(report).to.match(/\| scan \| ([\d,]+) \|/);
    const shown = Number(report.match(/\| scan \| ([\d,]+) \|/)[1].replace(/,/g, ''));
    expect(shown).to.be.at.least(N);
  });

  it('serverDelta: counters as differences, gauges after, its own closing command left out', function () {
    const ss = (scanned, cmd, inCache) => ({
      wiredTiger: {
        cache: {
          'bytes read into cache': scanned * 10,
          'pages read into cache': scanned,
          'bytes currently in the cache': inCache,
          'maximum bytes configured': 1000,
          'tracked dirty bytes in the cache': 10,
          'bytes written from cache': 0,
        },
        concurrentTransactions: { read: { out: 1, available: 127 }, write: { out: 0, available: 128 } },
      },
      metrics: { queryExecutor: { scanned: 0, scannedObjects: scanned }, document: { returned: 0, inserted: 2 } },
      opcounters: { query: 5, command: cmd },
    });
    expect(serverDelta(ss(100, 10, 200), ss(350, 11, 500))).to.deep.equal({
      runs: 1,
      cacheReadBytes: 2500,
      cacheWrittenBytes: 0,
      pagesRead: 250,
      keysExamined: 0,
      docsExamined: 250,
      docsReturned: 0,
      docsWritten: 0,
      cacheUsedPct: 50,
      cacheDirtyPct: 1,
      readTickets: { out: 1, available: 127 },
      writeTickets: { out: 0, available: 128 },
      ops: {},
    });
  });
});
