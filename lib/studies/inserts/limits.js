'use strict';
// The inserts study's limits (source 002's side remarks), measured after the points:
//   connections  serverStatus().connections current + available on the server as it runs, and
//                whether its command line sets a limit (a default server does not)
//   documents    insertOne of a document of exactly 16 MiB and of 16 MiB + 1 B, each outcome typed
//   large bulks  insertMany of 1, 10 and 48 MB batches, BULK_TRIES tries each, failures counted
// Every outcome is a measure record (lib/studies/inserts/claims.js judges them); nothing is timed
// against anything else, so the harness has no part in it.
const LabFormat = require('../../../scripts/lib/format');
const LabRecords = require('../../../scripts/lib/records');
const LabStats = require('../../../scripts/lib/stats');
const G = require('../../../fixtures/inserts-gen');
const { scratch, ints } = require('../source-002/common');
const sql = require('../sql-peer');
const { dropOwned } = require('../../infra/targets');

const MIB = 1048576;
const DOC_LIMIT = 16 * MIB;

const M = (name, variant, axis, value, unit, what, extra) =>
  LabRecords.measureRecord({ study: 'inserts', name, variant, axis, value, unit, what, extra });

/** An error as a typed outcome: who refused (the driver before sending, or the server) and its code. */
function outcome(e) {
  if (!e) return { ok: true };
  const server = e.code !== undefined || /MongoServerError|MongoBulkWriteError|MongoWriteConcernError/.test(e.name);
  return {
    ok: false,
    by: server ? 'server' : 'driver',
    name: e.name,
    code: e.code === undefined ? null : e.code,
    codeName: e.codeName || null,
    message: String(e.message).split('\n')[0].slice(0, 200),
  };
}

/** The connection limit as the server reports it, and the PostgreSQL peer's beside it. */
async function connections(ctx) {
  const admin = ctx.db.admin();
  let s;
  try {
    s = await admin.command({ serverStatus: 1, repl: 0, metrics: 0, locks: 0, wiredTiger: 0 });
  } catch (e) {
    if (e.code !== 13) throw e;
    ctx.note('the connection limit is not measured: serverStatus needs the clusterMonitor role');
    return null;
  }
  const c = s.connections;
  let set;
  try {
    const o = await admin.command({ getCmdLineOpts: 1 });
    const net = (o.parsed && o.parsed.net) || {};
    set = net.maxIncomingConnections === undefined ? null : Number(net.maxIncomingConnections);
  } catch (e) {
    if (e.code !== 13) throw e; // a user without the privilege: the setting stays unknown
    set = 'unknown';
  }
  let pgMax = null;
  const pgs = sql.of(ctx); // only when the run already started the peer: the limit is a side figure
  if (pgs) {
    const pc = await pgs.connect();
    try {
      pgMax = Number((await pc.query('SHOW max_connections')).rows[0].max_connections);
    } finally {
      await pc.end();
    }
  }
  const current = Number(c.current);
  const available = Number(c.available);
  return M(
    'connections-limit',
    'server',
    { part: 'limits' },
    current + available,
    'connections',
    'serverStatus().connections current + available',
    {
      current,
      available,
      maxIncomingConnections: set,
      embedded: !!ctx.server.embedded,
      postgresMaxConnections: pgMax,
    },
  );
}

/** A document of exactly `bytes` BSON bytes: {_id, pad: 'x' * k}. */
function docOfSize(bytes, id) {
  const { BSON } = require('mongodb'); // required here: `list` reads the studies without the driver
  const base = BSON.calculateObjectSize({ _id: id, pad: '' });
  const doc = { _id: id, pad: 'x'.repeat(bytes - base) };
  const got = BSON.calculateObjectSize(doc);
  if (got !== bytes) throw new Error(`document of ${bytes} B: built ${got} B`);
  return doc;
}

/** insertOne of a document at the 16 MiB limit and one byte over it; each outcome typed. */
async function documentLimit(ctx, p) {
  const coll = await scratch(ctx.db, `${p.COLL}_limit`);
  const hello = await ctx.db.admin().command({ hello: 1 });
  const out = [];
  for (const [variant, bytes] of [
    ['at-limit', DOC_LIMIT],
    ['over-limit', DOC_LIMIT + 1],
  ]) {
    let err = null;
    try {
      await coll.insertOne(docOfSize(bytes, variant));
    } catch (e) {
      err = e;
    }
    const stored = await coll.countDocuments({ _id: variant });
    const o = { ...outcome(err), stored: stored === 1, bytes, maxBsonObjectSize: Number(hello.maxBsonObjectSize) };
    out.push(
      M(
        'document-limit',
        variant,
        { part: 'limits' },
        o.ok && o.stored ? 1 : 0,
        'accepted',
        `insertOne of a document of ${LabFormat.fmtInt(bytes)} BSON bytes (1 = accepted and stored)`,
        o,
      ),
    );
  }
  await dropOwned(ctx.db, coll.collectionName);
  return out;
}

/** One insertMany of `docs` into an emptied collection: its time and typed outcome. */
async function bulkTry(ctx, name, docs) {
  const coll = await scratch(ctx.db, name);
  const t0 = process.hrtime.bigint();
  let err = null;
  try {
    await coll.insertMany(docs, { ordered: true });
  } catch (e) {
    err = e;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const stored = err ? null : await coll.estimatedDocumentCount();
  const o = outcome(err);
  if (o.ok && stored !== docs.length)
    Object.assign(o, { ok: false, by: 'check', message: `${stored} of ${docs.length} documents stored` });
  return { ms, ...o };
}

/** insertMany of each BULK_MB batch (documents of SIZE bytes), BULK_TRIES tries each. */
async function largeBulks(ctx, p) {
  const sizes = ints('BULK_MB', p.BULK_MB, 1, 1024);
  const out = [];
  for (const mb of sizes) {
    const n = Math.max(1, Math.floor((mb * MIB) / p.SIZE));
    const docs = G.payloadDocs(p.SEED, 0, n, p.SIZE);
    const tries = [];
    for (let i = 0; i < p.BULK_TRIES; i++) tries.push(await bulkTry(ctx, `${p.COLL}_bulk`, docs));
    const failed = tries.filter((t) => !t.ok);
    const times = tries.map((t) => Math.round(t.ms * 10) / 10);
    ctx.log(
      `inserts: insertMany of ${mb} MB (${LabFormat.fmtInt(n)} documents of ${p.SIZE} B): ${failed.length} of ${tries.length} tries failed, median ${LabFormat.fmtMs(LabStats.median(times))}`,
    );
    out.push(
      M(
        'large-bulk-failures',
        'async',
        { part: 'large-bulk', mb },
        failed.length,
        'failures',
        `insertMany of ${mb} MB in one call (the driver's defaults: no socket timeout), tries that threw or stored fewer documents`,
        {
          tries: tries.length,
          docs: n,
          size: p.SIZE,
          bytes: n * p.SIZE,
          times,
          errors: failed.slice(0, 5).map(({ ms, ...e }) => e),
        },
      ),
    );
  }
  await dropOwned(ctx.db, `${p.COLL}_bulk`);
  return out;
}

/** The `after` hook's records (LIMITS false leaves out the connection and document checks). */
async function limits(ctx, p) {
  const out = [];
  if (p.LIMITS) {
    const conn = await connections(ctx);
    if (conn) out.push(conn);
    out.push(...(await documentLimit(ctx, p)));
  }
  if (p.BULK_TRIES > 0) out.push(...(await largeBulks(ctx, p)));
  ctx.echo(limitLines(out).join('\n'));
  return out;
}

function limitLines(out) {
  const lines = [];
  const conn = out.find((r) => r.name === 'connections-limit');
  if (conn) {
    const x = conn.extra;
    lines.push(
      '',
      `connections: current ${LabFormat.fmtInt(x.current)} + available ${LabFormat.fmtInt(x.available)} = ${LabFormat.fmtInt(conn.value)}` +
        ` (maxIncomingConnections ${x.maxIncomingConnections === null ? 'not set: the default' : x.maxIncomingConnections})` +
        (x.postgresMaxConnections ? `; PostgreSQL max_connections ${x.postgresMaxConnections}` : ''),
    );
  }
  for (const r of out.filter((x) => x.name === 'document-limit')) {
    lines.push(
      `insertOne of ${LabFormat.fmtInt(r.extra.bytes)} B: ${r.value ? 'accepted' : `refused by the ${r.extra.by} (${r.extra.code === null ? r.extra.name : `code ${r.extra.code}`}: ${r.extra.message})`}`,
    );
  }
  for (const r of out.filter((x) => x.name === 'large-bulk-failures')) {
    lines.push(
      `insertMany of ${r.axis.mb} MB: ${r.value} of ${r.extra.tries} tries failed; time per try ${LabFormat.fmtMs(Math.min(...r.extra.times))}..${LabFormat.fmtMs(Math.max(...r.extra.times))}`,
    );
  }
  return lines;
}

module.exports = { limits, docOfSize, outcome, DOC_LIMIT };
