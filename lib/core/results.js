'use strict';
// The one result format (docs/result-format.schema.json): an environment record and one record per
// (study, variant, axis point). The file is rewritten atomically (temporary file + rename) after
// every axis point, so a run stopped at any moment leaves valid JSON holding what it finished.

const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const LabPlan = require('../../scripts/lib/plan');
const LabRecords = require('../../scripts/lib/records');
const { checkWritableFile } = require('../infra/output-paths');
const cleanup = require('../infra/cleanup');
const { UsageError } = require('../infra/errors');
const { factsNamed } = require('./env-facts');
const LAB_VERSION = require('../../package.json').version;

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
// each of `warnings` is {code, text} (codes: LabRecords.WARN). The record module makes version 2;
// readResults reads both versions and gives version 2.
const VERSION = LabRecords.FORMAT_VERSION;

/** A version-1 record in version 2's terms (a copy when something changes; measures and v2 records as they are). */
function typedRecord(r) {
  if (r.type !== 'result') return r;
  const typedSkip = r.skipped && typeof r.skipped !== 'object';
  const typedWarn = Array.isArray(r.warnings) && r.warnings.some((w) => typeof w !== 'object');
  if (!typedSkip && !typedWarn) return r;
  return {
    ...r,
    ...(typedSkip ? { skipped: LabPlan.skippedOf(r.skipped) } : {}),
    ...(typedWarn ? { warnings: r.warnings.map(LabRecords.warningOf) } : {}),
  };
}

// The error a bad output path gives: the CLI's usage error, one line.
const OutputPathError = UsageError;

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  } catch (e) {
    return null;
  }
}

function pkgVersion(name) {
  try {
    return require(`${name}/package.json`).version;
  } catch (e) {
    return null;
  }
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
      // The cores this process (and an embedded server it starts) may use, as Node reports them:
      // CPU affinity (taskset, a cgroup cpuset) and, with newer libuv, a cgroup CPU quota. Fewer
      // cores change what is measured where work hands off between threads (a server's own
      // JavaScript thread, for one).
      usableCores: os.availableParallelism(),
      memoryGB: Number((os.totalmem() / 1073741824).toFixed(1)),
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      loadavgStart: os.loadavg().map((x) => Number(x.toFixed(2))),
      loadavgEnd: null,
    },
    software: {
      node: process.version,
      driver: pkgVersion('mongodb'),
      mongosh: pkgVersion('mongosh'),
      lab: LAB_VERSION,
    },
    lab: { commit: gitCommit() },
    startedAt: new Date().toISOString(),
    finishedAt: null,
    ...extra,
  };
}

/** An axis point's identity within a study: its coordinates, in a stable order. */
function pointKey(axis) {
  const a = axis || {};
  return JSON.stringify(
    Object.keys(a)
      .sort()
      .map((k) => [k, a[k]]),
  );
}

// What must be the same for a measurement in the file to stand for one this run would make: the
// server and how it runs, the machine's size, the software and the lab's own code, the profile.
const SETTING = factsNamed('resume');

/** null when a file measured in environment `was` can be resumed in `now`; else what differs. */
function settingDiff(was, now) {
  for (const [what, get] of SETTING) {
    const a = get(was || {});
    const b = get(now || {});
    if ((a === undefined ? null : a) !== (b === undefined ? null : b))
      return `${what} ${JSON.stringify(a)} then, ${JSON.stringify(b)} now`;
  }
  return null;
}

/** Resolved parameters compared by value, whatever the order of their keys. */
function sameParams(a, b) {
  // Through JSON first: the earlier parameters were read back from the file.
  const norm = (o) => {
    const j = JSON.parse(JSON.stringify(o || {}));
    return JSON.stringify(
      Object.keys(j)
        .sort()
        .map((k) => [k, j[k]]),
    );
  };
  return norm(a) === norm(b);
}

class ResultFile {
  /**
   * @param {string|null} file where to write (null: keep in memory only)
   * @param {object} env environment(server, ...)
   * @param {object} [o]
   * @param {boolean} [o.resume] when `file` already holds a run of the same studies in the same
   *   setting (settingDiff), keep its finished axis points: runStudy skips them. A file from another
   *   setting is moved aside (results.json -> results-<its start>.json), never overwritten.
   * @param {string[]} [o.studies] the studies this run measures (part of what must match)
   * @param {Function} [o.log] says what was kept or why not
   */
  constructor(file, env, { resume = false, studies = null, log = () => {} } = {}) {
    this.file = file ? path.resolve(file) : null;
    this.log = log;
    this.doc = {
      format: LabRecords.FORMAT,
      version: VERSION,
      complete: false,
      environment: env,
      results: [],
      notes: [],
      progress: { studies, params: {}, points: {}, done: [], sessions: [] },
    };
    if (resume && this.file && fs.existsSync(this.file)) this.resumeFrom(env, studies);
    this.doc.progress.sessions.push({
      startedAt: env.startedAt,
      loadavgStart: env.host ? env.host.loadavgStart : null,
      kept: this.doc.results.length,
    });
    this.write();
  }

  /** Takes over the earlier file's finished points when its setting is this run's; else moves it aside. */
  resumeFrom(env, studies) {
    let old = null;
    let why;
    try {
      // Its records' shape is checked (a null would stop the run); their times are the readers' concern.
      old = readResults(this.file, { timed: false });
      why = !old.progress
        ? 'it does not record which points were finished (written before resuming existed)'
        : settingDiff(old.environment, env) ||
          (JSON.stringify(old.progress.studies) !== JSON.stringify(studies)
            ? `studies ${(old.progress.studies || []).join(',')} then, ${(studies || []).join(',')} now`
            : null);
    } catch (e) {
      why = e.message;
    }
    if (why) {
      const aside =
        this.file.replace(/\.json$/, '') +
        `-${String((old && old.environment && old.environment.startedAt) || Date.now()).replace(/[-:.]/g, '')}.json`;
      fs.renameSync(this.file, aside);
      this.log(`not resuming ${this.file}: ${why}; starting over (the earlier file is now ${aside})`);
      return;
    }
    this.doc.environment = { ...old.environment, finishedAt: null };
    this.doc.results = old.results;
    this.doc.notes = old.notes || [];
    this.doc.params = old.params || {};
    this.doc.progress.params = this.doc.progress.params || {};
    this.doc.progress = old.progress;
  }

  /**
   * At a study's start, once its parameters are resolved: what the file already holds of it with the
   * same parameters -> { done, points: Map(pointKey -> records) }. Records of the study measured with
   * other parameters, or made after its points by a run that did not finish it, are dropped.
   */
  beginStudy(study, params) {
    const pr = this.doc.progress;
    const before = pr.params[study];
    const keys = new Set(pr.points[study] || []);
    if (before && !sameParams(before, params) && (keys.size || pr.done.includes(study))) {
      this.log(`${study}: measured in ${this.file} with other parameters: measuring it again`);
      keys.clear();
    }
    const done = keys.size > 0 && pr.done.includes(study);
    const points = new Map();
    this.doc.results = this.doc.results.filter((r) => {
      if (r.study !== study) return true;
      const k = pointKey(r.axis);
      if (!done && !keys.has(k)) return false;
      if (!points.has(k)) points.set(k, []);
      points.get(k).push(r);
      return true;
    });
    if (!done) this.doc.notes = this.doc.notes.filter((n) => n.study !== study || keys.size);
    pr.points[study] = [...keys];
    pr.done = pr.done.filter((s) => s !== study || done);
    pr.params[study] = params;
    this.write();
    return { done, points };
  }

  /** The records of one axis point, all written at once: the point counts as measured. */
  addPoint(study, axis, records) {
    const pr = this.doc.progress;
    (pr.points[study] || (pr.points[study] = [])).push(pointKey(axis));
    this.add(records);
  }

  /** The study ran to its end (its `after` step included): a resumed run skips it whole. */
  studyDone(study, times) {
    const pr = this.doc.progress;
    if (!pr.done.includes(study)) pr.done.push(study);
    if (times) pr.times = { ...(pr.times || {}), [study]: times };
    this.write();
  }

  add(records) {
    this.doc.results.push(...records.map(typedRecord));
    this.write();
  }

  note(study, text) {
    // A resumed study says its notes again: keep one of each.
    if (this.doc.notes.some((n) => n.study === study && n.text === text)) return;
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
    // After Ctrl-C the run goes on while the clean-up steps run: the file keeps what was finished
    // when the signal came (a resumed run measures the rest), not what the dying run adds.
    if (!this.file || cleanup.interrupted()) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, JSON.stringify(this.doc, null, 2) + '\n');
      fs.renameSync(tmp, this.file);
    } catch (e) {
      // A failed write (full disk, read-only folder) leaves no temporary file behind.
      fs.rmSync(tmp, { force: true });
      throw e;
    }
  }
}

// A file that is not a result file, or holds a record the lab did not write: one line, exit 2.
const { parseResultBytes, checkResultDoc, ResultFormatError } = require('./result-reader');

/** A result document of version 1 or 2, as version 2. */
function upgrade(doc, file = 'the document') {
  if (doc.version !== 1 && doc.version !== VERSION) {
    throw new ResultFormatError(
      `${file}: result format version ${JSON.stringify(doc.version)}; this lab reads versions 1 and ${VERSION}`,
    );
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
 * clear error naming the file (and the record) when it is not one the lab wrote. Any size: a file
 * too large for one string is parsed record by record (lib/core/result-reader.js).
 * @param {string} arg
 * @param {object} [o] { wholeLimit: the largest file parsed as one string (tests lower it),
 *   timed: false to leave out the checks of the results' times (a file to resume) }
 */
function readResults(arg, o) {
  const file = resultPath(arg);
  let buf;
  try {
    buf = fs.readFileSync(file);
  } catch (e) {
    const why =
      e.code === 'ENOENT'
        ? 'no such file'
        : e.code === 'EISDIR'
          ? 'a folder without results.json'
          : `cannot read it (${e.code || e.message})`;
    throw new ResultFormatError(`${file}: ${why}`);
  }
  // o is an options object only when given as one (readResults is also a map() callback).
  const opts = o && typeof o === 'object' ? o : {};
  const doc = parseResultBytes(buf, file, opts);
  return upgrade(checkResultDoc(doc, file, opts), file);
}

module.exports = {
  ResultFile,
  pointKey,
  settingDiff,
  environment,
  checkWritable,
  readResults,
  resultPath,
  upgrade,
  typedRecord,
  OutputPathError,
  ResultFormatError,
  VERSION,
};
