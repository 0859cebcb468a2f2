'use strict';
// Imports of a user's files never lose a row silently: a repeated --key is a rejected row with
// where the key was first seen; bytes that are not UTF-8 are rejected at their line (or decoded by
// a declared --encoding latin1); a rejects file that cannot be written gives the summary and one
// line; a glob that matches an earlier rejects file is refused; and mongod killed while the
// importer counts a written batch, back 3 s later, does not end the import.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { useTestDatabase, sleep, lab, labSync, ownMongod, freePort } = require('./helpers');
const { importCsv, ImportError, ImportWriteError } = require('../lib/infra/csv-import');

const cli = (args) => labSync(['import', ...args, '--no-progress'], { cwd: process.cwd(), timeoutMs: 120000 });

describe("import of a user's files: every row stored or rejected with its reason", function () {
  const t = useTestDatabase('userdata_import', { tmp: 'userdata-import-' });
  const logs = [];
  const log = (m) => logs.push(m);
  beforeEach(function () {
    logs.length = 0;
  });

  const file = (name, content) => {
    const f = path.join(t.tmp, name);
    fs.writeFileSync(f, content);
    return f;
  };
  const rejectsOf = (f) => fs.readFileSync(f, 'utf8').trim().split('\n').slice(1);

  it('a repeated --key is a rejected row naming the line of the first ("key already in this file at line N")', async function () {
    const f = file('k.csv', 'k,v\n1,a\n2,b\n1,c\n3,d\n1.0,e\n');
    const rej = path.join(t.tmp, 'k.rej.csv');
    const r = await importCsv(t.db, [f], { coll: 'keyed', key: 'k', rejectsFile: rej, log });
    expect([r.read, r.stored, r.rejected, r.inserted]).to.deep.equal([5, 3, 2, 3]);
    expect(r.read).to.equal(r.stored + r.rejected);
    expect(rejectsOf(rej)).to.deep.equal([
      'k.csv,4,k,1,key already in this file at line 2',
      'k.csv,6,k,1.0,key already in this file at line 2',
    ]);
    expect((await t.db.collection('keyed').findOne({ _id: 1 })).v).to.equal('a');
    // a second file of the same import names the file; an earlier import's key is "already there"
    const g = file('k2.csv', 'k,v\n3,x\n4,y\n');
    const r2 = await importCsv(t.db, [f, g], { coll: 'keyed', key: 'k', rejectsFile: rej, log });
    expect([r2.read, r2.stored, r2.duplicates, r2.rejected]).to.deep.equal([7, 4, 3, 3]);
    expect(rejectsOf(rej)[2]).to.equal('k2.csv,2,k,3,key already in k.csv at line 5');
  });

  it('bytes that are not UTF-8 reject their row at its line; --encoding latin1 decodes them', async function () {
    const f = path.join(t.tmp, 'latin1.csv');
    fs.writeFileSync(
      f,
      Buffer.concat([
        Buffer.from('name,n\nok,1\ncaf'),
        Buffer.from([0xe9]),
        Buffer.from(',2\n"multi\nline'),
        Buffer.from([0xff]),
        Buffer.from('",3\nend,4\n'),
      ]),
    );
    const rej = path.join(t.tmp, 'latin1.rej.csv');
    const r = await importCsv(t.db, [f], { coll: 'enc_utf8', rejectsFile: rej, log });
    expect([r.read, r.stored, r.rejected]).to.deep.equal([4, 2, 2]);
    const lines = rejectsOf(rej);
    expect(lines[0]).to.equal(
      'latin1.csv,3,,,"bytes that are not UTF-8 (0xe9 at byte 4 of the line): save the file as UTF-8, or declare its encoding with --encoding latin1"',
    );
    expect(lines[1]).to.match(/^latin1\.csv,5,,,"bytes that are not UTF-8 \(0xff at byte 5/);
    expect((await t.db.collection('enc_utf8').find().toArray()).filter((d) => /\ufffd/.test(d.name))).to.have.length(0);
    const r2 = await importCsv(t.db, [f], { coll: 'enc_latin1', encoding: 'latin1', rejectsFile: rej, log });
    expect([r2.read, r2.stored, r2.rejected]).to.deep.equal([4, 4, 0]);
    expect(await t.db.collection('enc_latin1').countDocuments({ name: { $in: ['café', 'multi\nlineÿ'] } })).to.equal(2);
    let err;
    try {
      await importCsv(t.db, [f], { coll: 'enc_x', encoding: 'utf16', rejectsFile: rej });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ImportError);
    expect(err.message).to.equal('--encoding "utf16": expected one of utf8, latin1');
  });

  it('a rejects file on a full disk: the summary, then one line; no unhandled error event (library and CLI)', async function () {
    const f = file(
      'bad.csv',
      'a,b\n1,2\n3,4,5\n' + Array.from({ length: 3000 }, (_, i) => `${i},${i},extra`).join('\n') + '\n',
    );
    const full = path.join(t.tmp, 'full.rej.csv');
    fs.symlinkSync('/dev/full', full);
    let err;
    try {
      await importCsv(t.db, [f], { coll: 'full', rejectsFile: full, log });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ImportWriteError);
    expect(err.message).to.match(
      /^the rejects file .*full\.rej\.csv could not be written \(ENOSPC: no space left on the device\): the 3001 rejected rows are counted above/,
    );
    expect(logs[0]).to.equal('bad.csv: rows read 3002 = stored 1 (new 1, already there 0) + rejected 3001');
    expect(fs.lstatSync(full).isSymbolicLink(), 'the device link is left as it was').to.equal(true);
    const res = cli([f, '--uri', t.uri, '--db', t.dbName, '--coll', 'full_cli', '--rejects', full]);
    expect(res.status).to.equal(1);
    expect(res.stdout).to.contain('rows read 3002 = stored 1 (new 1, already there 0) + rejected 3001');
    expect(res.stderr.trim().split('\n')).to.have.length(1);
    expect(res.stderr).to.match(/could not be written \(ENOSPC: no space left on the device\)/);
    expect(res.stderr).to.not.match(/\n\s+at |Unhandled 'error' event/);
  });

  it('a pattern that matched an earlier rejects file is refused in one line, and that file is kept', async function () {
    const f = file('g.csv', 'a,b\n1,2\n3\n');
    const first = cli([f, '--uri', t.uri, '--db', t.dbName, '--coll', 'globbed']);
    expect(first.status).to.equal(1); // one row rejected
    const rej = `${f}.rejects.csv`;
    expect(fs.existsSync(rej)).to.equal(true);
    const again = cli([f, rej, '--uri', t.uri, '--db', t.dbName, '--coll', 'globbed']);
    expect(again.status).to.not.equal(0);
    expect(again.stderr.split('\n')[0]).to.match(
      /g\.csv\.rejects\.csv is this import's rejects file \(did a pattern like \*\.csv match it\?\): leave it out of the files, or move it away, and run again$/,
    );
    expect(fs.existsSync(rej)).to.equal(true);
    const other = cli([
      f,
      rej,
      '--uri',
      t.uri,
      '--db',
      t.dbName,
      '--coll',
      'globbed',
      '--rejects',
      path.join(t.tmp, 'elsewhere.csv'),
    ]);
    expect(other.stderr.trim()).to.match(/is the rejects file of an earlier import/);
  });

  describe('mongod killed while the importer counts a written batch, back 3 s later', function () {
    this.timeout(300000);
    let mongod;
    let port;
    let dbpath;
    const start = async () => {
      mongod = await ownMongod(dbpath, { port });
    };
    const kill9 = () => mongod.kill9();

    before(async function () {
      port = await freePort();
      dbpath = fs.mkdtempSync(path.join(t.tmp, 'db-'));
      await start();
    });
    after(async function () {
      if (mongod) await kill9();
    });

    it('the import finishes: rows read = stored, every row there (the count check is retried like the batch)', async function () {
      const rows = 60000;
      const f = file('big.csv', 'k,v\n' + Array.from({ length: rows }, (_, i) => `${i},${i * 3}`).join('\n') + '\n');
      const uri = `mongodb://127.0.0.1:${port}`;
      const c = new MongoClient(uri, { serverSelectionTimeoutMS: 2000 });
      // Counts (aggregate) after the 3rd hang: the inserts in flight finish, then every batch waits
      // in its count, and the kill lands there, whatever the machine's speed.
      await c.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: { skip: 3 },
        data: { failCommands: ['aggregate'], blockConnection: true, blockTimeMS: 600000 },
      });
      const { io, done } = lab(['import', f, '--uri', uri, '--db', 'killed', '--coll', 'csv', '--no-progress']);
      let last = -1;
      for (;;) {
        const n = await c
          .db('killed')
          .collection('csv')
          .estimatedDocumentCount()
          .catch(() => 0);
        if (n > 0 && n === last) break; // stalled: every batch in flight waits in its count
        last = n;
        await sleep(1000);
      }
      await c.close();
      await kill9();
      await sleep(3000);
      await start();
      const { code } = await done;
      expect(code, io.out + io.err).to.equal(0);
      expect(io.out).to.contain(`rows read ${rows} = stored ${rows}`);
      expect(io.err).to.not.match(/cannot reach MongoDB/);
      const c2 = new MongoClient(uri);
      try {
        expect(await c2.db('killed').collection('csv').countDocuments()).to.equal(rows);
      } finally {
        await c2.close();
      }
    });
  });
});
