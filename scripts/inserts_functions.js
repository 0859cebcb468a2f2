// Study 002, the functions themselves: inserts, check-then-insert and its fixed patterns, random
// task selection and claiming, and joins in the client or in the server.
//
// Self-contained ES2017: paste any of them into mongosh or Robo 3T (4.2 legacy shell) and call it
// with a collection, e.g.  insertBatches(db.getCollection('t'), docs, 1000, false)
// The lab's scripts load this file with load(__dirname + '/inserts_functions.js').
// None of them uses ?., ??, require, console or EJSON, and none relies on runCommand throwing.

// ---- inserts ----------------------------------------------------------------------------------
// The seed's "sequential insert": one round trip per document.
function insertSequential(coll, docs) {
  for (var i = 0; i < docs.length; i++) coll.insertOne(docs[i]);
  return docs.length;
}

// The seed's "bulk insert": `batch` documents per insertMany. Unordered lets the server go on
// after a failed document (and, on a sharded cluster, send batches in parallel).
function insertBatches(coll, docs, batch, ordered) {
  for (var i = 0; i < docs.length; i += batch) {
    coll.insertMany(docs.slice(i, i + batch), { ordered: ordered !== false });
  }
  return docs.length;
}

// The physical ceiling: the same documents copied inside the server, no client round trips.
// `from` holds the documents already; `$merge` (4.2+) into an empty collection inserts them all.
function serverSideCopy(from, toName) {
  from.aggregate([{ $merge: { into: toName, whenMatched: 'fail', whenNotMatched: 'insert' } }]).toArray();
  return from.getDB().getCollection(toName).countDocuments({});
}

// ---- the price of coherency -------------------------------------------------------------------
// The seed's pattern: look the key up, insert when absent. Not atomic: two workers may both see
// "absent" and both insert. Returns true when this call inserted.
function checkThenInsert(coll, entry) {
  if (coll.findOne({ key: entry.key }, { _id: 1 })) return false;
  coll.insertOne({ key: entry.key, data: entry.data });
  return true;
}

function isDuplicateKey(e) {
  if (!e) return false;
  if (e.code === 11000) return true;
  if (e.writeErrors && e.writeErrors.length && e.writeErrors[0].code === 11000) return true;
  if (e.writeError && e.writeError.code === 11000) return true;
  return /E11000/.test(String(e.message || e));
}

// Fixed pattern 1: a unique index on key ({key: 1}, {unique: true}) and a plain insert; the
// duplicate-key error (11000) means "somebody else has it".
function insertUnique(coll, entry) {
  try {
    coll.insertOne({ key: entry.key, data: entry.data });
    return true;
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
}

// Fixed pattern 2: one atomic upsert that only writes on insert. Atomic per document; without a
// unique index on key two concurrent upserts can still both insert (they match nothing, then
// both insert), so pair it with the unique index. Since 4.2 the server retries such an upsert
// itself on a duplicate-key error; the catch is for older servers.
function upsertOnce(coll, entry) {
  try {
    var res = coll.updateOne({ key: entry.key }, { $setOnInsert: { data: entry.data } }, { upsert: true });
    return res.upsertedId !== undefined && res.upsertedId !== null;
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
}

// Counts duplicates exactly: documents minus distinct keys.
function countDuplicates(coll) {
  var out = coll.aggregate([
    { $group: { _id: '$key', n: { $sum: 1 } } },
    { $group: { _id: null, keys: { $sum: 1 }, docs: { $sum: '$n' } } },
  ]).toArray();
  if (!out.length) return { keys: 0, docs: 0, duplicates: 0 };
  return { keys: out[0].keys, docs: out[0].docs, duplicates: out[0].docs - out[0].keys };
}

// ---- random selection of an unprocessed task ------------------------------------------------
// The seed's pick: skip a random number R of unprocessed tasks. The server still walks R entries
// (documents without an index on processed, index keys with one), so the cost grows with R.
function pickBySkip(coll, r, hint) {
  var cur = coll.find({ processed: 0 }).skip(r).limit(1);
  if (hint) cur = cur.hint(hint);
  var docs = cur.toArray();
  return docs.length ? docs[0] : null;
}

// $sample first: a random document of the whole collection (cheap, a random cursor on
// WiredTiger), retried until it is unprocessed. Good while most tasks are unprocessed.
function pickBySampleFirst(coll, maxTries) {
  for (var i = 0; i < (maxTries || 100); i++) {
    var docs = coll.aggregate([{ $sample: { size: 1 } }]).toArray();
    if (docs.length && docs[0].processed === 0) return docs[0];
  }
  return null;
}

// $match then $sample: correct, but the server reads every match first, then samples.
function pickByMatchSample(coll) {
  var docs = coll.aggregate([{ $match: { processed: 0 } }, { $sample: { size: 1 } }]).toArray();
  return docs.length ? docs[0] : null;
}

// A random field r in [0, 1) stored with each task and an index {processed: 1, r: 1}: the first
// unprocessed task at or after a random point x, wrapping around to the start.
function pickByRandomField(coll, x) {
  var docs = coll.find({ processed: 0, r: { $gte: x } }).sort({ r: 1 }).limit(1).toArray();
  if (!docs.length) docs = coll.find({ processed: 0, r: { $lt: x } }).sort({ r: 1 }).limit(1).toArray();
  return docs.length ? docs[0] : null;
}

// Claiming, not just picking: one atomic findOneAndUpdate flips processed 0 -> 1, so no two
// workers can get the same task. With x (a random point) workers start at different places and
// rarely collide; without it they all go for the same "first" task and the server retries
// the losers (write conflicts).
function claimTask(coll, worker, x) {
  var update = { $set: { processed: 1, by: worker } };
  if (x === undefined || x === null) {
    return coll.findOneAndUpdate({ processed: 0 }, update, { sort: { r: 1 } });
  }
  var doc = coll.findOneAndUpdate({ processed: 0, r: { $gte: x } }, update, { sort: { r: 1 } });
  if (!doc) doc = coll.findOneAndUpdate({ processed: 0, r: { $lt: x } }, update, { sort: { r: 1 } });
  return doc;
}

// ---- joins --------------------------------------------------------------------------------------
// The join in the client ("a simulated join in a scripting language"): customers into a map by
// _id, then one pass over the orders. Returns per region: orders and total cents.
function joinInClient(orders, customers) {
  var byId = {};
  customers.find({}, { region: 1 }).forEach(function (c) { byId[c._id] = c.region; });
  var acc = {};
  orders.find({}, { cust: 1, cents: 1 }).forEach(function (o) {
    var region = byId[o.cust];
    var key = region === undefined ? '(none)' : region;
    if (!acc[key]) acc[key] = { orders: 0, cents: 0 };
    acc[key].orders += 1;
    acc[key].cents += o.cents;
  });
  return Object.keys(acc).sort().map(function (k) { return { region: k, orders: acc[k].orders, cents: acc[k].cents }; });
}

// The join in the server: $lookup in four forms. `on` is '_id' (orders.cust -> customers._id),
// 'indexed' (custCode -> code, with an index on code), 'unindexed' (custCode -> alias, no index)
// or 'pipeline' (let + $expr, the form that can join on anything).
function lookupStage(customersName, on) {
  if (on === 'pipeline') {
    return { $lookup: { from: customersName, let: { c: '$cust' }, pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$c'] } } }, { $project: { region: 1 } }], as: 'c' } };
  }
  var local = on === '_id' ? 'cust' : 'custCode';
  var foreign = on === '_id' ? '_id' : (on === 'indexed' ? 'code' : 'alias');
  return { $lookup: { from: customersName, localField: local, foreignField: foreign, as: 'c' } };
}

// Every joined row comes back to the client (as in a join that returns rows), which sums them.
function joinInServer(orders, customersName, on) {
  var acc = {};
  orders.aggregate([
    { $project: { cust: 1, custCode: 1, cents: 1 } },
    lookupStage(customersName, on),
    { $project: { cents: 1, region: { $arrayElemAt: ['$c.region', 0] } } },
  ]).forEach(function (o) {
    var key = o.region === undefined || o.region === null ? '(none)' : o.region;
    if (!acc[key]) acc[key] = { orders: 0, cents: 0 };
    acc[key].orders += 1;
    acc[key].cents += o.cents;
  });
  return Object.keys(acc).sort().map(function (k) { return { region: k, orders: acc[k].orders, cents: acc[k].cents }; });
}
