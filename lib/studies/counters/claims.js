'use strict';
// The source's claims (004, "MongoDB Schema Design at Scale"), judged on the counters study's records.
const lab = require('../../../scripts/lib/lab');
const { wpsOver, ratioOver, scanRatio } = require('./records');


const START_H = [0, 1];
const END_H = [22, 23];
const f2 = (x) => (x === null || x === undefined ? '?' : x.toFixed(2));
const fInt = (x) => (x === null || x === undefined ? '?' : lab.fmtInt(Math.round(x)));

// ---- the source's findings ---------------------------------------------------------------------
// Absolute writes/s move with everything else on a shared machine during a long run; the verdicts
// rest on ratios between schemas taken minute by minute (the same hits, adjacent in time), compared
// between the start (00-02h) and the end (22-24h) of the day: "does schema X lose ground against the
// preallocated one through the day?" The source's own 2-hour medians give the same statistic.
function drift(records, schema, base) {
  const s = ratioOver(records, schema, base, START_H);
  const e = ratioOver(records, schema, base, END_H);
  return s === null || e === null ? null : { start: s, end: e, change: e / s };
}

module.exports = [
  {
    id: '004-growing-documents-collapse',
    seed: 'growing documents collapse the write rate through the day',
    seedFigure: '3,000-5,000 -> 200-300 writes/s; 2-hour medians initial 3,426 -> 375, i.e. from 0.98x to 0.24x the preallocated schema (0.25x)',
    setting: 'MongoDB 2.x, MMAPv1, EC2, pymongo, one writer process',
    verdict(records) {
      const d = drift(records, 'initial', 'preallocated');
      if (!d) return { verdict: 'not-measurable', figure: null, why: 'needs the initial and preallocated schemas at 00-02h and 22-24h' };
      const s = wpsOver(records, 'initial', START_H);
      const e = wpsOver(records, 'initial', END_H);
      const figure = `initial ${fInt(s)} -> ${fInt(e)} writes/s; from ${f2(d.start)}x to ${f2(d.end)}x the preallocated schema (${f2(d.change)}x)`;
      if (d.change < 0.4) return { verdict: 'holds', figure, why: 'the growing schema loses most of its rate against the preallocated one by the end of the day' };
      if (d.change < 0.8) return { verdict: 'changed', figure, why: 'the growing schema loses some ground, far from the source\'s collapse' };
      return { verdict: 'obsolete', figure, why: 'WiredTiger never updates a document in place, it writes a new version on every update: growth no longer forces a move, so growing documents cost about what full ones do' };
    },
  },
  {
    id: '004-preallocation-fixes-it',
    seed: 'preallocating tomorrow\'s document (small probability per hit, safe to repeat) fixes most of it',
    seedFigure: 'at the end of the day preallocated 1,551 vs initial 375 writes/s (4.1x)',
    setting: 'MongoDB 2.x, MMAPv1',
    verdict(records) {
      const end = ratioOver(records, 'preallocated', 'initial', END_H);
      const d = drift(records, 'initial', 'preallocated');
      if (end === null || !d) return { verdict: 'not-measurable', figure: null, why: 'needs the initial and preallocated schemas' };
      const figure = `preallocated / initial at 22-24h: ${f2(end)}x`;
      if (end >= 2) return { verdict: 'holds', figure, why: 'preallocation keeps most of the rate the growing schema loses' };
      if (d.change >= 0.8) return { verdict: 'obsolete', figure, why: 'there is no collapse left to fix; preallocation still gives fixed-size documents and no midnight burst of inserts, and is safe to repeat and to race with recordHit (tested)' };
      return { verdict: 'changed', figure, why: 'preallocation helps less than in the source' };
    },
  },
  {
    id: '004-field-scan-hierarchy',
    seed: 'the remaining trend is BSON\'s linear field scan (minute 1439 after 1439 comparisons); minute.HH.MM flattens it',
    seedFigure: 'preallocated 3,506 -> 1,551 writes/s, hierarchical 3,540 -> 3,332: hierarchical / preallocated from 1.01x to 2.15x (2.1x)',
    setting: 'MongoDB 2.x, MMAPv1',
    verdict(records) {
      const flat = scanRatio(records, 'flat', 'bulk');
      const hier = scanRatio(records, 'hierarchical', 'bulk');
      const single = scanRatio(records, 'flat', 'single');
      const many = scanRatio(records, 'flat', 'updateMany');
      const d = drift(records, 'hierarchical', 'preallocated');
      if (flat === null || hier === null) return { verdict: 'not-measurable', figure: null, why: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
      const figure = `minute 1439 / minute 0 per update: flat ${f2(flat)}x in bulk, ${f2(many)}x with updateMany, ${f2(single)}x with one round trip each; ` +
        `hierarchical 23:59 / 00:00 ${f2(hier)}x in bulk` + (d ? `; over the day hierarchical / preallocated goes from ${f2(d.start)}x to ${f2(d.end)}x (${f2(d.change)}x)` : '');
      if (flat < 1.3) return { verdict: 'obsolete', figure, why: 'no measurable cost of the field\'s position' };
      if (hier > 1.3) return { verdict: 'changed', figure, why: 'the scan is there, but the hierarchy does not remove it' };
      if (d && d.change >= 1.25) return { verdict: 'holds', figure, why: 'the scan is there, the hierarchy removes it, and it shows over the day' };
      return { verdict: 'changed', figure, why: 'the scan is real inside the server and the hierarchy removes it, but a hit-by-hit workload hardly sees it: the round trip and the write of the whole document cost far more' };
    },
  },
  {
    id: '004-array-no-faster',
    seed: 'an array of 1,440 minutes is no faster than a sub-document (from the comments)',
    seedFigure: 'no figure (a comment)',
    setting: 'MongoDB 2.x, MMAPv1',
    verdict(records) {
      const arr = scanRatio(records, 'array', 'bulk');
      const flat = scanRatio(records, 'flat', 'bulk');
      const d = drift(records, 'array', 'preallocated');
      const end = ratioOver(records, 'array', 'preallocated', END_H);
      if (arr === null) return { verdict: 'not-measurable', figure: null, why: 'the minute 0 vs 1439 measurement did not run (SCAN)' };
      const figure = `array minute 1439 / minute 0 in bulk ${f2(arr)}x (flat ${f2(flat)}x)` + (d ? `; array / preallocated writes/s ${f2(end)}x at 22-24h (${f2(d.change)}x its 00-02h ratio)` : '');
      if (arr >= 1.3 && (!d || (d.change > 0.8 && d.change < 1.25))) return { verdict: 'holds', figure, why: 'an array element is found by walking the array like a field, no index arithmetic: the array pays the same scan and gains nothing over the day' };
      return { verdict: 'changed', figure, why: arr < 1.3
        ? 'the array reaches minute 1439 about as fast as minute 0 (no walk along the array): for late minutes it is faster than a sub-document'
        : `the array pays the same scan but ${d.change >= 1.25 ? 'gains' : 'loses'} ground against the preallocated sub-document over the day (${f2(d.change)}x)` };
    },
  },
];

