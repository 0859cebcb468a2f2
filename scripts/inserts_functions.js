// Study 002, the functions themselves: inserts, check-then-insert and its fixed patterns, random
// task selection and claiming, and joins in the client or in the server.
//
// Plain ES2017: paste any of them into mongosh or Robo 3T (4.2 legacy shell), with the helpers it
// names in its comment ("uses ..."), and call it with a collection, e.g.
//   insertBatches(db.getCollection('t'), docs, 1000, false)
// The lab's scripts load this file with load(__dirname + '/inserts_functions.js').
// None of them uses ?., ??, require, console or EJSON, and none relies on runCommand throwing.

// ---- inserts ----------------------------------------------------------------------------------
// The source's "sequential insert": one round trip per document.
function insertSequential(coll, docs) {
  for (var i = 0; i < docs.length; i++) coll.insertOne(docs[i]);
  return docs.length;
}

// The source's "bulk insert": `batch` documents per insertMany. Unordered lets the server go on
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
// The source's pattern: look the key up, insert when absent. Not atomic: two workers may both see
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
// duplicate-key error (11000) means "somebody else has it". Uses isDuplicateKey.
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
// itself on a duplicate-key error; the catch is for older servers. Returns true when this call
// inserted. Uses isDuplicateKey.
function upsertOnce(coll, entry) {
  try {
    var res = coll.updateOne({ key: entry.key }, { $setOnInsert: { data: entry.data } }, { upsert: true });
    // mongosh names the upserted id insertedId, the Node driver and the 4.2 shell upsertedId;
    // upsertedCount (mongosh, Node) says it whatever the name
    if (typeof res.upsertedCount === 'number') return res.upsertedCount > 0;
    var id = res.upsertedId !== undefined ? res.upsertedId : res.insertedId;
    return id !== undefined && id !== null;
  } catch (e) {
    if (isDuplicateKey(e)) return false;
    throw e;
  }
}

// Counts duplicates exactly: documents minus distinct keys.
function countDuplicates(coll) {
  var out = coll
    .aggregate([
      { $group: { _id: '$key', n: { $sum: 1 } } },
      { $group: { _id: null, keys: { $sum: 1 }, docs: { $sum: '$n' } } },
    ])
    .toArray();
  if (!out.length) return { keys: 0, docs: 0, duplicates: 0 };
  return { keys: out[0].keys, docs: out[0].docs, duplicates: out[0].docs - out[0].keys };
}

// ---- random selection of an unprocessed task ------------------------------------------------
// The source's pick: skip a random number R of unprocessed tasks. The server still walks R entries
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
  var docs = coll
    .find({ processed: 0, r: { $gte: x } })
    .sort({ r: 1 })
    .limit(1)
    .toArray();
  if (!docs.length)
    docs = coll
      .find({ processed: 0, r: { $lt: x } })
      .sort({ r: 1 })
      .limit(1)
      .toArray();
  return docs.length ? docs[0] : null;
}

// Claiming, not just picking: one atomic findOneAndUpdate flips processed 0 -> 1, so no two
// workers can get the same task. With x (a random point) workers start at different places and
// rarely collide; without it they all go for the same "first" task and the server retries
// the losers (write conflicts). Returns the claimed task as it now is (processed: 1, by: worker),
// or null when no task is left.
function claimTask(coll, worker, x) {
  if (x !== undefined && x !== null && !(typeof x === 'number' && x >= 0 && x < 1)) {
    throw new Error('claimTask: x must be a number in [0, 1) or nothing, got ' + String(x));
  }
  var update = { $set: { processed: 1, by: worker } };
  // returnNewDocument (mongosh, 4.2 shell): the task after the claim, not the unclaimed copy
  var opts = { sort: { r: 1 }, returnNewDocument: true };
  if (x === undefined || x === null) return coll.findOneAndUpdate({ processed: 0 }, update, opts) || null;
  var doc = coll.findOneAndUpdate({ processed: 0, r: { $gte: x } }, update, opts);
  if (!doc) doc = coll.findOneAndUpdate({ processed: 0, r: { $lt: x } }, update, opts);
  return doc || null;
}

// ---- joins --------------------------------------------------------------------------------------
// Both joins give $lookup's answer on any data: keys match as the server compares them ("5" and 5
// are different customers, 5 and 5.0 and Long 5 the same; an order without cust matches a
// customer whose _id is null), an order whose customer or region is missing, null or absent
// counts under '(none)', regions keep their type, and cents add up as $sum does (numbers, exact
// Longs and Decimal128s; other values ignored). An array cust ($lookup matches any element) is
// refused rather than guessed.

// The map key of a BSON value as $lookup's equality sees it: numbers by value whatever their type.
function joinKey(v) {
  if (v === undefined || v === null) return 'null:';
  if (typeof v === 'number') return 'n:' + String(v);
  if (typeof v === 'string') return 's:' + v;
  if (Object.prototype.toString.call(v) === '[object Array]')
    throw new Error('join: an array key (' + String(v) + ') matches any of its elements in $lookup; not judged here');
  if (Object.prototype.toString.call(v) === '[object Date]') return 'd:' + v.getTime();
  var t = v._bsontype || (v.constructor && v.constructor.name) || '';
  if (
    t === 'Long' ||
    t === 'NumberLong' ||
    t === 'Int32' ||
    t === 'Double' ||
    t === 'Decimal128' ||
    t === 'NumberDecimal'
  ) {
    // whole values within 2^53 as the number they equal; others by their exact text, trailing zeros cut
    var text = String(v.toString());
    var f = parseFloat(text);
    if (f === Math.floor(f) && Math.abs(f) < 9007199254740992 && /^-?\d+(\.0*)?$/.test(text)) return 'n:' + String(f);
    return 'n:' + (text.indexOf('.') >= 0 && text.indexOf('E') < 0 ? text.replace(/0+$/, '').replace(/\.$/, '') : text);
  }
  return t + ':' + String(v);
}

// Adds two decimal strings exactly (digits, '.', sign, exponent as Decimal128 prints them).
function joinDecimalAdd(x, y) {
  function parse(s) {
    var m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(s);
    if (!m) throw new Error('join: cannot add ' + s + ' exactly');
    var frac = m[3] || '';
    return {
      neg: m[1] === '-',
      digits: ((m[2] || '') + frac).replace(/^0+/, '') || '0',
      scale: frac.length - Number(m[4] || 0),
    };
  }
  function pad(d, k) {
    while (k-- > 0) d += '0';
    return d;
  }
  function cmp(a, b) {
    return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  }
  function add(a, b) {
    var out = '';
    var carry = 0;
    for (var i = a.length - 1, j = b.length - 1; i >= 0 || j >= 0 || carry; i--, j--) {
      var d = (i >= 0 ? +a[i] : 0) + (j >= 0 ? +b[j] : 0) + carry;
      out = (d % 10) + out;
      carry = d >= 10 ? 1 : 0;
    }
    return out.replace(/^0+/, '') || '0';
  }
  function sub(a, b) {
    // a >= b
    var out = '';
    var borrow = 0;
    for (var i = a.length - 1, j = b.length - 1; i >= 0; i--, j--) {
      var d = +a[i] - (j >= 0 ? +b[j] : 0) - borrow;
      borrow = d < 0 ? 1 : 0;
      out = d + (d < 0 ? 10 : 0) + out;
    }
    return out.replace(/^0+/, '') || '0';
  }
  var p = parse(x);
  var q = parse(y);
  var scale = Math.max(p.scale, q.scale, 0);
  var a = pad(p.digits, scale - p.scale);
  var b = pad(q.digits, scale - q.scale);
  var neg;
  var mag;
  if (p.neg === q.neg) {
    mag = add(a, b);
    neg = p.neg;
  } else if (cmp(a, b) >= 0) {
    mag = sub(a, b);
    neg = p.neg;
  } else {
    mag = sub(b, a);
    neg = q.neg;
  }
  while (mag.length <= scale) mag = '0' + mag;
  var text = scale ? mag.slice(0, mag.length - scale) + '.' + mag.slice(mag.length - scale) : mag;
  return (neg && /[1-9]/.test(mag) ? '-' : '') + text;
}

// a + b as $sum adds: numbers as numbers, Longs exactly (Long.add), any Decimal128 exactly (as a
// Decimal128), a value that is not a number ignored. Uses joinDecimalAdd.
function joinSum(a, b) {
  function kind(v) {
    if (typeof v === 'number') return 'n';
    if (!v || typeof v !== 'object') return '';
    var t = v._bsontype || (v.constructor && v.constructor.name) || '';
    if (t === 'Decimal128' || t === 'NumberDecimal') return 'dec';
    if (t === 'Long' || t === 'NumberLong') return 'long';
    if (t === 'Int32' || t === 'Double') return 'n';
    return '';
  }
  var ka = kind(a);
  var kb = kind(b);
  if (!kb) return a;
  if (!ka) return b;
  if (ka === 'dec' || kb === 'dec') {
    var dec = ka === 'dec' ? a : b;
    var sum = joinDecimalAdd(String(a.toString()), String(b.toString()));
    return dec.constructor && typeof dec.constructor.fromString === 'function'
      ? dec.constructor.fromString(sum)
      : NumberDecimal(sum);
  }
  if (ka === 'n' && kb === 'n') return Number(a) + Number(b);
  var long = ka === 'long' ? a : b;
  var other = ka === 'long' ? b : a;
  if (kind(other) === 'long') return long.add(other);
  if (!Number.isSafeInteger(Number(other))) return parseFloat(long.toString()) + Number(other);
  return long.add(long.constructor.fromNumber(Number(other)));
}

// Totals per region, sorted by region as the server sorts strings (other types after, by text).
function joinTotals(rows) {
  var acc = {};
  var keys = [];
  rows.forEach(function (r) {
    var none = r.region === undefined || r.region === null;
    var key = none ? '(none)' : typeof r.region === 'string' ? r.region : joinKey(r.region);
    if (!acc[key]) {
      acc[key] = { region: none ? '(none)' : r.region, orders: 0, cents: 0 };
      keys.push(key);
    }
    acc[key].orders += 1;
    acc[key].cents = joinSum(acc[key].cents, r.cents);
  });
  return keys.sort().map(function (k) {
    return acc[k];
  });
}

// The join in the client ("a simulated join in a scripting language"): customers into a map by
// _id, then one pass over the orders. Returns per region: orders and total cents.
// Uses joinKey, joinTotals, joinSum, joinDecimalAdd.
function joinInClient(orders, customers) {
  var byId = {};
  customers.find({}, { region: 1 }).forEach(function (c) {
    byId[joinKey(c._id)] = { region: c.region };
  });
  var rows = [];
  orders.find({}, { cust: 1, cents: 1 }).forEach(function (o) {
    var c = byId[joinKey(o.cust)];
    rows.push({ region: c ? c.region : undefined, cents: o.cents });
  });
  return joinTotals(rows);
}

// The join in the server: $lookup in four forms. `on` is '_id' (orders.cust -> customers._id),
// 'indexed' (custCode -> code, with an index on code), 'unindexed' (custCode -> alias, no index)
// or 'pipeline' (let + $expr, the form that can join on anything).
function lookupStage(customersName, on) {
  if (on === 'pipeline') {
    return {
      $lookup: {
        from: customersName,
        let: { c: '$cust' },
        pipeline: [{ $match: { $expr: { $eq: ['$_id', '$$c'] } } }, { $project: { region: 1 } }],
        as: 'c',
      },
    };
  }
  var local = on === '_id' ? 'cust' : 'custCode';
  var foreign = on === '_id' ? '_id' : on === 'indexed' ? 'code' : 'alias';
  return { $lookup: { from: customersName, localField: local, foreignField: foreign, as: 'c' } };
}

// Every joined row comes back to the client (as in a join that returns rows), which sums them.
// Uses lookupStage, joinTotals, joinKey, joinSum, joinDecimalAdd.
function joinInServer(orders, customersName, on) {
  var rows = orders
    .aggregate([
      { $project: { cust: 1, custCode: 1, cents: 1 } },
      lookupStage(customersName, on),
      // the first match's region (null when it has none), not the first region among the matches
      { $project: { cents: 1, region: { $let: { vars: { m: { $arrayElemAt: ['$c', 0] } }, in: '$$m.region' } } } },
    ])
    .toArray();
  return joinTotals(rows);
}
