'use strict';
// The house's floors run one way (#35 item 1): bin, bench, tools, test -> lib/cli -> lib/studies ->
// lib/report -> lib/core -> lib/infra -> scripts/lib (with the shell side). No file requires a file
// on a higher floor, and no files require each other in a circle. tools/import-graph.js reads the
// graph from the files' require() calls; `node tools/import-graph.js --stats` prints it.
const { expect } = require('chai');
const graph = require('../../tools/import-graph');

// Known, named, and to be emptied by their owners: a file here may import up until its move lands.
const NOT_YET = [];

describe('floors: the import graph runs one way', function () {
  const g = graph.readGraph();

  it('no file of lib/, bin, bench or tools requires a file on a higher floor', function () {
    const up = graph
      .upImports(g)
      .filter((u) => !NOT_YET.includes(u.from))
      .map((u) => `${u.from}:${u.line} -> ${u.to}`);
    expect(up).to.deep.equal([]);
  });

  it('no circle of files', function () {
    expect(graph.circles(g)).to.deep.equal([]);
  });

  it('the reader sees requires where they are: top level, inside a function, in an arrow, not in strings or comments', function () {
    const found = graph.requiresOf(
      [
        "const a = require('./a');",
        '// require("./comment")',
        'const s = \'require("./string")\';',
        'const t = `${x} require("./template")`;',
        "function f() { return require('./inside'); }",
        "const g = () => require('./arrow');",
        "class C { m() { require('./method'); } }",
        "if (x) { require('./block'); }",
        "const re = /require\\('x'\\)/; obj.require('./member');",
      ].join('\n'),
    );
    expect(found.map((r) => [r.spec, r.inFunction])).to.deep.equal([
      ['./a', false],
      ['./inside', true],
      ['./arrow', true],
      ['./method', true],
      ['./block', false],
    ]);
  });

  it('knows the floors of the folders', function () {
    expect(
      ['bin/mongo-perf-lab.js', 'lib/cli/run.js', 'fixtures/where-ab.js', 'lib/core/x.js', 'fixtures/gen.js'].map(
        (f) => graph.FLOORS[graph.floorOf(f)].name,
      ),
    ).to.deep.equal(['bin, bench, tools, test', 'lib/cli', 'lib/studies', 'lib/core', 'scripts/lib']);
  });
});
