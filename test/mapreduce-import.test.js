'use strict';
// Source 000's fixtures: the sensor-log CSV generator and the streaming importer (bad rows, reject
// file, rows read = stored + rejected, re-imports add nothing), against the real server.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { useTestDatabase } = require('./helpers');
const { importCsv } = require('../lib/infra/csv-import');
const sensors = require('../fixtures/sensors');
const LabSensorGen = require('../fixtures/sensor-gen');
const { ROOT } = require('../lib/core/shell-runner');

const BROKEN = path.join(__dirname, 'fixtures', 'broken-sensors.csv');

describe('mapreduce fixtures: sensor CSV generator and importer', function () {
  const t = useTestDatabase('mr_import', { tmp: 'mr-import-test-' });

  // The strict number and timestamp parsers alone (no server): test/unit/mapreduce-import.test.js.
  it('rejects broken rows into a reject file with file, line, field and reason; read = stored + rejected', async function () {
    const rejectsFile = path.join(t.tmp, 'rejects.csv');
    const r = await importCsv(t.db, [BROKEN], { coll: 'broken', key: 'timestamp', rejectsFile });
    expect(r.read).to.equal(14); // 15 lines, 1 header
    expect(r.stored).to.equal(6);
    expect(r.rejected).to.equal(8);
    expect(r.read).to.equal(r.stored + r.rejected);
    expect(r.inserted).to.equal(6);
    expect(r.rejectsFile).to.equal(rejectsFile);

    const rows = fs.readFileSync(rejectsFile, 'utf8').trim().split('\n');
    expect(rows[0]).to.equal('file,line,field,value,reason');
    const byLine = Object.fromEntries(rows.slice(1).map((l) => [Number(l.split(',')[1]), l]));
    expect(
      Object.keys(byLine)
        .map(Number)
        .sort((a, b) => a - b),
    ).to.deep.equal([4, 6, 7, 8, 10, 11, 13, 14]);
    for (const l of rows.slice(1)) expect(l.startsWith('broken-sensors.csv,')).to.equal(true);
    expect(byLine[4]).to.contain('expected 4 fields, found 2');
    expect(byLine[6]).to.contain('engine_rpm,abc,not a number');
    expect(byLine[7]).to.contain('empty line');
    expect(byLine[8]).to.contain('timestamp,2015-02-30T10:00:00Z,"bad timestamp');
    expect(byLine[10]).to.contain('expected 4 fields, found 5');
    expect(byLine[11]).to.contain('timestamp,yesterday,"bad timestamp');
    expect(byLine[13]).to.contain('engine_rpm,-,not a number');
    expect(byLine[14]).to.contain('unparseable CSV');

    const docs = await t.db.collection('broken').find().sort({ _id: 1 }).toArray();
    expect(docs.map((d) => d._id)).to.deep.equal(
      [1, 2, 4, 9, 12, 15].map((s) => new Date(Date.UTC(2015, 0, 1, 0, 0, s))),
    );
    expect(docs[0]).to.deep.equal({
      _id: new Date('2015-01-01T00:00:01Z'),
      timestamp: new Date('2015-01-01T00:00:01Z'),
      engine_rpm: 812.5,
      vehicle_speed_obd_mph: 0,
      note: 'idle',
    });
    expect(docs[1]).to.not.have.property('note'); // blank cell: no field, not ""
    expect(docs[3]).to.not.have.property('engine_rpm');
    expect(docs[4].note).to.equal('quoted, with comma');
  });

  it('re-importing the same file adds nothing', async function () {
    const r = await importCsv(t.db, [BROKEN], {
      coll: 'broken',
      key: 'timestamp',
      rejectsFile: path.join(t.tmp, 'rejects2.csv'),
    });
    expect(r.read).to.equal(14);
    expect(r.inserted).to.equal(0);
    expect(r.duplicates).to.equal(6);
    expect(r.rejected).to.equal(8);
    expect(await t.db.collection('broken').countDocuments()).to.equal(6);
  });

  it('round-trips generated sensor files: documents equal the generator rows, in _id order', async function () {
    const n = 2500;
    const files = await sensors.write(path.join(t.tmp, 'gen'), n, { seed: 7, rowsPerFile: 1000 });
    expect(files.map((f) => path.basename(f))).to.deep.equal(['obd-s7-000.csv', 'obd-s7-001.csv', 'obd-s7-002.csv']);
    const r = await importCsv(t.db, files, {
      coll: 'gen',
      key: 'timestamp',
      rejectsFile: path.join(t.tmp, 'gen-rejects.csv'),
    });
    expect(r).to.include({ read: n, stored: n, inserted: n, rejected: 0, rejectsFile: null });
    expect(Object.keys(r.files[0].kinds)).to.have.length(41);
    expect(r.files[0].kinds.timestamp).to.equal('date');
    const next = LabSensorGen.rng(7);
    const cursor = t.db.collection('gen').find().sort({ _id: 1 });
    let i = 0;
    let blanks = 0;
    for await (const d of cursor) {
      const want = LabSensorGen.doc(next, i);
      blanks += 40 - (Object.keys(d).length - 2);
      expect({ ...d, _id: i }, `row ${i}`).to.deep.equal(want);
      i++;
    }
    expect(i).to.equal(n);
    expect(blanks).to.be.greaterThan(0); // some readings are blank, as in real logs
    const { avgObjSize } = await t.db.command({ collStats: 'gen' });
    expect(avgObjSize).to.be.within(1200, 1700); // the source's ~1400-byte documents
  });

  it('the CLI imports with a progress-free summary and exits 1 when rows were rejected; a re-import adds nothing', function () {
    const importCli = () =>
      spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'bin', 'mongo-perf-lab.js'),
          'import',
          BROKEN,
          '--uri',
          t.uri,
          '--db',
          t.dbName,
          '--coll',
          'cli',
          '--rejects',
          path.join(t.tmp, 'cli-rejects.csv'),
          '--no-progress',
        ],
        { cwd: os.tmpdir(), encoding: 'utf8' },
      );
    // The first import, then the same file again: what each run's summary says.
    for (const said of [
      [
        'rows read 14 = stored 6 (new 6, already there 0) + rejected 8',
        'line 6, field engine_rpm = "abc": not a number',
      ],
      ['rows read 14 = stored 6 (new 0, already there 6) + rejected 8'],
    ]) {
      const res = importCli();
      expect(res.status, res.stderr).to.equal(1);
      for (const line of said) expect(res.stdout).to.contain(line);
    }
  });
});
