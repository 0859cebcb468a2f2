'use strict';
// Output paths are checked before any work starts, so that a run's results are never lost at its
// end (an unwritable --json or LAB_RESULTS_DIR used to fail after the whole run).
//
//   makeDirs(dir)                    mkdir -p that cannot hang (see below)
//   checkWritableFile(file, what)    throws UsageError (one line) unless file can be written; '-' is stdout
//   checkWritableDir(dir, what)      creates dir if needed; throws UsageError unless writable
//   removeIfLeftEmpty(dir)           at exit, removes dir (and the folders made for it) if still empty
const fs = require('fs');
const path = require('path');
const { UsageError } = require('./errors');

// The folders this process created (makeDirs): the only ones removeIfLeftEmpty may remove.
const made = new Set();

/**
 * mkdir -p without fs.mkdirSync's recursive mode, which never returns on /proc (Node 20): finds the
 * nearest existing ancestor, which must be a writable directory, then creates each level.
 */
function makeDirs(dir) {
  const missing = [];
  let d = path.resolve(dir);
  while (!fs.existsSync(d)) {
    missing.unshift(d);
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  if (!fs.statSync(d).isDirectory()) throw Object.assign(new Error(`${d} is not a directory`), { code: 'ENOTDIR' });
  if (/^\/(proc|sys)(\/|$)/.test(d)) throw Object.assign(new Error(`${d} is a kernel file system`), { code: 'EACCES' });
  fs.accessSync(d, fs.constants.W_OK);
  // Two runs started at once in a fresh folder both find it missing: the one that loses the race to
  // create it finds a directory there, which is what it wanted.
  for (const m of missing) {
    try {
      fs.mkdirSync(m);
      made.add(m);
    } catch (e) {
      if (e.code !== 'EEXIST' || !fs.statSync(m).isDirectory()) throw e;
    }
  }
}

/** Output paths are checked before any work: a run's results are never lost at the end. */
function checkWritableFile(file, what) {
  if (file === undefined || file === '-') return;
  const abs = path.resolve(file);
  if (/^\/(proc|sys|dev)(\/|$)/.test(abs) && abs !== '/dev/stdout' && abs !== '/dev/null') {
    throw new UsageError(`${what} ${file}: not a place for a results file`);
  }
  try {
    if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) throw new UsageError(`${what} ${file}: is a directory`);
    makeDirs(path.dirname(abs));
    fs.accessSync(path.dirname(abs), fs.constants.W_OK);
    if (fs.existsSync(abs)) fs.accessSync(abs, fs.constants.W_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`${what} ${file}: cannot be written (${e.code || e.message}); choose a writable path`);
  }
}

function checkWritableDir(dir, what) {
  const abs = path.resolve(dir);
  try {
    makeDirs(abs);
    fs.accessSync(abs, fs.constants.W_OK);
  } catch (e) {
    throw new UsageError(`${what} ${dir}: cannot be written (${e.code || e.message}); choose a writable directory`);
  }
}

/**
 * At the process's exit, `dir` and the folders above it that this process created for it (and no
 * other: a run started in the same second may share the folder) are removed while still empty: a
 * run refused or failed before its first file (a server it cannot reach, a foreign collection)
 * leaves no empty results/<date-time> behind. rmdir only: anything written, partial results
 * included, keeps its folder and the folders above it.
 */
function removeIfLeftEmpty(dir) {
  const chain = [];
  for (let d = path.resolve(dir); path.dirname(d) !== d; d = path.dirname(d)) chain.push(d);
  process.once('exit', () => {
    for (const f of chain) {
      if (!made.has(f)) return;
      try {
        fs.rmdirSync(f);
      } catch {
        return; // not empty (the run wrote into it) or already gone: it and its parents stay
      }
    }
  });
}

module.exports = { makeDirs, checkWritableFile, checkWritableDir, removeIfLeftEmpty };
