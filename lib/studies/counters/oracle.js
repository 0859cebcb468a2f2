'use strict';
// The independent computation for study 004: a plain tally of the same seeded hit stream.
// It knows nothing of MongoDB: it counts hits per (day, metric) into daily/hourly/minute and adds
// the zero fields a preallocation writes, so a schema's collection can be compared document by
// document (preallocated zeros included).
const gen = require('../../../fixtures/counters-gen');

const pad = (n, w) => String(n).padStart(w, '0');

function dayId(ms) {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1, 2)}${pad(d.getUTCDate(), 2)}`;
}

function dayStart(ms) {
  return Math.floor(ms / gen.DAY_MS) * gen.DAY_MS;
}

/**
 * Per (day, metric): { id, date (ms), metric, daily, hourly: number[24], minute: number[1440],
 * preallocated: bool } for the hits of `slots` ({day, minute} list), as each counter schema stores them.
 * @param {object} o stream options ({seed, metrics, perMinute, start?})
 * @param {{day:number, minute:number}[]} slots
 * @param {object} [w] { preallocate: tomorrow's documents on the hits' draws (every schema but
 *   'initial'), preallocatedDays: days whose documents were preallocated for every metric up front }
 */
function tally(o, slots, { preallocate = false, preallocatedDays = [] } = {}) {
  const start = o.start === undefined ? gen.START : o.start;
  const docs = new Map();
  const get = (ms, metric) => {
    const id = `${dayId(ms)}/${metric}`;
    let d = docs.get(id);
    if (!d) {
      d = {
        id,
        date: dayStart(ms),
        metric,
        daily: 0,
        hourly: new Array(24).fill(0),
        minute: new Array(1440).fill(0),
        preallocated: false,
        hits: 0,
      };
      docs.set(id, d);
    }
    return d;
  };
  for (const day of preallocatedDays) {
    for (let k = 0; k < o.metrics; k++) get(start + day * gen.DAY_MS, gen.metricName(k)).preallocated = true;
  }
  for (const { day, minute } of slots) {
    for (const hit of gen.minuteHits(o, day, minute)) {
      if (preallocate && hit.prealloc) get(hit.t + gen.DAY_MS, hit.metric).preallocated = true;
      const d = get(hit.t, hit.metric);
      const m = Math.floor((hit.t - d.date) / 60000);
      d.daily++;
      d.hourly[Math.floor(m / 60)]++;
      d.minute[m]++;
      d.hits++;
    }
  }
  return docs;
}

/** The document a schema holds for one tallied (day, metric), in plain JSON (dates as ms). */
function expectedDoc(schema, d) {
  // An array document is always whole: a hit on a missing one preallocates it first.
  const full = schema === 'array' || (d.preallocated && schema !== 'initial');
  const hourly = {};
  d.hourly.forEach((n, h) => {
    if (full || n) hourly[pad(h, 2)] = n;
  });
  let minute;
  if (schema === 'array') {
    minute = d.minute.slice();
  } else if (schema === 'hierarchical') {
    minute = {};
    d.minute.forEach((n, m) => {
      if (!full && !n) return;
      const hh = pad(Math.floor(m / 60), 2);
      (minute[hh] = minute[hh] || {})[pad(m % 60, 2)] = n;
    });
  } else {
    minute = {};
    d.minute.forEach((n, m) => {
      if (full || n) minute[pad(m, 4)] = n;
    });
  }
  return { _id: d.id, metadata: { date: d.date, metric: d.metric }, daily: d.daily, hourly, minute };
}

/** A stored document in the same plain form (Date -> ms, numbers as numbers). */
function normalizeDoc(doc) {
  const num = (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? mapValues(v, num)
      : Array.isArray(v)
        ? v.map(Number)
        : Number(v);
  return {
    _id: doc._id,
    metadata: { date: +doc.metadata.date, metric: doc.metadata.metric },
    daily: Number(doc.daily),
    hourly: num(doc.hourly || {}),
    minute: num(doc.minute || {}),
  };
}

function mapValues(o, f) {
  const out = {};
  for (const k of Object.keys(o)) out[k] = f(o[k]);
  return out;
}

/** Minute counts (1,440 numbers) of one (day, metric) from the tally: what a read-back must return. */
function dayMinutes(docs, dayMs, metric) {
  const d = docs.get(`${dayId(dayMs)}/${metric}`);
  return d ? d.minute.slice() : new Array(1440).fill(0);
}

module.exports = { tally, expectedDoc, normalizeDoc, dayMinutes, dayId, dayStart };
