'use strict';
// `mongo-perf-lab compare OLD NEW`: per study, variant and axis point, whether the time changed
// beyond a threshold. The change is the lab's one estimator, for two runs: the ratio of the two
// runs' geometric-mean per-round ratios, with a Welch t interval on the log per-round ratios
// (LabStats.ratioChangeInterval, the two-sample form of the ratioInterval every table and claim
// reads); it is called only when the whole interval lies beyond the threshold, and nothing is called
// below LabStats.MIN_ROUNDS (3) rounds a side. Why not a rank test: benchstat's default, the
// Mann-Whitney U test (which this file used until 2026-11-28), can reject at 95 % only from 4 rounds
// a side (at 3 its smallest two-sided p is 0.1), and most studies run 3 rounds at their default
// settings, so no regression could be called there at all; and it was a second estimator beside the
// t interval the run summaries and claims use. benchstat itself offered the Welch t-test as the
// alternative (its `-delta-test ttest`, 2017); it tests means of times, this takes the interval of the
// log per-round ratios, so a 30 % slowdown and the same speed-up are symmetric.
//
// What is compared is each round's ratio to a reference variant of the same point, timed in the
// same round: the interleaving makes that ratio steady while the machine's speed drifts between two
// runs minutes apart (on shared cores a millisecond query's time moves 2-7x with the neighbours'
// load, its ratio to another variant much less). The reference is the run's baseline when it was
// timed in every round of both runs; when it was not (capped: a $where over its time budget runs
// once), it is the first variant in the run's declaration order that was, so a study whose baseline
// is capped is still gated. The reference's own row is its ratio to the next such variant: a
// slowdown of the reference is called on its row, and the others' ratios to it, which move by as
// much, are held back by the reference's own median move (the guard below). A variant timed once,
// or a point with one variant timed in every round, compares absolute time, shown, called only
// with --absolute.
const LabParams = require('../../scripts/lib/params');
const stats = require('../../scripts/lib/stats');
const { InputFileError } = require('../infra/errors');
const { factsNamed } = require('./env-facts');

const { DECISION } = stats;

const LEVEL = 0.95;
// Below it no interval is given (LabStats.MIN_ROUNDS, 3: a t interval from two rounds a side spans
// several times their range, which says nothing).
const MIN_ROUNDS = stats.MIN_ROUNDS;
// Rounds to suggest: at MIN_ROUNDS (2 to 4 degrees of freedom, t from 2.8 to 4.3) a single odd
// round already widens the interval past a call.
const SUGGESTED_ROUNDS = 6;
// Measured under the Mann-Whitney rule (docs/testing.md, 2026-11-23): 10 pairs of identical runs on
// a loaded 2-core machine, whose rounds spread up to 50x, gave 5 false calls with no guard and 0 with
// this one. The Welch interval widens with a run's own spread, but not with a move of the load
// between the runs, which this guard is for: kept as it was. Its cost under the Welch interval
// (test/unit/compare-reference.test.js, 2026-11-28): of the 30 % copies of docs/data's records it
// holds back 32 whose interval cleared the threshold (counters-seed-run and counters-seed-w0).
// It sits on the quartiles, so one odd round moves it less than the extremes.
const NOISY_SPREAD = 1.5;
// Per-round ratios are steady while the machine stays as it was, not across a change of its load:
// beside two CPU-bound processes a 3 ms indexed query waits for a core while a 250 ms $where gets
// a share of one, so their ratio moved up to 1.9x between identical runs (7 false calls in 45 pairs,
// docs/testing.md) while each run's rounds stayed steady. The reference's own median time shows such
// a move: a ratio change is called only beyond it (unless --absolute says the runs are comparable).
// That measurement took the ratios to an uncapped $where (tiny profile); at the quick profile $where
// is capped and the reference is plain, a millisecond query like the others, so the ratios there wait
// for a core alike. The same guard holds for the reference's own row, beyond its partner's move: a
// slowdown of the reference alone moves every other ratio by as much, and its own median by as much,
// so the others are held back and the one row whose denominator did not move calls it.
// bench/compare-false-calls.js measures the 45 pairs again at the default settings, and under the
// Welch interval (both guards measured under the Mann-Whitney rule, kept as they were).
// Parameters that change how a study is measured, not what it measures: they may differ.
const MEASUREMENT_PARAMS = Object.keys(LabParams.COMMON);

// A record compare cannot use: bad input (exit 2), one line naming the file and the record.
class CompareInputError extends InputFileError {}

function pointKey(r) {
  return `${r.study}\u0000${JSON.stringify(r.axis || {})}`;
}

/**
 * The timed records of a result file, checked: a record the lab did not write (times not a list of
 * positive numbers, no study or variant) is refused with one line naming it.
 */
function timedRecords(doc, name) {
  const out = [];
  doc.results.forEach((r, i) => {
    if (!r || typeof r !== 'object')
      throw new CompareInputError(`${name}: results[${i}] is not an object; not a result file the lab wrote`);
    if (r.type !== 'result' || r.skipped) return;
    const where = `${name}: results[${i}]${typeof r.study === 'string' ? ` (${r.study} ${r.variant})` : ''}`;
    if (typeof r.study !== 'string' || typeof r.variant !== 'string')
      throw new CompareInputError(`${where}: no "study" or "variant" name; not a record the lab wrote`);
    if (
      !Array.isArray(r.times) ||
      !r.times.length ||
      !r.times.every((t) => typeof t === 'number' && t >= 0 && Number.isFinite(t))
    ) {
      throw new CompareInputError(
        `${where}: "times" is not a list of numbers >= 0; not a record the lab wrote (run it again with run --json)`,
      );
    }
    if (r.axis !== undefined && (r.axis === null || typeof r.axis !== 'object'))
      throw new CompareInputError(`${where}: "axis" is not an object`);
    out.push(r);
  });
  return out;
}

/** The timed rounds of a point: the most any of its variants timed in every round ran. */
function roundsOf(point) {
  let n = 0;
  for (const r of point.values()) if (!r.capped) n = Math.max(n, r.times.length);
  return n;
}

/**
 * Whether a record can be a reference: timed in every round of its point (not capped, no round
 * missing) with an answer that agrees (a wrong answer's time is not the query's).
 */
function timedEveryRound(rec, rounds) {
  return !!rec && !rec.capped && rec.agrees !== false && rounds > 0 && rec.times.length === rounds;
}

/**
 * The reference of one point in both runs, and who each row's ratios are taken to.
 * reference: the run's baseline (ratio.to) when it was timed in every round of both runs, else the
 * first variant in NEW's declaration order that was (null when none); partner: the next such
 * variant after the reference (wrapping round), the reference's own denominator (null when the
 * reference is alone); every: the variants timed in every round of both runs; note: why the
 * reference is not the baseline (undefined when it is).
 */
function referenceOf(oldPoint, newPoint) {
  const [ro, rn] = [roundsOf(oldPoint), roundsOf(newPoint)];
  const every = [...newPoint.keys()].filter(
    (v) => timedEveryRound(oldPoint.get(v), ro) && timedEveryRound(newPoint.get(v), rn),
  );
  const first = [...newPoint.values()].find((r) => r.ratio && r.ratio.to);
  const baseline = first ? first.ratio.to : null;
  const reference = baseline && every.includes(baseline) ? baseline : every[0] || null;
  const i = every.indexOf(reference);
  const partner = every.length > 1 ? every[(i + 1) % every.length] : null;
  let note;
  if (baseline && reference !== baseline) {
    const capped = [oldPoint.get(baseline), newPoint.get(baseline)].some((r) => r && r.capped);
    note = `${baseline} ${capped ? 'capped' : 'not timed in every round'}`;
  }
  return { reference, partner, every: new Set(every), baseline, note };
}

/** Whom a variant's per-round ratios are taken to: the reference, its partner for the reference itself. */
function denominatorOf(variant, ref) {
  if (!ref.every.has(variant)) return null;
  return variant === ref.reference ? ref.partner : ref.reference;
}

/**
 * The samples of one record: its per-round ratios to `to`, timed in the same rounds, when it has
 * one; else its times (a variant timed once, a point with one variant timed in every round).
 */
function samplesOf(rec, point, to) {
  if (!to) return { kind: 'time', to: null, values: rec.times.slice() };
  const base = point.get(to);
  return { kind: 'ratio', to, values: rec.times.map((t, i) => t / base.times[i]), baseTimes: base.times };
}

function indexPoints(records) {
  const points = new Map();
  for (const r of records) {
    const k = pointKey(r);
    if (!points.has(k)) points.set(k, new Map());
    points.get(k).set(r.variant, r);
  }
  return points;
}

const fmtValue = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The parameters two runs of a study differ in, split into what it measures and how. */
function paramDifferences(oldParams, newParams) {
  if (!oldParams || !newParams) return { workload: [], measurement: [], unknown: !oldParams || !newParams };
  const keys = [...new Set([...Object.keys(oldParams), ...Object.keys(newParams)])].sort();
  const diffs = keys
    .filter((k) => JSON.stringify(oldParams[k]) !== JSON.stringify(newParams[k]))
    .map((k) => ({
      name: k,
      old: oldParams[k],
      new: newParams[k],
      text: `${k} ${fmtValue(oldParams[k])} vs ${fmtValue(newParams[k])}`,
    }));
  return {
    workload: diffs.filter((d) => !MEASUREMENT_PARAMS.includes(d.name)),
    measurement: diffs.filter((d) => MEASUREMENT_PARAMS.includes(d.name)),
    unknown: false,
  };
}

// The environment facts compare lists when they differ, in this order.
const COMPARED_FACTS = [
  'version',
  'storageEngine',
  'queryFramework',
  'topology',
  'cacheBytes',
  'cores',
  'cpuModel',
  'engine',
  'profile',
];

/** Where the two runs were measured, field by field: only what differs. */
function serverDifferences(oldEnv = {}, newEnv = {}) {
  return factsNamed('compare', COMPARED_FACTS)
    .map(([name, get]) => [name, get(oldEnv), get(newEnv)])
    .filter(([, a, b]) => a !== undefined && b !== undefined && a !== null && b !== null && a !== b)
    .map(([name, a, b]) => `${name} ${a} vs ${b}`);
}

/** What differs between the two files: studies, parameters (per study), server. */
function differences(oldDoc, newDoc, oldRecs, newRecs) {
  const oldStudies = new Set(oldRecs.map((r) => r.study));
  const newStudies = new Set(newRecs.map((r) => r.study));
  const both = [...newStudies].filter((s) => oldStudies.has(s));
  const params = {};
  for (const st of both) params[st] = paramDifferences((oldDoc.params || {})[st], (newDoc.params || {})[st]);
  return {
    onlyOld: [...oldStudies].filter((s) => !newStudies.has(s)),
    onlyNew: [...newStudies].filter((s) => !oldStudies.has(s)),
    params,
    server: serverDifferences(oldDoc.environment, newDoc.environment),
  };
}

/** Round-to-round spread inside one run: its upper quartile over its lower quartile. */
function spreadOf(values) {
  const s = values.slice().sort((x, y) => x - y);
  return stats.percentile(s, 0.75) / stats.percentile(s, 0.25);
}

/**
 * How far the interval must be from 1 for a call. The interval assumes each run's rounds are draws
 * from one distribution and the runs differ by a shift; a run whose middle rounds spread more than
 * NOISY_SPREAD was measured while the machine's load changed under it, and the other run may have
 * caught another part of that range: there, only a change beyond the noisier run's spread is called.
 */
function barOf(threshold, [sa, sb], drift = 0) {
  return (Math.max(sa, sb) > NOISY_SPREAD ? Math.max(threshold, Math.max(sa, sb) - 1) : threshold) + drift;
}

/** How far the reference's median time moved between the two runs (0: not at all), for ratios. */
function baselineDrift(a, b) {
  if (a.kind !== 'ratio') return 0;
  const median = stats.median;
  const [x, y] = [median(a.baseTimes), median(b.baseTimes)];
  return Math.max(x, y) / Math.min(x, y) - 1;
}

/**
 * A record against its own run's baseline, as the run's summary and tables said it (the one
 * comparison: LabStats.compareRecord); null for the baseline itself.
 */
function vsBaseline(rec, points) {
  const to = rec.ratio && rec.ratio.to;
  if (!to || to === rec.variant) return null;
  return stats.compareRecord(rec, (points.get(pointKey(rec)) || new Map()).get(to));
}

/** Why a change was not called (undefined when it was, or when there is nothing to add). */
function whyUndecided(verdict, ci, { threshold, bar, drift, spread, reference }) {
  if (verdict === DECISION.wide)
    return `the ${Math.round(LEVEL * 100)}% interval spans more than ${stats.MAX_SPAN}x: more rounds or a quieter machine would decide`;
  if (verdict !== DECISION.none) return undefined;
  if (ci[0] > 1 / (1 + threshold) && ci[1] < 1 + threshold) return `the same within ±${+(threshold * 100).toFixed(2)}%`;
  if (barOf(threshold, spread) > threshold)
    return `noisy: rounds spread ${spread.map((x) => `${x.toFixed(1)}x`).join(' and ')} between quartiles; a change must pass ${pct(1 + bar)}; a quieter machine or more rounds would decide`;
  if (drift > threshold / 2)
    return `the reference ${reference} itself moved ${pct(1 + drift)} between the runs (its own row says whether it changed): a ratio change must pass ${pct(1 + bar)}`;
  return undefined;
}

/** The decision for one pair of records, their ratios taken to `ref` (referenceOf). */
function decide(o, n, oldPoint, newPoint, ref, { threshold, absolute, notComparable }) {
  const to = denominatorOf(n.variant, ref);
  const a = samplesOf(o, oldPoint, to);
  const b = samplesOf(n, newPoint, to);
  const row = {
    measure: a.kind,
    // the variant this row's ratios are taken to; `baseline` is its older name
    reference: a.to,
    baseline: a.to,
    // the point's reference (the others' denominator), and why it is not the run's baseline ('where
    // capped') when it is not
    pointReference: ref.reference,
    referenceNote: ref.note,
    oldRounds: a.values.length,
    newRounds: b.values.length,
  };
  if (notComparable) return { ...row, verdict: 'not comparable', why: notComparable };
  // A millisecond timer (the legacy shell's Date.now) gives 0 for the fastest commands.
  if (![...a.values, ...b.values].every((v) => v > 0 && Number.isFinite(v))) {
    return {
      ...row,
      verdict: 'not comparable',
      why: "a time of 0 ms, below the timer's resolution: use more documents",
    };
  }
  const t = stats.ratioChangeInterval(a.values, b.values, LEVEL);
  row.change = t.mid;
  row.ci = t.lo === null ? null : [t.lo, t.hi];
  if (t.df !== undefined) row.df = t.df;
  // A variant whose answer disagrees is never called faster (nor slower): its time is not the answer's.
  if (n.agrees === false || o.agrees === false) {
    return {
      ...row,
      verdict: DECISION.wrong,
      why: `its answer disagrees with the reference in ${n.agrees === false ? 'NEW' : 'OLD'}: not called`,
    };
  }
  const rounds = Math.min(a.values.length, b.values.length);
  // A capped variant (timed once: its first run took longer than the time budget) gets no more
  // rounds from --runs: only a larger time budget times it in every round.
  if (rounds < MIN_ROUNDS)
    return {
      ...row,
      ci: null,
      verdict: 'too few rounds',
      why:
        o.capped || n.capped
          ? `too few rounds: ${rounds}; capped: over its time budget, BUDGET_MS`
          : `too few rounds: ${rounds}; use --runs ${SUGGESTED_ROUNDS}`,
    };
  const spread = [spreadOf(a.values), spreadOf(b.values)];
  row.spread = spread;
  const drift = absolute ? 0 : baselineDrift(a, b);
  const bar = barOf(threshold, spread, drift);
  // The one decision (LabStats.decide, as the run summary and every table take theirs): a change
  // only when its whole interval lies beyond the bar, else no clear difference.
  const verdict = stats.decide(row.ci[0], row.ci[1], 1 + bar);
  const why = whyUndecided(verdict, row.ci, { threshold, bar, drift, spread, reference: a.to });
  if (why) row.why = why;
  if (verdict === DECISION.wide) row.ci = null;
  if (a.kind === 'time' && !absolute && (verdict === 'slower' || verdict === 'faster')) {
    return {
      ...row,
      verdict: `${verdict}?`,
      why: "absolute time, which moves with the machine's load between runs: not called (--absolute calls it)",
    };
  }
  return { ...row, verdict };
}

/**
 * @param {object} oldDoc result file
 * @param {object} newDoc result file
 * @param {object} [o] { threshold: 0.1 (a fraction), absolute: false, names: ['OLD', 'NEW'] }
 * @returns {{rows: object[], slower: number, faster: number, tooFew: number, threshold: number, differences: object, minRounds: number}}
 */
function compareResults(oldDoc, newDoc, { threshold = 0.1, absolute = false, names = ['OLD', 'NEW'] } = {}) {
  const oldRecs = timedRecords(oldDoc, names[0]);
  const newRecs = timedRecords(newDoc, names[1]);
  const oldPoints = indexPoints(oldRecs);
  const newPoints = indexPoints(newRecs);
  const diff = differences(oldDoc, newDoc, oldRecs, newRecs);
  const rows = [];
  const refs = new Map();
  for (const n of newRecs) {
    const o = (oldPoints.get(pointKey(n)) || new Map()).get(n.variant);
    const row = {
      study: n.study,
      variant: n.variant,
      axis: n.axis || {},
      oldMedian: o ? o.median : null,
      newMedian: n.median,
      oldVsBase: o ? vsBaseline(o, oldPoints) : null,
      newVsBase: vsBaseline(n, newPoints),
    };
    if (!o) {
      rows.push({ ...row, verdict: 'new' });
      continue;
    }
    const p = diff.params[n.study];
    const notComparable =
      p && p.workload.length ? `parameters differ: ${p.workload.map((d) => d.text).join(', ')}` : null;
    const key = pointKey(n);
    if (!refs.has(key)) refs.set(key, referenceOf(oldPoints.get(key), newPoints.get(key)));
    const opts = { threshold, absolute, notComparable };
    rows.push({ ...row, ...decide(o, n, oldPoints.get(key), newPoints.get(key), refs.get(key), opts) });
  }
  for (const o of oldRecs) {
    if (!(newPoints.get(pointKey(o)) || new Map()).has(o.variant))
      rows.push({
        study: o.study,
        variant: o.variant,
        axis: o.axis || {},
        oldMedian: o.median,
        newMedian: null,
        oldVsBase: vsBaseline(o, oldPoints),
        newVsBase: null,
        verdict: 'gone',
      });
  }
  const count = (v) => rows.filter((r) => r.verdict === v).length;
  return {
    rows,
    slower: count('slower'),
    faster: count('faster'),
    tooFew: count('too few rounds'),
    threshold,
    level: LEVEL,
    minRounds: MIN_ROUNDS,
    suggestedRounds: SUGGESTED_ROUNDS,
    absolute,
    differences: diff,
  };
}

function pct(x) {
  const v = (x - 1) * 100;
  return `${v >= 0 ? '+' : ''}${v.toFixed(v > -10 && v < 10 ? 1 : 0)}%`;
}

module.exports = { compareResults, pct, CompareInputError, MIN_ROUNDS, SUGGESTED_ROUNDS };
