'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'
// (002-coherency: the duplicates check-then-insert makes; the unique index makes none).
module.exports = [
  {
    id: 'unique-index',
    do: 'Enforce uniqueness with a unique index (insert, treat error 11000 as "already there"), not check-then-insert',
    claims: ['002-coherency', '002-non-acid'],
    compare: { slow: 'check-then-insert', fast: 'unique-insert' },
  },
];
