'use strict';
// Where the lab may write: the Node twin of the shell's ownership I/O (scripts/lib/fixture.js).
// The decisions are LabFixture's own functions (ownership, decide, marker), so shell and Node
// cannot disagree; only the I/O here is asynchronous. Ownership is by identity: the lab owns a
// collection only while its marker in <db>.perflab_fixtures names the collection's current UUID.
//
//   checkTarget(dbName, collName?)      throws TargetError (one line) for admin/local/config,
//                                       system.*, the marker collection, bad names
//   inspect(db, collName, spec?)        -> {marker, meta, info, count, owner, decision}; reads only (a
//                                       stale marker grants nothing; creating the collection replaces it)
//   assertOwned(db, collName, doing)    throws ForeignDataError unless the collection is absent or
//                                       the lab's (an EMPTY foreign collection is foreign too)
//   assertAllOwned(db, names, doing)    the same for several, one ForeignDataError naming every
//                                       foreign one: the user renames or drops them in one go
//   claim(db, collName, opts)           creates (or, fresh, re-creates) a collection the lab owns:
//                                       opts {kind, options, fresh, doing, spec}; -> {created, uuid}
//   createOwned(db, collName, options, kind, spec)  create, read the UUID, write the marker
//   dropOwned(db, collName)             drops a collection the lab owns (and its marker); refuses a
//                                       foreign one; a failed drop throws (it is never swallowed)
//   release(db, collName, why, log)     after a failed generation: drops what the lab made, one line
//   runStart(db) / finishRun(db, start, {keep})  a run's start (read only) and end in a database the
//                                       lab did not make: what it made since goes unless keep
//   cleanDatabase(db)                   `mongo-perf-lab clean`: what the lab can prove it made, and
//                                       the names it left alone (decisions: LabFixture.cleanPlan)
//   META                                'perflab_fixtures'

const LabFixture = require('../../scripts/lib/fixture');
const { TargetError, ForeignDataError } = require('./errors');
const cleanup = require('./cleanup');

const META = LabFixture.META;

function checkTarget(dbName, collName) {
  try {
    LabFixture.checkTarget(dbName, collName);
  } catch (e) {
    throw new TargetError(e.message);
  }
}

// A time-series collection's identity is its buckets collection's UUID (the view has none).
async function collInfo(db, name) {
  const infos = await db.listCollections({ name }).toArray();
  const info = infos.length ? infos[0] : null;
  if (info && info.type === 'timeseries' && !(info.info && info.info.uuid)) {
    const [b] = await db.listCollections({ name: `system.buckets.${name}` }).toArray();
    info.info = { ...(info.info || {}), uuid: b && b.info ? b.info.uuid : undefined };
  }
  return info;
}

async function inspect(db, collName, spec) {
  checkTarget(db.databaseName, collName);
  const marker = await db.collection(META).findOne({ _id: collName });
  const info = await collInfo(db, collName);
  const owner = LabFixture.ownership(marker, info);
  const isColl = info && (!info.type || info.type === 'collection');
  const count = isColl ? await db.collection(collName).estimatedDocumentCount() : 0;
  const decision = spec ? LabFixture.decide(marker, count, spec, info) : null;
  // marker: as found (decision explains a stale one); meta: only a marker that grants ownership.
  return {
    marker,
    meta: owner.state === 'own' ? marker : null,
    info,
    count,
    owner,
    decision,
    target: `${db.databaseName}.${collName}`,
  };
}

async function assertOwned(db, collName, doing = 'write to') {
  const s = await inspect(db, collName);
  if (s.owner.state === 'foreign') throw new ForeignDataError(LabFixture.foreignMessage(s.target, s.owner.why, doing));
  return s;
}

async function assertAllOwned(db, collNames, doing = 'write to') {
  const found = [];
  for (const name of collNames) {
    const s = await inspect(db, name);
    if (s.owner.state === 'foreign') found.push({ target: s.target, why: s.owner.why });
  }
  if (found.length) throw new ForeignDataError(LabFixture.foreignManyMessage(found, doing));
}

/** Creates db.collName and marks it with its UUID; an interrupt lets the two finish together. */
function createOwned(db, collName, options = {}, kind = 'collection', spec = {}) {
  // Once interrupted, no new collection: the clean-up is about to prove what the run made.
  if (cleanup.interrupted())
    return Promise.reject(new TargetError(`${db.databaseName}.${collName}: not created, the run is stopping`));
  return cleanup.unbroken(createAndMark(db, collName, options, kind, spec));
}

async function createAndMark(db, collName, options, kind, spec) {
  const target = `${db.databaseName}.${collName}`;
  await claimDatabase(db); // a database the lab found empty is the lab's (only there it writes system.js)
  await claimMarkers(db);
  try {
    await db.createCollection(collName, options);
  } catch (e) {
    if (e.code === 48)
      throw new ForeignDataError(LabFixture.foreignMessage(target, 'appeared while the lab was creating it'));
    throw new Error(`${target}: could not create it (${String(e.message).split('\n')[0]})`, { cause: e });
  }
  const uuid = LabFixture.identity(await collInfo(db, collName));
  if (!uuid)
    throw new Error(
      `${target}: created, but the server reports no UUID for it; the lab cannot prove it owns it and stops`,
    );
  await db
    .collection(META)
    .replaceOne({ _id: collName }, LabFixture.marker(collName, uuid, kind, options, spec), { upsert: true });
  return uuid;
}

/**
 * Drops db.collName only when `s` (from inspect) found it the lab's and the collection there now is
 * still the one its marker names by UUID; otherwise refuses (ForeignDataError) and drops nothing.
 */
async function dropProven(db, collName, s) {
  const now = LabFixture.identity(await collInfo(db, collName));
  if (s.owner.state !== 'own' || !s.meta || (now && now !== s.meta.uuid))
    throw new ForeignDataError(
      LabFixture.foreignMessage(`${db.databaseName}.${collName}`, 'is not the one its marker names', 'drop'),
    );
  if (!now) return db.collection(META).deleteOne({ _id: collName }); // already gone: only the marker is left
  try {
    await db.collection(collName).drop();
  } catch (e) {
    if (e.code !== 26 && !/ns not found/i.test(e.message)) {
      throw new Error(`could not drop ${db.databaseName}.${collName}: ${String(e.message).split('\n')[0]}`, {
        cause: e,
      });
    }
  }
  await db.collection(META).deleteOne({ _id: collName });
}

async function claim(db, collName, { kind = 'collection', options, fresh = false, doing = 'write into', spec } = {}) {
  const s = await assertOwned(db, collName, doing);
  if (s.owner.state === 'own' && !fresh) return { created: false, uuid: s.meta.uuid };
  if (s.owner.state === 'own') await dropProven(db, collName, s);
  return { created: true, uuid: await createOwned(db, collName, options, kind, spec) };
}

async function dropOwned(db, collName) {
  const s = await assertOwned(db, collName, 'drop');
  if (s.owner.state === 'own') await dropProven(db, collName, s);
}

async function release(db, collName, why, log) {
  let s;
  try {
    s = await inspect(db, collName);
    if (s.owner.state === 'own') await dropProven(db, collName, s);
  } catch (e) {
    return; // the server is gone: the marker still names the collection, a re-run resumes or drops it
  }
  if (s.owner.state === 'own' && log) log(`removed ${s.target} and its lab marker: ${why}`);
}

module.exports = { checkTarget, inspect, assertOwned, assertAllOwned, claim, createOwned, dropOwned, release, META };

/** Whether the lab owns the database (LabFixture.dbOwnership: its marker names the markers' UUID). */
async function ownsDatabase(db) {
  return LabFixture.dbOwnership(
    await db.collection(META).findOne({ _id: LabFixture.DB_MARK }),
    await collInfo(db, META),
  );
}

/** Marks db as the lab's if it holds no collection at all; resolves whether the lab owns it. */
async function claimDatabase(db) {
  checkTarget(db.databaseName);
  if (await ownsDatabase(db)) return true;
  if ((await db.listCollections({}, { nameOnly: true }).toArray()).length) return false;
  try {
    await db.createCollection(META);
  } catch (e) {
    return false;
  }
  const uuid = LabFixture.identity(await collInfo(db, META));
  if (!uuid) return false;
  await db.collection(META).insertOne({ _id: LabFixture.DB_MARK, uuid, made: { at: new Date(), kind: 'database' } });
  return true;
}

/**
 * Whether every collection of db is the lab's by identity: the database's marker names the markers'
 * UUID and each other collection's marker names its UUID (system.* collections are the server's).
 */
async function ownsAll(db) {
  if (!(await ownsDatabase(db))) return false;
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of names.filter((n) => n !== META && !n.startsWith('system.'))) {
    if ((await inspect(db, name)).owner.state !== 'own') return false;
  }
  return true;
}

module.exports.ownsDatabase = ownsDatabase;
module.exports.ownsAll = ownsAll;
module.exports.claimDatabase = claimDatabase;

/**
 * Where `import` may write: a collection the lab made (created here, explicitly and marked, when it
 * does not exist; a re-import into it only adds the rows not there yet), or, with append: true
 * (--append), a collection it did not make. Resolves {created, own}; throws ForeignDataError
 * (one line) for an existing foreign collection, empty or not, without append.
 */
async function importTarget(db, collName, { append = false } = {}) {
  const s = await inspect(db, collName);
  if (s.owner.state === 'own') return { created: false, own: true };
  if (s.owner.state === 'absent') {
    await createOwned(db, collName, {}, 'import', { fixture: 'import', complete: true });
    return { created: true, own: true };
  }
  const kind = s.info.type || 'collection';
  if (append && kind === 'collection') return { created: false, own: false };
  // A view takes no writes, and a time-series collection keeps no unique _id (the import's identity):
  // --append would be refused the same way, so it is not offered.
  if (kind !== 'collection')
    throw new ForeignDataError(
      `${s.target} is a ${kind === 'timeseries' ? 'time-series collection' : kind}, which import cannot write into ` +
        '(with or without --append): choose another --coll or --db',
    );
  throw new ForeignDataError(
    `${s.target} ${s.owner.why}${s.count ? `, holds ${s.count} documents` : ', empty'}; ` +
      'import never appends to a collection it did not make unless told: add --append to add these rows to it, or choose another --coll or --db',
  );
}

module.exports.importTarget = importTarget;

// ---- what the lab leaves behind (the decisions: LabFixture.cleanPlan) ---------------------------

/** Creates the marker collection, marked as the lab's (LabFixture.claimMarkers); one that exists stays as it is. */
async function claimMarkers(db) {
  if (await collInfo(db, META)) return;
  try {
    await db.createCollection(META);
  } catch (e) {
    return; // appeared meanwhile: someone else's, proves nothing
  }
  const uuid = LabFixture.identity(await collInfo(db, META));
  if (uuid) await db.collection(META).insertOne({ _id: LabFixture.MARKERS_MARK, uuid, made: { at: new Date() } });
}

/** {name: listCollections entry} of every collection (a time-series one with its buckets' UUID). */
async function allInfos(db) {
  const infos = {};
  for (const i of await db.listCollections().toArray())
    infos[i.name] = i.type === 'timeseries' ? await collInfo(db, i.name) : i;
  return infos;
}

/** LabFixture.cleanPlan on what db holds now; before: null (everything proven) or a labSnapshot. */
async function cleanPlanOf(db, before) {
  checkTarget(db.databaseName);
  const infos = await allInfos(db);
  const markersInfo = infos[META] || null;
  const markers = markersInfo ? await db.collection(META).find({}).toArray() : [];
  return LabFixture.cleanPlan(markers, infos, markersInfo, before);
}

/** {name: uuid} of what is the lab's in db now, its marker collection included when the lab made it. */
async function labSnapshot(db) {
  const infos = await allInfos(db);
  const plan = await cleanPlanOf(db, null);
  const out = {};
  for (const name of plan.drop) out[name] = LabFixture.identity(infos[name]);
  if (plan.markersOwn) out[META] = LabFixture.identity(infos[META]);
  return out;
}

/** What a run's end compares against (LabFixture.runStart): read only, before the run writes. */
async function runStart(db) {
  return { lab: await labSnapshot(db), views: Boolean(await collInfo(db, 'system.views')) };
}

/**
 * Carries out a plan (LabFixture.applyPlan): each collection proven again by UUID just before its
 * drop; prune (clean only) removes markers that grant nothing from a marker collection the lab made.
 */
async function applyPlan(db, plan, { prune = false } = {}) {
  const dropped = [];
  for (const name of plan.drop) {
    const s = await inspect(db, name);
    if (s.owner.state !== 'own') continue;
    await dropProven(db, name, s);
    dropped.push(name);
  }
  const useless = [...plan.stale, ...plan.foreign.map((f) => f.name)];
  if (prune && plan.markersOwn && useless.length) await db.collection(META).deleteMany({ _id: { $in: useless } });
  if (plan.dropMarkers) {
    const left = (await db.collection(META).find({}).toArray()).filter(
      (m) => !LabFixture.isMark(m._id) && !plan.stale.includes(m._id),
    );
    if (!left.length) {
      // The marker collection itself, once it marks nothing: dropMarkers is set only where its own
      // #markers document names its UUID (cleanPlanOf's markersOwn), and no other marker is left.
      await db.collection(META).drop();
      dropped.push(META);
    }
  }
  return dropped;
}

/** system.views when the run's time-series collections made it and left it empty. */
async function dropLeftViews(db, start) {
  if (start.views || !(await collInfo(db, 'system.views'))) return false;
  if ((await db.collection('system.views').countDocuments({})) > 0) return false;
  await db.collection('system.views').drop();
  return true;
}

/**
 * The end of a run in a database the lab did not make (start: runStart before the run): what the
 * run made is dropped unless keep. Resolves {dropped, left}: left, the names of the lab's still there.
 */
async function finishRun(db, start, { keep = false } = {}) {
  const dropped = keep ? [] : await applyPlan(db, await cleanPlanOf(db, start.lab));
  if (!keep && (await dropLeftViews(db, start))) dropped.push('system.views');
  return { dropped, left: Object.keys(await labSnapshot(db)) };
}

/**
 * `mongo-perf-lab clean`: drops every collection of db the lab can prove it made (its marker names
 * its UUID), the markers that grant nothing, and the marker collection when it is the lab's and no
 * other marker is left. Resolves {dropped, refused: [{name, why}], left}.
 */
async function cleanDatabase(db) {
  checkTarget(db.databaseName);
  // A database the lab made and nothing else wrote into goes whole (its system.js included).
  const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  if (names.length && (await ownsAll(db))) {
    await db.dropDatabase();
    return { dropped: names.filter((n) => !n.startsWith('system.')), refused: [], left: [], database: true };
  }
  const plan = await cleanPlanOf(db, null);
  const before = await allInfos(db);
  const dropped = await applyPlan(db, plan, { prune: true });
  // The server keeps the system.views its first time-series collection made: an empty one, once the
  // lab's time-series collections are gone, is theirs.
  if (dropped.some((n) => before[n] && before[n].type === 'timeseries') && (await dropLeftViews(db, { views: false })))
    dropped.push('system.views');
  const refused = [
    ...plan.foreign.map((f) => ({ name: f.name, why: f.why })),
    ...plan.unmarked.map((name) => ({ name, why: 'no lab marker names it' })),
  ];
  const infos = await allInfos(db);
  if (infos[META] && !plan.markersOwn)
    refused.push({ name: META, why: 'the lab cannot prove it made it (no #markers document names its UUID)' });
  else if (infos[META]) refused.push({ name: META, why: 'still holds markers of collections kept above' });
  return { dropped, refused, left: Object.keys(await labSnapshot(db)) };
}

module.exports.claimMarkers = claimMarkers;

/**
 * The marker collection alone, by the same proof as a run's end: dropped when its #markers document
 * names its UUID and no marker is left in it (applyPlan). -> true when it was dropped.
 */
async function dropMarkersIfEmpty(db) {
  const plan = await cleanPlanOf(db, null);
  if (!plan.markersOwn) return false;
  const dropped = await applyPlan(db, { drop: [], stale: [], foreign: [], markersOwn: true, dropMarkers: true });
  return dropped.includes(META);
}
module.exports.dropMarkersIfEmpty = dropMarkersIfEmpty;
module.exports.labSnapshot = labSnapshot;
module.exports.runStart = runStart;
module.exports.finishRun = finishRun;
module.exports.cleanDatabase = cleanDatabase;
module.exports.cleanPlanOf = cleanPlanOf;
