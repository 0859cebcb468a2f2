'use strict';
// "What this means for you": the practices a study declares (lib/studies/<name>/practices.js), each
// read from the records with the one estimator (scripts/lib/stats.js compareTimes, worded by
// scripts/lib/format.js comparisonWords) and backed by the verdicts of the claims it names. No
// figure is written by hand: a practice the records do not decide says so and names the run that
// would decide it, with the time the study's registry entry gives for it.
const S = require('../../scripts/lib/stats');
const F = require('../../scripts/lib/format');
const claims = require('../core/claims');
const m = require('./model');

const PRACTICE_KEYS = ['id', 'do', 'claims', 'compare', 'count'];

/** A practice's declaration refused in one line (where, what): a study's file, checked when first read. */
function checkPractice(entry, p, i) {
  const where = `study ${entry.name}: practices[${i}]${p && p.id ? ` (${p.id})` : ''}`;
  const fail = (what) => {
    throw new Error(`${where}: ${what} (lib/studies/${entry.name}/practices.js)`);
  };
  if (!p || typeof p !== 'object') fail('expected { id, do, claims, compare }');
  for (const k of Object.keys(p)) if (!PRACTICE_KEYS.includes(k)) fail(`unknown key ${JSON.stringify(k)}`);
  if (typeof p.id !== 'string' || typeof p.do !== 'string') fail('id and do must be strings');
  if (!Array.isArray(p.claims)) fail('claims must be a list of claim ids');
  const c = p.compare || {};
  if (!c.slow || !c.fast) fail('compare needs slow and fast (a variant, or { variant, at })');
  if (p.count !== undefined && (typeof p.count.field !== 'string' || typeof p.count.what !== 'string'))
    fail("count needs field (a number in each record's extra) and what (its words)");
}

/** A declared side of a comparison as { variant, at }: a variant's name, or { variant, at }. */
function sideOf(side, at) {
  return typeof side === 'string'
    ? { variant: side, at: at || {}, own: false }
    : { ...side, at: side.at || {}, own: true };
}

const pointKey = (axis) =>
  JSON.stringify(
    Object.keys(axis || {})
      .sort()
      .map((k) => [k, axis[k]]),
  );

/** The records matching `at`: its values literally, 'largest' the largest value of that key among them. */
function matching(recs, at) {
  const fixed = Object.entries(at).filter(([, v]) => v !== 'largest');
  let out = recs.filter((r) => fixed.every(([k, v]) => r.axis && r.axis[k] === v));
  for (const [k] of Object.entries(at).filter(([, v]) => v === 'largest')) {
    const max = out.reduce((mx, r) => (typeof r.axis[k] === 'number' ? Math.max(mx, r.axis[k]) : mx), -Infinity);
    out = out.filter((r) => r.axis[k] === max);
  }
  return out;
}

/**
 * The two records a practice compares. Both sides at one point (the usual case): the point matching
 * `at` where both variants ran, timed in the same rounds. Sides with their own `at` (e.g. one insert
 * per call against batches): each side's own point, two separate samples.
 */
function recordsOf(practice, records) {
  const rs = claims.results(records, practice.study);
  const slow = sideOf(practice.compare.slow, practice.compare.at);
  const fast = sideOf(practice.compare.fast, practice.compare.at);
  if (slow.own || fast.own) {
    const a = matching(
      rs.filter((r) => r.variant === slow.variant),
      slow.at,
    )[0];
    const b = matching(
      rs.filter((r) => r.variant === fast.variant),
      fast.at,
    )[0];
    return { slow: a, fast: b, samePoint: false, names: [slow.variant, fast.variant] };
  }
  const fastAt = new Set(rs.filter((r) => r.variant === fast.variant).map((r) => pointKey(r.axis)));
  const both = rs.filter((r) => r.variant === slow.variant && fastAt.has(pointKey(r.axis)));
  // Several points may match `at` (e.g. one per machine state, usableCores): each is compared.
  const points = matching(both, slow.at).map((a) => ({
    slow: a,
    fast: rs.find((r) => r.variant === fast.variant && pointKey(r.axis) === pointKey(a.axis)),
  }));
  const [first = {}] = points;
  return { slow: first.slow, fast: first.fast, samePoint: true, names: [slow.variant, fast.variant], points };
}

/** What sets a point apart from the others matched ("usableCores 1"), or '' when it is alone. */
function pointWords(rec, points) {
  if (points.length < 2) return '';
  const keys = Object.keys(rec.axis || {}).filter((k) => points.some((p) => p.slow.axis[k] !== rec.axis[k]));
  return keys.map((k) => `${k} ${rec.axis[k]}`).join(', ');
}

/** A side's name, with what differs of its point when the two sides sit at different points ("shell at batch 1"). */
function sideName(rec, other, samePoint) {
  if (samePoint) return rec.variant;
  const axis = Object.entries(rec.axis || {})
    .filter(([k, v]) => !other.axis || other.axis[k] !== v)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return axis ? `${rec.variant} at ${axis}` : rec.variant;
}

/**
 * The comparison of the practice's `fast` against its `slow`: the one estimator's result
 * (compareTimes: time(fast) / time(slow)). Two separate samples (different points) have no rounds
 * in common: their interval is the claims' unpaired one, decided by the same band (S.decide).
 */
function comparisonOf(pair) {
  const { slow, fast, samePoint } = pair;
  const to = sideName(slow, fast, samePoint);
  const wrong = fast.agrees === false || slow.agrees === false;
  if (samePoint) {
    return S.compareTimes(fast.times, slow.times, {
      to,
      capped: !!(fast.capped || slow.capped),
      cappedWho: fast.capped && slow.capped ? 'both' : fast.capped ? fast.variant : slow.variant,
      wrong,
      level: S.levelOf(fast, slow),
    });
  }
  const iv = claims.unpairedInterval(fast.times, slow.times, S.levelOf(fast, slow));
  const c = { to, mid: iv.mid, lo: iv.lo, hi: iv.hi, n: iv.n, perRound: false, decision: null, why: '' };
  c.decision = S.decide(c.lo, c.hi);
  if (c.decision === S.DECISION.few) c.why = iv.undecided || `${iv.n} rounds, an interval needs ${S.MIN_ROUNDS}`;
  if (c.decision === S.DECISION.wide) {
    c.lo = null;
    c.hi = null;
    c.why = `95% CI spans more than ${S.MAX_SPAN}x`;
  }
  if (c.decision === S.DECISION.none)
    c.why = `the 95% CI reaches inside the no-difference band (${S.NO_DIFFERENCE}x either way)`;
  if (wrong) {
    c.decision = S.DECISION.wrong;
    c.why = 'an answer disagrees with the reference';
  }
  return c;
}

/** A record's count of `field` (its extra), or null when it did not record one. */
function countOf(rec, field) {
  const v = rec.extra && rec.extra[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * A practice about what the slow way gets wrong, not its speed (e.g. duplicates): counted, not
 * estimated, so decided when the slow side counted some and the fast side none.
 */
function countLine(out, pair, count) {
  const a = countOf(pair.slow, count.field);
  const b = countOf(pair.fast, count.field);
  const runs = pair.slow.runs || (pair.slow.times || []).length;
  const per = runs ? ` over ${runs} run${runs === 1 ? '' : 's'}` : '';
  if (a === null || b === null) return { ...out, words: `not measured here: no ${count.what} counted` };
  const n = (x) => x.toLocaleString('en-US');
  out.words = `${pair.names[0]} left ${n(a)} ${count.what}${per}, ${pair.names[1]} ${n(b)}`;
  out.decided = a > 0 && b === 0;
  if (a === 0 && b === 0) out.words = `no ${count.what} either way${per}: no race happened at this scale`;
  return out;
}

/**
 * Whether the records decide the practice: faster or slower beyond the band, or "no clear
 * difference" with the whole interval inside the no-difference band (equal, not merely unproven).
 */
function decides(c) {
  if (c.decision === S.DECISION.faster || c.decision === S.DECISION.slower) return true;
  return c.decision === S.DECISION.none && c.lo >= 1 / S.NO_DIFFERENCE && c.hi <= S.NO_DIFFERENCE;
}

/** A profile's expected time without its note: "~10 min (measured ...)" reads "~10 min". */
const shortTime = (t) => String(t || '?').split(' (')[0];

/** The command that would decide a practice, and how long it takes (the registry's profiles). */
function decidingRun(entry, profile) {
  if (profile !== 'seed')
    return { command: `npx mongo-perf-lab run ${entry.name} --profile seed`, takes: shortTime(entry.seedExpected) };
  return {
    command: `npx mongo-perf-lab run ${entry.name} --profile seed --runs 10`,
    takes: `more than the seed profile's ${shortTime(entry.seedExpected)}`,
  };
}

/** The run that times both sides when the column's profile left a variant out (its VARIANTS). */
function withVariants(entry, profile, names) {
  const p = profile === 'seed' ? 'seed' : 'quick';
  const stated = shortTime(p === 'seed' ? entry.seedExpected : entry.expected);
  return {
    command: `npx mongo-perf-lab run ${entry.name} --profile ${p} --set VARIANTS=${names.join(',')}`,
    takes: `the ${p} profile's ${stated} and the variants it leaves out`,
  };
}

/**
 * One practice read from one column: { id, study, do, decided, words: the estimator's sentence,
 * verdicts: [{ id, verdict, label }], run: the deciding command when undecided }.
 */
function practiceLine(entry, practice, { records, judged, profile }) {
  const p = { ...practice, study: entry.name };
  const verdicts = practice.claims.map((id) => {
    const j = (judged || []).find((x) => x.study === entry.name && x.id === id);
    return {
      id,
      verdict: j ? j.verdict : null,
      label: j ? claims.LABEL[j.verdict] || j.verdict : 'not judged here',
      claim: j && j.claim,
    };
  });
  const out = { id: practice.id, study: entry.name, do: practice.do, verdicts, decided: false, words: '', run: null };
  const ran = records.some((r) => r.study === entry.name);
  const pair = recordsOf(p, records);
  if (!ran) {
    out.words = 'not measured in these records';
    out.run = { command: `npx mongo-perf-lab run ${entry.name}`, takes: shortTime(entry.expected) };
    return out;
  }
  if (!pair.slow || !pair.fast) {
    const rs = claims.results(records, entry.name);
    const missing = pair.names.filter((n) => !rs.some((r) => r.variant === n));
    const what = missing.length
      ? `variant ${missing.join(' and ')} did not run`
      : `${pair.names.join(' and ')} did not run at one point`;
    out.words = `not measured here: ${what}${profile === 'tiny' ? ' (test scale)' : ''}`;
    out.run = missing.length
      ? withVariants(entry, profile, pair.names)
      : decidingRun(entry, profile === 'seed' ? 'quick' : profile);
    return out;
  }
  if (practice.count) {
    const line = countLine(out, pair, practice.count);
    if (!line.decided) line.run = decidingRun(entry, profile === 'seed' ? 'quick' : profile);
    return line;
  }
  const cs = (pair.points || [pair]).map((pt) => ({ pt, c: comparisonOf({ ...pair, ...pt }) }));
  out.comparison = cs[0].c;
  // Decided only when every matched point decides, the same way: machine states that disagree are
  // the finding, not one of them.
  out.decided = cs.every(({ c }) => decides(c) && c.decision === cs[0].c.decision);
  out.words = cs
    .map(({ pt, c }) => {
      const at = pointWords(pt.slow, pair.points || []);
      return `${at ? `at ${at}: ` : ''}${comparisonText(c, out.decided)}`;
    })
    .join('; ');
  if (!out.decided) out.run = decidingRun(entry, profile);
  return out;
}

/**
 * Decided: the summary's sentence ("4.10 times faster than where (95% CI ...)"); not: the cell and
 * the interval in words, short ("too few rounds: 31.0x faster", "no clear difference (95% CI ...)").
 */
function comparisonText(c, decided) {
  const w = F.comparisonWords(c);
  if (decided) return (c.decision === S.DECISION.slower ? 'REVERSED here: ' : '') + w.line.replace(/^ran /, '');
  return `${w.cell}${w.ci ? ` (95% CI ${w.ci})` : ''}`;
}

/** The practices a study declares, checked (an entry without any has none). */
function declared(entry) {
  const list = entry.practices || [];
  list.forEach((p, i) => checkPractice(entry, p, i));
  return list;
}

/**
 * Every practice of the studies, read from the columns: per practice the first column whose
 * records decide it, else the first column that ran its study (undecided: with the deciding run).
 * columns: [{ records, judged, profile(entry), label }].
 */
function practiceLines(entries, columns) {
  const out = [];
  for (const entry of entries) {
    for (const practice of declared(entry)) {
      const lines = columns.map((col) => ({
        ...practiceLine(entry, practice, {
          records: col.records,
          judged: col.judged,
          profile: col.profile(entry),
        }),
        column: col.label,
      }));
      const ran = lines.filter((l, i) => columns[i].records.some((r) => r.study === entry.name));
      out.push(lines.find((l) => l.decided) || ran[0] || lines[0]);
    }
  }
  return out;
}

const NAMED = new Set([claims.VERDICT.REVERSED, claims.VERDICT.FAILS, claims.VERDICT.GONE]);

/** The verdicts behind a practice: "holds (001-where-needed), not reproduced here (001-where-vs-scan)". */
function verdictsText(verdicts) {
  const by = new Map();
  // A reversed, failed or gone claim may be the practice's reason ("$where is needed ..." reversed): its
  // sentence beside its id, so the line does not read as the practice reversed.
  const named = (v) => (NAMED.has(v.verdict) && v.claim ? `${v.id}: "${v.claim}"` : v.id);
  for (const v of verdicts) by.set(v.label, [...(by.get(v.label) || []), named(v)]);
  return [...by].map(([label, ids]) => `${label} (${ids.join(', ')})`).join(', ');
}

/**
 * A practice as one paragraph of the report model: what to do, by how much here (or "not decided
 * at this scale" and the run that decides it), the verdicts behind it, the link to the study.
 * `link(entry name)` gives the study's write-up as seen from the document; `columns` > 1 names
 * the column the figure comes from.
 */
function practiceBlock(line, link, { columns = 1 } = {}) {
  const from = columns > 1 && line.column ? ` [${line.column}]` : '';
  const undecided =
    line.run && /--runs/.test(line.run.command) ? 'not decided by these rounds' : 'not decided at this scale';
  const figure = line.decided
    ? `${line.words}${from}`
    : `${undecided} (${line.words}${from}); decided by ${'`'}${line.run.command}${'`'} (${line.run.takes})`;
  return m.paragraph(
    m.bold(line.do),
    `: ${figure}. Verdicts: ${verdictsText(line.verdicts) || 'none'}. `,
    m.link(line.study, link(line.study)),
  );
}

/** The section "What this means for you": its heading, one line per practice, and how to read them. */
function practiceBlocks(lines, link, { columns = 1 } = {}) {
  if (!lines.length) return [];
  return [
    m.heading(2, 'What this means for you', 'for-you'),
    m.paragraph(
      'One line per practice, read from the records: the figure is the one estimator\'s (95 % interval on the per-round time ratios); "N times faster" only when the whole interval says so. The verdicts are those of the claims behind the practice.',
    ),
    ...lines.map((l) => practiceBlock(l, link, { columns })),
  ];
}

module.exports = {
  practiceLines,
  practiceLine,
  practiceBlocks,
  practiceBlock,
  comparisonOf,
  decides,
  declared,
  decidingRun,
};
