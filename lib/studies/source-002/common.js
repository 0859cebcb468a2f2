'use strict';
// What the Node parts of study 002 (inserts, coherency, tasks, joins) share: scratch collections
// the lab owns, the replica set and the PostgreSQL peer started once per run when a point needs
// them, and list parameters.
// The driver, the replica set and PostgreSQL are required where they are used: `list` reads the
// studies without a server.

const { claim, META } = require('../../infra/targets');
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

/** The run's replica set (for w: majority and transactions): started once, kept on ctx. */
async function replSet(ctx) {
  if (!ctx.replset) {
    ctx.log('starting an embedded replica set (1 member) for w: majority and transactions');
    const { getReplSet } = require('../../infra/replset');
    const rs = await getReplSet({ log: ctx.log });
    const { MongoClient } = require('mongodb');
    const client = new MongoClient(rs.uri);
    await client.connect();
    ctx.replset = { ...rs, client, db: client.db(ctx.dbName) };
    if (ctx.cleanups) ctx.cleanups.push(() => stopPeers(ctx));
  }
  return ctx.replset;
}

/** The run's PostgreSQL peer, or null (with ctx.pgNote saying why) when it cannot run here. */
async function postgres(ctx) {
  if (ctx.pg === undefined) {
    const { tryPostgres } = require('../../infra/postgres');
    const { pgs, note } = await tryPostgres({ log: ctx.log });
    ctx.pg = pgs;
    ctx.pgNote = note;
    if (note) ctx.log(note);
    else ctx.log(`PostgreSQL peer: ${pgs.version} (${pgs.embedded ? 'embedded' : 'PG_URI'})`);
    if (pgs && ctx.cleanups) ctx.cleanups.push(() => stopPeers(ctx));
  }
  return ctx.pg;
}

/** Stops what replSet() and postgres() started (the `after` hook of each study). */
async function stopPeers(ctx) {
  if (ctx.replset) {
    await ctx.replset.client.close().catch(() => {
      /* the set is stopped next: its client's close changes nothing */
    });
    await ctx.replset
      .stop()
      .catch((e) => ctx.log(`replica set: could not stop it cleanly (${e.message.split('\n')[0]})`));
    ctx.replset = null;
  }
  if (ctx.pg) {
    await ctx.pg.stop().catch((e) => ctx.log(`PostgreSQL: could not stop it cleanly (${e.message.split('\n')[0]})`));
    ctx.pg = undefined;
  }
}

module.exports = { scratch, ints, replSet, postgres, stopPeers, META };
