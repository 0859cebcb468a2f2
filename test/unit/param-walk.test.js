'use strict';
// tools/param-walk.js counts a parameter's walk through the lab's files (#35): stops, distinct files
// entered and returns to a file it had left. The counting, on synthetic sequences (no server), and
// the walk's first leg as far as it goes before any server starts.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { countWalk, legsOf, summaryOf, carries, labFile, abridge } = require('../../tools/param-walk');

const walk = (files) => files.map((f, i) => ({ file: f, fn: `f${i}` }));
// 'file:fn' -> a stop, as abridge() prints one
const stopsOf = (...at) => at.map((x) => ({ file: x.slice(0, x.indexOf(':')), fn: x.slice(x.indexOf(':') + 1) }));

describe('param-walk: counting a walk', function () {
  it('counts stops, files entered and returns to a file it had left', function () {
    // a -> b -> a (return) -> a (same file, no return) -> c -> b (return) -> a (return)
    expect(countWalk(walk(['a', 'b', 'a', 'a', 'c', 'b', 'a']))).to.deep.equal({ stops: 7, files: 3, returns: 3 });
  });

  it('an empty walk and a walk that stays in one file have no returns', function () {
    expect(countWalk([])).to.deep.equal({ stops: 0, files: 0, returns: 0 });
    expect(countWalk(walk(['a', 'a', 'a']))).to.deep.equal({ stops: 3, files: 1, returns: 0 });
  });

  it('a ping-pong between two files returns on every stop after the second', function () {
    expect(countWalk(walk(['a', 'b', 'a', 'b', 'a', 'b']))).to.deep.equal({ stops: 6, files: 2, returns: 4 });
  });

  it('finds the value deep in arguments, as a number or a string, never through a getter', function () {
    expect(carries([{ p: { N: 1234 } }], 1234)).to.equal(true);
    expect(carries(['--docs', '1234'], 1234)).to.equal(true);
    expect(carries(['--docs=1234'], 1234)).to.equal(true);
    expect(carries([12345, '51234', { N: 123 }], 1234)).to.equal(false);
    const o = {};
    Object.defineProperty(o, 'N', { enumerable: true, get: () => 1234 });
    expect(carries([o], 1234)).to.equal(false);
    const loop = { a: {} };
    loop.a.back = loop;
    expect(carries([loop], 1234)).to.equal(false);
  });

  it('with keys, the number counts only as an argument itself or under N or docs', function () {
    const keys = { keys: ['N', 'docs'] };
    expect(carries([1234], 1234, keys)).to.equal(true);
    expect(carries([{ params: { where: { N: 1234 } } }], 1234, keys)).to.equal(true);
    expect(carries([{ server: { docsExamined: 1234 } }], 1234, keys)).to.equal(false);
    expect(carries([{ server: { docsExamined: 1234 } }], 1234)).to.equal(true);
    expect(carries([['run', '--docs', '1234']], 1234, keys)).to.equal(true);
  });

  it('cuts the walk into legs: out to the last configure, the study, back from the claims', function () {
    const stops = stopsOf(
      'lib/cli/run.js:run',
      'scripts/lib/lab.js:lab.node.configure',
      'lib/core/shell-runner.js:ShellSession#call',
      'scripts/lib/lab.js:lab.node.configure',
      'scripts/x.js:count',
      'lib/core/claims.js:judge',
      'lib/studies/x/claims.js:0.verdict',
      'lib/core/claims.js:results',
    );
    expect(legsOf(stops)).to.deep.equal({
      out: { stops: 4, files: 3, returns: 1 },
      study: { stops: 1, files: 1, returns: 0 },
      back: { stops: 3, files: 2, returns: 1 },
    });
    expect(summaryOf(stops)).to.include({ stops: 8, files: 6, returns: 2, bridgeCalls: 1 });
  });

  it("names only the lab's own files (bin, lib, scripts, fixtures), never node_modules or tools", function () {
    expect(labFile('/r/lib/core/session.js', '/r')).to.equal('lib/core/session.js');
    expect(labFile('/r/scripts/lib/lab.js', '/r')).to.equal('scripts/lib/lab.js');
    expect(labFile('/r/node_modules/mongodb/lib/index.js', '/r')).to.equal(null);
    expect(labFile('/r/tools/param-walk.js', '/r')).to.equal(null);
    expect(labFile('/elsewhere/lib/x.js', '/r')).to.equal(null);
  });

  it('abridges consecutive stops of one function into one line with a count', function () {
    const stops = stopsOf('a:x', 'a:x', 'b:y', 'a:x');
    expect(abridge(stops)).to.deep.equal(['a:x x2', 'b:y', 'a:x']);
  });
});

describe('param-walk: --docs before any server (the hook, offline)', function () {
  this.timeout(30000);

  it('is parsed and checked once in options.js, then handed on as a value: no file entered twice', function () {
    const root = path.join(__dirname, '..', '..');
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'param-walk-test-'));
    try {
      const trace = path.join(tmp, 'trace.json');
      // --out in a place no file can be written: refused after the parameters' check, before a server
      const run = ['run', 'where', '--profile', 'tiny', '--docs', '1234', '--no-progress', '--quiet'];
      const argv = [path.join(root, 'bin', 'mongo-perf-lab.js'), ...run, '--out', '/proc/no-such-dir/out'];
      const r = spawnSync(process.execPath, ['-r', path.join(root, 'tools', 'param-walk.js'), ...argv], {
        cwd: root,
        env: { ...process.env, PARAM_WALK_OUT: trace, PARAM_WALK_VALUE: '1234' },
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).to.equal(2);
      // bin's error line asks debugEnabled(argv): the refusal's own path, not the parameter's
      const own = JSON.parse(fs.readFileSync(trace, 'utf8')).stops.filter((s) => s.own && !/debugEnabled/.test(s.fn));
      expect(abridge(own)).to.deep.equal([
        'lib/cli/options.js:parseCommand',
        'lib/cli/run.js:parse',
        'lib/cli/run.js:run',
        'scripts/lib/lab.js:lab.node.configure',
        'lib/studies/where/index.js:derived',
      ]);
      expect(countWalk(own).returns).to.equal(0);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
