'use strict';
// --keep with no server given (#37 item 3): the embedded mongod keeps its data in one directory of
// the lab's cache (<XDG_CACHE_HOME or ~/.cache>/mongo-perf-lab/kept-data) instead of a temporary one,
// so a later run with --keep finds the generated collections there and reuses them by their markers
// (LabFixture.decide: 'reuse' only while the marker names the collection's current UUID and the
// same generator, seed and size). The run treats that mongod as a server it was given: the same
// ownership protocol, the same end-of-run settling (with --keep: everything kept). `clean
// --kept-data` removes the directory. One run at a time holds it (a lock file, as `server --dbpath`).
const fs = require('fs');
const path = require('path');

const LOCK = 'mongo-perf-lab-run.lock'; // {pid, cmd} of the run using the kept data

/** The kept data's directory, beside the cached mongod binary. */
function keptDataDir() {
  return path.join(require('../infra/mongod-binary').cacheDir(), 'kept-data');
}

/** Whether a run should use the kept data: --keep, and no server given (--uri, $MONGODB_URI, --servers). */
function wantsKeptData(o) {
  return Boolean(o.keep && !o.uri && !process.env.MONGODB_URI && !(o.servers && o.servers.length));
}

/** Takes the kept data's directory for this run (exit 2 if another run holds it); returns release(). */
function lockKeptData(dir) {
  const { makeDirs } = require('../infra/output-paths');
  const { takeLock } = require('../infra/processes');
  const { UsageError } = require('../infra/errors');
  makeDirs(dir);
  const release = takeLock(path.join(dir, LOCK));
  if (!release)
    throw new UsageError(
      `--keep: another run is using the kept data in ${dir}; wait for it to end, or run without --keep`,
    );
  return release;
}

/**
 * Starts the embedded mongod on the kept data (after cleanup.install: its stop is a clean-up
 * step, so Ctrl-C stops it too); returns {uri, dir, stop()}. stop() keeps the data.
 */
async function startKeptData(o, log) {
  const cleanup = require('../infra/cleanup');
  const { LabError } = require('../infra/errors');
  const dir = keptDataDir();
  const release = lockKeptData(dir);
  const unlistRelease = cleanup.addSync(release);
  let server;
  try {
    server = await require('../infra/server').startStandalone({ dbPath: dir, cacheSizeGB: o.cacheSizeGB, log });
  } catch (e) {
    unlistRelease();
    release();
    throw new LabError(
      `--keep: the embedded mongod did not start on the kept data in ${dir} (${String(e.message).split('\n')[0]}); ` +
        'remove it with `mongo-perf-lab clean --kept-data` and run again',
      { cause: e },
    );
  }
  const unlistStop = cleanup.add(() => server.stop());
  const unlistKill = cleanup.addSync(() => server.killSync());
  const { wrapWords } = require('../../scripts/lib/fixture');
  const said = `--keep: the embedded mongod keeps its data in ${dir}; the next run with --keep reuses what its markers prove the same (remove it: mongo-perf-lab clean --kept-data)`;
  log(wrapWords(said, 100).join('\n'));
  const stop = async () => {
    await server.stop();
    unlistStop();
    unlistKill();
    unlistRelease();
    release();
  };
  return { uri: server.uri, dir, stop };
}

/** `clean --kept-data`: removes the kept data's directory, unless a run is using it. Returns its line. */
function removeKeptData() {
  const { lockHolder } = require('../infra/processes');
  const { UsageError } = require('../infra/errors');
  const dir = keptDataDir();
  if (!fs.existsSync(dir)) return `clean: no kept data in ${dir}: nothing to remove`;
  const held = lockHolder(path.join(dir, LOCK));
  if (held) throw new UsageError(`clean --kept-data: a run (pid ${held.pid}) is using ${dir}; wait for it to end`);
  fs.rmSync(dir, { recursive: true, force: true });
  return `clean: removed the embedded mongod's kept data, ${dir}`;
}

module.exports = { keptDataDir, wantsKeptData, startKeptData, removeKeptData };
