'use strict';
// The joins study's data and its joins outside the variants' own code: the orders and customers
// as the seeded generator writes them, the join in plain JavaScript (the oracle), and the $lookup
// over a chosen foreign field.
const G = require('../../../fixtures/inserts-gen');

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

/** The join in plain JavaScript over the generated rows (cached per size and seed). */
function joinOracle(p) {
  const key = `${p.ORDERS}/${p.CUSTOMERS}/${p.SEED}`;
  if (!oracleCache.has(key)) {
    const region = [];
    for (const c of customers(p)) region[c._id] = c.region;
    const pairs = [];
    for (const o of orders(p)) pairs.push([region[o.cust], o.cents]);
    oracleCache.set(key, summarize(pairs));
  }
  return oracleCache.get(key);
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

module.exports = { colls, customers, orders, joinOracle, lookupRows };
