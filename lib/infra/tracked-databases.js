'use strict';
// A database the run creates on a given server, dropped when the command is done with it or when
// the run is interrupted, and only under proof: every collection in it one the lab made (its UUID
// in the lab's markers, targets.js ownsAll). A database that existed before the run is never
// dropped (what the run made in it is targets.js's to settle).
//
//   trackDatabase(uri, name) -> Promise<{created, remove, drop}>: when `name` does not exist yet on
//       that server, it is dropped if the run is interrupted (a failed drop is reported), or by
//       drop() when the command is done with it; remove() forgets it (kept)
//   pendingDatabases()       names of the databases still to drop (a frozen server's line says
//                            they are left): pending-drops.js
const { MongoClient } = require('mongodb');
const cleanup = require('./cleanup');
const pendingDrops = require('./pending-drops');
const { clientOptions, friendly, LabError } = require('./errors');
const { ownsAll } = require('./targets');

// Whether the database exists before the run: true too when the listing is not allowed.
async function databaseExisted(uri, name) {
  const client = new MongoClient(uri, clientOptions(uri));
  let existed;
  try {
    const r = await client.db('admin').admin().listDatabases({ nameOnly: true });
    existed = r.databases.some((d) => d.name === name);
  } catch (e) {
    // A server that cannot be reached (or does not answer) fails the command at once, not after
    // the same wait again in the next step.
    if (/ServerSelection/.test(e.name || '')) throw new LabError(friendly(e, { uri }), { cause: e });
    existed = true; // cannot tell (no privilege): never drop what may be the user's
  } finally {
    await client.close().catch(() => {
      /* a listing client: nothing depends on its close */
    });
  }
  return existed;
}

/**
 * Drops database `name` (already proven the lab's) and watches until it stays gone; returns whether
 * it dropped anything.
 */
async function dropUntilGone(c, db, name) {
  // A write still in flight (a shell evaluating) can re-create the database right after the
  // drop: watch until it stays gone for two checks in a row. What re-appears is dropped again
  // only under the same proof as the first time: a collection made after the drop carries no
  // marker of this run, and may as well be someone else's.
  const exists = async () =>
    (await c.db('admin').admin().listDatabases({ nameOnly: true })).databases.some((x) => x.name === name);
  let absentChecks = 0;
  let dropped = false;
  for (let i = 0; i < 20 && absentChecks < 2; i++) {
    if (await exists()) {
      absentChecks = 0;
      if (dropped && !(await ownsAll(db))) {
        const left = (await db.listCollections({}, { nameOnly: true }).toArray()).map((x) => x.name);
        cleanup.say(
          `cleanup: database ${name} re-appeared after its drop holding ${left.join(', ') || 'nothing yet'}, which the lab cannot prove it made: left in place; look at it and drop it yourself if it is the run's`,
        );
        return dropped;
      }
      await db.dropDatabase();
      dropped = true;
    } else {
      absentChecks++;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return dropped;
}

async function trackDatabase(uri, name) {
  const existed = await databaseExisted(uri, name);
  if (existed) return { created: false, remove: () => {}, drop: async () => {} };
  pendingDrops.add(name);
  const dropIt = async () => {
    pendingDrops.remove(name);
    const c = new MongoClient(uri, clientOptions(uri));
    try {
      const db = c.db(name);
      // A creation still finishing (its marker on the way) is let through before the proof.
      await cleanup.settleUnbroken();
      // Only a database whose every collection the lab made, each proven by its UUID, is dropped.
      const colls = await db.listCollections({}, { nameOnly: true }).toArray();
      if (colls.length && !(await ownsAll(db))) {
        cleanup.say(`cleanup: left database ${name} in place: it holds collections the lab cannot prove it made`);
        return;
      }
      const dropped = await dropUntilGone(c, db, name);
      // A user who may not write created nothing: nothing to report.
      if (dropped) cleanup.say(`cleanup: dropped database ${name}, which this run created`);
    } catch (e) {
      cleanup.say(
        `cleanup: could not drop database ${name}, which this run created (${friendly(e, { uri })}): drop it yourself`,
      );
    } finally {
      await c.close().catch(() => {
        /* the drop's outcome is already logged above */
      });
    }
  };
  // One drop, however many ask: the command's end and an interrupt arriving during it share it, and
  // the step stays listed until the drop is done, so an interrupt waits for it instead of exiting
  // while the drop's connection is still being made (the database was left so).
  let dropping = null;
  const dropOnce = () => dropping || (dropping = dropIt());
  const unlist = cleanup.add(dropOnce);
  const remove = () => {
    unlist();
    pendingDrops.remove(name);
  };
  // drop(): now, when the command is done with it (and no longer on interrupt once done).
  return {
    created: true,
    remove,
    drop: async () => {
      try {
        await dropOnce();
      } finally {
        unlist();
      }
    },
  };
}

module.exports = { trackDatabase, pendingDatabases: pendingDrops.list };
