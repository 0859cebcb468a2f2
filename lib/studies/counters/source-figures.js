'use strict';
// The source's own figures (004, rick446/mongodb-sdas @60cac38f, the files its notebook plotted),
// as result records for the source replay (lib/core/source-replay.js, test/unit/source-replay.test.js).
// WPS below are the rows "minute,wps" of times_<schema>_wps.csv (writer.py: ONE process, pymongo
// Connection, unacknowledged upserts with a getLastError every 100th write) of the first complete
// simulated day (file rows 291-1387 initial, 279-1481 prealloc, 278-1582 hier; the day between the
// first two wraps of the minute column, as docs/derive/sdas_counters.py splits them), hours 00, 01,
// 22 and 23, in file order, rounded to 0.1 writes/s. Their medians are the derivation's:
// initial 3,431.8 -> 291.2, preallocated 3,464.3 -> 898.5, hierarchical 3,495.3 -> 3,332.9.
// Each row becomes one simulated minute of HITS hits timed at the row's rate: time = HITS / wps
// (in ms: 1e6 / wps for 1,000 hits), so a rule's writes/s are the row's. Rows of two schemas are
// paired by their order within the hour (the runs were separate: no two rows share a clock minute).
const { pointRecords } = require('../../core/source-replay');

const HITS = 1000;

const WPS = {
  initial: {
    0: [
      1402.4, 3853.9, 3409.2, 3768.4, 4862.2, 2905.2, 4696.1, 3615.2, 3482.7, 4097.6, 4639.3, 3304.4, 3677.8, 4350.5,
      3132.1, 4793.2, 4755.3, 2815.6, 4818.1, 2880.2, 4270.3, 4646.3, 3329.3, 3403.4, 4754.1, 3103.2, 3668.9, 3816.7,
      4407.6, 4789.8, 3553.7, 2401.3, 4511.6, 3439.5, 4577.7, 2703.9, 3478.5, 3892.6, 4676.6, 3085.8, 3465.1, 4401.6,
      3535.1, 3555.4, 4211.2, 3503.8, 4537.7, 2779.6, 4736.9, 3225, 3378.4, 3407.7, 3773, 4432.7, 3272.6, 4549.2,
    ],
    1: [
      2783.8, 4543.9, 2710.6, 4451.1, 2486.8, 3308.9, 3907, 3865.7, 3352.2, 3033.5, 4426.5, 3292.9, 3228.8, 4519.2,
      3028.3, 3424.2, 3805.6, 3382.5, 2829.6, 4099.8, 3308.4, 4155.4, 2577, 4035.1, 3421.5, 3121.6, 3244.9, 2689.6,
      1601.5, 2950.1, 1461.1, 2494.5, 261.6, 2770.4, 2342.7, 4075.5, 3165, 4101.1, 3417.3, 3269.3, 3185.7, 2953.7,
      3301.3, 4247.5, 2504.4, 4034.4, 1338, 3873.5, 2704.1, 3267.7, 3292.2, 4298.5, 2321.6, 4183,
    ],
    22: [
      348.2, 291.3, 392.6, 248.7, 353.5, 290.4, 321.2, 356.3, 292.9, 351.2, 263.5, 351.7, 287.8, 318.8, 291.5, 286.2,
      314.7, 354.9, 294, 293.9, 347.5, 287, 319.4, 291.7, 347.6, 291.1, 289.6, 313.7, 290.3, 350.9, 291, 284.6, 349.8,
      289, 291.3, 347.3,
    ],
    23: [
      283.8, 284.5, 291.4, 347.7, 290.7, 287.8, 339.5, 287.1, 288.1, 289.3, 344.5, 286.9, 289.1, 290.7, 350.2, 264.6,
      308.6, 339.6, 284.9, 283.6, 286.8, 282.6, 345.3, 287.7, 285.8, 290, 346, 284.7, 284.3, 290.1, 348.2, 288.1, 316.4,
      285, 339.5, 282.5,
    ],
  },
  preallocated: {
    0: [
      4653.1, 2735.3, 4417.9, 2875.4, 3796.3, 3997.9, 4389.3, 3579.4, 4459.6, 2290.7, 4924.8, 3449.1, 3160.5, 4937.7,
      3503.2, 4804, 3341.6, 3457.2, 4794.9, 700.2, 4450, 951.2, 4826.2, 2769.7, 4730.8, 3744.3, 3394.8, 3992.4, 4281.3,
      3540.6, 3663, 3517.8, 4221.5, 4425.7, 3350.1, 4774.7, 2868.7, 4150.9, 3209.9, 4716, 2969.7, 4870.3, 2890.2,
      4805.1, 3209.9, 2695.8, 2679.9, 3340.4, 4538.6, 3402.2, 2926.6, 4275, 1910.6, 4338.7,
    ],
    1: [
      1505.1, 4274, 2782.7, 4462, 3497.4, 3464.3, 4496.8, 3083.9, 1716.1, 4166.6, 1924.4, 3345.8, 2425.7, 4074.7,
      3210.1, 3368.1, 4396.5, 3265, 4593.3, 2664.9, 3260.3, 3282, 3055, 4350.9, 2881.9, 4474.7, 3171.4, 3044.4, 4329.6,
      2782.5, 3441.5, 4414.7, 3217.6, 3382, 3859.3, 3057.9, 4051.3, 3435.6, 3593.1, 2355.6, 3401.4, 4578.5, 3082.4,
      3583.1, 3506.2, 4052.4, 3212.9, 4219.8, 3076.9, 3220.9, 3769.1, 3868.4, 3425.2,
    ],
    22: [
      809.2, 1523, 1246.7, 904.8, 944.3, 1440.7, 488.4, 1420.3, 767.3, 1525, 867.9, 997.9, 1226.2, 498.3, 2010, 487.5,
      386.6, 720.2, 1567.3, 882.4, 831.1, 494.4, 637.9, 898.3, 1519.1, 898.8, 883.1, 1218, 464.3, 381.9, 893.6, 706.9,
      1551.8, 1035.6, 916.2, 1044.3, 1030.6, 522.2, 579.7, 886, 1304.3, 1253.2, 638.1, 1652.7, 990.9, 988.4,
    ],
    23: [
      1012.4, 838.5, 1160.1, 888.5, 1427.4, 903.6, 1366.1, 717, 1139.6, 905.1, 1974.5, 435, 893.5, 1003.6, 874.3,
      1103.3, 2159.6, 782.7, 1167.8, 780.1, 3330.4, 1015.8, 791.9, 690.6, 578.9, 671.6, 479.7, 1193.2, 553.8, 568.3,
      1470.2, 634.7, 826, 487.3, 688.2, 1200.9, 888.3, 882.9, 883.1, 1186.1, 840.3, 1138.9, 1230.1, 572.4, 1155, 1336.5,
      1223.8, 408,
    ],
  },
  hierarchical: {
    0: [
      2776.3, 3483, 4231.9, 3421.6, 4241.5, 3166.6, 3749.1, 3411.7, 4235, 3845.7, 2879, 2403.6, 3838.4, 4143.1, 3829.1,
      3374.7, 4942.3, 3178.9, 4913.2, 3593.6, 3784.2, 3777.7, 3142.7, 4414.5, 3351.4, 4684.3, 2521.7, 4855.6, 2283.6,
      4856.4, 3176.1, 4231.2, 2868.9, 3366.1, 2707.5, 4249.9, 3324.5, 4555.7, 2646.5, 3893.2, 2385.5, 4815.3, 3256.9,
      4713.2, 2359.4, 4464.8, 3519.2, 3110, 4701, 3507.7, 3732.1, 3194.7, 4232, 2907.9, 4287.3,
    ],
    1: [
      3615.5, 3209.6, 3394.2, 3041.9, 3612.4, 3141.4, 3885.2, 2609.1, 3056.1, 3145.4, 4920, 2232.6, 3776.3, 4820.1,
      1692.8, 1797.6, 1430.5, 2495.1, 1612.1, 2764.4, 3090.8, 4820.6, 3185.9, 4882, 2858.1, 4822.3, 2850.5, 4107.6,
      3110.8, 3863.7, 4312.4, 2825.8, 4876.6, 2146, 4899.7, 2936.4, 3555.9, 4754.8, 3574, 3661.6, 3872.8, 4818.9,
      3359.2, 4809.9, 2465.5, 4714.2, 3368.5, 3342.1, 3163.4, 3743.6, 2916.5, 4611.2, 2581.8,
    ],
    22: [
      3273.4, 4482.1, 2545.9, 4438.6, 3300, 4473.3, 1959.2, 4598.9, 3453.2, 3777.1, 3914.2, 3413.9, 4676.3, 3085.1,
      4792.9, 1918, 2835.9, 2961, 4663.7, 2504.6, 3890.9, 3037.3, 3046.4, 4421.4, 2022.7, 3071.6, 3521.3, 3081, 2503.8,
      2724.5, 2476.3, 3972.8, 1674.4, 3202.7, 3838.5, 2267.3, 3821.1, 3510, 3449.2, 3384.2, 3361.6, 4378.3, 2289.5,
      2763.4, 3588.8, 3077, 4409.4, 3169.7, 2844.4, 3789.9, 4227.2, 3004.6, 4342.9, 2645.5,
    ],
    23: [
      4465.3, 3006.1, 3099.6, 3003.9, 3049.7, 4495, 4703.7, 3445.1, 1649.2, 3465.2, 4546.8, 2298.6, 4898.9, 3019.4,
      4330.4, 3359.4, 3590.8, 1605.2, 3942.9, 3429.9, 2604.4, 3885.1, 2374.7, 2444.6, 4409.4, 2968.2, 2655.2, 3332.9,
      4554.6, 2272, 4408.3, 2945.3, 3781.5, 2784.2, 2694.7, 3340.7, 4016.5, 3479.7, 2768.6, 3341.6, 3366.7, 3220.6,
      2845.8, 4149.7, 3081.6, 2598.3, 1905.8, 3978.1, 2375.8, 3959, 2900.9, 4400.4, 2771.9, 3986.3, 2430.1,
    ],
  },
};

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
    extra: { hitsPerMinute: HITS, wc: 'w0', writers: 1, client: 'pymongo' },
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
    '004-preallocated-drift/less-than-growing': {
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
    '004-field-scan-hierarchy/level': {
      records: scanRecords('hierarchical', 'hierarchical'),
      expect: 'holds',
    },
  },
  // for the unit tests: the rows themselves
  helpers: { WPS, dayRecords, scanRecords, pointRecords },
};
