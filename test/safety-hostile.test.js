'use strict';
// Hostile input through the real command line (issue 38 items 4-6): bad arguments, unknown and
// invalid study parameters, junk result files, CSV corners. For every case: the exit code (2 for bad
// input), one line on stderr (the --help hint aside), no stack and no JavaScript error text, and the
// test's databases on the server exactly as they were (a user's collection, a view, no new database).
// Then what a table cannot say: a result file of 150,000 records (read without recursion limits),
// a file without records (not measured, never inconclusive), and advice that works (the advised
// command is run).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { testDatabase, labSync, labRun } = require('./helpers');
const { readResults } = require('../lib/core/results');

// What the engine says when the lab's code fails, and a stack's frames: never for a user to read.
const ENGINE_TEXT =
  /Cannot read propert|is not a function|is not defined|is not iterable|Maximum call stack|TypeError|RangeError|ReferenceError|SyntaxError|\n\s+at /;
const PREFIX = 'labtest_hostile';

/** stderr's lines, the --help hint aside (a usage error's second line). */
const ownLines = (text) =>
  text
    .split('\n')
    .filter(Boolean)
    .filter((l) => !/^Try `mongo-perf-lab --help`/.test(l));

const ENV = {
  server: { version: '6.0.5' },
  host: { cores: 2 },
  software: {},
  lab: {},
  startedAt: '2026-01-01T00:00:00Z',
};
const resultDoc = (results, over = {}) => ({
  format: 'mongo-perf-lab/results',
  version: 2,
  complete: true,
  environment: { type: 'environment', ...ENV },
  results,
  ...over,
});
const rec = (variant, o = {}) => ({
  type: 'result',
  study: 'where',
  variant,
  axis: {},
  times: [1, 1.1, 1.2],
  median: 1.1,
  ...o,
});

/** A result file's text whose one record holds a value nested `levels` deep (built as text: stringify recurses). */
function deeplyNestedFile(levels) {
  const nested = `${'{"v":'.repeat(levels)}1${'}'.repeat(levels)}`;
  return JSON.stringify(resultDoc([rec('a', { extra: '@' })])).replace('"@"', () => nested);
}

describe('safety: hostile input through the command line (issue 38)', function () {
  this.timeout(600000);
  let t;
  let dir;
  let good;
  const f = (name, content) => {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
    return p;
  };

  /** The test's databases: per database, per collection, its documents (a user's data is small). */
  async function serverState() {
    const dbs = (await t.client.db('admin').admin().listDatabases({ nameOnly: true })).databases
      .map((d) => d.name)
      .filter((n) => n.startsWith(PREFIX))
      .sort();
    const out = {};
    for (const name of dbs) {
      out[name] = {};
      for (const c of await t.client.db(name).listCollections().toArray()) {
        out[name][c.name] =
          c.type === 'view' ? { view: c.options } : await t.client.db(name).collection(c.name).find().toArray();
      }
    }
    return out;
  }

  before(async function () {
    t = await testDatabase('hostile');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-hostile-'));
    // A user's own data: a collection and a view, which no case may change.
    await t.db.collection('mine').insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i, x: i, s: `s${i}` })));
    await t.db.createCollection('myview', { viewOn: 'mine', pipeline: [{ $match: { x: { $gt: 10 } } }] });
    good = f('good.json', resultDoc([rec('a', { ratio: { to: 'a' } }), rec('b', { ratio: { to: 'a' } })]));
  });
  after(async function () {
    for (const name of Object.keys(await serverState())) await t.client.db(name).dropDatabase();
    if (t) await t.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  // [what, args (given the test's uri, db and folder), exit code, the line]
  const cases = () => {
    const uri = t.uri;
    const db = t.dbName;
    const fresh = `${PREFIX}_fresh`;
    const junk = {
      'null among the records': [
        resultDoc([rec('a'), null]),
        /results\[1\] is null: not a record mongo-perf-lab writes/,
      ],
      '42 among the records': [resultDoc([42]), /results\[0\] is the number 42/],
      'a text among the records': [resultDoc(['x']), /results\[0\] is the text "x"/],
      'a foreign record type': [resultDoc([{ type: 'row', study: 'where' }]), /results\[0\] has type "row"/],
      'a record without its study': [
        resultDoc([{ type: 'result', variant: 'a', axis: {} }]),
        /results\[0\] names no study/,
      ],
      'times that are not numbers': [
        resultDoc([rec('a', { times: ['fast'] })]),
        /results\[0\] \(where a\): "times" is not a list of numbers/,
      ],
      'a record nested 100,000 deep': [deeplyNestedFile(100000), /results\[0\] \(where a\) nests more than 64 levels/],
      'an axis holding an object': [
        resultDoc([rec('a', { axis: { p: { q: 1 } } })]),
        /"axis" holds a list or an object/,
      ],
      'no environment': [resultDoc([rec('a')], { environment: null }), /"environment" is missing or not an object/],
      'an unknown version': [resultDoc([rec('a')], { version: 99 }), /result format version 99/],
      'a foreign JSON object': [{ rows: [] }, /not a mongo-perf-lab result file \(JSON without "format"/],
      'a JSON list': [[1, 2], /not a mongo-perf-lab result file \(JSON holding a list\)/],
      'JSON null': ['null', /not a mongo-perf-lab result file \(JSON holding null\)/],
      'a file cut short': [
        JSON.stringify(resultDoc([rec('a'), rec('b')])).slice(0, 330),
        /not JSON: the file ends inside results\[\d\]/,
      ],
      'bytes that are not JSON': [Buffer.from([0x00, 0xff, 0x7b, 0x13]), /not JSON: expected a JSON object/],
      'an empty file (0 bytes)': ['', /an empty file \(0 bytes\)/],
    };
    const out = [];
    Object.entries(junk).forEach(([what, [content, line]], i) => {
      const file = f(`junk-${i}.json`, content);
      out.push([`compare, ${what}`, ['compare', good, file], 2, line]);
      out.push([
        `findings --from, ${what}`,
        ['findings', '--from', file, '--out', path.join(dir, `fo-${i}`), '-q'],
        2,
        line,
      ]);
    });
    out.push(
      [
        'compare, a file with no records',
        ['compare', good, f('none.json', resultDoc([]))],
        2,
        /none\.json: no records .*nothing to compare/,
      ],
      ['compare, a missing file', ['compare', good, path.join(dir, 'nope.json')], 2, /nope\.json: no such file/],
      ['compare, a folder without results.json', ['compare', good, dir], 2, /results\.json: no such file/],
      ['compare, one file', ['compare', good], 2, /give two result files/],
      [
        'compare, --threshold abc',
        ['compare', good, good, '--threshold', 'abc'],
        2,
        /--threshold: expected a percentage/,
      ],
      ['an unknown command', ['frobnicate'], 2, /./],
      ['an option before the command', ['--docs', '5'], 2, /give the command first/],
      ['an unknown study', ['run', 'nosuch', '--uri', uri, '--db', fresh], 2, /unknown study "nosuch"/],
      [
        '--docs 0',
        ['run', 'where', '--docs', '0', '--uri', uri, '--db', fresh],
        2,
        /--docs: expected a whole number >= 1/,
      ],
      [
        'an unknown parameter',
        ['run', 'where', '--set', 'NOPE=1', '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /parameter NOPE: study where has no such parameter/,
      ],
      [
        'a parameter of the wrong kind',
        ['run', 'where', '--set', 'N=abc', '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /parameter N: expected a whole number/,
      ],
      [
        'an unknown variant',
        ['run', 'where', '--set', 'VARIANTS=nosuch', '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /unknown variant "nosuch"/,
      ],
      [
        '--profile huge',
        ['run', 'where', '--profile', 'huge', '--uri', uri, '--db', fresh],
        2,
        /--profile: expected quick, seed or tiny/,
      ],
      ['findings --engines x', ['findings', '--engines', 'x', '--from', good], 2, /--engines: "x" is not one of/],
      [
        'import, an empty CSV',
        ['import', f('e.csv', ''), '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /e\.csv: the file is empty/,
      ],
      [
        'import, a header naming a path',
        ['import', f('dot.csv', 'a.b,c\n1,2\n'), '--uri', uri, '--db', db, '--coll', 'fromdot', '--no-progress'],
        2,
        /the name "a\.b" contains '\.'/,
      ],
      [
        'import, no header',
        ['import', f('nohead.csv', '1,2\n3,4\n'), '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /the first line looks like data/,
      ],
      [
        'import, an unknown --key',
        [
          'import',
          f('k.csv', 'a,b\n1,2\n'),
          '--uri',
          uri,
          '--db',
          db,
          '--coll',
          'keyed',
          '--key',
          'zz',
          '--no-progress',
        ],
        2,
        /--key "zz" is not a column/,
      ],
      [
        'import, an unknown encoding',
        ['import', f('enc.csv', 'a\n1\n'), '--uri', uri, '--db', fresh, '--encoding', 'ebcdic', '--no-progress'],
        2,
        /--encoding/,
      ],
      [
        'import, a missing file',
        ['import', path.join(dir, 'none.csv'), '--uri', uri, '--db', fresh, '--no-progress'],
        2,
        /none\.csv: no such file/,
      ],
      [
        'import into a view',
        ['import', f('v.csv', 'a,b\n1,2\n'), '--uri', uri, '--db', db, '--coll', 'myview', '--no-progress'],
        1,
        /myview is a view, which import cannot write into \(with or without --append\)/,
      ],
      [
        'import into a view, --append',
        [
          'import',
          f('v2.csv', 'a,b\n1,2\n'),
          '--uri',
          uri,
          '--db',
          db,
          '--coll',
          'myview',
          '--append',
          '--no-progress',
        ],
        1,
        /myview is a view, which import cannot write into/,
      ],
      [
        "import into a user's collection",
        ['import', f('u.csv', 'a,b\n1,2\n'), '--uri', uri, '--db', db, '--coll', 'mine', '--no-progress'],
        1,
        /add --append/,
      ],
    );
    return out;
  };

  it('every case: its exit code, one line, no engine text, the server as it was', async function () {
    const before = await serverState();
    expect(Object.keys(before)).to.deep.equal([t.dbName]);
    const failures = [];
    for (const [what, args, code, line] of cases()) {
      const r = labSync(args, { cwd: dir, timeoutMs: 120000 });
      const lines = ownLines(r.stderr);
      const problems = [];
      if (r.status !== code) problems.push(`exit ${r.status}, expected ${code}`);
      if (lines.length !== 1) problems.push(`${lines.length} lines on stderr`);
      if (!line.test(lines[0] || '')) problems.push(`the line does not match ${line}`);
      if (ENGINE_TEXT.test(r.stderr + r.stdout)) problems.push('engine text or a stack');
      const after = await serverState();
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push('the server changed');
      if (problems.length)
        failures.push(`${what}: ${problems.join('; ')}\n    ${r.stderr.trim().split('\n').join('\n    ')}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('a result file of 150,000 records: compared and rendered (a spread of them overflowed the stack), and read record by record above the string limit', async function () {
    // 150,000 variants at one point, 2 rounds each (compare decides from 3): every row "too few
    // rounds", which the summary took the minimum of with Math.min(...rows): "Maximum call stack size
    // exceeded", exit 1.
    const n = 150000;
    const parts = [];
    const two = { ratio: { to: 'v0' }, times: [1, 1.1], median: 1.05 };
    for (let i = 0; i < n; i++) parts.push(JSON.stringify(rec(`v${i}`, two)));
    const big = f(
      'big.json',
      JSON.stringify(resultDoc([])).replace('"results":[]', () => `"results":[${parts.join(',')}]`),
    );
    const r = await labRun(['compare', big, big, '--md', path.join(dir, 'big.md')], { cwd: dir }).done;
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.contain(`${n} not called: too few rounds: 2`);
    expect(fs.readFileSync(path.join(dir, 'big.md'), 'utf8')).to.contain('| v149999 |');
    // The scan that takes a file too large for one string, forced here: the same document.
    const whole = readResults(big);
    const scanned = readResults(big, { wholeLimit: 1 });
    expect(scanned.results.length).to.equal(n);
    expect(JSON.stringify(scanned)).to.equal(JSON.stringify(whole));
    // cut short in the middle: the record it ends in is named
    const cut = f('big-cut.json', fs.readFileSync(big).subarray(0, 8000000));
    expect(() => readResults(cut, { wholeLimit: 1 })).to.throw(
      /big-cut\.json: not JSON: the file ends inside results\[\d+\]/,
    );
  });

  it('a file without records: every claim "not measured" (never "inconclusive"), said in one line, exit 0', function () {
    const out = path.join(dir, 'findings-empty');
    const r = labSync(['findings', '--from', f('empty-run.json', resultDoc([])), '--out', out], { cwd: dir });
    expect(r.status, r.stderr).to.equal(0);
    expect(ownLines(r.stderr)).to.deep.equal([
      `warning: ${path.join(dir, 'empty-run.json')} holds no records (nothing was measured): its claims are "not measured"`,
    ]);
    const md = fs.readFileSync(path.join(out, 'findings.md'), 'utf8');
    expect(md).to.not.match(/inconclusive/);
    expect(md).to.match(/not measured: no records at all in .*empty-run\.json/);
    // beside a column with records: the empty column is "not measured", the other judged as before
    const two = labSync(
      ['findings', '--from', `${path.join(dir, 'empty-run.json')},${good}`, '--out', `${out}-2`, '-q'],
      {
        cwd: dir,
      },
    );
    expect(two.status, two.stderr).to.equal(0);
  });

  it('advice that works: a view as the import target is told another --coll, which then imports', async function () {
    const csv = f('advice.csv', 'a,b\n1,2\n');
    const r = labSync(['import', csv, '--uri', t.uri, '--db', t.dbName, '--coll', 'myview', '--no-progress'], {
      cwd: dir,
    });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.not.match(/add --append/);
    expect(r.stderr).to.match(/choose another --coll or --db/);
    const ok = labSync(['import', csv, '--uri', t.uri, '--db', t.dbName, '--coll', 'advised', '--no-progress'], {
      cwd: dir,
    });
    expect(ok.status, ok.stderr).to.equal(0);
    expect(await t.db.collection('advised').countDocuments()).to.equal(1);
    await t.db.collection('advised').drop();
  });

  it("advice that works: a drop-in on a user's collection whose field holds no number names the field, and the advised FIELD runs", async function () {
    await t.db.collection('readings').insertMany(Array.from({ length: 30 }, (_, i) => ({ x: i, t: `s${i}` })));
    const mongosh = path.join(__dirname, '..', 'node_modules', '.bin', 'mongosh');
    const script = path.join(__dirname, '..', 'scripts', 'mr_variants.js');
    const run = (field) =>
      spawnSync(
        mongosh,
        [
          `${t.uri.replace(/\/$/, '')}/${t.dbName}`,
          '--quiet',
          '--eval',
          `var COLL = 'readings', FIELD = '${field}', RUNS = 1, WARMUP = 0, K = 1, LAB_LINES = false`,
          script,
        ],
        { encoding: 'utf8', timeout: 300000, cwd: dir },
      );
    // text in the field: the variants used to disagree ("its answer disagrees with the reference")
    const text = run('t');
    expect(text.status).to.not.equal(0);
    expect(text.stdout + text.stderr).to.match(
      /parameter FIELD: \S+\.readings holds no number in field t \(e\.g\. "s0" in _id \S+\): give FIELD a numeric field of readings \(its first document has x\)/,
    );
    expect(text.stdout + text.stderr).to.not.match(/disagrees/);
    const missing = run('engine_rpm');
    expect(missing.stdout + missing.stderr).to.match(
      /has no field engine_rpm in any document: give FIELD a numeric field/,
    );
    // the time-series drop-in on events without a date: named, not "reading 'getTime'"
    const ts = spawnSync(
      mongosh,
      [
        `${t.uri.replace(/\/$/, '')}/${t.dbName}`,
        '--quiet',
        '--eval',
        "var COLL = 'readings', RUNS = 1, WARMUP = 0",
        path.join(__dirname, '..', 'scripts', 'ts_designs.js'),
      ],
      { encoding: 'utf8', timeout: 300000, cwd: dir },
    );
    expect(ts.status).to.not.equal(0);
    expect(ts.stdout + ts.stderr).to.match(
      /parameter COLL: \S+\.readings holds no event with a date in its field created_on/,
    );
    expect(ts.stdout + ts.stderr).to.not.match(ENGINE_TEXT);
    const advised = run('x');
    expect(advised.status, advised.stdout + advised.stderr).to.equal(0);
    expect(advised.stdout).to.match(/all variants agree/);
    await t.db.collection('readings').drop();
  });

  it('advice that works: a full disk under --out says free space or another --out (never --docs), and another --out writes the report', function () {
    const full = path.join(dir, 'full');
    fs.mkdirSync(full);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]).status !== 0) this.skip(); // root only
    try {
      const r = labSync(['findings', '--from', good, '--out', path.join(full, 'f'), '-q'], { cwd: dir });
      expect(r.status).to.equal(1);
      expect(ownLines(r.stderr)).to.have.length(1);
      expect(r.stderr).to.match(
        /no space left on the device holding .*full\/f: free some space there, or write the output elsewhere with --out/,
      );
      expect(r.stderr).to.not.match(/--docs/);
      const ok = labSync(['findings', '--from', good, '--out', path.join(dir, 'elsewhere'), '-q'], { cwd: dir });
      expect(ok.status, ok.stderr).to.equal(0);
      expect(fs.existsSync(path.join(dir, 'elsewhere', 'findings.md'))).to.equal(true);
    } finally {
      spawnSync('umount', ['-l', full]);
    }
  });
});
