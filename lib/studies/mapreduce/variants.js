'use strict';
// The mapreduce study's Node-side variants: the Node driver's client variants and the source's own
// client (PyMongo, a process of its own for the run), each limited at the top batch by TOP_VARIANTS.
const LabParams = require('../../../scripts/lib/params');
const pymongo = require('./pymongo');
const { studyState } = require('../../core/study-state');

// The source's own client (PyMongo), doing what the Node driver's client variants do: the client
// claims are judged on these (lib/studies/mapreduce/claims.js), the Node figures beside.
const PY_VARIANTS = [
  { name: 'py-client-list', what: 'PyMongo: whole documents into a list' },
  { name: 'py-client-field-list', what: 'PyMongo: one projected field into a list' },
  { name: 'py-client-acc', what: 'PyMongo: one projected field into accumulators' },
  { name: 'py-client-chunked', what: 'PyMongo: one field, 10 sequential chunks of n/10 by _id' },
  { name: 'py-client-parallel', what: 'PyMongo: one field, 4 threads over _id ranges' },
];

// The run's PyMongo client process, or why there is none, kept beside the run's context
// (lib/core/study-state.js), not on it.
const pythons = studyState(() => ({ client: null, note: null }));

/** The PyMongo client is not there for this run: the py-client-* variants say `why`. */
function pyUnavailable(ctx, why) {
  pythons.of(ctx).note = why;
  if (ctx.log) ctx.log(why);
}

/**
 * Starts the PyMongo client process for this run, or says why not (pyUnavailable): without
 * PyMongo the py-client-* variants are skipped with the command that installs it.
 */
async function preparePython(ctx, p) {
  let pm = pymongo.findPyMongo();
  if (pm.missing) {
    // The source's client is part of the study, as the mongod is: installed once on first use (pip,
    // ~10 s, into the lab's cache), so the README's `npm start` measures it on a fresh machine.
    try {
      pm = pymongo.installPyMongo({ log: ctx.log });
    } catch (e) {
      pm = { missing: `${pm.missing} (installing it failed: ${e.message})` };
    }
  }
  if (pm.missing) return pyUnavailable(ctx, `no PyMongo client: ${pm.missing}`);
  try {
    const client = await pymongo.PyClient.open(ctx.server.uri, ctx.dbName, p.COLL, pm);
    pythons.of(ctx).client = client;
    ctx.cleanups.push(async () => client.close());
  } catch (e) {
    pyUnavailable(ctx, `no PyMongo client: ${e.message}`);
  }
}

function pyVariant(v) {
  const py = (ctx) => (ctx && pythons.of(ctx)) || { client: null, note: null };
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    able: (p, point, ctx) =>
      (!!py(ctx).client && atTop(p, point, v.name)) ||
      py(ctx).note ||
      (py(ctx).client ? false : `no PyMongo client: ${pymongo.SETUP}`),
    // The Python side times its own work: its start-up and the pipe are not in the time.
    run: (ctx, p, point) => py(ctx).client.run(v.name, point.batch, p.FIELD),
  };
}

/** TOP_VARIANTS, as scripts/mr_variants.js's mrAtPoint reads it: at 10^6 and more only those run. */
function atTop(p, point, name) {
  return !p.TOP_VARIANTS || point.batch < 1e6 || LabParams.list(p.TOP_VARIANTS).includes(name);
}

function clientVariant(v) {
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    minVersion: '3.6',
    able: (p, point) => atTop(p, point, v.name),
    run: (ctx, p, point) => v.fn(ctx.db.collection(p.COLL), point.batch, p.FIELD, { db: ctx.db }),
  };
}

module.exports = { PY_VARIANTS, preparePython, pyUnavailable, pyVariant, atTop, clientVariant };
