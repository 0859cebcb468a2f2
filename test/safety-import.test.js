'use strict';
// The CSV importer against hostile files (issue 8, findings 1, 3, 4, 6, 9): identity, lossless
// values, header, quote errors, unsafe names, oversized rows, validators; through the function
// and through the CLI (one line per error, exit codes).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { Long, Decimal128 } = require('mongodb');
const { useTestDatabase, rejects, labSync } = require('./helpers');
const { importCsv, parseValue, splitRecord, SAMPLE_ROWS } = require('../lib/infra/csv-import');

describe('safety: CSV import', function () {
  const t = useTestDatabase('safety_import', { tmp: 'safety-import-' });
  let n = 0;
  const file = (name, text) => {
    const f = path.join(t.tmp, name);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    return f;
  };
  const imp = (files, o = {}) =>
    importCsv(t.db, [].concat(files), { rejectsFile: path.join(t.tmp, `rej-${++n}.csv`), ...o });
  const cli = (args) => labSync(args, { cwd: t.tmp, timeoutMs: 60000 });

  it('numbers are stored exactly as written, or kept as text, or rejected', function () {
    expect(parseValue('1500')).to.deep.equal({ value: 1500 });
    expect(parseValue('-0.25')).to.deep.equal({ value: -0.25 });
    expect(parseValue('01000')).to.deep.equal({ text: '01000' });
    expect(parseValue('9007199254740993').value).to.be.instanceOf(Long);
    expect(parseValue('9007199254740993').value.toString()).to.equal('9007199254740993');
    expect(parseValue('12345678901234567890').value).to.be.instanceOf(Decimal128);
    expect(parseValue('12345678901234567890').value.toString()).to.equal('12345678901234567890');
    expect(parseValue('0.12345678901234567').value.toString()).to.equal('0.12345678901234567');
    expect(parseValue('1e400').error).to.match(/out of the range/);
    expect(parseValue('1e-400').error).to.match(/too small/);
    expect(parseValue('abc').error).to.equal('not a number');
    expect(splitRecord('a,"b,""c""",d')).to.deep.equal({ fields: ['a', 'b,"c"', 'd'] });
    expect(splitRecord('a,1"2,d').error).to.match(/quote inside an unquoted field/);
  });

  it('a 17 MB row costs that row, at its line; the other 5,999 are stored (finding 1)', async function () {
    const lines = ['id,payload'];
    for (let i = 0; i < 6000; i++) lines.push(i === 3000 ? `${i},${'x'.repeat(17 * 1024 * 1024)}` : `${i},p${i}`);
    const f = file('big.csv', lines.join('\n') + '\n');
    const r = await imp(f, { coll: 'big', batchSize: 2000 });
    expect(r).to.include({ read: 6000, stored: 5999, rejected: 1, inserted: 5999 });
    expect(r.firstRejects[0]).to.match(/big\.csv, line 3002: .*16 MB/);
    expect(await t.db.collection('big').countDocuments()).to.equal(5999);
  });

  it('a validator refusing rows stops the import with file and line, exit 1, one line (finding 1)', async function () {
    await t.db.createCollection('valid', { validator: { v: { $lt: 100 } } });
    const lines = ['k,v'];
    for (let i = 0; i < 300; i++) lines.push(`${i},${i === 150 ? 500 : i % 50}`);
    const f = file('val.csv', lines.join('\n') + '\n');
    const err = await rejects(imp(f, { coll: 'valid', batchSize: 100, inflight: 1 }));
    expect(err.message).to.match(/val\.csv line 152: Document failed validation/);
    const res = cli(['import', f, '--uri', t.uri, '--db', t.dbName, '--coll', 'valid', '--append', '--no-progress']);
    expect(res.status).to.equal(1);
    expect(res.stderr.trim().split('\n')).to.have.length(1);
    expect(res.stderr).to.match(/^mongo-perf-lab: .*refused .*val\.csv line 152/);
  });

  it('identity: the same file name in two folders, a re-import, an edited file (finding 3)', async function () {
    const a = file('one/log.csv', 'k,v\n1,a\n2,b\n3,c\n');
    const b = file('two/log.csv', 'k,v\n4,d\n5,e\n');
    const r = await imp([a, b], { coll: 'ident' });
    expect(r).to.include({ read: 5, stored: 5, inserted: 5, duplicates: 0 });
    expect(r.files.map((x) => x.inserted)).to.deep.equal([3, 2]);
    const again = await imp([a, b], { coll: 'ident' });
    expect(again).to.include({ inserted: 0, duplicates: 5 });
    // Edited: a row inserted at the top, one changed; the rest shift by a line.
    fs.writeFileSync(a, 'k,v\n0,z\n1,a\n2,B\n3,c\n');
    const edited = await imp(a, { coll: 'ident' });
    expect(edited).to.include({ read: 4, inserted: 2, duplicates: 2 });
    const vs = (await t.db.collection('ident').find().toArray()).map((d) => d.v).sort();
    expect(vs).to.deep.equal(['B', 'a', 'b', 'c', 'd', 'e', 'z']);
  });

  it('--key: the named column is the _id; a blank key and a key repeated in the file reject the row', async function () {
    const f = file('keyed.csv', 'id,v\n007,x\n8,y\n,z\n8,dup\n');
    const r = await imp(f, { coll: 'keyed', key: 'id' });
    expect(r).to.include({ read: 4, stored: 2, inserted: 2, duplicates: 0, rejected: 2 });
    expect(r.firstRejects[1]).to.equal('keyed.csv, line 5, field id = "8": key already in this file at line 3');
    const docs = await t.db.collection('keyed').find().sort({ v: 1 }).toArray();
    expect(docs).to.deep.equal([
      { _id: '007', id: '007', v: 'x' },
      { _id: 8, id: 8, v: 'y' },
    ]);
    expect((await rejects(imp(f, { coll: 'keyed', key: 'nope' }))).message).to.match(/--key "nope" is not a column/);
  });

  it('values are lossless; a text column blank in the first 100 rows still takes text (finding 6)', async function () {
    const lines = ['zip,big,huge,x,note'];
    lines.push('01000,9007199254740993,12345678901234567890,1e400,');
    lines.push('02139,12,99999999999999999999,0.5,');
    for (let i = 0; i < 150; i++) lines.push(`${10000 + i},${i},${i},${i}.5,${i < 120 ? '' : 'word' + i}`);
    const r = await imp(file('vals.csv', lines.join('\n') + '\n'), { coll: 'vals' });
    expect(r).to.include({ read: 152, stored: 151, rejected: 1 });
    expect(r.firstRejects[0]).to.match(/line 2, field x = "1e400": number out of the range/);
    const d = await t.db.collection('vals').findOne({ zip: '02139' });
    expect(d.huge).to.be.instanceOf(Decimal128);
    expect(d.huge.toString()).to.equal('99999999999999999999');
    expect(await t.db.collection('vals').countDocuments({ note: { $type: 'string' } })).to.equal(30);
  });

  it('refuses a file without a header, unsafe names, and binary files, with the reason (finding 6)', async function () {
    const cases = [
      ['nohead.csv', '1,2,3\n4,5,6\n', /line 1: the first line looks like data.*--header/],
      ['proto.csv', 'a,__proto__\n1,2\n', /__proto__ would vanish/],
      ['dot.csv', 'a,b.c\n1,2\n', /contains '\.'/],
      ['dollar.csv', 'a,$b\n1,2\n', /starts with '\$'/],
      ['id.csv', '_id,b\n1,2\n', /named _id.*--key _id/],
      ['nul.csv', 'a,b\u0000c\n1,2\n', /control or invalid characters/],
      [
        'binary.csv',
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff, 0xfe]),
        /control or invalid characters|not valid CSV/,
      ],
      ['empty.csv', '', /empty/],
    ];
    for (const [name, text, re] of cases) {
      const f = file(name, text);
      const err = await rejects(imp(f, { coll: 'refused' }));
      expect(err.message, name).to.match(re);
      expect(err.message, name).to.not.contain('\n');
      const res = cli(['import', f, '--uri', t.uri, '--db', t.dbName, '--coll', 'refused', '--no-progress']);
      expect(res.status, name).to.be.oneOf([1, 2]);
      expect(res.stderr, name).to.not.match(/\n\s+at /);
    }
    expect(await t.db.collection('refused').countDocuments()).to.equal(0);
    const declared = await imp(file('declared.csv', '1,2\n3,4\n'), { coll: 'declared', header: ['a', 'b'] });
    expect(declared).to.include({ read: 2, stored: 2 });
  });

  it('an unclosed quote costs one record, reported at the line it opened (finding 6)', async function () {
    const lines = ['id,name,v'];
    for (let i = 2; i <= 100; i++) lines.push(i === 51 ? `${i},"unclosed,${i}` : `${i},n${i},${i}`);
    lines.push('101,"quoted, with comma",101');
    const r = await imp(file('quote.csv', lines.join('\n') + '\n'), { coll: 'quote' });
    expect(r).to.include({ read: 100, stored: 99, rejected: 1 });
    expect(r.firstRejects).to.deep.equal([
      'quote.csv, line 51: unparseable CSV: a quote opened on this line is never closed',
    ]);
    expect(await t.db.collection('quote').countDocuments({ name: 'quoted, with comma' })).to.equal(1);
    const multi = await imp(file('multi.csv', 'a,b\n1,"two\nlines"\n2,x\n'), { coll: 'multi' });
    expect(multi).to.include({ read: 2, stored: 2, rejected: 0 });
    expect((await t.db.collection('multi').findOne({ a: 1 })).b).to.equal('two\nlines');
  });

  it('the CLI refuses system targets and bad options before connecting (finding 4)', function () {
    const f = file('tiny.csv', 'a,b\n1,2\n');
    for (const args of [
      ['--coll', 'system.js'],
      ['--db', 'admin'],
      ['--db', 'local'],
      ['--db', 'config'],
    ]) {
      const res = cli(['import', f, '--uri', t.uri, ...args]);
      expect(res.status, args.join(' ')).to.equal(2);
      expect(res.stderr).to.match(/never writes there/);
    }
  });

  it('LF, CRLF and a lone CR each end a row; a stray CR never joins two rows (issue 38)', async function () {
    const rows = ['id,v,t', '1,2.5,a', '2,3,"x, y"', '3,4,z'];
    const got = {};
    for (const [name, eol] of [
      ['lf', '\n'],
      ['crlf', '\r\n'],
      ['cr', '\r'],
    ]) {
      const r = await imp(file(`eol-${name}.csv`, rows.join(eol) + eol), { coll: `eol_${name}` });
      expect(r, name).to.include({ read: 3, stored: 3, rejected: 0 });
      got[name] = await t.db
        .collection(`eol_${name}`)
        .find({}, { projection: { _id: 0 } })
        .sort({ id: 1 })
        .toArray();
    }
    expect(got.lf).to.deep.equal([
      { id: 1, v: 2.5, t: 'a' },
      { id: 2, v: 3, t: 'x, y' },
      { id: 3, v: 4, t: 'z' },
    ]);
    expect(got.crlf).to.deep.equal(got.lf);
    expect(got.cr).to.deep.equal(got.lf);
    // a stray CR in an LF file, a CRLF line, a last line without its end: five rows, none merged
    const stray = await imp(file('stray.csv', 'id,v\n1,2\n2,3\r3,4\n4,5\r\n5,6'), { coll: 'stray' });
    expect(stray).to.include({ read: 5, stored: 5, rejected: 0 });
    expect((await t.db.collection('stray').find().sort({ id: 1 }).toArray()).map((d) => [d.id, d.v])).to.deep.equal([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
    ]);
    // a quoted field keeps its line breaks as the file wrote them
    const q = await imp(file('eol-quoted.csv', 'a,b\r1,"two\rlines"\r2,"crlf\r\nin"\r\n'), { coll: 'eol_quoted' });
    expect(q).to.include({ read: 2, stored: 2, rejected: 0 });
    expect((await t.db.collection('eol_quoted').findOne({ a: 1 })).b).to.equal('two\rlines');
    expect((await t.db.collection('eol_quoted').findOne({ a: 2 })).b).to.equal('crlf\r\nin');
    // through the CLI: the old-Mac file's first line is its header, not "data"
    const res = cli([
      'import',
      file('mac.csv', 'name,v\ra,1\rb,2\r'),
      '--uri',
      t.uri,
      '--db',
      t.dbName,
      '--coll',
      'eol_cli',
      '--no-progress',
    ]);
    expect(res.status, res.stderr).to.equal(0);
    expect(res.stdout + res.stderr).to.match(/rows read 2 = stored 2 \(new 2, already there 0\) \+ rejected 0/);
  });

  it('a number no double holds (1e400) is rejected with file and line in any column; text with numbers is reported mixed (issue 38)', async function () {
    // two rows, one each: the number decides the column (1e400 is written as a number)
    const two = await imp(file('range.csv', 'id,v\n1,2\n2,1e400\n'), { coll: 'range' });
    expect(two).to.include({ read: 2, stored: 1, rejected: 1 });
    expect(two.files[0].kinds.v).to.equal('number');
    expect(two.firstRejects).to.deep.equal([
      'range.csv, line 3, field v = "1e400": number out of the range of a double (and of this importer)',
    ]);
    // a column blank in the sample types each value on its own: 1e400 there is rejected too
    const lines = ['id,v'];
    for (let i = 1; i <= SAMPLE_ROWS + 5; i++)
      lines.push(`${i},${i === SAMPLE_ROWS + 3 ? '-1e400' : i > SAMPLE_ROWS ? i : ''}`);
    const late = await imp(file('late.csv', lines.join('\n') + '\n'), { coll: 'late' });
    expect(late.files[0].kinds.v).to.equal('auto');
    expect(late).to.include({ read: SAMPLE_ROWS + 5, stored: SAMPLE_ROWS + 4, rejected: 1 });
    expect(late.firstRejects[0]).to.match(
      new RegExp(`late\\.csv, line ${SAMPLE_ROWS + 4}, field v = "-1e400": number out of the range`),
    );
    expect(await t.db.collection('late').countDocuments({ v: { $type: 'string' } })).to.equal(0);
    // text with a number among it: a mixed column, stored as text, and the summary says so
    const said = [];
    const mixed = await imp(file('mixed.csv', 'id,v\n1,abc\n2,1e400\n3,def\n'), {
      coll: 'mixed',
      log: (l) => said.push(l),
    });
    expect(mixed).to.include({ read: 3, stored: 3, rejected: 0 });
    expect(mixed.files[0].kinds.v).to.equal('mixed');
    expect(said.join('\n')).to.match(
      /column v of mixed\.csv: mixed \(text with some numbers .*\): every value stored as text/,
    );
    expect(await t.db.collection('mixed').countDocuments({ v: { $type: 'string' } })).to.equal(3);
  });
});
