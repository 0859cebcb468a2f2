// Study 004: per-minute counters kept by upsert + $inc, one document per (day, metric).
// The functions between the PASTEABLE markers are self-contained ES2017: paste them into mongosh
// or Robo 3T (4.2 shell) as they are. They only use collection.updateOne, and they never rely on
// db.runCommand throwing. Node requires this file too (the same update documents on both sides).
//
// Schemas (one collection each):
//   initial       {_id: "YYYYMMDD/metric", metadata: {date, metric}, daily, hourly: {"HH"}, minute: {"MMMM"}}
//                 created and grown by the upserts themselves (the source's first version)
//   preallocated  the same document, written in full with zeros (tomorrow's, with a small
//                 probability per hit: the source's fix for growing documents)
//   hierarchical  minute: {"HH": {"MM": n}} (24 x 60 instead of 1,440 fields on one level)
//   array         minute: [1,440 numbers] (from the source's comments); needs its document first

// ---- PASTEABLE: begin ----------------------------------------------------------------------
var COUNTER_SCHEMAS = ['initial', 'preallocated', 'hierarchical', 'array'];
var COUNTER_PREALLOC_P = 1 / 2000;

function counterPad(n, width) {
  var s = String(n);
  while (s.length < width) s = '0' + s;
  return s;
}

// The document's key for a hit at `dt` (Date or epoch ms, read in UTC) on `metric`.
function counterKey(dt, metric) {
  var d = new Date(+dt);
  var day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  var id =
    counterPad(d.getUTCFullYear(), 4) +
    counterPad(d.getUTCMonth() + 1, 2) +
    counterPad(d.getUTCDate(), 2) +
    '/' +
    metric;
  return { _id: id, metadata: { date: day, metric: metric } };
}

// The field of minute `m` (0..1439) in a schema's document.
function counterMinuteField(schema, m) {
  if (schema === 'hierarchical') return 'minute.' + counterPad(Math.floor(m / 60), 2) + '.' + counterPad(m % 60, 2);
  if (schema === 'array') return 'minute.' + m;
  return 'minute.' + counterPad(m, 4);
}

// The $inc of one hit (or of n hits at the same minute).
function counterHitUpdate(schema, dt, n) {
  var d = new Date(+dt);
  var by = n === undefined ? 1 : n;
  var inc = { daily: by };
  inc['hourly.' + counterPad(d.getUTCHours(), 2)] = by;
  inc[counterMinuteField(schema, d.getUTCHours() * 60 + d.getUTCMinutes())] = by;
  return { $inc: inc };
}

// Preallocation: the whole document with zeros. Safe to repeat: on an existing document,
// $inc by 0 and $set of the same metadata change nothing, and $setOnInsert does nothing.
function counterPreallocUpdate(schema, dt, metric) {
  var key = counterKey(dt, metric);
  var h;
  if (schema === 'array') {
    var hourly = {};
    for (h = 0; h < 24; h++) hourly[counterPad(h, 2)] = 0;
    var minute = [];
    for (var i = 0; i < 1440; i++) minute.push(0);
    return {
      filter: { _id: key._id },
      update: { $setOnInsert: { metadata: key.metadata, daily: 0, hourly: hourly, minute: minute } },
    };
  }
  var inc = { daily: 0 };
  for (h = 0; h < 24; h++) inc['hourly.' + counterPad(h, 2)] = 0;
  for (var m = 0; m < 1440; m++) inc[counterMinuteField(schema, m)] = 0;
  return { filter: { _id: key._id }, update: { $set: { metadata: key.metadata }, $inc: inc } };
}

function preallocate(coll, dt, metric, schema) {
  var p = counterPreallocUpdate(schema || 'preallocated', counterTime(dt), metric);
  return coll.updateOne(p.filter, p.update, { upsert: true });
}

// The moment of a hit as epoch ms: a valid Date or epoch ms, or now when none is given. Anything
// else (an ISO string, an invalid Date) is refused: it would name the document "0NaNNaNNaN/...".
function counterTime(dt) {
  if (dt === undefined || dt === null) return new Date().getTime();
  var ms = Object.prototype.toString.call(dt) === '[object Date]' ? dt.getTime() : typeof dt === 'number' ? dt : NaN;
  if (!isFinite(ms)) {
    throw new Error(
      'recordHit: the time must be a valid Date, epoch milliseconds or nothing (now), got ' +
        String(dt) +
        (typeof dt === 'string' ? ' (a string: pass new Date("' + dt + '"))' : '')
    );
  }
  return ms;
}

// Records one hit. Every schema but 'initial' first preallocates tomorrow's document with
// probability 1/2000 (pass preallocTomorrow = true/false to decide it yourself).
// Two upserts of a new _id may race: the loser gets a duplicate key error and simply retries
// (the document exists by then). The array schema cannot be created by $inc ("minute.5" on a
// missing field makes an object), so it preallocates today's document when it is missing.
// Uses counterTime, counterKey, counterHitUpdate, counterMinuteField, counterPad, preallocate,
// counterPreallocUpdate and COUNTER_SCHEMAS / COUNTER_PREALLOC_P (paste the whole PASTEABLE block).
function recordHit(coll, dt, metric, schema, preallocTomorrow) {
  dt = counterTime(dt);
  if (typeof metric !== 'string' || !metric.length)
    throw new Error('recordHit: metric must be a non-empty string, got ' + String(metric));
  var s = schema || 'preallocated';
  if (COUNTER_SCHEMAS.indexOf(s) < 0)
    throw new Error('recordHit: schema must be one of ' + COUNTER_SCHEMAS.join(', ') + ', got ' + String(s));
  if (s !== 'initial') {
    var pre = preallocTomorrow === undefined ? Math.random() < COUNTER_PREALLOC_P : preallocTomorrow;
    if (pre) preallocate(coll, +new Date(+dt) + 86400000, metric, s);
  }
  var key = counterKey(dt, metric);
  var upd = counterHitUpdate(s, dt);
  if (s === 'array') {
    var r = coll.updateOne(key, upd);
    if (r.matchedCount === 0) {
      preallocate(coll, dt, metric, 'array');
      r = coll.updateOne(key, upd);
    }
    return r;
  }
  for (var attempt = 0; ; attempt++) {
    try {
      return coll.updateOne(key, upd, { upsert: true });
    } catch (e) {
      if (e.code !== 11000 || attempt >= 2) throw e;
    }
  }
}
// ---- PASTEABLE: end ------------------------------------------------------------------------

if (typeof module !== 'undefined' && module.exports) {
  module.exports = {
    SCHEMAS: COUNTER_SCHEMAS,
    PREALLOC_P: COUNTER_PREALLOC_P,
    pad: counterPad,
    key: counterKey,
    minuteField: counterMinuteField,
    time: counterTime,
    hitUpdate: counterHitUpdate,
    preallocUpdate: counterPreallocUpdate,
  };
}
