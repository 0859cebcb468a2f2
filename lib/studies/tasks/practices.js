'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
module.exports = [
  {
    id: 'random-field-not-skip',
    do: 'Pick a random document with an indexed random field (or $sample), not skip(R): skip walks R entries',
    claims: ['002-random-pick'],
    compare: { slow: 'skip-scan', fast: 'random-field', at: { part: 'pick' } },
  },
];
