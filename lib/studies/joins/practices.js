'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
module.exports = [
  {
    id: 'lookup-indexed',
    do: 'Index the field $lookup joins on',
    claims: ['002-no-joins/joins'],
    compare: { slow: 'lookup-unindexed', fast: 'lookup-indexed' },
  },
  {
    id: 'lookup-not-client-join',
    do: 'Join in the server with $lookup rather than in a client loop',
    claims: ['002-joins', '002-no-joins/joins'],
    compare: { slow: 'client', fast: 'lookup-id' },
  },
];
