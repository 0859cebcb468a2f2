'use strict';
// The study's parts and the points they make: which compressors, which collection a point reads,
// and the parameters that choose them (refused by name when unknown).
const { list } = require('../../../scripts/lib/params');
const { versionAtLeast } = require('../../../scripts/lib/server');
const { ParameterError } = require('../../infra/errors');
const B = require('./mot');
const { canRestart } = require('./cache');

const PARTS = ['forms', 'compression', 'cold', 'cache', 'split', 'concurrent'];
const CACHE_COMPRESSOR = 'zlib'; // the source's compressor for its cache experiments
const FORMS_COMPRESSOR = 'snappy'; // the server's default
const KS = [1, 2, 4, 8];
const UNEVEN = [1, 1, 1, 5]; // k = 4 with one range holding 5/8 of the data

/** The names of list parameter `name` (all of `known` when empty); an unknown one is refused. */
function chosen(p, name, known, what) {
  const names = list(p[name]);
  for (const x of names)
    if (!known.includes(x))
      throw new ParameterError(`parameter ${name}: unknown ${what} ${JSON.stringify(x)} (known: ${known.join(', ')})`);
  return names;
}

function compressorsOf(p) {
  const names = chosen(p, 'COMPRESSORS', B.COMPRESSORS, 'compressor');
  return names.length ? names : B.COMPRESSORS;
}

function partsOf(p) {
  const names = chosen(p, 'PARTS', PARTS, 'part');
  return names.length ? names : PARTS;
}

/**
 * The cold part's compressors: those of COLD_COMPRESSORS that are loaded (COMPRESSORS), or every
 * loaded one when it names none of them (a profile's default must not empty an explicit choice).
 */
function coldOf(p, comps) {
  const names = chosen(p, 'COLD_COMPRESSORS', B.COMPRESSORS, 'compressor');
  const both = comps.filter((c) => names.includes(c));
  return both.length ? both : comps;
}

function pick(names, preferred) {
  return names.includes(preferred) ? preferred : names[0];
}

/** The collection a point reads: its compressor's, or the clustered copy. */
function coll(p, point) {
  return point.clustered ? `${p.COLL}_clustered` : `${p.COLL}_${point.compressor}`;
}

// The split part reads a clustered copy (5.3+): there an _id range is a bounded scan of the
// records themselves, as a shard scans only its own chunks; on a plain collection each range
// would go through the _id index and fetch (~1.4x the CPU per document).
function clusteredOk(ctx) {
  return versionAtLeast(ctx.server.version, '5.3');
}

/**
 * A warm time per compressor: the compression part's, or the forms part's seed on its compressor
 * (a compression point timedIn 'forms' does not time it again).
 */
function warmPerCompressor(r) {
  return r.axis.part === 'compression' || (r.axis.part === 'forms' && r.variant === 'seed');
}

/** The run's points, part by part; the cache part last (it restarts mongod with other cache arguments). */
async function pointsOf(ctx, p) {
  const parts = partsOf(p);
  const comps = compressorsOf(p);
  const topo = await B.topology(ctx.db);
  const pts = [];
  const formsAt = parts.includes('forms') ? pick(comps, FORMS_COMPRESSOR) : null;
  if (formsAt) pts.push({ part: 'forms', compressor: formsAt });
  // The forms point times seed on its compressor's collection already: that compressor's
  // compression point measures its sizes only (the tables read the forms' time).
  if (parts.includes('compression'))
    for (const c of comps)
      pts.push(
        c === formsAt
          ? { part: 'compression', compressor: c, timedIn: 'forms' }
          : { part: 'compression', compressor: c },
      );
  const restartable = canRestart(ctx.server);
  if (!restartable && (parts.includes('cold') || parts.includes('cache')))
    ctx.log(
      'bigagg: cold and cache parts skipped: they restart mongod, which only works on a server the lab started (not with --uri)',
    );
  if (restartable && parts.includes('cold'))
    for (const c of coldOf(p, comps)) pts.push({ part: 'cold', compressor: c });
  if (parts.includes('split'))
    pts.push(
      clusteredOk(ctx)
        ? { part: 'split', compressor: FORMS_COMPRESSOR, clustered: true }
        : { part: 'split', compressor: pick(comps, FORMS_COMPRESSOR) },
    );
  if (topo.mongos) pts.push({ part: 'sharded', compressor: pick(comps, FORMS_COMPRESSOR), shards: topo.shards });
  if (parts.includes('concurrent')) pts.push({ part: 'concurrent', compressor: pick(comps, FORMS_COMPRESSOR) });
  if (restartable && parts.includes('cache'))
    for (const cache of ['default', '0.25GB', '2MB'])
      pts.push({ part: 'cache', cache, compressor: pick(comps, CACHE_COMPRESSOR) });
  return pts;
}

module.exports = {
  PARTS,
  FORMS_COMPRESSOR,
  KS,
  UNEVEN,
  compressorsOf,
  partsOf,
  coldOf,
  coll,
  clusteredOk,
  warmPerCompressor,
  pointsOf,
};
