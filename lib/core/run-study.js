'use strict';
// Runs one study end to end on a server, by the contract of docs/contract.md: the study's script is
// loaded ONCE in mongosh's runtime, its shell variants are sampled by calling into it, its Node
// variants (lib/studies/<name>/index.js) are timed here, and both go through the one harness
// (scripts/lib/lab.js). Every axis point's records are appended to the result file as they finish.
const { MongoClient } = require('mongodb');
const { ShellSession } = require('./shell-runner');
const { interleave, timeAsync } = require('./harness');
const lab = require('../../scripts/lib/lab');

const SLOW_MS = 5000;

/** The parameters of a profile (tiny, quick or seed) of a study: defineStudy() made sure each is there. */
function profileParams(entry, profile) {
  const sizes = entry.profiles[profile];
  if (!sizes) throw new Error(`study ${entry.name}: no profile ${JSON.stringify(profile)} (profiles: tiny, quick, seed)`);
  return sizes;
}

/**
 * @param {object} entry a study of lib/studies/index.js
 * @param {object} o
 * @param {object} o.server from lib/infra/server.js getServer()
 * @param {string} o.dbName database the study works in
 * @param {object} [o.params] script parameters (NAME: value) over the profile's
 * @param {string} [o.profile] 'quick' (default), 'tiny' or 'seed'
 * @param {import('./results').ResultFile} [o.results] where records go as they are made
 * @param {Function} [o.echo] human-readable output (tables, summaries, the script's prints)
 * @param {Function} [o.log] progress lines
 * @param {boolean} [o.progress] progress bars
 * @returns {Promise<{records: object[], params: object, fixture: object}>}
 */
async function runStudy(entry, { server, dbName, params = {}, profile = 'quick', results, echo = () => {}, log = () => {}, progress } = {}) {
  const client = new MongoClient(server.uri, server.clientOptions || {});
  await client.connect();
  const records = [];
  // cleanups: what a study started for itself (another database server, workers), undone at the end.
  const ctx = { server, client, db: client.db(dbName), dbName, echo, log, progress, entry, session: null, cleanups: [] };
  /** A note for people: printed now, and kept in the result file's notes (report.md shows them). */
  ctx.note = (text) => {
    echo(`note: ${text}`);
    if (results) results.note(entry.name, text);
  };
  const nodeVariants = entry.variants || [];
  let desc;
  let cfg;

  // A (re)opened session: the script loaded once, configured with the run's parameters. A server
  // restart (cold-cache points) ends the old connection pool, so beforePoint may call ctx.reopen().
  ctx.reopen = async () => {
    if (ctx.session) await ctx.session.close().catch(() => { /* after a restart its connections are gone: nothing to close */ });
    ctx.session = await ShellSession.open(server.uri, dbName);
    await ctx.session.loadStudy(entry.script, { echo });
    desc = await ctx.session.call('lab.node.describe', entry.name);
    // The runner works in its own database: it may create the study's collections.
    const values = { ...(desc.params.GENERATE ? { GENERATE: true } : {}), ...profileParams(entry, profile), ...params };
    // A --set SIZES=100 arrives as a number: text parameters take it as the text it was.
    for (const [k, v] of Object.entries(values)) {
      const kind = desc.params[k] && desc.params[k].kind;
      if (typeof v === 'number' && (kind === 'name' || kind === 'names')) values[k] = String(v);
    }
    cfg = await ctx.session.call('lab.node.configure', entry.name, values, nodeVariants.map((v) => v.name));
    ctx.p = cfg.params;
  };

  try {
    await ctx.reopen();
    const p = cfg.params;
    const t0 = Date.now();
    ctx.fixture = entry.load ? await entry.load(ctx, p) : await ctx.session.call('lab.node.fixture', entry.name);
    if (Date.now() - t0 > SLOW_MS) log(`${entry.name}: data ready in ${lab.fmtMs(Date.now() - t0)}`);
    await ctx.session.call('lab.node.setup', entry.name);
    const scriptPoints = await ctx.session.call('lab.node.points', entry.name);
    const points = entry.points ? await entry.points(ctx, p, scriptPoints) : scriptPoints;
    const only = lab.list(p.VARIANTS);
    const own = nodeVariants.filter((v) => !only.length || only.includes(v.name));

    for (const [i, point] of points.entries()) {
      const label = lab.pointLabel(point);
      if (entry.beforePoint) await entry.beforePoint(ctx, p, point);
      await ctx.session.call('lab.node.setupPoint', entry.name, point);
      const versionOk = (v) => lab.versionAtLeast(server.version, v.minVersion);
      const shellAble = await ctx.session.call('lab.node.able', entry.name, cfg.variants.filter((n) => versionOk(desc.variants.find((d) => d.name === n))), point);
      const runners = [];
      const meta = {};
      const plans = {};
      const skipped = [];
      for (const name of cfg.variants) {
        const d = desc.variants.find((x) => x.name === name);
        if (!shellAble.includes(name)) {
          skipped.push(lab.resultRecord({ study: entry.name, variant: name, what: d.what, axis: point,
            skipped: versionOk(d) ? lab.NOT_HERE : `needs MongoDB >= ${d.minVersion}` }));
          continue;
        }
        meta[name] = { what: d.what, where: 'server' };
        plans[name] = await ctx.session.call('lab.node.explain', entry.name, name, point);
        runners.push({
          name,
          run: async () => {
            const w0 = process.hrtime.bigint();
            const r = await ctx.session.call('lab.node.sample', entry.name, name, point);
            const wall = Number(process.hrtime.bigint() - w0) / 1e6;
            return { ms: r.ms, answer: r.answer, extra: r.extra, overheadMs: wall - (typeof r.timedMs === 'number' ? r.timedMs : r.ms) };
          },
        });
      }
      for (const v of own) {
        if (!versionOk(v) || (v.able && !v.able(p, point, ctx))) {
          skipped.push(lab.resultRecord({ study: entry.name, variant: v.name, what: v.what, where: 'node', axis: point,
            skipped: !versionOk(v) ? `needs MongoDB >= ${v.minVersion}` : v.skippedWhy ? v.skippedWhy(ctx) : lab.NOT_HERE }));
          continue;
        }
        meta[v.name] = { what: v.what, where: 'node' };
        plans[v.name] = v.explain ? lab.plan(await v.explain(ctx, p, point)) : null;
        runners.push({ name: v.name, run: () => timeAsync(() => v.run(ctx, p, point)) });
      }
      log(`${entry.name}: ${label ? `${label} (${i + 1}/${points.length}), ` : ''}${runners.length} variants x ` +
        `${p.WARMUP} warm-up + ${p.RUNS} timed rounds`);
      let recs = skipped;
      if (runners.length) {
        const res = await interleave(runners, {
          warmup: p.WARMUP, rounds: p.RUNS, budgetMs: p.BUDGET_MS, baseline: desc.baseline,
          onStep: (step, r) => { if (r.ms > SLOW_MS) log(`  ${step.variant}: ${lab.fmtMs(r.ms)} (${step.phase} ${step.round + 1})`); },
        });
        const withOracle = entry.oracle && ctx.fixture && ctx.fixture.own !== false;
        const opts = { meta };
        if (withOracle) opts.expected = await entry.oracle(p, point, ctx);
        recs = lab.pointRecords({ name: entry.name, unit: desc.unit, same: entry.same }, p, point, res, plans, opts).concat(skipped);
      }
      if (entry.measures) recs.push(...(await entry.measures(ctx, p, point)));
      records.push(...recs);
      if (results) results.add(recs);
      echo([''].concat(label ? [`-- ${entry.name}: ${label} --`] : []).concat(lab.pointLines(recs.filter((r) => r.type === 'result'))).join('\n'));
    }
    await ctx.session.call('lab.node.report', entry.name, records.filter((r) => r.type === 'result'));
    if (entry.after) {
      const more = await entry.after(ctx, p, records);
      if (more && more.length) {
        records.push(...more);
        if (results) results.add(more);
      }
    }
    return { records, params: p, fixture: ctx.fixture, points };
  } finally {
    for (const undo of ctx.cleanups.reverse()) await undo().catch((e) => log(`${entry.name}: clean-up failed: ${e.message}`));
    if (ctx.session) await ctx.session.close().catch(() => { /* clean-up must not hide the run's own error */ });
    await client.close();
  }
}

module.exports = { runStudy };
