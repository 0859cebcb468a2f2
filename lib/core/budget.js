'use strict';
// `--budget 30m` (findings and run): a given wall time spent where it decides the most claims.
// Before the run, a plan: per study the largest profile (tiny < quick < seed) whose duration, as the
// registry already states it (`expected`, `seedExpected`: what `list` and the README print), fits its
// share of the budget. During the run, each study's deadline (its share, plus what the studies before
// it left unused) reaches the harness as ctx.deadline: no new round starts after it. At the end, the
// claims the budget left open. Only plans and computes: how the plan and the open claims read (the
// table, the lines, findings.json's budget object) is lib/report/budget-report.js.

const { VERDICT } = require('./claims');

const PROFILES = ['tiny', 'quick', 'seed'];
const MINUTE = 60000;

/**
 * Minutes from a registry duration: "~17 min (measured ...)" 17, "~50 s" 0.83, "~1.5 min" 1.5; a
 * range "~5-16 min" counts its upper end (a plan must not overrun on the slow end). null: none given.
 */
function estimateMinutes(text) {
  const m = /^~?\s*(\d+(?:\.\d+)?)(?:\s*-\s*(\d+(?:\.\d+)?))?\s*(s|sec|min|h)\b/.exec(String(text || '').trim());
  if (!m) return null;
  const value = Number(m[2] || m[1]);
  return m[3] === 'h' ? value * 60 : m[3] === 'min' ? value : value / 60;
}

/**
 * Each profile's minutes for one study. tiny has no stated duration: it is the test scale (seconds)
 * and the floor every plan can afford, so it counts 0 here and the plan always has a profile.
 */
function profileMinutes(entry) {
  return { tiny: 0, quick: estimateMinutes(entry.expected), seed: estimateMinutes(entry.seedExpected) };
}

/** The largest profile whose stated minutes fit `minutes` (an unknown duration never fits). */
function largestFitting(entry, minutes) {
  const est = profileMinutes(entry);
  let best = 'tiny';
  for (const p of PROFILES) if (est[p] !== null && est[p] <= minutes) best = p;
  return best;
}

/** The next profile above `profile` with a stated duration, or null at the top. */
function nextProfile(entry, profile) {
  const est = profileMinutes(entry);
  const up = PROFILES.slice(PROFILES.indexOf(profile) + 1).find((p) => est[p] !== null);
  return up || null;
}

/**
 * The plan: an equal share of `budgetMs` per study, the largest profile fitting it; then what the
 * shares left unused goes to the cheapest upgrades first (more studies at a larger scale, not one
 * study at the largest). Each row's `allotMs` is its estimate plus an equal part of the slack, so the
 * allotments add up to the budget. Rows keep the studies' order.
 */
function planBudget(entries, budgetMs) {
  const budgetMin = budgetMs / MINUTE;
  const share = budgetMin / Math.max(1, entries.length);
  const rows = entries.map((entry) => {
    const profile = largestFitting(entry, share);
    return { entry, study: entry.name, profile, minutes: profileMinutes(entry)[profile] };
  });
  const total = () => rows.reduce((s, r) => s + r.minutes, 0);
  for (;;) {
    const ups = rows
      .map((r) => ({ r, to: nextProfile(r.entry, r.profile) }))
      .filter((u) => u.to)
      .map((u) => ({ ...u, extra: profileMinutes(u.r.entry)[u.to] - u.r.minutes }))
      .filter((u) => total() + u.extra <= budgetMin)
      .sort((a, b) => a.extra - b.extra);
    if (!ups.length) break;
    ups[0].r.profile = ups[0].to;
    ups[0].r.minutes += ups[0].extra;
  }
  const slackMs = Math.max(0, budgetMs - total() * MINUTE) / Math.max(1, rows.length);
  return rows.map((r) => ({ ...r, allotMs: r.minutes * MINUTE + slackMs }));
}

/**
 * Each study's deadline (Date.now() ms), fixed when it starts: the run's start plus the allotments
 * of the studies up to it, so a study inherits whatever the earlier ones left unused (and an overrun
 * shortens the next). The last study's deadline is the end of the budget.
 */
function deadlineClock(plan, startMs) {
  const ends = new Map();
  let at = startMs;
  for (const row of plan) {
    at += row.allotMs;
    ends.set(row.study, Math.round(at));
  }
  return (entry) => ends.get(entry.name);
}

/** The planned profile of a study (the plan's row), for the session's per-study profile. */
function profileOfPlan(plan) {
  const byStudy = new Map(plan.map((r) => [r.study, r.profile]));
  return (entry) => byStudy.get(entry.name);
}

/** The plan's largest profile: the column's (records of a study planned smaller carry their own). */
function columnProfile(plan) {
  return PROFILES[Math.max(0, ...plan.map((r) => PROFILES.indexOf(r.profile)))];
}

// "not reproduced" is open to a budget only when its reason is the run's size, not the server's setting.
const SIZE_WORDS = /--profile seed|test scale|rounds|scale|documents here|events here|tasks here/;

/** Whether a judged claim is one the budget left open: inconclusive, or not reproduced for scale or rounds. */
function leftOpen(j) {
  if (j.verdict === VERDICT.INCONCLUSIVE) return true;
  return j.verdict === VERDICT.NOT_REPRODUCED && SIZE_WORDS.test(j.why || '');
}

/**
 * The claims the budget left open, each with its study's planned profile and registry entry: what
 * lib/report/budget-report.js needs to name the run that would decide it.
 */
function leftOpenClaims(judged, plan) {
  const rows = new Map(plan.map((r) => [r.study, r]));
  return judged
    .filter((j) => rows.has(j.study) && leftOpen(j))
    .map((j) => {
      const row = rows.get(j.study);
      return { study: j.study, id: j.id, verdict: j.verdict, profile: row.profile, entry: row.entry };
    });
}

module.exports = {
  PROFILES,
  MINUTE,
  estimateMinutes,
  profileMinutes,
  largestFitting,
  planBudget,
  deadlineClock,
  profileOfPlan,
  columnProfile,
  leftOpen,
  leftOpenClaims,
};
