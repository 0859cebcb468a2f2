'use strict';
// What the Node parts of study 002 (inserts, coherency, tasks, joins) share: scratch collections
// the lab owns, the replica set and the PostgreSQL peer started once per run when a point needs
// them, and list parameters.
// The driver, the replica set and PostgreSQL are required where they are used: `list` reads the
// studies without a server.

const { claim, META } = require('../../infra/targets');
const { studyState } = require('../../core/study-state');
const sql = require('../sql-peer');
const { ParameterError } = require('../../infra/errors');

/**
 * An empty scratch collection the lab owns (lib/infra/targets.js claim, fresh): created and marked
 * by UUID when absent, dropped and created again when the lab's marker names it; a collection of
 * the same name the lab did not make (empty or not) stops the run with one line.
 * options: createCollection options.
 */
async function scratch(db, name, options) {
  await claim(db, name, { kind: 'scratch', fresh: true, options, doing: 'empty (drop) as a scratch collection' });
  return db.collection(name);
}

/** "1,10,100" -> [1, 10, 100], each a whole number in min..max, else an Error naming the parameter. */
function ints(name, csv, min, max) {
  const items = String(csv)
    .split(',')
    .filter((s) => s.length);
  if (!items.length)
    throw new ParameterError(
      `parameter ${name}: expected a comma-separated list of whole numbers, got ${JSON.stringify(csv)}`,
    );
  return items.map((s) => {
    const n = Number(s);
    if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new ParameterError(`parameter ${name}: ${JSON.stringify(s)} is not a whole number in ${min}..${max}`);
    }
    return n;
  });
}

// The run's replica set, kept beside the run's context (lib/core/study-state.js), not on it.
const sets = studyState(() => ({ replset: null }));

/** The run's replica set (for w: majority and transactions): started once per run. */
async function replSet(ctx) {
  const st = sets.of(ctx);
  if (!st.replset) {
    ctx.log('starting an embedded replica set (1 member) for w: majority and transactions');
    const { getReplSet } = require('../../infra/replset');
    const rs = await getReplSet({ log: ctx.log });
    const { MongoClient } = require('mongodb');
    const client = new MongoClient(rs.uri);
    await client.connect();
    st.replset = { ...rs, client, db: client.db(ctx.dbName) };
    if (ctx.cleanups) ctx.cleanups.push(() => stopPeers(ctx));
  }
  return st.replset;
}

/** The run's PostgreSQL peer (the SQL binding, lib/studies/sql-peer.js), or null (sql.note(ctx) says why). */
function postgres(ctx) {
  return sql.open(ctx);
}

/** Stops what replSet() and postgres() started (the run's clean-up). */
async function stopPeers(ctx) {
  const st = sets.of(ctx);
  if (st.replset) {
    const rs = st.replset;
    st.replset = null;
    await rs.client.close().catch(() => {
      /* the set is stopped next: its client's close changes nothing */
    });
    await rs.stop().catch((e) => ctx.log(`replica set: could not stop it cleanly (${e.message.split('\n')[0]})`));
  }
  await sql.close(ctx);
}

module.exports = { scratch, ints, replSet, postgres, stopPeers, META };
