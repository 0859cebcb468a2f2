// Shell-side helpers of study 002's scripts (inserts_*.js): scratch collections the lab owns, and
// list parameters. Plain ES2017; needs lab.js loaded first.

var insLab = (function () {
  // A scratch collection is emptied before every timed run. It must be the lab's: either absent,
  // or marked in <db>.perflab_fixtures as scratch. A collection of the same name that the lab did
  // not make stops the script instead of being dropped.
  function scratch(dbh, name) {
    var meta = dbh.getCollection('perflab_fixtures').findOne({ _id: name });
    var exists = dbh.getCollectionNames().indexOf(name) >= 0;
    if (exists && !(meta && meta.fixture === 'scratch')) {
      throw new Error(dbh.getName() + '.' + name + ' exists and was not made by the lab: not dropping it (choose another COLL prefix or database)');
    }
    if (!meta) dbh.getCollection('perflab_fixtures').replaceOne({ _id: name }, { _id: name, fixture: 'scratch', complete: true }, { upsert: true });
    dbh.getCollection(name).drop();
    return dbh.getCollection(name);
  }

  // "1,10,100" -> [1, 10, 100]; every item a whole number within [min, max], else a clear error.
  function ints(name, csv, min, max) {
    var items = lab.list(csv);
    if (!items.length) throw new Error('parameter ' + name + ': expected a comma-separated list of whole numbers, got ' + JSON.stringify(csv));
    return items.map(function (s) {
      var n = Number(s);
      if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
        throw new Error('parameter ' + name + ': ' + JSON.stringify(s) + ' is not a whole number in ' + min + '..' + max);
      }
      return n;
    });
  }

  function elapsed(t0) { return lab.now() - t0; }

  return { scratch: scratch, ints: ints, elapsed: elapsed };
})();

