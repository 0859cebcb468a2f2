'use strict';
// Study "joins" (source 002, the "cost of simulated joins" the 2013 post promised): the Node part
// of scripts/inserts_joins.js. Node adds the join with the Node driver and a Map, $lookup without
// an index in the classic engine (forced; only on a server the lab started, since the switch is
// server-wide), and the same join in PostgreSQL. The oracle joins the generated rows in plain JS.
const { defineStudy } = require('../../core/registry');
const LabHarness = require('../../../scripts/lib/harness');
const G = require('../../../fixtures/inserts-gen');
const { ensureFixture } = require('../../infra/loader');
const { postgres } = require('../source-002/common');
const sql = require('../sql-peer');
const pgPeer = require('../source-002/pg-peer');
const { colls, customers, orders, joinOracle, lookupRows } = require('./data');
const { lockCommands } = require('./locks');
const { timesChart } = require('./charts');

module.exports = defineStudy({
  name: 'joins',
  script: 'inserts_joins.js',
  writeUp: 'docs/studies/inserts.md#4-simulated-joins',
  profiles: {
    // For the test suite. test/inserts.test.js "joins: every variant ..." runs the 4,000 x 400 join
    // and checks each plan; here a quarter of it: the classic engine's unindexed nested loop (on an
    // embedded mongod only, so in `run all` and never in that test) examines orders x customers
    // documents, 16x fewer, and its answer is still checked against the oracle.
    tiny: { ORDERS: 1000, CUSTOMERS: 100, RUNS: 1, WARMUP: 0 },
    // 3 rounds: the fewest an interval is computed from. A 1.5 s budget times the classic engine's
    // unindexed nested loop (~2 s a run here, read by no claim's interval) by its warm-up run alone;
    // the client joins and PostgreSQL that 002-joins reads stay far below it.
    quick: { ORDERS: 10000, CUSTOMERS: 1000, RUNS: 3, BUDGET_MS: 1500 },
    // The scale: 100k orders x 10k customers. The classic engine's unindexed nested loop
    // (~3.5 min once, read by no claim's interval; 258x the hash join in docs/studies/joins.md) is
    // left out: --set VARIANTS= runs it.
    seed: {
      ORDERS: 100000,
      CUSTOMERS: 10000,
      RUNS: 3,
      BUDGET_MS: 30000,
      VARIANTS: 'client,lookup-id,lookup-indexed,lookup-unindexed,lookup-pipeline,node-map,pg-join',
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => Object.values(colls(p)),
  cli: { docs: 'ORDERS', runs: 'RUNS', seed: 'SEED' },
  peers: ['postgres'],
  expected: '~25 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected: '~1.5 min (measured 2026-11-27: 100,000 orders x 10,000 customers)',

  /** 002-no-joins/table-locking's functional check: the lock commands the server lists. */
  after: (ctx) => lockCommands(ctx),

  async load(ctx, p) {
    const c = colls(p);
    const f = await ensureFixture(
      ctx.db,
      c.orders,
      { fixture: `join-orders-${p.CUSTOMERS}`, n: p.ORDERS, seed: p.SEED + 1 },
      () => orders(p),
      { progress: ctx.progress },
    );
    await ensureFixture(
      ctx.db,
      c.customers,
      { fixture: 'join-customers', n: p.CUSTOMERS, seed: p.SEED },
      () => customers(p),
      { progress: ctx.progress },
    );
    await ctx.db.collection(c.customers).createIndex({ code: 1 });
    return { ...f, own: true, coll: c.orders };
  },

  async points(ctx, p, points) {
    const pg = await postgres(ctx);
    if (pg) await pgPeer.loadJoin(pg, { orders: p.ORDERS, customers: p.CUSTOMERS, seed: p.SEED });
    return points;
  },

  /** The join in plain JavaScript over the generated rows. */
  oracle: joinOracle,

  variants: [
    {
      name: 'node-map',
      what: 'Node driver: customers into a Map, orders streamed and joined in the client',
      minVersion: '2.0',
      async run(ctx, p) {
        const c = colls(p);
        const region = new Map();
        for await (const d of ctx.db.collection(c.customers).find({}, { projection: { region: 1 } }))
          region.set(d._id, d.region);
        const acc = {};
        for await (const o of ctx.db.collection(c.orders).find({}, { projection: { cust: 1, cents: 1 } }))
          G.joinSummaryAdd(acc, region.get(o.cust), o.cents);
        return G.joinSummaryRows(acc);
      },
    },
    {
      name: 'lookup-unindexed-classic',
      what: '$lookup on the unindexed field with the classic engine forced (internalQueryForceClassicEngine)',
      minVersion: '5.1',
      able: (p, point, ctx) =>
        !!(ctx && ctx.server.embedded) || 'only on a mongod the lab started (the engine switch is server-wide)',
      async explain(ctx, p) {
        return { stage: '$lookup (classic, nested loop)', explainVersion: '1' };
      },
      async run(ctx, p) {
        const admin = ctx.client.db('admin');
        await admin.command({ setParameter: 1, internalQueryForceClassicEngine: true });
        try {
          return await lookupRows(ctx, p, 'unindexed');
        } finally {
          await admin.command({ setParameter: 1, internalQueryForceClassicEngine: false });
        }
      },
    },
    {
      name: 'pg-join',
      what: 'PostgreSQL: SELECT region, cents FROM orders JOIN customers ON id, rows summed in the client',
      minVersion: '0',
      able: (p, point, ctx) => !!sql.of(ctx) || sql.note(ctx) || 'PostgreSQL unavailable',
      async explain(ctx) {
        const r = await pgPeer.join(await postgres(ctx));
        return { stage: r.plan, explainVersion: 'sql' };
      },
      async run(ctx) {
        const r = await pgPeer.join(await postgres(ctx));
        return LabHarness.took(r.ms, r.rows, { postgres: sql.of(ctx).version, plan: r.plan });
      },
    },
  ],

  claims: require('./claims'),
  practices: require('./practices'),

  // No pivot: one axis point, whose table already shows each variant's plan and engine.

  charts: [timesChart],
});
