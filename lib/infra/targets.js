'use strict';
// Where the lab may write. Every Node path that drops, replaces, indexes or inserts checks here
// first, with the same marker protocol as the shell (scripts/lib/fixture.js).
//
//   checkTarget(dbName, collName?)      throws TargetError (one line) for admin/local/config,
//                                       system.*, the marker collection, bad names
//   inspect(db, collName, spec?)        -> {meta, count, decision} (decision only with spec)
//   assertOwned(db, collName, doing)    throws ForeignDataError unless the collection is absent/empty
//                                       or marked as the lab's; doing = 'drop', 'index', ...
//   dropOwned(db, collName)             drops a collection the lab owns (and its marker); a failed
//                                       drop throws (it is never swallowed)
//   META                                'perflab_fixtures'

const LabFixture = require('../../scripts/lib/fixture');
const { TargetError, ForeignDataError } = require('./errors');

const META = LabFixture.META;

function checkTarget(dbName, collName) {
  try {
    LabFixture.checkTarget(dbName, collName);
  } catch (e) {
    throw new TargetError(e.message);
  }
}

async function inspect(db, collName, spec) {
  const meta = await db.collection(META).findOne({ _id: collName });
  const count = await db.collection(collName).estimatedDocumentCount();
  return { meta, count, decision: spec ? LabFixture.decide(meta, count, spec) : null };
}

async function assertOwned(db, collName, doing = 'write to') {
  checkTarget(db.databaseName, collName);
  const { meta, count } = await inspect(db, collName);
  if (!meta && count > 0) {
    throw new ForeignDataError(`${db.databaseName}.${collName} holds ${count} documents the lab did not generate; ` +
      `the lab would ${doing} it, and never touches data it does not own: choose another database (--db) or collection`);
  }
  return { meta, count };
}

async function dropOwned(db, collName) {
  await assertOwned(db, collName, 'drop');
  try {
    await db.collection(collName).drop();
  } catch (e) {
    if (e.code !== 26 && !/ns not found/i.test(e.message)) {
      throw new Error(`could not drop ${db.databaseName}.${collName}: ${e.message}`, { cause: e });
    }
  }
  await db.collection(META).deleteOne({ _id: collName });
}

module.exports = { checkTarget, inspect, assertOwned, dropOwned, META };
