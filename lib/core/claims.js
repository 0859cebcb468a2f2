'use strict';
// The claims ledger: each study's Node part declares its source article's numbered claims (the
// wording in short, the published figure, the setting it was measured in) and a verdict rule over
// the study's result records. A rule answers one of
//   holds           our figure agrees with the claim (within the rule's tolerance)
//   changed         it does not: our figure says what it is now
//   obsolete        the feature is gone or ignored (jsMode, touch)
//   not-measurable  this run cannot say (too small a scale, no mongos, ...): `why` says what would
// The rules read only records, so a result file can be judged again later (the findings report).
const lab = require('../../scripts/lib/lab');

const VERDICTS = ['holds', 'changed', 'obsolete', 'not-measurable'];

function results(records, study) {
  return records.filter((r) => r.type === 'result' && !r.skipped && (!study || r.study === study));
}

/** The records of the axis point with the largest value of `key` (or the only point). */
function atLargest(records, key) {
  const rs = results(records);
  if (!key) return rs;
  const max = Math.max(...rs.map((r) => (typeof r.axis[key] === 'number' ? r.axis[key] : -Infinity)));
  return rs.filter((r) => r.axis[key] === max);
}

function find(rs, variant) {
  return rs.find((r) => r.variant === variant);
}

/**
 * How many times faster `fast` ran than `slow` at the same point: per-round when both are against
 * the same baseline and timed every round (ratio of their per-round ratios' medians), else of medians.
 */
function factor(rs, slow, fast) {
  const a = find(rs, slow);
  const b = find(rs, fast);
  if (!a || !b) return null;
  if (a.ratio && b.ratio && a.ratio.to === b.ratio.to && a.ratio.perRound && b.ratio.perRound) {
    const per = a.times.map((t, i) => t / b.times[i]);
    return lab.median(per);
  }
  return a.median / b.median;
}

function fx(x) {
  return x === null || x === undefined ? '?' : `${lab.fmtFactor(x)}x`;
}

/**
 * The common rule "B is about F times faster than A": holds while ours is within `tolerance` times
 * of the published factor either way and points the same way; changed otherwise.
 */
// Small published factors (2x, 3x) get a tighter tolerance than orders of magnitude (100x):
// 1x is a change from 2.5x, while 250x is not one from 100x.
function factorVerdict(measured, published, { tolerance = published < 5 ? 1.5 : 3, scale = '' } = {}) {
  if (measured === null) return { verdict: 'not-measurable', figure: null, why: 'the variants did not both run' };
  const figure = fx(measured);
  const q = measured / published;
  if (published > 1.5 && measured >= 0.8 && measured <= 1.25) return { verdict: 'changed', figure, why: `no clear difference now${scale}` };
  if (q >= 1 / tolerance && q <= tolerance) return { verdict: 'holds', figure, why: `same order as the published ${fx(published)}${scale}` };
  if (published > 1 && measured < 1) return { verdict: 'changed', figure, why: `reversed: now ${fx(1 / measured)} the other way${scale}` };
  return { verdict: 'changed', figure, why: `${q > 1 ? 'larger' : 'smaller'} than the published ${fx(published)}${scale}` };
}

/** Evaluates an entry's claims over records; a rule that throws is reported, not fatal. */
function judge(entry, records, env) {
  const own = records.filter((r) => r.study === entry.name);
  return (entry.claims || []).map((c) => {
    let out;
    try {
      out = c.verdict(own, env || {});
    } catch (e) {
      out = { verdict: 'not-measurable', figure: null, why: `the rule failed: ${e.message}` };
    }
    if (!VERDICTS.includes(out.verdict)) out = { verdict: 'not-measurable', figure: null, why: `unknown verdict ${out.verdict}` };
    return { study: entry.name, id: c.id, claim: c.claim || c.seed, published: c.seedFigure || c.published, setting: c.setting, ...out };
  });
}

/** One line per claim: "[holds] wording: published X (setting); here Y - why". */
function ledgerLines(judged) {
  return judged.map((j) => `  [${j.verdict}] ${j.claim}: published ${j.published} (${j.setting}); here ${j.figure === null ? '-' : j.figure}${j.why ? `: ${j.why}` : ''}`);
}

module.exports = { VERDICTS, results, atLargest, find, factor, factorVerdict, judge, ledgerLines, fx };
