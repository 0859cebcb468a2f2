// The MOT "banding" aggregation of study 001 (second half) in every form the lab compares.
// Plain ES2017: each function below can be pasted into mongosh or the 4.2 legacy shell, and Node
// requires the same file, so the shell script and the Node tests run the very same pipelines.
//
// The question: band each vehicle by engine capacity (1..7), x1.5 for diesel, then count the
// vehicles and sum the test mileage per band.

var LabBands = (function () {
  // ---- 1. the seed's pipeline, exactly as published ---------------------------------------------
  // Quoted verbatim from the article (variable names, order, `$e`). Its `$e` is kept although the
  // seed's own loader names the engine column `d` (a second `d`): on that data every car would fall
  // in band 1. Our generator names the column `e`, so the published text runs unchanged here.
  function seedPipeline() {
    var isover3500 = { $cond : [ { $gt : [ '$e',3500 ] }, 7, 6 ] };
    var isover2500 = { $cond : [ { $gt : [ '$e',2500 ] }, isover3500, 5 ] };
    var isover2000 = { $cond : [ { $gt : [ '$e',2000 ] }, isover2500, 4 ] };
    var isover1600 = { $cond : [ { $gt : [ '$e',1600 ] }, isover2000, 3 ] };
    var isover1200 = { $cond : [ { $gt : [ '$e',1200 ] }, isover1600, 2 ] };
    var getband = { $cond : [ { $gt : [ '$e',1000 ] }, isover1200, 1 ] };

    var isdirty = { $cond : [ { $eq : [ '$f' ,'D']}, 1.5 , 1 ]};
    var dirtypenalty = { $multiply : [ getband, isdirty ]};
    var banding = { $project : { b : dirtypenalty , m : 1}};
    var group = { $group : { _id : '$b' , count : { $sum : 1} , miles : { $sum : '$m' } } };
    var sort = {$sort:{_id:1}};
    return [banding, group, sort];
  }

  // The seed's band expression alone (the nested $cond times the diesel factor).
  function condBand() {
    return seedPipeline()[0].$project.b;
  }

  // ---- 2. $switch: the same thresholds as a flat list (3.4+) --------------------------------------
  function switchBand() {
    return { $multiply: [
      { $switch: { branches: [
        { case: { $gt: ['$e', 3500] }, then: 7 },
        { case: { $gt: ['$e', 2500] }, then: 6 },
        { case: { $gt: ['$e', 2000] }, then: 5 },
        { case: { $gt: ['$e', 1600] }, then: 4 },
        { case: { $gt: ['$e', 1200] }, then: 3 },
        { case: { $gt: ['$e', 1000] }, then: 2 },
      ], default: 1 } },
      { $cond: [{ $eq: ['$f', 'D'] }, 1.5, 1] },
    ] };
  }

  function switchPipeline() {
    return [
      { $project: { b: switchBand(), m: 1 } },
      { $group: { _id: '$b', count: { $sum: 1 }, miles: { $sum: '$m' } } },
      { $sort: { _id: 1 } },
    ];
  }

  // ---- 3. the band computed inside $group: no $project stage, one pass -------------------------
  function groupAccumulators() {
    return { count: { $sum: 1 }, miles: { $sum: '$m' } };
  }

  function groupPipeline() {
    return [
      { $group: { _id: condBand(), count: { $sum: 1 }, miles: { $sum: '$m' } } },
      { $sort: { _id: 1 } },
    ];
  }

  // ---- 4. $bucket (3.4+): buckets are [lower, upper), so `> 1000` on whole numbers is [1001, ...).
  // One $bucket cannot multiply by 1.5, so diesel values are shifted by 100000 into their own
  // buckets; two more stages turn each bucket into its band and merge the keys that collide
  // (diesel 2 -> 3 with petrol 3, diesel 4 -> 6 with petrol 6), as the seed's $group does.
  // Valid for whole-number capacities from -10^9 to 49999 (the generator's are 0..5998).
  var BUCKET_BOUNDS = [-1000000000, 1001, 1201, 1601, 2001, 2501, 3501,
    50000, 101001, 101201, 101601, 102001, 102501, 103501, 1000000000];

  function bucketPipeline() {
    var lows = BUCKET_BOUNDS.slice(0, -1);
    var branches = [];
    for (var j = 0; j < lows.length; j++) {
      if (j === 6) continue; // [3501, 50000) = petrol band 7 is the default
      var band = j < 7 ? j + 1 : (j - 6) * 1.5;
      branches.push({ case: { $eq: ['$_id', lows[j]] }, then: band });
    }
    return [
      { $bucket: {
        groupBy: { $add: ['$e', { $cond: [{ $eq: ['$f', 'D'] }, 100000, 0] }] },
        boundaries: BUCKET_BOUNDS,
        output: { count: { $sum: 1 }, miles: { $sum: '$m' } },
      } },
      { $project: { count: 1, miles: 1, b: { $switch: { branches: branches, default: 7 } } } },
      { $group: { _id: '$b', count: { $sum: '$count' }, miles: { $sum: '$miles' } } },
      { $sort: { _id: 1 } },
    ];
  }

  // ---- 5. group on the raw pair (engine, diesel?) first, band the few hundred groups after -------
  // The per-document work becomes a hash lookup on two fields; the band expression runs once per
  // distinct (e, f == 'D') pair instead of once per document.
  function pairsPipeline() {
    var onGroup = JSON.parse(JSON.stringify(condBand()).replace(/"\$e"/g, '"$_id.e"').replace(/"\$f"/g, '"$_id.f"'));
    return [
      { $group: { _id: { e: '$e', f: { $cond: [{ $eq: ['$f', 'D'] }, 'D', 'x'] } }, count: { $sum: 1 }, miles: { $sum: '$m' } } },
      { $group: { _id: onGroup, count: { $sum: '$count' }, miles: { $sum: '$miles' } } },
      { $sort: { _id: 1 } },
    ];
  }

  var FORMS = {
    seed: { what: "the seed's nested $cond in $project, as published", pipeline: seedPipeline },
    switch: { what: '$switch in $project', pipeline: switchPipeline },
    group: { what: 'band expression computed in $group (no $project)', pipeline: groupPipeline },
    bucket: { what: '$bucket on capacity (+100000 for diesel), then band and merge colliding keys', pipeline: bucketPipeline },
    pairs: { what: '$group on (e, diesel?) first, band the groups, merge', pipeline: pairsPipeline },
  };

  // ---- split and merge, as a sharded $group does it ---------------------------------------------
  // mongos splits a $group into a shards part (the same $group, each shard's partial groups) and a
  // merger part ($group on _id summing the partial accumulators). With k _id ranges on one server
  // the shards part runs once per range, concurrently, and the merger part runs on the union.
  function rangeFilter(lo, hi) {
    var f = {};
    if (lo !== null && lo !== undefined) f.$gte = lo;
    if (hi !== null && hi !== undefined) f.$lt = hi;
    // one open range (k = 1) is every document: an empty filter, not `_id: {}` (equality to {})
    return { $match: f.$gte === undefined && f.$lt === undefined ? {} : { _id: f } };
  }

  function shardPart(lo, hi) {
    return [rangeFilter(lo, hi), { $group: { _id: condBand(), count: { $sum: 1 }, miles: { $sum: '$m' } } }];
  }

  // The merger part: what mongos (or the merging shard) runs on the shards' partial groups.
  function mergerPart() {
    return [
      { $group: { _id: '$_id', count: { $sum: '$count' }, miles: { $sum: '$miles' } } },
      { $sort: { _id: 1 } },
    ];
  }

  // k boundaries over [lo, hi): equal widths, or proportional to `weights` for uneven ranges.
  // Returns [[lo0, hi0], [lo1, hi1], ...]; the first starts at null (MinKey side) and the last
  // ends at null, so documents outside [lo, hi) are still counted exactly once.
  function ranges(lo, hi, k, weights) {
    var w = weights || [];
    var total = 0;
    var j;
    for (j = 0; j < k; j++) total += w[j] || 1;
    var out = [];
    var acc = 0;
    var prev = null;
    for (j = 0; j < k; j++) {
      acc += w[j] || 1;
      var cut = j === k - 1 ? null : lo + Math.round((hi - lo) * acc / total);
      out.push([prev, cut]);
      prev = cut;
    }
    return out;
  }

  // Merges partial group rows in plain JavaScript: the merger part's arithmetic, for callers that
  // cannot run a second pipeline on the union (e.g. the shell's parallel shell-less path).
  function mergePartials(lists) {
    var by = {};
    var keys = [];
    for (var a = 0; a < lists.length; a++) {
      for (var b = 0; b < lists[a].length; b++) {
        var r = lists[a][b];
        var key = String(r._id);
        if (!by[key]) { by[key] = { _id: r._id, count: 0, miles: 0 }; keys.push(key); }
        by[key].count += Number(r.count);
        by[key].miles += Number(r.miles);
      }
    }
    return keys.map(function (x) { return by[x]; }).sort(function (p, q) { return p._id - q._id; });
  }

  return {
    seedPipeline: seedPipeline, condBand: condBand, switchBand: switchBand, switchPipeline: switchPipeline,
    groupPipeline: groupPipeline, groupAccumulators: groupAccumulators, bucketPipeline: bucketPipeline,
    pairsPipeline: pairsPipeline, FORMS: FORMS, BUCKET_BOUNDS: BUCKET_BOUNDS,
    rangeFilter: rangeFilter, shardPart: shardPart, mergerPart: mergerPart, ranges: ranges, mergePartials: mergePartials,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabBands;
