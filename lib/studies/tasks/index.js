'use strict';
// Study "tasks" (source 002, part 1 of a 2012 blog series: a database as a passive task scheduler):
// the Node part of scripts/inserts_tasks.js. Node adds claiming: W workers take tasks with one
// atomic findOneAndUpdate each until none is left, either all going for "the first" task or each
// starting at a random point; claims/s, the server's write conflicts, and an exact check that no
// task was claimed twice and none was lost. PostgreSQL answers the source's LIMIT 1 OFFSET R.
const { defineStudy } = require('../../core/registry');
const { ParameterError } = require('../../infra/errors');
const LabFormat = require('../../../scripts/lib/format');
const LabHarness = require('../../../scripts/lib/harness');
const LabRecords = require('../../../scripts/lib/records');
const G = require('../../../fixtures/inserts-gen');
const { ensureFixture } = require('../../infra/loader');
const { runWorkers } = require('../source-002/insert-workers');
const { scratch, postgres } = require('../source-002/common');
const pgPeer = require('../source-002/pg-peer');
const sql = require('../sql-peer');
const { writeActivity, ownConflicts, conflictsCell } = require('./conflicts');

function* taskDocs(n, seed, done) {
  const next = G.rng(seed);
  for (let i = 0; i < n; i++) yield G.taskDoc(next, i, done);
}

function claimVariant(name, random, what) {
  return {
    name,
    what,
    minVersion: '3.2',
    able: (p, point) => point.part === 'claim',
    async run(ctx, p, point) {
      const collName = `${p.COLL}_claims`;
      const coll = await scratch(ctx.db, collName);
      // Every task unprocessed, r as generated: the same CLAIM_N tasks for every run.
      const docs = [...taskDocs(p.CLAIM_N, p.SEED, 0)];
      await coll.insertMany(docs, { ordered: false });
      await coll.createIndex({ processed: 1, r: 1 });
      const wc0 = await writeActivity(ctx.db);
      const r = await runWorkers({
        uri: ctx.server.uri,
        mode: 'connections',
        W: point.W,
        job: { kind: 'claim', db: ctx.dbName, coll: collName, random, seed: p.SEED },
      });
      const wc1 = await writeActivity(ctx.db);
      // The exact check: every id claimed once, by the worker the document names, none left over.
      const owner = new Map();
      let double = 0;
      r.results.forEach((res, w) =>
        res.ids.forEach((id) => {
          if (owner.has(id)) double++;
          owner.set(id, w);
        }),
      );
      const left = await coll.countDocuments({ processed: 0 });
      let mismatched = 0;
      for await (const d of coll.find({}, { projection: { by: 1 } })) if (owner.get(d._id) !== d.by) mismatched++;
      const claimed = owner.size;
      return Object.assign(
        LabHarness.took(
          r.ms,
          { claimed, double, lost: p.CLAIM_N - claimed, left, mismatched },
          {
            claimsPerSec: Math.round((claimed / r.ms) * 1000),
            ...ownConflicts(wc0, wc1, claimed),
            W: point.W,
            perWorker: r.results.map((x) => x.claims),
            ops: r.latency.count,
          },
        ),
        { latency: r.latency },
      );
    },
  };
}

module.exports = defineStudy({
  name: 'tasks',
  script: 'inserts_tasks.js',
  writeUp: 'docs/studies/inserts.md#3-random-selection-of-an-unprocessed-task-and-claiming-it',
  profiles: {
    // For the test suite. test/inserts.test.js "tasks: every pick is an unprocessed task" runs
    // 5,000 tasks and 300 claims at W 1 and 4 and checks each answer and table; here (run all) the
    // same points on 2,000 tasks (MongoDB and PostgreSQL) and 150 claims.
    tiny: { N: 2000, PICKS: 5, WRITERS: '1,4', CLAIM_N: 150, RUNS: 1, WARMUP: 0 },
    // 3 rounds: the fewest an interval is computed from. W 1 and 16: one claimer against many
    // (002-few-collisions reads the largest W; W 4 was read by nothing).
    quick: { N: 20000, PICKS: 10, WRITERS: '1,16', CLAIM_N: 1000, RUNS: 3 },
    // W 1 and 16, as in quick: 002-few-collisions reads the largest W; W 2 and 8 (~1.5 min,
    // docs/data/tasks-seed.json) and W 4 (0.9 of 5.3 min on 2026-11-27) were read by nothing, no
    // verdict or figure changed without them (docs/journal/seed-time-2026-11-29.md).
    seed: { N: 1000000, PICKS: 20, WRITERS: '1,16', CLAIM_N: 16000, RUNS: 3 },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: (p) => [`${p.COLL}_claims`],
  cli: { docs: 'N', runs: 'RUNS', seed: 'SEED' },
  peers: ['postgres'],
  expected: '~17 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected: '~4.5 min (5.3 measured on 2026-11-27: 1M tasks, W 1,4,16; less 0.9 for W 4)',

  async load(ctx, p) {
    if (!(p.DONE >= 0 && p.DONE < 1))
      throw new ParameterError(`parameter DONE: expected a fraction in [0, 1), got ${p.DONE}`);
    const f = await ensureFixture(
      ctx.db,
      p.COLL,
      { fixture: `tasks-${p.DONE}`, n: p.N, seed: p.SEED },
      () => taskDocs(p.N, p.SEED, p.DONE),
      { progress: ctx.progress },
    );
    await ctx.db.collection(p.COLL).createIndex({ processed: 1, r: 1 });
    return { ...f, own: true, coll: p.COLL };
  },

  async points(ctx, p, points) {
    const pg = await postgres(ctx);
    if (pg) await pgPeer.loadTasks(pg, { n: p.N, seed: p.SEED, doneFraction: p.DONE });
    return points;
  },

  /** Picks: all PICKS unprocessed. Claims: all CLAIM_N claimed once, none twice, none left. */
  oracle(p, point) {
    if (point.part === 'pick') return { picks: p.PICKS, unprocessed: p.PICKS };
    return { claimed: p.CLAIM_N, double: 0, lost: 0, left: 0, mismatched: 0 };
  },

  variants: [
    claimVariant(
      'claim-first',
      false,
      'W workers: findOneAndUpdate({processed: 0}, sort {r: 1}): all go for the first task',
    ),
    claimVariant('claim-random', true, 'W workers: findOneAndUpdate from a random r, wrapping: workers spread out'),
    {
      name: 'pg-offset',
      what: "PostgreSQL: the source's SELECT ... WHERE processed = 0 LIMIT 1 OFFSET R",
      minVersion: '0',
      able: (p, point, ctx) => (!!sql.of(ctx) && point.part === 'pick') || sql.note(ctx) || LabRecords.NOT_HERE,
      async run(ctx, p) {
        const pgs = await postgres(ctx);
        const unprocessed = Number(
          await (async () => {
            const c = await pgPeer.session(pgs);
            try {
              return (await c.query('SELECT count(*) AS n FROM tasks WHERE processed = 0')).rows[0].n;
            } finally {
              await c.end();
            }
          })(),
        );
        const next = G.rng((p.SEED * 7919 + ++pgCalls * 104729) >>> 0);
        const offsets = [];
        for (let i = 0; i < p.PICKS; i++) offsets.push(Math.floor(next() * unprocessed));
        const r = await pgPeer.pickByOffset(pgs, offsets);
        const ids = new Set(r.picks.map((x) => x.id));
        return LabHarness.took(
          r.ms,
          { picks: r.picks.length, unprocessed: r.picks.filter((x) => Number(x.processed) === 0).length },
          { distinct: ids.size, msPerPick: r.ms / r.picks.length, postgres: pgs.version },
        );
      },
    },
  ],

  claims: require('./claims'),
  practices: require('./practices'),

  tables: [
    {
      title: 'time per pick (median run / PICKS)',
      rows: 'variant',
      cols: 'part',
      value: (r) => (r.answer && r.answer.picks ? LabFormat.fmtMs(r.median / r.answer.picks) : ''),
      filter: (r) => !r.skipped && r.axis.part === 'pick',
    },
    {
      title: 'claims/s by workers W',
      rows: 'variant',
      cols: 'W',
      value: (r) => (r.extra ? LabFormat.fmtInt(r.extra.claimsPerSec) : ''),
      filter: (r) => !r.skipped && r.axis.part === 'claim',
    },
    {
      title: 'write conflicts per run by workers W',
      rows: 'variant',
      cols: 'W',
      value: (r) => (r.extra ? conflictsCell(r.extra, LabFormat.fmtInt) : ''),
      filter: (r) => !r.skipped && r.axis.part === 'claim',
    },
  ],
});

let pgCalls = 0;
