'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
// Per-hour aggregates, the source's query.
module.exports = [
  {
    id: 'rollups',
    do: 'Keep rollups ($merge per minute and hour) for per-interval aggregates, not a $group over raw events',
    claims: ['003-structure-large', '003-compressed-model'],
    compare: { slow: 'raw', fast: 'rollup', at: { grain: 'hours' } },
  },
  {
    id: 'timeseries-collection',
    do: 'Store events in a time-series collection for per-interval aggregates',
    claims: ['003-structure-large', '003-compressed-model'],
    compare: { slow: 'raw', fast: 'timeseries', at: { grain: 'hours' } },
  },
];
