'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
module.exports = [
  {
    id: 'group-not-mapreduce',
    do: 'Aggregate with $group, not map/reduce',
    claims: ['000-jsmode', '000-stored', '000-overhead'],
    compare: { slow: 'mr', fast: 'group', at: { batch: 'largest' } },
  },
  {
    id: 'group-not-client-loop',
    do: 'Aggregate with $group in the server, not in a client loop over whole documents',
    claims: ['000-python-2x', '000-projection'],
    compare: { slow: 'client-list', fast: 'group', at: { batch: 'largest' } },
  },
];
