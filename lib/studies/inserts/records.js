'use strict';
// Reading the insert records back: shared by the study's tables and its claims.
const LabFormat = require('../../../scripts/lib/format');

const docsPerSec = (r) => (r && !r.skipped && r.answer ? (r.answer / r.median) * 1000 : null);

function fmtRate(x) {
  return x === null || x === undefined ? '-' : `${LabFormat.fmtInt(Math.round(x))}/s`;
}

function find(records, variant, axis) {
  return records.find(
    (r) =>
      r.type === 'result' &&
      !r.skipped &&
      r.variant === variant &&
      Object.keys(axis).every((k) => r.axis[k] === axis[k]),
  );
}

module.exports = { docsPerSec, fmtRate, find };
