'use strict';
// Study "joins" (source 002, the "cost of simulated joins" the 2013 post promised): the Node part
// of scripts/inserts_joins.js. Node adds the join with the Node driver and a Map, $lookup without
// an index in the classic engine (forced; only on a server the lab started, since the switch is
// server-wide), and the same join in PostgreSQL. The oracle joins the generated rows in plain JS.
const { defineStudy } = require('../../core/registry');
const lab = require('../../../scripts/lib/lab');
const G = require('../../../fixtures/inserts-gen');
const { ensureFixture } = require('../../infra/loader');
const { postgres } = require('../source-002/common');
const pgPeer = require('../source-002/pg-peer');
const { chartTime } = require('../../report/report');

const peer = { available: false, ownServer: false };

function colls(p) {
  return { orders: `${p.COLL}_orders`, customers: `${p.COLL}_customers` };
}

function* customers(p) {
  const next = G.rng(p.SEED);
  for (let i = 0; i < p.CUSTOMERS; i++) yield G.customerDoc(next, i);
}

function* orders(p) {
  const next = G.rng(p.SEED + 1);
  for (let i = 0; i < p.ORDERS; i++) yield G.orderDoc(next, i, p.CUSTOMERS);
}

const oracleCache = new Map();

function summarize(pairs) {
  const acc = {};
  for (const [region, cents] of pairs) G.joinSummaryAdd(acc, region, cents);
  return G.joinSummaryRows(acc);
}

// The times chart's bars: each variant's median, its engine and its plan's stage.
function timesValues(recs) {
  const kind = (v) =>
    v === 'pg-join'
      ? 'PostgreSQL'
      : v === 'client' || v === 'node-map'
        ? 'MongoDB, join in the client'
        : 'MongoDB, $lookup in the server';
  const engine = (r) => (r.plan ? ` · ${r.plan.stage}${r.plan.explainVersion === '2' ? ' (SBE)' : ''}` : '');
  return recs.map((r) => ({
    variant: r.variant,
    // the median and its 95 % interval (the default chart's whiskers); the label starts past both
    ...chartTime(r),
    end: chartTime(r).hi || r.median,
    kind: kind(r.variant),
    label: `${lab.fmtMs(r.median)}${engine(r)}`,
  }));
}

// The times chart: bars, their 95 % interval whiskers, and each time labelled past its whisker.
function timesLayers(order, lo, hi) {
  return [
    {
      mark: { type: 'bar' },
      encoding: {
        y: { field: 'variant', type: 'nominal', sort: order, title: null },
        x: {
          field: 'ms',
          type: 'quantitative',
          stack: null,
          scale: { type: 'log', domain: [lo, hi] },
          title: 'median time, ms (log)',
        },
        color: {
          field: 'kind',
          type: 'nominal',
          scale: { range: ['#332288', '#88CCEE', '#DDCC77'] },
          title: null,
          legend: { labelLimit: 400, orient: 'bottom' },
        },
      },
    },
    {
      transform: [{ filter: 'isValid(datum.lo)' }],
      mark: { type: 'errorbar', ticks: true, color: 'black' },
      encoding: {
        y: { field: 'variant', type: 'nominal', sort: order },
        x: {
          field: 'lo',
          type: 'quantitative',
          scale: { type: 'log', domain: [lo, hi] },
          title: 'median time, ms (log)',
        },
        x2: { field: 'hi' },
      },
    },
    {
      mark: { type: 'text', align: 'left', dx: 4 },
      encoding: {
        y: { field: 'variant', type: 'nominal', sort: order },
        x: { field: 'end', type: 'quantitative' },
        text: { field: 'label' },
      },
    },
  ];
}

async function lookupRows(ctx, p, on) {
  const c = colls(p);
  const foreign = on === '_id' ? '_id' : on === 'indexed' ? 'code' : 'alias';
  const local = on === '_id' ? 'cust' : 'custCode';
  const acc = {};
  const cur = ctx.db
    .collection(c.orders)
    .aggregate([
      { $project: { cust: 1, custCode: 1, cents: 1 } },
      { $lookup: { from: c.customers, localField: local, foreignField: foreign, as: 'c' } },
      { $project: { cents: 1, region: { $arrayElemAt: ['$c.region', 0] } } },
    ]);
  for await (const o of cur) G.joinSummaryAdd(acc, o.region, o.cents);
  return G.joinSummaryRows(acc);
}

// The commands a client could take a lock with (002-no-joins/table-locking: "it doesn't support
// table locking"): listCommands' client-facing names with "lock" in them, and whether any names a
// collection or table. On 6.0 they are fsyncUnlock (with fsync {lock: true}: the whole instance) and
// lockInfo (a diagnostic); a collection lock for a client would be a new name here.
async function lockCommands(ctx) {
  let cmds;
  try {
    cmds = Object.keys((await ctx.db.admin().command({ listCommands: 1 })).commands || {});
  } catch (e) {
    ctx.note(`table locking is not checked: listCommands failed (${e.message})`);
    return [];
  }
  // internal commands (a leading underscore: server-to-server) are not a client's; "block" is not a lock
  const lock = cmds.filter((c) => !c.startsWith('_') && /lock/i.test(c.replace(/block/gi, ''))).sort();
  const perCollection = lock.filter((c) => /coll|table/i.test(c));
  return [
    lab.measureRecord({
      study: 'joins',
      name: 'lock-commands',
      variant: 'listCommands',
      axis: { part: 'locks' },
      value: perCollection.length,
      unit: 'commands',
      what: 'commands that would lock one collection for a client (names with lock and coll/table)',
      extra: { commands: cmds.length, lock, perCollection },
    }),
  ];
}

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
    peer.ownServer = !!ctx.server.embedded;
    peer.available = !!(await postgres(ctx));
    if (peer.available) await pgPeer.loadJoin(ctx.pg, { orders: p.ORDERS, customers: p.CUSTOMERS, seed: p.SEED });
    return points;
  },

  /** The join in plain JavaScript over the generated rows. */
  oracle(p) {
    const key = `${p.ORDERS}/${p.CUSTOMERS}/${p.SEED}`;
    if (!oracleCache.has(key)) {
      const region = [];
      for (const c of customers(p)) region[c._id] = c.region;
      const pairs = [];
      for (const o of orders(p)) pairs.push([region[o.cust], o.cents]);
      oracleCache.set(key, summarize(pairs));
    }
    return oracleCache.get(key);
  },

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
      able: () => peer.ownServer || 'only on a mongod the lab started (the engine switch is server-wide)',
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
      able: (p, point, ctx) => peer.available || ctx.pgNote || 'PostgreSQL unavailable',
      async explain(ctx) {
        const r = await pgPeer.join(await postgres(ctx));
        return { stage: r.plan, explainVersion: 'sql' };
      },
      async run(ctx) {
        const r = await pgPeer.join(await postgres(ctx));
        return lab.took(r.ms, r.rows, { postgres: ctx.pg.version, plan: r.plan });
      },
    },
  ],

  claims: require('./claims'),
  practices: require('./practices'),

  // No pivot: one axis point, whose table already shows each variant's plan and engine.

  charts: [
    (records, env, doc) => {
      const recs = records.filter((r) => r.type === 'result' && !r.skipped);
      if (!recs.length) return null;
      const params = (doc && doc.params && doc.params.joins) || {};
      const values = timesValues(recs);
      const order = [...values].sort((a, b) => a.ms - b.ms).map((v) => v.variant);
      const lo = Math.min(...values.map((v) => v.lo || v.ms)) / 2;
      const hi = Math.max(...values.map((v) => v.end)) * 8;
      return {
        name: 'times',
        title: {
          text: 'Joins: every order joined to its customer, all rows to the client',
          subtitle: [
            `${lab.fmtInt(params.ORDERS || 0)} orders x ${lab.fmtInt(params.CUSTOMERS || 0)} customers; median of the rounds, whiskers: 95% interval; log scale`,
            `MongoDB ${env.server.version} standalone, PostgreSQL peer | ${env.host.cores} cores | ${env.startedAt.slice(0, 10)}`,
          ],
        },
        width: 560,
        height: 28 * values.length,
        data: { values },
        layer: timesLayers(order, lo, hi),
      };
    },
  ],
});
