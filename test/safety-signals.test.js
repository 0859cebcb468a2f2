'use strict';
// Signals at every moment of every study that starts a peer (issue 38): each study that starts the
// PostgreSQL peer or a replica set, interrupted in each of its phases (the peer's start, the data
// load, the measurement, the replica set's start, the clean-up) with SIGINT, SIGTERM or a double
// Ctrl-C, exits 130 or 143 with no stack trace, and leaves no process of the run (mongod, postgres,
// mongosh, workers), nothing in its temp folder, and not the database it created. Before, a signal
// while the PostgreSQL peer was up died on PostgreSQL's "terminating connection due to administrator
// command": an unhandled pg client error, a 16-line stack trace and exit 1.
//
// Every run is a `run STUDY --profile tiny` on the test server (--uri: no mongod to start, and the
// database the run creates is there to check), with TMPDIR a folder of its own, three at a time.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');
const { expect } = require('chai');
const { testUri, databaseNames } = require('./helpers');
const { processesUsing, cmdlineOf } = require('../lib/infra/processes');
const { ROOT } = require('../lib/core/shell-runner');

const BIN = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const CODES = { SIGINT: 130, SIGTERM: 143 };
const STACK = /\n\s+at .*:\d+:\d+/;

/** pid -> [ppid, start time] of every process now. */
function processTable() {
  const out = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' ');
      if (f[0] !== 'Z') out.set(Number(p), [Number(f[1]), f[19]]);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Adds to seen (pid -> start time) every process below root now. */
function collectTree(root, seen) {
  const table = processTable();
  const kids = new Map();
  for (const [pid, [ppid]] of table) {
    if (!kids.has(ppid)) kids.set(ppid, []);
    kids.get(ppid).push(pid);
  }
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop();
    for (const k of kids.get(pid) || []) {
      if (!seen.has(k)) seen.set(k, table.get(k)[1]);
      todo.push(k);
    }
  }
}

/** The processes of seen still running (same pid, same start time: not a reused pid). */
function stillRunning(seen) {
  const table = processTable();
  return [...seen].filter(([pid, start]) => table.has(pid) && table.get(pid)[1] === start).map(([pid]) => pid);
}

function cmdline(pid) {
  const cmd = cmdlineOf(pid);
  return cmd === null ? '?' : cmd.replace(/\0/g, ' ').trim();
}

/** The run's PostgreSQL folder exists (its initdb is under way or done). */
function pgFolder(tmp) {
  for (const run of fs.readdirSync(tmp)) {
    try {
      if (fs.readdirSync(path.join(tmp, run)).some((e) => e.startsWith('perflab-pg-'))) return true;
    } catch {
      /* a file, or gone */
    }
  }
  return false;
}

// The phases: `when` is a line of the run's log (or, for the peer's start, its folder appearing),
// `after` ms later the signal goes.
const line = (re, after = 0) => ({ when: (run) => re.test(run.err), after });
const PG_START = { when: (run) => pgFolder(run.tmp), after: 150 };
const summary = (study) => line(new RegExp(`^${study}: [\\d.]+ s \\(data`, 'm'));
const STUDIES = {
  coherency: {
    phases: {
      'PostgreSQL start': { ...PG_START, signals: ['SIGINT'] },
      // (its data takes milliseconds: the measurement's start is its load too)
      measurement: line(/^coherency: .*variants x/m, 400),
      'replica-set start': line(/^starting an embedded replica set/m, 300),
      'clean-up': summary('coherency'),
    },
  },
  inserts: {
    // The replica-set points (w 0, 1, majority) on, the others few.
    set: ['WCONCERN=true', 'BATCHES=1000', 'WRITERS=1', 'SIZES=1024', 'BULK_MB=1', 'BULK_TRIES=1'],
    phases: {
      'PostgreSQL start': { ...PG_START, signals: ['SIGTERM'] },
      'fixture/load': line(/^PostgreSQL peer: /m),
      measurement: line(/^inserts: .*\(2\/\d+\)/m, 300),
      'replica-set start': line(/^starting an embedded replica set/m, 200),
      'clean-up': summary('inserts'),
    },
  },
  tasks: {
    phases: {
      'PostgreSQL start': { ...PG_START, signals: ['SIGINT', 'SIGINT'] },
      'fixture/load': line(/^PostgreSQL peer: /m),
      measurement: line(/^tasks: part=claim, W=1 /m, 300),
      'clean-up': summary('tasks'),
    },
  },
  // The PostgreSQL peer starts before the first study, the same way for all: three studies have
  // that phase, one per signal.
  joins: {
    phases: {
      'fixture/load': line(/^PostgreSQL peer: /m, 100),
      measurement: line(/^joins: \d+ variants/m, 500),
      'clean-up': summary('joins'),
    },
  },
  mapreduce: {
    phases: {
      'fixture/load': line(/^wrote \d+ CSV file/m),
      'SQL peer load': line(/^PostgreSQL: \d+ rows into perflab_sensors_jsonb/m),
      measurement: line(/^mapreduce: batch=10 /m, 300),
      'clean-up': summary('mapreduce'),
    },
  },
  counters: {
    set: ['PG_SIZE=true', 'REPLSET=true', 'SCAN=false', 'METRICS=2', 'WRITERS=1'],
    phases: {
      measurement: line(/^counters: day=0, hour=3 /m),
      'SQL peer run (sizes)': line(/^counters: day=0, hour=23 /m, 1500),
      'replica-set start': line(/^counters: starting a 3-member replica set/m, 1500),
    },
  },
  // The studies without a peer: their load, their points and their clean-up (their restarts, cold
  // scans and states, need a server of their own and are skipped on the run's --uri).
  where: {
    phases: {
      'fixture/load': line(/^server: /m, 100),
      measurement: line(/^where: .*variants x/m, 200),
      'clean-up': summary('where'),
    },
  },
  bigagg: {
    phases: {
      'fixture/load': line(/^bigagg: mot_none: /m),
      measurement: line(/^bigagg: part=forms/m, 200),
      'clean-up': summary('bigagg'),
    },
  },
  timeseries: {
    phases: {
      'fixture/load': line(/^server: /m, 100),
      measurement: line(/^timeseries: grain=minutes/m, 200),
      'clean-up': summary('timeseries'),
    },
  },
};
const SIGNALS = [['SIGINT'], ['SIGTERM'], ['SIGINT', 'SIGINT']];

describe('safety: signals in every phase of every study (its SQL peer and replica set included)', function () {
  this.timeout(600000);
  let base;
  before(function () {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-signals-'));
    // The runs' PostgreSQL runs as `postgres` when the tests run as root: it must enter their TMPDIR.
    fs.chmodSync(base, 0o755);
  });
  after(function () {
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  const cases = [];
  for (const [study, s] of Object.entries(STUDIES))
    for (const [phase, at] of Object.entries(s.phases))
      cases.push({ study, phase, at, set: s.set || [], signals: at.signals || SIGNALS[cases.length % SIGNALS.length] });
  // A terminal's Ctrl-C goes to the whole process group: PostgreSQL and the replica set's members get
  // it too, and stop on their own while the lab stops them (a member stopped during its start had
  // mongodb-memory-server print two stack traces).
  for (const [study, phase, signals] of [
    ['coherency', 'replica-set start', ['SIGINT']],
    ['inserts', 'replica-set start', ['SIGINT', 'SIGINT']],
    ['mapreduce', 'SQL peer load', ['SIGTERM']],
  ])
    cases.push({ study, phase, at: STUDIES[study].phases[phase], set: STUDIES[study].set || [], signals, group: true });
  // A race in flight stops at once: the racers (54 processes at seed scale, for minutes) are killed,
  // the PostgreSQL racers stop at their next entry, before the run's clean-up drops its database.
  const LONG_RACE = ['N=200000', 'CHARS=64', 'W=8', 'RUNS=1', 'WARMUP=0'];
  for (const [phase, set] of [
    ['a long race of worker processes', ['MODE=processes', 'VARIANTS=check-then-insert']],
    ['a long PostgreSQL transaction race', ['VARIANTS=pg-txn-check-then-insert']],
  ])
    cases.push({
      study: 'coherency',
      phase,
      at: line(/^coherency: .*variants x/m, 3000),
      set: [...LONG_RACE, ...set],
      signals: ['SIGINT'],
      stopsWithinMs: 8000,
    });

  /** One case: the run, signalled at its phase; resolves what it did and what it left. */
  async function signalled(c, i) {
    const tmp = path.join(base, `c${i}`);
    fs.mkdirSync(tmp, { mode: 0o755 });
    const db = `labtest_sig_${i}`;
    const env = { ...process.env, TMPDIR: tmp, LAB_RESULTS_DIR: path.join(tmp, '..', `results${i}`) };
    delete env.PG_URI; // its own PostgreSQL: stopping it is the race under test
    delete env.LAB_PG_PACKAGE_DIR;
    const args = ['run', c.study, '--profile', 'tiny', '--uri', testUri(), '--db', db, '--no-progress', '--no-charts'];
    for (const kv of c.set) args.push('--set', kv);
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: base,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: Boolean(c.group), // a group of its own, to signal as a terminal does
    });
    const run = { tmp, err: '', child };
    child.stderr.on('data', (d) => {
      // The CLI wraps its log at 100 columns, continuing lines indented.
      run.err = (run.err + d).replace(/\n {4}(?=\S)/g, ' ');
    });
    child.stdout.resume();
    const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    let done = null;
    exited.then((r) => (done = r));
    const seen = new Map();
    let fired = false;
    const t0 = Date.now();
    while (!done && Date.now() - t0 < 240000) {
      collectTree(child.pid, seen);
      if (!fired && c.at.when(run)) {
        fired = true;
        await sleep(c.at.after);
        run.signalledAt = Date.now();
        collectTree(child.pid, seen);
        for (const [k, sig] of c.signals.entries()) {
          if (k) await sleep(150); // the second Ctrl-C a moment after the first
          if (c.group) process.kill(-child.pid, sig);
          else child.kill(sig);
        }
      }
      await sleep(fired ? 50 : 20);
    }
    const { code, signal } = await exited;
    const stoppedMs = run.signalledAt ? Date.now() - run.signalledAt : null;
    // The watchdog and the servers' last processes go within seconds of the run's end.
    const t1 = Date.now();
    while (Date.now() - t1 < 15000 && (stillRunning(seen).length || processesUsing(tmp).length)) await sleep(200);
    const left = fs.existsSync(tmp) ? fs.readdirSync(tmp) : [];
    return {
      ms: Date.now() - t0,
      fired,
      stoppedMs,
      code,
      signal,
      err: run.err,
      procs: [...new Set([...stillRunning(seen), ...processesUsing(tmp)])].map((p) => `${p} ${cmdline(p)}`),
      left,
      dbLeft: (await databaseNames(testUri())).includes(db),
    };
  }

  // Three runs at a time: the whole matrix in about the time of a few studies.
  let results;
  before(async function () {
    results = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const i = next++;
        results[i] = await signalled(cases[i], i);
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    if (process.env.LAB_SIGNALS_TIMES)
      for (const [i, c] of cases.entries())
        process.stderr.write(`${(results[i].ms / 1000).toFixed(1)} s  ${c.study}, ${c.phase}\n`);
  });

  cases.forEach((c, i) => {
    it(`${c.study}, ${c.phase}: ${c.signals.join(' + ')}${c.group ? ' to the whole process group' : ''}`, function () {
      const r = results[i];
      const say = `${c.study} ${c.phase}:\n${r.err}`;
      expect(r.fired, `the phase never came: ${say}`).to.equal(true);
      expect(r.code, say).to.equal(CODES[c.signals[0]]);
      expect(r.err, say).to.not.match(STACK);
      expect(r.err, say).to.not.match(/unhandled|TypeError|ReferenceError/i);
      expect(r.procs, `processes left: ${say}`).to.deep.equal([]);
      expect(r.left, `left in TMPDIR: ${say}`).to.deep.equal([]);
      expect(r.dbLeft, `database left: ${say}`).to.equal(false);
      if (c.stopsWithinMs)
        expect(r.stoppedMs, `stopped ${r.stoppedMs} ms after the signal: ${say}`).to.be.below(c.stopsWithinMs);
    });
  });
});

// The mechanism behind the crash, without the timing: a pg client left idle while its PostgreSQL
// stops (the run's clean-up after Ctrl-C) got an 'error' event no one heard, and the process died
// with its stack trace. Now the client only fails its next query.
describe('safety: a PostgreSQL client idle while its server stops', function () {
  it('does not crash the process; its next query fails with a reason', function () {
    this.timeout(120000);
    const script = `
      const { getPostgres } = require(${JSON.stringify(path.join(ROOT, 'lib', 'infra', 'postgres'))});
      getPostgres().then(async (pgs) => {
        const c = await pgs.connect();
        await pgs.stop();
        await new Promise((r) => setTimeout(r, 1000));
        const e = await c.query('SELECT 1').then(() => null, (x) => x);
        console.log(JSON.stringify({ failed: Boolean(e), message: e && e.message }));
      });`;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-pg-idle-'));
    fs.chmodSync(tmp, 0o755);
    try {
      const env = { ...process.env, TMPDIR: tmp };
      delete env.PG_URI; // an embedded one, which this process stops
      delete env.LAB_PG_PACKAGE_DIR;
      const r = spawnSync(process.execPath, ['-e', script], { env, encoding: 'utf8', timeout: 100000 });
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stderr).to.not.match(STACK);
      expect(JSON.parse(r.stdout.trim())).to.include({ failed: true });
      expect(fs.readdirSync(tmp)).to.deep.equal([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
