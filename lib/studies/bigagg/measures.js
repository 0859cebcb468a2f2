'use strict';
// What a point measures besides times: storage and load time per compressor and the same records as
// CSV text (compression part), the cache configured (cache part), how a mongos split the pipeline.
const { fmtInt } = require('../../../scripts/lib/format');
const { measureRecord } = require('../../../scripts/lib/records');
const B = require('./mot');
const runs = require('./state');
const { csvBytes } = require('./csv');
const { CACHES } = require('./cache');
const { coll } = require('./parts');

async function measures(ctx, p, point) {
  const out = [];
  const add = (name, value, unit, what) =>
    out.push(measureRecord({ study: 'bigagg', name, axis: point, value, unit, what }));
  if (point.part === 'compression') await compressionMeasures(ctx, p, point, add);
  if (point.part === 'cache') {
    const refused = runs.of(ctx).refused.get(point.cache);
    // A refused cache's point: mongod runs with its own arguments, whose cache is not this point's.
    if (refused !== undefined)
      add(
        'cacheStartRefused',
        refused,
        'log line',
        `mongod refused to start with the ${point.cache} cache (${CACHES[point.cache].join(' ')}); the run went on with its own arguments`,
      );
    else add('cacheMaxBytes', (await B.cacheCounters(ctx.db)).maxBytes, 'bytes', 'WiredTiger cache configured');
  }
  if (point.part === 'sharded') {
    const split = await B.shardedSplit(ctx.db, coll(p, point));
    add(
      'splitPipeline',
      split ? JSON.stringify(split).length : 0,
      'chars',
      split
        ? `shardsPart ${split.shardsPart.map((s) => Object.keys(s)[0]).join(',')} / mergerPart ${split.mergerPart.map((s) => Object.keys(s)[0]).join(',')}`
        : 'no split (one shard?)',
    );
  }
  return out;
}

async function compressionMeasures(ctx, p, point, add) {
  const st = await B.storage(ctx.db, coll(p, point));
  add('dataBytes', st.dataBytes, 'bytes', 'uncompressed BSON (collStats size)');
  add('storageBytes', st.storageBytes, 'bytes', 'in use on disk (collStats storageSize less reusable blocks)');
  add('indexBytes', st.indexBytes, 'bytes', '_id index on disk');
  add('ratio', st.ratio, 'x', 'BSON / storage');
  const f = ctx.fixture && ctx.fixture.collections && ctx.fixture.collections[point.compressor];
  if (f && f.loadMs)
    add(
      'loadMs',
      f.loadMs,
      'ms',
      `streaming load of ${fmtInt(p.N)} records (Node driver, 4 batches of 10,000 in flight)`,
    );
  // The same records as CSV text (001-bigagg-bson-vs-csv): computed once, beside the first
  // compressor's sizes, and only where the collection holds exactly the generated records.
  const run = runs.of(ctx);
  if (run.csvDone) return;
  const csv = csvBytes(p.N, p.SEED);
  run.csvDone = true;
  if (csv.rows === st.count)
    add('csvBytes', csv.bytes, 'bytes', `the same ${fmtInt(csv.rows)} records as CSV: 14 columns, a header line`);
  else
    ctx.log(
      `bigagg: no CSV size: the collection holds ${fmtInt(st.count)} documents, the generator ${fmtInt(csv.rows)}`,
    );
}

module.exports = { measures };
