'use strict';
// Streams CSV files into a collection through the lab's one write path (lib/infra/loader.js): the
// source's loader (`for row in DictReader(f): db.collection.insert(row)`) with types, accounting,
// identity and re-runs.
//
//   importCsv(db, files, {coll, key, header, encoding, rejectsFile, progress, log, batchSize, inflight})
//     -> {db, coll, files: [...], read, stored, inserted, duplicates, rejected, rejectsFile, firstRejects, ms}
//   importFile(coll, file, {...}) one file; toDocument(record, names, kinds, id) one record
//   parseValue(s) -> {value} | {text} | {error}: the lossless number rule; parseNumber, parseTimestamp
//   splitRecord(text) -> {fields} | {error}: one RFC 4180 record
//   fieldNames(header, file) validated names; ImportError (one line, the CLI prints it as is)
//
// - Header required: the first line names the columns, or the caller declares them (`header`,
//   --header a,b,c; then the first line is data). A first line that looks like data (a number or
//   a timestamp among its names) is refused: its row would otherwise silently become field names.
// - Field names that MongoDB or JavaScript would mangle are refused with the reason: empty, repeated,
//   containing '.', starting with '$', NUL or control characters, `__proto__`, `_id` (unless it is
//   the --key column).
// - Identity (_id): by default a hash of the row (column names and raw cells, SHA-256, 22 base64url
//   characters). Re-importing a file adds nothing; a file with the same name in another folder is
//   its own data; an edited file adds exactly its new or changed rows. Identical rows are one
//   document (counted as "already there"). With `key` (--key COL) the _id is that column's value
//   (typed like the column; the column is kept as a field too); a blank key rejects the row, and so
//   does a key seen before in the same import ("key already in this file at line N"): two rows are
//   never stored as one. A key already in the collection from an earlier run is "already there".
// - Text: UTF-8 unless `encoding` (--encoding latin1) says otherwise; a line whose bytes are not
//   UTF-8 rejects its row ("bytes that are not UTF-8 ..."), never stored with U+FFFD.
// - Lossless values: a column is numeric when most sampled values are numbers. A number is stored
//   as a double only when the double holds it exactly as written (<= 15 significant digits,
//   integers up to 2^53); larger integers become Long (64-bit) or Decimal128, longer decimals
//   Decimal128; a value a double cannot reach (1e400, 1e-400) is rejected, in every column (it counts
//   as a number when the column's kind is inferred, so it is never kept as text). Numbers written with
//   leading zeros (zip codes, 01000) stay text. A column blank in all sampled rows types each value
//   on its own. Blank cells are left out of the document, never stored as "" or 0.
// - Lines end at LF, CRLF or a lone CR (old Mac files), as common CSV readers have it.
// - Records are split here (splitRecord), with no CSV dependency: csv-parse, once declared, drops every
//   row after a quote that is never closed (rows read would no longer be stored + rejected).
// - Records: a quoted field may span lines (its line breaks kept as written); a quote that is never closed costs exactly one record,
//   reported at the line it started on, and parsing resumes on the next line. A row whose document
//   would exceed MongoDB's 16 MB limit is rejected, not sent.
// - Accounting: rows read = stored + rejected, always; stored = new + already there. Every
//   rejected row goes to the reject file (file, line, field, value, reason); if that file cannot be
//   written (a full disk), the summary is still given, then one line says so. A document the server
//   refuses (a validator) stops the import with its file and line.

const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Long, Decimal128, BSON } = require('mongodb');
const { streamInsert } = require('./loader');
const { createProgress } = require('./progress');
const { checkTarget } = require('./targets');
const { LabError } = require('./errors');

const SAMPLE_ROWS = 100;
const MAX_RECORD_LINES = 1000; // a quoted field spanning more lines than this is an unclosed quote
const MAX_DOC_BYTES = 16 * 1024 * 1024;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;
// ISO 8601 (what the generator writes) and the logging app's own "Sun Feb 22 10:21:42 PST 2015".
const ISO = /^(\d{4})-(\d{2})-(\d{2})([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const APP = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{1,2} \d{2}:\d{2}:\d{2}( [A-Z]{1,5}([+-]\d{2}:?\d{2})?)? \d{4}$/;
const INT64_MAX = 9223372036854775807n;

class ImportError extends LabError {}
/** The import ran but its output could not be written (not a usage error: no --help hint). */
class ImportWriteError extends LabError {}

function parseNumber(s) {
  return NUMBER.test(s) ? Number(s) : NaN;
}

function significantDigits(s) {
  const mant = s
    .replace(/^[+-]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '');
  const trimmed = mant.replace(/^0+/, '').replace(/0+$/, '');
  return trimmed.length;
}

/**
 * The lossless number rule. Returns {value} (Number, Long or Decimal128), {text} (keep the string:
 * a number would change it, e.g. leading zeros) or {error}.
 */
function parseValue(s) {
  // Most cells are plain decimals like 3121.6 or -0.193: at most 15 characters (so at most 15
  // significant digits, which a double keeps without loss, and a safe integer when whole), no
  // exponent, no '+', no zero before a digit. Every rule below answers those with their Number.
  if (s.length <= 15 && PLAIN_DECIMAL.test(s)) return { value: Number(s) };
  if (!NUMBER.test(s)) return { error: 'not a number' };
  const unsigned = s.replace(/^[+-]/, '');
  if (/^0\d/.test(unsigned)) return { text: s }; // 01000: a code, not a quantity
  if (INTEGER.test(s)) {
    const n = Number(s);
    if (Number.isSafeInteger(n)) return { value: n };
    const big = BigInt(s);
    if (big <= INT64_MAX && big >= -INT64_MAX - 1n) return { value: Long.fromBigInt(big) };
    if (unsigned.replace(/^0+/, '').length <= 34) return { value: Decimal128.fromString(s.replace(/^\+/, '')) };
    return { text: s };
  }
  const n = Number(s);
  if (!Number.isFinite(n)) return { error: 'number out of the range of a double (and of this importer)' };
  // At most 15 characters hold at most 15 significant digits: exact in a double, no need to count.
  if (s.length <= 15 && n !== 0) return { value: n };
  const digits = significantDigits(s);
  if (n === 0 && digits > 0) return { error: 'number too small for a double (it would become 0)' };
  if (digits <= 15) return { value: n };
  if (digits <= 34) {
    try {
      return { value: Decimal128.fromString(s.replace(/^\+/, '')) };
    } catch (e) {
      return { text: s };
    }
  }
  return { text: s };
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

/** Validated field names; never renamed silently. keyCol may be named _id. */
function fieldNames(header, file, keyCol) {
  const seen = new Set();
  return header.map((raw, i) => {
    const name = raw.trim();
    const at = `${file}, line 1, column ${i + 1}`;
    if (!name) throw new ImportError(`${at}: the column has no name in the header`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f\ufffd]/.test(name))
      throw new ImportError(
        `${at}: the name contains control or invalid characters: is this a CSV text file with a header row?`,
      );
    if (name === '__proto__')
      throw new ImportError(`${at}: a column named __proto__ would vanish from JavaScript objects: rename it`);
    if (name.includes('.'))
      throw new ImportError(
        `${at}: the name ${JSON.stringify(name)} contains '.', which MongoDB reads as a path: rename the column`,
      );
    if (name.startsWith('$'))
      throw new ImportError(
        `${at}: the name ${JSON.stringify(name)} starts with '$', which MongoDB reads as an operator: rename the column`,
      );
    if (name === '_id' && keyCol !== '_id')
      throw new ImportError(`${at}: a column named _id: import with --key _id to use it as the identity, or rename it`);
    if (name.length > 1000)
      throw new ImportError(`${at}: the name is ${name.length} characters long: is the first line a header?`);
    if (seen.has(name)) throw new ImportError(`${file}, line 1: column name ${JSON.stringify(name)} appears twice`);
    seen.add(name);
    return name;
  });
}

/** A first line whose cells look like values (numbers, timestamps) is data, not a header. */
function looksLikeData(cells) {
  return cells.some((c) => {
    const v = c.trim();
    return v !== '' && (NUMBER.test(v) || parseTimestamp(v) !== null);
  });
}

/** A cell written as a number, whether or not a double can hold it (not a leading-zero code). */
function numberLike(v) {
  const r = parseValue(v);
  return r.value !== undefined || (r.error !== undefined && NUMBER.test(v));
}

/**
 * Column kinds from sample rows: 'number', 'date', 'string', 'mixed' (mostly text, some numbers:
 * stored as text) or 'auto' (no evidence: each value on its own).
 */
function inferKinds(names, rows) {
  return names.map((_, c) => {
    const vals = rows
      .filter((r) => r.length === names.length)
      .map((r) => r[c].trim())
      .filter((v) => v !== '');
    if (vals.length === 0) return 'auto';
    // The majority decides, so that a bad value among the first rows is rejected later instead of
    // turning a numeric column into text.
    // A number out of a double's range (1e400) is still written as a number: it counts for the
    // column being numeric, and is then rejected there ("out of the range"), never kept as text.
    const numbers = vals.filter((v) => numberLike(v)).length;
    if (numbers * 2 > vals.length) return 'number';
    const dates = vals.filter((v) => parseTimestamp(v) !== null).length;
    if (dates * 2 > vals.length) return 'date';
    // Text with some numbers among it: stored as text, every value, and said ("mixed") in the summary.
    return numbers ? 'mixed' : 'string';
  });
}

function convert(raw, kind, original) {
  if (kind === 'number') {
    const r = parseValue(raw);
    if (r.error) return { reason: r.error };
    return r.value !== undefined ? r : { value: r.text }; // r itself: one object less per cell
  }
  if (kind === 'date') {
    const d = parseTimestamp(raw);
    if (!d) return { reason: 'bad timestamp (expected ISO 8601, e.g. 2015-02-22T10:21:42Z)' };
    return { value: d };
  }
  if (kind === 'auto') {
    const r = parseValue(raw);
    if (r.value !== undefined) return { value: r.value };
    // A number no double holds is rejected in every column kind, never stored as its text.
    if (r.error && NUMBER.test(raw)) return { reason: r.error };
    const d = parseTimestamp(raw);
    return { value: d || original };
  }
  return { value: original };
}

/** A key's identity as the server's _id index compares it: numbers by value (1, 1.0, Long 1 alike). */
function keyText(v) {
  if (typeof v === 'number') return `n:${v}`;
  if (v instanceof Long) return v.toString() === String(Number(v.toString())) ? `n:${v}` : `l:${v}`;
  if (v instanceof Decimal128) {
    const n = Number(v.toString());
    return Number.isFinite(n) && String(n) === v.toString() ? `n:${n}` : `d:${v}`;
  }
  if (v instanceof Date) return `t:${v.getTime()}`;
  return `s:${String(v)}`;
}

/**
 * A row's _id: the hash of JSON.stringify([names, record]), the header's part made once per file
 * (the same bytes hashed in pieces give the same digest: the _ids of earlier imports).
 */
function rowHasher(names) {
  const head = `[${JSON.stringify(names)},`;
  return (record) =>
    crypto
      .createHash('sha256')
      .update(head)
      .update(JSON.stringify(record))
      .update(']')
      .digest('base64url')
      .slice(0, 22);
}

/**
 * Converts one CSV record into a document, or returns a rejection { field, value, reason }.
 * id: the _id, or a function(doc, record) -> _id | {reason}. Exported for the tests.
 */
function toDocument(record, names, kinds, id) {
  if (record.length === 1 && record[0].trim() === '' && names.length > 1) return { reason: 'empty line' };
  if (record.length !== names.length) return { reason: `expected ${names.length} fields, found ${record.length}` };
  const doc = { _id: null };
  for (let c = 0; c < names.length; c++) {
    const raw = record[c].trim();
    if (raw === '') continue;
    const r = convert(raw, kinds[c], record[c]);
    if (r.reason) return { field: names[c], value: record[c], reason: r.reason };
    doc[names[c]] = r.value;
  }
  const _id = typeof id === 'function' ? id(doc, record) : id;
  if (_id && _id.reason) return _id;
  doc._id = _id;
  return { doc };
}

// Not csv-parse: after a quote that is never closed it reads the rest of the file as one field and,
// skipping errors, drops every later row silently (rows read != stored + rejected).
/**
 * One CSV record from text (which may hold line breaks inside quoted fields): {fields} or {error}.
 * RFC 4180: fields separated by ',', a field in double quotes may hold ',', newlines and "".
 */
function splitRecord(text) {
  if (text.indexOf('"') < 0) return { fields: text.split(',') };
  const fields = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    if (text[i] === '"') {
      let v = '';
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return { error: 'quote not closed' };
        v += text.slice(j, q);
        if (text[q + 1] === '"') {
          v += '"';
          j = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      fields.push(v);
      if (i === n) return { fields };
      if (text[i] !== ',') return { error: `unexpected character ${JSON.stringify(text[i])} after a closing quote` };
      i++;
      if (i === n) {
        fields.push('');
        return { fields };
      }
    } else {
      const comma = text.indexOf(',', i);
      const v = comma < 0 ? text.slice(i) : text.slice(i, comma);
      if (v.indexOf('"') >= 0)
        return { error: 'a quote inside an unquoted field (quote the whole field and double the quote)' };
      fields.push(v);
      if (comma < 0) return { fields };
      i = comma + 1;
      if (i === n) {
        fields.push('');
        return { fields };
      }
    }
  }
}

function quoteCount(s) {
  let k = 0;
  for (let i = s.indexOf('"'); i >= 0; i = s.indexOf('"', i + 1)) k++;
  return k;
}

/**
 * A record that holds a line of bad bytes (bad: line -> reason, lines up to lineNo read) is
 * rejected at that line, never stored with U+FFFD.
 */
function badBytesReject(bad, lineNo, r) {
  if (!bad.size || r.error) return r;
  const at = [...bad.keys()].find((l) => l >= r.line && l <= lineNo);
  if (at === undefined) return r;
  const out = { error: bad.get(at), line: at };
  for (const l of [...bad.keys()]) if (l <= lineNo) bad.delete(l);
  return out;
}

/**
 * Records of a file, a chunk's worth at a time: yields arrays of {record, line} (line = where the
 * record starts) or {error, line}. A quoted field may span lines; a quote never closed (or not
 * closed within MAX_RECORD_LINES) costs the record it opened, and reading resumes on the line after it.
 */
async function* recordChunks(file, onBytes, encoding = 'utf8') {
  let lineNo = 0;
  const bad = new Map(); // line -> reason, for lines whose bytes are not text in `encoding`
  const group = []; // [{text, line}] lines of a record whose quotes are still open
  let quotes = 0;

  function* drain(final) {
    // Emits what the group allows: a whole record when quotes balance, the first line as a
    // reject when they cannot (too long, or end of file), then re-reads the rest of the group.
    while (group.length) {
      if (quotes % 2 === 0) {
        // A quoted field keeps its line breaks as the file wrote them (LF, CRLF or CR).
        const text = group.map((g, i) => (i ? group[i - 1].eol : '') + g.text).join('');
        const start = group[0].line;
        const r = splitRecord(text);
        if (r.fields || group.length === 1) {
          group.length = 0;
          quotes = 0;
          yield r.fields ? { record: r.fields, line: start } : { error: `unparseable CSV: ${r.error}`, line: start };
          return;
        }
        // Several lines that do not form one record: the first line's quote was a stray one.
      } else if (!final && group.length < MAX_RECORD_LINES) {
        return;
      }
      const first = group.shift();
      yield { error: 'unparseable CSV: a quote opened on this line is never closed', line: first.line };
      const rest = group.splice(0);
      quotes = 0;
      for (const g of rest) {
        group.push(g);
        quotes += quoteCount(g.text);
        if (quotes % 2 === 0) yield* drain(final);
      }
      if (!final) return;
    }
  }

  const checked = (r) => badBytesReject(bad, lineNo, r);
  for await (const { lines, eols } of lineChunks(file)) {
    const out = [];
    // Progress once per chunk: a progress bar's update per line cost more than reading the line.
    if (onBytes) onBytes(lines.reduce((n, b, i) => n + b.length + EOL[eols[i]].length, 0));
    for (let li = 0; li < lines.length; li++) {
      const bytes = lines[li];
      lineNo++;
      let { text, error } = decodeLine(bytes, encoding);
      if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      // The common line: whole valid text, no quote, no record open: a record by itself.
      if (!error && !group.length && text.indexOf('"') < 0) {
        out.push({ record: text.split(','), line: lineNo });
        continue;
      }
      if (error) bad.set(lineNo, error);
      group.push({ text, line: lineNo, eol: EOL[eols[li]] });
      quotes += quoteCount(text);
      for (const r of drain(false)) out.push(checked(r));
    }
    if (out.length) yield out;
  }
  const out = [];
  for (const r of drain(true)) out.push(checked(r));
  if (out.length) yield out;
}

// The line ends of lineChunks, as the text that joins the lines of a quoted field spanning them.
const EOL = ['', '\n', '\r\n', '\r'];
const LF = 10;
const CR = 13;

/**
 * The lines of a file as byte buffers, in file order: one {lines, eols} per chunk read (eols[i]: the
 * index in EOL of how line i ended), so the lines of a chunk cost one await, not one each. LF, CRLF
 * and a lone CR (old Mac files) each end a line, as common CSV readers have it: a stray CR must not
 * join two rows into one.
 */
async function* lineChunks(file) {
  let rest = Buffer.alloc(0);
  for await (const chunk of fs.createReadStream(file)) {
    const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const { lines, eols, next } = splitLines(buf, false);
    if (lines.length) yield { lines, eols };
    rest = Buffer.from(buf.subarray(next));
  }
  if (rest.length) {
    const { lines, eols, next } = splitLines(rest, true);
    if (next < rest.length) {
      lines.push(rest.subarray(next));
      eols.push(0);
    }
    if (lines.length) yield { lines, eols };
  }
}

/**
 * The whole lines of buf and where the unfinished rest starts. A CR as buf's last byte ends its line
 * only at the end of the file (final): before that, an LF may follow in the next chunk.
 */
function splitLines(buf, final) {
  const lines = [];
  const eols = [];
  let start = 0;
  let lf = buf.indexOf(LF);
  // A file without CR (the common one) never searches for it again.
  let cr = buf.indexOf(CR);
  while (lf >= 0 || cr >= 0) {
    if (cr >= 0 && (lf < 0 || cr < lf)) {
      if (cr === buf.length - 1 && !final) break;
      const crlf = buf[cr + 1] === LF;
      lines.push(buf.subarray(start, cr));
      eols.push(crlf ? 2 : 3);
      start = cr + (crlf ? 2 : 1);
    } else {
      lines.push(buf.subarray(start, lf));
      eols.push(1);
      start = lf + 1;
    }
    if (lf >= 0 && lf < start) lf = buf.indexOf(LF, start);
    if (cr >= 0 && cr < start) cr = buf.indexOf(CR, start);
  }
  return { lines, eols, next: start };
}

const ENCODINGS = ['utf8', 'latin1'];
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** One line's text: {text}, or {text, error} when its bytes are not UTF-8 (latin1 decodes any byte). */
function decodeLine(bytes, encoding) {
  if (encoding === 'latin1') return { text: bytes.toString('latin1') };
  try {
    return { text: strictUtf8.decode(bytes) };
  } catch (e) {
    const at = firstBadUtf8(bytes);
    return {
      text: bytes.toString('utf8'),
      error:
        `bytes that are not UTF-8 (0x${bytes[at].toString(16).padStart(2, '0')} at byte ${at + 1} of the line): ` +
        'save the file as UTF-8, or declare its encoding with --encoding latin1',
    };
  }
}

/** The offset of the first byte that does not start a valid UTF-8 sequence. */
function firstBadUtf8(bytes) {
  for (let i = 0; i < bytes.length; i++) {
    const n =
      bytes[i] < 0x80
        ? 1
        : bytes[i] >= 0xc2 && bytes[i] < 0xe0
          ? 2
          : bytes[i] >= 0xe0 && bytes[i] < 0xf0
            ? 3
            : bytes[i] >= 0xf0 && bytes[i] < 0xf5
              ? 4
              : 0;
    if (!n) return i;
    try {
      strictUtf8.decode(bytes.subarray(i, i + n));
    } catch (e) {
      return i;
    }
    i += n - 1;
  }
  return 0;
}

function csvCell(v) {
  const s = String(v);
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/**
 * Reject file, created on the first bad row. A write error (a full disk, a vanished folder) is
 * kept, not raised as a stream 'error' event: the import goes on counting the rejected rows, and
 * importCsv reports the error in one line after the summary.
 */
class Rejects {
  constructor(file) {
    this.file = file;
    this.count = 0;
    this.stream = null;
    this.first = [];
    this.error = null;
  }

  add(file, line, field, value, reason) {
    if (!this.stream && !this.error) this.open();
    this.count++;
    const shown = value !== undefined && value.length > 200 ? value.slice(0, 200) + '...' : value;
    if (this.first.length < 5)
      this.first.push(
        `${file}, line ${line}${field ? `, field ${field}` : ''}${shown !== undefined ? ` = ${JSON.stringify(shown)}` : ''}: ${reason}`,
      );
    if (this.stream && !this.error)
      this.stream.write(
        [file, line, field || '', shown === undefined ? '' : shown, reason].map(csvCell).join(',') + '\n',
      );
  }

  open() {
    try {
      fs.mkdirSync(path.dirname(path.resolve(this.file)), { recursive: true });
    } catch (e) {
      this.error = e;
      return;
    }
    this.stream = fs.createWriteStream(this.file);
    this.stream.on('error', (e) => {
      if (!this.error) this.error = e;
    });
    this.stream.write('file,line,field,value,reason\n');
  }

  async close() {
    const stream = this.stream;
    if (!stream) return;
    // A failed write destroys the stream at once but emits its 'error' only after the file is
    // closed: wait for 'close' in every state, or the error is missed and never reported.
    if (!stream.closed) {
      await new Promise((resolve) => {
        stream.once('close', resolve);
        if (!stream.destroyed) stream.end();
      });
    }
    if (!this.error && stream.errored) this.error = stream.errored;
  }
}

/**
 * The state of one file's import: its columns and their kinds once read, the key column, the
 * counts, and the line of each document in the batches in flight (to name a refused one).
 */
function importState(file, { rejects, label, key, header, keysSeen, batchSize, inflight }) {
  const st = {
    file,
    base: label || path.basename(file),
    rejects,
    key,
    keysSeen,
    batchSize,
    inflight,
    counts: { read: 0, rejected: 0 },
    names: null,
    kinds: null,
    keyIndex: -1,
    hashRow: null,
    lines: new WeakMap(), // document -> its line, to name a document the server refuses
  };
  if (header) setColumns(st, fieldNames(header, st.base, key));
  return st;
}

/** The column names are known: find the --key column among them. */
function setColumns(st, names) {
  st.names = names;
  if (st.key === undefined) return;
  st.keyIndex = names.indexOf(st.key);
  if (st.keyIndex < 0)
    throw new ImportError(
      `${st.base}: --key ${JSON.stringify(st.key)} is not a column (columns: ${names.slice(0, 10).join(', ')}${names.length > 10 ? ', ...' : ''})`,
    );
}

/** The first row read when no --header was given: column names, never data. */
function readHeader(st, r) {
  if (r.error)
    throw new ImportError(
      `${st.base}, line ${r.line}: the header row is not valid CSV (${r.error.replace('unparseable CSV: ', '')})`,
    );
  if (looksLikeData(r.record)) {
    throw new ImportError(
      `${st.base}, line 1: the first line looks like data (${JSON.stringify(r.record.find((c) => looksLikeData([c])))}), ` +
        'not column names: add a header row, or declare the names with --header a,b,c',
    );
  }
  setColumns(st, fieldNames(r.record, st.base, st.key));
}

// A key seen earlier in this import names another row: storing both under one _id would keep
// the first and lose the second silently, so the second is rejected with where the first was.
function keyedId(st, doc, record, line) {
  const v = doc[st.names[st.keyIndex]];
  if (v === undefined) return { field: st.key, value: '', reason: 'the key column is blank' };
  const k = keyText(v);
  const first = st.keysSeen.get(k);
  if (first) {
    return {
      field: st.key,
      value: record[st.keyIndex],
      reason:
        first.label === st.base
          ? `key already in this file at line ${first.line}`
          : `key already in ${first.label} at line ${first.line}`,
    };
  }
  st.keysSeen.set(k, { label: st.base, line });
  return v;
}

function rejectRow(st, line, field, value, reason) {
  st.counts.rejected++;
  st.rejects.add(st.base, line, field, value, reason);
}

/** One parsed row as a document (none when it is rejected: the reject file says why). */
function* rowDoc(st, record, line) {
  st.counts.read++;
  if (!st.hashRow) st.hashRow = rowHasher(st.names);
  const r = toDocument(
    record,
    st.names,
    st.kinds,
    st.keyIndex >= 0 ? (doc) => keyedId(st, doc, record, line) : () => st.hashRow(record),
  );
  if (!r.doc) {
    rejectRow(st, line, r.field, r.value, r.reason);
    return;
  }
  if (record.reduce((s, f) => s + f.length, 0) > 1024 * 1024) {
    const size = BSON.calculateObjectSize(r.doc);
    if (size > MAX_DOC_BYTES) {
      rejectRow(
        st,
        line,
        '',
        undefined,
        `the row makes a ${(size / 1048576).toFixed(1)} MB document, over MongoDB's 16 MB limit`,
      );
      return;
    }
  }
  st.lines.set(r.doc, line);
  yield r.doc;
}

/** A row read by the parser: its document, or a rejected line when it is not valid CSV. */
function* rowOrReject(st, r) {
  if (r.error) {
    st.counts.read++;
    rejectRow(st, r.line, '', undefined, r.error);
  } else yield* rowDoc(st, r.record, r.line);
}

/** The column kinds from the first rows (the sample), then the sample's documents. */
function* kindsThenSample(st, sample) {
  st.kinds = inferKinds(
    st.names,
    sample.filter((s) => s.record).map((s) => s.record),
  );
  for (const s of sample) yield* rowOrReject(st, s);
}

/**
 * The file's documents, in arrays (one per chunk read: one await per chunk, not per row): the
 * header, then SAMPLE_ROWS rows held until the column kinds are known.
 */
async function* csvDocChunks(st, { onBytes, encoding }) {
  const sample = [];
  for await (const rs of recordChunks(st.file, onBytes, encoding)) {
    const docs = [];
    for (const r of rs) {
      if (!st.names) readHeader(st, r);
      else if (st.kinds) for (const d of rowOrReject(st, r)) docs.push(d);
      else {
        sample.push(r);
        if (sample.length >= SAMPLE_ROWS) docs.push(...kindsThenSample(st, sample.splice(0)));
      }
    }
    if (docs.length) yield docs;
  }
  if (!st.names) throw new ImportError(`${st.base}: the file is empty (a header row is needed)`);
  if (!st.kinds) yield [...kindsThenSample(st, sample)];
}

/**
 * Imports one CSV file into coll. Returns { file, read, stored, inserted, duplicates, rejected, kinds }.
 * onBytes(n) reports progress in bytes read.
 */
async function importFile(
  coll,
  file,
  {
    rejects,
    label,
    key,
    header,
    encoding,
    keysSeen = new Map(),
    batchSize = 2000,
    inflight = 4,
    onBytes = () => {},
  } = {},
) {
  const st = importState(file, { rejects, label, key, header, keysSeen, batchSize, inflight });
  const describe = (doc) => {
    const line = st.lines.get(doc);
    return line ? `${st.base} line ${line}` : `${st.base} _id ${JSON.stringify(doc._id)}`;
  };
  const r = await streamInsert(coll, csvDocChunks(st, { onBytes, encoding }), {
    batchSize,
    inflight,
    progress: false,
    chunked: true,
    verify: 'all',
    describe,
  });
  const { counts, names, kinds } = st;
  const stored = counts.read - counts.rejected;
  if (r.stored !== stored)
    throw new ImportError(`${st.base}: ${stored} rows converted but ${r.stored} stored; the import stopped`);
  return {
    file,
    read: counts.read,
    stored,
    inserted: r.inserted,
    duplicates: r.duplicates,
    rejected: counts.rejected,
    columns: names ? names.length : 0,
    retries: r.retries,
    kinds: names && kinds ? Object.fromEntries(names.map((n, i) => [n, kinds[i]])) : {},
  };
}

// What is refused before anything is read: no file, an unknown encoding, a forbidden target, a file
// that is missing or unreadable.
function checkImportInputs(db, files, coll, encoding) {
  if (!files.length) throw new ImportError('no CSV file given');
  if (!ENCODINGS.includes(encoding))
    throw new ImportError(`--encoding ${JSON.stringify(encoding)}: expected one of ${ENCODINGS.join(', ')}`);
  checkTarget(db.databaseName, coll);
  for (const f of files) {
    if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new ImportError(`${f}: no such file`);
    fs.accessSync(f, fs.constants.R_OK);
  }
}

/**
 * Imports CSV files into db.<coll>, one after the other, with one progress bar over all bytes.
 * @param {import('mongodb').Db} db
 * @param {string[]} files
 * @param {object} o { coll, key, header (array of names), rejectsFile (default <first file>.rejects.csv),
 *   progress, log, batchSize, inflight }
 * @returns {Promise<{files: object[], read, stored, inserted, duplicates, rejected, rejectsFile, ms}>}
 */
async function importCsv(
  db,
  files,
  { coll = 'sensors', key, header, encoding = 'utf8', rejectsFile, progress, log = () => {}, batchSize, inflight } = {},
) {
  checkImportInputs(db, files, coll, encoding);
  const rejFile = rejectsFile || `${files[0]}.rejects.csv`;
  refuseRejectsAsInput(files, rejFile);
  prepareRejectsFile(rejFile);
  const rejects = new Rejects(rejFile);
  const keysSeen = new Map();
  // Two files of the same name (from different folders) are told apart by their path.
  const bases = files.map((f) => path.basename(f));
  const labels = files.map((f, i) => (bases.indexOf(bases[i]) !== bases.lastIndexOf(bases[i]) ? f : bases[i]));
  const totalBytes = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  const bar = createProgress(`import ${files.length} file${files.length > 1 ? 's' : ''} (bytes)`, totalBytes, {
    enabled: progress,
  });
  const t0 = Date.now();
  const out = [];
  try {
    for (let i = 0; i < files.length; i++) {
      const r = await importFile(db.collection(coll), files[i], {
        rejects,
        label: labels[i],
        key,
        header,
        encoding,
        keysSeen,
        batchSize,
        inflight,
        onBytes: (n) => bar.increment(n),
      });
      out.push(r);
    }
  } finally {
    bar.stop();
    await rejects.close();
  }
  const sum = (k) => out.reduce((s, r) => s + r[k], 0);
  const res = {
    db: db.databaseName,
    coll,
    files: out,
    read: sum('read'),
    stored: sum('stored'),
    inserted: sum('inserted'),
    duplicates: sum('duplicates'),
    rejected: sum('rejected'),
    rejectsFile: rejects.count ? rejFile : null,
    firstRejects: rejects.first,
    ms: Date.now() - t0,
  };
  reportImport(res, labels, rejects, rejFile, log);
  return res;
}

// Each file's summary line, the total's, the first rejects and where the rest are; a rejects file
// that could not be written fails the import.
function reportImport(res, labels, rejects, rejFile, log) {
  const out = res.files;
  for (let i = 0; i < out.length; i++) {
    log(summaryLine(out[i], labels[i]));
    const mixed = Object.keys(out[i].kinds).filter((k) => out[i].kinds[k] === 'mixed');
    if (mixed.length)
      log(
        `  column${mixed.length > 1 ? 's' : ''} ${mixed.join(', ')} of ${labels[i]}: mixed (text with some numbers among the first ${SAMPLE_ROWS} rows): every value stored as text`,
      );
  }
  if (out.length > 1) log(summaryLine(res, 'total'));
  for (const line of rejects.first) log(`  rejected: ${line}`);
  if (rejects.error) {
    throw new ImportWriteError(
      `the rejects file ${rejFile} could not be written (${describeIoError(rejects.error)}): ` +
        `the ${res.rejected} rejected rows are counted above but not all listed; free the space or choose another place with --rejects, and run again (stored rows are kept)`,
    );
  }
  if (res.rejectsFile)
    log(`  all ${res.rejected} rejected rows (file, line, field, value, reason): ${res.rejectsFile}`);
}

/** An I/O error's code in words: what a person can act on. */
function describeIoError(e) {
  const words = {
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOENT: 'its folder does not exist',
    EISDIR: 'it is a directory',
    EIO: 'input/output error',
  };
  return e.code ? `${e.code}: ${words[e.code] || String(e.message).split('\n')[0]}` : String(e.message).split('\n')[0];
}

/**
 * A glob such as data/*.csv also matches the rejects file of an earlier import (a.csv.rejects.csv):
 * importing it would read rejects as data, and replacing it would delete an input. Refused.
 */
function refuseRejectsAsInput(files, rejFile) {
  const rej = path.resolve(rejFile);
  for (const f of files) {
    const own = path.resolve(f) === rej;
    const earlier = /\.rejects\.csv$/.test(f) && firstLine(f) === 'file,line,field,value,reason';
    if (own || earlier) {
      throw new ImportError(
        `${f} is ${own ? "this import's rejects file" : 'the rejects file of an earlier import'} (did a pattern like *.csv match it?): ` +
          'leave it out of the files, or move it away, and run again',
      );
    }
  }
}

function firstLine(f) {
  const fd = fs.openSync(f, 'r');
  try {
    const buf = Buffer.alloc(64);
    const n = fs.readSync(fd, buf, 0, 64, 0);
    return buf.subarray(0, n).toString('utf8').split(/\r?\n/)[0];
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checked before any row is read (an unwritable rejects file would otherwise fail mid-import), and
 * a stale rejects file of an earlier run removed. Only a regular file is ever removed: a device
 * or pipe the user named (/dev/null) is written to as it is.
 */
function prepareRejectsFile(rejFile) {
  const abs = path.resolve(rejFile);
  let st = null;
  try {
    st = fs.statSync(abs);
  } catch (e) {
    /* not there yet */
  }
  try {
    if (st && st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (st && !st.isFile()) {
      fs.accessSync(abs, fs.constants.W_OK);
      return;
    }
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, '');
    fs.rmSync(abs, { force: true });
  } catch (e) {
    throw new ImportError(
      `the rejects file ${rejFile} cannot be written (${describeIoError(e)}): choose another place with --rejects`,
    );
  }
}

function summaryLine(r, label) {
  return `${label}: rows read ${r.read} = stored ${r.stored} (new ${r.inserted}, already there ${r.duplicates}) + rejected ${r.rejected}`;
}

module.exports = {
  importCsv,
  importFile,
  toDocument,
  rowHasher,
  parseTimestamp,
  parseNumber,
  parseValue,
  inferKinds,
  splitRecord,
  fieldNames,
  ImportError,
  ImportWriteError,
  SAMPLE_ROWS,
  ENCODINGS,
  decodeLine,
};
