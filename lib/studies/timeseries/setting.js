'use strict';
// The timeseries study's names and the source's published setting (source 003): what the
// declaration, its measurements, its terminal lines and its charts share.

const NAME = 'timeseries';
const MINUTES_IN_2012 = 366 * 24 * 60;
const SOURCE_EVENTS = 50000000;
// Below this many events per minute the seconds-in-a-minute intervals are mostly empty groups.
const MIN_EVENTS_PER_MINUTE = 5;

// The source's published figures: aggregation time in seconds, MongoDB 2.4.6 (MMAPv1), 50,000,000
// events, 8 GB RAM workstation; per state, [seconds in a minute, minutes in an hour, hours in a day].
const SOURCE_FIGURES = {
  cold: {
    T1: [0.02, 0.097, 1.771],
    T2: [0.01, 0.089, 1.366],
    T3: [0.02, 0.089, 1.216],
    T4: [0.01, 0.084, 1.135],
    T5: [0.02, 0.082, 1.078],
    Average: [0.016, 0.088, 1.3132],
  },
  'warm-both': {
    T1: [0.016, 0.359, 5.694],
    T2: [0, 0.343, 5.336],
    T3: [0.015, 0.375, 5.179],
    T4: [0.01, 0.359, 5.351],
    T5: [0.016, 0.343, 5.366],
    Average: [0.009, 0.355, 5.385],
  },
  'warm-data': {
    T1: [0, 0.047, 1.014],
    T2: [0, 0.047, 0.968],
    T3: [0.016, 0.047, 1.045],
    T4: [0, 0.047, 0.983],
    T5: [0, 0.046, 0.951],
    Average: [0.003, 0.046, 0.992],
  },
  'warm-year': {
    T1: [0, 0.032, 0.905],
    T2: [0, 0.046, 0.858],
    T3: [0, 0.047, 0.952],
    T4: [0, 0.031, 0.873],
    T5: [0, 0.047, 0.858],
    Average: [0, 0.04, 0.889],
  },
};
const SOURCE_WARMUP = {
  'warm-both': 'touch {data, index}: 15.9 s',
  'warm-data': 'touch {data}: 14.0 s',
  'warm-year': 'year aggregation: 299.7 s',
};
const SOURCE_SETTING = 'MongoDB 2.4.6 (MMAPv1), 50,000,000 events, 8 GB RAM';
// The source's data + indexes (5.9 GB + overhead: 7.13 GB) over its 8 GB of RAM. STATES_CACHE=source
// sizes the WiredTiger cache so that this run's data + indexes fill it as much: the source's setting
// (data fits, data + indexes nearly fill the memory) at any scale, without a machine of 8 GB.
const SOURCE_FILL = 7.13 / 8;

// The source's states: a restart, then a warm-up (none for cold, where every grain starts from a restart).
const STATES = [
  { name: 'cold', title: 'cold (restart before each grain)', warm: null },
  { name: 'warm-data', title: 'after warming the data (warmup_data.js)', warm: 'data' },
  {
    name: 'warm-indexes',
    title: 'after warming the indexes (warmup_indexes.js; no source counterpart)',
    warm: 'indexes',
  },
  { name: 'warm-both', title: "after warming data and indexes (warmup.js; the source's touch)", warm: 'both' },
  {
    name: 'warm-no-id',
    title: "after warming the data and the created_on index only (no _id_: the source's advice)",
    warm: 'data-no-id',
  },
  { name: 'warm-year', title: "after the year aggregation (agg_year.js; the source's preload)", warm: 'year' },
];
const STATE_GRAINS = ['seconds', 'minutes', 'hours'];
const GRAIN_TITLES = {
  seconds: 'seconds in a minute',
  minutes: 'minutes in an hour',
  hours: 'hours in a day',
  days: 'days in the year',
};
const DESIGNS = ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'];

module.exports = {
  NAME,
  MINUTES_IN_2012,
  SOURCE_EVENTS,
  MIN_EVENTS_PER_MINUTE,
  SOURCE_FIGURES,
  SOURCE_WARMUP,
  SOURCE_SETTING,
  SOURCE_FILL,
  STATES,
  STATE_GRAINS,
  GRAIN_TITLES,
  DESIGNS,
};
