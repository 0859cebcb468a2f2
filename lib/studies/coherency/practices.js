'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`. The reason is correctness, not speed: the figure is the duplicates each
// way left at the same point, counted (extra.duplicates), and the verdicts are these claims'.
module.exports = [
  {
    id: 'unique-index',
    do: 'Enforce uniqueness with a unique index (insert, treat error 11000 as "already there"), not check-then-insert',
    claims: ['002-coherency', '002-non-acid'],
    compare: { slow: 'check-then-insert', fast: 'unique-insert' },
    count: { field: 'duplicates', what: 'duplicate documents' },
  },
];
