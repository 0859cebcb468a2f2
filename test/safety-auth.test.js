'use strict';
// A server with access control (issue 8, finding 9): a missing privilege is reported as such, not
// as "cannot reach MongoDB"; a wrong password as an authentication failure; an unresolvable
// mongodb+srv host as what it is. One line each, no stack.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { labSync, authMongod, errorLines, useTmpDir } = require('./helpers');

describe('safety: access control and host names', function () {
  this.timeout(120000);
  let m; // the mongod with --auth: root, and reader who may only read the database shared
  // registered before the temp dir's: the mongod stops before its folder goes
  after(async function () {
    if (m) await m.kill9();
  });
  const tmp = useTmpDir('safety-auth-');

  before(async function () {
    const reader = { user: 'reader', pwd: 'readerpw', roles: [{ role: 'read', db: 'shared' }] };
    m = await authMongod(fs.mkdtempSync(path.join(tmp.dir, 'db-')), [reader]);
    const c = new MongoClient(`mongodb://root:rootpw@127.0.0.1:${m.port}/admin`);
    try {
      await c.db('shared').collection('data').insertOne({ _id: 1 });
    } finally {
      await c.close();
    }
  });

  const cli = (args) => labSync(args, { cwd: tmp.dir, timeoutMs: 60000 });
  const line = (res) => {
    const lines = errorLines(res);
    expect(lines, res.stderr).to.have.length(1);
    return lines[0];
  };

  it('a user without the privilege to write: "lacks a privilege", not "cannot reach"', function () {
    const f = path.join(tmp.dir, 'a.csv');
    fs.writeFileSync(f, 'a,b\n1,2\n');
    const res = cli([
      'import',
      f,
      '--uri',
      `mongodb://reader:readerpw@127.0.0.1:${m.port}/admin`,
      '--db',
      'shared',
      '--coll',
      'x',
      '--no-progress',
    ]);
    expect(res.status).to.equal(1);
    const l = line(res);
    expect(l).to.match(/lacks a privilege/);
    expect(l).to.not.match(/cannot reach/);
    expect(l).to.contain('mongodb://***@'); // the password is never printed
  });

  it('a wrong password: "authentication failed"', function () {
    const res = cli(['run', 'where', '--uri', `mongodb://reader:wrong@127.0.0.1:${m.port}/admin`, '--db', 'shared']);
    expect(res.status).to.equal(1);
    expect(line(res)).to.match(/authentication failed/);
  });

  it('an unresolvable mongodb+srv host: one line, no stack', function () {
    const res = cli([
      'import',
      path.join(tmp.dir, 'a.csv'),
      '--uri',
      'mongodb+srv://cluster0.nowhere.invalid/admin',
      '--no-progress',
    ]);
    expect(res.status).to.equal(1);
    expect(line(res)).to.match(/cannot resolve|cannot reach/);
  });
});
