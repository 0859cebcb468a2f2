#!/usr/bin/env node
'use strict';
// Does `compare` call a change between identical runs on a busy machine? Runs a study (by default
// `where` at its default, quick, settings) N times (10) on the same build beside two CPU-bound
// processes (test/burners.js), each run on its own embedded mongod, then compares every pair
// (N(N-1)/2: 45) with compare's own decision (lib/core/compare.js, as `compare OLD NEW` takes it:
// since 2026-11-28 the Welch t interval of the change from 3 rounds a side, before it a Mann-Whitney
// test from 4; the summary names the rule) and counts the rows called SLOWER or FASTER: every one is a false call. It also counts, for each
// pair, the rows found when one variant of the newer run is 30 % slower in a copy (the power beside
// burners; a quiet machine's files are tested in test/unit/compare-reference.test.js).
//
//   node bench/compare-false-calls.js                          # the documented benchmark: where, 10 runs
//   node bench/compare-false-calls.js where --n 2 --profile tiny   # a smoke check of the script itself
//   node bench/compare-false-calls.js where joins --burners 0      # other studies, a quiet machine
//
// Writes DIR/run-1..run-N (each a run folder with results.json) and docs/data/compare-false-calls-
// <date>.json (--json FILE elsewhere) with the command, the machine and every call. Not part of
// `npm test`: it takes minutes and must run alone (one benchmark at a time). Exit 1 on a false call.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { parseArgs } = require('util');
const { startBurners } = require('../test/burners');
const { compareResults, MIN_ROUNDS } = require('../lib/core/compare');

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
const SLOWDOWN = 1.3;
const RULE = 'ratio of geometric-mean per-round ratios, 95 % Welch t interval on their logs beyond the threshold';

function runStudy(args, log) {
  return new Promise((resolve, reject) => {
    // each run on its own embedded mongod unless --uri names a server ($MONGODB_URI would pick one)
    const env = { ...process.env };
    delete env.MONGODB_URI;
    const child = spawn(process.execPath, [CLI, 'run', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`run ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop()}`)),
    );
    child.on('error', reject);
    log(`  pid ${child.pid}`);
  });
}

const called = (r) => r.verdict === 'slower' || r.verdict === 'faster';
const rowText = (r) =>
  `${r.study} ${r.variant} ${JSON.stringify(r.axis)} ${r.verdict} ${r.measure}${r.reference ? ` to ${r.reference}` : ''}` +
  `${r.ci ? ` ${r.ci.map((x) => x.toFixed(3)).join('..')}` : ''}`;

/** The rows of every pair (i < j) of runs: false calls, and how the rows were decided. */
function pairCalls(docs) {
  const pairs = [];
  const verdicts = {};
  for (let i = 0; i < docs.length; i++)
    for (let j = i + 1; j < docs.length; j++) {
      const res = compareResults(docs[i], docs[j], { names: [`run-${i + 1}`, `run-${j + 1}`] });
      for (const r of res.rows) verdicts[r.verdict] = (verdicts[r.verdict] || 0) + 1;
      pairs.push({ old: i + 1, new: j + 1, rows: res.rows.length, calls: res.rows.filter(called).map(rowText) });
    }
  return { pairs, verdicts };
}

/** For each pair and each timed record of the newer run: that record 30 % slower in a copy, found? */
function detection(docs) {
  let tried = 0;
  let found = 0;
  let others = 0;
  const byVariant = {};
  for (let i = 0; i < docs.length; i++)
    for (let j = i + 1; j < docs.length; j++) {
      docs[j].results.forEach((rec, k) => {
        if (!rec || rec.type !== 'result' || rec.skipped || !Array.isArray(rec.times)) return;
        const copy = {
          ...docs[j],
          results: docs[j].results.map((r, n) => (n === k ? { ...r, times: r.times.map((t) => t * SLOWDOWN) } : r)),
        };
        const res = compareResults(docs[i], copy);
        const row = res.rows.find(
          (r) =>
            r.study === rec.study &&
            r.variant === rec.variant &&
            JSON.stringify(r.axis) === JSON.stringify(rec.axis || {}),
        );
        const v = byVariant[`${rec.study} ${rec.variant}`] || (byVariant[`${rec.study} ${rec.variant}`] = [0, 0]);
        tried++;
        v[1]++;
        if (row && row.verdict === 'slower') {
          found++;
          v[0]++;
        }
        others += res.rows.filter((r) => r !== row && called(r)).length;
      });
    }
  return {
    slowdown: SLOWDOWN,
    tried,
    found,
    otherRowsCalled: others,
    byVariant: Object.fromEntries(Object.entries(byVariant).map(([k, [f, t]]) => [k, `${f} of ${t}`])),
  };
}

const loads = () => os.loadavg().map((x) => +x.toFixed(2));

const USAGE = `node bench/compare-false-calls.js [STUDY...] [options]
Runs STUDY (default where) N times beside CPU-bound processes, compares every pair of runs and
counts the rows called (each a false call); exit 1 when there is one.
  --n N           runs (default 10: 45 pairs)
  --profile NAME  tiny, quick (default: the studies' default settings) or seed
  --burners N     CPU-bound processes beside the runs (default 2)
  --out DIR       keep the runs in DIR (default results/compare-false-calls-<time>)
  --json FILE     the summary (default docs/data/compare-false-calls-<date>.json)
  --uri URI       your server (default: an embedded mongod per run)
`;

function options(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      n: { type: 'string', default: '10' },
      profile: { type: 'string', default: 'quick' },
      burners: { type: 'string', default: '2' },
      out: { type: 'string' },
      json: { type: 'string' },
      uri: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const n = Number(values.n);
  const burners = Number(values.burners);
  if (!Number.isInteger(n) || n < 2) throw new Error(`--n: expected a whole number of runs >= 2, got ${values.n}`);
  if (!Number.isInteger(burners) || burners < 0) throw new Error(`--burners: expected a count, got ${values.burners}`);
  const stamp = new Date().toISOString();
  return {
    help: values.help,
    n,
    burners,
    stamp,
    studies: positionals.length ? positionals : ['where'],
    profile: values.profile,
    uri: values.uri,
    out: path.resolve(
      values.out || path.join(ROOT, 'results', `compare-false-calls-${stamp.replace(/[-:]/g, '').slice(0, 15)}`),
    ),
    json: path.resolve(
      values.json || path.join(ROOT, 'docs', 'data', `compare-false-calls-${stamp.slice(0, 10)}.json`),
    ),
  };
}

/** The N runs, one after the other, all beside the same burners (started once, stopped at the end). */
async function runAll(o, log) {
  const common = [
    ...o.studies,
    '--profile',
    o.profile,
    '--quiet',
    '--no-progress',
    '--no-charts',
    ...(o.uri ? ['--uri', o.uri] : []),
  ];
  const burners = o.burners ? startBurners(o.burners) : null;
  const runs = [];
  try {
    for (let i = 1; i <= o.n; i++) {
      const dir = path.join(o.out, `run-${i}`);
      const r0 = Date.now();
      log(`run ${i}/${o.n}: run ${common.join(' ')}${burners ? ` beside burners ${burners.pids.join(', ')}` : ''}`);
      await runStudy([...common, '--out', dir], log);
      runs.push({ dir: path.relative(ROOT, dir), seconds: Math.round((Date.now() - r0) / 1000), loadavg: loads() });
    }
  } finally {
    if (burners) burners.stop();
  }
  return runs;
}

function machine(loadStart, docs) {
  return {
    cores: os.cpus().length,
    cpu: (os.cpus()[0] || {}).model,
    memoryGB: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    loadavgAtStart: loadStart,
    loadavgAtEnd: loads(),
    server: docs[0].environment && docs[0].environment.server,
  };
}

async function main(argv) {
  const o = options(argv);
  if (o.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  fs.mkdirSync(o.out, { recursive: true });
  const log = (t) => process.stderr.write(`${t}\n`);
  const t0 = Date.now();
  const loadStart = loads();
  const runs = await runAll(o, log);
  const docs = runs.map((r) => JSON.parse(fs.readFileSync(path.join(ROOT, r.dir, 'results.json'), 'utf8')));
  const { pairs, verdicts } = pairCalls(docs);
  const falseCalls = pairs.reduce((s, p) => s + p.calls.length, 0);
  const summary = {
    command: `node bench/compare-false-calls.js ${argv.filter((a) => !a.startsWith('mongodb')).join(' ')}`.trim(),
    date: o.stamp,
    machine: machine(loadStart, docs),
    studies: o.studies,
    profile: o.profile,
    burners: o.burners,
    minutes: +((Date.now() - t0) / 60000).toFixed(1),
    runs,
    // which rule decided (the figures of the Mann-Whitney rule, before 2026-11-28, are not comparable)
    rule: `${RULE}, at least ${MIN_ROUNDS} rounds a side`,
    pairs: pairs.length,
    rowsCompared: pairs.reduce((s, p) => s + p.rows, 0),
    falseCalls,
    verdicts,
    calls: pairs.filter((p) => p.calls.length),
    detection: detection(docs),
  };
  fs.mkdirSync(path.dirname(o.json), { recursive: true });
  fs.writeFileSync(o.json, JSON.stringify(summary, null, 2) + '\n');
  const d = summary.detection;
  process.stdout.write(
    `${summary.pairs} pairs, ${summary.rowsCompared} rows: ${falseCalls} false calls; ` +
      `a ${Math.round((SLOWDOWN - 1) * 100)}% slowdown found in ${d.found} of ${d.tried} copies ` +
      `(${d.otherRowsCalled} other rows called); ${summary.minutes} min; ${path.relative(process.cwd(), o.json)}\n`,
  );
  return falseCalls ? 1 : 0;
}

if (require.main === module) require('./run-main').runMain('bench/compare-false-calls', main);

module.exports = { pairCalls, detection };
