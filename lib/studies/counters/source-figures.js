'use strict';
// The source's own figures (004, rick446/mongodb-sdas @60cac38f, the files its notebook plotted),
// as result records for the source replay (lib/core/source-replay.js, test/unit/source-replay.test.js).
// WPS are the rows "minute,wps" of times_<schema>_wps.csv (writer.py: ONE process, pymongo
// Connection, unacknowledged upserts with a getLastError every 100th write: barrierEvery 100) of the first complete
// simulated day (file rows 291-1387 initial, 279-1481 prealloc, 278-1582 hier; the day between the
// first two wraps of the minute column, as docs/derive/sdas_counters.py splits them), hours 00, 01,
// 22 and 23, in file order, rounded to 0.1 writes/s. Their medians are the derivation's:
// initial 3,431.8 -> 291.2, preallocated 3,464.3 -> 898.5, hierarchical 3,495.3 -> 3,332.9.
// Each row becomes one simulated minute of HITS hits timed at the row's rate: time = HITS / wps
// (in ms: 1e6 / wps for 1,000 hits), so a rule's writes/s are the row's. Rows of two schemas are
// paired by their order within the hour (the runs were separate: no two rows share a clock minute).
const fs = require('fs');
const path = require('path');
const { pointRecords } = require('../../core/source-replay');

const HITS = 1000;

// The rows themselves are in source-wps.csv beside this file (schema,hour,wps; file order kept).
const WPS = readWps(path.join(__dirname, 'source-wps.csv'));

/** schema -> hour -> the hour's writes/s rows in file order, from the CSV. */
function readWps(file) {
  const out = {};
  const [, ...rows] = fs.readFileSync(file, 'utf8').trim().split('\n');
  for (const row of rows) {
    const [schema, hour, wps] = row.split(',');
    const hours = out[schema] || (out[schema] = {});
    (hours[hour] || (hours[hour] = [])).push(Number(wps));
  }
  return out;
}

const HOURS = [0, 1, 22, 23];
const quiet = { start: 0.1, end: 0.1, cores: 2, cpuWait: 0 };

/** One schema-hour as the counters study records it (variant named like the shell's day). */
function hourRecord(schema, hour) {
  const times = WPS[schema][hour].map((w) => (HITS * 1000) / w);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    type: 'result',
    study: 'counters',
    variant: schema,
    axis: { day: 0, hour },
    unit: 'ms',
    times,
    runs: times.length,
    median: sorted[Math.floor(sorted.length / 2)],
    agrees: true,
    extra: { hitsPerMinute: HITS, wc: 'w0', writers: 1, client: 'pymongo', barrierEvery: 100 },
    loadavg: quiet,
    source: true,
  };
}

/** The day's records of the given schemas at 00-02h and 22-24h. */
function dayRecords(schemas) {
  return schemas.flatMap((s) => HOURS.map((h) => hourRecord(s, h)));
}

/**
 * The source's day read as the minute 0 vs 1439 part: a layout's 00-02h rows as minute 0 and its
 * 22-24h rows as minute 1439 (its documents had minute 0's field early and minute 1439's late),
 * paired by order, as many as the shorter side has. flat = the preallocated schema, hierarchical =
 * the hierarchical one; mode bulk: the source's writer pipelined its unacknowledged upserts.
 */
function scanRecords(layout, schema) {
  const early = [...WPS[schema][0], ...WPS[schema][1]];
  const late = [...WPS[schema][22], ...WPS[schema][23]];
  const n = Math.min(early.length, late.length);
  const ms = (ws) => ws.slice(0, n).map((w) => (HITS * 1000) / w);
  const mk = (variant, times) => ({
    type: 'result',
    study: 'counters',
    variant,
    axis: { part: 'scan', layout, mode: 'bulk' },
    unit: 'ms',
    times,
    runs: n,
    ratio: { to: 'minute-0', perRound: true },
    agrees: true,
    extra: { updates: HITS },
    loadavg: quiet,
    source: true,
  });
  return [mk('minute-0', ms(early)), mk('minute-1439', ms(late))];
}

module.exports = {
  // MongoDB 2.0 or 2.2 (September 2012; the text names no version; either is MMAPv1); the replay
  // assumes 2.2.0. The instance type is not in the text.
  env: { version: '2.2.0', storageEngine: 'mmapv1', cores: 2 },
  claims: {
    // with the hierarchical schema: the level control a start-to-end loss needs (x0.95 here)
    '004-growing-documents-collapse/collapse': {
      records: dayRecords(['initial', 'preallocated', 'hierarchical']),
      params: { WC: 'w0' },
      expect: 'holds',
    },
    '004-preallocation-fixes-it/fix': {
      records: dayRecords(['initial', 'preallocated']),
      params: { WC: 'w0' },
      expect: 'holds',
    },
    '004-preallocated-drift/slows': {
      records: dayRecords(['preallocated', 'hierarchical', 'initial']),
      params: { WC: 'w0' },
      expect: 'holds',
    },
    '004-field-scan-hierarchy/scan': {
      records: [
        ...scanRecords('flat', 'preallocated'),
        ...scanRecords('hierarchical', 'hierarchical'),
        ...dayRecords(['preallocated', 'hierarchical']),
      ],
      expect: 'holds',
    },
    // the text gives the count (1,439) and "substantially more space"; the sizes are the derivation's
    // (~100 B after the first hit, ~15 KB with all 1,440 minute fields: 10 B a field), not a measurement
    '004-document-growth': {
      records: [
        {
          type: 'measure',
          study: 'counters',
          name: 'avg-bson-bytes',
          variant: 'node-initial',
          axis: { part: 'storage' },
          value: 15000,
          unit: 'bytes',
          extra: { firstHitBytes: 100 },
          source: true,
        },
      ],
      params: { RUNS: 60, WARMUP: 0 },
      expect: 'holds',
    },
    // a day claim, judged on the day (the hierarchical 00-02h and 22-24h rows), as the source's was
    '004-field-scan-hierarchy/level': {
      records: dayRecords(['hierarchical']),
      params: { WC: 'w0' },
      expect: 'holds',
    },
  },
  // for the unit tests: the rows themselves
  helpers: { WPS, dayRecords, scanRecords, pointRecords },
};
