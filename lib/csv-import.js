'use strict';
// Streams CSV files into a collection with the Node driver: the seed's loader
// (`for row in DictReader(f): db.collection.insert(row)`) with types, accounting and re-runs.
//
// - Any CSV with a header row. Column types are inferred from the first rows (SAMPLE_ROWS, so
//   memory stays constant): a column whose non-blank values are mostly numbers is numeric, one
//   whose values are mostly timestamps is a date, anything else is kept as text. Blank cells are left
//   out of the document (a sensor that did not answer), never stored as "" or 0.
// - csv-parse reads arrays (a `cast` callback is ~10x slower) and this loop converts.
// - Bad rows (wrong number of fields, a value that is not a number in a numeric column, a bad
//   timestamp, an empty line, broken quoting) are not stored: each one goes to a reject file as
//   file, line, field, value, reason. Rows read = rows stored + rows rejected, always.
// - Deterministic _id: "<file name>:<line number, 9 digits>", so importing the same file again
//   adds nothing (lib/loader.js skips duplicate keys), and _id order is file and line order.

const fs = require('fs');
const path = require('path');
const { parse } = require('csv-parse');
const { streamInsert } = require('./loader');
const { createProgress } = require('./progress');

const SAMPLE_ROWS = 100;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// ISO 8601 (what the generator writes) and the logging app's own "Sun Feb 22 10:21:42 PST 2015".
const ISO = /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const APP = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2}( [A-Z]{1,5}([+-]\d{2}:?\d{2})?)? \d{4}$/;

class ImportError extends Error {}

function parseNumber(s) {
  return NUMBER.test(s) ? Number(s) : NaN;
}

/** A Date for the formats above, null otherwise (Date.parse alone accepts "abc 12"). */
function parseTimestamp(s) {
  const m = ISO.exec(s);
  if (m) {
    const y = +m[1];
    const mo = +m[2];
    const d = +m[3];
    const day = new Date(Date.UTC(y, mo - 1, d));
    if (day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
    const t = Date.parse(m[4] && !m[7] ? s.replace(' ', 'T') + 'Z' : s.replace(' ', 'T'));
    return Number.isNaN(t) ? null : new Date(t);
  }
  if (APP.test(s)) {
    const t = Date.parse(s);
    return Number.isNaN(t) ? null : new Date(t);
  }
  return null;
}

/** Field names MongoDB can query: no dots, no leading $. Empty or repeated names are errors. */
function fieldNames(header, file) {
  const seen = new Set();
  return header.map((raw, i) => {
    const name = raw.trim().replace(/\./g, '_').replace(/^\$/, '_');
    if (!name) throw new ImportError(`${file}, line 1: column ${i + 1} has no name in the header`);
    if (name === '_id') throw new ImportError(`${file}, line 1: column ${i + 1} is named _id, which the importer sets itself`);
    if (seen.has(name)) throw new ImportError(`${file}, line 1: column name ${JSON.stringify(name)} appears twice`);
    seen.add(name);
    return name;
  });
}

/** Column kinds from sample rows: 'number', 'date' or 'string'. */
function inferKinds(names, rows) {
  return names.map((_, c) => {
    const vals = rows.filter((r) => r.length === names.length).map((r) => r[c].trim()).filter((v) => v !== '');
    // The majority decides, so that a bad value among the first rows is rejected later instead of
    // turning a numeric column into text. A column blank in every sampled row counts as numeric.
    const numbers = vals.filter((v) => !Number.isNaN(parseNumber(v))).length;
    if (numbers * 2 > vals.length || vals.length === 0) return 'number';
    const dates = vals.filter((v) => parseTimestamp(v) !== null).length;
    return dates * 2 > vals.length ? 'date' : 'string';
  });
}

function csvCell(v) {
  const s = String(v);
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** Reject file, created on the first bad row. */
class Rejects {
  constructor(file) {
    this.file = file;
    this.count = 0;
    this.stream = null;
    this.first = [];
  }

  add(file, line, field, value, reason) {
    if (!this.stream) {
      fs.mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true });
      this.stream = fs.createWriteStream(this.file);
      this.stream.write('file,line,field,value,reason\n');
    }
    this.count++;
    if (this.first.length < 5) this.first.push(`${file}, line ${line}${field ? `, field ${field}` : ''}${value !== undefined ? ` = ${JSON.stringify(value)}` : ''}: ${reason}`);
    this.stream.write([file, line, field || '', value === undefined ? '' : value, reason].map(csvCell).join(',') + '\n');
  }

  async close() {
    if (this.stream) {
      this.stream.end();
      await new Promise((resolve, reject) => { this.stream.on('finish', resolve); this.stream.on('error', reject); });
    }
  }
}

/**
 * Converts one CSV record into a document, or returns a rejection { field, value, reason }.
 * Exported for the tests.
 */
function toDocument(record, names, kinds, id) {
  if (record.length === 1 && record[0].trim() === '' && names.length > 1) return { reason: 'empty line' };
  if (record.length !== names.length) return { reason: `expected ${names.length} fields, found ${record.length}` };
  const doc = { _id: id };
  for (let c = 0; c < names.length; c++) {
    const raw = record[c].trim();
    if (raw === '') continue;
    const kind = kinds[c];
    if (kind === 'number') {
      const v = parseNumber(raw);
      if (Number.isNaN(v)) return { field: names[c], value: record[c], reason: 'not a number' };
      doc[names[c]] = v;
    } else if (kind === 'date') {
      const d = parseTimestamp(raw);
      if (!d) return { field: names[c], value: record[c], reason: 'bad timestamp (expected ISO 8601, e.g. 2015-02-22T10:21:42Z)' };
      doc[names[c]] = d;
    } else {
      doc[names[c]] = record[c];
    }
  }
  return { doc };
}

/**
 * Imports one CSV file into coll. Returns { file, read, stored, inserted, duplicates, rejected, kinds }.
 * onBytes(n) reports progress in bytes read.
 */
async function importFile(coll, file, { rejects, batchSize = 2000, inflight = 4, onBytes = () => {} } = {}) {
  const base = path.basename(file);
  const parser = fs.createReadStream(file).pipe(parse({
    relax_column_count: true, // wrong field counts are rejected here, with the line, not fatal
    skip_empty_lines: false, // an empty line in the middle of a log is reported, not hidden
    skip_records_with_error: true, // broken quoting: report the row and carry on
    info: true,
    bom: true,
  }));
  const counts = { read: 0, rejected: 0 };
  let names = null;
  let kinds = null;
  let lastBytes = 0;
  parser.on('skip', (err) => {
    counts.read++;
    counts.rejected++;
    rejects.add(base, err.lines, '', undefined, `unparseable CSV: ${err.message}`);
  });

  const convert = function* (record, startLine) {
    counts.read++;
    const r = toDocument(record, names, kinds, `${base}:${String(startLine).padStart(9, '0')}`);
    if (r.doc) { yield r.doc; return; }
    counts.rejected++;
    rejects.add(base, startLine, r.field, r.value, r.reason);
  };

  async function* docs() {
    const sample = [];
    for await (const { record, info } of parser) {
      // info.lines is the record's last line; a quoted field may span lines. (Counting from the
      // previous record would go wrong after a skipped unparseable one.)
      let inside = 0;
      for (const f of record) for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) inside++;
      const startLine = info.lines - inside;
      onBytes(info.bytes - lastBytes);
      lastBytes = info.bytes;
      if (!names) {
        names = fieldNames(record, base);
        continue;
      }
      if (!kinds) {
        sample.push({ record, startLine });
        if (sample.length < SAMPLE_ROWS) continue;
        kinds = inferKinds(names, sample.map((s) => s.record));
        for (const s of sample) yield* convert(s.record, s.startLine);
        continue;
      }
      yield* convert(record, startLine);
    }
    if (!names) throw new ImportError(`${base}: the file is empty (a header row is needed)`);
    if (!kinds) {
      kinds = inferKinds(names, sample.map((s) => s.record));
      for (const s of sample) yield* convert(s.record, s.startLine);
    }
  }

  const r = await streamInsert(coll, docs(), { batchSize, inflight, progress: false });
  const stored = counts.read - counts.rejected;
  return {
    file, read: counts.read, stored, inserted: r.inserted, duplicates: stored - r.inserted,
    rejected: counts.rejected, columns: names ? names.length : 0,
    kinds: names ? Object.fromEntries(names.map((n, i) => [n, kinds[i]])) : {},
  };
}

/**
 * Imports CSV files into db.<coll>, one after the other, with one progress bar over all bytes.
 * @param {import('mongodb').Db} db
 * @param {string[]} files
 * @param {object} o { coll, rejectsFile (default <first file>.rejects.csv), progress, log, batchSize, inflight }
 * @returns {Promise<{files: object[], read, stored, inserted, duplicates, rejected, rejectsFile, ms}>}
 */
async function importCsv(db, files, { coll = 'sensors', rejectsFile, progress, log = () => {}, batchSize, inflight } = {}) {
  if (!files.length) throw new ImportError('no CSV file given');
  for (const f of files) {
    if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new ImportError(`${f}: no such file`);
  }
  const rejFile = rejectsFile || `${files[0]}.rejects.csv`;
  fs.rmSync(rejFile, { force: true }); // a stale reject file from an earlier run would mislead
  const rejects = new Rejects(rejFile);
  const totalBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const bar = createProgress(`import ${files.length} file${files.length > 1 ? 's' : ''} (bytes)`, totalBytes, { enabled: progress });
  const t0 = Date.now();
  const out = [];
  try {
    for (const f of files) {
      const r = await importFile(db.collection(coll), f, { rejects, batchSize, inflight, onBytes: (n) => bar.increment(n) });
      out.push(r);
    }
  } finally {
    bar.stop();
    await rejects.close();
  }
  const sum = (k) => out.reduce((s, r) => s + r[k], 0);
  const res = {
    db: db.databaseName, coll, files: out,
    read: sum('read'), stored: sum('stored'), inserted: sum('inserted'), duplicates: sum('duplicates'), rejected: sum('rejected'),
    rejectsFile: rejects.count ? rejFile : null, firstRejects: rejects.first, ms: Date.now() - t0,
  };
  for (const r of out) log(summaryLine(r, path.basename(r.file)));
  if (out.length > 1) log(summaryLine(res, 'total'));
  for (const line of rejects.first) log(`  rejected: ${line}`);
  if (res.rejectsFile) log(`  all ${res.rejected} rejected rows (file, line, field, value, reason): ${res.rejectsFile}`);
  return res;
}

function summaryLine(r, label) {
  return `${label}: rows read ${r.read} = stored ${r.stored} (new ${r.inserted}, already there ${r.duplicates}) + rejected ${r.rejected}`;
}

module.exports = { importCsv, importFile, toDocument, parseTimestamp, parseNumber, inferKinds, ImportError, SAMPLE_ROWS };
