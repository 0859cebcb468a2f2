'use strict';
// What a reader should do, as data (lib/report/practices.js reads it from the records): use
// `fast` instead of `slow`; the figure is the one estimator's, the verdicts are these claims'.
module.exports = [
  {
    id: 'where-to-expr',
    do: 'Replace $where with $expr (or a plain query)',
    claims: ['001-where-vs-scan', '001-aggregation', '001-where-needed'],
    compare: { slow: 'where', fast: 'expr-find' },
  },
];
