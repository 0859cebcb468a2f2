'use strict';
// The command that runs this lab again from where the user is, for the commands it prints: inside
// the clone `npx mongo-perf-lab` works; elsewhere npx would look the (unpublished) name up in the
// registry and fail, so an installed command on PATH, else node with the lab's own bin path.
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
const NAME = 'mongo-perf-lab';

function shellQuote(s) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function realpath(p) {
  try {
    return fs.realpathSync(p);
  } catch (e) {
    return null;
  }
}

/** The first `mongo-perf-lab` on PATH, resolved (a global install is a symlink to bin/). */
function onPath(env = process.env) {
  for (const dir of (env.PATH || '').split(path.delimiter).filter(Boolean)) {
    const hit = realpath(path.join(dir, NAME));
    if (hit) return hit;
  }
  return null;
}

/**
 * @param {object} [o] { cwd, env } (tests)
 * @returns {string} e.g. 'npx mongo-perf-lab', 'mongo-perf-lab' or "node '/path/to/bin/mongo-perf-lab.js'"
 */
function selfCommand({ cwd = process.cwd(), env = process.env } = {}) {
  const rel = path.relative(realpath(ROOT) || ROOT, realpath(cwd) || cwd);
  const inside = !rel.startsWith('..') && !path.isAbsolute(rel);
  if (inside && fs.existsSync(path.join(ROOT, 'package.json'))) return `npx ${NAME}`;
  if (onPath(env) === realpath(BIN)) return NAME;
  return `node ${shellQuote(BIN)}`;
}

module.exports = { selfCommand, shellQuote };
