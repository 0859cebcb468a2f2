'use strict';
// Source 002's insert claims on the source's client (lib/studies/inserts/source-client.js): judged
// on the PyMongo writers (py-*) where they ran, the Node driver's verdict beside; a decisive
// Node-only verdict is not given. Records crafted as the runner builds them. Pure: no server.
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');
const claims = require('../../lib/core/claims');
const inserts = require('../../lib/studies/inserts');
const { pyView, nodeView } = require('../../lib/studies/inserts/source-client');
const { PY_TWINS } = require('../../lib/studies/inserts/py-writers');

const { VERDICT } = claims;
const ENV = { server: { version: '6.0.5', cacheBytes: 12 * 1024 ** 3 }, host: { cores: 2 }, profile: 'seed' };
const CLIENT = 'PyMongo 4.20.1';
const QUIET = { start: 1, end: 1, cores: 2, cpuWait: 0.1 };

/** Records of variants timed in the same rounds against `baseline` (py-* ones say their client). */
function timed(medians, baseline, axis, rounds = 8) {
  const names = Object.keys(medians);
  const h = lab.harness(names, { warmup: 0, rounds, baseline });
  let step;
  while ((step = h.next()) !== null) {
    const jitter = step.variant === baseline ? 1 : 1 + 0.03 * ((step.round % 3) - 1);
    h.record(step, medians[step.variant] * (1 + 0.01 * step.round) * jitter, 1);
  }
  return lab
    .pointRecords({ name: 'inserts' }, {}, axis, h.result(), {}, {})
    .map((r) =>
      r.type === 'result' && /^py-/.test(r.variant)
        ? { ...r, loadavg: QUIET, extra: { ...(r.extra || {}), client: CLIENT } }
        : { ...r, loadavg: QUIET },
    );
}

const judge = (id, recs) => {
  const v = claims.judge(inserts, recs, ENV, {}).find((c) => c.id === id);
  expect(v, id).to.not.equal(undefined);
  return v;
};

describe("002 insert claims on the source's client (PyMongo beside the Node driver)", function () {
  const one = { part: 'batch', W: 1, batch: 1, size: 1024 };
  // 002-mongo-vs-sql is judged against PostgreSQL durable at the source's ~2 KB documents (second
  // read of 002, dispute 7: MySQL "w/o modification" is InnoDB's durable default)
  const sql = { ...one, size: 2048 };

  it('every PyMongo writer has a Node twin the claims read', function () {
    expect(PY_TWINS).to.deep.equal({
      'py-threads-w0': 'async-w0',
      'py-threads': 'async',
      'py-processes-w0': 'processes-w0',
      'py-processes': 'processes',
    });
  });

  it("the PyMongo view renames py-* results to their twins and drops the Node twins' own; the Node view drops py-*", function () {
    const recs = timed({ pg: 1000, 'async-w0': 100, 'py-threads-w0': 300 }, 'pg', one);
    const py = pyView(recs).filter((r) => r.type === 'result');
    expect(py.map((r) => r.variant).sort()).to.deep.equal(['async-w0', 'pg']);
    expect(py.find((r) => r.variant === 'async-w0').measuredAs).to.equal('py-threads-w0');
    expect(
      nodeView(recs)
        .filter((r) => r.type === 'result')
        .map((r) => r.variant)
        .sort(),
    ).to.deep.equal(['async-w0', 'pg']);
  });

  it('002-mongo-vs-sql: judged on PyMongo where its inferred writer ran, saying so, the Node verdict beside', function () {
    // Node: PostgreSQL / MongoDB 10x (holds); PyMongo: 0.5x (the other way)
    const recs = timed(
      { 'pg-durable': 1000, 'async-w0': 100, async: 100, 'py-threads-w0': 2000, 'py-threads': 2000 },
      'pg-durable',
      sql,
    );
    const v = judge('002-mongo-vs-sql', recs);
    expect(v.verdict).to.equal(VERDICT.REVERSED);
    expect(v.setting.here).to.match(/measured with PyMongo 4\.20\.1, the source's client \(py-threads-w0 for async-w0/);
    expect(v.setting.absent).to.equal(undefined);
    expect(v.why).to.match(/the Node driver beside: holds/);
    expect(v.figure).to.match(/^PyMongo 4\.20\.1: /);
    // the same records without PyMongo: the Node verdict is not given (the gate as before)
    const node = judge('002-mongo-vs-sql', nodeView(recs));
    expect(node.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(node.setting.absent).to.equal('client');
    expect(node.why).to.match(
      /on the Node driver it reads holds: .*to reproduce: the PyMongo writers \(py-threads-w0, py-threads; npm run setup-pymongo\)/,
    );
  });

  it("only the acknowledged PyMongo writer ran: the inferred writer's twin is missing, so the gate stays closed", function () {
    const recs = timed({ 'pg-durable': 1000, 'async-w0': 100, async: 100, 'py-threads': 2000 }, 'pg-durable', sql);
    const v = judge('002-mongo-vs-sql', recs);
    expect(v.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(v.setting.absent).to.equal('client');
  });

  it("002-bulk/mongodb: PyMongo one by one and in batches of the source's 5 documents of 2 KB on both writers, the Node figure beside", function () {
    const at = (batch, m) => timed(m, Object.keys(m)[0], { ...one, size: 2048, batch });
    const recs = [
      ...at(1, { 'async-w0': 100, async: 400, 'py-threads-w0': 150, 'py-threads': 600 }),
      ...at(5, { 'async-w0': 20, async: 40, 'py-threads-w0': 100, 'py-threads': 400 }),
    ];
    const v = judge('002-bulk/mongodb', recs);
    // PyMongo: 1.5x on both writers (the source's 1.26-1.50x); Node 5x and 10x (stronger)
    expect(v.verdict).to.equal(VERDICT.HOLDS);
    expect(v.setting.here).to.match(/measured with PyMongo 4\.20\.1/);
    expect(v.why).to.match(/the Node driver beside: stronger/);
    // the ratio is the geometric means' (the interval's centre), the medians' own ratio beside
    expect(v.figure).to.match(/1\.5\dx \(the rounds' geometric means; medians [0-9,]+\/s -> [0-9,]+\/s: 1\.5\dx\)/);
  });

  it("002-bulk/mongodb: the lab's 10 documents of 1 KB a batch only abstain, naming the run that fits and each writer's figure", function () {
    const at = (batch, m) => timed(m, Object.keys(m)[0], { ...one, batch });
    const recs = [
      ...at(1, { 'async-w0': 100, async: 400, 'py-threads-w0': 150, 'py-threads': 600 }),
      ...at(10, { 'async-w0': 20, async: 40, 'py-threads-w0': 100, 'py-threads': 150 }),
    ];
    const v = judge('002-bulk/mongodb', recs);
    // PyMongo at 10 a batch: w: 0 1.5x (holds), w: 1 4x (stronger): not judged, whatever the rounds
    expect(v.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(v.why).to.match(/^needs the source's batch: 10 documents of 1 KB a batch here/);
    expect(v.why).to.match(/more rounds at 10 cannot decide the claim/);
    expect(v.why).to.match(/--set SIZE=2048 --set BATCHES=1,5 --set WRITERS=1/);
    expect(v.why).to.match(
      /at the lab's batch \(not judged\): w: 0 \(the inferred writer\): holds, 1\.5\dx .*; w: 1 .*: stronger, 4\.0\dx/,
    );
  });

  it('002-mongo-vs-sql at 1 KB: the 2 KB run settles the size only; the writers and the peer are named', function () {
    // PyMongo w: 0 10x and w: 1 1.1x against durable PostgreSQL, 1 KB rows: abstains for the size, and
    // says that the writers disagree (intervals apart) and that PostgreSQL stands in for MySQL
    const recs = timed(
      { 'pg-durable': 1000, pg: 600, 'py-threads-w0': 100, 'py-threads': 900, 'async-w0': 100, async: 900 },
      'pg-durable',
      one,
    );
    const v = judge('002-mongo-vs-sql', recs);
    expect(v.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(v.why).to.match(/^needs the source's scale: 1 KB rows.*--set SIZE=2048/);
    expect(v.why).to.match(
      /that run settles the size only: at 1 KB \(not judged\) the writers disagree, their intervals apart/,
    );
    expect(v.why).to.match(
      /PostgreSQL stands in for the source's MySQL .*: durable [0-9.]+ ms a row here, [0-9.]+ ms of it the commit's WAL flush/,
    );
    expect(v.why).to.match(/neither the writer nor the peer is decided by a run here/);
    expect(v.why).to.not.match(/more rounds/);
  });

  it('002-processes reads the PyMongo processes, not the threads', function () {
    const W = (w, m) => timed(m, Object.keys(m)[0], { ...one, W: w });
    const recs = [
      ...W(2, { 'processes-w0': 100, processes: 100, 'py-threads-w0': 100 }),
      ...W(8, { 'processes-w0': 80, processes: 80, 'py-threads-w0': 80 }),
    ];
    const v = judge('002-processes', recs);
    // (the 12-core gate refuses these 2-core records whichever client measured them)
    expect(v.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(v.setting.here || '').to.not.match(/measured with PyMongo/);
  });

  it("the source replay (records with source: true) is the source's client: passed through unchanged", function () {
    const recs = timed({ 'pg-durable': 1000, 'async-w0': 100, async: 100 }, 'pg-durable', sql).map((r) => ({
      ...r,
      source: true,
    }));
    const v = judge('002-mongo-vs-sql', recs);
    expect(v.setting.absent).to.not.equal('client');
    expect(v.setting.here || '').to.not.match(/measured with (the Node driver|PyMongo)/);
  });
});
