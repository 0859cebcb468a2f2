'use strict';
// The time-series study (seed 003) end to end, the parts the shell cannot do on its own:
// restarting the server for cold runs, comparing designs interleaved from Node, and writing the
// tables as JSON and the chart. Every measurement itself is a script from scripts/ run in mongosh's
// runtime, exactly as `mongosh random scripts/<file>.js` would run it.
const fs = require('fs');
const path = require('path');
const { ShellSession } = require('./shell-runner');
const { parseLabLines, humanLines } = require('./lab-lines');
const { interleave } = require('./harness');
const { summarizeComparison } = require('./report');
const { renderChart } = require('./chart');
const tsFixture = require('../fixtures/timeseries');
const lab = require('../scripts/lib/lab');

const GRAIN_SCRIPTS = { seconds: 'ts_seconds_in_minute.js', minutes: 'ts_minutes_in_hour.js', hours: 'ts_hours_in_day.js' };
const STATES = [
  { name: 'cold', title: 'cold (restart before each grain)', warmup: null },
  { name: 'warm-data', title: 'after warmup_data.js', warmup: 'warmup_data.js' },
  { name: 'warm-indexes', title: 'after warmup_indexes.js', warmup: 'warmup_indexes.js' },
  { name: 'warm-both', title: 'after warmup.js (data and indexes)', warmup: 'warmup.js' },
  { name: 'warm-year', title: 'after agg_year.js (the seed\'s working-set preload)', warmup: 'agg_year.js' },
];

/** Runs a script and returns its @@LAB records, echoing its human-readable lines. */
async function runScript(session, script, params, echo) {
  const lines = await session.run(script, params, {
    echo: echo ? (text) => {
      const kept = humanLines(text);
      if (kept.length) echo(kept.join('\n'));
    } : undefined,
  });
  return parseLabLines(lines);
}

async function withSession(uri, dbName, fn) {
  const s = await ShellSession.open(uri, dbName);
  try { return await fn(s); } finally { await s.close(); }
}

/**
 * Cold versus warm: for each state, restart the server (a cold WiredTiger cache; the OS page cache
 * stays warm, which no restart of mongod can change), apply the state's warm-up, then run the three
 * grain scripts once, as the seed did. Cold restarts before each grain. Needs a server we started.
 */
async function coldWarm({ server, dbName, coll, echo, states = STATES }) {
  const records = [];
  for (const state of states) {
    if (echo) echo(`\n#### state: ${state.title}`);
    if (state.warmup === null) {
      for (const [grain, script] of Object.entries(GRAIN_SCRIPTS)) {
        await server.restart();
        await withSession(server.uri, dbName, async (s) => {
          for (const r of await runScript(s, script, { COLL: coll, VARIANTS: 'raw', PRINT_ROWS: false, EMIT_GROUPS: false }, echo)) {
            if (r.kind === 'row') records.push({ ...r, state: state.name, grain });
          }
        });
      }
      continue;
    }
    await server.restart();
    await withSession(server.uri, dbName, async (s) => {
      const params = state.warmup === 'agg_year.js' ? { COLL: coll, VARIANT: 'raw', PRINT_ROWS: false, EMIT_GROUPS: false } : { COLL: coll };
      for (const r of await runScript(s, state.warmup, params, echo)) {
        if (r.kind === 'row') records.push({ ...r, table: 'warmup', state: state.name, warmupScript: state.warmup, ms: r.ms !== undefined ? r.ms : r.fetchMs });
      }
      for (const [grain, script] of Object.entries(GRAIN_SCRIPTS)) {
        for (const r of await runScript(s, script, { COLL: coll, VARIANTS: 'raw', PRINT_ROWS: false, EMIT_GROUPS: false }, echo)) {
          if (r.kind === 'row') records.push({ ...r, state: state.name, grain });
        }
      }
    });
  }
  return records;
}

/** Rollups versus raw events for the year by day, interleaved runs of agg_year.js. */
async function yearRollupVsRaw(session, coll, { rounds = 5, warmup = 1 } = {}) {
  const run = (variant) => async () => {
    const rows = parseLabLines(await session.run('agg_year.js', { COLL: coll, VARIANT: variant, PRINT_ROWS: false, EMIT_GROUPS: false }));
    return rows.find((r) => r.kind === 'row' && r.table === 'year').fetchMs;
  };
  return interleave([{ name: 'raw', run: run('raw') }, { name: 'rollup', run: run('rollup') }], { warmup, rounds, baseline: 'raw' });
}

/** The seed's table per state as { state: { grain: {T1..T5, Average} } }: aggregation + fetch ms. */
function seedTables(records) {
  const out = {};
  for (const r of records.filter((x) => x.table === 'seed')) {
    out[r.state] = out[r.state] || {};
    out[r.state][r.grain] = out[r.state][r.grain] || {};
    out[r.state][r.grain][r.T] = { aggMs: r.aggMs, fetchMs: r.fetchMs, explainVersion: r.explainVersion, stage: r.stage };
  }
  return out;
}

/** Time per interval per design, one panel per grain, each with its own scale. */
function chartSpec(designRows, title) {
  const grainTitle = { seconds: 'seconds in a minute', minutes: 'minutes in an hour', hours: 'hours in a day', days: 'days in the year' };
  const order = ['raw', 'dateTrunc', 'bucket', 'timeseries', 'rollup'];
  return {
    title,
    data: { values: designRows.map((r) => ({ grain: grainTitle[r.grain], variant: r.variant, ms: r.median })) },
    facet: { column: { field: 'grain', type: 'nominal', sort: Object.values(grainTitle), title: null } },
    spec: {
      width: 170,
      height: 220,
      mark: { type: 'bar' },
      encoding: {
        x: { field: 'variant', type: 'nominal', sort: order, title: null, axis: { labelAngle: -40 } },
        y: { field: 'ms', type: 'quantitative', title: 'ms per interval (median)' },
        color: { field: 'variant', type: 'nominal', sort: order, title: 'design' },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
}

/**
 * The study's run(ctx) for lib/run-study.js: fixture, designs, cold/warm states, sizes, rollup
 * versus raw, then tables (JSON) and chart (SVG + PNG) written to opts.out.
 */
async function run({ server, dbName, db, opts, session, echo, progress }) {
  const coll = opts.coll || tsFixture.COLL;
  const say = echo || (() => {});
  const fixture = await tsFixture.load(db, { n: opts.docs, seed: opts.seed, coll, progress });
  say(`events: ${opts.docs} (seed ${opts.seed}) in ${dbName}.${coll}${fixture.generated ? `, loaded in ${(fixture.ms / 1000).toFixed(1)} s` : ', already there'}`);
  const records = [];
  // Every parameter is passed: a shell session keeps the globals of earlier runs.
  const designs = await runScript(session, 'ts_designs.js', { COLL: coll, N: opts.docs, SEED: opts.seed, RUNS: opts.runs, VARIANTS: 'all',
    GRAINS: 'seconds,minutes,hours,days', REBUILD: false, BUILD_ONLY: false, EMIT_GROUPS: false }, echo);
  records.push(...designs);

  let states = [];
  if (typeof server.restart === 'function') {
    states = await coldWarm({ server, dbName, coll, echo });
  } else {
    say('\n(cold and warm states need restarts: skipped on a server the lab did not start)');
  }
  records.push(...states);

  // The restarts dropped the caller's connection pool: measure on a session of our own.
  const year = await withSession(server.uri, dbName, async (s) => {
    const sizes = await runScript(s, 'sizes.js', { COLL: coll }, echo);
    records.push(...sizes.filter((r) => r.kind === 'row'));
    const cmp = await yearRollupVsRaw(s, coll, { rounds: Math.max(3, opts.runs) });
    say('\nyear by day, rollup vs raw events (agg_year.js, interleaved):\n' + summarizeComparison(cmp));
    return cmp;
  });

  const server0 = records.find((r) => r.kind === 'server');
  const tables = {
    study: 'timeseries',
    server: server0 && { version: server0.version, storageEngine: server0.storageEngine, queryFramework: server0.queryFramework, cacheBytes: server0.cacheBytes },
    events: opts.docs,
    seed: opts.seed,
    designs: records.filter((r) => r.kind === 'row' && r.table === 'designs'),
    storage: records.filter((r) => r.kind === 'row' && r.table === 'storage'),
    builds: records.filter((r) => r.kind === 'build'),
    seedTables: seedTables(states),
    warmups: states.filter((r) => r.table === 'warmup'),
    sizes: records.filter((r) => r.kind === 'row' && r.table === 'sizes'),
    yearRollupVsRaw: { rounds: year.rounds, raw: year.variants.raw, rollup: year.variants.rollup, speedup: 1 / year.variants.rollup.ratio.median },
  };
  const out = {};
  if (opts.out) {
    // One directory per scale and cache size, so a small-cache run does not overwrite the other.
    const cacheTag = server0 && server0.cacheBytes ? `${(server0.cacheBytes / 1073741824).toFixed(2)}gb` : 'cache';
    const dir = path.join(opts.out, `${opts.docs}-${cacheTag}`);
    fs.mkdirSync(path.resolve(dir), { recursive: true });
    out.tables = path.join(dir, 'timeseries-tables.json');
    fs.writeFileSync(out.tables, JSON.stringify(tables, null, 2) + '\n');
    const cacheGB = server0 && server0.cacheBytes ? (server0.cacheBytes / 1073741824).toFixed(2) : '?';
    Object.assign(out, await renderChart(chartSpec(tables.designs,
      `Time per interval by design: ${opts.docs.toLocaleString('en-US')} events, MongoDB ${server0 ? server0.version : ''}, cache ${cacheGB} GB`),
    path.join(dir, 'timeseries-designs')));
    say(`\ntables: ${out.tables}\nchart: ${out.svg}, ${out.png}`);
  }
  // The runner summarises rows that carry a `ratio` (per `table`): the year-by-day rollup-vs-raw
  // comparison is the one interleaved from Node; the scripts' own rows carry ratioToRaw instead.
  const fastest = year.variants.rollup.median <= year.variants.raw.median ? 'rollup' : 'raw';
  const yearRows = ['raw', 'rollup'].map((v) => {
    const per = year.variants[v].times.map((t, i) => t / year.variants[fastest].times[i]);
    return { study: 'timeseries', kind: 'row', table: 'year-interleaved', variant: v, ...year.variants[v],
      ratio: lab.median(per), ratioToRaw: year.variants[v].ratio };
  });
  return { fixture, records: [...records, ...yearRows], extra: { outputs: out, tables } };
}

module.exports = { run, coldWarm, yearRollupVsRaw, chartSpec, seedTables, GRAIN_SCRIPTS, STATES };
