'use strict';
// The SQL peers' one binding, as YCSB binds each store once: a run's PostgreSQL (PG_URI, or the
// embedded one: lib/infra/postgres.js) started the first time a study of the run asks for it, with
// connect (a session of its own: W writers are W sessions), query (on the binding's own session),
// load (a table the lab marks, filled by COPY) and close (the run's clean-up). Every SQL peer goes
// through it: source 002's inserts, races, joins and tasks (source-002/pg-peer.js), source 000's
// aggregation (mapreduce/sql-peer.js), the counters' sizes. The run's binding is kept beside the
// run's context (lib/core/study-state.js), not on it.
//
//   const sql = require('../sql-peer');
//   const pg = await sql.open(ctx);            // null when PostgreSQL cannot run here: sql.note(ctx) says why
//   await pg.load('t', { mark, create: 'CREATE TABLE t (...)', rows });   // skipped when t carries mark
//   const r = await pg.query('SELECT count(*) FROM t');
//   sql.of(ctx)                                // in able(p, point, ctx) or run: the binding, or null
const { pipeline } = require('stream/promises');
const { Readable } = require('stream');
const { studyState } = require('../core/study-state');

const runs = studyState(() => ({ asked: false, binding: null, closer: null, note: null }));
// Every table the lab makes carries a COMMENT starting so; a table without it is never replaced.
const LAB_MARK = 'mongo-perf-lab fixture';

/** A binding over a started PostgreSQL (tryPostgres' pgs). */
function bind(pgs) {
  let own = null; // the binding's own session, opened on first query
  const session = async () => own || (own = await pgs.connect());
  const binding = {
    version: pgs.version,
    embedded: pgs.embedded,
    /** A connected pg.Client of its own (close it yourself). */
    connect: () => pgs.connect(),
    /** A query on the binding's own session. */
    query: async (text, params) => (await session()).query(text, params),
    /**
     * A table the lab marks (COMMENT `mark`, starting with LAB_MARK): kept when it carries `mark`,
     * made again (create, then COPY of `rows`, text format lines, then ANALYZE) when it carries
     * another of the lab's, refused when it carries none. Returns whether it was loaded now.
     */
    async load(table, { mark, create, rows }) {
      const r = await binding.query(
        "SELECT obj_description(to_regclass($1), 'pg_class') AS c, to_regclass($1) IS NOT NULL AS e",
        [table],
      );
      const { c: comment, e: exists } = r.rows[0];
      if (exists && comment === mark) return false;
      if (exists && !(comment || '').startsWith(LAB_MARK))
        throw new Error(`PostgreSQL table ${table} exists and was not made by the lab: not replacing it`);
      await binding.query(`DROP TABLE IF EXISTS ${table}`);
      await binding.query(create);
      const { from: copyFrom } = require('pg-copy-streams'); // required here: `list` reads the studies without it
      await pipeline(Readable.from(rows), (await session()).query(copyFrom(`COPY ${table} FROM STDIN`)));
      await binding.query(`ANALYZE ${table}`);
      await binding.query(`COMMENT ON TABLE ${table} IS '${mark}'`);
      return true;
    },
    /** Ends the binding's session and stops (or leaves, with PG_URI) the server. */
    async close() {
      if (own)
        await own.end().catch(() => {
          /* dropped by the server already: stopping the server is what matters */
        });
      own = null;
      await pgs.stop();
    },
  };
  return binding;
}

/** The run's PostgreSQL binding, started on the run's first ask; null (note(ctx) says why) when it cannot run here. */
async function open(ctx) {
  const st = runs.of(ctx);
  if (!st.asked) {
    st.asked = true;
    const { tryPostgres } = require('../infra/postgres'); // required here: `list` reads the studies without a server
    const { pgs, note } = await tryPostgres({ log: ctx.log });
    st.note = note;
    if (note) ctx.log(note);
    else {
      ctx.log(`PostgreSQL peer: ${pgs.version} (${pgs.embedded ? 'embedded' : 'PG_URI'})`);
      st.binding = bind(pgs);
      st.closer = st.binding;
      if (ctx.cleanups) ctx.cleanups.push(() => close(ctx));
    }
  }
  return st.binding;
}

/** The run's binding when it is up, else null (in able(p, point, ctx) and run). */
function of(ctx) {
  return (ctx && runs.of(ctx).binding) || null;
}

/** Why the run has no SQL peer (or null while it has one). */
function note(ctx) {
  return (ctx && runs.of(ctx).note) || null;
}

/** The peer failed for this run (a load that broke): its variants then say `why`; the server still stops at the end. */
function fail(ctx, why) {
  const st = runs.of(ctx);
  st.binding = null;
  st.note = why;
  ctx.log(why);
}

/** Stops the run's PostgreSQL (the run's clean-up; again at once is a no-op). */
async function close(ctx) {
  const st = runs.of(ctx);
  const closer = st.closer;
  st.closer = null;
  st.binding = null;
  if (closer)
    await closer
      .close()
      .catch((e) => ctx.log(`PostgreSQL: could not stop it cleanly (${String(e.message).split('\n')[0]})`));
}

module.exports = { open, of, note, fail, close, LAB_MARK };
