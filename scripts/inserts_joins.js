// Simulated joins (source 002, "The Price of Data Coherency and the Cost of Simulated Joins",
// 2013: "how much slower is doing a simulated join in a scripting language compared to an
// optimized join in MySQL?", promised and never published), answered on today's server: the join
// in the client against $lookup, which MongoDB did not have in 2013 (3.2+).
//
// Every variant joins every order to its customer and sums orders and cents per customer region,
// with every joined row reaching the client (a join that returns rows, not a server-side total).
// The query engine decides the join strategy, so each $lookup's explainVersion and strategy
// (HashJoin, IndexedLoopJoin, NestedLoopJoin) is recorded beside its time.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/inserts_joins.js
//   mongosh "mongodb://host:port/perflab" --eval 'var ORDERS = 10000, CUSTOMERS = 1000' path/to/scripts/inserts_joins.js
// Parameters (set with --eval before the file; all optional):
//   ORDERS     orders to generate (default 100000)
//   CUSTOMERS  customers to generate (default 10000)
//   SEED       generator seed (default 1)
//   COLL       prefix: <COLL>_orders and <COLL>_customers (default perflab_join)
//   RUNS, WARMUP, BUDGET_MS, MIN_MS, VARIANTS, LAB_LINES   as every study (docs/contract.md)
//   KEEP       true keeps, in a database the lab did not make, the two collections it generated
//              there (default: dropped at the end; what is left is named with the command to remove it)

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/../fixtures/inserts-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/source-002/inserts-lab.mongosh.js');
load(__dirname + '/inserts_functions.js');

function joinColls(p) {
  return { orders: p.COLL + '_orders', customers: p.COLL + '_customers' };
}

// The join strategy of a $lookup from its explain: the slot-based engine's EQ_LOOKUP stage names
// it (HashJoin, IndexedLoopJoin, NestedLoopJoin); the classic engine runs $lookup as a
// document-at-a-time loop (one query on the foreign collection per order).
function joinPlan(explain) {
  var version = String(explain.explainVersion || '1');
  var found = null;
  (function walk(o) {
    if (found || !o || typeof o !== 'object') return;
    if (o.stage === 'EQ_LOOKUP') {
      found = o;
      return;
    }
    Object.keys(o).forEach(function (k) {
      walk(o[k]);
    });
  })(explain);
  if (found) return { stage: 'EQ_LOOKUP ' + (found.strategy || '?'), explainVersion: version };
  var stages = explain.stages || [];
  var hasLookup = stages.some(function (s) {
    return s.$lookup;
  });
  return { stage: hasLookup ? '$lookup (classic, per document)' : '?', explainVersion: version };
}

function lookupVariant(on, what) {
  return {
    name: 'lookup-' + (on === '_id' ? 'id' : on),
    what: what,
    minVersion: on === 'pipeline' ? '3.6' : '3.2',
    run: function (p) {
      var c = joinColls(p);
      return joinInServer(db.getCollection(c.orders), c.customers, on);
    },
    explain: function (p) {
      var c = joinColls(p);
      var out = db.runCommand({
        explain: {
          aggregate: c.orders,
          pipeline: [{ $project: { cust: 1, custCode: 1, cents: 1 } }, lookupStage(c.customers, on)],
          cursor: {},
        },
        verbosity: 'queryPlanner',
      });
      return joinPlan(out);
    },
  };
}

var STUDY = {
  name: 'joins',
  title: 'simulated joins: the join in the client vs $lookup (on _id, indexed, unindexed, pipeline) vs SQL',
  source: LabInsertsLab.source('The Price of Data Coherency and the Cost of Simulated Joins (Part 1)', 2013),
  params: {
    ORDERS: { kind: 'positive', def: 100000, what: 'orders to generate' },
    CUSTOMERS: { kind: 'positive', def: 10000, what: 'customers to generate' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'perflab_join', what: 'prefix of the two collections' },
    RUNS: { kind: 'count', def: 3, what: 'timed rounds after the warm-up' },
  },
  // Orders are the declared fixture; customers come in setup (a fixture is one collection).
  fixture: function (p) {
    return {
      coll: joinColls(p).orders,
      name: 'join-orders-' + p.CUSTOMERS,
      n: p.ORDERS,
      seed: p.SEED + 1,
      doc: function (next, i) {
        return LabInserts.orderDoc(next, i, p.CUSTOMERS);
      },
    };
  },
  setup: function (p) {
    var c = joinColls(p);
    var res = lab.ensureFixture(
      db,
      c.customers,
      { fixture: 'join-customers', n: p.CUSTOMERS, seed: p.SEED },
      LabInserts.customerDoc,
      { generate: lab.mayGenerate(p, c.customers, STUDY.params) }
    );
    if (res.own) db.getCollection(c.customers).createIndex({ code: 1 });
  },
  baseline: 'client',
  unit: 'ms',
  variants: [
    {
      name: 'client',
      what: "mongosh: customers into a map by _id, one pass over the orders (the source's simulated join)",
      minVersion: '2.0',
      run: function (p) {
        var c = joinColls(p);
        return joinInClient(db.getCollection(c.orders), db.getCollection(c.customers));
      },
    },
    lookupVariant('_id', '$lookup orders.cust -> customers._id'),
    lookupVariant('indexed', '$lookup orders.custCode -> customers.code (indexed)'),
    lookupVariant('unindexed', '$lookup orders.custCode -> customers.alias (no index)'),
    lookupVariant('pipeline', '$lookup with let + pipeline $match $expr $eq on _id'),
  ],
};

lab.main(STUDY);
