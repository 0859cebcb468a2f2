'use strict';
// Source 002's inserts with the source's own client: the PyMongo writers (lib/studies/inserts/
// py_writer.py) run through the same runner, in the same interleaved rounds as the Node writers,
// each leaving exactly the point's documents (the study's oracle), the unacknowledged ones counted
// afterwards. Needs PyMongo in the lab's cache (npm run setup-pymongo,
// which .ci/run runs; a run installs it on first use); without it these tests are skipped.
const path = require('path');
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const { findPyMongo, PyProcess, VERSION } = require('../lib/infra/pymongo');
const { PY_WRITERS, WRITER } = require('../lib/studies/inserts/py-writers');
const { docsAt } = require('../lib/studies/inserts/writers');
const claims = require('../lib/core/claims');
const { findStudy } = require('../lib/studies');
const G = require('../fixtures/inserts-gen');

const PY = PY_WRITERS.map((v) => v.name);

describe("inserts: the PyMongo writers (the source's client)", function () {
  const t = useTestDatabase('inserts_py');
  const pm = findPyMongo();

  it("the Python writer generates the Node generator's documents, byte for byte", async function () {
    if (pm.missing) this.skip();
    const py = new PyProcess(pm, WRITER);
    try {
      for (const size of [31, 64, 1024, 4096]) {
        const ids = [0, 1, 7, 399, 16383];
        const r = await py.request({ op: 'docs', seed: 11, size, ids });
        expect(r.docs, `size ${size}`).to.deep.equal(ids.map((i) => G.payloadDoc(11, i, size)));
      }
    } finally {
      py.close();
    }
    expect(path.basename(WRITER)).to.equal('py_writer.py');
  });

  it('every PyMongo writer runs in the tiny profile beside its Node twin, timed by itself, and leaves exactly N documents', async function () {
    if (pm.missing) this.skip();
    const twins = PY_WRITERS.map((v) => v.twin);
    const params = {
      VARIANTS: [...twins, ...PY].join(','),
      N: 120,
      BATCHES: '1,10',
      WRITERS: '1,2',
      SIZES: '1024,',
      WCONCERN: false,
      RUNS: 2,
      WARMUP: 0,
      BULK_TRIES: 0,
      LIMITS: false,
      COLL: 'inserts_py',
    };
    const r = await t.study('inserts', params, { profile: 'tiny' });
    const rows = r.records.filter((x) => x.type === 'result' && !x.skipped);
    for (const v of PY_WRITERS) {
      const mine = rows.filter((x) => x.variant === v.name);
      // threads: one by one at W 1 and 2, and W 1 in batches of 10; processes: one by one at W 1 and 2
      expect(mine, v.name).to.have.length(v.mode === 'threads' ? 3 : 2);
      for (const x of mine) {
        const at = `${v.name} ${JSON.stringify(x.axis)}`;
        expect(x.agrees, at).to.equal(true);
        expect(x.answer, at).to.equal(docsAt({ N: 120, MAX_MB: 1e9 }, 1024));
        expect(x.extra.client, at).to.equal(`PyMongo ${VERSION}`);
        expect(x.extra.twin, at).to.equal(v.twin);
        expect(x.extra.docsPerSec, at).to.be.greaterThan(0);
        expect(x.times.every((ms) => ms > 0)).to.equal(true);
        if (v.w === 0) expect(x.extra, at).to.include({ writer: 'w0', written: 120, stored: 120, rejected: 0 });
        else expect(x.extra.writer, at).to.equal('w1');
        // the operations sent: one per document, or one per batch
        const ops = x.axis.batch === 1 ? 120 : 12;
        expect(x.extra.ops, at).to.equal(ops);
        // in the same rounds as the Node writers, against the same baseline
        const twin = rows.find((y) => y.variant === v.twin && JSON.stringify(y.axis) === JSON.stringify(x.axis));
        expect(twin, `${at}: its Node twin`).to.not.equal(undefined);
        expect(x.ratio && x.ratio.to).to.equal(twin.ratio && twin.ratio.to);
      }
    }
    // the claims say which client measured them
    const judged = claims.judge(findStudy('inserts'), r.records);
    const bulk = judged.find((c) => c.id === '002-bulk/mongodb');
    expect(bulk.setting.here).to.match(/measured with PyMongo 4\.20\.1, the source's client/);
    expect(bulk.why).to.match(/the Node driver beside: /);
  });

  it('a request the writer cannot serve is one clear error, and the process serves the next', async function () {
    if (pm.missing) this.skip();
    const py = new PyProcess(pm, WRITER);
    try {
      await py.request({ op: 'connect', uri: t.uri });
      const job = {
        op: 'insert',
        db: t.db.databaseName,
        coll: 'py_err',
        W: 1,
        w: 1,
        n: 5,
        size: 64,
        seed: 1,
        batch: 1,
      };
      let err;
      await py.request({ ...job, mode: 'fibres' }).catch((e) => (err = e));
      expect(err.message).to.match(/^PyMongo: ValueError: mode: expected threads or processes/);
      // a duplicate key at w: 1 is a failed request, never a short count
      await t.db
        .collection('py_err')
        .drop()
        .catch(() => {});
      await t.db.collection('py_err').insertOne({ _id: 3 });
      err = null;
      await py.request({ ...job, mode: 'threads' }).catch((e) => (err = e));
      expect(err && err.message).to.match(/DuplicateKeyError|E11000/);
      await t.db.collection('py_err').drop();
      const ok = await py.request({ ...job, mode: 'threads' });
      expect(ok.ops).to.equal(5);
      expect(await t.db.collection('py_err').countDocuments({})).to.equal(5);
    } finally {
      py.close();
    }
  });
});
