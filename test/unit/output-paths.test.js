'use strict';
// makeDirs when another process creates the same folder between its look and its mkdir (two runs
// started at once in a fresh folder): the loser must go on, not fail with EEXIST.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { makeDirs } = require('../../lib/infra/output-paths');

describe('output paths: makeDirs', function () {
  let tmp;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-dirs-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('goes on when the folder appears between its look and its mkdir (a concurrent run made it)', function () {
    const target = path.join(tmp, 'results', 'run');
    const mkdir = fs.mkdirSync;
    fs.mkdirSync = (d, ...rest) => {
      mkdir(d, ...rest); // the other run wins the race...
      return mkdir(d, ...rest); // ...and this one's mkdir finds it there
    };
    try {
      makeDirs(target);
    } finally {
      fs.mkdirSync = mkdir;
    }
    expect(fs.statSync(target).isDirectory()).to.equal(true);
  });

  it('still fails when a file, not a folder, stands in the way', function () {
    const target = path.join(tmp, 'results');
    const mkdir = fs.mkdirSync;
    fs.mkdirSync = (d) => {
      fs.writeFileSync(d, 'not a folder');
      return mkdir(d);
    };
    try {
      expect(() => makeDirs(target)).to.throw(/EEXIST/);
    } finally {
      fs.mkdirSync = mkdir;
    }
  });
});

describe('output paths: a run that writes nothing leaves no folder', function () {
  let tmp;
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-dirs-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  // A process that asks for `dir`, creates it as a run does, writes `file` into it or not, and exits
  // (code 1: as a refused run does).
  const runIn = (dir, file) => {
    const { spawnSync } = require('child_process');
    const mod = require.resolve('../../lib/infra/output-paths');
    const code = `const o = require(${JSON.stringify(mod)}); o.removeIfLeftEmpty(process.argv[1]);
      o.makeDirs(process.argv[1]); if (process.argv[2]) require('fs').writeFileSync(process.argv[2], '{}');
      process.exit(1);`;
    const r = spawnSync(process.execPath, ['-e', code, dir, file || ''], { encoding: 'utf8' });
    expect(r.stderr).to.equal('');
  };

  it('the folders it made for itself go when they are still empty at exit, up to the first that was there', function () {
    runIn(path.join(tmp, 'results', '20261128-150802'));
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
    fs.mkdirSync(path.join(tmp, 'results'));
    fs.writeFileSync(path.join(tmp, 'results', 'older.json'), '{}');
    runIn(path.join(tmp, 'results', '20261128-150803'));
    expect(fs.readdirSync(path.join(tmp, 'results'))).to.deep.equal(['older.json']);
  });

  it('an empty folder it did not make stays (another run started in the same second made it)', function () {
    const shared = path.join(tmp, 'results', '20261128-150804');
    fs.mkdirSync(shared, { recursive: true });
    runIn(shared);
    expect(fs.readdirSync(path.join(tmp, 'results'))).to.deep.equal(['20261128-150804']);
  });

  it('a folder with anything in it stays, its parents too (partial results are kept)', function () {
    const dir = path.join(tmp, 'a', 'b');
    runIn(dir, path.join(dir, 'results.json'));
    expect(fs.readdirSync(dir)).to.deep.equal(['results.json']);
  });
});
