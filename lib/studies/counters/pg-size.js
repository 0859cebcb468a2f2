'use strict';
// The source's "BSON's not particularly efficient as a storage protocol (compared with relational
// DBs, that is)": SIZE_DAYS metric-days of seeded per-minute counts, stored as the source's
// documents in MongoDB (flat minute.MMMM and hierarchical minute.HH.MM, fully preallocated) and as
// rows in PostgreSQL (id text primary key, date, metric, daily, hourly integer[24], minute
// integer[1440]): the same counts, sized on disk with their indexes (MongoDB: storageSize +
// totalIndexSize after fsync; PostgreSQL: pg_total_relation_size after a CHECKPOINT, table +
// TOAST + indexes). Both stores compress (WiredTiger snappy, PostgreSQL's TOAST pglz).
const LabFormat = require('../../../scripts/lib/format');
const LabRecords = require('../../../scripts/lib/records');
const C = require('../../../scripts/counters_functions');
const gen = require('../../../fixtures/counters-gen');
const LabGen = require('../../../fixtures/gen');
const { claim, META } = require('../../infra/targets');
const { postgres } = require('../source-002/common');
const sql = require('../sql-peer');

const OWNER = 'counters-004';
const LAYOUTS = ['preallocated', 'hierarchical'];

/** The i-th metric-day: metric i mod M, day floor(i / M); minute counts ~ uniform 0..2x the mean rate. */
function metricDay(p, i) {
  const next = LabGen.rng((p.SEED * 1000003 + i) >>> 0);
  const top = Math.max(1, Math.round((2 * p.PER_MINUTE) / p.METRICS));
  const minute = Array.from({ length: 1440 }, () => Math.floor(next() * (top + 1)));
  const hourly = Array.from({ length: 24 }, (_, h) => minute.slice(h * 60, h * 60 + 60).reduce((a, b) => a + b, 0));
  const key = C.key(gen.START + Math.floor(i / p.METRICS) * gen.DAY_MS, gen.metricName(i % p.METRICS));
  return { key, daily: hourly.reduce((a, b) => a + b, 0), hourly, minute };
}

/** The document the schema's preallocation + hits leave for these counts. */
function documentOf(layout, m) {
  const hourly = {};
  m.hourly.forEach((n, h) => {
    hourly[String(h).padStart(2, '0')] = n;
  });
  const minute = {};
  m.minute.forEach((n, i) => {
    if (layout === 'hierarchical') {
      const hh = String(Math.floor(i / 60)).padStart(2, '0');
      (minute[hh] = minute[hh] || {})[String(i % 60).padStart(2, '0')] = n;
    } else {
      minute[String(i).padStart(4, '0')] = n;
    }
  });
  return {
    _id: m.key._id,
    metadata: { ...m.key.metadata, date: new Date(m.key.metadata.date) },
    daily: m.daily,
    hourly,
    minute,
  };
}

async function mongoBytes(ctx, p, layout, days) {
  const name = `${p.PREFIX}size_${layout}`;
  await claim(ctx.db, name, { kind: OWNER, fresh: true, spec: { fixture: OWNER }, doing: 'drop and re-create' });
  const coll = ctx.db.collection(name);
  for (let i = 0; i < days.length; i += 200)
    await coll.insertMany(
      days.slice(i, i + 200).map((m) => documentOf(layout, m)),
      { ordered: false },
    );
  await ctx.db.collection(META).updateOne({ _id: name }, { $set: { complete: true } });
  await ctx.db.admin().command({ fsync: 1 });
  const [st] = await coll.aggregate([{ $collStats: { storageStats: {} } }]).toArray();
  const s = st.storageStats;
  return {
    store: 'mongodb',
    layout,
    docs: Number(s.count),
    storage: Number(s.storageSize),
    index: Number(s.totalIndexSize),
    data: Number(s.size),
    total: Number(s.storageSize) + Number(s.totalIndexSize),
  };
}

async function pgBytes(pgs, days) {
  const c = await pgs.connect();
  try {
    await c.query('CREATE SCHEMA IF NOT EXISTS perflab');
    await c.query('SET search_path TO perflab');
    await c.query('DROP TABLE IF EXISTS counters_day');
    await c.query(
      'CREATE TABLE counters_day (id text PRIMARY KEY, date date NOT NULL, metric text NOT NULL, daily integer NOT NULL, hourly integer[] NOT NULL, minute integer[] NOT NULL)',
    );
    for (let i = 0; i < days.length; i += 200) {
      const rows = days.slice(i, i + 200);
      const vals = [];
      const tuples = rows.map((m, j) => {
        vals.push(
          m.key._id,
          new Date(m.key.metadata.date).toISOString().slice(0, 10),
          m.key.metadata.metric,
          m.daily,
          m.hourly,
          m.minute,
        );
        return `($${6 * j + 1}, $${6 * j + 2}, $${6 * j + 3}, $${6 * j + 4}, $${6 * j + 5}, $${6 * j + 6})`;
      });
      await c.query(
        `INSERT INTO counters_day (id, date, metric, daily, hourly, minute) VALUES ${tuples.join(', ')}`,
        vals,
      );
    }
    await c.query('VACUUM ANALYZE counters_day');
    await c.query('CHECKPOINT').catch(() => {
      /* needs a superuser on a shared server: sizes are read from the files either way */
    });
    const r = (
      await c.query(`SELECT count(*) AS n, pg_total_relation_size('counters_day') AS total, pg_relation_size('counters_day') AS heap,
      pg_indexes_size('counters_day') AS index, current_setting('server_version') AS version FROM counters_day`)
    ).rows[0];
    return {
      store: 'postgresql',
      layout: 'row: integer[24] + integer[1440]',
      docs: Number(r.n),
      total: Number(r.total),
      heap: Number(r.heap),
      index: Number(r.index),
      version: r.version,
    };
  } finally {
    await c.end();
  }
}

/** Measure records 'bytes-per-metric-day-compared' per store and layout (value: bytes per metric-day). */
/** The PostgreSQL sizes, or { skipped: why } when the server failed them (not after a signal: that stops the run). */
async function pgBytesOrWhy(pgs, days) {
  try {
    return await pgBytes(pgs, days);
  } catch (e) {
    require('../../infra/cleanup').stopIfInterrupted();
    return {
      skipped: `SQL peer not measured: PostgreSQL failed during the sizes (${String(e.message).split('\n')[0]}); run again, or set PG_URI to another server`,
    };
  }
}

async function pgSize(ctx, p) {
  const pgs = await postgres(ctx);
  const days = pgs ? Array.from({ length: p.SIZE_DAYS }, (_, i) => metricDay(p, i)) : [];
  const pgSizes = pgs ? await pgBytesOrWhy(pgs, days) : null;
  if (!pgs || pgSizes.skipped) {
    const why = (pgSizes && pgSizes.skipped) || sql.note(ctx) || 'no PostgreSQL here';
    ctx.note(`the storage comparison with PostgreSQL did not run: ${why}`);
    // A record of its absence: the rule then says "not reproduced here" and how to get the peer.
    return [
      LabRecords.measureRecord({
        study: 'counters',
        name: 'bytes-per-metric-day-compared',
        variant: 'postgresql',
        axis: { part: 'relational-size' },
        value: null,
        unit: 'bytes',
        what: 'PostgreSQL did not run',
        extra: { skipped: why, metricDays: p.SIZE_DAYS },
      }),
    ];
  }
  const sizes = [];
  for (const layout of LAYOUTS) sizes.push(await mongoBytes(ctx, p, layout, days));
  sizes.push(pgSizes);
  return sizes.map((s) =>
    LabRecords.measureRecord({
      study: 'counters',
      name: 'bytes-per-metric-day-compared',
      variant: s.store === 'mongodb' ? `mongodb-${s.layout}` : 'postgresql',
      axis: { part: 'relational-size' },
      value: Math.round(s.total / p.SIZE_DAYS),
      unit: 'bytes',
      what: `${s.store === 'mongodb' ? 'storageSize + totalIndexSize' : 'pg_total_relation_size (table + TOAST + indexes)'} per metric-day, ${LabFormat.fmtInt(p.SIZE_DAYS)} metric-days of the same counts`,
      extra: { ...s, metricDays: p.SIZE_DAYS },
    }),
  );
}

module.exports = { pgSize, metricDay, documentOf, LAYOUTS };
