'use strict';
// Source 000's "A point for mongo though, it inserts much faster than postgres ... postgres took
// roughly 30% than mongo" (000-pg-insert). The source loaded MongoDB one row per
// db.collection.insert(row); how it loaded PostgreSQL is not stated. Here both are loaded the same
// way from the same Node client: the first BATCH sensor rows, one statement per row, into a scratch
// collection and a scratch table emptied (untimed) before each run. Durability is matched, not
// hidden: w:1 without j against synchronous_commit=off (neither waits for its log's flush), and
// both durable (j:true against synchronous_commit=on), the durable pair on the first
// DURABLE_BATCH rows (each row waits for a disk flush: ~3-7 ms here). The answer is the statistics
// of the rows read back (untimed), so the oracle checks that every write landed.
const LabFormat = require('../../../scripts/lib/format');
const LabHarness = require('../../../scripts/lib/harness');
const SensorGen = require('../../../fixtures/sensor-gen');
const { claim, dropOwned } = require('../../infra/targets');
const { studyState } = require('../../core/study-state');
const sql = require('../sql-peer');

// The run's scratch collection: dropped at the run's end, its clean-up registered once.
const scratches = studyState(() => ({ dropAtEnd: false }));

/** The batch sizes the inserts run at: seconds in every profile, never the 10^6 sweep. */
const BATCH = 1000;
const DURABLE_BATCH = 100;
const TABLE = 'perflab_sensors_inserts';
const MARK = 'mongo-perf-lab scratch: row-by-row inserts (000-pg-insert)';

function ms() {
  return Number(process.hrtime.bigint()) / 1e6;
}

function rows(p, n) {
  const next = SensorGen.rng(p.SEED);
  const out = [];
  for (let i = 0; i < n; i++) out.push(SensorGen.row(next, i));
  return out;
}

function scratchName(p) {
  return `${p.COLL}_inserts`;
}

function stats(r) {
  const count = Number(r.count);
  const sum = r.sum === null || r.sum === undefined ? 0 : Number(r.sum);
  const num = (x) => (x === null || x === undefined ? null : Number(x));
  return { sum, min: num(r.min), max: num(r.max), count, mean: count ? sum / count : null };
}

/** A fresh scratch collection the lab owns (claimed by identity), removed when the run ends. */
async function freshCollection(ctx, p) {
  const name = scratchName(p);
  await claim(ctx.db, name, { kind: 'scratch', fresh: true, doing: 'insert rows into' });
  const st = scratches.of(ctx);
  if (!st.dropAtEnd) {
    st.dropAtEnd = true;
    ctx.cleanups.push(() => dropOwned(ctx.db, name));
  }
  return ctx.db.collection(name);
}

async function mongoInsert(ctx, p, point, journal) {
  const coll = await freshCollection(ctx, p);
  const docs = rows(p, point.batch).map((r, i) => {
    const d = { _id: i, timestamp: new Date(r.t) };
    SensorGen.names().forEach((c, j) => {
      if (r.values[j] !== null) d[c] = r.values[j];
    });
    return d;
  });
  const wc = { writeConcern: { w: 1, j: journal } };
  const t0 = ms();
  for (const d of docs) {
    const r = await coll.insertOne(d, wc);
    if (!r.acknowledged || r.insertedId !== d._id) throw new Error(`insertOne of row ${d._id} was not acknowledged`);
  }
  const took = ms() - t0;
  const F = `$${p.FIELD}`;
  const [g] = await coll
    .aggregate([
      {
        $group: {
          _id: 0,
          sum: { $sum: F },
          min: { $min: F },
          max: { $max: F },
          count: { $sum: { $cond: [{ $isNumber: F }, 1, 0] } },
        },
      },
    ])
    .toArray();
  return LabHarness.took(took, stats(g || { count: 0 }), {
    rows: docs.length,
    writeConcern: journal ? 'w:1, j:true' : 'w:1, j:false',
  });
}

/** The scratch table, made by the lab (its COMMENT says so) and emptied; a foreign one is refused. */
async function freshTable(ctx) {
  const c = sql.of(ctx); // the binding's own session: SET synchronous_commit holds for the inserts after it
  const r = await c.query(
    "SELECT obj_description(to_regclass($1), 'pg_class') AS c, to_regclass($1) IS NOT NULL AS e",
    [TABLE],
  );
  if (r.rows[0].e && r.rows[0].c !== MARK)
    throw new Error(`PostgreSQL table ${TABLE} exists and was not made by the lab: not writing into it`);
  if (!r.rows[0].e) {
    const cols = SensorGen.names()
      .map((n) => `"${n}" double precision`)
      .join(', ');
    await c.query(`CREATE TABLE ${TABLE} (id bigint PRIMARY KEY, ts timestamptz, ${cols})`);
    await c.query(`COMMENT ON TABLE ${TABLE} IS '${MARK}'`);
    ctx.cleanups.push(() => c.query(`DROP TABLE IF EXISTS ${TABLE}`));
  }
  await c.query(`TRUNCATE ${TABLE}`);
  return c;
}

async function pgInsert(ctx, p, point, durable) {
  const c = await freshTable(ctx);
  const names = SensorGen.names();
  const text = `INSERT INTO ${TABLE} (id, ts, ${names.map((n) => `"${n}"`).join(', ')}) VALUES (${Array.from({ length: names.length + 2 }, (x, i) => `$${i + 1}`).join(', ')})`;
  const values = rows(p, point.batch).map((r, i) => [i, new Date(r.t), ...r.values]);
  await c.query(`SET synchronous_commit TO ${durable ? 'on' : 'off'}`);
  const t0 = ms();
  for (const v of values) {
    const r = await c.query(text, v);
    if (r.rowCount !== 1) throw new Error(`INSERT of row ${v[0]} reported ${r.rowCount} rows`);
  }
  const took = ms() - t0;
  const col = `"${p.FIELD}"`;
  const [g] = (
    await c.query(
      `SELECT sum(${col}) AS sum, min(${col}) AS min, max(${col}) AS max, count(${col}) AS count FROM ${TABLE}`,
    )
  ).rows;
  return LabHarness.took(took, stats(g), { rows: values.length, synchronousCommit: durable ? 'on' : 'off' });
}

function variant(name, what, run, { pg = false, batch = BATCH } = {}) {
  return {
    name,
    what,
    where: 'node',
    minVersion: '3.6',
    able: (p, point, ctx) =>
      (point.batch === batch && SensorGen.names().includes(p.FIELD) && (!pg || !!sql.of(ctx))) ||
      (pg && !sql.of(ctx) ? sql.note(ctx) || 'PostgreSQL unavailable' : false),
    // false: "cannot answer at this point" (another batch size)
    run,
  };
}

const VARIANTS = [
  variant(
    'insert-mongo',
    `driver: the first ${LabFormat.fmtInt(BATCH)} rows, one insertOne each, w:1 without j`,
    (ctx, p, pt) => mongoInsert(ctx, p, pt, false),
  ),
  variant(
    'insert-pg',
    `PostgreSQL: the same rows, one INSERT each, synchronous_commit off`,
    (ctx, p, pt) => pgInsert(ctx, p, pt, false),
    { pg: true },
  ),
  variant(
    'insert-mongo-j',
    `driver: the first ${LabFormat.fmtInt(DURABLE_BATCH)} rows, one insertOne each, w:1 with j:true (durable)`,
    (ctx, p, pt) => mongoInsert(ctx, p, pt, true),
    { batch: DURABLE_BATCH },
  ),
  variant(
    'insert-pg-sync',
    'PostgreSQL: the same rows, one INSERT each, synchronous_commit on (durable)',
    (ctx, p, pt) => pgInsert(ctx, p, pt, true),
    { pg: true, batch: DURABLE_BATCH },
  ),
];

module.exports = { VARIANTS, BATCH, DURABLE_BATCH, TABLE };
