'use strict';
// The mapreduce study's data, arriving as the source's did: sensor-log CSV files, imported.
const fs = require('fs');
const os = require('os');
const path = require('path');
const LabFormat = require('../../../scripts/lib/format');
const sensors = require('../../../fixtures/sensors');
const { META, ForeignDataError } = require('../../infra/loader');
const LabFixture = require('../../../scripts/lib/fixture');
const { inspect, createOwned, dropOwned } = require('../../infra/targets');

/**
 * Makes db.<coll> hold n generated sensor rows, the way a user gets them there: CSV files written
 * to a temporary directory, then imported. Skipped when the lab already imported the same spec.
 */
async function prepareSensors(db, { n, seed = 1, coll = 'sensors', progress, log = () => {} }) {
  const spec = { fixture: sensors.FIXTURE, n, seed };
  const { decision: d, count, target } = await inspect(db, coll, spec);
  if (d.action === 'reuse') return { generated: false, own: true, count, ...spec };
  if (d.action === 'foreign')
    throw new ForeignDataError(LabFixture.foreignMessage(target, d.why, 'import sensor rows into'));
  // resume: the rows' _id is their timestamp, so importing the same files again adds only what is missing.
  if (d.action === 'regenerate') await dropOwned(db, coll);
  if (d.action !== 'resume') await createOwned(db, coll, {}, 'fixture', spec);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-perf-lab-csv-'));
  try {
    const t0 = Date.now();
    const files = await sensors.write(dir, n, { seed });
    log(
      `wrote ${files.length} CSV file(s) of ${LabFormat.fmtInt(n)} rows in ${LabFormat.fmtMs(Date.now() - t0)}; importing`,
    );
    // One batch in flight: documents get record ids in file order, so the first n documents in
    // natural order (what `$limit n` reads) are the first n rows, and the first n by _id as well.
    const { importCsv } = require('../../infra/csv-import'); // required here: `list` reads this module without a server
    const r = await importCsv(db, files, {
      coll,
      key: 'timestamp',
      progress,
      log,
      inflight: 1,
      rejectsFile: path.join(dir, 'rejects.csv'),
    });
    if (r.rejected) throw new Error(`the generated CSV had ${r.rejected} rejected rows: ${r.firstRejects.join('; ')}`);
    await db.collection(META).updateOne({ _id: coll }, { $set: { complete: true, importMs: r.ms } });
    return { generated: true, own: true, count: await db.collection(coll).countDocuments(), importMs: r.ms, ...spec };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { prepareSensors };
