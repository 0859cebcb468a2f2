'use strict';
// After the day: storage and read-back cost per schema, preallocate called again on a day with
// counts, then the sweeps and remarks the profile asks for; their tables printed by lines.js.
const lab = require('../../../scripts/lib/lab');
const { interleave } = require('../../core/harness');
const gen = require('../../../fixtures/counters-gen');
const C = require('../../../scripts/counters_functions');
const oracle = require('./oracle');
const day = require('./day');
const runs = require('./state');
const { WHAT } = require('./variants');
const { slotsOf, streamOf } = require('./schedule');
const { M, scan, serverSweep, replsetSweep } = require('./sweeps');
const { idRegex } = require('./id-regex');
const { wash } = require('./wash');
const { pgSize } = require('./pg-size');
const { afterLines } = require('./lines');

// Storage per layout: bytes per metric-day, documents, average BSON size.
function storageRecords(targets, sizes) {
  const out = [];
  for (const t of targets) {
    const s = sizes[t.name];
    const v = `node-${t.name}`;
    const axis = { part: 'storage' };
    out.push(
      M(
        'bytes-per-metric-day',
        v,
        axis,
        Math.round(s.perMetricDay),
        'bytes',
        'storage + index bytes after fsync, per metric-day that received hits (preallocated tomorrows included)',
      ),
      M('documents', v, axis, s.docs, 'docs', 'documents in the collection'),
    );
    if (s.avgBsonSize)
      out.push(M('avg-bson-bytes', v, axis, Math.round(s.avgBsonSize), 'bytes', 'average BSON size of a document'));
  }
  return out;
}

// The per-minute total over metrics of the first day, as the tally counted it.
function expectedDay(tally, p) {
  const expected = new Array(1440).fill(0);
  for (let k = 0; k < p.METRICS; k++)
    oracle.dayMinutes(tally, gen.START, gen.metricName(k)).forEach((n, i) => {
      expected[i] += n;
    });
  return expected;
}

async function storageAndReads(ctx, p, targets) {
  const tally = oracle.tally(streamOf(p), slotsOf(p), {});
  const sizes = await day.sizes(ctx.db, targets, tally.size);
  const out = storageRecords(targets, sizes);
  // Reading one day's 1,440 minutes of each metric back, through the harness; the answer is the
  // per-minute total over metrics, checked against the tally.
  const runners = targets.map((t) => ({
    name: `node-${t.name}`,
    run: async () => {
      const totals = new Array(1440).fill(0);
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < p.METRICS; k++)
        (await t.readDay(ctx.db, gen.START, gen.metricName(k))).forEach((n, i) => {
          totals[i] += n;
        });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6 / p.METRICS;
      return { ms, answer: totals };
    },
  }));
  const res = await interleave(runners, {
    warmup: 1,
    rounds: Math.max(3, Math.min(p.RUNS, 7)),
    baseline: 'node-preallocated',
  });
  const meta = Object.fromEntries(
    targets.map((t) => [
      `node-${t.name}`,
      { what: `read one metric-day's 1,440 minutes: ${WHAT[t.name]}`, where: 'node' },
    ]),
  );
  const expected = expectedDay(tally, p);
  out.push(...lab.pointRecords({ name: 'counters', unit: 'ms' }, p, { part: 'read-day' }, res, {}, { expected, meta }));
  return out;
}

/**
 * 004-prealloc-safe/repeat, the case that matters: preallocate (the study's own update, acknowledged)
 * called on the first day's documents, which hold the day's counts, for every metric of every
 * preallocating schema; each document's 1,440 minutes read before and after must be unchanged.
 * (During the day preallocate only ever meets tomorrow's zeroed documents.) One measure per schema:
 * value = documents whose counts changed.
 */
async function preallocRepeat(ctx, p, targets) {
  const dayMs = gen.START;
  const out = [];
  for (const t of targets.filter((x) => x.kind === 'counter' && x.preallocates)) {
    const coll = ctx.db.collection(t.coll);
    let existing = 0;
    let withCounts = 0;
    let changed = 0;
    for (let k = 0; k < p.METRICS; k++) {
      const metric = gen.metricName(k);
      const u = C.preallocUpdate(t.layout, dayMs, metric);
      if (await coll.countDocuments(u.filter, { limit: 1 })) existing++;
      const before = await t.readDay(ctx.db, dayMs, metric);
      if (before.some((n) => n > 0)) withCounts++;
      await coll.updateOne(u.filter, u.update, { upsert: true, writeConcern: { w: 1 } });
      const now = await t.readDay(ctx.db, dayMs, metric);
      if (now.some((n, i) => n !== before[i])) changed++;
    }
    out.push(
      lab.measureRecord({
        study: 'counters',
        name: 'prealloc-repeat',
        variant: `node-${t.name}`,
        axis: { part: 'prealloc-repeat' },
        value: changed,
        unit: 'documents',
        what: 'documents whose counts changed when preallocate was called again on the first day (with its counts)',
        extra: { calls: p.METRICS, existing, withCounts, changed },
      }),
    );
  }
  return out;
}

async function after(ctx, p) {
  const st = runs.of(ctx);
  const targets = [...st.targets.values()];
  const out = [];
  if (st.writers) await st.writers.close();
  if (targets.length) out.push(...(await storageAndReads(ctx, p, targets)));
  if (targets.length) out.push(...(await preallocRepeat(ctx, p, targets)));
  if (p.SCAN) out.push(...(await scan(ctx, p)));
  if (p.IDREGEX) out.push(...(await idRegex(ctx, p)));
  if (p.WASH) out.push(...(await wash(ctx, p)));
  if (p.PG_SIZE) out.push(...(await pgSize(ctx, p)));
  if (p.SWEEP) out.push(...(await serverSweep(ctx, p)));
  if (p.REPLSET) out.push(...(await replsetSweep(ctx, p)));
  // (the day table is printed by the script's report, which the runner calls before this; the
  // verdicts by the runner's claims ledger, lib/core/claims.js, at the end of the run)
  ctx.echo(afterLines(out).join('\n'));
  return out;
}

module.exports = { after };
