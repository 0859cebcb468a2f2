'use strict';
// A mocha reporter: the spec reporter's output, plus where the run's time went, per test file.
// mocha's own JSON reporter times tests only; here every hook counts too (the `before` hooks are
// where the data loads and the end-to-end runs are), so the per-file sums add up to the run.
// `LAB_FILE_TIMES=out.json npm test` selects it (.mocharc.js); the file is rewritten after every
// test or hook, so a run stopped part-way (Ctrl-C) still leaves the figures it had.
//
// In parallel mode (mocha --parallel, `npm test` of the whole suite) a file's events reach the
// reporter only once the file is done, all at once: their times say nothing. Each worker then
// times its own files (workerHooks below: root hooks that test/global-setup.js hands to mocha in
// every worker) and appends one line per file to a spool file the reporter reads at the end:
// wall seconds from the file's first hook to its last, and the CPU of the worker and of the
// processes it ran and waited for. The shared mongod's CPU cannot be split between two files
// running at once: it is a row of its own. The JSON file is written at the end only.
const fs = require('fs');
const os = require('os');
const path = require('path');
const Mocha = require('mocha/lib/mocha.cjs');

const { Spec } = Mocha.reporters;
const C = Mocha.Runner.constants;
const ROOT = path.resolve(__dirname, '..');
const SETUP = '(global setup: mongod, PostgreSQL)';
const ROOT_HOOKS = '(root-level hooks)';
const SHARED_MONGOD = '(the shared mongod, all files; parallel mode)';
const SPOOL = 'LAB_FILE_TIMES_SPOOL';

// CPU seconds, where /proc has them: this process and the children it has waited for (the CLIs and
// mongosh processes the tests ran), and the run's shared mongod (LAB_TEST_MONGOD_PID). On a machine
// shared with other work the wall time says more about the neighbours than about the tests; the
// CPU a test used does not depend on them (much).
const TICK = 100; // USER_HZ on Linux
function procCpu(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // after the name: state is field 3, utime 14, stime 15, cutime 16, cstime 17 (1-based, man 5 proc)
    return { self: (Number(f[11]) + Number(f[12])) / TICK, children: (Number(f[13]) + Number(f[14])) / TICK };
  } catch (e) {
    return null;
  }
}
function cpuNow() {
  const me = procCpu('self');
  if (!me) return 0;
  return me.self + me.children + mongodCpu();
}
function mongodCpu() {
  const mongod = process.env.LAB_TEST_MONGOD_PID ? procCpu(process.env.LAB_TEST_MONGOD_PID) : null;
  return mongod ? mongod.self : 0;
}
const ownCpu = () => {
  const me = procCpu('self');
  return me ? me.self + me.children : 0;
};

/** Root hooks for a parallel worker: one spool line per file, { file, start, ms, cpu }. */
function workerHooks() {
  if (process.env.MOCHA_WORKER_ID === undefined || !process.env[SPOOL]) return null;
  return {
    beforeAll() {
      const root = this.test.parent;
      const t0 = Date.now();
      const cpu0 = ownCpu();
      // added now, so last: after the file's own root-level `after` hooks
      root.afterAll(function () {
        const first = [...root.suites, ...root.tests].find((x) => x.file);
        const file = first ? path.relative(ROOT, first.file) : ROOT_HOOKS;
        const line = { file, start: t0, ms: Date.now() - t0, cpu: ownCpu() - cpu0 };
        fs.appendFileSync(process.env[SPOOL], JSON.stringify(line) + '\n');
      });
    },
  };
}

const fileOf = (runnable) => (runnable.file ? path.relative(ROOT, runnable.file) : ROOT_HOOKS);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** The figures as rows, slowest first: [{ file, seconds, tests, hooksSeconds }]. */
function rows(files) {
  return [...files.entries()]
    .map(([file, f]) => ({
      file,
      seconds: +(f.ms / 1000).toFixed(1),
      cpuSeconds: +f.cpu.toFixed(1),
      tests: f.tests,
      hooksSeconds: +(f.hookMs / 1000).toFixed(1),
      // parallel mode: when the file started, seconds after the run's setup (which files overlapped)
      ...(f.start === undefined ? {} : { startSeconds: +(f.start / 1000).toFixed(1) }),
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** A Markdown table of the top n rows. */
function table(list, n) {
  const lines = ['| file | seconds | of which hooks (s) | CPU seconds | tests |', '|---|---:|---:|---:|---:|'];
  for (const r of list.slice(0, n))
    lines.push(`| \`${r.file}\` | ${r.seconds} | ${r.hooksSeconds} | ${r.cpuSeconds} | ${r.tests} |`);
  return lines.join('\n');
}

/** Parallel mode: per-file figures from the workers' spool, test counts from the events. */
function parallelTimes(runner, { meta, started, out }) {
  const spool = path.join(os.tmpdir(), `lab-file-times-${process.pid}.jsonl`);
  fs.writeFileSync(spool, '');
  process.env[SPOOL] = spool; // read by the workers, forked after this
  const tests = new Map();
  const load1 = { min: Infinity, max: 0 };
  const cpu0 = ownCpu();
  let runBegin = null;
  let mongod0 = 0;
  let setupCpu = 0;
  runner.on(C.EVENT_RUN_BEGIN, () => {
    runBegin = Date.now();
    mongod0 = mongodCpu(); // started by the global setup, after this reporter
    setupCpu = ownCpu() - cpu0 + mongod0;
  });
  runner.on(C.EVENT_TEST_END, (t) => {
    const f = fileOf(t);
    const x = tests.get(f) || tests.set(f, { n: 0, ms: 0 }).get(f);
    x.n += 1;
    x.ms += t.duration || 0;
    const l = os.loadavg()[0];
    load1.min = Math.min(load1.min, l);
    load1.max = Math.max(load1.max, l);
  });
  const figures = () => {
    const files = new Map();
    files.set(SETUP, { ms: runBegin - started, hookMs: runBegin - started, tests: 0, cpu: setupCpu });
    for (const line of fs.readFileSync(spool, 'utf8').split('\n').filter(Boolean)) {
      const { file, start, ms, cpu } = JSON.parse(line);
      const t = tests.get(file) || { n: 0, ms: 0 };
      files.set(file, { ms, cpu, tests: t.n, hookMs: Math.max(0, ms - t.ms), start: start - runBegin });
    }
    files.set(SHARED_MONGOD, { ms: 0, hookMs: 0, tests: 0, cpu: mongodCpu() - mongod0 });
    return { list: rows(files), total: ((Date.now() - runBegin) / 1000).toFixed(1) };
  };
  // rewritten as each file's events arrive, so that a run stopped part-way keeps its figures
  const write = (done) => {
    if (!out || out === '1') return;
    const { list, total } = figures();
    const doc = { ...meta, parallel: true, wallSeconds: +total, loadNow: load(), load1, complete: done, files: list };
    fs.writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
  };
  // (a file's events arrive together when it ends: the first of its tests finds its spool line)
  runner.on(C.EVENT_TEST_END, () => write(false));
  runner.once(C.EVENT_RUN_END, () => {
    write(true);
    const { list, total } = figures();
    fs.rmSync(spool, { force: true });
    const cpu = list.reduce((a, r) => a + r.cpuSeconds, 0).toFixed(0);
    process.stdout.write(
      `\n  Time per test file (hooks included), ${total} s after setup, files ${meta.jobs} at a time (the seconds of ` +
        `files that ran together overlap) (${cpu} CPU seconds), 1-min load average ` +
        `${load1.min.toFixed(1)}-${load1.max.toFixed(1)} on ${meta.cores} cores:\n\n`,
    );
    process.stdout.write(table(list, 60).replace(/^/gm, '  ') + '\n');
  });
}

class FileTimes extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.LAB_FILE_TIMES;
    if (options && options.parallel) {
      const started = Date.now();
      parallelTimes(runner, {
        meta: {
          started: new Date(started).toISOString(),
          loadAtStart: load(),
          cores: os.cpus().length,
          jobs: options.jobs,
        },
        started,
        out,
      });
      return;
    }
    const files = new Map();
    const started = Date.now();
    const cpuStart = cpuNow();
    const meta = { started: new Date(started).toISOString(), loadAtStart: load(), cores: os.cpus().length };
    let runBegin = null;
    const open = new Map();
    // The slowest tests and hooks, to see where inside a file its time goes.
    const slowest = [];
    const note = (r, file, ms, kind) => {
      slowest.push({ file, title: r.fullTitle ? r.fullTitle() : r.title, kind, seconds: +(ms / 1000).toFixed(1) });
      slowest.sort((a, b) => b.seconds - a.seconds);
      slowest.length = Math.min(slowest.length, 60);
    };
    const add = (file, ms, kind, cpu = 0) => {
      const f = files.get(file) || files.set(file, { ms: 0, hookMs: 0, tests: 0, cpu: 0 }).get(file);
      f.ms += ms;
      f.cpu += cpu;
      if (kind === 'hook') f.hookMs += ms;
      if (kind === 'test') f.tests += 1;
    };
    // The 1-minute load average over the run, sampled at every test or hook end.
    const load1 = { min: Infinity, max: 0 };
    const sample = () => {
      const l = os.loadavg()[0];
      load1.min = Math.min(load1.min, l);
      load1.max = Math.max(load1.max, l);
    };
    const write = (done) => {
      sample();
      if (!out || out === '1') return;
      const doc = {
        ...meta,
        wallSeconds: +((Date.now() - started) / 1000).toFixed(1),
        loadNow: load(),
        load1,
        complete: done,
        files: rows(files),
        slowest,
      };
      fs.writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
    };
    runner.on(C.EVENT_RUN_BEGIN, () => {
      runBegin = Date.now();
      // mochaGlobalSetup runs between the reporter's construction and the run's start.
      add(SETUP, runBegin - started, 'hook', cpuNow() - cpuStart);
    });
    for (const [begin, end, kind] of [
      [C.EVENT_HOOK_BEGIN, C.EVENT_HOOK_END, 'hook'],
      [C.EVENT_TEST_BEGIN, C.EVENT_TEST_END, 'test'],
    ]) {
      runner.on(begin, (r) => open.set(r, { t: Date.now(), cpu: cpuNow() }));
      runner.on(end, (r) => {
        const t0 = open.get(r);
        open.delete(r);
        // a pending test ends without beginning
        const ms = t0 === undefined ? 0 : Date.now() - t0.t;
        add(fileOf(r), ms, kind, t0 === undefined ? 0 : cpuNow() - t0.cpu);
        note(r, fileOf(r), ms, kind);
        write(false);
      });
    }
    // A retried test begins again without ending: its failed attempt's time counts too.
    runner.on(C.EVENT_TEST_RETRY, (r) => {
      const t0 = open.get(r);
      if (t0 !== undefined) add(fileOf(r), Date.now() - t0.t, 'retry', cpuNow() - t0.cpu);
    });
    runner.once(C.EVENT_RUN_END, () => {
      write(true);
      const list = rows(files);
      const total = ((Date.now() - (runBegin || started)) / 1000).toFixed(1);
      const cpu = (cpuNow() - cpuStart).toFixed(0);
      const range = `${load1.min.toFixed(1)}-${load1.max.toFixed(1)}`;
      process.stdout.write(
        `\n  Time per test file (hooks included), ${total} s after setup (${cpu} CPU seconds), 1-min load average ${range} on ${meta.cores} cores:\n\n`,
      );
      process.stdout.write(table(list, 25).replace(/^/gm, '  ') + '\n');
    });
  }
}

module.exports = FileTimes;
module.exports.table = table;
module.exports.workerHooks = workerHooks;
