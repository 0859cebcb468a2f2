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
