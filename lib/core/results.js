'use strict';
// The one result format (docs/result-format.schema.json): an environment record and one record per
// (study, variant, axis point). The file is rewritten atomically (temporary file + rename) after
// every axis point, so a run stopped at any moment leaves valid JSON holding what it finished.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const lab = require('../../scripts/lib/lab');
const LabPlan = require('./plan');
const { checkWritableFile } = require('../infra/output-paths');
const { UsageError } = require('../infra/errors');

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Checks before any work that `file` can be written (lib/infra/output-paths.js: no recursive mkdir, which
 * never returns on /proc). Throws a one-line UsageError saying what to do; returns the absolute path.
 */
function checkWritable(file, what = '--json') {
  checkWritableFile(file, what);
  return path.resolve(file);
}

// Version 2 types the states version 1 wrote as text: `skipped` is {code, why} (codes: LabPlan.SKIP),
// each of `warnings` is {code, text}. readResults reads both versions and gives version 2.
const VERSION = 2;
const WARNINGS = [
  { code: 'large-spread', starts: 'large spread' },
  { code: 'slow-first-run', starts: 'first timed run' },
];

/** A warning as version 2 holds it (the shell's record module writes the text). */
function typedWarning(w) {
  if (w && typeof w === 'object') return w;
  const kind = WARNINGS.find((k) => String(w).startsWith(k.starts));
  return { code: kind ? kind.code : 'other', text: String(w) };
}

/** A record in version 2's terms (a copy when something changes; measures and v2 records as they are). */
function typedRecord(r) {
  if (r.type !== 'result') return r;
  const typedSkip = r.skipped && typeof r.skipped !== 'object';
  const typedWarn = Array.isArray(r.warnings) && r.warnings.some((w) => typeof w !== 'object');
  if (!typedSkip && !typedWarn) return r;
  return { ...r, ...(typedSkip ? { skipped: LabPlan.skippedOf(r.skipped) } : {}), ...(typedWarn ? { warnings: r.warnings.map(typedWarning) } : {}) };
}

// The error a bad output path gives: the CLI's usage error, one line.
const OutputPathError = UsageError;

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
  } catch (e) {
    return null;
  }
}

function pkgVersion(name) {
  try { return require(`${name}/package.json`).version; } catch (e) { return null; }
}

/** What a result was measured on: the server, the host, the software, the lab's commit. */
function environment(server, extra = {}) {
  const cpus = os.cpus();
  return {
    type: 'environment',
    server: {
      version: server.version || null,
      storageEngine: server.storageEngine || null,
      queryFramework: server.queryFramework || null,
      cacheBytes: server.cacheSizeBytes || server.cacheBytes || null,
      topology: server.topology || null,
      embedded: !!server.embedded,
      binarySource: server.binarySource || null,
    },
    host: {
      cpuModel: cpus.length ? cpus[0].model.trim() : null,
      cores: cpus.length,
      memoryGB: Number((os.totalmem() / 1073741824).toFixed(1)),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadavgStart: os.loadavg().map((x) => Number(x.toFixed(2))),
      loadavgEnd: null,
    },
    software: { node: process.version, driver: pkgVersion('mongodb'), mongosh: pkgVersion('mongosh'), lab: require('../../package.json').version },
    lab: { commit: gitCommit() },
    startedAt: new Date().toISOString(),
    finishedAt: null,
    ...extra,
  };
}

class ResultFile {
  /** @param {string|null} file where to write (null: keep in memory only) */
  constructor(file, env) {
    this.file = file ? path.resolve(file) : null;
    this.doc = { format: lab.FORMAT, version: VERSION, complete: false, environment: env, results: [], notes: [] };
    this.write();
  }

  add(records) {
    this.doc.results.push(...records.map(typedRecord));
    this.write();
  }

  note(study, text) {
    this.doc.notes.push({ study, text });
    this.write();
  }

  finish() {
    this.doc.environment.host.loadavgEnd = os.loadavg().map((x) => Number(x.toFixed(2)));
    this.doc.environment.finishedAt = new Date().toISOString();
    this.doc.complete = true;
    this.write();
  }

  write() {
    if (!this.file) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.doc, null, 2) + '\n');
    fs.renameSync(tmp, this.file);
  }
}

class ResultFormatError extends Error {}

/** A result document of version 1 or 2, as version 2. */
function upgrade(doc, file = 'the document') {
  if (doc.version !== 1 && doc.version !== VERSION) {
    throw new ResultFormatError(`${file}: result format version ${JSON.stringify(doc.version)}; this lab reads versions 1 and ${VERSION}`);
  }
  return { ...doc, version: VERSION, results: doc.results.map(typedRecord) };
}

/** The result file a command-line argument names: the file itself, or results.json in a run folder. */
function resultPath(arg) {
  try {
    return fs.statSync(arg).isDirectory() ? path.join(arg, 'results.json') : arg;
  } catch (e) {
    return arg; // reading it says what is wrong
  }
}

/**
 * Reads a result file (or a run folder's results.json), version 1 or 2, given as version 2; one
 * clear error when it is not one. A
 * byte-order mark, which some editors add when a file is saved, is dropped: JSON.parse refuses it.
 */
function readResults(arg) {
  const file = resultPath(arg);
  let doc;
  try {
    const text = fs.readFileSync(file, 'utf8');
    doc = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const why = e.code === 'ENOENT' ? 'no such file' : e.code ? `cannot read it (${e.code})` : `not JSON (${e.message})`;
    throw new ResultFormatError(`${file}: ${why}`);
  }
  if (!doc || doc.format !== lab.FORMAT || !Array.isArray(doc.results)) {
    throw new ResultFormatError(`${file}: not a mongo-perf-lab result file (no "format": "${lab.FORMAT}"); write one with run --json FILE`);
  }
  return upgrade(doc, file);
}

module.exports = {
  ResultFile, environment, checkWritable, readResults, resultPath, upgrade, typedRecord, OutputPathError, ResultFormatError, VERSION,
};
