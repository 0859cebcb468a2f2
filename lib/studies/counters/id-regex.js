'use strict';
// The source's "a regex query on _id for '^20101010/', which will be reasonably fast": one
// document per (day, metric) with the source's keys ("YYYYMMDD/metric"), read a day at a time two
// ways through the one harness, interleaved: the _id prefix regex, and an equality on an indexed
// metadata.date (today's usual answer). Both fetch the same documents; the regex's plan is read too
// (explain executionStats): an IXSCAN on _id whose bounds hold that day's keys only.
const lab = require('../../../scripts/lib/lab');
const C = require('../../../scripts/counters_functions');
const gen = require('../../../fixtures/counters-gen');
const { interleave } = require('../../core/harness');
const { claim, META } = require('../../infra/targets');

const OWNER = 'counters-004';
const DAYS = 30;

const collOf = (p) => `${p.PREFIX}idregex`;
const dayMs = (d) => gen.START + d * gen.DAY_MS;
// "YYYYMMDD/": digits and a slash, no regex metacharacter to escape.
const prefixOf = (d) => `${C.key(dayMs(d), 'x')._id.split('/')[0]}/`;

/** DAYS x metrics small counter documents (the lab's own, re-created) and the index on metadata.date. */
async function prepare(db, p) {
  const name = collOf(p);
  await claim(db, name, { kind: OWNER, fresh: true, spec: { fixture: OWNER }, doing: 'drop and re-create' });
  const docs = [];
  for (let d = 0; d < DAYS; d++) {
    for (let k = 0; k < p.METRICS; k++) docs.push({ ...C.key(dayMs(d), gen.metricName(k)), daily: d * p.METRICS + k });
  }
  await db.collection(name).insertMany(docs, { ordered: false });
  await db.collection(name).createIndex({ 'metadata.date': 1 });
  await db.collection(META).updateOne({ _id: name }, { $set: { complete: true } });
}

/** A day's documents, each way: the answer is [{day, n, daily}] over every day, in day order. */
async function readDays(coll, how) {
  const out = [];
  for (let d = 0; d < DAYS; d++) {
    const filter =
      how === 'id-regex' ? { _id: new RegExp(`^${prefixOf(d)}`) } : { 'metadata.date': new Date(dayMs(d)) };
    const docs = await coll.find(filter, { projection: { daily: 1 } }).toArray();
    out.push({ day: d, n: docs.length, daily: docs.reduce((a, x) => a + x.daily, 0) });
  }
  return out;
}

/** The same answer in plain Node: each day holds every metric, daily = d * M + k. */
function expected(p) {
  const out = [];
  for (let d = 0; d < DAYS; d++) {
    let s = 0;
    for (let k = 0; k < p.METRICS; k++) s += d * p.METRICS + k;
    out.push({ day: d, n: p.METRICS, daily: s });
  }
  return out;
}

/** Every stage of a plan tree (classic or slot-based explain). */
function stages(node, out = []) {
  if (!node || typeof node !== 'object') return out;
  if (node.stage) out.push(node);
  for (const k of ['inputStage', 'queryPlan', 'winningPlan']) if (node[k]) stages(node[k], out);
  for (const c of node.inputStages || []) stages(c, out);
  return out;
}

/** The regex's plan for one day: its index scan, bounds and keys examined. */
async function regexPlan(coll, p) {
  const d = Math.floor(DAYS / 2);
  const ex = await coll
    .find({ _id: new RegExp(`^${prefixOf(d)}`) }, { projection: { daily: 1 } })
    .explain('executionStats');
  const ix = stages(ex.queryPlanner.winningPlan).find((s) => s.stage === 'IXSCAN');
  const es = ex.executionStats;
  return {
    prefix: prefixOf(d),
    stage: ix
      ? 'IXSCAN'
      : stages(ex.queryPlanner.winningPlan)
          .map((s) => s.stage)
          .join('>'),
    indexName: ix ? ix.indexName : null,
    bounds: ix && ix.indexBounds ? ix.indexBounds._id || null : null,
    keysExamined: es.totalKeysExamined,
    docsExamined: es.totalDocsExamined,
    nReturned: es.nReturned,
    explainVersion: ex.explainVersion || '1',
    docsInCollection: DAYS * p.METRICS,
    metrics: p.METRICS,
  };
}

/** The plan measure, then both reads through the harness; records for the 004-id-regex-prefix rule. */
async function idRegex(ctx, p) {
  await prepare(ctx.db, p);
  const coll = ctx.db.collection(collOf(p));
  const plan = await regexPlan(coll, p);
  const runners = ['date-eq', 'id-regex'].map((how) => ({
    name: how,
    run: async () => {
      const t0 = process.hrtime.bigint();
      const answer = await readDays(coll, how);
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6 / DAYS, answer };
    },
  }));
  const res = await interleave(runners, { warmup: 1, rounds: Math.max(5, p.SCAN_ROUNDS || 9), baseline: 'date-eq' });
  const meta = {
    'id-regex': { what: `find({_id: /^YYYYMMDD\\//}), one day of ${p.METRICS} metrics (ms per day)`, where: 'node' },
    'date-eq': {
      what: `find({'metadata.date': day}) on an index, one day of ${p.METRICS} metrics (ms per day)`,
      where: 'node',
    },
  };
  const recs = lab.pointRecords(
    { name: 'counters', unit: 'ms' },
    p,
    { part: 'id-regex' },
    res,
    {},
    { expected: expected(p), meta },
  );
  const m = lab.measureRecord({
    study: 'counters',
    name: 'id-regex-plan',
    variant: 'id-regex',
    axis: { part: 'id-regex' },
    value: plan.keysExamined,
    unit: 'keys',
    what: `explain of find({_id: /^${plan.prefix.replace('/', '\\/')}/}): keys examined (one day: ${p.METRICS} documents of ${plan.docsInCollection})`,
    extra: plan,
  });
  return [m, ...recs];
}

module.exports = { idRegex, regexPlan, expected, DAYS };
