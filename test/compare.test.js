'use strict';
// `mongo-perf-lab compare`: the decisions on documented result files (a copy with one variant 30 % slower is found; a file against itself, too few rounds, a
// different workload are not called), bad input in one line, a large file, and pairs of real tiny
// runs of the same build against the test server, which must give no call.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
// cli: the lab's CLI from a temp folder, without a developer's MONGODB_URI: { code, stdout, stderr }
const { labCli: cli, tinyArgs, scratchDirAndDb } = require('./helpers');

const ROOT = path.join(__dirname, '..');
const QUICK = path.join(ROOT, 'docs', 'data', 'quick-run.json');

/**
 * The row of `variant` in the table under the heading of `study` at `point` (as printed: 'part=scan,
 * layout=array'; '-' for none), its wrapped lines joined, spaces collapsed; undefined when absent.
 */
function rowOf(stdout, study, point, variant) {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l === `${study}: ${point}` || l.startsWith(`${study}: ${point};`));
  if (start < 0) return undefined;
  for (let i = start + 1; i < lines.length && !/^\S+: /.test(lines[i]); i++) {
    if (!lines[i].startsWith(`${variant} `)) continue;
    const row = [lines[i]];
    for (let k = i + 1; k < lines.length && /^\s+\S/.test(lines[k]); k++) row.push(lines[k]);
    return row.join(' ').replace(/\s+/g, ' ');
  }
  return undefined;
}

const sameAxis = (a, b) => JSON.stringify(a || {}) === JSON.stringify(b || {});

/** A copy of a result document with `edit` applied, written to `file`. */
function copyWith(doc, file, edit) {
  const copy = JSON.parse(JSON.stringify(doc));
  edit(copy);
  fs.writeFileSync(file, JSON.stringify(copy));
  return file;
}

describe('compare: decisions on result files', function () {
  let dir;
  let quick;
  // A steady record of the documented quick run: 9 rounds, per-round ratios within a few percent.
  const target = { study: 'counters', variant: 'minute-1439', axis: { part: 'scan', layout: 'array', mode: 'bulk' } };
  const isTarget = (r) => r.study === target.study && r.variant === target.variant && sameAxis(r.axis, target.axis);

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-compare-'));
    quick = JSON.parse(fs.readFileSync(QUICK, 'utf8'));
  });
  after(function () {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a file against itself: nothing called, exit 0', async function () {
    const r = await cli(['compare', QUICK, QUICK]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^0 clearly slower, 0 clearly faster beyond ±10%/m);
  });

  it("a copy whose baseline moved too (the machine's load changed): a ratio change within that move is not called", async function () {
    // The baseline 1.6x slower and the variant 2.56x: its ratio 1.6x, as identical runs beside two
    // CPU-bound processes showed for millisecond queries against a long baseline. Within the
    // baseline's move it is not called; with --absolute (runs declared comparable) it is.
    const isBase = (r) => r.study === target.study && r.variant === 'minute-0' && sameAxis(r.axis, target.axis);
    const moved = copyWith(quick, path.join(dir, 'moved.json'), (d) => {
      d.results.find(isBase).times = d.results.find(isBase).times.map((t) => t * 1.6);
      d.results.find(isTarget).times = d.results.find(isTarget).times.map((t) => t * 2.56);
    });
    const r = await cli(['compare', QUICK, moved, '--json', path.join(dir, 'moved-cmp.json')]);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const row = JSON.parse(fs.readFileSync(path.join(dir, 'moved-cmp.json'), 'utf8')).rows.find(isTarget);
    expect(row.measure).to.equal('ratio');
    expect(row.ci[0]).to.be.above(1.1);
    expect(row.verdict).to.equal('no clear difference');
    expect(row.why).to.match(/the reference minute-0 itself moved \+60% between the runs/);
    const abs = await cli(['compare', QUICK, moved, '--absolute']);
    expect(rowOf(abs.stdout, 'counters', 'part=scan, layout=array, mode=bulk', 'minute-1439')).to.match(/ SLOWER$/);
  });

  it('a copy with one variant 30 % slower: that row SLOWER, no other, exit 1', async function () {
    const slow = copyWith(quick, path.join(dir, 'slow.json'), (d) => {
      const r = d.results.find(isTarget);
      r.times = r.times.map((t) => t * 1.3);
    });
    const r = await cli(['compare', QUICK, slow, '--json', path.join(dir, 'cmp.json')]);
    expect(r.code, r.stdout + r.stderr).to.equal(1);
    expect(r.stdout).to.match(
      /^counters: part=scan, layout=array, mode=bulk; ratio: each round's time over minute-0's$/m,
    );
    expect(rowOf(r.stdout, 'counters', 'part=scan, layout=array, mode=bulk', 'minute-1439')).to.match(
      / \+30% \(\+\d+%\.\.\+\d+%\) SLOWER$/,
    );
    expect(r.stdout).to.match(/^1 clearly slower, 0 clearly faster/m);
    // the same variant at another point is not called
    expect(rowOf(r.stdout, 'counters', 'part=scan, layout=array, mode=single', 'minute-1439')).to.match(
      / no clear difference \(the same within ±10%\)$/,
    );
    for (const line of r.stdout.split('\n')) expect(line.length, line).to.be.at.most(100);
    const res = JSON.parse(fs.readFileSync(path.join(dir, 'cmp.json'), 'utf8'));
    const row = res.rows.find(isTarget);
    expect(row.verdict).to.equal('slower');
    expect(row.ci[0]).to.be.above(1.1);
    // --threshold 10 is 10 %, as 10% is; past the change, nothing is called
    const ten = await cli(['compare', QUICK, slow, '--threshold', '10']);
    expect(ten.code).to.equal(1);
    expect(ten.stdout).to.contain('beyond ±10%');
    const fifty = await cli(['compare', QUICK, slow, '--threshold', '50']);
    expect(fifty.code, fifty.stdout).to.equal(0);
    // swapped: faster, and a faster build never fails a CI job
    const back = await cli(['compare', slow, QUICK]);
    expect(back.code).to.equal(0);
    expect(back.stdout).to.match(/^0 clearly slower, 1 clearly faster/m);
    expect(rowOf(back.stdout, 'counters', 'part=scan, layout=array, mode=bulk', 'minute-1439')).to.match(
      / -2\d% .* FASTER$/,
    );
  });

  it('where, its $where capped: a copy with hybrid 30 % slower exits 1 and names hybrid; plain, the reference, too', async function () {
    // docs/data/where-seed.json: $where timed once (231 s, over its budget), the others in 5 rounds:
    // the ratios are taken to plain, the first variant timed in every round; plain's to hybrid
    const WHERE = path.join(ROOT, 'docs', 'data', 'where-seed.json');
    const where = JSON.parse(fs.readFileSync(WHERE, 'utf8'));
    for (const [variant, change] of [
      ['hybrid', / \+30% \(\+\d+%\.\.\+\d+%\) SLOWER\b/],
      ['plain', / ratio to hybrid \+30% .*SLOWER\b/],
    ]) {
      const slow = copyWith(where, path.join(dir, `where-${variant}.json`), (d) => {
        const r = d.results.find((x) => x.study === 'where' && x.variant === variant);
        r.times = r.times.map((t) => t * 1.3);
      });
      const r = await cli(['compare', WHERE, slow]);
      expect(r.code, r.stdout + r.stderr).to.equal(1);
      expect(r.stdout).to.match(/^where: -; ratio: each round's time over plain's \(where capped\)$/m);
      expect(rowOf(r.stdout, 'where', '-', variant)).to.match(change);
      expect(r.stdout).to.match(/^1 clearly slower, 0 clearly faster/m);
      // the wrapped cells joined: the called row alone says SLOWER
      expect(r.stdout.match(/SLOWER/g)).to.have.length(1);
    }
    // the same rounds in another order: the same build, nothing called
    const shuffled = copyWith(where, path.join(dir, 'where-shuffled.json'), (d) => {
      for (const r of d.results.filter((x) => x.type === 'result')) r.times.push(r.times.shift());
    });
    const same = await cli(['compare', WHERE, shuffled]);
    expect(same.code, same.stdout).to.equal(0);
    expect(same.stdout).to.match(/^0 clearly slower, 0 clearly faster/m);
  });

  it('--json - and --md - print the comparison alone, for a CI and a page', async function () {
    const json = await cli(['compare', QUICK, QUICK, '--json', '-']);
    expect(json.code, json.stderr).to.equal(0);
    const res = JSON.parse(json.stdout);
    expect(res.slower).to.equal(0);
    expect(res.rows.find(isTarget).verdict).to.equal('no clear difference');
    expect(res.rows.find(isTarget).why).to.equal('the same within ±10%');
    const md = await cli(['compare', QUICK, QUICK, '--md', '-']);
    expect(md.code, md.stderr).to.equal(0);
    expect(md.stdout).to.match(/^### counters: part=scan, layout=array, mode=bulk; ratio: /m);
    expect(md.stdout).to.match(/^\| minute-1439 \|.*\| no clear difference \(the same within ±10%\) \|$/m);
    const both = await cli(['compare', QUICK, QUICK, '--json', '-', '--md', '-']);
    expect(both.code).to.equal(2);
  });

  it('below 3 rounds a side nothing is called, whatever the change; from 3 a clear one is', async function () {
    // the quick run's mapreduce has 3 rounds per point: mr 3x slower is called at batch=1 (its
    // rounds steady). Cut to 2 rounds in both files (a tiny run's), it is not: no interval from two.
    const isMr = (x) => x.study === 'mapreduce' && x.type === 'result';
    const slow = copyWith(quick, path.join(dir, 'mr3x.json'), (d) => {
      for (const r of d.results.filter((x) => isMr(x) && x.variant === 'mr')) r.times = r.times.map((t) => t * 3);
    });
    const three = await cli(['compare', QUICK, slow]);
    expect(three.code, three.stdout).to.equal(1);
    expect(rowOf(three.stdout, 'mapreduce', 'batch=1', 'mr')).to.match(/ SLOWER$/);
    const cut = (d) => {
      for (const r of d.results.filter(isMr)) r.times = r.times.slice(0, 2);
    };
    const old2 = copyWith(quick, path.join(dir, 'mr-2.json'), cut);
    const slow2 = copyWith(JSON.parse(fs.readFileSync(slow, 'utf8')), path.join(dir, 'mr3x-2.json'), cut);
    const r = await cli(['compare', old2, slow2, '--json', path.join(dir, 'mr-2-cmp.json')]);
    expect(r.code, r.stdout).to.equal(0);
    expect(rowOf(r.stdout, 'mapreduce', 'batch=1', 'mr')).to.match(/ \+200% too few rounds \(2;/);
    const rows = JSON.parse(fs.readFileSync(path.join(dir, 'mr-2-cmp.json'), 'utf8')).rows;
    const mr = rows.filter((x) => x.study === 'mapreduce' && x.variant === 'mr');
    expect(mr.map((x) => [x.verdict, x.why, x.ci])).to.deep.equal(
      mr.map(() => ['too few rounds', 'too few rounds: 2; use --runs 6', null]),
    );
    expect(r.stdout).to.match(/use --runs 6 \(an interval needs at least 3 rounds on each side\)/);
  });

  it('says what differs: a study with other workload parameters is not compared; another server is said', async function () {
    const other = copyWith(quick, path.join(dir, 'other.json'), (d) => {
      d.params.counters.METRICS = 20;
      d.params.counters.RUNS = 5;
      d.environment.server.version = '7.0.2';
      const r = d.results.find(isTarget);
      r.times = r.times.map((t) => t * 1.3);
    });
    const r = await cli(['compare', QUICK, other]);
    expect(r.code, r.stdout).to.equal(0);
    expect(r.stdout).to.contain('server differs: MongoDB 6.0.5 vs 7.0.2');
    expect(r.stdout).to.contain('counters: parameters differ: METRICS 10 vs 20 (not compared)');
    expect(r.stdout).to.contain('counters: measured differently: RUNS 3 vs 5');
    expect(rowOf(r.stdout, 'counters', 'part=scan, layout=array, mode=bulk', 'minute-1439')).to.match(
      / not comparable \(parameters differ: METRICS 10 vs 20\)$/,
    );
  });

  it('reads run folders and a file with a byte-order mark', async function () {
    const folder = path.join(dir, 'run-folder');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'results.json'), `\ufeff${fs.readFileSync(QUICK, 'utf8')}`);
    const r = await cli(['compare', folder, QUICK]);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^0 clearly slower/m);
  });

  it('refuses bad input in one line, exit 2', async function () {
    const bad = copyWith(quick, path.join(dir, 'bad.json'), (d) => {
      d.results.find(isTarget).times = 'fast';
    });
    const r = await cli(['compare', QUICK, bad]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(
      /bad\.json: results\[\d+\] \(counters minute-1439\): "times" is not a list of numbers >= 0/,
    );
    expect(r.stderr).not.to.match(/\n\s+at /); // no stack
    expect(r.stderr.split('\n').filter(Boolean)).to.have.length.at.most(2);
    const pct = await cli(['compare', QUICK, QUICK, '--threshold', '0.1']);
    expect(pct.code).to.equal(2);
    expect(pct.stderr).to.contain('--threshold: 0.1 reads as 0.1 %');
    const one = await cli(['compare', QUICK]);
    expect(one.code).to.equal(2);
  });

  it('answers on a large file in seconds (no quadratic work)', async function () {
    // 40 copies of the quick run's records at distinct axis points: ~31 MB, ~31,000 records
    const big = copyWith(quick, path.join(dir, 'big.json'), (d) => {
      const all = [];
      for (let k = 0; k < 40; k++) for (const r of d.results) all.push({ ...r, axis: { ...(r.axis || {}), copy: k } });
      d.results = all;
    });
    const t0 = Date.now();
    const r = await cli(['compare', big, big, '--json', path.join(dir, 'big-cmp.json')]);
    expect(r.code, r.stderr).to.equal(0);
    expect(Date.now() - t0).to.be.below(120000); // 4-15 s on 2 shared cores (quadratic work: hours); the 185 MB file: 18 s
  });
});

describe('compare: pairs of real runs of the same build (tiny where, 6 rounds)', function () {
  const db = 'labtest_compare';
  const h = scratchDirAndDb('lab-compare-runs-', db); // h.dir: the runs' folders
  const runs = [];

  before(async function () {
    for (const name of ['a', 'b']) {
      const out = path.join(h.dir, name);
      const r = await cli(
        tinyArgs('run', 'where', db, '--runs', '6', '--out', out, '--quiet', '--no-progress', '--no-charts'),
      );
      expect(r.code, r.stderr).to.equal(0);
      runs.push(out);
    }
  });

  it('records the tiny profile as tiny', function () {
    const doc = JSON.parse(fs.readFileSync(path.join(runs[0], 'results.json'), 'utf8'));
    expect(doc.environment.profile).to.equal('tiny');
  });

  it('either way round, and each against itself: no change called, exit 0', async function () {
    for (const [x, y] of [
      [0, 1],
      [1, 0],
      [0, 0],
    ]) {
      const r = await cli(['compare', runs[x], runs[y]]);
      expect(r.code, r.stdout).to.equal(0);
      // the whole table on a failure: which row was called, its interval and the baseline's drift
      expect(r.stdout, `compare ${x} ${y}:\n${r.stdout}`).to.match(/^0 clearly slower, 0 clearly faster/m);
      // the where study's point carries the cores its run could use (machine state is a setting there)
      expect(r.stdout).to.match(/^where: usableCores=\d+; ratio: each round's time over where's$/m);
      // each run against its own baseline, in its summary's words
      const point = /^where: (usableCores=\d+);/m.exec(r.stdout)[1];
      expect(rowOf(r.stdout, 'where', point, 'plain')).to.match(
        /^plain .* (\d[\d.]*x faster|no clear difference|too few rounds|interval too wide)/,
      );
    }
  });
});
