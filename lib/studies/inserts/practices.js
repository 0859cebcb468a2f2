'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
// The two sides are two points of one variant: one document per call against the largest batch.
module.exports = [
  {
    id: 'batch-writes',
    do: 'Write in batches (insertMany / bulkWrite), not one insert per document',
    claims: ['002-bulk/mongodb', '002-bulk-vs-threads/gain'],
    compare: {
      slow: { variant: 'shell', at: { part: 'batch', batch: 1, W: 1, size: 1024, w: 1 } },
      fast: { variant: 'shell', at: { part: 'batch', batch: 'largest', W: 1, size: 1024, w: 1 } },
    },
  },
];
