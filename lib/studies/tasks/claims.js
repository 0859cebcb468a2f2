'use strict';
// The source's claims (002, part 1 of a 2012 blog series: a database as a passive task scheduler),
// judged on the tasks study's records. The source: N processes on the 54-core cluster take tasks
// from a MySQL table or a MongoDB collection; the post shows the queries and stops ("To be
// continued"); the task count is not stated (a 512 matrix gives 262,144 row/column pairs).
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  intervalOf,
  results,
  fx,
  pct,
  VERDICT,
  KIND,
  LABEL,
  quietCores,
  question,
  unmeasured,
  parts,
} = require('../../core/claims');

/** A question measured without a verdict: no bands printed (a question has no holds or REVERSED to reach). */
function asQuestion(measured) {
  const fn = question(measured);
  delete fn.bands;
  return fn;
}

const SETTING =
  'N worker processes on 54 cores taking tasks from MySQL or MongoDB 2.x; task count not stated (a 512 matrix: 262,144 pairs)';
const SOURCE_K = 262144;

// The MongoDB ways of picking a random unprocessed task other than skip(R), as the why names them.
const ALTERNATIVES = {
  'random-field': 'a random indexed field',
  'sample-first': '$sample first',
  'match-sample': '$match + $sample',
};

/**
 * A claim the lab does not measure in the source's terms, with the nearest measurement shown beside
 * (never a verdict): not measured, `here` what is missing, `measure` what would measure it.
 */
function besideOnly({ here, measure }, measured) {
  return (records, env, params) => {
    const m = measured(records, env, params);
    return {
      verdict: VERDICT.NOT_MEASURED,
      figure: m.figure || null,
      interval: m.interval || null,
      setting: { needed: null, here, ok: null },
      // a refusal's reason already opens with its word ("not reproduced here: ..."): not printed twice
      why: `not measured here: ${here}; what would measure it: ${measure}; beside, not a verdict: ${m.why.startsWith(LABEL[m.verdict]) ? m.why : `${LABEL[m.verdict]}, ${m.why}`}`,
    };
  };
}

/** Wilson's 95 % interval of a proportion x/n. */
function proportion(x, n) {
  const z = 1.96;
  const p = x / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { mid: p, lo: Math.max(0, c - h), hi: Math.min(1, c + h), n, method: 'wilson' };
}

function tasksScale(records, env, params) {
  const n = params && params.N;
  return n && n < SOURCE_K
    ? `${lab.fmtInt(n)} tasks here; the source's queue was at least a 512 matrix's ${lab.fmtInt(SOURCE_K)} pairs: tasks --profile seed`
    : null;
}

module.exports = [
  ...parts(
    {
      id: '002-few-collisions',
      claim: 'random picking of K tasks by N workers',
      published: 'no figure',
      quote:
        '"Given N processes and K tasks, where K >> N, collision is minimal. For some algorithms where K strictly decreases over time, this approach increases redundant computations when K is close or smaller than N."',
      derivation:
        'no figure. Random picks: while a task executes, each of the other N - 1 workers picks one of the K unprocessed tasks at random, so a pick lands on a running task with a chance of about (N - 1)/K: 0.1 % at K/N = 1,000, about 50 % at K = 2N and above 100 % (every pick collides) once K < N',
      setting: SETTING,
    },
    [
      {
        id: 'minimal',
        claim: 'with K far more than N, workers rarely collide on a task',
        quote: '"Given N processes and K tasks, where K >> N, collision is minimal."',
        boundary:
          "not measured in the source's terms: its collision is two workers executing the same task (a random unprocessed pick, the task's execution, then 'mark processed': the window is the whole task), which the lab does not run. What would: that workflow with a simulated execution time, tasks executed more than once per task (Wilson 95 % interval) at K/W >= 1,000, divided by the random-pick chance (W - 1)/K (the derivation); one-sided: holds at or below 1.25x that chance (the ledger's one-sided margin: 0.125 % at K/W = 1,000), FAILS above. Beside, not judged: today's atomic claim (findOneAndUpdate from random starting points), its write conflicts per claim against the same chance (gate: W + 1 cores no other work wanted), where a conflict costs a retry and never a task done twice",
        verdict: besideOnly(
          {
            here: "the lab's workers claim atomically (findOneAndUpdate), so no task is executed twice: the source's non-atomic pick-execute-mark workflow is not run",
            measure:
              'W workers each picking a random unprocessed task (find({processed: 0}).skip(R)), sleeping a simulated execution time, then marking it processed; tasks executed more than once / tasks at K/W >= 1,000, against (W - 1)/K',
          },
          rule({
            // "minimal": at most 1.25x (the ledger's one-sided margin) the random-pick chance (W - 1)/K
            holds: [0, 1.25],
            floor: 0,
            kind: KIND.ONE_SIDED,
            above: VERDICT.FAILS,
            fmt: fx,
            // W workers racing for tasks: a contention claim, judged only on cores no other work wanted
            setting: {
              needed:
                'W workers claiming at once (the source: N processes on 54 cores), a core each and the server one',
              check: (records, env, params) => {
                const rs = results(records).filter((x) => x.variant === 'claim-random' && x.extra && x.extra.W > 1);
                const w = rs.reduce((m, x) => Math.max(m, x.extra.W), 1);
                const st = quietCores({ needed: 'W workers' }, () => rs, { cores: w + 1 }).check(records, env, params);
                return st.ok || !st.reproduce
                  ? st
                  : {
                      ...st,
                      reproduce: st.reproduce.replace(
                        /^the same command/,
                        'node bin/mongo-perf-lab.js run tasks --profile seed',
                      ),
                    };
              },
            },
            more: 'more claims (CLAIM_N) or repeated runs',
            scale: (records) => {
              const r = results(records).filter((x) => x.variant === 'claim-random' && x.extra && x.extra.W > 1);
              const best = r.reduce((a, b) => (!a || b.extra.W > a.extra.W ? b : a), null);
              return best && best.answer.claimed / best.extra.W < 1000
                ? `K/W = ${lab.fmtInt(Math.round(best.answer.claimed / best.extra.W))} here, the claim needs K >> N (>= 1,000 tasks per worker): tasks --profile seed`
                : null;
            },
            interval: (records) => {
              const ran = results(records).filter((x) => x.variant === 'claim-random' && x.extra && x.extra.W > 1);
              const rs = ran.filter((x) => typeof x.extra.writeConflicts === 'number');
              if (!rs.length) {
                const why = ran.map((x) => x.extra.conflictsWhy).find(Boolean);
                return { iv: null, missing: why || 'the claim part did not run with W > 1' };
              }
              const r = rs.reduce((a, b) => (b.extra.W > a.extra.W ? b : a));
              const p = proportion(r.extra.writeConflicts, r.answer.claimed);
              // against the random-pick chance (W - 1)/K (the derivation), K the tasks claimed
              const chance = (r.extra.W - 1) / r.answer.claimed;
              const iv = { ...p, mid: p.mid / chance, lo: p.lo / chance, hi: p.hi / chance };
              const first = results(records).find((x) => x.variant === 'claim-first' && x.axis.W === r.axis.W);
              return {
                iv,
                figure: `${pct(p.mid)} write conflicts per claim (95% CI ${pct(p.lo)} to ${pct(p.hi)}), ${fx(iv.mid)} of the random-pick chance (W - 1)/K = ${pct(chance)}, W=${r.extra.W}, K=${lab.fmtInt(r.answer.claimed)}`,
                note: `${first && first.extra && typeof first.extra.writeConflicts === 'number' ? `all going for the first task instead: ${pct(first.extra.writeConflicts / first.answer.claimed)}; ` : ''}each claim is an atomic findOneAndUpdate, so no task was claimed twice (${r.answer.double === 0 && r.answer.lost === 0 ? 'checked' : 'DOUBLE CLAIMS OR LOSSES'})`,
              };
            },
          }),
        ),
        mechanism: {
          why: "WiredTiger has document-level concurrency: two workers updating the same task conflict (a WriteConflict, retried inside the server for a single-document update, so the lab counts the conflicts the server reports), and the loser finds the task taken: with an atomic claim a conflict costs a retry, never a task done twice; the source's non-atomic workflow paid its collisions as redundant executions",
          ref: 'https://www.mongodb.com/docs/manual/core/wiredtiger/',
        },
      },
      {
        id: 'near-n',
        claim: 'when the tasks left (K) come close to the workers (N), random picking makes redundant work',
        quote:
          '"For some algorithms where K strictly decreases over time, this approach increases redundant computations when K is close or smaller than N."',
        boundary:
          'not measured (directional): tasks executed more than once per task in the same pick-execute-mark workflow at K/W <= 2, over the same at K/W >= 1,000, as a ratio with its interval: holds above 1.25x (by the random-pick chance (W - 1)/K the ratio is about 500x: 50 % against 0.1 %), no effect inside [0.8x, 1.25x], REVERSED below. With an atomic findOneAndUpdate a collision costs a retry, never a task done twice',
        verdict: unmeasured({
          here: "the tasks study's claim part starts every run with K >> W (K/W >= 1,000 at the seed profile's scale), does not time the tail where K nears W apart, and claims atomically (no task is executed twice)",
          measure:
            'the pick-execute-mark workflow (random pick, simulated execution, mark) at K/W <= 2 beside K/W >= 1,000, redundant executions per task of the two compared; the nearest the lab has: tasks --set CLAIM_N=8 --set WRITERS=4 (K/W = 2) beside the default, atomic conflicts per claim',
        }),
        mechanism: {
          why: 'as K falls towards N the chance (N - 1)/K that a random pick lands on a task another worker is executing rises towards 1: a non-atomic pick-execute-mark pays each collision as a task executed twice; an atomic claim (findOneAndUpdate) pays it as a retry',
          ref: 'https://www.mongodb.com/docs/manual/reference/method/db.collection.findOneAndUpdate/',
        },
      },
    ],
  ),
  {
    id: '002-random-pick',
    claim:
      'pick a random unprocessed task with find({processed: 0}).skip(R).limit(1) (a question: no figure published)',
    published: 'no figure (the post stops at the queries)',
    quote:
      '"In this comparison, I measure the time it takes to fetch a random row in MySQL and a random record in MongoDB." and "To be continued."',
    derivation: 'none; skip(R) walks R entries (O(R)), in 2012 as now',
    setting: SETTING,
    boundary:
      "a question, measured without a verdict (no figure was published, and skip(R) walked R entries in 2012 as now), in the source's terms: time per pick of MongoDB's skip(R) (the faster of a scan and the index) / PostgreSQL's OFFSET R (MySQL's stand-in), same queue, with its interval; today's MongoDB alternatives ($sample, a random indexed field) beside, against skip(R)",
    verdict: asQuestion(
      rule({
        holds: [0, 2],
        floor: 0,
        above: VERDICT.WEAKER,
        scale: tasksScale,
        interval: (records) => {
          const at = results(records).filter((r) => r.axis.part === 'pick');
          const per = (v) => {
            const r = at.find((x) => x.variant === v);
            return r ? r.median / r.answer.picks : null;
          };
          const skip = ['skip-scan', 'skip-index']
            .filter((v) => per(v) !== null)
            .reduce((a, v) => (!a || per(v) < per(a) ? v : a), null);
          const alt = Object.keys(ALTERNATIVES)
            .filter((v) => per(v) !== null)
            .reduce((a, v) => (!a || per(v) < per(a) ? v : a), null);
          if (!skip || !alt) return { iv: null, missing: 'needs skip(R) and an alternative pick' };
          const parts = ['skip-scan', 'skip-index', 'sample-first', 'match-sample', 'random-field', 'pg-offset']
            .filter((v) => per(v) !== null)
            .map((v) => `${v} ${lab.fmtMs(per(v))}/pick`);
          const ci = (x) => (x.lo === null ? '' : ` (95% CI ${fx(x.lo)} to ${fx(x.hi)})`);
          const vsAlt = intervalOf(at, skip, alt);
          const besideAlt = `beside, today's alternatives: ${skip} / ${alt} ${fx(vsAlt.mid)}${ci(vsAlt)}`;
          // The source's comparison: a random row from MySQL (OFFSET) against a random record from MongoDB (skip).
          if (per('pg-offset') !== null) {
            const iv = intervalOf(at, skip, 'pg-offset');
            return {
              iv,
              figure: `MongoDB ${skip} / PostgreSQL OFFSET ${fx(iv.mid)}${ci(iv)}; ${besideAlt}; ${parts.join(', ')}`,
              note: `fastest alternative: ${ALTERNATIVES[alt]}; picking is not claiming: findOneAndUpdate makes the pick an atomic claim`,
            };
          }
          return {
            iv: vsAlt,
            figure: `PostgreSQL did not run (the source's comparison: skip against OFFSET); ${besideAlt}; ${parts.join(', ')}`,
            note: `fastest alternative: ${ALTERNATIVES[alt]}; picking is not claiming: findOneAndUpdate makes the pick an atomic claim`,
          };
        },
      }),
    ),
  },
];
