'use strict';
// The server module and the shell runner, the parts that need no server: a missing
// MONGOMS_SYSTEM_BINARY, script parameters written as data, the shell connections' timeouts. The
// rest is in test/server.test.js.
const { expect } = require('chai');
const { findMongod, NoMongodError } = require('../../lib/infra/mongod-binary');
const { paramsToShell, shellDriverOptions } = require('../../lib/core/shell-runner');

describe('server', function () {
  it('rejects a MONGOMS_SYSTEM_BINARY that does not exist', function () {
    const before = process.env.MONGOMS_SYSTEM_BINARY;
    process.env.MONGOMS_SYSTEM_BINARY = '/nonexistent/mongod';
    try {
      expect(() => findMongod()).to.throw(NoMongodError, /MONGOMS_SYSTEM_BINARY=\/nonexistent\/mongod does not exist/);
    } finally {
      if (before === undefined) delete process.env.MONGOMS_SYSTEM_BINARY;
      else process.env.MONGOMS_SYSTEM_BINARY = before;
    }
  });
});

describe('shell runner', function () {
  it('writes parameters as JSON values, never as code', function () {
    expect(paramsToShell({ N: 5, COLL: 'a"b', FLAG: true })).to.equal('var N = 5, COLL = "a\\"b", FLAG = true;');
    expect(() => paramsToShell({ N: NaN })).to.throw(/N: null is not a number/);
    expect(() => paramsToShell({ N: { $gt: 1 } })).to.throw(/is not a number, boolean or string/);
    expect(() => paramsToShell({ 'N; db.dropDatabase()': 1 })).to.throw(/bad script parameter name/);
  });

  it("a study's session waits as long as the study's client: a silence mid-run is the liveness watch's to report", function () {
    const timeouts = (o) => [o.serverSelectionTimeoutMS, o.connectTimeoutMS];
    expect(timeouts(shellDriverOptions('mongodb://h'))).to.deep.equal([5000, 5000]);
    expect(timeouts(shellDriverOptions('mongodb://h/?serverSelectionTimeoutMS=100'))).to.deep.equal([undefined, 5000]);
    // the driver's own 30 s, above lib/infra/liveness.js's 12 s window
    expect(timeouts(shellDriverOptions('mongodb://h', { patient: true }))).to.deep.equal([undefined, undefined]);
  });
});
