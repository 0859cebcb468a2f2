'use strict';
// The source's client, PyMongo, for the mapreduce study's py-client-* variants (source 000 measured
// its client claims with Python 3.4 and PyMongo). Installed the way the lab gets its mongod
// (lib/infra/mongod-binary.js): once, by package name with pip, into the lab's cache
// (~/.cache/mongo-perf-lab/pymongo-<version>, `pip install --target`), pinned and verified by
// importing it (its version, and that its C extensions load: without them BSON decoding is pure
// Python, several times slower, and not the client a user gets from the wheel).
//   node lib/studies/mapreduce/pymongo.js --setup     installs it (README, .ci/run)
// A run of the study installs it on first use the same way; where that fails (no python3, no pip, no
// registry) the py-client-* variants are skipped with that command, and the client claims say
// "no PyMongo client" (not reproduced here), never judged on the Node driver instead.
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const { spawn, spawnSync } = require('child_process');
const { cacheDir } = require('../../infra/mongod-binary');
const { LabError } = require('../../infra/errors');

// pymongo and its one dependency, pinned (both ship wheels: pymongo's manylinux wheel carries the C extensions).
const PINS = ['pymongo==4.20.1', 'dnspython==2.9.2'];
const VERSION = '4.20.1';
const SETUP = 'node lib/studies/mapreduce/pymongo.js --setup';
const CLIENT = path.join(__dirname, 'py_client.py');

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
 * One Python process running py_client.py, connected to `uri`, database `db`, collection `coll`;
 * run(variant, n, field) resolves to { ms, answer } as the Python side timed it. One request at a
 * time (the harness runs one variant at a time). The process ends when close() is called or when
 * this process exits (its stdin closes), so a failed run leaves nothing behind.
 */
class PyClient {
  static async open(uri, db, coll, pm = findPyMongo()) {
    if (pm.missing) throw new LabError(pm.missing);
    const c = new PyClient(pm);
    const hello = await c.request({ op: 'connect', uri, db, coll });
    c.version = hello.pymongo;
    return c;
  }

  constructor(pm) {
    this.child = spawn(pm.python, ['-u', CLIENT], {
      env: { ...process.env, PYTHONPATH: pm.dir },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pending = null;
    this.stderr = '';
    this.exited = null;
    this.child.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-2000);
    });
    this.child.on('error', (e) => this.fail(`the PyMongo client could not start: ${e.message}`));
    this.child.on('exit', (code, signal) => {
      this.exited = `the PyMongo client exited (${signal || `code ${code}`})${this.stderr ? `: ${this.stderr.trim().split('\n').pop()}` : ''}`;
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
      p.reject(new Error(`the PyMongo client wrote ${JSON.stringify(line.slice(0, 200))}`));
      return;
    }
    if (!r.ok) p.reject(new Error(`PyMongo: ${r.error}`));
    else p.resolve(r);
  }

  request(req) {
    if (this.exited) return Promise.reject(new Error(this.exited));
    if (this.pending) return Promise.reject(new Error('the PyMongo client is busy'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.busy();
      this.child.stdin.write(`${JSON.stringify(req)}\n`);
    });
  }

  /** The harness's shape: the time is the Python side's own (lib/core/harness.js timeAsync). */
  async run(variant, n, field) {
    const r = await this.request({ op: 'run', variant, n, field });
    return { __labTook: true, ms: r.ms, answer: r.answer, extra: { client: `PyMongo ${this.version}` } };
  }

  close() {
    if (this.exited) return;
    this.child.stdin.end();
  }
}

module.exports = { findPyMongo, installPyMongo, PyClient, SETUP, VERSION, PINS };

if (require.main === module) {
  if (process.argv[2] !== '--setup') {
    process.stderr.write(`usage: ${SETUP}\n`);
    process.exit(2);
  }
  try {
    const pm = installPyMongo({ log: (l) => process.stderr.write(`${l}\n`) });
    if (pm.missing) throw new Error(pm.missing);
    process.stdout.write(`PyMongo ${pm.version} (C extensions) ready in ${pm.dir}\n`);
  } catch (e) {
    process.stderr.write(`PyMongo setup failed: ${e.message}\n`);
    process.exit(1);
  }
}
