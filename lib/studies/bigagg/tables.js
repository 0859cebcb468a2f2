'use strict';
// The study's pivot tables (report.md and the after step's terminal), part by part: a row per
// variant, a column per compressor, cache size or part.
const { warmPerCompressor } = require('./parts');

const of = (part) => (r) => !r.skipped && r.axis.part === part;
const table = (title, filter, cols, value) => ({ title, filter, rows: 'variant', cols, value });
const DISK = '/proc/<pid>/io; page-cache hits excluded';

const TABLES = [
  table('Pipeline forms (median ms)', of('forms'), 'compressor', 'median'),
  table("Pipeline forms (vs the source's pipeline)", of('forms'), 'compressor', 'ratio'),
  table(
    'Warm aggregation per block compressor (median ms)',
    (r) => !r.skipped && warmPerCompressor(r),
    'compressor',
    'median',
  ),
  table('Cold WiredTiger cache (restarted mongod) per compressor (median ms)', of('cold'), 'compressor', 'median'),
  table('Cold: mongod CPU seconds per run', of('cold'), 'compressor', 'extra.cpuSeconds'),
  table('Cache size (median ms)', of('cache'), 'cache', 'median'),
  table('Cache size: mongod CPU seconds per run', of('cache'), 'cache', 'extra.cpuSeconds'),
  table('Cache size: bytes read into the cache per run', of('cache'), 'cache', 'extra.bytesReadIntoCache'),
  table(`Cache size: bytes mongod read from the disk per run (${DISK})`, of('cache'), 'cache', 'extra.diskReadBytes'),
  table('Cold: bytes mongod read from the disk per run', of('cold'), 'compressor', 'extra.diskReadBytes'),
  table('k _id ranges at once, merged (vs k = 1)', of('split'), 'part', 'ratio'),
  table('Several aggregations at once (median ms until all finish)', of('concurrent'), 'part', 'median'),
];

module.exports = { TABLES };
