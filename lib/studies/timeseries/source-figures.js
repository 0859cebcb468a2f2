'use strict';
// Source 003's own published figures as records (lib/core/source-replay.js): every claim of the
// timeseries study with a published figure, replayed on them, must reach the source's conclusion.
// The source: MongoDB 2.4.6 (MMAPv1), 50,000,000 events, an 8 GB workstation (cores not stated),
// one pass over T1..T5 per state. Times in ms.
const { stateRecords, warmupRecords, SOURCE_SIZES } = require('./state-records');

// The state's "Average" row, hours in a day (the mean of T1..T5 of each table):
//   cold      (1.771 + 1.366 + 1.216 + 1.135 + 1.078) / 5 = 1.3132 s
//   warm-both (5.694 + 5.336 + 5.179 + 5.351 + 5.366) / 5 = 5.3852 s (touch {data, index})
//   warm-data (1.014 + 0.968 + 1.045 + 0.983 + 0.951) / 5 = 0.9922 s (touch {data})
//   warm-year (0.905 + 0.858 + 0.952 + 0.873 + 0.858) / 5 = 0.8892 s (after the year aggregation)
// The source ran one pass per state; its five timestamps T1..T5 are fed as five passes, paired by
// timestamp, so the spread between the source's own cells decides (the rule 002-dups-vs-n uses;
// second adversarial read of 003, dispute 4): cold/warm-data [1.03x, 1.64x] straddles 1.1x
// (003-touch-data unsupported), warm-data/warm-year [1.100x, 1.132x] (003-preload holds, narrowly).
const HOURS_BY_TIMESTAMP = {
  cold: [1771, 1366, 1216, 1135, 1078],
  'warm-both': [5694, 5336, 5179, 5351, 5366],
  'warm-data': [1014, 968, 1045, 983, 951],
  'warm-year': [905, 858, 952, 873, 858],
};
// The warm-ups were timed once each; a replay needs three for an interval. Every state gets the
// same factor (one machine in one round, as source-replay's ROUND_FACTORS), so each ratio is the
// published one and the interval is its point.
const PASS_FACTORS = [0.99, 1.0, 1.01];
const passes = (ms) => PASS_FACTORS.map((f) => ms * f);

// The setting the claims judge the run by. MMAPv1 maps its files, so what it holds in memory is
// storageSize + indexes: totalSize 7,133,702,032 - totalIndexSize 2,717,890,448 = 4,415,811,584 B
// of data files, and "the 8GB RAM limit" (8,000,000,000 B): 7.13 GB is 89 % of it (the source: "If I
// choose to preload all data and indexes I'm going to hit the 8GB RAM limit"), the data alone fits.
const SETTING = { cacheBytes: 8e9, dataBytes: 4415811584, indexBytes: 2717890448, events: 50000000 };

// What each pass found in memory, from the source's own statements (it measured no cache counters;
// the bytes below stand for them, in units of what a cold pass reads: 1 MB of documents and 1 MB of
// created_on):
//   cold: "between each test we are going to restart the database, so no index gets pre-loaded":
//     nothing in memory before, the working set read in;
//   warm-both: "hit the 8GB RAM limit ... This will cause swapping": the working set read in again;
//   warm-data: "the data size fits entirely in RAM" and touch {data} loaded it: no documents read,
//     created_on (not touched) read in;
//   warm-year: "our estimated working set is about ... 4.31GB, ensuring us the current working set
//     fits our RAM": nothing read.
const COLD_READ = { data: 1e6, created_on_1: 1e6 };
const ALL = { data: SOURCE_SIZES.data, created_on_1: SOURCE_SIZES.created_on_1, _id_: SOURCE_SIZES._id_ };
const STATES = {
  cold: { times: HOURS_BY_TIMESTAMP.cold, read: COLD_READ, cached: {} },
  'warm-both': { times: HOURS_BY_TIMESTAMP['warm-both'], read: COLD_READ, cached: ALL },
  'warm-data': {
    times: HOURS_BY_TIMESTAMP['warm-data'],
    read: { data: 0, created_on_1: COLD_READ.created_on_1 },
    cached: { data: SOURCE_SIZES.data },
  },
  'warm-year': {
    times: HOURS_BY_TIMESTAMP['warm-year'],
    read: { data: 0, created_on_1: 0 },
    cached: { data: SOURCE_SIZES.data, created_on_1: SOURCE_SIZES.created_on_1 },
  },
};
// The warm-ups: touch {data} 14.025 s, touch {data, index} 15.897 s, the year aggregation 299.666 s.
const WARMUPS = {
  'warm-data': passes(14025),
  'warm-both': passes(15897),
  'warm-year': passes(299666),
};
const CACHE = '8GB';
// "This will cause swapping": with 7.13 GB touched into 8 GB of RAM the warm-both passes re-read
// mapped pages from their files (RAM short, the gate of 003-touch-both). The source measured no
// disk reads; the bytes stand for its statement, in the units of COLD_READ.
const ramShort = (rec) =>
  rec.axis.state === 'warm-both'
    ? { ...rec, extra: { ...rec.extra, passes: rec.extra.passes.map((p) => ({ ...p, diskReadBytes: 2e6 })) } }
    : rec;
const STATE_RECORDS = [
  ...stateRecords(STATES, { setting: SETTING, cache: CACHE }).map(ramShort),
  ...warmupRecords(WARMUPS, { cache: CACHE }),
];

/** Storage measures at the source's scale: dataSize and totalIndexSize of its collection. */
const SIZE_RECORDS = [
  ['events', null, 50000000],
  ['dataSize', 'raw', 3200000032],
  ['indexSize', 'raw', 2717890448],
  // its documents: {_id: ObjectId, created_on: Date, value: double} (the printed document)
  ['idType', null, 'objectId'],
].map(([name, variant, value]) => ({ type: 'measure', study: 'timeseries', name, variant, axis: {}, value }));

module.exports = {
  env: { version: '2.4.6', storageEngine: 'mmapv1', cores: 2 },
  claims: {
    // 5.385 s / 1.3132 s = 4.10x (per timestamp [3.36x, 5.16x]), inside [1.37x, 12.3x]
    '003-touch-both': { records: STATE_RECORDS, expect: 'holds' },
    // 1.3132 s / 0.9922 s = 1.32x, but per timestamp [1.03x, 1.64x]: across 1.1x, unsupported
    '003-touch-data': { records: STATE_RECORDS, expect: 'unsupported' },
    // 0.9922 s / 0.8892 s = 1.116x against touch data (the state before it in the text, the rule's
    // comparator); per timestamp [1.1002x, 1.132x], inside [1.1x, 1.5x] by a hair (T3 is 1.098x)
    '003-preload': { records: STATE_RECORDS, expect: 'holds' },
    // the 57 B of BSON is derived from the printed document: 2.4's dataSize (64 B) counts allocation,
    // so its own figures cannot show the BSON bytes (read-3 dispute 18: the split)
    '003-bytes/data': {
      none: "2.4's dataSize counts each record's allocation; the 57 B is the printed document's BSON",
    },
    // 3,200,000,032 B / 50,000,000 = 64.0 B, less the document's 57 B of BSON: 7 B of allocation, 1.0
    '003-bytes/allocation': { records: SIZE_RECORDS, expect: 'holds' },
    // created_on_1 alone (the state passes' residency carries each index's size): 1,257,869,424 B /
    // 50,000,000 = 25.2 B: 1.0 (both indexes 54.4 B, with the ObjectId _id_ the lab does not judge)
    '003-bytes/index': { records: [...STATE_RECORDS, ...SIZE_RECORDS], expect: 'holds' },
    // 299.666 s / 14.025 s = 21.4x, inside [7.1x, 64x] (on MMAPv1, where touch exists; one timing
    // of each in the source, repeated x0.99/x1/x1.01 to read the ratio: no interval is the source's)
    '003-touch-cost': { records: STATE_RECORDS, expect: 'holds' },
    // 15.897 s / 14.025 s = 1.13x, inside [0.8x, 1.6x]
    '003-touch-index-cost': { records: STATE_RECORDS, expect: 'holds' },
    // never measured without _id_ by the source (touch loads every index)
    '003-id-index-unneeded/hinders': { records: STATE_RECORDS, expect: 'unsupported' },
    // the working set (4.31 GB) fitted 8 GB: nothing read in after the preload
    '003-working-set': { records: STATE_RECORDS, expect: 'holds' },
    // 0.209 s / 0.040 s = 5.2x, consistent with the figures; the previous post's setting is absent
    '003-vs-previous-and-oracle/five-times': { none: "the previous post's setting is not in this text" },
    // of the 5.2x, this post's own cold-to-preload minutes give 2.17x
    '003-vs-previous-and-oracle/attribution': { records: [], expect: 'unsupported' },
    '003-vs-previous-and-oracle/oracle': { none: 'no Oracle here; the rule measures nothing' },
  },
};
