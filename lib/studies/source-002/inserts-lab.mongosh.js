// Shell-side helpers of study 002's scripts (inserts_*.js): scratch collections the lab owns, list
// parameters, and the source article each declaration names. Plain ES2017; needs lab.js loaded first.

var LabInsertsLab = (function () {
  // An empty scratch collection the lab owns (LabFixture.claim, fresh): created and marked by UUID
  // when absent, dropped and created again when the lab's marker names it. A collection of the same
  // name the lab did not make (empty or not) stops the script with one line. options: createCollection's.
  function scratch(dbh, name, options) {
    LabFixture.claim(dbh, name, {
      kind: 'scratch',
      fresh: true,
      options: options,
      doing: 'empty (drop) as a scratch collection',
    });
    return dbh.getCollection(name);
  }

  // "1,10,100" -> [1, 10, 100]; every item a whole number within [min, max], else a clear error.
  function ints(name, csv, min, max) {
    var items = lab.list(csv);
    if (!items.length)
      throw lab.paramError(
        'parameter ' + name + ': expected a comma-separated list of whole numbers, got ' + JSON.stringify(csv),
      );
    return items.map(function (s) {
      var n = Number(s);
      if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(n) || n < min || n > max) {
        throw lab.paramError(
          'parameter ' + name + ': ' + JSON.stringify(s) + ' is not a whole number in ' + min + '..' + max,
        );
      }
      return n;
    });
  }

  function elapsed(t0) {
    return lab.now() - t0;
  }

  // The source article a study's declaration names (STUDY.source): one of source 002's, by its title.
  function source(title, year) {
    return { id: '002', author: 'a 2012-2013 blog series', title: title, year: year };
  }

  return { scratch: scratch, ints: ints, elapsed: elapsed, source: source };
})();
