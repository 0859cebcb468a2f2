// Is my $lookup faster than my two finds? Two forms of the same question over my own collections.
// Each `what` that says "collection" names a collection the run reads: missing or empty, the run is
// refused (a typo would otherwise time two forms of reading nothing).
function regionPipeline(p) {
  return [
    { $lookup: { from: p.CUSTOMERS, localField: 'cust', foreignField: '_id', as: 'c' } },
    { $group: { _id: { $ifNull: [{ $first: '$c.region' }, '(none)'] }, amount: { $sum: '$amount' } } },
  ];
}

var STUDY = {
  name: 'my-orders',
  title: 'orders with their customer: $lookup vs two finds',
  params: {
    ORDERS: { kind: 'name', def: 'orders', what: 'the orders collection' },
    CUSTOMERS: { kind: 'name', def: 'customers', what: 'the customers collection' },
  },
  baseline: 'two-finds',
  variants: [
    {
      name: 'two-finds',
      what: 'find the orders, then their customers with $in, joined in the client',
      run: function (p) {
        var orders = db.getCollection(p.ORDERS).find({}, { cust: 1, amount: 1 }).toArray();
        var ids = orders.map(function (o) { return o.cust; });
        var names = {};
        db.getCollection(p.CUSTOMERS).find({ _id: { $in: ids } }, { region: 1 }).forEach(function (c) { names[String(c._id)] = c.region; });
        var total = {};
        orders.forEach(function (o) { var r = names[String(o.cust)] || '(none)'; total[r] = (total[r] || 0) + o.amount; });
        return total;
      },
      // explain (run once, untimed): its executionStats become the plan column (stages, indexes,
      // keys and documents examined, documents returned); a list of explains for several queries
      explain: function (p) {
        var ids = db.getCollection(p.ORDERS).distinct('cust');
        return [
          db.getCollection(p.ORDERS).find({}, { cust: 1, amount: 1 }).explain('executionStats'),
          db.getCollection(p.CUSTOMERS).find({ _id: { $in: ids } }, { region: 1 }).explain('executionStats'),
        ];
      },
    },
    {
      name: 'lookup',
      what: '$lookup the customer, then $group by region',
      run: function (p) {
        var rows = db.getCollection(p.ORDERS).aggregate(regionPipeline(p)).toArray();
        var total = {};
        rows.forEach(function (r) { total[r._id] = r.amount; });
        return total;
      },
      // for an aggregation the plan also names the $lookup strategy (SBE: HashJoin,
      // IndexedLoopJoin, NestedLoopJoin) and the engine that ran it
      explain: function (p) {
        return db.getCollection(p.ORDERS).explain('executionStats').aggregate(regionPipeline(p));
      },
    },
  ],
};
lab.main(STUDY);
