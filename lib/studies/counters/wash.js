'use strict';
// The source's "whether to use multiple collections or a single collection is pretty much a wash
// performance-wise": the same simulated minutes written by the same writers into one collection
// holding every metric, and into one collection per metric (the preallocated schema in both,
// day 0 preallocated), through the one harness: the two alternate minute by minute, so the ratio
// is per simulated minute. Every count is then read back from both and checked against the tally.
const lab = require('../../../scripts/lib/lab');
const C = require('../../../scripts/counters_functions');
const gen = require('../../../fixtures/counters-gen');
const oracle = require('./oracle');
const day = require('./day');
const { target, ownCollections } = require('./schemas');
const { interleave } = require('../../core/harness');

/** WASH_PER_HOUR minutes of each hour, the last of the day 23:59; minute 0 first, untimed (the warm-up). */
function minutesOf(perHour) {
  const out = [0];
  for (let h = 0; h < 24; h++) for (let j = 1; j <= perHour; j++) out.push(h * 60 + Math.floor((j * 60) / perHour) - 1);
  return out;
}

/** The per-metric side as one target: each hit goes to its metric's own collection. */
function perMetric(prefix, metrics) {
  const parts = Array.from({ length: metrics }, (_, k) => target('preallocated', `${prefix}m${k}_`));
  const of = (metric) => parts[Number(metric.slice(metric.lastIndexOf('-') + 1))];
  return {
    name: 'per-metric',
    parts,
    async preallocateDay(db, dayMs) {
      for (const [k, t] of parts.entries()) {
        const p = C.preallocUpdate('preallocated', dayMs, gen.metricName(k));
        await db.collection(t.coll).updateOne(p.filter, p.update, { upsert: true });
      }
    },
    async write(db, hits, wc, lat) {
      for (const hit of hits) {
        const t = of(hit.metric);
        await (lat
          ? lat.time(() => t.recordHit(db.collection(t.coll), hit, { writeConcern: wc }))
          : t.recordHit(db.collection(t.coll), hit, { writeConcern: wc }));
      }
    },
    readDay: (db, dayMs, metric) => of(metric).readDay(db, dayMs, metric),
  };
}

/** Both sides read back every metric's day 0 equal to the tally of the minutes written. */
async function agrees(db, t, p, tally) {
  for (let k = 0; k < p.METRICS; k++) {
    const want = oracle.dayMinutes(tally, gen.START, gen.metricName(k));
    const got = await t.readDay(db, gen.START, gen.metricName(k));
    if (got.some((n, i) => n !== want[i])) return false;
  }
  return true;
}

/** The wash part's result records: axis {part: 'wash'}, variants one-collection and per-metric. */
async function wash(ctx, p) {
  const prefix = `${p.PREFIX}wash_`;
  const one = target('preallocated', `${prefix}one_`);
  const many = perMetric(prefix, p.METRICS);
  await ownCollections(ctx.db, [one, ...many.parts]);
  await one.preallocateDay(ctx.db, gen.START, p.METRICS);
  await many.preallocateDay(ctx.db, gen.START);
  const stream = { seed: p.SEED, metrics: p.METRICS, perMinute: p.PER_MINUTE };
  const writers = await day.openWriters(ctx.server.uri, ctx.dbName, p.WRITERS);
  const wc = day.writeConcern(p.WC);
  const MINUTES = minutesOf(p.WASH_PER_HOUR);
  const cursor = { 'one-collection': 0, 'per-metric': 0 };
  const side = { 'one-collection': one, 'per-metric': many };
  // the writer as the 004 claims' gate reads it: write concern, writers, barrier and its waits
  const waits = { 'one-collection': day.newWaits(), 'per-metric': day.newWaits() };
  const writer = (name) => {
    const every = day.barrierEvery(side[name], wc);
    const w = { wc: p.WC, writers: p.WRITERS };
    return every ? { ...w, barrierEvery: every, barrierWait: day.barrierShare(waits[name]) } : w;
  };
  let res;
  try {
    const runners = Object.keys(side).map((name) => ({
      name,
      run: async () => {
        const minute = MINUTES[cursor[name]++];
        const hits = gen.minuteHits(stream, 0, minute);
        const ms = await day.runSlot(writers, side[name], hits, wc, undefined, waits[name]);
        const extra = { hitsPerMinute: hits.length, minute, ...writer(name) };
        return { ms, answer: { hits: hits.length, minute }, extra };
      },
    }));
    res = await interleave(runners, { warmup: 1, rounds: MINUTES.length - 1, baseline: 'one-collection' });
  } finally {
    await writers.close();
  }
  const tally = oracle.tally(
    stream,
    MINUTES.map((minute) => ({ day: 0, minute })),
    { preallocatedDays: [0] },
  );
  const meta = {
    'one-collection': {
      what: `one collection for ${p.METRICS} metrics (preallocated, ${p.WRITERS} writers ${p.WC})`,
      where: 'node',
    },
    'per-metric': {
      what: `one collection per metric, ${p.METRICS} collections (preallocated, ${p.WRITERS} writers ${p.WC})`,
      where: 'node',
    },
  };
  const recs = lab.pointRecords({ name: 'counters', unit: 'ms' }, p, { part: 'wash' }, res, {}, { meta });
  for (const r of recs) r.agrees = await agrees(ctx.db, side[r.variant], p, tally);
  return recs;
}

module.exports = { wash, minutesOf };
