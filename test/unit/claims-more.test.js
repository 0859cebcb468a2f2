'use strict';
// The documented result files judged again (docs/data/*.json), and the guarantees the findings
// report rests on: every claim of the five source texts has an entry; a quick-profile verdict never
// contradicts the seed-scale one (agree or abstain); the seed-scale column gives the same verdicts
// in whatever order its files are merged; a rule reads the setting from the records before it
// judges. Pure: no server is started.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const claims = require('../../lib/core/claims');
const { studies } = require('../../lib/studies');
const { mergeDocs } = require('../../lib/core/findings');

const { VERDICT } = claims;
const DATA = path.join(__dirname, '..', '..', 'docs', 'data');
const read = (f) => JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));
const AB = {
  H: 'holds',
  S: 'stronger',
  W: 'weaker',
  R: 'reversed',
  G: 'gone',
  N: 'not-reproduced',
  M: 'not-measured',
  F: 'fails',
  I: 'inconclusive',
  E: 'no-effect',
  U: 'unsupported',
  Q: 'question',
};

// The seed-scale column of docs/findings (its command is at the top of docs/findings/findings.md).

// The quick column: the all-studies quick run, with the studies that measure more claims since
// taken from their own quick runs (tools/verdicts-doc.js QUICK; mergeDocs: a later file
// replaces a study's records).
const { SEED, QUICK } = require('../../tools/verdicts-doc');
const quickColumn = () => mergeDocs(QUICK.map(read), QUICK);

function judged(doc) {
  return studies
    .filter((e) => doc.results.some((r) => r.study === e.name))
    .flatMap((e) => claims.judge(e, doc.results, doc.environment, doc.params));
}
const byId = (js) => Object.fromEntries(js.map((j) => [j.id, j.verdict]));

describe('claims ledger: the documented runs', function () {
  describe('each documented result file keeps its verdicts', function () {
    // Claims with no measurement in the lab ("not measured here", "gone" by definition) are left out.
    const EXPECTED = {
      // the documented quick column (tools/verdicts-doc.js QUICK): run-1 of bench:stability on 2026-11-29
      'quick-2026-11-29.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/gain: N, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: S, 000-small-python-1k: U, 000-chunks: N, 000-parallel: N, 000-parallel-mr: N, 000-chunks-100: U, 000-client-chunks: Q, 000-still-python: U, 000-stored-vs-client: I, 000-i5-dip: U, 000-cpu: U, 000-spread: I, 000-postgres: N, 000-pg-insert: N, 000-overhead: I, 000-app-level: Q, 001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H, 001-where-38mb: H, 001-where-needed: G, 001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: I, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: I, 001-bigagg-less-ram/compressed: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U, 001-bigagg-default-cache-disk: N, 002-bulk/mongodb: I, 002-mongo-vs-sql: I, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-conn-default: F, 002-doc-16mb: H, 002-large-bulk-timeout: N, 002-coherency: N, 002-coherency-acid: F, 002-dups-vs-n: U, 002-dups-vs-size: U, 002-random-pick: Q, 002-joins: Q, 002-no-joins/joins: G, 002-no-joins/table-locking: H, 003-touch-both: N, 003-touch-data: U, 003-preload: I, 003-swapping: G, 003-bytes/data: H, 003-bytes/allocation: G, 003-bytes/index: G, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: H, 003-id-index-unneeded/hinders: U, 003-working-set: I, 003-restart-cold: H, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: H, 004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: H, 004-prealloc-safe/without: H, 004-prealloc-safe/lab-racing: N, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: H, 004-field-scan-hierarchy/level: N, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: I, 004-collections-wash: N, 004-id-regex-prefix: H, 004-document-growth: I',
      // the quick column before it (2026-11-28), judged by today's rules
      'quick-2026-11-28.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/gain: N, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: S, 000-small-python-1k: U, 000-chunks: N, 000-parallel: N, 000-parallel-mr: N, 000-chunks-100: U, 000-client-chunks: Q, 000-still-python: U, 000-stored-vs-client: I, 000-i5-dip: U, 000-cpu: U, 000-spread: I, 000-postgres: N, 000-pg-insert: I, 000-overhead: I, 000-app-level: Q, 001-where-vs-scan: I, 001-where-no-index: H, 001-hybrid: I, 001-aggregation: I, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: I, 001-agg-vs-hybrid-capable: H, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H, 001-where-38mb: N, 001-where-needed: G, 001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: I, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: I, 001-bigagg-less-ram/compressed: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U, 001-bigagg-default-cache-disk: N, 002-bulk/mongodb: I, 002-mongo-vs-sql: I, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-conn-default: F, 002-doc-16mb: H, 002-large-bulk-timeout: N, 002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U, 002-random-pick: Q, 002-joins: Q, 002-no-joins/joins: G, 002-no-joins/table-locking: H, 003-touch-both: N, 003-touch-data: U, 003-preload: I, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: N, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: H, 003-id-index-unneeded/hinders: U, 003-working-set: I, 003-restart-cold: H, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: H, 004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: H, 004-prealloc-safe/without: H, 004-prealloc-safe/lab-racing: N, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: H, 004-collections-wash: N, 004-id-regex-prefix: H, 004-document-growth: I',
      // the seed-scale column (tools/verdicts-doc.js SEED): column-2's run (2026-11-29, the 2 vCPU AMD
      // EPYC, resumed once) and $where pinned to one core beside it
      'seed-run/column-2/column-1/results.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/gain: N, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: S, 000-small-python-1k: U, 000-chunks: N, 000-parallel: N, 000-parallel-mr: N, 000-chunks-100: U, 000-client-chunks: Q, 000-still-python: U, 000-stored-vs-client: N, 000-i5-dip: U, 000-cpu: U, 000-spread: I, 000-postgres: N, 000-pg-insert: I, 000-overhead: H, 000-app-level: Q, 001-where-vs-scan: S, 001-where-no-index: H, 001-hybrid: I, 001-aggregation: S, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: S, 001-agg-vs-hybrid-capable: H, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H, 001-where-38mb: H, 001-where-needed: G, 001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: I, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: H, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: I, 001-bigagg-less-ram/compressed: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U, 001-bigagg-default-cache-disk: N, 002-bulk/mongodb: I, 002-mongo-vs-sql: I, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-conn-default: F, 002-doc-16mb: H, 002-large-bulk-timeout: N, 002-coherency: N, 002-coherency-acid: F, 002-dups-vs-n: U, 002-dups-vs-size: U, 002-random-pick: Q, 002-joins: Q, 002-no-joins/joins: G, 002-no-joins/table-locking: H, 003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: H, 003-bytes/allocation: G, 003-bytes/index: G, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: H, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: H, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: I, 004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: H, 004-prealloc-safe/without: H, 004-prealloc-safe/lab-racing: N, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: H, 004-collections-wash: N, 004-id-regex-prefix: H, 004-document-growth: H',
      'seed-run/column-2/where-one-core.json':
        '001-where-vs-scan: H, 001-where-no-index: H, 001-hybrid: H, 001-aggregation: I, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: H, 001-agg-vs-hybrid-capable: H, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H, 001-where-38mb: H, 001-where-needed: G',
      // the first seed-scale column (2026-11-27, the Xeon), for --against
      'seed-run/column-1/results.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/gain: N, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: N, 000-small-python-1k: U, 000-chunks: N, 000-parallel: N, 000-chunks-100: U, 000-client-chunks: N, 000-still-python: U, 000-stored-vs-client: N, 000-i5-dip: U, 000-cpu: U, 000-spread: N, 000-postgres: N, 000-pg-insert: N, 000-overhead: H, 000-app-level: N, 001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H, 001-where-needed: G, 001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: H, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: N, 001-bigagg-less-ram/compressed: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U, 001-bigagg-default-cache-disk: N, 002-bulk/mongodb: N, 002-mongo-vs-sql: N, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-conn-default: F, 002-doc-16mb: H, 002-large-bulk-timeout: N, 002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U, 002-random-pick: Q, 002-joins: Q, 002-no-joins/joins: G, 003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: I, 004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: H, 004-prealloc-safe/lab-racing: N, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-array-no-faster/growth: H, 004-array-no-faster/absolute: I, 004-collections-wash: N, 004-id-regex-prefix: H, 004-document-growth: H',
      'mapreduce-seed.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: N, 000-small-python-1k: U, 000-parallel: N, 000-chunks-100: U, 000-client-chunks: N, 000-still-python: U, 000-stored-vs-client: N, 000-i5-dip: U, 000-cpu: U, 000-spread: N, 000-postgres: N, 000-overhead: H, 000-app-level: N',
      'where-seed.json':
        '001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-needed: G',
      'findings-seed-where-joins.json':
        '001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-needed: G, 002-joins: Q, 002-no-joins/joins: G',
      'bigagg-1m.json':
        '001-bigagg-one-thread: N, 001-bigagg-zlib-size: I, 001-bigagg-compressor-speed: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: I, 001-bigagg-shards-scale: N, 001-bigagg-less-ram/compressed: N, 001-bigagg-default-cache-disk: N, 001-bigagg-1gb-floor/consequence: U',
      'bigagg-10m.json':
        '001-bigagg-one-thread: I, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: H, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: I, 001-bigagg-less-ram/compressed: N, 001-bigagg-default-cache-disk: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U',
      'bigagg-seed-5m.json':
        '001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: N, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: H, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: N, 001-bigagg-less-ram/compressed: N, 001-bigagg-default-cache-disk: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U',
      'bigagg-10m-cache.json':
        '001-bigagg-one-thread: I, 001-bigagg-zlib-size: I, 001-bigagg-compressor-speed: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: I, 001-bigagg-less-ram/compressed: N, 001-bigagg-default-cache-disk: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U',
      'inserts-doc-run.json':
        '002-bulk/mongodb: N, 002-mongo-vs-sql: N, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N',
      'inserts-seed.json':
        '002-bulk/mongodb: N, 002-mongo-vs-sql: N, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N',
      'inserts-quick-claims.json':
        '002-bulk/mongodb: N, 002-mongo-vs-sql: N, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-conn-default: F, 002-doc-16mb: H, 002-large-bulk-timeout: N',
      'coherency-doc-run.json': '002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U',
      'coherency-grid-doc-run.json': '002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U',
      'coherency-54-processes-doc-run.json':
        '002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U',
      'coherency-seed.json': '002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U',
      'coherency-seed-cut.json': '002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U',
      'tasks-doc-run.json': '002-random-pick: Q',
      'tasks-seed.json': '002-random-pick: Q',
      'joins-doc-run.json': '002-joins: Q, 002-no-joins/joins: G',
      'joins-20k-doc-run.json': '002-joins: Q, 002-no-joins/joins: G',
      'timeseries-seed.json':
        '003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: I',
      'timeseries-seed-sizedcache.json':
        '003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: I',
      'timeseries-quick-claims.json':
        '003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: H',
      'timeseries-5m-smallcache.json':
        '003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: I',
      'counters-seed-run.json':
        '004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: H, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-document-growth: H, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: H, 004-prealloc-safe/lab-racing: N',
      'counters-seed-w0.json':
        '004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: H, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-document-growth: H, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: I, 004-prealloc-safe/lab-racing: N',
      'counters-scan-quiet.json':
        '004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: I, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-document-growth: I, 004-array-no-faster/growth: H, 004-array-no-faster/absolute: I, 004-prealloc-safe/lab-racing: N',
      'counters-quick-claims.json':
        '004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: H, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: I, 004-field-scan-hierarchy/level: N, 004-document-growth: I, 004-array-no-faster/growth: I, 004-array-no-faster/absolute: I, 004-collections-wash: N, 004-id-regex-prefix: I, 004-prealloc-safe/lab-racing: N',
      'mapreduce-quick-claims.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/gain: N, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: N, 000-small-python-1k: U, 000-chunks: N, 000-parallel: N, 000-chunks-100: U, 000-client-chunks: N, 000-still-python: U, 000-stored-vs-client: N, 000-i5-dip: U, 000-cpu: U, 000-spread: N, 000-postgres: N, 000-pg-insert: N, 000-overhead: H, 000-app-level: N',
      'where-quick-claims.json':
        '001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-needed: G, 001-where-js-functional/string: N, 001-where-js-functional/sandbox: H, 001-bson-typed: H',
      'bigagg-quick-claims.json':
        '001-bigagg-bson-vs-csv: H, 001-bigagg-one-thread: N, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: N, 001-bigagg-less-ram/compressed: N, 001-bigagg-default-cache-disk: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U',
      'quick-run.json':
        '000-python-2x: N, 000-jsmode: G, 000-jsmode-break-even: G, 000-collection-growth/mr-30: G, 000-collection-growth/index-size: U, 000-projection: U, 000-lists-vs-acc/past-10k: U, 000-client-acc: G, 000-stored: U, 000-stored-5x: G, 000-stored-compile: U, 000-peak: N, 000-small-python: N, 000-small-python-1k: U, 000-parallel: N, 000-chunks-100: U, 000-client-chunks: N, 000-still-python: U, 000-stored-vs-client: N, 000-i5-dip: U, 000-cpu: U, 000-spread: N, 000-postgres: N, 000-overhead: H, 000-app-level: N, 001-where-vs-scan: N, 001-where-no-index: H, 001-hybrid: N, 001-aggregation: N, 001-aggregation-over-1500: U, 001-agg-vs-hybrid: N, 001-agg-vs-hybrid-capable: H, 001-where-needed: G, 001-bigagg-one-thread: N, 001-bigagg-mmap-shards-cpu: U, 001-bigagg-zlib-size: H, 001-bigagg-compressor-speed: N, 001-bigagg-load-time: Q, 001-bigagg-cache-uncompressed: I, 001-bigagg-default-cache: H, 001-bigagg-small-cache: N, 001-bigagg-2mb-cache: H, 001-bigagg-shards-scale: N, 001-bigagg-less-ram/compressed: N, 001-bigagg-1gb-floor/option: F, 001-bigagg-1gb-floor/consequence: U, 001-bigagg-default-cache-disk: N, 002-bulk/mongodb: N, 002-mongo-vs-sql: N, 002-memcached/lru: U, 002-processes: N, 002-bulk-vs-threads/gain: N, 002-shared-connection/gain: N, 002-parallel-vs-sql: N, 002-threads-anomaly: N, 002-coherency: N, 002-coherency-acid: U, 002-dups-vs-n: U, 002-dups-vs-size: U, 002-random-pick: Q, 002-joins: Q, 002-no-joins/joins: G, 003-touch-both: N, 003-touch-data: U, 003-preload: N, 003-swapping: G, 003-bytes/data: N, 003-bytes/allocation: G, 003-bytes/index: I, 003-touch-command: G, 003-touch-cost: G, 003-touch-index-cost: G, 003-id-index-unneeded/unused: I, 003-id-index-unneeded/hinders: U, 003-working-set: N, 003-restart-cold: N, 003-index-match-only: H, 003-vs-previous-and-oracle/attribution: U, 003-structure-large: I, 003-compressed-model: H, 004-growing-documents-collapse/collapse: N, 004-preallocation-fixes-it/fix: N, 004-midnight-burst: N, 004-prealloc-safe/repeat: N, 004-prealloc-safe/without: H, 004-prealloc-safe/lab-racing: N, 004-preallocated-drift/slows: N, 004-field-scan-hierarchy/scan: H, 004-field-scan-hierarchy/level: N, 004-array-no-faster/growth: H, 004-array-no-faster/absolute: I, 004-document-growth: I',
    };
    for (const [file, want] of Object.entries(EXPECTED)) {
      it(file, function () {
        const got = {};
        for (const v of judged(read(file))) if (!/^(not measured here|gone): /.test(v.why)) got[v.id] = v.verdict;
        const exp = Object.fromEntries(
          want
            .split(', ')
            .map((x) => x.split(': '))
            .map(([id, v]) => [id, AB[v]]),
        );
        expect(got).to.deep.equal(exp);
      });
    }
  });

  it('every claim of the five source texts has an entry, with a published figure, a boundary and a setting', function () {
    const all = studies.flatMap((e) => e.claims.map((c) => ({ study: e.name, ...c })));
    // Ledger entries per source (a claim with parts has one entry per part), after the re-read of the
    // five texts and the adversarial reads (docs/disputes): a claim dropped by accident fails here.
    const perSource = {};
    for (const e of studies) perSource[e.source] = (perSource[e.source] || 0) + e.claims.length;
    expect(perSource).to.deep.equal({ '000': 37, '001': 44, '002': 35, '003': 21, '004': 23 });
    expect(all).to.have.length(160);
    // parts name the claim they are part of, and that claim's id is their prefix
    for (const c of all.filter((x) => x.of)) expect(c.id.startsWith(`${c.of}/`), c.id).to.equal(true);
    expect(new Set(all.map((c) => c.id)).size).to.equal(all.length);
    for (const c of all) {
      expect(c.claim, c.id).to.be.a('string');
      expect(c.published, c.id).to.be.a('string');
      expect(c.quote || c.derivation, c.id).to.be.a('string');
      expect(c.boundary, c.id).to.be.a('string');
      expect(c.setting, c.id).to.be.a('string');
    }
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'verdicts.md'), 'utf8');
    for (const c of all) expect(doc, c.id).to.include(`\`${c.id}\``);
  });

  it('scale: the quick run never contradicts the seed-scale column (agree or abstain)', function () {
    const seed = byId(judged(mergeDocs(SEED.map(read), SEED)));
    // not-measured (and not-reproduced) abstain: beside a decisive verdict of the other column they are no contradiction
    for (const v of [VERDICT.NOT_MEASURED, VERDICT.NOT_REPRODUCED]) expect(claims.DECISIVE).to.not.include(v);
    const quick = judged(quickColumn());
    const contradictions = quick
      .filter(
        (q) => claims.DECISIVE.includes(q.verdict) && claims.DECISIVE.includes(seed[q.id]) && seed[q.id] !== q.verdict,
      )
      .map((q) => `${q.id}: seed ${seed[q.id]}, quick ${q.verdict}`);
    expect(contradictions).to.deep.equal([]);
  });

  // The first file of a merge is the base run, whose studies later files replace (mergeDocs): the
  // documented files after it may come in any order.
  it('the seed-scale column gives the same verdicts whatever order its files are merged in', function () {
    const base = byId(judged(mergeDocs(SEED.map(read), SEED)));
    const [first, ...rest] = SEED;
    const orders = [
      [first, ...rest.slice().reverse()],
      [first, ...rest.slice(5), ...rest.slice(0, 5)],
      [first, ...rest.slice().sort()],
    ];
    for (const o of orders) expect(byId(judged(mergeDocs(o.map(read), o)))).to.deep.equal(base);
  });

  it('a merge adds another machine state of a study beside the base, and replaces a re-run in the same state', function () {
    const doc = (cores, studies) => ({
      environment: { host: { cores: 2, usableCores: cores } },
      results: studies.map((study) => ({ study, variant: `${study}@${cores}` })),
    });
    const base = doc(2, ['where', 'joins']);
    const kept = mergeDocs([base, doc(1, ['where'])], ['base', 'one-core']).results.map((r) => r.variant);
    expect(kept).to.have.members(['where@2', 'joins@2', 'where@1']);
    const rerun = mergeDocs([base, doc(2, ['where'])], ['base', 'again']).environment.sources;
    expect(rerun.map((x) => x.studies)).to.deep.equal([['joins'], ['where']]);
    // the report names the merged column's one profile when its files share it
    const { profileShown } = require('../../lib/core/findings');
    const seedDoc = (cores, studies) => {
      const d = doc(cores, studies);
      return { ...d, environment: { ...d.environment, profile: 'seed' } };
    };
    const seedBase = seedDoc(2, ['where', 'joins']);
    const both = mergeDocs([seedBase, seedDoc(1, ['where'])], ['base', 'one-core']);
    expect(profileShown(both)).to.match(/^seed \(merged: /);
    const mixed = mergeDocs([seedBase, doc(1, ['where'])], ['base', 'one-core']);
    expect(profileShown(mixed)).to.match(/^merged: /);
    expect(profileShown(seedBase)).to.equal('seed');
  });

  it('touch past RAM: the documented runs (one pass per state, no residency per pass) fail closed: the size setting is described, the cache state is not shown; the slow-disk claim reads the cold records', function () {
    // A small-cache run and the seed run's sized cache pass the size gate, but their records carry
    // no cache residency per pass: nothing shows the cold passes were cold or the working set was
    // pushed out, so the claim is not reproduced for want of evidence, never judged.
    const small = judged(read('timeseries-5m-smallcache.json')).find((j) => j.id === '003-touch-both');
    expect(small.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(small.setting.absent).to.equal('no-evidence');
    expect(small.setting.here).to.match(/5,000,000 events.*cache 256 MB.*no cache residency per pass/);
    // column-1 (2026-11-27): one pass per state, recorded before per-pass residency existed
    const seed = judged(read('seed-run/column-1/results.json'));
    const touch = seed.find((j) => j.id === '003-touch-both');
    expect(touch.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(touch.setting.absent).to.equal('no-evidence');
    expect(touch.setting.here).to.match(/50,000,000 events.*cache 3\.70 GB/);
    const preload = seed.find((j) => j.id === '003-preload');
    expect(preload.verdict, 'the "reversed 0.66x" of one pass, working set out of the cache').to.equal(
      VERDICT.NOT_REPRODUCED,
    );
    const disk = seed.find((j) => j.id === '001-bigagg-compressor-speed');
    expect(disk.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(disk.setting.here).to.match(/read [\d,]+ MB of 785 MB from disk .*\(CPU-bound/);
    // The default cache holds data and indexes: refused on the sizes already, with the command.
    const alone = judged(read('timeseries-seed.json')).find((j) => j.id === '003-touch-both');
    expect(alone.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(alone.why).to.match(
      /to reproduce: npx mongo-perf-lab run timeseries --docs 5000000 --set STATES_CACHE=source/,
    );
  });

  it('a tiny-profile file is judged as test scale: no decisive verdict from measurements', function () {
    const doc = quickColumn();
    const tiny = judged({ ...doc, environment: { ...doc.environment, profile: 'tiny' } });
    for (const j of tiny) {
      if (j.verdict === VERDICT.INCONCLUSIVE)
        expect(j.why, j.id).to.match(/^test scale|needs the source's scale|too few|straddles|did not|needs|no /);
      else
        expect([VERDICT.NOT_REPRODUCED, VERDICT.NOT_MEASURED, VERDICT.GONE, VERDICT.UNSUPPORTED], j.id).to.include(
          j.verdict,
        );
    }
    expect(tiny.filter((j) => /^test scale/.test(j.why)).length).to.be.above(5);
  });
  it('README and docs/verdicts.md give the counts the rules give now (node tools/verdicts-doc.js)', function () {
    const { build, readmeCounts } = require('../../tools/verdicts-doc');
    const b = build();
    expect(fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'verdicts.md'), 'utf8')).to.equal(b.md);
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).to.include(`**${b.total} claims**`);
    expect(readme).to.include(`<!-- verdicts:counts:start -->\n${readmeCounts(b)}\n<!-- verdicts:counts:end -->`);
  });
  it('a column against itself changes nothing; against another it lists each changed claim once', function () {
    const { diffColumns } = require('../../tools/verdicts-doc');
    expect(diffColumns(SEED)).to.have.length(2);
    const rows = diffColumns(['seed-run/column-1/results.json', 'timeseries-seed.json']).slice(2);
    const ids = rows.map((r) => r.split(' | ')[0]);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const r of rows) expect(r).to.match(/^\| `[0-9]{3}-[^`]+` \| [^|]+ \| [^|]+ \| /);
  });
});
