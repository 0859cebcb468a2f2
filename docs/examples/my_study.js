// Is my $lookup faster than my two finds? Two forms of the same question over my own collections.
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
    },
    {
      name: 'lookup',
      what: '$lookup the customer, then $group by region',
      run: function (p) {
        var rows = db.getCollection(p.ORDERS).aggregate([
          { $lookup: { from: p.CUSTOMERS, localField: 'cust', foreignField: '_id', as: 'c' } },
          { $group: { _id: { $ifNull: [{ $first: '$c.region' }, '(none)'] }, amount: { $sum: '$amount' } } },
        ]).toArray();
        var total = {};
        rows.forEach(function (r) { total[r._id] = r.amount; });
        return total;
      },
    },
  ],
};
lab.main(STUDY);
