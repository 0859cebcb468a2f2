#!/usr/bin/env node
'use strict';
// What a seed-scale run would take under other settings, replayed on the rounds a real run recorded
// (issue #37 item 3): every cut to the seed profile is justified by numbers from records, not hopes.
//
//   node tools/seed-estimate.js [results.json] [--set STUDY:KEY=V,...] [--points] [--mode point]
//
// For each study it reads the timed work (the sum of every timed record's times) and the warm-up
// work (the sum of their warm-ups); the rest of the study's minutes (progress.times: data, the
// `after` step, measures outside the harness, overheads) stays as it was. A setting replays the
// recorded rounds through the sequential rule (docs/sequential-rounds.md):
//   MAX_RUNS=M   sequential rounds from the profile's RUNS to M, Bonferroni over the looks. By
//                default each variant stops on its own once its interval to the baseline is clear
//                of the boundaries (per-variant stopping; the baseline runs as long as the longest
//                variant); --mode point stops a point only when every variant is decided. A variant
//                still open after its recorded rounds is charged its median time per round to M.
//   WARMUP=W     at most W warm-up runs per variant (0: none).
//   RUNS=R       at least R rounds (only fewer than recorded is replayed).
//   SKIP=a|b     leave these points out (a point named by its axis, e.g. batch=1).
//   DROP=v|v@p   leave these variants out: everywhere, or at one point (client-chunked@batch=1000000);
//                the baseline of a point cannot be dropped (its ratios are the point's).
// --verdicts judges every claim on the records as recorded and as replayed (each variant's times
// cut to its replayed rounds, its interval at the sequential level) and lists the verdicts that
// differ: a setting is safe when none does but inconclusive -> decided. A variant the replay would
// time beyond its recorded rounds keeps its recorded times (counted as "beyond the records").
// --since adds, per study, the minutes its profile has gained since the recorded run (SINCE below,
// each with its reason); --no-since leaves them out.
const fs = require('fs');
const path = require('path');
const stats = require('../scripts/lib/stats');

const ROOT = path.join(__dirname, '..');
const DEFAULT = path.join(ROOT, 'docs/data/seed-run/column-1/results.json');
const ALPHA = 0.05;

// Minutes each study's seed profile gained (or lost) since the documented run (2026-11-27, 112.8 min)
// that its records cannot replay: new variants, passes, runs and after steps. Cuts the records can
// replay are settings (--set), not here: mapreduce RUNS=4,MAX_RUNS=5,DROP=client-chunked@batch=1000000;
// inserts and tasks SKIP their left-out points
// (docs/journal/seed-time-2026-11-29.md gives the whole command).
const SINCE = {
  timeseries: { min: 25.2, why: 'PASSES 3 (#34 item 5): the states three times, ~50 min' },
  where: {
    min: 10.5,
    why: '$where timed in 3 rounds, no warm-up (BUDGET_MS 1 h, WARMUP 0): 3 x 232 s on two idle cores of the EPYC, 4-12 min',
  },
  mapreduce: {
    min: 1.0,
    why: 'mr-parallel, py-client-acc and py-client-parallel at 10^6 (~8 s a round), PyMongo below',
  },
  inserts: { min: 3.2, why: 'the PyMongo writers: 6.4 of ~25 min on the EPYC (2026-11-28), x9.6/19.0 for the Xeon' },
  coherency: { min: 1.1, why: 'check-then-insert-w0 at the default cell: one race, at most the w:1 race (65 s)' },
  counters: { min: -1.4, why: 'REPLSET off: the replica set sweep (10,000 writes a setting at its rates, the start)' },
};

function fail(msg) {
  process.stderr.write(`seed-estimate: ${msg}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const o = { file: DEFAULT, set: {}, points: false, mode: 'variant', since: true, verdicts: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--points') o.points = true;
    else if (a === '--verdicts') o.verdicts = true;
    else if (a === '--no-since') o.since = false;
    else if (a === '--mode') {
      o.mode = argv[++i];
      if (!['point', 'variant'].includes(o.mode)) fail(`--mode: expected point or variant, got ${o.mode}`);
    } else if (a === '--set') parseSet(argv[++i] || '', o.set);
    else if (a.startsWith('--')) fail(`unknown option ${a} (options: --set, --points, --mode, --no-since, --verdicts)`);
    else o.file = a;
  }
  return o;
}

// "mapreduce:MAX_RUNS=9,WARMUP=0" (a study, or * for every study) into set[study][KEY] = value.
function parseSet(text, set) {
  const m = /^([\w*-]+):(.+)$/.exec(text);
  if (!m) fail(`--set: expected STUDY:KEY=V[,KEY=V], e.g. mapreduce:MAX_RUNS=9, got "${text}"`);
  const to = (set[m[1]] = set[m[1]] || {});
  for (const kv of m[2].split(',')) {
    const at = kv.indexOf('=');
    const k = at < 0 ? kv : kv.slice(0, at);
    const v = at < 0 ? undefined : kv.slice(at + 1);
    if (!['MAX_RUNS', 'WARMUP', 'RUNS', 'SKIP', 'DROP'].includes(k) || v === undefined)
      fail(`--set: unknown setting "${kv}" (MAX_RUNS, WARMUP, RUNS, SKIP, DROP)`);
    to[k] = k === 'SKIP' || k === 'DROP' ? v.split('|') : Number(v);
  }
}

const sum = (xs) => xs.reduce((a, x) => a + x, 0);
const axisText = (axis) =>
  Object.entries(axis || {})
    .map(([k, v]) => `${k}=${v}`)
    .join(' ') || '-';

// Whether the interval of the first k per-round ratios is clear of every boundary (the harness's
// holdsOpen, replayed): too few rounds or too wide an interval stays open.
function decidedAt(ratios, k, level, boundaries) {
  const iv = stats.ratioInterval(ratios.slice(0, k), level);
  if (iv.lo === null || iv.hi / iv.lo > stats.MAX_SPAN) return false;
  return !boundaries.some((x) => iv.lo <= x && x <= iv.hi);
}

// The rounds each variant of a point would run: { variant: k } under R, M; null M keeps them.
function replayRounds(recs, base, s) {
  const n = base.times.length;
  const out = {};
  const R = Math.min(s.RUNS || n, n);
  if (!(s.MAX_RUNS > R)) {
    for (const r of recs) out[r.variant] = r.capped ? 0 : Math.min(r.times.length, s.RUNS || r.times.length);
    return out;
  }
  const M = s.MAX_RUNS;
  const level = 1 - ALPHA / (M - stats.MIN_ROUNDS + 1);
  const bounds = [1 / stats.NO_DIFFERENCE, stats.NO_DIFFERENCE].concat(s.boundaries || []);
  let longest = R;
  for (const r of recs) {
    if (r === base) continue;
    if (r.capped || base.capped || r.times.length !== n) {
      // no per-round ratio to replay: the variant runs its recorded rounds
      out[r.variant] = r.capped ? 0 : r.times.length;
      continue;
    }
    const ratios = r.times.map((t, i) => t / base.times[i]).filter((x) => x > 0 && Number.isFinite(x));
    const open = r.agrees === false || ratios.length !== r.times.length ? false : null;
    let k = null;
    if (open === false) k = R;
    else
      for (let j = Math.max(R, stats.MIN_ROUNDS); j <= Math.min(M, ratios.length) && k === null; j++) {
        if (decidedAt(ratios, j, level, bounds)) k = j;
      }
    if (k === null) k = M; // still open after its recorded rounds: to the cap
    out[r.variant] = Math.max(k, R);
    longest = Math.max(longest, out[r.variant]);
  }
  out[base.variant] = base.capped ? 0 : longest;
  if (s.mode === 'point') for (const v of Object.keys(out)) if (out[v] > 0) out[v] = longest;
  return out;
}

// A record's timed work for k rounds: its recorded times, then its median per round beyond them.
function timedWork(r, k) {
  if (r.capped) return 0;
  const t = r.times;
  if (k <= t.length) return sum(t.slice(0, k));
  return sum(t) + (k - t.length) * stats.median(t);
}

function warmWork(r, w) {
  const warm = r.warmup || [];
  return sum(warm.slice(0, w === undefined ? warm.length : w));
}

// Whether DROP leaves a variant out at a point: "v" everywhere, "v@point" at that point only.
function dropped(s, variant, point) {
  return (s.DROP || []).some((d) => {
    const at = d.indexOf('@');
    return at < 0 ? d === variant : d.slice(0, at) === variant && d.slice(at + 1) === point;
  });
}

/** Per point of one study: recorded and replayed timed and warm-up work (ms). */
function studyPoints(results, study, s) {
  const byPoint = new Map();
  for (const r of results) {
    if (r.study !== study || r.type !== 'result' || !Array.isArray(r.times)) continue;
    const k = axisText(r.axis);
    if (!byPoint.has(k)) byPoint.set(k, []);
    byPoint.get(k).push(r);
  }
  const rows = [];
  for (const [point, recs] of byPoint) {
    const baseName = (recs.find((r) => r.ratio && r.ratio.to) || {}).ratio;
    const base = recs.find((r) => baseName && r.variant === baseName.to) || recs[0];
    const skip = (s.SKIP || []).includes(point);
    const drop = new Set(recs.filter((r) => r !== base && dropped(s, r.variant, point)).map((r) => r.variant));
    const rounds = replayRounds(
      recs.filter((r) => !drop.has(r.variant)),
      base,
      s,
    );
    const row = { point, variants: recs.length, timed: 0, warm: 0, newTimed: 0, newWarm: 0, rounds: base.times.length };
    row.newRounds = Math.max(...Object.values(rounds));
    for (const r of recs) {
      row.timed += r.capped ? 0 : sum(r.times);
      row.warm += warmWork(r);
      if (skip || drop.has(r.variant)) continue;
      row.newTimed += timedWork(r, rounds[r.variant]);
      row.newWarm += warmWork(r, s.WARMUP);
    }
    row.replay = { recs: recs.filter((r) => !drop.has(r.variant)), base, rounds, skip };
    rows.push(row);
  }
  return rows;
}

function estimate(data, o) {
  const times = (data.progress && data.progress.times) || {};
  const studies = (data.progress && data.progress.studies) || Object.keys(times);
  return studies.map((study) => {
    const s = { mode: o.mode, ...(o.set['*'] || {}), ...(o.set[study] || {}) };
    const points = studyPoints(data.results, study, s);
    const timed = sum(points.map((p) => p.timed));
    const warm = sum(points.map((p) => p.warm));
    const total = times[study] ? times[study].totalMs : timed + warm;
    const since = o.since && SINCE[study] ? SINCE[study].min * 60000 : 0;
    const after = sum(points.map((p) => p.newTimed + p.newWarm));
    return {
      study,
      s,
      points,
      timed,
      warm,
      total,
      since,
      other: total - timed - warm,
      predicted: total - timed - warm + after + since,
    };
  });
}

const min = (ms) => (ms / 60000).toFixed(1);
const pad = (x, n, left) => (left ? String(x).padEnd(n) : String(x).padStart(n));

function settingText(s) {
  const parts = [];
  if (s.RUNS) parts.push(`RUNS ${s.RUNS}`);
  if (s.MAX_RUNS) parts.push(`MAX ${s.MAX_RUNS}${s.mode === 'point' ? ' pt' : ''}`);
  if (s.WARMUP !== undefined) parts.push(`WARM ${s.WARMUP}`);
  if (s.SKIP) parts.push(`-${s.SKIP.length}pt`);
  if (s.DROP) parts.push(`-${s.DROP.length}var`);
  return parts.join(' ') || 'as recorded';
}

function render(rows, o) {
  const out = [];
  const head = ['study', 'timed', 'warm', 'other', 'since', 'recorded', 'setting', '-> timed', 'warm', 'predicted'];
  const w = [11, 6, 5, 6, 6, 8, 22, 8, 5, 9];
  out.push(`minutes, replayed on ${path.relative(process.cwd(), o.file) || o.file}`);
  out.push(head.map((h, i) => pad(h, w[i], i === 0 || i === 6)).join(' '));
  for (const r of rows) {
    const nt = sum(r.points.map((p) => p.newTimed));
    const nw = sum(r.points.map((p) => p.newWarm));
    const cells = [
      r.study,
      min(r.timed),
      min(r.warm),
      min(r.other),
      min(r.since),
      min(r.total + r.since),
      settingText(r.s),
      min(nt),
      min(nw),
      min(r.predicted),
    ];
    out.push(cells.map((c, i) => pad(c, w[i], i === 0 || i === 6)).join(' '));
    if (o.points)
      for (const p of r.points)
        out.push(
          `  ${pad(p.point, 26, true)} ${pad(p.variants, 2)} variants ${pad(p.rounds, 2)} -> ${pad(p.newRounds, 2)} rounds` +
            `  timed ${pad(min(p.timed), 5)} -> ${pad(min(p.newTimed), 5)}  warm ${pad(min(p.warm), 4)} -> ${pad(min(p.newWarm), 4)}`,
        );
  }
  const total = sum(rows.map((r) => r.total + r.since));
  const pred = sum(rows.map((r) => r.predicted));
  out.push(
    `${pad('total', 11, true)} ${pad('', 27)} ${pad(min(total), 8)} ${pad('', 22)} ${pad('', 14)} ${pad(min(pred), 9)}`,
  );
  if (o.since)
    for (const [k, v] of Object.entries(SINCE))
      if (rows.some((r) => r.study === k)) out.push(`since: ${k} ${v.min >= 0 ? '+' : ''}${v.min} min: ${v.why}`);
  return out.join('\n');
}

// A point's records as the replayed setting would have written them: each variant's times cut to
// its rounds, its ratio to the baseline recomputed at the sequential level the records would carry.
function replayedRecords(row, s) {
  const { recs, base, rounds, skip } = row.replay;
  if (skip) return { recs: [], beyond: 0 };
  const seq = s.MAX_RUNS > (s.RUNS || 0) ? stats.MIN_ROUNDS : 0;
  const looks = seq ? s.MAX_RUNS - stats.MIN_ROUNDS + 1 : 0;
  const level = looks ? 1 - ALPHA / looks : undefined;
  let beyond = 0;
  const cut = (r) => (r.capped || !(rounds[r.variant] > 0) ? r.times : r.times.slice(0, rounds[r.variant]));
  const baseTimes = cut(base);
  const out = recs.map((r) => {
    if (rounds[r.variant] > r.times.length) beyond++;
    const times = cut(r);
    const rec = { ...r, ...stats.summarize(times), times, runs: times.length, rounds: times.length };
    if (r.ratio && r.ratio.to)
      rec.ratio = stats.ratioOf(times, baseTimes, !!(r.capped || base.capped), r.ratio.to, level);
    if (level) rec.sequential = { level, looks, rule: 'bonferroni-rci' };
    return rec;
  });
  return { recs: out, beyond };
}

// Every claim judged on the recorded and on the replayed records: the verdicts that differ.
function verdictChanges(data, rows) {
  const claims = require('../lib/core/claims');
  const { studies } = require('../lib/studies');
  const replayed = data.results.filter((r) => r.type !== 'result' || !Array.isArray(r.times));
  let beyond = 0;
  for (const row of rows)
    for (const p of row.points) {
      const x = replayedRecords(p, row.s);
      beyond += x.beyond;
      replayed.push(...x.recs);
    }
  const lines = [];
  let same = 0;
  for (const e of studies) {
    if (!rows.some((r) => r.study === e.name)) continue;
    const before = claims.judge(e, data.results, data.environment, data.params);
    const after = claims.judge(e, replayed, data.environment, data.params);
    before.forEach((b, i) => {
      const a = after[i];
      if (a.verdict === b.verdict) same++;
      else {
        const ok = b.verdict === claims.VERDICT.INCONCLUSIVE ? 'ok' : 'CHANGED';
        lines.push(`  ${ok.padEnd(7)} ${b.id}: ${b.verdict} -> ${a.verdict} (${a.figure === null ? '-' : a.figure})`);
      }
    });
  }
  const head = `verdicts: ${same} the same, ${lines.length} differ; ${beyond} variants replayed beyond their records`;
  return [head, ...lines].join('\n');
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  let data;
  try {
    data = JSON.parse(fs.readFileSync(o.file, 'utf8'));
  } catch (e) {
    fail(`cannot read ${o.file}: ${e.message} (give a result file written by run or findings)`);
  }
  if (!data || !Array.isArray(data.results)) fail(`${o.file}: not a result file (no "results" list)`);
  const rows = estimate(data, o);
  process.stdout.write(`${render(rows, o)}\n`);
  if (o.verdicts) process.stdout.write(`${verdictChanges(data, rows)}\n`);
}

if (require.main === module) main();

module.exports = { estimate, replayRounds, parseSet };
