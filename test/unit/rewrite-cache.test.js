'use strict';
// lib/infra/rewrite-cache.js: mongosh's Babel rewrite of a script answered from a cache must give
// byte for byte the text the real rewriter gives, and a hit must not load Babel at all. Each side
// runs in a node process of its own (the cache hooks the module loader); no server.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { expect } = require('chai');

const ROOT = path.join(__dirname, '..', '..');
const WRITER = require.resolve('@mongosh/async-rewriter2/lib/async-writer-babel.js', { paths: [ROOT] });
const { useTmpDir } = require('../helpers');
const SCRIPT = path.join(ROOT, 'scripts', 'where_vs_agg.js');

// Prints the rewritten text's SHA-256 and whether Babel was loaded to produce it.
const probe = (cached) => `
  ${cached ? `require(${JSON.stringify(path.join(ROOT, 'lib', 'infra', 'rewrite-cache.js'))});` : ''}
  const W = require(${JSON.stringify(WRITER)}).default;
  const out = new W().process(require('fs').readFileSync(${JSON.stringify(SCRIPT)}, 'utf8'));
  const babel = Object.keys(require.cache).some((k) => k.includes('${path.sep}@babel${path.sep}core${path.sep}lib${path.sep}'));
  console.log(JSON.stringify({ sha: require('crypto').createHash('sha256').update(out).digest('hex'), babel }));
`;

function run(code, cacheHome) {
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
  delete env.NODE_OPTIONS; // the test run's own preload of the cache
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { env, cwd: ROOT, encoding: 'utf8' }));
}

describe('the cache of mongosh async rewrites', function () {
  this.timeout(60000);
  const home = useTmpDir('lab-rewrite-');

  it('gives the real rewriter text on a miss and on a hit, and a hit loads no Babel', function () {
    const real = run(probe(false), home.dir);
    expect(real.babel).to.equal(true);
    const miss = run(probe(true), home.dir);
    const hit = run(probe(true), home.dir);
    expect(miss.sha).to.equal(real.sha);
    expect(hit.sha).to.equal(real.sha);
    expect(miss.babel).to.equal(true);
    expect(hit.babel).to.equal(false);
    const dir = path.join(home.dir, 'mongo-perf-lab', 'mongosh-rewrite');
    expect(fs.readdirSync(dir)).to.have.length(1); // one folder per rewriter and Babel version
  });
});
