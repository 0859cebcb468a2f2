'use strict';
// The mapreduce study's Node-side variants: the Node driver's client variants and the source's own
// client (PyMongo, a process of its own for the run), each limited at the top batch by TOP_VARIANTS.
const lab = require('../../../scripts/lib/lab');
const pymongo = require('./pymongo');

// The source's own client (PyMongo), doing what the Node driver's client variants do: the client
// claims are judged on these (lib/studies/mapreduce/claims.js), the Node figures beside.
const PY_VARIANTS = [
  { name: 'py-client-list', what: 'PyMongo: whole documents into a list' },
  { name: 'py-client-field-list', what: 'PyMongo: one projected field into a list' },
  { name: 'py-client-acc', what: 'PyMongo: one projected field into accumulators' },
  { name: 'py-client-chunked', what: 'PyMongo: one field, 10 sequential chunks of n/10 by _id' },
  { name: 'py-client-parallel', what: 'PyMongo: one field, 4 threads over _id ranges' },
];

/**
 * Starts the PyMongo client process for this run (ctx.py), or says why not (ctx.pyNote): without
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
  if (pm.missing) {
    ctx.pyNote = `no PyMongo client: ${pm.missing}`;
    ctx.log(ctx.pyNote);
    return;
  }
  try {
    ctx.py = await pymongo.PyClient.open(ctx.server.uri, ctx.dbName, p.COLL, pm);
    ctx.cleanups.push(async () => ctx.py.close());
  } catch (e) {
    ctx.pyNote = `no PyMongo client: ${e.message}`;
    ctx.log(ctx.pyNote);
  }
}

function pyVariant(v) {
  return {
    name: v.name,
    what: v.what,
    where: 'node',
    able: (p, point, ctx) =>
      (!!(ctx && ctx.py) && atTop(p, point, v.name)) ||
      (ctx && ctx.pyNote) ||
      (ctx && ctx.py ? false : `no PyMongo client: ${pymongo.SETUP}`),
    // The Python side times its own work: its start-up and the pipe are not in the time.
    run: (ctx, p, point) => ctx.py.run(v.name, point.batch, p.FIELD),
  };
}

/**
 * Makes db.<coll> hold n generated sensor rows, the way a user gets them there: CSV files written
 * to a temporary directory, then imported. Skipped when the lab already imported the same spec.

/** TOP_VARIANTS, as scripts/mr_variants.js's mrAtPoint reads it: at 10^6 and more only those run. */
function atTop(p, point, name) {
  return !p.TOP_VARIANTS || point.batch < 1e6 || lab.list(p.TOP_VARIANTS).includes(name);
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

module.exports = { PY_VARIANTS, preparePython, pyVariant, atTop, clientVariant };
