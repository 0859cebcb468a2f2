'use strict';
// Reading a result file someone hands to `compare` or `findings --from`: any size, any content,
// one line naming the file and the record when it is not one the lab wrote.
//
//   parseResultBytes(buf, file, {wholeLimit}) -> doc   JSON.parse of the whole text when it fits in a
//       string; above that (a JavaScript string holds at most ~512 M characters) and to locate a
//       syntax error, a scan that cuts the text into its top-level values and `results` into its
//       records, each parsed on its own: no recursion, and the error names results[i] and the line.
//   checkResultDoc(doc, file)     the file's shape and every record's, one line per problem
//   ResultFormatError             an InputFileError: exit 2, one line, no --help hint
//
// Why a check per record: the readers (compare, the claims' rules, the reports) take the records as
// the lab writes them; a `null`, a number or a record without its study used to reach them and end
// in "Cannot read properties of null". And no walk here recurses: a record nested 100,000 levels
// deep is refused by its depth before anything stringifies it.
const { constants } = require('buffer');
const { InputFileError } = require('../infra/errors');

class ResultFormatError extends InputFileError {}

const FORMAT = 'mongo-perf-lab/results';
// Deeper than any record the lab writes (3-4 levels): a limit no reader's recursion can reach.
const MAX_DEPTH = 64;
const RECORD_TYPES = ['result', 'measure'];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** The 1-based line of byte `pos` (only for a message). */
function lineAt(buf, pos) {
  let n = 1;
  for (let i = buf.indexOf(0x0a); i >= 0 && i < pos; i = buf.indexOf(0x0a, i + 1)) n++;
  return n;
}

class Scan {
  constructor(buf, file) {
    this.buf = buf;
    this.file = file;
    this.pos = 0;
    this.where = 'the top level';
  }

  fail(what, pos = this.pos) {
    if (pos >= this.buf.length)
      throw new ResultFormatError(
        `${this.file}: not JSON: the file ends inside ${this.where} (cut short: an interrupted copy or a full disk?)`,
      );
    throw new ResultFormatError(`${this.file}: not JSON: ${what} in ${this.where}, at line ${lineAt(this.buf, pos)}`);
  }

  ws() {
    while (this.pos < this.buf.length && WS.has(this.buf[this.pos])) this.pos++;
  }

  expect(byte, what) {
    this.ws();
    if (this.buf[this.pos] !== byte) this.fail(`expected ${what}`);
    this.pos++;
  }

  /** The end (exclusive) of the string whose opening quote is at `start`. */
  stringEnd(start) {
    for (let q = this.buf.indexOf(QUOTE, start + 1); q >= 0; q = this.buf.indexOf(QUOTE, q + 1)) {
      let k = 0;
      while (this.buf[q - 1 - k] === BACKSLASH) k++;
      if (k % 2 === 0) return q + 1;
    }
    return this.fail('', this.buf.length);
  }

  /** The end (exclusive) of the JSON value at this.pos: brackets counted in a loop, strings skipped. */
  valueEnd() {
    const b = this.buf;
    let i = this.pos;
    if (b[i] === QUOTE) return this.stringEnd(i);
    if (b[i] !== 0x7b && b[i] !== 0x5b) {
      while (i < b.length && !WS.has(b[i]) && b[i] !== 0x2c && b[i] !== 0x7d && b[i] !== 0x5d) i++;
      return i;
    }
    let depth = 0;
    for (; i < b.length; i++) {
      const c = b[i];
      if (c === QUOTE) i = this.stringEnd(i) - 1;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return this.fail('', b.length);
  }

  /** The JSON value at this.pos, parsed on its own. */
  value() {
    this.ws();
    if (this.pos >= this.buf.length) this.fail('');
    const start = this.pos;
    const end = this.valueEnd();
    this.pos = end;
    try {
      return JSON.parse(this.buf.toString('utf8', start, end));
    } catch (e) {
      return this.fail('not a valid JSON value', start);
    }
  }

  /** `results`: an array whose records are parsed one by one (a huge array is never one string). */
  records() {
    this.ws();
    if (this.buf[this.pos] !== 0x5b) return this.value();
    this.pos++;
    const out = [];
    this.ws();
    if (this.buf[this.pos] === 0x5d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.where = `results[${out.length}]`;
      out.push(this.value());
      this.ws();
      const c = this.buf[this.pos++];
      if (c === 0x5d) break;
      if (c !== 0x2c) this.fail('expected "," or "]" after the record', this.pos - 1);
    }
    this.where = 'the top level';
    return out;
  }

  document() {
    this.expect(0x7b, 'a JSON object ("{")');
    const doc = {};
    this.ws();
    if (this.buf[this.pos] === 0x7d) return doc;
    for (;;) {
      this.ws();
      if (this.buf[this.pos] !== QUOTE) this.fail('expected a quoted key');
      const key = this.value();
      this.expect(0x3a, '":"');
      this.where = key === 'results' ? 'results' : JSON.stringify(key);
      doc[key] = key === 'results' ? this.records() : this.value();
      this.where = 'the top level';
      this.ws();
      const c = this.buf[this.pos++];
      if (c === 0x7d) break;
      if (c !== 0x2c) this.fail('expected "," or "}"', this.pos - 1);
    }
    this.ws();
    if (this.pos < this.buf.length) this.fail('text after the end of the document');
    return doc;
  }
}

/**
 * The document in `buf` (a byte-order mark dropped). wholeLimit: the largest file parsed as one
 * string (tests lower it to exercise the scan).
 */
function parseResultBytes(buf, file, { wholeLimit = constants.MAX_STRING_LENGTH } = {}) {
  if (!buf.length) throw new ResultFormatError(`${file}: an empty file (0 bytes), not a result file`);
  const bytes = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? buf.subarray(3) : buf;
  // A UTF-8 string has at most as many characters as the bytes: below the limit it fits.
  if (bytes.length < wholeLimit) {
    try {
      return JSON.parse(bytes.toString('utf8'));
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // Not JSON: the scan says where (it throws), in the lab's words, not the parser's.
    }
  }
  return new Scan(bytes, file).document();
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
/** A value as a message names it: null, a list, the number 42, the text "x". */
function kindOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  const shown = JSON.stringify(v).slice(0, 40);
  return typeof v === 'number' ? `the number ${shown}` : typeof v === 'string' ? `the text ${shown}` : shown;
}

/** How deep `v` nests (arrays and objects), counted without recursion; stops past `limit`. */
function depthOf(v, limit) {
  // Only objects go on the stack (a record's numbers and texts cost no allocation): parallel arrays.
  const objs = [v];
  const depths = [1];
  let max = 0;
  while (objs.length) {
    const x = objs.pop();
    const d = depths.pop();
    if (d > max) max = d;
    if (max > limit) return max;
    for (const k in x) {
      const y = x[k];
      if (y !== null && typeof y === 'object') {
        objs.push(y);
        depths.push(d + 1);
      }
    }
  }
  return max;
}

const isNumberOrNull = (v) => v === null || (typeof v === 'number' && Number.isFinite(v));

/** What is wrong with one record (null when it is one the lab writes). */
function recordProblem(r, { timed = true } = {}) {
  if (!isObject(r)) return `is ${kindOf(r)}`;
  if (!RECORD_TYPES.includes(r.type))
    return `has type ${JSON.stringify(r.type)}; the lab writes "result" and "measure" records`;
  if (typeof r.study !== 'string' || !r.study) return 'names no study ("study" is not a text)';
  if (r.type === 'result' && typeof r.variant !== 'string') return 'names no variant ("variant" is not a text)';
  if (r.type === 'measure' && typeof r.name !== 'string') return 'names no measure ("name" is not a text)';
  if (!isObject(r.axis)) return 'has no "axis" object';
  if (Object.values(r.axis).some((v) => v !== null && typeof v === 'object'))
    return '"axis" holds a list or an object (the lab writes texts and numbers there)';
  if (timed && r.type === 'result' && !r.skipped) {
    const t = r.times;
    if (!Array.isArray(t) || !t.length || !t.every((x) => typeof x === 'number' && x >= 0 && Number.isFinite(x)))
      return '"times" is not a list of numbers >= 0';
    for (const k of ['mean', 'sd', 'median', 'min', 'max'])
      if (r[k] !== undefined && !isNumberOrNull(r[k])) return `"${k}" is not a number`;
    if (r.ratio !== undefined && r.ratio !== null && !isObject(r.ratio)) return '"ratio" is not an object';
    if (r.ratio && r.ratio.to !== undefined && typeof r.ratio.to !== 'string') return '"ratio.to" is not a text';
  }
  if (r.warnings !== undefined && !Array.isArray(r.warnings)) return '"warnings" is not a list';
  const depth = depthOf(r, MAX_DEPTH);
  if (depth > MAX_DEPTH) return `nests more than ${MAX_DEPTH} levels deep (the lab's records nest 4)`;
  return null;
}

/** The label of record i in a message: its index, and its study and variant when it has them. */
function recordLabel(r, i) {
  const named = isObject(r) && typeof r.study === 'string' && typeof r.variant === 'string';
  return `results[${i}]${named ? ` (${r.study} ${r.variant})` : ''}`;
}

/**
 * Refuses a document that is not a result file, or holds a record the lab would not write.
 * timed: false leaves out the checks of a result's measurements (times and their summary).
 */
function checkResultDoc(doc, file, { timed = true } = {}) {
  if (!isObject(doc) || doc.format !== FORMAT || !Array.isArray(doc.results)) {
    const what = !isObject(doc) ? `JSON holding ${kindOf(doc)}` : 'JSON without "format": "mongo-perf-lab/results"';
    throw new ResultFormatError(
      `${file}: not a mongo-perf-lab result file (${what}); write one with run --json FILE or run --out DIR`,
    );
  }
  const env = doc.environment;
  if (!isObject(env) || !isObject(env.server) || !isObject(env.host))
    throw new ResultFormatError(
      `${file}: "environment" ${isObject(env) ? 'lacks its "server" or "host" object' : 'is missing or not an object'}; not a result file the lab wrote`,
    );
  for (const k of ['params', 'progress'])
    if (doc[k] !== undefined && doc[k] !== null && !isObject(doc[k]))
      throw new ResultFormatError(`${file}: "${k}" is not an object; not a result file the lab wrote`);
  // Notes are {study, text}; files converted from a benchmark carry plain texts.
  if (
    doc.notes !== undefined &&
    !(Array.isArray(doc.notes) && doc.notes.every((n) => typeof n === 'string' || isObject(n)))
  )
    throw new ResultFormatError(`${file}: "notes" is not a list of notes; not a result file the lab wrote`);
  const rs = doc.results;
  for (let i = 0; i < rs.length; i++) {
    const why = recordProblem(rs[i], { timed });
    if (why)
      throw new ResultFormatError(
        // "results[3] is null", "results[3] (where a): "times" is not ...": a field's problem after a colon
        `${file}: ${recordLabel(rs[i], i)}${why.startsWith('"') ? ':' : ''} ${why}: not a record mongo-perf-lab writes (use a file written by run --json or run --out)`,
      );
  }
  return doc;
}

module.exports = { parseResultBytes, checkResultDoc, recordProblem, ResultFormatError, MAX_DEPTH };
