'use strict';
// Source 000's client with the source's own client: the PyMongo variants (lib/studies/mapreduce/
// py_client.py) run through the same runner, in the same interleaved rounds as the Node driver's,
// each answer checked against plain Node statistics. Needs PyMongo in the lab's cache
// (npm run setup-pymongo, which .ci/run runs); without it the variants are
// skipped with that command, which the last test checks.
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const sensors = require('../fixtures/sensors');
const { PY_VARIANTS } = require('../lib/studies/mapreduce').helpers;
const { findPyMongo, PyClient, VERSION } = require('../lib/studies/mapreduce/pymongo');

const FIELD = 'engine_rpm';
const SEED = 1;
const PY = PY_VARIANTS.map((v) => v.name);

describe("mapreduce: the PyMongo client (the source's client)", function () {
  const t = useTestDatabase('mapreduce_py');
  const pm = findPyMongo();

  it(`PyMongo ${VERSION} is installed in the lab's cache, with its C extensions`, function () {
    if (pm.missing) this.skip(); // .ci/run installs it; the skip message says how
    expect(pm.version).to.equal(VERSION);
    expect(pm.hasC).to.equal(true);
  });

  it('every PyMongo variant runs in the tiny profile beside the Node ones, timed by itself, and agrees with plain Node', async function () {
    if (pm.missing) this.skip();
    const r = await t.study(
      'mapreduce',
      { VARIANTS: ['group', 'client-acc', ...PY].join(','), SIZES: '1,7,100,1000', COLL: 'sensors_py', N: 1500, SEED },
      { profile: 'tiny' },
    );
    const rows = r.records.filter((x) => x.type === 'result' && !x.skipped);
    for (const v of PY)
      expect(
        rows.filter((x) => x.variant === v),
        v,
      ).to.have.length(4);
    for (const x of rows) {
      expect(x.agrees, `${x.variant} at ${x.axis.batch}`).to.equal(true);
      const ref = sensors.referenceStats(x.axis.batch, FIELD, { seed: SEED });
      expect(x.answer.count).to.equal(ref.count);
      expect(x.answer.min).to.equal(ref.min);
      expect(x.answer.max).to.equal(ref.max);
      expect(Math.abs(x.answer.sum - ref.sum)).to.be.at.most(1e-9 * Math.abs(ref.sum));
      // timed in the same rounds as the Node variants, against the same baseline
      expect(x.ratio.to).to.equal('group');
      expect(x.times.every((ms) => ms > 0)).to.equal(true);
    }
  });

  it('a request the client cannot serve is one clear error, and the process serves the next', async function () {
    if (pm.missing) this.skip();
    const c = await PyClient.open(t.uri, t.db.databaseName, 'sensors_py', pm);
    try {
      let err;
      await c.run('py-nope', 10, FIELD).catch((e) => (err = e));
      expect(err.message).to.match(/^PyMongo: KeyError: 'py-nope'/);
      const ok = await c.run('py-client-acc', 10, FIELD);
      expect(ok.__labTook).to.equal(true);
      expect(ok.answer.count).to.equal(sensors.referenceStats(10, FIELD, { seed: SEED }).count);
    } finally {
      c.close();
    }
  });

  it('without PyMongo the variants are skipped with the command that installs it', async function () {
    const entry = require('../lib/studies/mapreduce');
    const v = entry.variants.find((x) => x.name === 'py-client-acc');
    // a run whose PyMongo client could not start (the study's own state, beside the run's context)
    const { pyUnavailable } = require('../lib/studies/mapreduce/variants');
    const runWithout = (why) => {
      const ctx = {};
      pyUnavailable(ctx, why);
      return ctx;
    };
    expect(v.able({}, { batch: 10 }, runWithout('no PyMongo client: x'))).to.equal('no PyMongo client: x');
    expect(v.able({}, { batch: 10 }, {})).to.match(/^no PyMongo client: npm run setup-pymongo$/);
    expect(v.able({}, { batch: 10 }, runWithout('no PyMongo client: PyMongo is not installed: y'))).to.match(
      /not installed/,
    );
  });
});
