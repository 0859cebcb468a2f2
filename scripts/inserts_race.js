// The price of data coherency (source 002, "The Price of Data Coherency and the Cost of Simulated
// Joins, Part 1", 2013): processes that look a key up and insert it when absent, racing over the
// same keys, and the patterns that make that race harmless.
//
// One mongosh is one worker, so this script alone measures what each pattern costs WITHOUT
// contention (and shows it is correct then). The race itself, W workers (16 by default, 54 as the
// source) started together at a barrier, is the Node layer's: `mongo-perf-lab run coherency`.
//
// Usage (from any directory):
//   mongosh perflab path/to/scripts/inserts_race.js
//   mongosh "mongodb://host:port/perflab" --eval 'var N = 4096, CHARS = 2048' path/to/scripts/inserts_race.js
// Parameters (set with --eval before the file; all optional):
//   N      keys: every worker holds the same N entries in the same order (default 1024)
//   CHARS  characters of random data per entry (default 1024)
//   GRID   true: also the source's 3x3 grid (CHARS 1024/2048/4096 x N 1024/2048/4096), check-then-insert only
//   W      racing workers (Node only; default 16, the source had 54)
//   MODE   how Node runs them: connections (default) or processes
//   SEED   generator seed (default 1)
//   COLL   prefix of the scratch collections the script creates and empties (default perflab_race)
//   PG_GRID (Node only) true: PostgreSQL races check-then-insert at every grid cell too (default true)
//   RUNS, WARMUP, BUDGET_MS, MIN_MS, VARIANTS, LAB_LINES   as every study (docs/contract.md)

load(__dirname + '/../fixtures/inserts-gen.js');
load(__dirname + '/lib/lab.js');
load(__dirname + '/../lib/studies/source-002/inserts-lab.mongosh.js');
load(__dirname + '/inserts_functions.js');

var RACE_INDEX = LabInserts.RACE_INDEX; // the indexes each pattern relies on (inserts-gen.js)

function raceDefault(p, point) {
  return point.n === p.N && point.chars === p.CHARS;
}

// One worker through the N entries with `step`; answers the keys present, duplicates in extra.
function raceAlone(p, point, name, pattern, step) {
  var coll = LabInsertsLab.scratch(db, p.COLL + '_' + name);
  var ix = RACE_INDEX[pattern];
  if (ix) coll.createIndex({ key: 1 }, { unique: ix.unique });
  var entries = LabInserts.raceEntries(p.SEED, point.n, point.chars);
  var t0 = lab.now();
  for (var i = 0; i < entries.length; i++) step(coll, entries[i]);
  var ms = lab.now() - t0;
  var d = countDuplicates(coll);
  return lab.took(
    ms,
    { keys: d.keys },
    { duplicates: d.duplicates, opsPerSec: Math.round((entries.length / ms) * 1000) }
  );
}

// One worker alone through the pattern, into its scratch collection.
function raceAloneVariant(pattern, what, scratch, step) {
  return {
    name: 'alone-' + pattern,
    what: 'one worker: ' + what,
    minVersion: '3.2',
    able: raceDefault,
    scratch: scratch,
    run: function (p, point) {
      return raceAlone(p, point, scratch, pattern, step);
    },
  };
}

var STUDY = {
  name: 'coherency',
  title: 'the price of coherency: check-then-insert races and the patterns that fix them',
  source: LabInsertsLab.source('The Price of Data Coherency and the Cost of Simulated Joins (Part 1)', 2013),
  params: {
    N: { kind: 'positive', def: 1024, what: 'keys (entries per worker)' },
    CHARS: { kind: 'positive', def: 1024, what: 'characters of data per entry' },
    GRID: { kind: 'bool', def: false, what: "also the source's 3x3 grid of CHARS x N (check-then-insert)" },
    W: { kind: 'positive', def: 16, what: 'racing workers (Node)' },
    MODE: { kind: 'name', def: 'connections', what: 'connections or processes (Node)' },
    SEED: { kind: 'count', def: 1, what: 'generator seed' },
    COLL: { kind: 'name', def: 'perflab_race', what: 'prefix of the scratch collections' },
    RUNS: { kind: 'count', def: 3, what: 'timed races after the warm-up' },
    PG_GRID: {
      kind: 'bool',
      def: true,
      what: "Node side: PostgreSQL's check-then-insert at every cell of the grid too (false: the default cell)",
    },
  },
  axes: function (p) {
    if (p.MODE !== 'connections' && p.MODE !== 'processes')
      throw lab.paramError('parameter MODE: expected "connections" or "processes", got ' + JSON.stringify(p.MODE));
    if (p.CHARS > LabInserts.MAX_SIZE) throw lab.paramError('parameter CHARS: at most ' + LabInserts.MAX_SIZE);
    var points = [{ chars: p.CHARS, n: p.N }];
    if (p.GRID) {
      [1024, 2048, 4096].forEach(function (chars) {
        [1024, 2048, 4096].forEach(function (n) {
          if (chars !== p.CHARS || n !== p.N) points.push({ chars: chars, n: n });
        });
      });
    }
    return points;
  },
  // The scratch collection of each chosen variant.
  derived: function (p, chosen) {
    return STUDY.variants
      .filter(function (v) {
        return chosen.indexOf(v.name) >= 0;
      })
      .map(function (v) {
        return p.COLL + '_' + v.scratch;
      });
  },
  baseline: 'check-then-insert',
  unit: 'ms',
  variants: [
    raceAloneVariant('check-then-insert', 'findOne by key, insertOne when absent', 'alone_cti', checkThenInsert),
    raceAloneVariant('unique-insert', 'unique index, insertOne, 11000 = already there', 'alone_unique', insertUnique),
    raceAloneVariant('upsert-unique', 'unique index, updateOne $setOnInsert upsert', 'alone_upsert', upsertOnce),
  ],
};

lab.main(STUDY);
