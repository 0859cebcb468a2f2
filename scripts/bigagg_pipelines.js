// The MOT "banding" aggregation of study 001 (second half) in every form the lab compares.
// Plain ES2017: each function below can be pasted into mongosh or the 4.2 legacy shell, and Node
// requires the same file, so the shell script and the Node tests run the very same pipelines.
//
// The question: band each vehicle by engine capacity (1..7), x1.5 for diesel, then count the
// vehicles and sum the test mileage per band.

var LabBands = (function () {
  // ---- 1. the source's pipeline, exactly as published -------------------------------------------
  // Quoted verbatim from the article (variable names, order, `$e`). Its `$e` is kept although the
  // source's own loader names the engine column `d` (a second `d`): on that data every car would
  // fall in band 1. Our generator names the column `e`, so the published text runs unchanged here.
  function seedPipeline() {
    var isover3500 = { $cond: [{ $gt: ['$e', 3500] }, 7, 6] };
    var isover2500 = { $cond: [{ $gt: ['$e', 2500] }, isover3500, 5] };
    var isover2000 = { $cond: [{ $gt: ['$e', 2000] }, isover2500, 4] };
    var isover1600 = { $cond: [{ $gt: ['$e', 1600] }, isover2000, 3] };
    var isover1200 = { $cond: [{ $gt: ['$e', 1200] }, isover1600, 2] };
    var getband = { $cond: [{ $gt: ['$e', 1000] }, isover1200, 1] };

    var isdirty = { $cond: [{ $eq: ['$f', 'D'] }, 1.5, 1] };
    var dirtypenalty = { $multiply: [getband, isdirty] };
    var banding = { $project: { b: dirtypenalty, m: 1 } };
    var group = { $group: { _id: '$b', count: { $sum: 1 }, miles: { $sum: '$m' } } };
    var sort = { $sort: { _id: 1 } };
    return [banding, group, sort];
  }

  // The source's band expression alone (the nested $cond times the diesel factor).
  function condBand() {
    return seedPipeline()[0].$project.b;
  }

  // ---- 2. $switch: the same thresholds as a flat list (3.4+) --------------------------------------
  function switchBand() {
    return {
      $multiply: [
        {
          $switch: {
            branches: [
              { case: { $gt: ['$e', 3500] }, then: 7 },
              { case: { $gt: ['$e', 2500] }, then: 6 },
              { case: { $gt: ['$e', 2000] }, then: 5 },
              { case: { $gt: ['$e', 1600] }, then: 4 },
              { case: { $gt: ['$e', 1200] }, then: 3 },
              { case: { $gt: ['$e', 1000] }, then: 2 },
            ],
            default: 1,
          },
        },
        { $cond: [{ $eq: ['$f', 'D'] }, 1.5, 1] },
      ],
    };
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
    return [{ $group: { _id: condBand(), count: { $sum: 1 }, miles: { $sum: '$m' } } }, { $sort: { _id: 1 } }];
  }

  // ---- 4. $bucket (3.4+): buckets are [lower, upper), so `> 1000` is `ceil(e) >= 1001` (exact for
  // fractional capacities too). One $bucket cannot multiply by 1.5, so diesel values are shifted by
  // 100000 into their own buckets; two more stages turn each bucket into its band and merge the keys
  // that collide (diesel 2 -> 3 with petrol 3, diesel 4 -> 6 with petrol 6), as the source's $group
  // does. Any `e` gets the source's band (see bucketCapacity), so no document falls outside the
  // boundaries.
  var BUCKET_BOUNDS = [
    -50000, 1001, 1201, 1601, 2001, 2501, 3501, 50000, 101001, 101201, 101601, 102001, 102501, 103501, 150000,
  ];
  var NUMERIC_TYPES = ['double', 'int', 'long', 'decimal'];
  var BELOW_NUMBERS = ['missing', 'null', 'undefined', 'minKey'];

  // The capacity the buckets see: the source's `$gt` compares any BSON value with a number, in BSON
  // order (missing, null < numbers, NaN lowest < text, objects, dates...). So a number is clamped
  // into the petrol range [-50000, 49999] (its band unchanged), a value below every number counts as
  // band 1, and a value above every number (a string "1500", a date...) as band 7, like the source.
  function bucketCapacity() {
    return {
      $switch: {
        branches: [
          {
            case: { $in: [{ $type: '$e' }, NUMERIC_TYPES] },
            then: { $min: [{ $max: [{ $ceil: '$e' }, BUCKET_BOUNDS[0]] }, 49999] },
          },
          { case: { $in: [{ $type: '$e' }, BELOW_NUMBERS] }, then: BUCKET_BOUNDS[0] },
        ],
        default: 49999,
      },
    };
  }

  function bucketPipeline() {
    var lows = BUCKET_BOUNDS.slice(0, -1);
    var branches = [];
    for (var j = 0; j < lows.length; j++) {
      var band = j < 7 ? j + 1 : (j - 6) * 1.5;
      branches.push({ case: { $eq: ['$_id', lows[j]] }, then: band });
    }
    return [
      {
        $bucket: {
          groupBy: { $add: [bucketCapacity(), { $cond: [{ $eq: ['$f', 'D'] }, 100000, 0] }] },
          boundaries: BUCKET_BOUNDS,
          output: { count: { $sum: 1 }, miles: { $sum: '$m' } },
        },
      },
      // every bucket is named: an unnamed one would show as its lower boundary, not hide in a band
      { $project: { count: 1, miles: 1, b: { $switch: { branches: branches, default: '$_id' } } } },
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
      {
        $group: {
          _id: { e: '$e', f: { $cond: [{ $eq: ['$f', 'D'] }, 'D', 'x'] } },
          count: { $sum: 1 },
          miles: { $sum: '$m' },
        },
      },
      { $group: { _id: onGroup, count: { $sum: '$count' }, miles: { $sum: '$miles' } } },
      { $sort: { _id: 1 } },
    ];
  }

  var FORMS = {
    seed: { what: "the source's nested $cond in $project, as published", pipeline: seedPipeline },
    switch: { what: '$switch in $project', pipeline: switchPipeline },
    group: { what: 'band expression computed in $group (no $project)', pipeline: groupPipeline },
    bucket: {
      what: '$bucket on capacity (+100000 for diesel), then band and merge colliding keys',
      pipeline: bucketPipeline,
    },
    pairs: { what: '$group on (e, diesel?) first, band the groups, merge', pipeline: pairsPipeline },
  };

  // ---- split and merge, as a sharded $group does it ---------------------------------------------
  // mongos splits a $group into a shards part (the same $group, each shard's partial groups) and a
  // merger part ($group on _id summing the partial accumulators). With k _id ranges on one server
  // the shards part runs once per range, concurrently, and the merger part runs on the union.
  // BSON's order of types (as sort and $gt see them), each class with the $type aliases it holds.
  // An _id range whose ends are of different classes must name the classes in between itself: a
  // query's $gte/$lt match only values of their bound's own class ("type bracketing").
  var TYPE_CLASSES = [
    ['minKey'],
    ['null', 'undefined'],
    ['double', 'int', 'long', 'decimal'],
    ['string', 'symbol'],
    ['object'],
    ['array'],
    ['binData'],
    ['objectId'],
    ['bool'],
    ['date'],
    ['timestamp'],
    ['regex'],
    ['dbPointer'],
    ['javascript'],
    ['javascriptWithScope'],
    ['maxKey'],
  ];
  var BSONTYPE_CLASS = {
    MinKey: 0,
    Long: 2,
    Int32: 2,
    Double: 2,
    Decimal128: 2,
    BSONSymbol: 3,
    Symbol: 3,
    Binary: 6,
    ObjectId: 7,
    ObjectID: 7,
    Timestamp: 10,
    BSONRegExp: 11,
    DBPointer: 12,
    Code: 13,
    MaxKey: 15,
  };

  // The index in TYPE_CLASSES of a value as the shell or the Node driver returns it.
  function typeClass(v) {
    if (v === null || v === undefined) return 1;
    if (typeof v === 'number') return 2;
    if (typeof v === 'string') return 3;
    if (typeof v === 'boolean') return 8;
    var tag = Object.prototype.toString.call(v);
    if (tag === '[object Date]') return 9;
    if (tag === '[object Array]') return 5;
    if (tag === '[object RegExp]') return 11;
    var t = v._bsontype || (v.constructor && v.constructor.name);
    if (t === 'Code' && v.scope) return 14;
    if (t && BSONTYPE_CLASS[t] !== undefined) return BSONTYPE_CLASS[t];
    if (typeof v.toNumber === 'function' && typeof v.getHighBits === 'function') return 2; // a Long without _bsontype
    return 4;
  }

  // The filter of one _id range [lo, hi) in BSON order; null at either end means open. Ends of one
  // type class (the usual case) give the plain `{_id: {$gte, $lt}}`, which an index or a clustered
  // collection bounds; `oneClass` says every _id is of that class, so open ends need no $type part.
  function rangeFilter(lo, hi, oneClass) {
    var open = function (x) {
      return x === null || x === undefined;
    };
    if (open(lo) && open(hi)) return { $match: {} }; // k = 1: every document (not `_id: {}`)
    var cl = open(lo) ? 0 : typeClass(lo);
    var ch = open(hi) ? TYPE_CLASSES.length - 1 : typeClass(hi);
    var f = {};
    if (!open(lo)) f.$gte = lo;
    if (!open(hi)) f.$lt = hi;
    if (oneClass || (!open(lo) && !open(hi) && cl === ch)) return { $match: { _id: f } };
    var parts = [];
    if (!open(lo)) parts.push({ _id: { $gte: lo } });
    var between = [];
    for (var c = open(lo) ? 0 : cl + 1; c < (open(hi) ? TYPE_CLASSES.length : ch); c++)
      between = between.concat(TYPE_CLASSES[c]);
    if (between.length) parts.push({ _id: { $type: between } });
    if (!open(hi)) parts.push({ _id: { $lt: hi } });
    return { $match: parts.length === 1 ? parts[0] : { $or: parts } };
  }

  function shardPart(lo, hi, oneClass) {
    return [rangeFilter(lo, hi, oneClass), { $group: { _id: condBand(), count: { $sum: 1 }, miles: { $sum: '$m' } } }];
  }

  // The merger part: what mongos (or the merging shard) runs on the shards' partial groups.
  function mergerPart() {
    return [{ $group: { _id: '$_id', count: { $sum: '$count' }, miles: { $sum: '$miles' } } }, { $sort: { _id: 1 } }];
  }

  // Where the k-1 cuts fall in a collection of `count` documents sorted by _id: equal shares, or
  // proportional to `weights` for uneven ranges. Positions are 0-based document offsets.
  function cutPositions(count, k, weights) {
    var w = weights || [];
    var total = 0;
    var j;
    for (j = 0; j < k; j++) total += w[j] || 1;
    var out = [];
    var acc = 0;
    for (j = 0; j < k - 1; j++) {
      acc += w[j] || 1;
      out.push(Math.round((count * acc) / total));
    }
    return out;
  }

  // Ranges [[null, c1], [c1, c2], ..., [c(k-1), null]] from cut values taken from the server's own
  // _id order; equal cuts (fewer documents than ranges) are merged, so no range is empty twice.
  function rangesFromCuts(cuts) {
    var out = [];
    var prev = null;
    for (var j = 0; j < cuts.length; j++) {
      // a null, MinKey or MaxKey cut cannot bound a query range ($gte: MinKey matches every type):
      // skipping it only makes one range wider
      var c = cuts[j] === undefined ? 0 : typeClass(cuts[j]);
      if (c <= 1 || c === TYPE_CLASSES.length - 1 || (prev !== null && sameValue(prev, cuts[j]))) continue;
      out.push([prev, cuts[j]]);
      prev = cuts[j];
    }
    out.push([prev, null]);
    return out;
  }

  function sameValue(a, b) {
    return typeClass(a) === typeClass(b) && String(a) === String(b) && typeof a === typeof b;
  }

  // The shell's k ranges of a collection by its own _id order (any _id types): the cut values are
  // read from an _id-sorted scan, so no arithmetic on _ids. Returns { ranges, oneClass }.
  function serverRanges(coll, k, weights) {
    var count = coll.countDocuments({});
    var cuts = cutPositions(count, k, weights).map(function (pos) {
      var d = pos < count ? coll.find({}, { _id: 1 }).sort({ _id: 1 }).skip(pos).limit(1).toArray()[0] : undefined;
      return d ? d._id : undefined;
    });
    var first = coll.find({}, { _id: 1 }).sort({ _id: 1 }).limit(1).toArray()[0];
    var last = coll.find({}, { _id: 1 }).sort({ _id: -1 }).limit(1).toArray()[0];
    return { ranges: rangesFromCuts(cuts), oneClass: !first || typeClass(first._id) === typeClass(last._id) };
  }

  // k boundaries over a numeric [lo, hi): equal widths, or proportional to `weights`. For callers
  // that know their _ids are numbers spread over [lo, hi) (the generator's 0..N-1); any other
  // collection takes serverRanges. The outermost ranges are open, so every document counts once.
  function ranges(lo, hi, k, weights) {
    if (k < 1) return [];
    var out = [];
    var prev = null;
    // the cuts are cutPositions' over the hi - lo numbers, moved to start at lo
    cutPositions(hi - lo, k, weights).forEach(function (pos) {
      out.push([prev, lo + pos]);
      prev = lo + pos;
    });
    out.push([prev, null]);
    return out;
  }

  // Adds two partial sums keeping the type the server's $sum would give: numbers stay numbers, a
  // Long stays an exact Long (its own add), a Long with a fractional number becomes a double. A
  // Decimal128 cannot be added exactly in plain JavaScript: refused, so the caller merges on the
  // server (mergerPart), never with a rounded figure.
  function addExact(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a + b;
    var da = a && a._bsontype === 'Decimal128';
    var db2 = b && b._bsontype === 'Decimal128';
    if (da || db2) {
      var e = new Error(
        'mergePartials: a Decimal128 sum cannot be added exactly in JavaScript; merge on the server (mergerPart)'
      );
      e.code = 'DECIMAL_MERGE';
      throw e;
    }
    var long = typeof a === 'number' ? b : a;
    var other = typeof a === 'number' ? a : b;
    if (typeof other === 'number') {
      if (!Number.isSafeInteger(other)) return Number(long.toString()) + other;
      return long.add(long.constructor.fromNumber(other));
    }
    return long.add(other);
  }

  // Merges partial group rows in plain JavaScript: the merger part's arithmetic, for callers that
  // cannot run a second pipeline on the union. Sums keep their exact types (see addExact).
  function mergePartials(lists) {
    var by = {};
    var keys = [];
    for (var a = 0; a < lists.length; a++) {
      for (var b = 0; b < lists[a].length; b++) {
        var r = lists[a][b];
        var key = typeClass(r._id) + ':' + String(r._id);
        if (!by[key]) {
          by[key] = { _id: r._id, count: 0, miles: 0 };
          keys.push(key);
        }
        by[key].count = addExact(by[key].count, r.count);
        by[key].miles = addExact(by[key].miles, r.miles);
      }
    }
    return keys
      .map(function (x) {
        return by[x];
      })
      .sort(function (p, q) {
        return p._id - q._id;
      });
  }

  return {
    seedPipeline: seedPipeline,
    condBand: condBand,
    switchBand: switchBand,
    switchPipeline: switchPipeline,
    groupPipeline: groupPipeline,
    groupAccumulators: groupAccumulators,
    bucketPipeline: bucketPipeline,
    pairsPipeline: pairsPipeline,
    FORMS: FORMS,
    BUCKET_BOUNDS: BUCKET_BOUNDS,
    rangeFilter: rangeFilter,
    shardPart: shardPart,
    mergerPart: mergerPart,
    ranges: ranges,
    mergePartials: mergePartials,
    typeClass: typeClass,
    cutPositions: cutPositions,
    rangesFromCuts: rangesFromCuts,
    serverRanges: serverRanges,
    addExact: addExact,
    bucketCapacity: bucketCapacity,
  };
})();

if (typeof module !== 'undefined' && module.exports) module.exports = LabBands;
