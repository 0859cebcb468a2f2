// Building blocks of the time-series study (source 003, "A beginner's guide to MongoDB performance
// turbocharging"): the source's intervals and start times, one aggregation per design, and the
// loop over the five start times that prints the source's table.
// Loaded by the ts_*.js scripts and agg_year.js:  load(__dirname + '/ts_base.js')
// (it loads lib/lab.js and lib/gen.js itself). It defines one global, TS, and runs nothing.
//
// The question: count / min / max / avg of `value` for the seconds of a minute, the minutes of an
// hour and the hours of a day, over events {created_on: Date, value: number}.
//
// Designs ("variants"), each answering with the same rows {t: group start, count, min, max, avg}:
//   raw        the source's: $match on the created_on index, $group on an arithmetic key
//              (epoch milliseconds minus their remainder by the group width)
//   dateTrunc  the same with a $dateTrunc key (5.0+); clearer, and on 6.0 it runs in the classic
//              engine where the arithmetic key runs in the slot-based engine
//   bucket     the source's "next post": one document per minute holding that minute's events
//              [{o: ms within the minute, v: value}] and their count / sum / min / max, so a group
//              of a minute or more never opens a bucket
//   timeseries a time-series collection (5.0+) with the same pipeline as raw; the server keeps the
//              buckets. On 6.0 $merge/$out cannot write into one, so it is filled with insertMany.
//   rollup     per-minute and per-hour count / sum / min / max kept by $merge; answers minutes,
//              hours and days, never seconds (a per-second rollup would be as big as the events)

load(__dirname + '/../fixtures/gen.js');
load(__dirname + '/lib/lab.js');

var TS = (function () {
  var SECOND = 1000;
  var MINUTE = 60 * SECOND;
  var HOUR = 60 * MINUTE;
  var DAY = 24 * HOUR;

  // The source's five start times, in UTC (Date.UTC months count from 0).
  var START_TIMES = [
    new Date(Date.UTC(2012, 5, 10, 11, 25, 59)),
    new Date(Date.UTC(2012, 7, 23, 2, 15, 7)),
    new Date(Date.UTC(2012, 9, 25, 7, 18, 46)),
    new Date(Date.UTC(2012, 1, 27, 18, 45, 23)),
    new Date(Date.UTC(2012, 11, 12, 14, 59, 13)),
  ];

  var YEAR_FROM = new Date(Date.UTC(2012, 0, 1));
  var YEAR_TO = new Date(Date.UTC(2013, 0, 1));

  var GRAINS = {
    seconds: { name: 'seconds', title: 'seconds in a minute', width: MINUTE, group: SECOND, unit: 'second' },
    minutes: { name: 'minutes', title: 'minutes in an hour', width: HOUR, group: MINUTE, unit: 'minute' },
    hours: { name: 'hours', title: 'hours in a day', width: DAY, group: HOUR, unit: 'hour' },
    days: { name: 'days', title: 'days in the year', width: null, group: DAY, unit: 'day' },
  };

  var VARIANTS = ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'];

  // Collections of each design, named after the events collection.
  function names(coll) {
    return {
      raw: coll,
      bucket: coll + '_bucket_minute',
      timeseries: coll + '_ts',
      rollupMinute: coll + '_rollup_minute',
      rollupHour: coll + '_rollup_hour',
    };
  }

  // The interval of `width` milliseconds holding `date`, aligned on the epoch as the source's was:
  // [from, to), so an event exactly at `to` belongs to the next interval.
  function calibrate(date, width) {
    var from = Math.floor(date.getTime() / width) * width;
    return { from: new Date(from), to: new Date(from + width) };
  }

  // ---- group keys ---------------------------------------------------------------------------
  function msOf(field) {
    return { $toLong: field };
  }

  // Start of the group holding `field`, as epoch milliseconds: t - t mod width.
  function arithmeticKey(field, width) {
    return { $subtract: [msOf(field), { $mod: [msOf(field), width] }] };
  }

  function truncKey(field, unit) {
    return { $dateTrunc: { date: field, unit: unit, timezone: 'UTC' } };
  }

  var STATS = { count: { $sum: 1 }, min: { $min: '$value' }, max: { $max: '$value' }, avg: { $avg: '$value' } };
  var SHAPE = { _id: 0, t: { $toDate: '$_id' }, count: 1, min: 1, max: 1, avg: 1 };
  // A minute's partial aggregates of the events, as the buckets and the per-minute rollup keep them.
  var PARTIALS = { count: { $sum: 1 }, sum: { $sum: '$value' }, min: { $min: '$value' }, max: { $max: '$value' } };
  // Partial aggregates (buckets, rollups) merge by adding counts and sums.
  var MERGE = { count: { $sum: '$count' }, sum: { $sum: '$sum' }, min: { $min: '$min' }, max: { $max: '$max' } };
  var MERGED_SHAPE = { _id: 0, t: { $toDate: '$_id' }, count: 1, min: 1, max: 1, avg: { $divide: ['$sum', '$count'] } };

  function range(from, to) {
    return { $gte: from, $lt: to };
  }

  // The bucket design's aggregation: below a minute it opens the buckets, above it merges them.
  function bucketQuery(n, from, to, g, tail) {
    if (g < MINUTE) {
      // Below a minute the events themselves are needed: open the buckets.
      return {
        coll: n.bucket,
        pipeline: [
          { $match: { _id: range(from, to) } },
          { $unwind: '$ev' },
          {
            $group: {
              _id: { $add: [msOf('$_id'), { $subtract: ['$ev.o', { $mod: ['$ev.o', g] }] }] },
              count: { $sum: 1 },
              min: { $min: '$ev.v' },
              max: { $max: '$ev.v' },
              avg: { $avg: '$ev.v' },
            },
          },
          { $project: SHAPE },
        ].concat(tail),
      };
    }
    return {
      coll: n.bucket,
      pipeline: [
        { $match: { _id: range(from, to) } },
        { $group: Object.assign({ _id: arithmeticKey('$_id', g) }, MERGE) },
        { $project: MERGED_SHAPE },
      ].concat(tail),
    };
  }

  /**
   * The aggregation a design runs for [from, to) grouped by `group` ms (a grain's group width):
   * { coll, pipeline } or null when the design cannot answer that grain.
   */
  function query(variant, coll, from, to, grain) {
    var n = names(coll);
    var g = grain.group;
    var tail = [{ $sort: { t: 1 } }];
    if (variant === 'raw' || variant === 'timeseries') {
      return {
        coll: variant === 'raw' ? n.raw : n.timeseries,
        pipeline: [
          { $match: { created_on: range(from, to) } },
          { $group: Object.assign({ _id: arithmeticKey('$created_on', g) }, STATS) },
          { $project: SHAPE },
        ].concat(tail),
      };
    }
    if (variant === 'dateTrunc') {
      return {
        coll: n.raw,
        pipeline: [
          { $match: { created_on: range(from, to) } },
          { $group: Object.assign({ _id: truncKey('$created_on', grain.unit) }, STATS) },
          { $project: SHAPE },
        ].concat(tail),
      };
    }
    if (variant === 'bucket') return bucketQuery(n, from, to, g, tail);
    if (variant === 'rollup') {
      if (g < MINUTE) return null;
      var source = g >= HOUR && g % HOUR === 0 ? n.rollupHour : n.rollupMinute;
      return {
        coll: source,
        pipeline: [
          { $match: { _id: range(from, to) } },
          { $group: Object.assign({ _id: arithmeticKey('$_id', g) }, MERGE) },
          { $project: MERGED_SHAPE },
        ].concat(tail),
      };
    }
    throw new Error('unknown variant ' + JSON.stringify(variant) + ' (known: ' + VARIANTS.join(', ') + ')');
  }

  // The collections each derived design is built into.
  function designColls(n, variant) {
    if (variant === 'bucket') return [n.bucket];
    if (variant === 'timeseries') return [n.timeseries];
    return [n.rollupMinute, n.rollupHour];
  }

  // Does the design answer for the events there now (the raw one always does, possibly empty)?
  // Only designs the lab built count (a collection of the same name it did not make is not read as
  // one), and only when built to the end from these very events (designState).
  function available(dbh, coll, variant) {
    if (variant === 'raw' || variant === 'dateTrunc') return true;
    return designState(dbh, coll, variant, eventsIdentity(dbh, coll)).state === 'current';
  }

  // ---- which events a design was built from --------------------------------------------------
  // A derived design is a copy of the events it was built from: when those events are regenerated
  // (another N, SEED or writer ID) its answers may still agree, but it is not the data the run
  // claims to measure (a time-series copy keeps the other writer's _ids: its size is the other
  // writer's). So each design's lab marker names its events (builtFrom: this identity), and a design
  // whose builtFrom is not the events' identity now is rebuilt, never reused.
  // The identity: the events collection's UUID (the lab regenerates by dropping and creating, so a
  // new UUID) and document count, and for the lab's own events their marker's fixture (the writer),
  // n, seed and generator version; null there for events the lab did not make, whose content the lab
  // cannot vouch for (ts_designs.js rebuilds designs from such events at every run).
  function eventsIdentity(dbh, coll) {
    var s = LabFixture.inspect(dbh, coll);
    var m = s.owner.state === 'own' && s.meta.fixture !== undefined ? s.meta : null;
    return {
      coll: coll,
      uuid: LabFixture.identity(s.info),
      count: s.count,
      own: s.owner.state === 'own',
      fixture: m ? m.fixture : null,
      n: m ? m.n : null,
      seed: m ? m.seed : null,
      generatorVersion: m ? m.generatorVersion || 1 : null,
    };
  }

  var IDENTITY_KEYS = ['coll', 'uuid', 'count', 'own', 'fixture', 'n', 'seed', 'generatorVersion'];

  function sameEvents(a, b) {
    if (!a || !b) return false;
    return IDENTITY_KEYS.every(function (k) {
      var x = a[k] === undefined ? null : a[k];
      var y = b[k] === undefined ? null : b[k];
      // numbers read back from a marker may be Int32/Double/Long wrappers: compare their values
      return x === y || (x !== null && y !== null && typeof x === 'object' && Number(x) === Number(y));
    });
  }

  function describeEvents(e) {
    if (!e) return 'no events named (built before the lab recorded them)';
    var what =
      e.fixture !== null && e.fixture !== undefined
        ? e.fixture + ' N=' + e.n + ' seed=' + e.seed
        : 'events the lab did not make';
    return what + ', ' + e.count + ' documents, UUID ' + e.uuid;
  }

  /**
   * Where a derived design stands against the events `source` (eventsIdentity):
   * {state: 'current' | 'missing' | 'stale' | 'foreign', why}. stale: the lab's, but built from other
   * events or not built to the end (a rebuild may drop it); foreign: not the lab's (never touched).
   */
  function designState(dbh, coll, variant, source) {
    var out = { state: 'current', why: 'built from these events' };
    designColls(names(coll), variant).forEach(function (c) {
      var s = LabFixture.inspect(dbh, c);
      var st;
      if (s.owner.state === 'foreign') st = { state: 'foreign', why: s.target + ' ' + s.owner.why };
      else if (s.owner.state === 'absent') st = { state: 'missing', why: s.target + ' does not exist' };
      else if (!s.meta.complete) st = { state: 'stale', why: s.target + ': its build did not finish' };
      else if (!sameEvents(s.meta.builtFrom, source))
        st = {
          state: 'stale',
          why:
            s.target +
            ' was built from ' +
            describeEvents(s.meta.builtFrom) +
            '; the events are now ' +
            describeEvents(source),
        };
      else return;
      // the worst state of the design's collections wins: foreign, then missing, then stale
      var rank = { current: 0, stale: 1, missing: 2, foreign: 3 };
      if (rank[st.state] > rank[out.state]) out = st;
    });
    return out;
  }

  /**
   * Runs one interval's aggregation, as the source's aggregateData did, and times it twice:
   * aggregation = until the first result is back (the $group is blocking: the server has done all
   * the work by then), aggregation + fetch = until every row is read and formatted.
   * Returns { rows, aggMs, fetchMs, plan } or null when the design cannot answer the grain.
   */
  function aggregate(dbh, variant, coll, from, to, grain, o) {
    var q = query(variant, coll, from, to, grain);
    if (!q) return null;
    var opts = o || {};
    var t0 = lab.now();
    var cursor = dbh.getCollection(q.coll).aggregate(q.pipeline);
    cursor.hasNext();
    var aggMs = lab.now() - t0;
    var rows = cursor.toArray();
    var lines = rows.map(formatRow);
    var fetchMs = lab.now() - t0;
    if (opts.print)
      lines.forEach(function (l) {
        print('  ' + l);
      });
    var plan = null;
    if (opts.explain) {
      plan = lab.plan(dbh.getCollection(q.coll).explain('queryPlanner').aggregate(q.pipeline));
    }
    return { rows: rows, aggMs: aggMs, fetchMs: fetchMs, plan: plan, coll: q.coll };
  }

  function formatRow(r) {
    return (
      r.t.toISOString() +
      '  count ' +
      r.count +
      '  min ' +
      r.min.toFixed(6) +
      '  max ' +
      r.max.toFixed(6) +
      '  avg ' +
      r.avg.toFixed(6)
    );
  }

  /**
   * The source's testFromDatesAggregation: for each start time, calibrate the interval of the
   * grain's width and aggregate it grouped by the grain's group width.
   * Returns { grain, variant, runs: [{label, from, to, groups, events, aggMs, fetchMs, rows}], avgAggMs, avgFetchMs, plan }.
   */
  function runStartTimes(dbh, variant, coll, grain, o) {
    var opts = o || {};
    var runs = [];
    var plan = null;
    START_TIMES.forEach(function (start, i) {
      var iv = calibrate(start, grain.width);
      var r = aggregate(dbh, variant, coll, iv.from, iv.to, grain, { print: opts.printRows, explain: i === 0 });
      if (!r) return;
      if (r.plan) plan = r.plan;
      runs.push({
        label: 'T' + (i + 1),
        start: start,
        from: iv.from,
        to: iv.to,
        groups: r.rows.length,
        events: r.rows.reduce(function (a, x) {
          return a + x.count;
        }, 0),
        aggMs: r.aggMs,
        fetchMs: r.fetchMs,
        rows: r.rows,
      });
    });
    if (!runs.length) return null;
    var avg = function (k) {
      return (
        runs.reduce(function (a, x) {
          return a + x[k];
        }, 0) / runs.length
      );
    };
    return {
      grain: grain.name,
      variant: variant,
      runs: runs,
      avgAggMs: avg('aggMs'),
      avgFetchMs: avg('fetchMs'),
      plan: plan,
    };
  }

  // The source's table: T1..T5 and their average, aggregation and aggregation + fetch.
  function printSourceTable(res) {
    var rows = res.runs.map(function (r) {
      return {
        t: r.label,
        interval: r.from.toISOString().replace('.000Z', 'Z') + ' .. ' + r.to.toISOString().replace('.000Z', 'Z'),
        groups: String(r.groups),
        events: lab.fmtInt(r.events),
        agg: lab.fmtMs(r.aggMs),
        fetch: lab.fmtMs(r.fetchMs),
      };
    });
    rows.push({
      t: 'Average',
      interval: '',
      groups: '',
      events: '',
      agg: lab.fmtMs(res.avgAggMs),
      fetch: lab.fmtMs(res.avgFetchMs),
    });
    lab.table(
      [
        { key: 't', title: 'Type' },
        { key: 'interval', title: 'interval [from, to) UTC' },
        { key: 'groups', title: 'groups', right: true },
        { key: 'events', title: 'events', right: true },
        { key: 'agg', title: 'aggregation', right: true },
        { key: 'fetch', title: 'aggregation + fetch', right: true },
      ],
      rows
    );
  }

  // ---- events fixture -------------------------------------------------------------------------
  // Events already there are used as they are, whoever made them and however many there are (the
  // Node loader puts the source's 50,000,000 in place; a script must never throw those away because
  // its own N differs), but never the lab's events of the other writer: an ID = 'objectId' run on
  // int _ids would measure the lab's writer under the source's name (its marker names the writer,
  // LabGen.TS_FIXTURES; that collection is regenerated). An empty collection, or a lab fixture
  // whose load was interrupted, gets N events from the lab's seeded generator. created_on is
  // indexed, as in the source.
  // generate: the lab may create the collection (see lab.mayGenerate). A collection the lab did not
  // make is read as it is, and indexed only when INDEX_FOREIGN-style consent is given: never here.
  // idType: 'int' (default) or 'objectId' (the study's ID, checked by TS.idTypeParam).
  function ensureEvents(dbh, coll, n, seed, generate, idType) {
    var fixture = LabGen.TS_FIXTURES[TS.idTypeParam(idType)];
    var s = LabFixture.inspect(dbh, coll);
    var meta = s.meta;
    var count = s.count;
    var f;
    if (count > 0 && s.owner.state === 'own' && meta.complete && meta.fixture === fixture) {
      f = { generated: false, count: count, own: true };
      if (meta.n !== n)
        print(
          'note: using the ' +
            lab.fmtInt(count) +
            ' events already loaded (seed ' +
            meta.seed +
            '), not N = ' +
            lab.fmtInt(n)
        );
    } else {
      f = lab.ensureFixture(dbh, coll, { fixture: fixture, n: n, seed: seed }, eventMaker(idType, seed), {
        generate: generate,
      });
    }
    if (f.own) dbh.getCollection(coll).createIndex({ created_on: 1 });
    else if (
      !dbh
        .getCollection(coll)
        .getIndexes()
        .some(function (ix) {
          return ix.key.created_on === 1;
        })
    ) {
      print(
        'note: ' +
          dbh.getName() +
          '.' +
          coll +
          " has no index on created_on and is not the lab's: not indexing it (the queries scan)"
      );
    }
    return f;
  }

  // The shell's twin of fixtures/timeseries.js events(): the same documents, byte for byte.
  function eventMaker(idType, seed) {
    if (idType !== 'objectId') return LabGen.timeEvent;
    var machine = LabGen.tsObjectIdMachine(seed);
    return function (next, i) {
      var e = LabGen.timeEvent(next, i);
      e._id = new ObjectId(LabGen.tsObjectIdHex(machine, i));
      return e;
    };
  }

  // The BSON type of the _ids in coll, from the data: the smallest and the largest _id (BSON
  // orders types as classes, so two ObjectId ends mean every _id is one); 'mixed', or 'none' when empty.
  function idType(dbh, coll) {
    var types = [1, -1]
      .map(function (dir) {
        var d = dbh
          .getCollection(coll)
          .aggregate([{ $sort: { _id: dir } }, { $limit: 1 }, { $project: { _id: 0, t: { $type: '$_id' } } }])
          .toArray();
        return d.length ? d[0].t : null;
      })
      .filter(function (t) {
        return t !== null;
      });
    if (!types.length) return 'none';
    return types[0] === types[1] ? types[0] : 'mixed';
  }

  // ---- the other designs, built from the events -------------------------------------------------
  function minuteKey(field) {
    return { $toDate: arithmeticKey(field, MINUTE) };
  }

  // Spans of whole hours covering the events, each holding about `perSpan` of them (at least one
  // hour), for builds done one span at a time: a span's $group stays small however many events
  // there are (a year at once would spill to disk), and a small collection is built in a few
  // commands instead of one per day (366 round trips cost more than 100,000 events do).
  function spans(dbh, coll, perSpan) {
    var c = dbh.getCollection(coll);
    // Only dated events: a document without a date in created_on sorts first and has no getTime.
    var dated = { created_on: { $type: 'date' } };
    var first = c.find(dated, { created_on: 1 }).sort({ created_on: 1 }).limit(1).toArray();
    var last = c.find(dated, { created_on: 1 }).sort({ created_on: -1 }).limit(1).toArray();
    if (!first.length && c.findOne({}, { _id: 1 }))
      throw lab.paramError(
        'parameter COLL: ' +
          dbh.getName() +
          '.' +
          coll +
          ' holds no event with a date in its field created_on: the time-series designs need events ' +
          '{created_on: Date, value: number}; give COLL a collection of such events, or a new name with GENERATE=true to generate them'
      );
    if (!first.length) return [];
    var from = Math.floor(first[0].created_on.getTime() / HOUR) * HOUR;
    var to = (Math.floor(last[0].created_on.getTime() / HOUR) + 1) * HOUR;
    var perHour = c.estimatedDocumentCount() / ((to - from) / HOUR);
    var width = Math.max(1, Math.floor(perSpan / Math.max(perHour, 1))) * HOUR;
    var out = [];
    for (var t = from; t < to; t += width) out.push({ from: new Date(t), to: new Date(Math.min(t + width, to)) });
    return out;
  }

  // One document per minute: the events of that minute and their partial aggregates. $group then
  // $merge run inside the server; whenMatched 'replace' makes a rebuild idempotent.
  function buildBuckets(dbh, coll) {
    var n = names(coll);
    var from = eventsIdentity(dbh, coll);
    claimBuilt(dbh, n.bucket, 'timeseries-buckets', true, 'build per-minute buckets into', null, from);
    // ~500,000 events per $group: their pushed {o, v} stay well under its 100 MB before spilling
    spans(dbh, n.raw, 500000).forEach(function (day) {
      dbh
        .getCollection(n.raw)
        .aggregate([
          { $match: { created_on: range(day.from, day.to) } },
          {
            $group: Object.assign({ _id: minuteKey('$created_on') }, PARTIALS, {
              ev: { $push: { o: { $toInt: { $mod: [msOf('$created_on'), MINUTE] } }, v: '$value' } },
            }),
          },
          { $merge: { into: n.bucket, whenMatched: 'replace', whenNotMatched: 'insert' } },
        ])
        .toArray();
    });
    markBuilt(dbh, [n.bucket], from);
  }

  // Re-aggregates the events of [from, to) (whole hours) into the per-minute rollup, then those
  // minutes into the per-hour rollup: $merge replaces the rows it recomputes, so running it again
  // over the hours that received events keeps the rollups current. Without from and to it
  // (re)builds everything in one pass over the collection in its own order: a year of minute
  // groups without their events is small (527,040 rows), and a scan in record order costs a
  // fraction of fetching every event through the created_on index (one read per event, in random
  // record order: 50,000,000 of them are the source's year aggregation, ~20x a scan).
  // A refresh of some hours is the caller's word that only those hours received events since the
  // rollups were built: it keeps them only when they were built to the end from this same events
  // collection (its count aside), and names the events as they are now; else everything is rebuilt.
  function refreshRollups(dbh, coll, from, to) {
    var n = names(coll);
    var now = eventsIdentity(dbh, coll);
    var whole = !(from && to) || !refreshable(dbh, n, now);
    // A whole build starts from empty rollups; a refresh of some hours keeps the lab's own rollups.
    claimRollups(dbh, n, whole, now);
    var spans = whole ? [null] : [{ from: from, to: to }];
    spans.forEach(function (span) {
      dbh
        .getCollection(n.raw)
        .aggregate([
          { $match: span ? { created_on: range(span.from, span.to) } : {} },
          {
            $group: Object.assign({ _id: minuteKey('$created_on') }, PARTIALS),
          },
          { $merge: { into: n.rollupMinute, whenMatched: 'replace', whenNotMatched: 'insert' } },
        ])
        .toArray();
      hoursFromMinutes(dbh, n, span);
    });
    markBuilt(dbh, [n.rollupMinute, n.rollupHour], now);
  }

  // Both rollups the lab's, built to the end from the events collection `now` names (any count).
  function refreshable(dbh, n, now) {
    return [n.rollupMinute, n.rollupHour].every(function (c) {
      var s = LabFixture.inspect(dbh, c);
      var was = s.meta && s.meta.complete ? s.meta.builtFrom : null;
      return !!was && sameEvents(Object.assign({}, was, { count: now.count }), now);
    });
  }

  // A collection the lab builds from the events, claimed (LabFixture.claim) as `kind`: emptied
  // (dropped and created with createCollection's options) when fresh; doing: what the refusal says.
  // from: the events' identity, which its marker names (builtFrom) once the build is done (markBuilt).
  function claimBuilt(dbh, name, kind, fresh, doing, options, from) {
    var o = { kind: kind, fresh: fresh, doing: doing, spec: { builtFrom: from } };
    if (options) o.options = options;
    LabFixture.claim(dbh, name, o);
  }

  // A build done to its end: the marker of each collection (still the one the lab made) says so and
  // names the events it holds. Until then a design is not read (a build cut short is rebuilt).
  function markBuilt(dbh, colls, from) {
    colls.forEach(function (c) {
      var s = LabFixture.inspect(dbh, c);
      if (s.owner.state !== 'own') throw new Error(s.target + ' ' + s.owner.why + ': it changed during the build');
      dbh
        .getCollection(LabFixture.META)
        .updateOne({ _id: c, uuid: s.meta.uuid }, { $set: { complete: true, builtFrom: from } });
    });
  }

  // The lab's two rollup collections, emptied first when fresh.
  function claimRollups(dbh, n, fresh, from) {
    claimBuilt(dbh, n.rollupMinute, 'timeseries-rollup', fresh, 'write per-minute rollups into', null, from);
    claimBuilt(dbh, n.rollupHour, 'timeseries-rollup', fresh, 'write per-hour rollups into', null, from);
  }

  // The per-hour rollup recomputed from the per-minute one, over span's hours (all when null).
  function hoursFromMinutes(dbh, n, span) {
    dbh
      .getCollection(n.rollupMinute)
      .aggregate([
        { $match: span ? { _id: range(span.from, span.to) } : {} },
        { $group: Object.assign({ _id: { $toDate: arithmeticKey('$_id', HOUR) } }, MERGE) },
        { $merge: { into: n.rollupHour, whenMatched: 'replace', whenNotMatched: 'insert' } },
      ])
      .toArray();
  }

  // The rollups of a whole build, from the per-minute buckets just built from the same events: a
  // bucket already holds its minute's count, sum, min and max (the same $group over the same events
  // in the same order), so the minute rollup is the buckets without their events, and the events are
  // read once for both designs instead of twice (each read goes through the created_on index).
  function rollupsFromBuckets(dbh, coll) {
    var n = names(coll);
    // the events the buckets hold, as their marker names them
    var from = LabFixture.inspect(dbh, n.bucket).meta.builtFrom;
    claimRollups(dbh, n, true, from);
    dbh
      .getCollection(n.bucket)
      .aggregate([
        { $project: { count: 1, sum: 1, min: 1, max: 1 } },
        { $merge: { into: n.rollupMinute, whenMatched: 'replace', whenNotMatched: 'insert' } },
      ])
      .toArray();
    hoursFromMinutes(dbh, n, null);
    markBuilt(dbh, [n.rollupMinute, n.rollupHour], from);
  }

  // A time-series collection of the same events, copied in created_on order one page at a time
  // (whole hours holding ~10,000 events on average, so memory does not grow with the data), so the
  // server's buckets fill up one after the other instead of all at once.
  function buildTimeseries(dbh, coll) {
    var n = names(coll);
    var from = eventsIdentity(dbh, coll);
    claimBuilt(
      dbh,
      n.timeseries,
      'timeseries-copy',
      true,
      'replace by a time-series copy',
      { timeseries: { timeField: 'created_on', granularity: 'seconds' } },
      from
    );
    var copied = 0;
    spans(dbh, n.raw, 10000).forEach(function (span) {
      var page = dbh
        .getCollection(n.raw)
        .find({ created_on: range(span.from, span.to) }, { created_on: 1, value: 1 })
        .sort({ created_on: 1 })
        .toArray();
      if (page.length) dbh.getCollection(n.timeseries).insertMany(page, { ordered: false });
      copied += page.length;
    });
    // A secondary index on the time field lets $match skip buckets without reading them.
    dbh.getCollection(n.timeseries).createIndex({ created_on: 1 });
    markBuilt(dbh, [n.timeseries], from);
    return copied;
  }

  // Storage of each design: what its collections take on disk (compressed) and in indexes.
  function storage(dbh, coll, variant) {
    var n = names(coll);
    var colls = variant === 'raw' || variant === 'dateTrunc' ? [n.raw] : designColls(n, variant);
    var out = { docs: 0, dataSize: 0, storageSize: 0, indexSize: 0, colls: colls };
    // On-disk sizes are only current after a checkpoint: ask for one (needs the fsync privilege).
    try {
      dbh.getSiblingDB('admin').runCommand({ fsync: 1 });
    } catch (e) {
      /* sizes as of the last checkpoint */
    }
    colls.forEach(function (c) {
      var s = dbh
        .getCollection(c)
        .aggregate([{ $collStats: { storageStats: {} } }])
        .toArray()[0].storageStats;
      out.docs += lab.num(s.count || (s.timeseries ? s.timeseries.bucketCount : 0) || 0);
      out.dataSize += lab.num(s.size || 0);
      // A checkpoint taken while a collection was being filled leaves blocks in its file that
      // WiredTiger will reuse but not give back: the file's size then depends on when checkpoints
      // happened to fall (another client's fsync, the 60 s timer), not on the design. Count the
      // bytes in use, the file minus its reusable blocks, for the collection and each index.
      out.storageSize += lab.num(s.storageSize || 0) - reusableBytes(s.wiredTiger);
      out.indexSize += lab.num(s.totalIndexSize || 0);
      Object.keys(s.indexDetails || {}).forEach(function (k) {
        out.indexSize -= reusableBytes(s.indexDetails[k]);
      });
    });
    out.totalSize = out.storageSize + out.indexSize;
    return out;
  }

  function reusableBytes(wt) {
    var bm = wt && wt['block-manager'];
    return bm ? lab.num(bm['file bytes available for reuse'] || 0) : 0;
  }

  function fmtBytes(b) {
    if (b >= 1073741824) return (b / 1073741824).toFixed(2) + ' GB';
    if (b >= 1048576) return (b / 1048576).toFixed(1) + ' MB';
    if (b >= 1024) return (b / 1024).toFixed(0) + ' KB';
    return b + ' B';
  }

  // Two answers agree when they have the same groups with the same count, min and max, and
  // averages equal up to the rounding of a different summation order.
  function sameRows(a, b) {
    if (a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) {
      var x = a[i];
      var y = b[i];
      if (x.t.getTime() !== y.t.getTime() || x.count !== y.count || x.min !== y.min || x.max !== y.max) return false;
      if (Math.abs(x.avg - y.avg) > 1e-9 * Math.max(1, Math.abs(x.avg))) return false;
    }
    return true;
  }

  return {
    SECOND: SECOND,
    MINUTE: MINUTE,
    HOUR: HOUR,
    DAY: DAY,
    START_TIMES: START_TIMES,
    YEAR_FROM: YEAR_FROM,
    YEAR_TO: YEAR_TO,
    GRAINS: GRAINS,
    VARIANTS: VARIANTS,
    names: names,
    calibrate: calibrate,
    query: query,
    available: available,
    eventsIdentity: eventsIdentity,
    designState: designState,
    aggregate: aggregate,
    runStartTimes: runStartTimes,
    printSourceTable: printSourceTable,
    ensureEvents: ensureEvents,
    idType: idType,
    buildBuckets: buildBuckets,
    refreshRollups: refreshRollups,
    rollupsFromBuckets: rollupsFromBuckets,
    buildTimeseries: buildTimeseries,
    storage: storage,
    fmtBytes: fmtBytes,
    sameRows: sameRows,
    formatRow: formatRow,
  };
})();

// ---- what the grain scripts run ------------------------------------------------------------------
// Parameters (globals set with --eval before the file; all optional):
//   COLL         events collection                          (default 'randomData', as the source)
//   N, SEED      events to generate when it is empty        (default 1000000, seed 1; the source had
//                50,000,000: load those with node tools/timeseries-load-bench.js or the lab's CLI)
//   ID           the generated events' _id: 'int' (the lab's: the event's number) or 'objectId'
//                (the source's writer; the same events, byte for byte, as the Node loader's)
//   VARIANTS     designs to run, comma-separated, or 'all'  (default 'raw', the source's design)
//   PRINT_ROWS   print every group's row, as the source's enablePrintResult did (default false)
//   EMIT_GROUPS  put every group's row in the @@LAB records (extra.intervals[].rows), for the tests
//   LAB_LINES    true prints the machine-readable @@LAB lines (default false)
//   GENERATE     true lets it generate into a COLL you named that does not exist (a typo is refused)
//   KEEP         true keeps, in a database the lab did not make, what the run made there (default:
//                dropped at its end; in a database the lab made, everything stays for the next run)
TS.params = function () {
  lab.declare(
    ['COLL', 'N', 'SEED', 'ID', 'VARIANTS', 'PRINT_ROWS', 'EMIT_GROUPS', 'LAB_LINES', 'GENERATE', 'KEEP'],
    'this time-series script'
  );
  var p = {
    COLL: lab.param('COLL', 'randomData', 'name'),
    N: lab.param('N', 1000000, 'count'),
    SEED: lab.param('SEED', 1, 'count'),
    ID: TS.idTypeParam(lab.param('ID', 'int', 'name')),
    VARIANTS: lab.param('VARIANTS', 'raw', 'names'),
    PRINT_ROWS: lab.param('PRINT_ROWS', false, 'bool'),
    EMIT_GROUPS: lab.param('EMIT_GROUPS', false, 'bool'),
    LAB_LINES: lab.param('LAB_LINES', false, 'bool'),
    GENERATE: lab.param('GENERATE', false, 'bool'),
    KEEP: lab.param('KEEP', false, 'bool'),
  };
  p.variants = TS.chosen(p.VARIANTS);
  return p;
};

// The ID parameter checked: the writer of the events' _id, 'int' (the lab's) or 'objectId' (the source's).
TS.idTypeParam = function (v) {
  var id = v === undefined ? 'int' : v;
  if (!Object.prototype.hasOwnProperty.call(LabGen.TS_FIXTURES, id))
    throw lab.paramError(
      'parameter ID: expected ' +
        Object.keys(LabGen.TS_FIXTURES).join(' or ') +
        " (the events' _id: the lab's int, or the source's ObjectId), got " +
        JSON.stringify(id)
    );
  return id;
};

// The designs named by a VARIANTS value ('' or 'all': every one), validated.
TS.chosen = function (csv) {
  var chosen = csv === 'all' || csv === '' ? TS.VARIANTS.slice() : lab.list(csv);
  chosen.forEach(function (v) {
    if (TS.VARIANTS.indexOf(v) < 0)
      throw lab.paramError(
        'parameter VARIANTS: unknown design ' + JSON.stringify(v) + ' (known: ' + TS.VARIANTS.join(', ') + ', or all)'
      );
  });
  return chosen;
};

// What each design runs, in words (the records' `what`).
TS.WHAT = {
  raw: "events, $match on the created_on index, $group on an arithmetic key (the source's)",
  dateTrunc: 'events, $group on a $dateTrunc key',
  bucket: 'one document per minute holding its events',
  timeseries: 'a time-series collection, same pipeline as raw',
  rollup: 'per-minute and per-hour rollups kept by $merge',
};

// The environment record a drop-in script prints once (the same shape as lab.main's).
TS.emitEnvironment = function (info, p, extra) {
  if (p.LAB_LINES === false) return;
  lab.emit(Object.assign({ type: 'environment', study: 'timeseries', server: info, params: p }, extra || {}));
};

/**
 * The source's pass over T1..T5 as one result record: the five interval times are the samples
 * (their mean is the source's "Average"), each interval's detail in extra.intervals.
 */
TS.passRecord = function (res, o) {
  var opts = o || {};
  return lab.timesRecord({
    study: 'timeseries',
    variant: res.variant,
    what: TS.WHAT[res.variant],
    axis: Object.assign({ grain: res.grain }, opts.axis || {}),
    times: res.runs.map(function (r) {
      return r.aggMs;
    }),
    answer: {
      groups: res.runs.reduce(function (a, r) {
        return a + r.groups;
      }, 0),
      events: res.runs.reduce(function (a, r) {
        return a + r.events;
      }, 0),
    },
    extra: {
      pass: "one pass over T1..T5 (the source's table; times are the aggregation until its first result)",
      intervals: res.runs.map(function (r) {
        var x = {
          T: r.label,
          from: r.from,
          to: r.to,
          groups: r.groups,
          events: r.events,
          aggMs: r.aggMs,
          fetchMs: r.fetchMs,
        };
        if (opts.rows) x.rows = r.rows;
        return x;
      }),
      avgFetchMs: res.avgFetchMs,
    },
    plan: res.plan,
    agrees: opts.agrees,
  });
};

// One design at one grain: its five start times and their averages printed, or why it is skipped
// (null).
TS.grainVariant = function (p, grain, grainName, variant) {
  print('');
  if (!TS.available(db, p.COLL, variant)) {
    print(
      variant +
        ': ' +
        TS.designState(db, p.COLL, variant, TS.eventsIdentity(db, p.COLL)).why +
        ', run ts_designs.js first (skipped)'
    );
    return null;
  }
  var res = TS.runStartTimes(db, variant, p.COLL, grain, { printRows: p.PRINT_ROWS });
  if (!res) {
    print(variant + ': cannot answer ' + grain.title + ' (skipped)');
    if (p.LAB_LINES)
      lab.emit(
        lab.resultRecord({
          study: 'timeseries',
          variant: variant,
          what: TS.WHAT[variant],
          axis: { grain: grainName },
          skipped: lab.notHere(),
        })
      );
    return null;
  }
  print(
    variant +
      ' | plan ' +
      res.plan.stage +
      ' | explainVersion ' +
      res.plan.explainVersion +
      (res.plan.explainVersion === '2' ? ' (SBE)' : ' (classic)')
  );
  TS.printSourceTable(res);
  print(grain.title + ' aggregation took: ' + lab.fmtMs(res.avgAggMs) + ' on average');
  print(grain.title + ' aggregation and fetch took: ' + lab.fmtMs(res.avgFetchMs) + ' on average');
  return res;
};

// One grain, the source's way: T1..T5 and their average, for each chosen design.
TS.grainMain = function (grainName) {
  var grain = TS.GRAINS[grainName];
  var p = TS.params();
  var info = lab.header(
    'Time series, ' + grain.title + ' (source 003)',
    db,
    'collection ' + db.getName() + '.' + p.COLL
  );
  // What the run makes in a database the lab did not make goes at its end, whatever happened.
  var start = LabFixture.runStart(db);
  var results;
  try {
    results = TS.grainBody(grain, grainName, p, info);
  } finally {
    LabFixture.finishRun(db, start, { keep: p.KEEP });
  }
  return results;
};

TS.grainBody = function (grain, grainName, p, info) {
  var fixture = TS.ensureEvents(
    db,
    p.COLL,
    p.N,
    p.SEED,
    lab.mayGenerate(p, p.COLL, { COLL: { def: 'randomData' } }),
    p.ID
  );
  var perInterval = (fixture.count * grain.width) / (366 * TS.DAY);
  print(
    'events ' +
      lab.fmtInt(fixture.count) +
      ' | intervals of ' +
      lab.fmtMs(grain.width) +
      ' grouped by ' +
      lab.fmtMs(grain.group) +
      ', epoch-aligned, UTC | one pass over the five start times, as the source'
  );
  if (perInterval < 5) {
    print(
      'note: ' +
        lab.fmtInt(fixture.count) +
        ' events over 2012 put ~' +
        perInterval.toPrecision(2) +
        ' events in one ' +
        grain.title.split(' in ')[1] +
        ': most groups are empty at this scale (the source had 50,000,000: ~' +
        Math.round((50000000 * grain.width) / (366 * TS.DAY)) +
        ')'
    );
  }
  TS.emitEnvironment(info, p, { fixture: fixture, grain: grainName });
  var results = [];
  p.variants.forEach(function (variant) {
    var res = TS.grainVariant(p, grain, grainName, variant);
    if (res) results.push(res);
  });
  var agree = null;
  if (results.length > 1) {
    var base = results[0];
    agree = results.every(function (r) {
      return r.runs.every(function (run, i) {
        return TS.sameRows(run.rows, base.runs[i].rows);
      });
    });
    print('');
    print(agree ? 'all designs agree on every interval' : 'DESIGNS DISAGREE');
  }
  if (p.LAB_LINES) {
    results.forEach(function (res) {
      lab.emit(
        TS.passRecord(res, { rows: p.EMIT_GROUPS, agrees: agree === null ? null : TS.sameRowsAll(res, results[0]) })
      );
    });
  }
  return results;
};

// Every interval of two passes holds the same rows.
TS.sameRowsAll = function (a, b) {
  return a.runs.every(function (run, i) {
    return TS.sameRows(run.rows, b.runs[i].rows);
  });
};
