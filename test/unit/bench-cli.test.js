'use strict';
// The benchmark scripts are commands too: --help says what they do and which options they take, an
// unknown option or a bad value is one line naming it and exit 2, before any server starts.
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');

const BENCH = path.join(__dirname, '..', '..', 'bench');
const run = (file, args) =>
  spawnSync(process.execPath, [path.join(BENCH, file), ...args], { encoding: 'utf8', timeout: 20000 });

describe('bench scripts: --help and bad options', function () {
  this.timeout(30000);
  for (const [file, name, options] of [
    ['loaders.js', 'bench:loaders', ['--n', '--rounds', '--burners', '--inflight', '--only', '--json']],
    ['stability.js', 'bench:stability', ['--profile', '--out', '--uri']],
  ]) {
    it(`${name} --help lists its options; an unknown one is one line, exit 2`, function () {
      const help = run(file, ['--help']);
      expect(help.status).to.equal(0);
      for (const o of options) expect(help.stdout, o).to.include(o);
      const bad = run(file, ['--bogus']);
      expect(bad.status).to.equal(2);
      expect(bad.stderr.trim().split('\n')).to.deep.equal([`${name}: Unknown option '--bogus': see --help`]);
    });
  }

  it('bench:loaders refuses a bad value before starting anything', function () {
    const r = run('loaders.js', ['--pairs', 'x']);
    expect(r.status).to.equal(2);
    expect(r.stderr.trim()).to.equal('bench:loaders: --pairs: expected a whole number >= 1, got "x"');
    const b = run('loaders.js', ['--burners', 'two']);
    expect(b.status).to.equal(2);
    expect(b.stderr.trim()).to.equal('bench:loaders: --burners: expected a whole number >= 0, got "two"');
  });
});
