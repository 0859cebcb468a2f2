'use strict';
// The result format: version 2 types the states version 1 wrote as text, and the reader gives
// every documented result file (docs/data/, version 1) as a valid version-2 document. No server.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const Ajv = require('ajv/dist/2020');
const addFormats = require('ajv-formats');
const { readResults, typedRecord, VERSION } = require('../../lib/core/results');
const LabPlan = require('../../scripts/lib/plan');

const DATA = path.join(__dirname, '..', '..', 'docs', 'data');
const validate = addFormats(new Ajv({ strict: false })).compile(require('../../docs/result-format.schema.json'));

describe('result format version 2', function () {
  it('reads every result file of docs/data (version 1 or 2) as a valid version-2 document, states typed', function () {
    let files = 0;
    for (const f of fs.readdirSync(DATA).filter((x) => x.endsWith('.json'))) {
      const raw = JSON.parse(fs.readFileSync(path.join(DATA, f), 'utf8'));
      if (raw.format !== 'mongo-perf-lab/results') continue;
      const doc = readResults(path.join(DATA, f));
      files++;
      expect(doc.version, f).to.equal(VERSION);
      // A file the schema took as version 1 is valid as version 2 (one that already missed a field still does).
      if (validate(raw)) expect(validate(doc), `${f}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      raw.results.forEach((r, i) => {
        const typed = doc.results[i];
        // A version-2 file (runs made since the states were typed) is read as it was written.
        if (raw.version === VERSION) return expect(typed, f).to.deep.equal(r);
        if (r.skipped) {
          expect(typed.skipped.why, f).to.equal(LabPlan.skipText(r.skipped));
          expect(Object.values(LabPlan.SKIP), f).to.include(typed.skipped.code);
        }
        for (const [j, w] of (r.warnings || []).entries())
          expect(typed.warnings[j].text).to.equal(typeof w === 'object' ? w.text : w);
      });
    }
    expect(files).to.be.greaterThan(10);
  });

  it('types a skipped text by what version 1 wrote, and leaves version-2 records as they are', function () {
    const rec = (skipped) => typedRecord({ type: 'result', study: 's', variant: 'v', axis: {}, skipped }).skipped;
    expect(rec('needs MongoDB >= 5.0')).to.deep.equal({ code: 'version', why: 'needs MongoDB >= 5.0' });
    expect(rec('cannot answer at this point')).to.deep.equal({ code: 'not-here', why: 'cannot answer at this point' });
    expect(rec('PostgreSQL unavailable')).to.deep.equal({ code: 'unavailable', why: 'PostgreSQL unavailable' });
    const v2 = { type: 'result', skipped: { code: 'version', why: 'x' } };
    expect(typedRecord(v2)).to.equal(v2);
    const w = typedRecord({
      type: 'result',
      warnings: ['large spread: σ is 40% of the mean', 'first timed run 3.0x slower than the rest'],
    }).warnings;
    expect(w.map((x) => x.code)).to.deep.equal(['large-spread', 'slow-first-run']);
  });

  it('the record module makes version 2 (a text given for a state is typed); a version-1 busy-machine text is read by its kind', function () {
    const lab = require('../../scripts/lib/lab');
    expect(lab.FORMAT_VERSION).to.equal(VERSION);
    const rec = (o) => lab.resultRecord({ study: 's', variant: 'v', axis: {}, ...o });
    expect(rec({ skipped: lab.notHere() }).skipped).to.deep.equal({
      code: 'not-here',
      why: 'cannot answer at this point',
    });
    expect(rec({ skipped: 'needs MongoDB >= 9.0' }).skipped).to.deep.equal({
      code: 'version',
      why: 'needs MongoDB >= 9.0',
    });
    const timed = lab.timesRecord({ study: 's', variant: 'v', times: [9, 1, 1.2, 1.1], answer: 3, extra: { pass: 1 } });
    expect(timed).to.include({ runs: 4, median: 1.15, answer: 3, capped: false });
    expect(timed.warnings.map((w) => w.code)).to.deep.equal(['large-spread', 'slow-first-run']);
    expect(lab.busyMachine({ start: 5, end: 1, cores: 2 })).to.have.property('code', 'busy-machine');
    const old = { type: 'result', warnings: ['busy machine: load average 5 at start, 1 at end, on 2 cores'] };
    expect(typedRecord(old).warnings[0].code).to.equal('busy-machine');
    expect(lab.isBusy(old)).to.equal(true);
    expect(lab.isBusy(typedRecord(old))).to.equal(true);
  });

  it('plans a point: the version first, then able; a reason from able is "unavailable"', function () {
    const plan = LabPlan.point(
      [{ name: 'old', minVersion: '99.0' }, { name: 'yes' }, { name: 'no' }, { name: 'peer' }],
      '6.0.5',
      (v) => (v.name === 'yes' ? true : v.name === 'no' ? false : 'no PostgreSQL'),
    );
    expect(plan.run.map((v) => v.name)).to.deep.equal(['yes']);
    expect(plan.skipped.map((s) => [s.variant.name, s.skipped.code])).to.deep.equal([
      ['old', 'version'],
      ['no', 'not-here'],
      ['peer', 'unavailable'],
    ]);
  });
});
