'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
// At the day's last hour, where the source saw growing documents collapse.
module.exports = [
  {
    id: 'no-preallocation',
    do: 'Skip preallocating counter documents on WiredTiger: plain $inc upserts grow them in place',
    claims: [
      '004-preallocation-fixes-it/fix',
      '004-preallocation-fixes-it/never-moved',
      '004-growing-documents-collapse/moves',
    ],
    compare: { slow: 'node-preallocated', fast: 'node-initial', at: { day: 'largest', hour: 'largest' } },
  },
];
