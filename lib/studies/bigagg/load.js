'use strict';
// The study's data: one collection per block compressor, streamed by the Node driver (load times
// kept as measures), and a copy clustered on _id for the split part (5.3+).
const { fmtInt, fmtMs } = require('../../../scripts/lib/format');
const { META } = require('../../infra/loader');
const B = require('./mot');
const runs = require('./state');
const { FORMS_COMPRESSOR, compressorsOf, coldOf, partsOf, clusteredOk } = require('./parts');

async function load(ctx, p) {
  const out = { own: true, collections: {} };
  coldOf(p, compressorsOf(p)); // refuses an unknown COLD_COMPRESSORS before the loads
  runs.open(ctx);
  for (const c of compressorsOf(p)) {
    const name = `${p.COLL}_${c}`;
    const r = await B.loadMot(ctx.db, name, { n: p.N, seed: p.SEED, compressor: c, progress: ctx.progress });
    const meta = await ctx.db.collection(META).findOne({ _id: name });
    out.collections[c] = { ...r, loadMs: r.generated ? r.ms : (meta && meta.loadMs) || null };
    if (r.generated) ctx.log(`bigagg: ${name}: ${fmtInt(r.inserted)} records in ${fmtMs(r.ms)}`);
  }
  if (partsOf(p).includes('split') && clusteredOk(ctx)) {
    const name = `${p.COLL}_clustered`;
    const r = await B.loadMot(ctx.db, name, {
      n: p.N,
      seed: p.SEED,
      compressor: FORMS_COMPRESSOR,
      clustered: true,
      progress: ctx.progress,
    });
    out.collections.clustered = r;
    if (r.generated) ctx.log(`bigagg: ${name} (clustered on _id): ${fmtInt(r.inserted)} records in ${fmtMs(r.ms)}`);
  }
  return out;
}

module.exports = { load };
