'use strict';
// The inserts study's writers on the source's own client, PyMongo (source 002: "using MySQLdb and
// PyMongo clients for Python"; its threads were Python threads, its processes mpi4py ones). Each
// py-* variant is the twin of a Node writer the 002 claims read (PY_TWINS): the same documents
// (py_writer.py ports fixtures/inserts-gen.js), the same points, the same barrier and the same
// count afterwards at w: 0, timed inside Python (time.perf_counter from the barrier to the last
// writer's end, the count's wait included at w: 0, as the Node w: 0 writer's), in the same
// interleaved rounds as the Node writers. The claims judge on these where they ran, the Node
// driver's figure beside (lib/studies/inserts/source-client.js).
// PyMongo is found or installed on first use (lib/infra/pymongo.js); without it these variants are
// skipped with the command that installs it, and the claims stay "not reproduced here: client".
const path = require('path');
const LabHarness = require('../../../scripts/lib/harness');
const { ensurePyMongo, findPyMongo, PyProcess } = require('../../infra/pymongo');
const { scratch } = require('../source-002/common');
const { docsAt, onStandalone, SOURCE_BATCH } = require('./writers');

const WRITER = path.join(__dirname, 'py_writer.py');

// The points the claims read, as the Node w: 0 writers' own (index.js): threads one by one at every
// W and one writer in batches of 10 and 1,000 and of the source's 5 (writers.js SOURCE_BATCH);
// processes one by one at every W.
const threadPoints = (p, point) =>
  onStandalone(point) &&
  point.part === 'batch' &&
  (point.batch === 1 || (point.W === 1 && [SOURCE_BATCH, 10, 1000].includes(point.batch)));
const processPoints = (p, point) => onStandalone(point) && point.part === 'batch' && point.batch === 1;

/** Each PyMongo writer and the Node writer it stands beside (the claims read the Node names). */
const PY_WRITERS = [
  {
    name: 'py-threads-w0',
    twin: 'async-w0',
    mode: 'threads',
    w: 0,
    points: threadPoints,
    what: "PyMongo: W Python threads on one MongoClient, w: 0 (the source's client and inferred writer: unacknowledged, pipelined, counted afterwards)",
  },
  {
    name: 'py-threads',
    twin: 'async',
    mode: 'threads',
    w: 1,
    points: threadPoints,
    what: 'PyMongo: W Python threads on one MongoClient, w: 1 (acknowledged)',
  },
  {
    name: 'py-processes-w0',
    twin: 'processes-w0',
    mode: 'processes',
    w: 0,
    points: processPoints,
    what: "PyMongo: W Python processes, a MongoClient each, w: 0 (the source's processes and inferred writer), one by one",
  },
  {
    name: 'py-processes',
    twin: 'processes',
    mode: 'processes',
    w: 1,
    points: processPoints,
    what: 'PyMongo: W Python processes, a MongoClient each, w: 1 (acknowledged), one by one',
  },
];

/** py-* variant name -> the Node variant it is the twin of. */
const PY_TWINS = Object.fromEntries(PY_WRITERS.map((v) => [v.name, v.twin]));

/** The collection a PyMongo writer fills (index.js `derived` names it too). */
const pyCollection = (p, name) => `${p.COLL}_${name.replace(/-/g, '_')}`;

// One Python process per run, opened on the first py-* round (its connection made before any timing).
const processes = new WeakMap();

async function writerOf(ctx) {
  if (!processes.has(ctx)) {
    const pm = ensurePyMongo({ log: ctx.log });
    const opening = (async () => {
      const py = new PyProcess(pm, WRITER);
      ctx.cleanups.push(async () => py.close());
      const hello = await py.request({ op: 'connect', uri: ctx.server.uri });
      py.version = hello.pymongo;
      return py;
    })();
    processes.set(ctx, opening);
  }
  return processes.get(ctx);
}

/** A run's PyMongo, installing it once when absent (a `list` without a run only looks). */
function pyMongoFor(ctx) {
  return ctx && ctx.log ? ensurePyMongo({ log: ctx.log }) : findPyMongo();
}

function pyVariant(v) {
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    minVersion: '3.2',
    able: (p, point, ctx) => {
      if (!v.points(p, point)) return false;
      const pm = pyMongoFor(ctx);
      return pm.missing ? `no PyMongo client: ${pm.missing}` : true;
    },
    async run(ctx, p, point) {
      const py = await writerOf(ctx);
      const n = docsAt(p, point.size);
      const coll = pyCollection(p, v.name);
      const c = await scratch(ctx.db, coll);
      const r = await py.request({
        op: 'insert',
        db: ctx.dbName,
        coll,
        mode: v.mode,
        W: point.W,
        w: v.w,
        n,
        size: point.size,
        seed: p.SEED,
        batch: point.batch,
      });
      // Every write's outcome: at w: 1 a refused insert failed the request; at w: 0 nothing was
      // acknowledged, so what reached the server is counted (stored + rejected = written).
      const count = await c.countDocuments({});
      const writer = v.w === 0 ? { writer: 'w0', written: n, stored: count, rejected: n - count } : { writer: 'w1' };
      return LabHarness.took(r.ms, count, {
        docs: count,
        docsPerSec: Math.round((count / r.ms) * 1000),
        ops: r.ops,
        client: `PyMongo ${py.version}`,
        twin: v.twin,
        ...writer,
      });
    },
  };
}

const pyWriters = PY_WRITERS.map(pyVariant);

module.exports = { pyWriters, PY_WRITERS, PY_TWINS, pyCollection, WRITER };
