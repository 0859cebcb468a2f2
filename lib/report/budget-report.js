'use strict';
// How a `--budget` reads (lib/core/budget.js plans it and finds the claims it left open): the plan
// as a table of the report model and its terminal lines, the open claims with the run that would
// decide each (the practices' deciding run, the same words as "decided by `...`" in the reports),
// the spent line, and findings.json's `budget` object.
const { fmtMs } = require('../../scripts/lib/format');
const { MINUTE, leftOpenClaims } = require('../core/budget');
const m = require('./model');
const { renderTableLines, wrapText } = require('./render-terminal');
const { decidingRun } = require('./practices');

/** Minutes for people: one decimal below 10 ("0.2", "5.5"), whole above ("17"). */
function fmtMinutes(minutes) {
  if (minutes < 0.05) return '< 0.1';
  return minutes < 10 ? minutes.toFixed(1) : String(Math.round(minutes));
}

/** A wall time as it was given: "45 s", "2 min", "1.5 h". */
function fmtBudget(ms) {
  if (ms < 60000) return `${Math.round(ms / 1000)} s`;
  return ms < 3600000 ? `${fmtMinutes(ms / MINUTE)} min` : `${Number((ms / 3600000).toFixed(2))} h`;
}

/** The plan as a table of the report model (study, profile, estimated minutes, deadline share). */
function planTable(plan, budgetMs) {
  const rows = plan.map((r) => [
    r.study,
    r.profile,
    r.profile === 'tiny' ? 'seconds (test scale)' : fmtMinutes(r.minutes),
    fmtMinutes(r.allotMs / MINUTE),
  ]);
  const planned = plan.reduce((s, r) => s + r.minutes, 0);
  rows.push(['total', '', fmtMinutes(planned), fmtMinutes(budgetMs / MINUTE)]);
  return m.table(['study', 'profile', 'estimated min', 'allotted min'], rows);
}

/** The plan's lines for the terminal, within 100 columns. */
function planLines(plan, budgetMs) {
  return [
    `budget ${fmtBudget(budgetMs)}: each study at the largest profile whose stated time (see list) fits its share`,
    ...renderTableLines(planTable(plan, budgetMs), { width: 100 }),
  ];
}

/**
 * The claims the budget left open (core/budget.js leftOpenClaims), each with the run that would
 * decide it and how long that takes (practices.js decidingRun).
 */
function openClaims(judged, plan) {
  return leftOpenClaims(judged, plan).map(({ entry, ...o }) => ({ ...o, ...decidingRun(entry, o.profile) }));
}

/** The open claims for the terminal: per deciding run, the claims it would decide (within 100 columns). */
function openLines(open) {
  if (!open.length) return ['the budget left no claim open'];
  const byRun = new Map();
  for (const o of open) {
    const key = `\`${o.command}\` (${o.takes})`;
    byRun.set(key, [...(byRun.get(key) || []), `${o.study} ${o.id}`]);
  }
  const out = [`the budget left ${open.length} claim(s) open (inconclusive, or not reproduced for scale or rounds):`];
  for (const [run, ids] of byRun) {
    out.push(...wrapText(`decided by ${run}: ${ids.join(', ')}`, 96).map((l, i) => `${i ? '    ' : '  '}${l}`));
  }
  return out;
}

/** "budget 30 min, spent 27.4 min": the line before the open claims. */
function spentLine(budgetMs, spentMs) {
  return `budget ${fmtBudget(budgetMs)}, spent ${fmtMs(spentMs)}`;
}

/** The `budget` object of findings.json (and a run's summary): what was given, spent, planned, left open. */
function budgetRecord({ budgetMs, spentMs, plan, open }) {
  return {
    given: { ms: budgetMs, minutes: Number((budgetMs / MINUTE).toFixed(2)) },
    spent: { ms: spentMs, minutes: Number((spentMs / MINUTE).toFixed(2)) },
    plan: plan.map((r) => ({
      study: r.study,
      profile: r.profile,
      estimatedMinutes: Number(r.minutes.toFixed(2)),
      allottedMinutes: Number((r.allotMs / MINUTE).toFixed(2)),
    })),
    open: open.map((o) => ({ study: o.study, id: o.id, verdict: o.verdict, decidedBy: o.command, takes: o.takes })),
  };
}

module.exports = { fmtMinutes, fmtBudget, planTable, planLines, openClaims, openLines, spentLine, budgetRecord };
