'use strict';
// The inserts study's writers: W concurrent Node writers (async loops on one client, a client per
// connection, a process each; acknowledged or w: 0) and the PostgreSQL peer's inserts, each a
// variant's run that leaves exactly the point's documents.
const LabHarness = require('../../../scripts/lib/harness');
const { runWorkers } = require('../source-002/insert-workers');
const { scratch, replSet, postgres } = require('../source-002/common');
const pgPeer = require('../source-002/pg-peer');

function docsAt(p, size) {
  return Math.max(1, Math.min(p.N, Math.floor((p.MAX_MB * 1048576) / size)));
}

// The source's bulk batch at its smallest documents (matrix 128: a row plus a column, ~2.3 KB of
// BSON): "once I reach 10KB" held 5 of them (4 if kept at or under 10 KB). At SIZE 2048 a batch of 5
// is that cell within one document; 002-bulk/mongodb is judged there (claims.js SOURCE_BULK).
const SOURCE_BATCH = 5;

/** The W=1..16 batch points of the standalone (not the replica set's write-concern part). */
const onStandalone = (point) => !point.server && point.part !== 'wc';

function workers(mode, what, { name = mode, w0 = false, able = null } = {}) {
  return {
    name,
    what,
    minVersion: '3.2',
    able: (p, point) => (able ? able(p, point) : mode === 'async' || !point.server),
    async run(ctx, p, point) {
      const target =
        point.server === 'replset' ? await replSet(ctx) : { uri: ctx.server.uri, client: ctx.client, db: ctx.db };
      const n = docsAt(p, point.size);
      const coll = `${p.COLL}_${name.replace('-', '_')}`;
      await scratch(target.db, coll);
      const job = {
        kind: 'insert',
        db: ctx.dbName,
        coll,
        from: 0,
        to: n,
        size: point.size,
        seed: p.SEED,
        batch: point.batch,
        ordered: true,
      };
      if (point.server === 'replset') job.w = point.w;
      if (w0) job.w = 0;
      const r = await runWorkers({
        uri: target.uri,
        mode,
        W: point.W,
        job,
        client: mode === 'async' ? target.client : undefined,
      });
      const count = await target.db.collection(coll).countDocuments({});
      // w: 0: nothing was acknowledged, so what reached the server is counted (stored + rejected = written)
      const writer = job.w === 0 ? { writer: 'w0', written: n, stored: count, rejected: n - count } : { writer: 'w1' };
      return Object.assign(
        LabHarness.took(r.ms, count, {
          docs: count,
          docsPerSec: Math.round((count / r.ms) * 1000),
          ops: r.latency.count,
          ...writer,
        }),
        { latency: r.latency },
      );
    },
  };
}

/** The PostgreSQL peer's insert variant: `durable` waits for each commit's WAL flush (synchronous_commit on). */
function pgInsert(durable) {
  return async (ctx, p, point) => {
    const pgs = await postgres(ctx);
    const r = await pgPeer.insert(pgs, {
      n: docsAt(p, point.size),
      size: point.size,
      seed: p.SEED,
      batch: point.batch,
      W: point.W,
      durable,
    });
    return LabHarness.took(r.ms, r.rows, {
      docs: r.rows,
      docsPerSec: Math.round((r.rows / r.ms) * 1000),
      postgres: pgs.version,
      synchronousCommit: r.synchronousCommit,
    });
  };
}

module.exports = { docsAt, onStandalone, workers, pgInsert, SOURCE_BATCH };
