'use strict';
// The source's client, PyMongo, for any study that measures it (sources 000, 002 and 004 wrote and
// read with PyMongo): found or installed once, and a Python process of one script answering one
// JSON request per line. The studies' own scripts say what is measured (the mapreduce study's
// py_client.py reads, the inserts study's py_writer.py writes); this module only finds Python,
// installs PyMongo and carries the JSON.
// Installed the way the lab gets its mongod (lib/infra/mongod-binary.js): once, by package name with
// pip, into the lab's cache (~/.cache/mongo-perf-lab/pymongo-<version>, `pip install --target`),
// pinned and verified by importing it (its version, and that its C extensions load: without them
// BSON is pure Python, several times slower, and not the client a user gets from the wheel).
//   npm run setup-pymongo (node lib/infra/pymongo.js --setup)     installs it (README, .ci/run)
// A run installs it on first use the same way; where that fails (no python3, no pip, no registry)
// the py-* variants are skipped with that command and the client claims say "no PyMongo client"
// (not reproduced here), never judged on the Node driver instead.
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { spawn, spawnSync } = require('child_process');
const { cacheDir } = require('./mongod-binary');
const { LabError } = require('./errors');

// pymongo and its one dependency, pinned (both ship wheels: pymongo's manylinux wheel carries the C extensions).
const PINS = ['pymongo==4.20.1', 'dnspython==2.9.2'];
const VERSION = '4.20.1';
// The documented command (README, .ci/run); it calls installPyMongo below.
const SETUP = 'npm run setup-pymongo';

function targetDir() {
  return path.join(cacheDir(), `pymongo-${VERSION}`);
}

function python() {
  for (const name of ['python3', 'python']) {
    const r = spawnSync(name, ['--version'], { encoding: 'utf8', timeout: 10000 });
    if (r.status === 0) return name;
  }
  return null;
}

/** What the installed copy says about itself: { version, hasC } or { error }. */
function probe(py, dir) {
  const r = spawnSync(py, ['-c', 'import json, pymongo; print(json.dumps([pymongo.version, pymongo.has_c()]))'], {
    encoding: 'utf8',
    timeout: 30000,
    env: { ...process.env, PYTHONPATH: dir },
  });
  if (r.status !== 0) return { error: (r.stderr || String(r.error)).trim().split('\n').pop() };
  const [version, hasC] = JSON.parse(r.stdout.trim());
  return { version, hasC };
}

let found;

/**
 * The installed PyMongo: { python, dir, version, hasC } when it is there and verified, else
 * { missing: why } (with the command that installs it). Asked once per process.
 */
function findPyMongo() {
  if (found) return found;
  const py = python();
  const dir = targetDir();
  if (!py) found = { missing: `no python3 on PATH (PyMongo needs Python 3): install Python 3, then ${SETUP}` };
  else if (!fs.existsSync(path.join(dir, 'pymongo'))) found = { missing: `PyMongo is not installed: ${SETUP}` };
  else {
    const p = probe(py, dir);
    if (p.error) found = { missing: `PyMongo in ${dir} does not load (${p.error}): ${SETUP}` };
    else if (p.version !== VERSION)
      found = { missing: `PyMongo in ${dir} is ${p.version}, not the pinned ${VERSION}: ${SETUP}` };
    else if (!p.hasC) found = { missing: `PyMongo in ${dir} runs without its C extensions: ${SETUP}` };
    else found = { python: py, dir, version: p.version, hasC: p.hasC };
  }
  return found;
}

/** Installs the pinned PyMongo into the cache (once; verified); returns findPyMongo()'s answer. */
function installPyMongo({ log = () => {} } = {}) {
  found = undefined;
  const have = findPyMongo();
  if (!have.missing) return have;
  const py = python();
  if (!py) throw new LabError(have.missing);
  const dir = targetDir();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.fetch-`);
  try {
    log(`installing ${PINS.join(' ')} into ${dir} (pip, ~2 MB, once)...`);
    const r = spawnSync(
      py,
      [
        '-m',
        'pip',
        'install',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '--quiet',
        '--target',
        tmp,
        ...PINS,
      ],
      { encoding: 'utf8', timeout: 600000 },
    );
    if (r.status !== 0)
      throw new LabError(
        `pip could not install ${PINS.join(' ')}: ${(r.stderr || String(r.error)).trim().split('\n').pop()}`,
      );
    const p = probe(py, tmp);
    if (p.error || p.version !== VERSION || !p.hasC)
      throw new LabError(
        `the installed PyMongo does not verify (${p.error || `version ${p.version}, C extensions ${p.hasC}`})`,
      );
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir); // a concurrent run sees either the old copy or the whole new one
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  found = undefined;
  return findPyMongo();
}

/**
 * PyMongo for a run: the installed copy, else installed now (once per process; pip, ~10 s, into
 * the lab's cache), else { missing } saying why and how to install it.
 */
let tried = null;
function ensurePyMongo({ log = () => {} } = {}) {
  const pm = findPyMongo();
  if (!pm.missing) return pm;
  if (tried) return tried;
  try {
    tried = installPyMongo({ log });
  } catch (e) {
    tried = { missing: `${pm.missing} (installing it failed: ${e.message})` };
  }
  return tried;
}

/**
 * One Python process running `script` with the installed PyMongo on its path; request(obj)
 * writes obj as one JSON line and resolves to the script's one-line JSON reply ({ ok: true, ... },
 * or rejects with its { ok: false, error }). One request at a time (the harness runs one variant
 * at a time). The process ends when close() is called or when this process exits (its stdin
 * closes), so a failed run leaves nothing behind.
 */
class PyProcess {
  constructor(pm, script) {
    if (pm.missing) throw new LabError(pm.missing);
    this.child = spawn(pm.python, ['-u', script], {
      env: { ...process.env, PYTHONPATH: pm.dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pending = null;
    this.stderr = '';
    this.exited = null;
    this.child.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-2000);
    });
    this.child.on('error', (e) => this.fail(`the PyMongo process could not start: ${e.message}`));
    this.child.on('exit', (code, signal) => {
      this.exited = `the PyMongo process exited (${signal || `code ${code}`})${this.stderr ? `: ${this.stderr.trim().split('\n').pop()}` : ''}`;
      this.fail(this.exited);
    });
    this.child.stdin.on('error', () => {
      /* a closed pipe: the exit handler reports it */
    });
    readline.createInterface({ input: this.child.stdout }).on('line', (line) => this.answer(line));
    // Only a pending request keeps this process alive for the child's sake.
    this.idle();
  }

  idle() {
    this.child.unref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) if (s.unref) s.unref();
  }

  busy() {
    this.child.ref();
    for (const s of [this.child.stdin, this.child.stdout, this.child.stderr]) if (s.ref) s.ref();
  }

  fail(why) {
    const p = this.pending;
    this.pending = null;
    if (p) p.reject(new Error(why));
  }

  answer(line) {
    const p = this.pending;
    this.pending = null;
    this.idle();
    if (!p) return;
    let r;
    try {
      r = JSON.parse(line);
    } catch (e) {
      p.reject(new Error(`the PyMongo process wrote ${JSON.stringify(line.slice(0, 200))}`));
      return;
    }
    if (!r.ok) p.reject(new Error(`PyMongo: ${r.error}`));
    else p.resolve(r);
  }

  request(req) {
    if (this.exited) return Promise.reject(new Error(this.exited));
    if (this.pending) return Promise.reject(new Error('the PyMongo process is busy'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.busy();
      this.child.stdin.write(`${JSON.stringify(req)}\n`);
    });
  }

  close() {
    if (this.exited) return;
    this.child.stdin.end();
  }
}

/** The `--setup` command's body: installs PyMongo, one line on success, exit 1 with one line on failure. */
function setupMain() {
  try {
    const pm = installPyMongo({ log: (l) => process.stderr.write(`${l}\n`) });
    if (pm.missing) throw new Error(pm.missing);
    process.stdout.write(`PyMongo ${pm.version} (C extensions) ready in ${pm.dir}\n`);
  } catch (e) {
    process.stderr.write(`PyMongo setup failed: ${e.message}\n`);
    process.exit(1);
  }
}

module.exports = { findPyMongo, installPyMongo, ensurePyMongo, PyProcess, setupMain, SETUP, VERSION, PINS };

if (require.main === module) {
  if (process.argv[2] !== '--setup') {
    process.stderr.write(`usage: node lib/infra/pymongo.js --setup (${SETUP})\n`);
    process.exit(2);
  }
  setupMain();
}
