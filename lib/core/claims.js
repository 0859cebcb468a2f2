'use strict';
// The claims ledger: each study's claims.js lists its source text's claims (the wording, the
// published figure with its quote or derivation, the setting it was made in) and a verdict rule
// over the study's result records. Every rule answers with one word of one vocabulary (VERDICT),
// decided from an interval, never from a point figure, and only after it has checked, from the
// records, that the claim's setting was there (a gate without its evidence refuses):
//   holds          the interval lies inside the claim's band
//   stronger       the interval lies above the band: the effect is larger today
//   weaker         the interval lies between the no-difference band and the claim's band: a
//                  smaller effect, in the claimed direction
//   no-effect      the interval lies inside the no-difference band: no effect either way here
//   reversed       the interval lies beyond the no-difference band on the other side: the other
//                  way round today (a directional claim only)
//   fails          a claim with no direction (one-sided: "adds little", "no faster"; parity: "a
//                  wash", "level") measured on the side its band excludes: it does not hold today,
//                  and there was no direction to reverse ("adds much", "not level")
//   gone           the feature is removed or ignored by this server (jsMode, touch, MMAPv1)
//   unsupported    the source's own published figures do not support the claim (the derivation
//                  is shown); the lab's figure is reported beside, never read as a change
//   question       the source asked, it did not claim: measured and reported, no verdict
//   not-reproduced the setting the claim needs is absent here, or the records do not prove it
//                  (`setting.here` says what is missing, `why` how to reproduce it)
//   not-measured   the lab has no measurement for this claim (`why` says why, and what would
//                  measure it): no decision at all, unlike not-reproduced, which measured and
//                  found the claim's setting absent
//   inconclusive   the interval straddles a boundary, too few rounds, or too small a scale (`why`
//                  says what would decide it)
// A claim with several parts (a figure and its explanation, two mechanisms) is judged per part:
// `parts()` makes one entry per part, each with its own verdict, tied by `of`.
// Each rule declares its kind (KIND): a directional claim ("X is faster") can be reversed; a
// one-sided or parity claim can only fail, so `decide` never says reversed of it.
// The rules read only records, so a result file can be judged again later (the findings report).
const { LabError } = require('../infra/errors');
const LabFormat = require('../../scripts/lib/format');
const LabStats = require('../../scripts/lib/stats');
const { wrap } = require('../../scripts/lib/format');

const VERDICT = Object.freeze({
  HOLDS: 'holds',
  STRONGER: 'stronger',
  WEAKER: 'weaker',
  NO_EFFECT: 'no-effect',
  REVERSED: 'reversed',
  FAILS: 'fails',
  GONE: 'gone',
  UNSUPPORTED: 'unsupported',
  QUESTION: 'question',
  NOT_REPRODUCED: 'not-reproduced',
  NOT_MEASURED: 'not-measured',
  INCONCLUSIVE: 'inconclusive',
});
const VERDICTS = Object.freeze(Object.values(VERDICT));
/**
 * The verdicts that decide something about today's server: two runs of one build must never give
 * two different ones. unsupported and question depend on no run (the source's figures; no verdict).
 */
const DECISIVE = Object.freeze([
  VERDICT.HOLDS,
  VERDICT.STRONGER,
  VERDICT.WEAKER,
  VERDICT.NO_EFFECT,
  VERDICT.REVERSED,
  VERDICT.FAILS,
  VERDICT.GONE,
]);
/** The verdicts that must carry their mechanism with a reference (manual, server source, release notes). */
const EXPLAINED = Object.freeze([VERDICT.GONE, VERDICT.REVERSED, VERDICT.FAILS, VERDICT.UNSUPPORTED]);
/**
 * What a claim's band says, declared by its rule (`kind`, default directional): a directional claim
 * ("X is 3x faster") has a direction, and an interval beyond the no-difference band on the other
 * side is REVERSED; a one-sided claim ("adds little", "no faster") bounds the ratio on one side only
 * and a parity claim ("a wash", "level") holds it near 1: neither has a direction to reverse, so an
 * interval on a side the band excludes FAILS.
 */
const KIND = Object.freeze({ DIRECTIONAL: 'directional', ONE_SIDED: 'one-sided', PARITY: 'parity' });
/** How reports print a verdict. */
const LABEL = Object.freeze({
  holds: 'holds',
  stronger: 'stronger',
  weaker: 'weaker',
  'no-effect': 'no effect',
  reversed: 'REVERSED',
  fails: 'FAILS',
  gone: 'gone',
  unsupported: 'unsupported by source',
  question: 'measured (a question)',
  'not-reproduced': 'not reproduced here',
  'not-measured': 'not measured here',
  inconclusive: 'inconclusive',
});
const MEANING = Object.freeze({
  holds: "the interval lies inside the claim's band",
  stronger: "the interval lies entirely above the claim's band: the effect is larger today",
  weaker:
    "the interval lies between the no-difference band and the claim's band: a smaller effect, in the claimed direction",
  'no-effect': 'the interval lies inside the no-difference band: no effect either way here',
  reversed:
    'a directional claim whose interval lies entirely beyond the no-difference band on the other side: the other way round today',
  fails:
    'a claim with no direction (one-sided: "adds little", "no faster"; parity: "a wash", "level") whose interval lies entirely on a side its band excludes: the claim does not hold today ("adds much", "not level"), and it had no direction to reverse',
  gone: 'the feature the claim is about is removed or ignored by this server; the entry gives the mechanism and a reference',
  unsupported:
    "the source's own published figures do not support the claim (the derivation is shown); the lab's figure is shown beside, not judged as a change",
  question: 'the source asked a question or gave no figure to judge: measured and reported here, without a verdict',
  'not-reproduced':
    'the setting the claim was made in is absent here, or the records do not prove it; the entry says which, and how to reproduce it',
  'not-measured': 'the lab has no measurement for this claim; the entry says why, and what would measure it',
  inconclusive:
    'the interval straddles a boundary, or there are too few rounds or too small a scale; the entry says what would decide',
});

const LEVEL = 0.95;
/** An interval whose ends are further apart than this is meaningless: the one estimator's (scripts/lib/stats.js). */
const MAX_SPAN = require('../../scripts/lib/stats').MAX_SPAN;
/** Below this many paired rounds a t-interval is not computed (reported as unavailable, not as the range): the core's. */
const MIN_ROUNDS = 3;
/** A ratio inside [1/1.25, 1.25] is "no clear difference" unless a claim says otherwise. */
const FLOOR = 0.8;

/** The two-sided t quantile at `level` (the lab's 95 % unless given; LabStats.tQuantile: the shell-side core's). */
function tQuantile975(df, level = LEVEL) {
  if (Number.isFinite(df)) return LabStats.tQuantile(1 - (1 - level) / 2, df);
  return level === LEVEL ? 1.959964 : LabStats.tQuantile(1 - (1 - level) / 2, 1e9);
}

function logStats(xs) {
  const ls = xs.map(Math.log);
  const m = ls.reduce((a, b) => a + b, 0) / ls.length;
  const v = ls.length > 1 ? ls.reduce((a, b) => a + (b - m) ** 2, 0) / (ls.length - 1) : 0;
  return { n: ls.length, m, v };
}

/**
 * The interval of a ratio from per-round ratios: the shell-side core's t-interval on their logs
 * (LabStats.ratioInterval: {mid, lo, hi, n, method: 't-log'}; lo/hi null with `why` below 3 rounds).
 */
function ratioInterval(rs, level = LEVEL) {
  return LabStats.ratioInterval(
    (rs || []).filter((x) => Number.isFinite(x)),
    level,
  );
}

/**
 * The interval of time(a)/time(b) from two independent samples (not timed in the same rounds):
 * Welch's t on the difference of log means. Each side needs MIN_ROUNDS times of its own: a side
 * timed once (a time budget) has no spread, and borrowing the other side's would claim a precision
 * nobody measured, so the figure is shown without an interval (`undecided` says why).
 */
function unpairedInterval(aTimes, bTimes, level = LEVEL) {
  const a = logStats(aTimes.filter((x) => x > 0));
  const b = logStats(bTimes.filter((x) => x > 0));
  const mid = Math.exp(a.m - b.m);
  const n = Math.min(a.n, b.n);
  if (n < MIN_ROUNDS)
    return {
      mid,
      lo: null,
      hi: null,
      n,
      method: 't-log-unpaired',
      why: `${a.n} and ${b.n} runs`,
      undecided: `too few rounds: ${a.n} and ${b.n} runs, each side needs ${MIN_ROUNDS} for an interval (no side borrows the other's spread)`,
    };
  const qa = a.v / a.n;
  const qb = b.v / b.n;
  const se = Math.sqrt(qa + qb);
  const df = se === 0 ? Infinity : (qa + qb) ** 2 / ((qa * qa) / (a.n - 1) + (qb * qb) / (b.n - 1));
  const h = tQuantile975(df, level) * se;
  return { mid, lo: Math.exp(a.m - b.m - h), hi: Math.exp(a.m - b.m + h), n, method: 't-log-unpaired' };
}

function results(records, study) {
  return records.filter((r) => r.type === 'result' && !r.skipped && (!study || r.study === study));
}

/** The records of the axis point with the largest value of `key` (or the only point). */
function atLargest(records, key) {
  const rs = results(records);
  if (!key) return rs;
  // reduce, not Math.max(...records): a spread of a large file's records overflows the stack
  const max = rs.reduce((m, r) => (typeof r.axis[key] === 'number' ? Math.max(m, r.axis[key]) : m), -Infinity);
  return rs.filter((r) => r.axis[key] === max);
}

function find(rs, variant) {
  return rs.find((r) => r.variant === variant);
}

/** True when two records were timed in the same rounds against the same baseline. */
function paired(a, b) {
  return !!(
    a.ratio &&
    b.ratio &&
    a.ratio.perRound &&
    b.ratio.perRound &&
    a.ratio.to === b.ratio.to &&
    a.times &&
    b.times &&
    a.times.length > 0 &&
    b.times.length > 0
  );
}

/**
 * The per-round ratios of two paired records, over the rounds both ran: a variant that stopped on
 * its own (per-variant sequential stopping) ran the point's first rounds, the other went on.
 */
function pairedRatios(a, b) {
  const n = Math.min(a.times.length, b.times.length);
  return a.times.slice(0, n).map((t, i) => t / b.times[i]);
}

/**
 * The interval of time(slow)/time(fast) at one axis point: per-round ratios when both were timed
 * in the same rounds against the same baseline, else the unpaired interval of the two samples.
 * Null when either variant did not run.
 */
function intervalOf(rs, slow, fast) {
  const a = find(rs, slow);
  const b = find(rs, fast);
  if (!a || !b || !a.times || !b.times || !a.times.length || !b.times.length) return null;
  // A point that ran sequential rounds chose its stop from its data: its intervals are at the
  // records' corrected level (docs/sequential-rounds.md), so the 95 % coverage holds.
  const level = LabStats.levelOf(a, b);
  if (paired(a, b))
    return {
      ...ratioInterval(pairedRatios(a, b), level),
      paired: true,
    };
  return { ...unpairedInterval(a.times, b.times, level), paired: false };
}

/**
 * The slope of log(y) on log(x) (how y grows with x: 1 = linearly) with its t-interval; `mid`,
 * `lo`, `hi` are slopes, not ratios. Null below 3 points or 2 distinct x.
 */
function slopeInterval(xs, ys) {
  const pts = xs
    .map((x, i) => [Math.log(x), Math.log(ys[i])])
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  const n = pts.length;
  if (n < 3 || new Set(pts.map((p) => p[0])).size < 2) return null;
  const mx = pts.reduce((s, p) => s + p[0], 0) / n;
  const my = pts.reduce((s, p) => s + p[1], 0) / n;
  const sxx = pts.reduce((s, p) => s + (p[0] - mx) ** 2, 0);
  const b = pts.reduce((s, p) => s + (p[0] - mx) * (p[1] - my), 0) / sxx;
  const sse = pts.reduce((s, p) => s + (p[1] - my - b * (p[0] - mx)) ** 2, 0);
  const h = tQuantile975(n - 2) * Math.sqrt(sse / (n - 2) / sxx);
  return { mid: b, lo: b - h, hi: b + h, n, method: 't-slope-log-log' };
}

/** Per-index ratios of two equally long time lists (e.g. the same five intervals T1..T5 in two states). */
function pairedTimes(aTimes, bTimes) {
  if (!aTimes || !bTimes || aTimes.length !== bTimes.length) return null;
  return ratioInterval(
    aTimes.map((t, i) => t / bTimes[i]),
    LEVEL,
  );
}

function fx(x) {
  if (x === Infinity) return 'infinity';
  return x === null || x === undefined || !Number.isFinite(x) ? '?' : `${LabFormat.fmtFactor(x)}x`;
}

/** "4.1x (95% CI 3.2x-5.0x, n 5)" or "4.1x (n 2: no interval)". */
/** True when an interval's ends are more than the one estimator's MAX_SPAN apart: it says nothing. */
function tooWide(iv) {
  return !!iv && typeof iv.lo === 'number' && typeof iv.hi === 'number' && iv.lo > 0 && iv.hi / iv.lo > MAX_SPAN;
}

function fmtInterval(iv, fmt = fx) {
  if (!iv) return null;
  if (iv.lo === null || iv.lo === undefined) return `${fmt(iv.mid)} (n ${iv.n}: no interval)`;
  if (tooWide(iv)) return `${fmt(iv.mid)} (n ${iv.n}: interval too wide)`;
  return `${fmt(iv.mid)} (95% CI ${fmt(iv.lo)} to ${fmt(iv.hi)}, n ${iv.n})`;
}

function intervalField(iv) {
  return iv && iv.lo !== null && iv.lo !== undefined ? { lo: iv.lo, hi: iv.hi, level: LEVEL, n: iv.n } : null;
}

/**
 * The no-difference band of a claim: `tie` when the rule gives one, else [floor, min(1/floor, L)]
 * (floor: min(0.8, L)), so a band that starts below 1.25x leaves no room for "weaker".
 */
function tieBand({ holds: [L], floor = Math.min(FLOOR, L), tie = null }) {
  return tie || [floor, Math.min(1 / floor, L)];
}

/** True for a parity claim ("a wash", "neck and neck"): its band holds 1, so no-effect is its holds. */
function isParity([L, U]) {
  return L <= 1 && U >= 1;
}

/** Whether a rule's band is read as parity: declared so, or around 1 with no no-difference band of its own. */
function readsAsParity(o) {
  return o.kind === KIND.PARITY || (isParity(o.holds) && !o.tie);
}

/**
 * A rule's kind and its verdicts outside the band: `below` defaults to REVERSED for a directional
 * claim and to FAILS for a one-sided or parity one; `above` to stronger, except for a parity claim,
 * where "clearly different" fails on either side ("breaks even", "level" have no larger effect). A directional rule may not
 * say FAILS, nor a one-sided or parity rule REVERSED: a LabError when the rule is built, since the
 * word would misname the claim (a one-sided claim has no other way round).
 */
function outcomeWords(o) {
  const kind = o.kind || KIND.DIRECTIONAL;
  const kinds = Object.values(KIND);
  if (!kinds.includes(kind)) throw new LabError(`a claim rule's kind is "${kind}": give one of ${kinds.join(', ')}`);
  const directional = kind === KIND.DIRECTIONAL;
  const above = o.above || (kind === KIND.PARITY ? VERDICT.FAILS : VERDICT.STRONGER);
  const below = o.below || (directional ? VERDICT.REVERSED : VERDICT.FAILS);
  const misnamed = directional ? VERDICT.FAILS : VERDICT.REVERSED;
  if (above === misnamed || below === misnamed)
    throw new LabError(
      `a ${kind} claim rule says ${misnamed}: ${directional ? "only a one-sided or parity claim fails (declare the rule's kind)" : 'it has no direction to reverse (say fails)'}`,
    );
  return { kind, above, below };
}

/** The reason's tail for a verdict outside the band: what the word means for this kind of claim. */
function outsideWhy(verdict, kind) {
  if (verdict === VERDICT.REVERSED) return ': the other way round';
  if (verdict === VERDICT.FAILS) return `: the ${kind} claim does not hold`;
  return '';
}

/**
 * Decides a verdict from an interval against a claim's band: `holds: [L, U]` in the claim's own
 * ratio (a ratio above 1 in the claimed direction); `tie` the no-difference band (tieBand);
 * `above`/`below` rename the verdicts outside a parity band; `kind` (KIND) says whether the side
 * below is REVERSED (directional) or FAILS (one-sided, parity): outcomeWords. Returns { verdict, why }.
 *   inside [L, U]                     holds
 *   above U                           stronger (or `above`)
 *   between the tie band and L        weaker: a smaller effect in the claimed direction
 *   inside the tie band               no-effect
 *   below the tie band                reversed, fails for a one-sided or parity claim (or `below`)
 *   across any of those boundaries    inconclusive, with what would decide
 */
function decide(iv, o) {
  const {
    holds: [L, U],
    runs = 'RUNS',
    fmt = fx,
    more = null,
  } = o;
  const { kind, above, below } = outcomeWords(o);
  if (!iv || iv.mid === null) return { verdict: VERDICT.INCONCLUSIVE, why: 'the variants did not both run' };
  if (iv.lo === null || iv.lo === undefined) {
    if (iv.undecided) return { verdict: VERDICT.INCONCLUSIVE, why: iv.undecided };
    return {
      verdict: VERDICT.INCONCLUSIVE,
      why: `too few rounds (${iv.n}) for an interval: run with --runs ${Math.max(5, MIN_ROUNDS)} or more`,
    };
  }
  if (tooWide(iv))
    return {
      verdict: VERDICT.INCONCLUSIVE,
      why: `interval too wide: its ends are more than ${MAX_SPAN}x apart in ${iv.n} rounds; ${more || 'more rounds or a quieter machine'} would decide`,
    };
  const band = `[${fmt(L)}, ${fmt(U)}]`;
  if (iv.lo >= L && iv.hi <= U)
    return { verdict: VERDICT.HOLDS, why: `the interval lies inside the claim's band ${band}` };
  if (iv.lo > U)
    return {
      verdict: above,
      why: `the interval lies above the claim's band ${band}${above === VERDICT.FAILS ? outsideWhy(above, kind) : ''}`,
    };
  // A band around 1 reads as parity unless the rule gives its own no-difference band: a share or a
  // fraction (0.1-1.5 of the files re-read) can hold 1 and still have "no effect" below it.
  const parity = readsAsParity(o);
  const [tLo, tHi] = parity ? [L, L] : tieBand(o);
  const tie = `[${fmt(tLo)}, ${fmt(tHi)}]`;
  if (iv.hi < tLo)
    return {
      verdict: below,
      why: parity
        ? `the interval lies below the claim's band ${band}${below === VERDICT.FAILS ? outsideWhy(below, kind) : ''}`
        : `the interval lies below the no-difference band ${tie}${outsideWhy(below, kind)}`,
    };
  if (!parity && iv.lo >= tLo && iv.hi <= tHi)
    return {
      verdict: VERDICT.NO_EFFECT,
      why: `the interval lies inside the no-difference band ${tie}: no effect either way here (claim's band ${band})`,
    };
  if (!parity && iv.lo >= tHi && iv.hi < L)
    return {
      verdict: VERDICT.WEAKER,
      why: `the interval lies between the no-difference band ${tie} and the claim's band ${band}: a smaller effect, in the claimed direction`,
    };
  const crossed = [...new Set(parity ? [L, U] : [tLo, tHi, L, U])]
    .filter((b) => iv.lo < b && iv.hi > b)
    .map(fmt)
    .join(' and ');
  const bounds = [...new Set(parity ? [L, U] : [tLo, tHi, L, U])].filter((b) => b > 0 && Number.isFinite(b));
  return {
    verdict: VERDICT.INCONCLUSIVE,
    why: `the interval straddles ${crossed || 'a boundary'} (band ${band}${parity ? '' : `, no difference ${tie}`}): ${more || moreRounds(iv, bounds, runs)}`,
  };
}

// More rounds than this is not advice: a machine that needs them is too noisy for the question.
const PRACTICAL_ROUNDS = 30;

/**
 * The rounds at which an interval of this spread would clear its nearest boundary, if the rounds
 * keep their centre and spread (t on the logs, the interval's own level): null when it cannot tell
 * (no spread, fewer than 2 rounds), Infinity when the centre sits on a boundary or past 1,000.
 */
function roundsToDecide(iv, bounds) {
  if (!(iv.n >= 2) || !(iv.lo > 0) || !(iv.hi > iv.lo) || !(iv.mid > 0)) return null;
  const level = iv.level || LEVEL;
  const half = Math.log(iv.hi / iv.lo) / 2;
  const sd = (half * Math.sqrt(iv.n)) / tQuantile975(iv.n - 1, level);
  const d = Math.min(...bounds.map((b) => Math.abs(Math.log(iv.mid) - Math.log(b))));
  if (!(d > 0)) return Infinity;
  for (let n = iv.n + 1; n <= 1000; n++) if ((tQuantile975(n - 1, level) * sd) / Math.sqrt(n) < d) return n;
  return Infinity;
}

/**
 * What would decide an interval that straddles a boundary: the rounds it would take at this spread
 * (not a fixed doubling, which promised a decision no spread could give), or that more rounds alone
 * are unlikely to.
 */
function moreRounds(iv, bounds, runs) {
  const n = roundsToDecide(iv, bounds);
  if (n === null) return `more rounds (--runs ${2 * Math.max(iv.n, MIN_ROUNDS)}, the ${runs} parameter) would decide`;
  if (n <= PRACTICAL_ROUNDS)
    return `more rounds (--runs ${n}, the ${runs} parameter) would decide if the rounds keep this spread`;
  const about = Number.isFinite(n) ? `about ${n} rounds at this spread` : 'its centre sits on a boundary';
  return `more rounds alone are unlikely to decide (${about}): a quieter machine or a larger effect would`;
}

/**
 * A verdict rule from its parts, in this order:
 *   testScale: records of --profile tiny are never judged as findings;
 *   gone(records, env) -> why | null: the feature is removed or ignored;
 *   setting.check(records, env) -> { here, ok, reproduce }: absent => not-reproduced;
 *   scale(records, env) -> why | null: too small a scale => inconclusive ("needs the source's scale");
 *   interval(records, env) -> { iv, figure?, note? }, then decide() against `holds`/`floor`/...
 * `figureOf(iv)` may print the interval in the claim's own terms.
 */
/**
 * The decision bands a rule's options give, in words (generated, so a ledger's boundary cell can
 * never drift from what the rule decides): "holds [2.00x, 4.60x]; stronger above; weaker
 * [1.25x, 2.00x); no effect [0.80x, 1.25x]; REVERSED below 0.80x".
 */
function bandsText(o) {
  if (!o.holds) return null;
  const f = o.fmt || fx;
  const [L, U] = o.holds;
  const words = outcomeWords(o);
  const above = LABEL[words.above];
  const below = LABEL[words.below];
  const gone = o.goneInside ? `; gone inside [${fx(o.goneInside[0])}, ${fx(o.goneInside[1])}]` : '';
  // a band open upwards has nothing above it to name
  const aboveText = U === Infinity ? '' : `; ${above} above`;
  if (readsAsParity(o)) return `holds [${f(L)}, ${f(U)}]${aboveText}; ${below} below${gone}`;
  const [tLo, tHi] = tieBand(o);
  const weaker = tHi < L ? `; weaker [${f(tHi)}, ${f(L)})` : '';
  return `holds [${f(L)}, ${f(U)}]${aboveText}${weaker}; no effect [${f(tLo)}, ${f(tHi)}]; ${below} below ${f(tLo)}${gone}`;
}

/** A verdict function that keeps the decision bands of the rule it wraps (`inner.bands`). */
function keepBands(fn, inner) {
  if (inner && inner.bands) fn.bands = inner.bands;
  return fn;
}

function rule(o) {
  const fn = judgeWith(o);
  fn.bands = bandsText(o);
  return fn;
}

/**
 * Below the source's scale a rule abstains, whatever its interval says: a quick run must never
 * contradict the seed-scale verdict (the figure and the would-be verdict are still shown). The
 * reason and the note are also fields (abstained), so a wrapper rewording it never parses `why`.
 */
function belowScale(small, m, o, { figure, interval, setting }) {
  const d = m.iv ? decide(m.iv, o) : null;
  return {
    verdict: VERDICT.INCONCLUSIVE,
    figure: figure || null,
    interval,
    setting,
    why: `needs the source's scale: ${small}${d ? ` (at this scale: ${d.verdict}, ${d.why})` : ''}${m.note ? `; ${m.note}` : ''}`,
    abstained: { scale: small, note: m.note || null },
  };
}

function judgeWith(o) {
  return (records, env = {}, params = {}) => {
    const needed = o.setting ? o.setting.needed : null;
    const st =
      o.setting && o.setting.check
        ? o.setting.check(records, env, params)
        : { here: 'not checked by this rule', ok: true };
    const setting = { needed, here: st.here, ok: st.ok, ...(st.absent ? { absent: st.absent } : {}) };
    const m = o.interval(records, env, params) || {};
    const figure = m.figure !== undefined ? m.figure : fmtInterval(m.iv, o.fmt);
    const interval = m.iv && m.iv.exact ? null : intervalField(m.iv);
    const gone = o.gone ? o.gone(records, env, params) : null;
    if (gone) return { verdict: VERDICT.GONE, figure, interval, setting, why: gone };
    if (!st.ok)
      return {
        verdict: VERDICT.NOT_REPRODUCED,
        figure,
        interval,
        setting,
        why: `not reproduced here: ${st.here}${st.reproduce ? `; to reproduce: ${st.reproduce}` : ''}`,
      };
    const small = o.scale ? o.scale(records, env, params) : null;
    if (small) return belowScale(small, m, o, { figure, interval, setting });
    if (!m.iv)
      return {
        verdict: VERDICT.INCONCLUSIVE,
        figure: figure || null,
        interval: null,
        setting,
        why: m.missing || 'the variants this claim compares did not run',
      };
    // A claim about a mechanism the server no longer has: its effect vanishes into parity.
    if (
      o.goneInside &&
      m.iv.lo !== null &&
      m.iv.lo !== undefined &&
      m.iv.lo >= o.goneInside[0] &&
      m.iv.hi <= o.goneInside[1]
    ) {
      return {
        verdict: VERDICT.GONE,
        figure,
        interval,
        setting,
        why: `the interval lies inside [${fx(o.goneInside[0])}, ${fx(o.goneInside[1])}]: ${o.goneWhy}${m.note ? `; ${m.note}` : ''}`,
      };
    }
    const d = decide(m.iv, o);
    // the note also as a field, so a wrapper rewording the reason never splits `why`
    return {
      verdict: d.verdict,
      figure,
      interval,
      setting,
      why: `${d.why}${m.note ? `; ${m.note}` : ''}`,
      ...noteOf(m),
    };
  };
}

const noteOf = (m) => (m.note ? { note: m.note } : {});

/**
 * The commonest rule: time(slow) / time(fast) at one axis point, decided against the claim's band.
 *   slow, fast: variant names, or functions of the point's records giving one;
 *   at(records, env, params) -> the point's records (default: every result);
 *   missing: why there is no interval (text, or a function of the records);
 *   note({rs, iv, slow, fast}) -> a note after the verdict's reason (or a text);
 *   band: [L, U] (rule's `holds`); every other option (setting, scale, floor, above, more, fmt...) goes to rule().
 */
function ratioRule({ slow, fast, at, missing, note, band, ...o }) {
  return rule({ ...o, holds: band, interval: ratioAt({ slow, fast, at, missing, note }) });
}

/** ratioRule's interval: {iv, missing, note} for rule(). */
function ratioAt({ slow, fast, at, missing, note }) {
  return (records, env, params) => {
    const rs = at ? at(records, env, params) : results(records);
    const a = typeof slow === 'function' ? slow(rs) : slow;
    const b = typeof fast === 'function' ? fast(rs) : fast;
    const iv = intervalOf(rs, a, b);
    return {
      iv,
      missing: typeof missing === 'function' ? missing(records) : missing || `${a} and ${b} did not both run`,
      note: typeof note === 'function' ? note({ rs, iv, slow: a, fast: b }) : note,
    };
  };
}

/** A deterministic figure (a size, a count): its own value as a zero-width interval, reported without one. */
function exact(x) {
  return { mid: x, lo: x, hi: x, n: 1, exact: true };
}

/** A share as a percentage: two decimals below 1 %. */
function pct(x) {
  return `${(100 * x).toFixed(x < 0.01 ? 2 : 1)} %`;
}

/**
 * A claim this lab cannot measure (a setting it cannot make) or does not measure yet: an explicit
 * entry, never silence, and never "not reproduced" (nothing was measured that could find the
 * setting absent). `here` says what is missing, `measure` what would measure it.
 */
function unmeasured({ here, measure, gone = false }) {
  return () => ({
    verdict: gone ? VERDICT.GONE : VERDICT.NOT_MEASURED,
    figure: null,
    interval: null,
    // ok null: nothing was measured, so the setting was not checked (never "absent", which is not-reproduced)
    setting: { needed: null, here, ok: gone ? false : null },
    why: `${gone ? 'gone' : 'not measured here'}: ${here}; what would measure it: ${measure}`,
  });
}

/**
 * A rule over records that older result files lack (a measurement added later): without them the
 * claim is not measured (unmeasured's entry, with `here` and `measure`), never inconclusive; with
 * them `verdict` judges. `has(records)` says whether the measurement is there.
 */
function whenMeasured(has, { here, measure }, verdict) {
  const none = unmeasured({ here, measure });
  return keepBands((records, env, params) => (has(records) ? verdict(records, env, params) : none()), verdict);
}

/**
 * A claim the source's own published figures do not support: `derivation` shows why, from the
 * source's numbers. The lab's measurement (`measured`, a rule) is still run and shown beside, but it
 * is never read as a change in MongoDB: there was no effect to change.
 */
function unsupported(derivation, measured = null) {
  return keepBands((records, env, params) => {
    const m = measured ? measured(records, env, params) : null;
    return {
      verdict: VERDICT.UNSUPPORTED,
      figure: m ? m.figure : null,
      interval: m ? m.interval : null,
      setting: m ? m.setting : undefined,
      why: `the source's own figures do not support it: ${derivation}${m ? `; measured here (not a verdict): ${LABEL[m.verdict]}, ${m.why}` : ''}`,
    };
  }, measured);
}

/**
 * A question the source asked, or a statement with no figure or direction to judge: `measured` (a
 * rule) is run and its figure shown, with no verdict. A rule that could not measure (its setting
 * absent, not measured) keeps its own answer.
 */
function question(measured) {
  return keepBands((records, env, params) => {
    const m = measured(records, env, params);
    if ([VERDICT.NOT_REPRODUCED, VERDICT.NOT_MEASURED].includes(m.verdict)) return m;
    return {
      ...m,
      verdict: VERDICT.QUESTION,
      why: `a question, measured without a verdict${m.figure ? '' : ' (no figure at this scale)'}; the rule read: ${LABEL[m.verdict]}, ${m.why}`,
    };
  }, measured);
}

/**
 * A claim with parts (a figure and its explanation, two mechanisms): one ledger entry per part, each
 * with its own verdict; `id` is `<claim>/<part>` and `of` the claim's id. Each part inherits the
 * claim's source fields (quote, setting, published) unless it gives its own.
 */
function parts(base, list) {
  return list.map((p) => ({
    ...base,
    ...p,
    id: `${base.id}/${p.id}`,
    of: base.id,
    claim: `${base.claim}: ${p.claim}`,
  }));
}

/** Setting checks the rules share. */
const setting = {
  cores(env, rec) {
    return (rec && rec.extra && rec.extra.cores) || (env && env.host && env.host.cores) || null;
  },
  cacheBytes(env) {
    return (env && env.server && (env.server.cacheBytes || env.server.cacheSizeBytes)) || null;
  },
  version(env) {
    return (env && env.server && env.server.version) || null;
  },
};

// The most a point may have had some task waiting for a CPU (records' loadavg.cpuWait, over the
// whole point: its warm-up and every variant, the lab's own processes and threads included) for a
// claim that needs the cores to itself. The measured shares quiet and beside CPU-bound processes,
// which put it here, are in docs/journal/testing-2026-11.md ("Claims judged beside CPU-bound neighbours").
const QUIET_CPU_WAIT = 0.4;

/** The cores the run could use: the result file's usable cores (affinity), else its cores, else null. */
function usableCores(env, records = []) {
  const h = (env && env.host) || {};
  if (typeof h.usableCores === 'number') return h.usableCores;
  if (typeof h.cores === 'number') return h.cores;
  const r = records.find((x) => x.loadavg && typeof x.loadavg.cores === 'number');
  return r ? r.loadavg.cores : null;
}

/** Why the picked records do not prove free cores (null when they do). */
function busyEvidence(recs) {
  // No records of the claim's points (a scale below them): nothing will be judged, and the rule
  // abstains on its own (no interval), so the gate has nothing to refuse.
  if (!recs.length) return null;
  const missing = recs.filter((r) => !r.loadavg || typeof r.loadavg.cpuWait !== 'number');
  if (missing.length)
    return {
      here: `${missing.length} of ${recs.length} records carry no CPU-wait figure (a result file from before it was recorded, or a system without Linux PSI), so nothing shows the cores were free`,
      absent: 'no-evidence',
    };
  const worst = recs.reduce((w, r) => Math.max(w, r.loadavg.cpuWait), -Infinity);
  if (worst > QUIET_CPU_WAIT)
    return {
      here: `the cores were contended: some task (the lab's own included) waited for a CPU ${pct(worst)} of these points' time (at most ${pct(QUIET_CPU_WAIT)} for this claim)`,
      absent: 'busy-cores',
    };
  const loaded = recs.find(
    (r) => typeof r.loadavg.start === 'number' && r.loadavg.cores && r.loadavg.start > r.loadavg.cores,
  );
  if (loaded)
    return {
      here: `a load average of ${loaded.loadavg.start} on ${loaded.loadavg.cores} cores when a point started (more runnable tasks than cores)`,
      absent: 'busy-cores',
    };
  return null;
}

/** Two settings a claim needs both of: the first that is absent answers; when both are present both
 * say what they found (a gate's evidence is never hidden by the next one's). */
function allOf(a, b) {
  return {
    needed: `${a.needed}; ${b.needed}`,
    check: (records, env, params) => {
      const x = a.check(records, env, params);
      if (!x.ok) return x;
      const y = b.check(records, env, params);
      return y.ok ? { ...y, here: `${x.here}; ${y.here}` } : y;
    },
  };
}

/**
 * `base` (a rule's setting) that also needs `cores` usable cores (default 1) that no other work
 * wanted while the records `pick` returns were measured. It fails closed: records without the
 * CPU-wait figure, a load average above the cores, or an unknown core count refuse (not reproduced
 * here, with `absent` saying why), never pass. Used by claims that time one message at a time
 * against two servers (a busy machine does not slow both alike) and by every claim about
 * parallelism, contention or concurrency (threads, workers and races need cores of their own).
 * The share is the machine's, not the claim's variants' alone: on one core (taskset, a 1-vCPU
 * machine) the lab's own client and server wait for each other and can exceed it with nothing else
 * running, which is also not the source's setting (its clients ran on other machines).
 */
function quietCores(base, pick, { cores = 1 } = {}) {
  return {
    needed: `${base.needed}; ${cores > 1 ? `at least ${cores} cores` : 'cores'} no other work wanted during the rounds`,
    check: (records, env, params) => {
      const st = base.check ? base.check(records, env, params) : { here: 'not checked by this rule', ok: true };
      if (!st.ok) return st;
      const have = usableCores(env, records);
      if (have === null || have < cores)
        return {
          here:
            have === null
              ? 'the records do not say how many cores the run could use'
              : `${have} usable core(s); this claim needs ${cores}`,
          ok: false,
          absent: have === null ? 'no-evidence' : 'cores',
          reproduce: `the same command on a machine with at least ${cores} free cores`,
        };
      const busy = busyEvidence(pick(records));
      if (!busy) return st;
      return {
        here: busy.here,
        ok: false,
        absent: busy.absent,
        reproduce: `the same command on a machine with at least ${Math.max(cores, 2)} cores and nothing else running`,
      };
    },
  };
}

/** Records of --profile tiny: the result file's profile (or a merged file's sources'), or a record's own. */
function isTestScale(env, records = []) {
  return !!(
    (env &&
      (env.profile === 'tiny' ||
        (env.sources && env.sources.some((s) => s.environment && s.environment.profile === 'tiny')))) ||
    records.some((r) => r.profile === 'tiny')
  );
}

// Verdicts that no run's scale can change: test scale leaves them as they are.
const RUN_FREE = [VERDICT.GONE, VERDICT.NOT_REPRODUCED, VERDICT.NOT_MEASURED, VERDICT.UNSUPPORTED];

const KEYS = [
  'study',
  'id',
  'claim',
  'published',
  'verdict',
  'figure',
  'interval',
  'setting',
  'why',
  'of',
  'mechanism',
];

/**
 * A judged claim's identity and outcome, as every report carries it: the ledger's entry (shape) and
 * the findings file's row (lib/report/findings-files.js) take these fields from here, so the two
 * never disagree on what an absent figure is ("-" and undefined are null).
 */
function claimOutcome(c, out, study = c.study) {
  return {
    study,
    id: c.id,
    claim: c.claim,
    published: c.published === undefined ? null : c.published,
    verdict: out.verdict,
    figure: out.figure === undefined || out.figure === '-' ? null : out.figure,
    interval: out.interval || null,
  };
}

function shape(entry, c, out) {
  const neededText = c.setting && typeof c.setting === 'object' ? c.setting.needed : c.setting;
  const s =
    out.setting && typeof out.setting === 'object' ? out.setting : { needed: neededText || null, here: null, ok: null };
  const j = {
    ...claimOutcome(c, out, entry.name),
    setting: {
      needed: s.needed || neededText || null,
      here: s.here === undefined ? null : s.here,
      ok: s.ok === undefined ? null : s.ok,
      ...(s.absent ? { absent: s.absent } : {}),
    },
    why: out.why || '',
    of: c.of,
    // The mechanism behind a gone, reversed or unsupported verdict, with its reference: a reader can
    // check it instead of taking the verdict's word for it.
    mechanism: EXPLAINED.includes(out.verdict) && c.mechanism ? c.mechanism : undefined,
  };
  return Object.fromEntries(KEYS.filter((k) => j[k] !== undefined).map((k) => [k, j[k]]));
}

/**
 * Evaluates an entry's claims over records (and the run's parameters per study, as result files
 * keep them in `params`); a rule that throws is reported, not fatal.
 */
function judge(entry, records, env, params) {
  const own = records.filter((r) => r.study === entry.name);
  const mine = (params && params[entry.name]) || {};
  const tiny = isTestScale(env, own);
  return (entry.claims || []).map((c) => {
    let out;
    try {
      out = c.verdict(own, env || {}, mine);
    } catch (e) {
      out = { verdict: VERDICT.INCONCLUSIVE, figure: null, why: `the rule failed: ${e.message}` };
    }
    if (!VERDICTS.includes(out.verdict))
      out = { verdict: VERDICT.INCONCLUSIVE, figure: null, why: `unknown verdict ${out.verdict}` };
    if (tiny && !RUN_FREE.includes(out.verdict)) {
      out = {
        ...out,
        verdict: VERDICT.INCONCLUSIVE,
        why: `test scale (--profile tiny): not a finding; at this scale the rule said ${out.verdict}: ${out.why}`,
      };
    }
    return shape(entry, c, out);
  });
}

/** One line per claim: "[holds] wording: published X (setting); here Y - why". */
/** One entry per claim, wrapped to `width` columns (a terminal of 100 by default). */
function ledgerLines(judged, width = 100) {
  return judged.flatMap((j) =>
    wrap(
      `[${LABEL[j.verdict]}] ${j.claim}: published ${j.published}${j.setting.needed ? ` (${j.setting.needed})` : ''}; here ${j.figure === null ? '-' : j.figure}${j.why ? `: ${j.why}` : ''}`,
      width - 2,
      '    ',
    ).map((l) => `  ${l}`),
  );
}

module.exports = {
  VERDICT,
  VERDICTS,
  DECISIVE,
  KIND,
  outcomeWords,
  LABEL,
  MEANING,
  LEVEL,
  MIN_ROUNDS,
  FLOOR,
  results,
  atLargest,
  find,
  paired,
  intervalOf,
  pairedTimes,
  slopeInterval,
  ratioInterval,
  unpairedInterval,
  decide,
  rule,
  ratioRule,
  ratioAt,
  exact,
  pct,
  unmeasured,
  whenMeasured,
  setting,
  allOf,
  quietCores,
  usableCores,
  busyEvidence,
  QUIET_CPU_WAIT,
  EXPLAINED,
  RUN_FREE,
  unsupported,
  question,
  parts,
  tieBand,
  isParity,
  bandsText,
  keepBands,
  isTestScale,
  judge,
  claimOutcome,
  ledgerLines,
  fx,
  fmtInterval,
  intervalField,
  tooWide,
  MAX_SPAN,
};
