'use strict';
// The source's claims (001a, "MongoDB is not a Javascript Database"), judged on the where study's records.
const claims = require('../../core/claims');

// John Page's figures (MongoDB 3.2, 1,000,000 documents {a, b}, 2016): $where 38,226 ms, an
// unindexed query 384 ms, the hybrid 263 ms, the aggregation 27 ms. (His "plain" query was
// {a: {$lt: 1}}; ours is the same predicate forced to a collection scan.)
module.exports = [
  { id: '001-where-vs-scan', claim: '$where is ~100x slower than a plain collection scan', seedFigure: '~100x (38,226 ms vs 384 ms)',
    setting: 'MongoDB 3.2, 1M documents, 2016',
    verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'plain'), 100) },
  { id: '001-hybrid', claim: 'an indexed filter plus $where (hybrid) is ~150x faster than $where alone', seedFigure: '~150x (263 ms)',
    setting: 'MongoDB 3.2, 1M documents, 2016',
    verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'hybrid'), 145) },
  { id: '001-aggregation', claim: 'the aggregation pipeline is ~1,500x faster than $where', seedFigure: '~1,400x (27 ms)',
    setting: 'MongoDB 3.2, 1M documents, 2016',
    verdict: (records) => claims.factorVerdict(claims.factor(records, 'where', 'source-agg'), 1416) },
];
