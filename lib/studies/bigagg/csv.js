'use strict';
// The CSV the MOT-like records would have come from (001-bigagg-bson-vs-csv: "Volume (CSV): 56 GB",
// "Volume (BSON): 88.9GB"). The source loaded the DVSA's anonymised test_result files: one line
// per test, the 14 columns its loader maps to one-letter fields (fixtures/mot-gen.js), dates as
// YYYY-MM-DD, an unknown first-use date empty. The bytes are counted as the lines are made, the
// same records in the same order as the collection holds, without writing the file.
const B = require('./mot');

const COLUMNS = ['t', 'v', 'd', 'c', 'y', 'r', 'm', 's', 'k', 'o', 'u', 'f', 'e', 'i'];
const HEADER =
  'test_id,vehicle_id,test_date,test_class_id,test_type,test_result,test_mileage,postcode_area,make,model,colour,fuel_type,cylinder_capacity,first_use_date';

function cell(v) {
  if (v === undefined || v === null) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record as a CSV line, newline included. */
function line(doc) {
  return `${COLUMNS.map((c) => cell(doc[c])).join(',')}\n`;
}

/** Bytes and lines of the CSV of the first n records of `seed` (header line included). */
function csvBytes(n, seed) {
  let bytes = Buffer.byteLength(`${HEADER}\n`);
  let rows = 0;
  for (const d of B.motDocs(n, seed)) {
    bytes += Buffer.byteLength(line(d));
    rows++;
  }
  return { bytes, rows };
}

module.exports = { csvBytes, line, COLUMNS, HEADER };
