'use strict';
// The source's claims (002, the promised "cost of simulated joins"), judged on the joins study's records.
const lab = require('../../../scripts/lib/lab');
const { fx } = require('../../core/claims');

// The claim holds while the best $lookup is at least this many times faster than the client join.
const CLEARLY = 2;

module.exports = [
  {
    id: '002-joins', claim: 'a join simulated in a scripting language vs an optimized join in the database (promised, not published)',
    seedFigure: 'none published', setting: 'MongoDB 2.x (no $lookup) vs MySQL, Python',
    // The post promised "the cost of simulated joins" and published nothing; its premise: a
    // join simulated in the client (MongoDB 2.x had none) costs against an optimized join in the
    // database. MongoDB joins in the server since 3.2, so the rule asks it of MongoDB's own two
    // ways, at the same data: holds when the best $lookup is at least 2x faster than the client
    // join (the lab's "clearly faster"), changed when it is not. PostgreSQL's join is reported,
    // not compared: it says whether a SQL store joins faster, not whether to simulate the join.
    verdict(records) {
      const at = records.filter((r) => r.type === 'result' && !r.skipped);
      const get = (v) => at.find((r) => r.variant === v);
      const client = get('node-map') || get('client');
      if (!client) return { verdict: 'not-measurable', figure: '-', why: 'no client join ran' };
      const parts = ['client', 'node-map', 'lookup-id', 'lookup-indexed', 'lookup-unindexed', 'lookup-pipeline', 'lookup-unindexed-classic', 'pg-join']
        .map(get).filter(Boolean).map((r) => `${r.variant} ${lab.fmtMs(r.median)}${r.plan && r.plan.stage && r.plan.stage !== '?' ? ` (${r.plan.stage})` : ''}`);
      const best = at.filter((r) => /^lookup-/.test(r.variant)).reduce((a, b) => (!a || b.median < a.median ? b : a), null);
      if (!best) return { verdict: 'not-measurable', figure: parts.join(', '), why: 'no $lookup ran: nothing in the server to compare the client join with' };
      const pg = get('pg-join');
      const speedup = client.median / best.median; // how many times faster the server's best join is
      const engine = 'the engine decides: the slot-based engine hash-joins an unindexed field, the classic engine loops per document (pipeline form, or forced)';
      const pgWhy = pg ? `; PostgreSQL's ${pg.plan ? pg.plan.stage : 'join'} took ${lab.fmtMs(pg.median)} (${fx(client.median / pg.median)} faster than the client join)` : '';
      if (speedup >= CLEARLY) {
        return { verdict: 'holds', figure: parts.join(', '),
          why: `the best $lookup (${best.variant}) is ${fx(speedup)} faster than the client join (${client.variant}): simulating the join in the client still costs; ${engine}${pgWhy}` };
      }
      return {
        verdict: 'changed',
        figure: parts.join(', '),
        why: `MongoDB joins in the server now ($lookup, 3.2+); the client join (${client.variant}) ` +
          (speedup <= 1 ? `is ${(1 / speedup).toFixed(1)}x faster than the best $lookup (${best.variant})` : `is only ${(speedup).toFixed(1)}x slower than the best $lookup (${best.variant})`) +
          ` when every joined row goes to the client; ${engine}${pgWhy}`,
      };
    },
  },
];
