'use strict';
// Study "counters" (source 004, Rick Copeland, "MongoDB Schema Design at Scale", 2012): the Node
// part of scripts/counters_day.js's declaration. The script's variants are the four schemas written
// hit by hit from the shell (one writer); the Node variants are the same schemas and today's
// alternatives written by WRITERS concurrent connections, fed the very same hits minute by minute.
// After the day: storage and read-back cost, minute 0 vs 1439 (finding 3), writers and write
// concerns, and the verdicts on the source's four findings.
const { defineStudy } = require('../../core/registry');
const lab = require('../../../scripts/lib/lab');
const { Latency } = require('../../core/latency');
const gen = require('../../../fixtures/counters-gen');
const oracle = require('./oracle');
const day = require('./day');
const micro = require('./micro');
const { target, ownCollections } = require('./schemas');
const { interleave } = require('../../core/harness');
const { PALETTE, chartTime } = require('../../report/report');
const { dayResults, wpsOf, wpsOver, ratioOver, scanRatio } = require('./records');
const { idRegex } = require('./id-regex');
const { wash } = require('./wash');
const { pgSize, LAYOUTS: pgSizeLayouts } = require('./pg-size');
const C = require('../../../scripts/counters_functions');

// node-preallocated first: when the shell's schemas are not run, the harness takes the first
// variant as the baseline, and every ratio of the Node day is then to node-preallocated.
const NODE_SCHEMAS = ['preallocated', 'initial', 'hierarchical', 'array', 'timeseries', 'minute-docs', 'bulk'];
const COUNTERS = ['preallocated', 'initial', 'hierarchical', 'array'];
const WHAT = {
  preallocated: 'flat minute.MMMM, preallocated (p = 1/2000 per hit, tomorrow)',
  initial: 'flat minute.MMMM, grown by the upserts',
  hierarchical: 'minute.HH.MM, preallocated',
  array: 'minute: [1440], preallocated',
  timeseries: 'one document per hit in a time-series collection; $group on read',
  'minute-docs': 'one small document per (metric, minute), upsert $inc {n: 1}; unique index',
  bulk: 'per writer and minute, client-side sums sent as one unordered bulkWrite (hierarchical documents)',
};
const NODE_VARIANTS = NODE_SCHEMAS.map((s) => `node-${s}`).join(',');

const state = new WeakMap();

/** Every collection of this server the parts write (the replica-set part writes on its own server). */
function derivedNames(p) {
  const coll = (schema, prefix) => target(schema, prefix).coll;
  return [
    ...NODE_SCHEMAS.map((s) => coll(s, `${p.PREFIX}node_`)),
    ...COUNTERS.map((s) => coll(s, `${p.PREFIX}sweep_`)),
    coll('preallocated', `${p.PREFIX}wash_one_`),
    ...Array.from({ length: p.METRICS }, (_, k) => coll('preallocated', `${p.PREFIX}wash_m${k}_`)),
    ...pgSizeLayouts.map((l) => `${p.PREFIX}size_${l}`),
    ...micro.LAYOUTS.map((l) => micro.collOf(l)),
    `${p.PREFIX}idregex`,
  ];
}

// The same schedule as the script's countersMinuteOfHour: RUNS + WARMUP minutes spread over the
// hour, the last one always minute 59.
function minuteOfHour(p, k) {
  const n = p.RUNS + p.WARMUP;
  if (n > 1 && k === n - 1) return 59;
  return Math.floor((k * 60) / n);
}

const streamOf = (p) => ({ seed: p.SEED, metrics: p.METRICS, perMinute: p.PER_MINUTE });

function slotsOf(p) {
  const out = [];
  for (let d = 0; d < p.DAYS; d++) {
    for (let h = 0; h < 24; h++)
      for (let k = 0; k < p.RUNS + p.WARMUP; k++) out.push({ day: d, minute: h * 60 + minuteOfHour(p, k) });
  }
  return out;
}

function chosenNode(p) {
  const only = lab.list(p.VARIANTS);
  return NODE_SCHEMAS.filter((s) => !only.length || only.includes(`node-${s}`));
}

// What a target holds for one simulated hour, summed over metrics (read untimed after its last minute).
async function hourAnswer(db, t, p, point) {
  const dayMs = gen.START + point.day * gen.DAY_MS;
  const out = { hits: 0, minutes: new Array(60).fill(0) };
  for (let k = 0; k < p.METRICS; k++) {
    const mins = await t.readDay(db, dayMs, gen.metricName(k));
    for (let i = 0; i < 60; i++) out.minutes[i] += mins[point.hour * 60 + i];
  }
  out.hits = out.minutes.reduce((a, b) => a + b, 0);
  return out;
}

function nodeVariant(schema) {
  return {
    name: `node-${schema}`,
    what: `${WHAT[schema]}; WRITERS connections`,
    minVersion: schema === 'timeseries' ? '5.0' : '3.2',
    async run(ctx, p, point) {
      const st = state.get(ctx);
      const t = st.targets.get(schema);
      const key = `${schema}|${point.day}|${point.hour}`;
      const k = st.cursor.get(key) || 0;
      st.cursor.set(key, k + 1);
      const n = p.RUNS + p.WARMUP;
      if (k >= n) throw new Error(`counters: hour ${point.day}/${point.hour} ran more than RUNS + WARMUP = ${n} times`);
      const minute = point.hour * 60 + minuteOfHour(p, k);
      const hits = gen.minuteHits(streamOf(p), point.day, minute);
      const lat = new Latency();
      const ms = await day.runSlot(st.writers, t, hits, day.writeConcern(p.WC), lat);
      const answer = k === n - 1 ? await hourAnswer(ctx.db, t, p, point) : { hits: hits.length };
      return Object.assign(lab.took(ms, answer, { hitsPerMinute: hits.length, minute, writers: p.WRITERS, wc: p.WC }), {
        latency: lat,
      });
    },
  };
}

// ---- after the day ---------------------------------------------------------------------------
const M = (name, variant, axis, value, unit, what) =>
  lab.measureRecord({ study: 'counters', name, variant, axis, value, unit, what });

// Storage per layout: bytes per metric-day, documents, average BSON size.
function storageRecords(targets, sizes) {
  const out = [];
  for (const t of targets) {
    const s = sizes[t.name];
    const axis = { part: 'storage' };
    out.push(
      M(
        'bytes-per-metric-day',
        `node-${t.name}`,
        axis,
        Math.round(s.perMetricDay),
        'bytes',
        'storage + index bytes after fsync, per metric-day that received hits (preallocated tomorrows included)',
      ),
    );
    out.push(M('documents', `node-${t.name}`, axis, s.docs, 'docs', 'documents in the collection'));
    if (s.avgBsonSize)
      out.push(
        M(
          'avg-bson-bytes',
          `node-${t.name}`,
          axis,
          Math.round(s.avgBsonSize),
          'bytes',
          'average BSON size of a document',
        ),
      );
  }
  return out;
}

async function storageAndReads(ctx, p, targets) {
  const slots = slotsOf(p);
  const tally = oracle.tally(streamOf(p), slots, {});
  const sizes = await day.sizes(ctx.db, targets, tally.size);
  const out = storageRecords(targets, sizes);
  // Reading one day's 1,440 minutes of each metric back, through the harness; the answer is the
  // per-minute total over metrics, checked against the tally.
  const dayMs = gen.START;
  const expected = new Array(1440).fill(0);
  for (let k = 0; k < p.METRICS; k++)
    oracle.dayMinutes(tally, dayMs, gen.metricName(k)).forEach((n, i) => {
      expected[i] += n;
    });
  const runners = targets.map((t) => ({
    name: `node-${t.name}`,
    run: async () => {
      const totals = new Array(1440).fill(0);
      const t0 = process.hrtime.bigint();
      for (let k = 0; k < p.METRICS; k++)
        (await t.readDay(ctx.db, dayMs, gen.metricName(k))).forEach((n, i) => {
          totals[i] += n;
        });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6 / p.METRICS;
      return { ms, answer: totals };
    },
  }));
  const res = await interleave(runners, {
    warmup: 1,
    rounds: Math.max(3, Math.min(p.RUNS, 7)),
    baseline: 'node-preallocated',
  });
  const meta = Object.fromEntries(
    targets.map((t) => [
      `node-${t.name}`,
      { what: `read one metric-day's 1,440 minutes: ${WHAT[t.name]}`, where: 'node' },
    ]),
  );
  out.push(...lab.pointRecords({ name: 'counters', unit: 'ms' }, p, { part: 'read-day' }, res, {}, { expected, meta }));
  return out;
}

/**
 * The layout x mode pairs the scan times: SCAN_PAIRS (layout-mode names) or every pair. The claims
 * read the three layouts in bulk and flat in single round trips; the other pairs are for the table.
 */
function scanPairs(p, o) {
  const all = o.layouts.flatMap((layout) => o.modes.map((mode) => ({ layout, mode })));
  const only = lab.list(p.SCAN_PAIRS);
  for (const x of only)
    if (!all.some((a) => `${a.layout}-${a.mode}` === x))
      throw new Error(
        `parameter SCAN_PAIRS: unknown pair ${JSON.stringify(x)} (known: ${all.map((a) => `${a.layout}-${a.mode}`).join(', ')})`,
      );
  return only.length ? all.filter((a) => only.includes(`${a.layout}-${a.mode}`)) : all;
}

/**
 * Minute 0 vs minute 1439 through the one harness: per layout and way of sending, the two fields
 * alternate round by round; records carry client and server (the collection's latencyStats) microseconds per update.
 * @param {object} [opt] { docs, bulk, single, rounds, layouts, modes } (defaults: the documented run's)
 */
async function scan(ctx, p, opt = {}) {
  const o = {
    docs: 200,
    bulk: 1000,
    single: 200,
    rounds: p.SCAN_ROUNDS || 9,
    layouts: micro.LAYOUTS,
    modes: micro.MODES,
    ...opt,
  };
  const pairs = scanPairs(p, o);
  await micro.prepareMicro(ctx.db, o.docs);
  // One untimed pass over every layout and mode first: the freshly written documents, the
  // checkpoint after them and the first commands would otherwise all land on the first layout.
  await ctx.db.admin().command({ fsync: 1 });
  for (const { layout, mode } of pairs)
    for (const at of ['first', 'last']) await micro.runOnce(ctx.db, layout, mode, at, o);
  const out = [];
  for (const { layout, mode } of pairs) {
    const server = { first: [], last: [] };
    const serverOps = { first: [], last: [] };
    const runners = ['first', 'last'].map((at) => ({
      name: at === 'first' ? 'minute-0' : 'minute-1439',
      run: async () => {
        const r = await micro.runOnce(ctx.db, layout, mode, at, o);
        server[at].push(r.serverUs / r.updates);
        serverOps[at].push(r.serverOps);
        return { ms: r.ms, answer: r.updates, extra: { updates: r.updates, field: micro.fieldOf(layout, at) } };
      },
    }));
    const res = await interleave(runners, { warmup: 1, rounds: o.rounds, baseline: 'minute-0' });
    const meta = {
      'minute-0': { what: `$inc ${micro.fieldOf(layout, 'first')} (${mode})`, where: 'node' },
      'minute-1439': { what: `$inc ${micro.fieldOf(layout, 'last')} (${mode})`, where: 'node' },
    };
    const recs = lab.pointRecords(
      { name: 'counters', unit: 'ms' },
      p,
      { part: 'scan', layout, mode },
      res,
      {},
      { meta },
    );
    for (const r of recs) {
      const at = r.variant === 'minute-0' ? 'first' : 'last';
      const timed = server[at].slice(1); // the first sample is the warm-up
      r.extra = {
        ...r.extra,
        usPerUpdate: (r.median * 1000) / r.extra.updates,
        serverUsPerUpdate: lab.median(timed),
        serverUsSamples: timed,
        serverOpsSamples: serverOps[at].slice(1),
      };
    }
    out.push(...recs);
  }
  return out;
}

// Writers and write concerns on a thinned day (one minute in 60): median writes/s per schema.
async function writersSweep(ctx, p, { uri, dbName, db, configs, label }) {
  const out = [];
  const schemas = COUNTERS;
  for (const { writers, wc } of configs) {
    const r = await day.simulateDay({
      db,
      uri,
      dbName,
      schemas,
      prefix: `${p.PREFIX}sweep_`,
      stream: streamOf(p),
      days: 1,
      every: 60,
      writers,
      wc,
    });
    for (const s of schemas) {
      const xs = r.samples.filter((x) => x.schema === s);
      const base = new Map(r.samples.filter((x) => x.schema === 'preallocated').map((x) => [x.minute, x]));
      const axis = { part: label, writers, wc };
      out.push(
        M(
          'writes-per-s',
          `node-${s}`,
          axis,
          Math.round(lab.median(xs.map((x) => x.wps))),
          'writes/s',
          `median over ${xs.length} simulated minutes (one in 60)`,
        ),
      );
      out.push(
        M(
          'ratio-to-preallocated',
          `node-${s}`,
          axis,
          Number(lab.median(xs.map((x) => x.wps / base.get(x.minute).wps)).toFixed(3)),
          'x',
          'median per-minute writes/s ratio',
        ),
      );
    }
    ctx.log(`counters: ${label} writers=${writers} wc=${wc} done`);
  }
  return out;
}

async function replsetSweep(ctx, p) {
  const { startReplSet } = require('./replset');
  const { MongoClient } = require('mongodb');
  ctx.log('counters: starting a 3-member replica set for w:"majority"');
  const rs = await startReplSet({ members: 3, log: ctx.log });
  const client = new MongoClient(rs.uri);
  try {
    await client.connect();
    const configs = [];
    for (const writers of [1, 16]) for (const wc of ['w1', 'majority']) configs.push({ writers, wc });
    return await writersSweep(ctx, p, {
      uri: rs.uri,
      dbName: ctx.dbName,
      db: client.db(ctx.dbName),
      configs,
      label: 'replset',
    });
  } finally {
    await client.close();
    await rs.stop();
  }
}

/**
 * 004-prealloc-safe/repeat, the case that matters: preallocate (the study's own update, acknowledged)
 * called on the first day's documents, which hold the day's counts, for every metric of every
 * preallocating schema; each document's 1,440 minutes read before and after must be unchanged.
 * (During the day preallocate only ever meets tomorrow's zeroed documents.) One measure per schema:
 * value = documents whose counts changed.
 */
async function preallocRepeat(ctx, p, targets) {
  const dayMs = gen.START;
  const out = [];
  for (const t of targets.filter((x) => x.kind === 'counter' && x.preallocates)) {
    const coll = ctx.db.collection(t.coll);
    let existing = 0;
    let withCounts = 0;
    let changed = 0;
    for (let k = 0; k < p.METRICS; k++) {
      const metric = gen.metricName(k);
      const u = C.preallocUpdate(t.layout, dayMs, metric);
      if (await coll.countDocuments(u.filter, { limit: 1 })) existing++;
      const before = await t.readDay(ctx.db, dayMs, metric);
      if (before.some((n) => n > 0)) withCounts++;
      await coll.updateOne(u.filter, u.update, { upsert: true, writeConcern: { w: 1 } });
      const now = await t.readDay(ctx.db, dayMs, metric);
      if (now.some((n, i) => n !== before[i])) changed++;
    }
    out.push(
      lab.measureRecord({
        study: 'counters',
        name: 'prealloc-repeat',
        variant: `node-${t.name}`,
        axis: { part: 'prealloc-repeat' },
        value: changed,
        unit: 'documents',
        what: 'documents whose counts changed when preallocate was called again on the first day (with its counts)',
        extra: { calls: p.METRICS, existing, withCounts, changed },
      }),
    );
  }
  return out;
}

async function after(ctx, p, records) {
  const st = state.get(ctx);
  const out = [];
  if (st && st.writers) await st.writers.close();
  if (st && st.targets.size) out.push(...(await storageAndReads(ctx, p, [...st.targets.values()])));
  if (st && st.targets.size) out.push(...(await preallocRepeat(ctx, p, [...st.targets.values()])));
  if (p.SCAN) out.push(...(await scan(ctx, p)));
  if (p.IDREGEX) out.push(...(await idRegex(ctx, p)));
  if (p.WASH) out.push(...(await wash(ctx, p)));
  if (p.PG_SIZE) out.push(...(await pgSize(ctx, p)));
  if (p.SWEEP) {
    const configs = [];
    for (const writers of [1, 4, 16]) for (const wc of ['w1', 'w0']) configs.push({ writers, wc });
    out.push(
      ...(await writersSweep(ctx, p, {
        uri: ctx.server.uri,
        dbName: ctx.dbName,
        db: ctx.db,
        configs,
        label: 'writers',
      })),
    );
  }
  if (p.REPLSET) out.push(...(await replsetSweep(ctx, p)));
  // (the day table is printed by the script's report, which the runner calls before this; the
  // verdicts by the runner's claims ledger, lib/core/claims.js, at the end of the run)
  ctx.echo(afterLines(out).join('\n'));
  return out;
}

function afterLines(out) {
  return [...scanLines(out), ...storageLines(out), ...sweepLines(out)];
}

function scanLines(out) {
  const lines = [];
  const scanRecs = out.filter((r) => r.type === 'result' && r.axis.part === 'scan' && r.variant === 'minute-1439');
  if (scanRecs.length) {
    lines.push(
      '',
      'minute 0 vs minute 1439 (per update: client us, server us from the collection latencyStats; ratio = median of per-round ratios)',
    );
    lines.push(
      ...lab.tableLines(
        ['layout', 'mode', 'first', 'last', 'srvFirst', 'srvLast', 'ratio'].map((k, i) => ({
          key: k,
          title: ['layout', 'mode', 'minute 0 us', 'minute 1439 us', 'server us (0)', 'server us (1439)', '1439 / 0'][
            i
          ],
          right: i > 1,
        })),
        scanRecs.map((r) => {
          const first = out.find(
            (x) =>
              x.variant === 'minute-0' &&
              x.axis.part === 'scan' &&
              x.axis.layout === r.axis.layout &&
              x.axis.mode === r.axis.mode,
          );
          return {
            layout: r.axis.layout,
            mode: r.axis.mode,
            first: first.extra.usPerUpdate.toFixed(1),
            last: r.extra.usPerUpdate.toFixed(1),
            srvFirst: first.extra.serverUsPerUpdate.toFixed(1),
            srvLast: r.extra.serverUsPerUpdate.toFixed(1),
            ratio: `${r.ratio.median.toFixed(2)}x`,
          };
        }),
        100,
      ),
    );
  }
  return lines;
}

function storageLines(out) {
  const lines = [];
  const sizes = out.filter((r) => r.type === 'measure' && r.name === 'bytes-per-metric-day');
  const reads = out.filter((r) => r.type === 'result' && r.axis.part === 'read-day');
  if (sizes.length) {
    lines.push('', 'storage and reading one metric-day back');
    lines.push(
      ...lab.tableLines(
        [
          { key: 'v', title: 'variant' },
          { key: 'b', title: 'bytes / metric-day', right: true },
          { key: 'd', title: 'documents', right: true },
          { key: 'r', title: 'read 1,440 minutes', right: true },
          { key: 'x', title: 'vs node-preallocated', right: true },
          { key: 'a', title: 'agrees' },
        ],
        sizes.map((s) => {
          const rd = reads.find((r) => r.variant === s.variant);
          const docs = out.find((r) => r.name === 'documents' && r.variant === s.variant);
          return {
            v: s.variant,
            b: lab.fmtInt(s.value),
            d: docs ? lab.fmtInt(docs.value) : '',
            r: rd ? lab.fmtMs(rd.median) : '',
            x: rd && rd.ratio ? lab.speedWords(rd.ratio).text : '',
            a: rd ? (rd.agrees ? 'yes' : 'NO') : '',
          };
        }),
        100,
      ),
    );
  }
  return lines;
}

function sweepLines(out) {
  const lines = [];
  const sweep = out.filter((r) => r.type === 'measure' && r.name === 'writes-per-s');
  if (sweep.length) {
    lines.push('', 'writers and write concerns (thinned day: one minute in 60; median writes/s)');
    const keys = [...new Set(sweep.map((r) => `${r.axis.part} W=${r.axis.writers} ${r.axis.wc}`))];
    const vars = [...new Set(sweep.map((r) => r.variant))];
    lines.push(
      ...lab.tableLines(
        [{ key: 'k', title: 'setting' }, ...vars.map((v) => ({ key: v, title: v, right: true }))],
        keys.map((k) =>
          Object.assign(
            { k },
            ...vars.map((v) => {
              const r = sweep.find((x) => x.variant === v && `${x.axis.part} W=${x.axis.writers} ${x.axis.wc}` === k);
              return { [v]: r ? lab.fmtInt(r.value) : '' };
            }),
          ),
        ),
        100,
      ),
    );
  }
  return lines;
}

// ---- charts ----------------------------------------------------------------------------------
function subtitle(env, doc) {
  const p = (doc && doc.params && doc.params.counters) || {};
  return (
    `${p.METRICS} metrics, ${p.PER_MINUTE} hits/min, ${p.WRITERS} writer(s) ${p.WC} | MongoDB ${env.server.version} | ` +
    `${env.startedAt.slice(0, 10)} | ${env.host.cores} x ${env.host.cpuModel}`
  );
}

// No interval whiskers (#36 item 6): every dot is one simulated minute's own rate, the spread itself.
function scatterChart(records, env, doc) {
  const recs = dayResults(records);
  if (!recs.length) return null;
  const names = [...new Set(recs.map((r) => r.variant))];
  const p = (doc && doc.params && doc.params.counters) || { RUNS: 60, WARMUP: 0 };
  // times[i] of an hour is its (WARMUP + i)-th simulated minute
  const values = recs.flatMap((r) =>
    r.times.map((_, i) => ({
      schema: r.variant,
      wps: Math.round(wpsOf(r, i)),
      hour: r.axis.day * 24 + r.axis.hour + minuteOfHour(p, p.WARMUP + i) / 60,
    })),
  );
  const span = Math.max(...values.map((v) => v.wps)) / Math.max(1, Math.min(...values.map((v) => v.wps)));
  return {
    name: 'day',
    title: {
      text: 'Writes per second through the simulated day, per schema (each dot one simulated minute)',
      subtitle: subtitle(env, doc),
    },
    data: { values },
    mark: { type: 'point', filled: true, size: 9, opacity: 0.6 },
    encoding: {
      x: {
        field: 'hour',
        type: 'quantitative',
        title: 'simulated time of day (hours)',
        scale: { domain: [0, 24 * Math.max(1, ...recs.map((r) => r.axis.day + 1))] },
      },
      y: {
        field: 'wps',
        type: 'quantitative',
        title: `writes/s${span > 30 ? ' (log)' : ''}`,
        scale: span > 30 ? { type: 'log' } : { zero: false },
      },
      color: { field: 'schema', type: 'nominal', sort: names, scale: { range: PALETTE }, legend: null },
      row: {
        field: 'schema',
        type: 'nominal',
        sort: names,
        title: null,
        header: { labelAngle: 0, labelAlign: 'left' },
      },
    },
    width: 640,
    height: 90,
    resolve: { scale: { y: 'shared' } },
  };
}

function ratioChart(records, env, doc) {
  const recs = dayResults(records);
  if (!recs.length) return null;
  const names = [...new Set(recs.map((r) => r.variant))];
  const values = recs
    .filter((r) => r.ratio)
    .map((r) => ({
      schema: r.variant,
      hour: r.axis.day * 24 + r.axis.hour + 0.5,
      // the interval's own centre (the one estimator compare uses), and its 95 % interval inverted
      ratio: 1 / (typeof r.ratio.mid === 'number' ? r.ratio.mid : r.ratio.median),
      ...(r.ratio.ci ? { lo: 1 / r.ratio.ci[1], hi: 1 / r.ratio.ci[0] } : {}),
      kind: /timeseries|minute-docs|bulk/.test(r.variant) ? "today's alternative" : "source's schema",
    }));
  const ends = values.flatMap((v) => [v.ratio, v.lo, v.hi]).filter((x) => typeof x === 'number');
  const span = Math.max(...ends) / Math.min(...ends);
  const y = {
    field: 'ratio',
    type: 'quantitative',
    title: `writes/s ratio to ${recs[0].ratio.to}${span > 30 ? ' (log)' : ''}`,
    scale: span > 30 ? { type: 'log' } : { zero: false },
  };
  const color = { field: 'schema', type: 'nominal', sort: names, scale: { range: PALETTE }, title: 'schema' };
  return {
    name: 'ratios',
    title: {
      text: `Writes/s ratio to ${recs[0].ratio.to} per simulated hour (per-minute ratios, 95% interval)`,
      subtitle: subtitle(env, doc),
    },
    data: { values },
    layer: [
      { mark: { type: 'line', strokeWidth: 2 }, encoding: ratioLineEncoding(y, color) },
      {
        transform: [{ filter: 'isValid(datum.lo)' }],
        mark: { type: 'rule', opacity: 0.7 },
        encoding: {
          x: { field: 'hour', type: 'quantitative' },
          y: { field: 'lo', type: 'quantitative', scale: y.scale, title: y.title },
          y2: { field: 'hi' },
          color,
        },
      },
    ],
    width: 640,
    height: 360,
  };
}

// The ratio chart's lines: one per schema, dashed for today's alternatives.
function ratioLineEncoding(y, color) {
  return {
    x: { field: 'hour', type: 'quantitative', title: 'simulated time of day (hours)' },
    y,
    color,
    strokeDash: {
      field: 'kind',
      type: 'nominal',
      title: 'line',
      scale: {
        domain: ["source's schema", "today's alternative"],
        range: [
          [1, 0],
          [6, 3],
        ],
      },
    },
  };
}

// Each scan record twice: as the client measured it and as the server's latencyStats did.
function scanValues(recs) {
  return recs
    .map((r) => ({
      layout: r.axis.layout,
      mode: r.axis.mode,
      at: r.variant === 'minute-0' ? 'minute 0 (00:00)' : 'minute 1439 (23:59)',
      us: r.extra.usPerUpdate,
      ...scaledInterval(chartTime(r), r.extra.usPerUpdate / r.median),
      side: 'client',
    }))
    .concat(
      recs.map((r) => ({
        layout: r.axis.layout,
        mode: r.axis.mode,
        at: r.variant === 'minute-0' ? 'minute 0 (00:00)' : 'minute 1439 (23:59)',
        us: r.extra.serverUsPerUpdate,
        ...serverInterval(r.extra.serverUsSamples),
        side: 'server (latencyStats)',
      })),
    );
}

// A run's 95 % interval (report.js chartTime, ms) in the chart's unit: us per update.
function scaledInterval(t, k) {
  return t.lo === undefined ? {} : { lo: t.lo * k, hi: t.hi * k };
}

// The server's per-round us per update: the same t-interval on log values, from 3 rounds.
function serverInterval(samples) {
  const iv = samples && samples.length >= 3 && samples.every((x) => x > 0) ? lab.ratioInterval(samples) : null;
  return iv && iv.lo !== null ? { lo: iv.lo, hi: iv.hi } : {};
}

function scanChart(records, env, doc) {
  const recs = records.filter((r) => r.type === 'result' && r.axis && r.axis.part === 'scan' && r.extra);
  if (!recs.length) return null;
  // the four figures of a layout side by side, so that their whiskers do not hide each other
  const values = scanValues(recs).map((v) => ({ ...v, slot: `${v.at} ${v.side}` }));
  const ends = values.flatMap((v) => [v.us, v.lo, v.hi]).filter((x) => typeof x === 'number' && x > 0);
  const x = { field: 'layout', type: 'nominal', title: null, sort: ['flat', 'hierarchical', 'array'] };
  const xOffset = { field: 'slot', type: 'nominal' };
  const y = {
    field: 'us',
    type: 'quantitative',
    title: 'microseconds per update (log)',
    scale: { type: 'log', domain: [0.8 * Math.min(...ends), 1.25 * Math.max(...ends)], nice: false },
  };
  const color = { field: 'at', type: 'nominal', title: 'field updated', scale: { range: ['#332288', '#CC6677'] } };
  return {
    name: 'scan',
    title: {
      text: 'Cost of one $inc: first vs last minute of the day, per layout and way of sending (log scale)',
      subtitle: [
        `1,000 updates per bulk, 200 single round trips, updateMany over 200 documents; median of ${recs[0].runs} interleaved rounds`,
        `whiskers: 95% interval (t on log times, 3+ rounds) | MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} x ${env.host.cpuModel}`,
      ],
    },
    data: { values },
    facet: { column: { field: 'mode', type: 'nominal', title: null, sort: ['bulk', 'updateMany', 'single'] } },
    spec: {
      width: 180,
      height: 300,
      layer: [
        {
          transform: [{ filter: 'isValid(datum.lo)' }],
          mark: { type: 'rule' },
          encoding: {
            x,
            xOffset,
            y: { field: 'lo', type: 'quantitative', scale: y.scale, title: y.title },
            y2: { field: 'hi' },
            color,
          },
        },
        {
          mark: { type: 'point', filled: true, size: 70 },
          encoding: { x: { ...x, axis: { labelAngle: 0 } }, xOffset, y, color, shape: scanShape() },
        },
      ],
    },
  };
}

// Who measured a point: the client (circle) or the server's latencyStats (triangle).
function scanShape() {
  return {
    field: 'side',
    type: 'nominal',
    title: 'measured by',
    scale: { range: ['circle', 'triangle-up'] },
    legend: { labelLimit: 300 },
  };
}

module.exports = defineStudy({
  name: 'counters',
  script: 'counters_day.js',
  profiles: {
    tiny: {
      METRICS: 5,
      PER_MINUTE: 10,
      RUNS: 2,
      WARMUP: 0,
      WRITERS: 3,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      // Two of the 9 layout-mode pairs, 3 rounds: test/counters.test.js "minute 0 versus minute
      // 1439" times the layouts in bulk and single on the shared server. These two keep in a tiny
      // run the mode that test leaves out (updateMany) and the table's widest layout and mode names.
      SCAN_PAIRS: 'flat-bulk,hierarchical-updateMany',
      SCAN_ROUNDS: 3,
      SWEEP: false,
      REPLSET: false,
      // The after step's three remarks are off: they print no line of their own (a tiny run shows
      // only their verdict cells, saying they did not run), and test/counters.test.js "the Node part
      // through the runner" runs all three at about this scale and checks their records: one collection
      // vs one per metric (24 rounds), the _id prefix regex (plan and answers), the bytes per
      // metric-day against PostgreSQL. test/safety-scratch.test.js sets them on for the names they write.
      IDREGEX: false,
      WASH: false,
      PG_SIZE: false,
      SIZE_DAYS: 60, // what --set PG_SIZE=true sizes at this profile (the script's default is 2,000)
    }, // for the test suite
    // Quick: 20 metrics, 4 minutes per hour, 4 writers (~1-2 min). Seed scale: every minute of the
    // day, 100 metrics, 16 writers, plus the writers/write-concern sweep and the replica set.
    quick: {
      METRICS: 10,
      PER_MINUTE: 20,
      RUNS: 3,
      WARMUP: 0,
      WRITERS: 4,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      // the pairs the claims read (004-field-scan-hierarchy, 004-array-no-faster); seed times all 9
      SCAN_PAIRS: 'flat-bulk,hierarchical-bulk,array-bulk,flat-single',
      SWEEP: false,
      REPLSET: false,
      SIZE_DAYS: 500,
      WASH_PER_HOUR: 2,
    },
    seed: {
      METRICS: 100,
      PER_MINUTE: 100,
      RUNS: 60,
      WARMUP: 0,
      WRITERS: 16,
      VARIANTS: NODE_VARIANTS,
      SCAN: true,
      SWEEP: true,
      REPLSET: true,
      WASH_PER_HOUR: 4,
      // the source's writer: unacknowledged upserts (the day's read-back still checks every counter)
      WC: 'w0',
    },
  },
  // Collections it writes besides its data, checked before any work (lib/core/run-study.js).
  derived: derivedNames,
  cli: { docs: 'METRICS', runs: 'RUNS', seed: 'SEED' },
  peers: ['postgres'],
  expected: '~45 s',
  // The study's minutes in the documented seed run (docs/testing.md, 2026-11-27).
  seedExpected: '~8.5 min (measured 2026-11-27 on a 2.5 GHz Xeon: the day at w:0, sweep, replica set)',

  /** The Node variants' collections (the lab's own, re-created) and their writers' connections. */
  async load(ctx, p) {
    if (!['w1', 'w0', 'majority'].includes(p.WC))
      throw new Error(`parameter WC: expected w1, w0 or majority, got ${JSON.stringify(p.WC)}`);
    if (p.RUNS + p.WARMUP < 1 || p.RUNS + p.WARMUP > 60)
      throw new Error(
        `parameter RUNS: RUNS + WARMUP are the simulated minutes per hour: 1..60, got ${p.RUNS + p.WARMUP}`,
      );
    const names = chosenNode(p);
    const prefix = `${p.PREFIX}node_`;
    const targets = new Map(names.map((n) => [n, target(n, prefix)]));
    await ownCollections(ctx.db, [...targets.values()]);
    for (const t of targets.values()) if (t.preallocates) await t.preallocateDay(ctx.db, gen.START, p.METRICS);
    const writers = names.length ? await day.openWriters(ctx.server.uri, ctx.dbName, p.WRITERS) : null;
    // closed after the day; the runner's clean-ups close them too when a run stops half-way
    if (writers && ctx.cleanups) ctx.cleanups.push(() => writers.close());
    state.set(ctx, { targets, writers, cursor: new Map() });
    return { own: true, name: 'counters-004', coll: `${prefix}*`, count: 0 };
  },

  /** The hits of the hour's simulated minutes, counted in plain JavaScript. */
  oracle(p, point) {
    const out = { hits: 0, minutes: new Array(60).fill(0) };
    const dayMs = gen.START + point.day * gen.DAY_MS;
    for (let k = 0; k < p.RUNS + p.WARMUP; k++) {
      for (const hit of gen.minuteHits(streamOf(p), point.day, point.hour * 60 + minuteOfHour(p, k))) {
        out.minutes[Math.floor((hit.t - dayMs) / 60000) - point.hour * 60]++;
        out.hits++;
      }
    }
    return out;
  },

  variants: NODE_SCHEMAS.map(nodeVariant),
  headline: (points) => points.find((x) => x.day === 0 && x.hour === 23) || points[points.length - 1],
  after,
  claims: require('./claims'),
  practices: require('./practices'),
  tables: [
    {
      title: 'writes/s per simulated hour (median of its minutes)',
      rows: 'hour',
      cols: 'variant',
      filter: (r) => r.axis && r.axis.hour !== undefined && !r.skipped,
      value: (r) => lab.fmtInt(Math.round(lab.median(r.times.map((_, i) => wpsOf(r, i))))),
    },
  ],
  charts: [scatterChart, ratioChart, scanChart],
  // used by its tests, its write-up and its other modules; never read by the core
  helpers: { minuteOfHour, slotsOf, wpsOver, ratioOver, scanRatio, scan, writersSweep, replsetSweep, NODE_SCHEMAS },
});
