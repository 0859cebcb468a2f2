#!/usr/bin/env node
'use strict';
// One parameter's trip (#35): the calls that carry `--docs`'s value from the CLI into the study's
// shell side and back to the report, in the order they happen.
//
//   node tools/param-walk.js [--value 1234] [--json] [--root DIR] [--keep-trace FILE] [-- <run arguments>]
//
// --root DIR walks another checkout's bin/mongo-perf-lab.js (an old build in a git worktree).
//
// It runs `bin/mongo-perf-lab.js run where --profile tiny --docs 1234 --no-charts --quiet --out <tmp>`
// in a child Node process with this file preloaded (-r). There, a hook records every call of a lab
// function (bin/, lib/, scripts/, fixtures/; never node_modules) whose arguments contain the value
// (deeply, bounded: depth 6, 2,000 nodes, as the number or the string): a "stop" (file, function).
// Node side: each lab module's exported functions, its exported classes' methods (prototype and
// static) and the functions of an exported object (a study's declaration) are wrapped where they
// sit, when the module first loads: calls between files are seen, a module's calls to its own
// unexported functions are not. Shell side: every file the in-process mongosh runtime load()s is
// attributed the globals its evaluation defined (functions, and the functions of objects up to two
// levels deep, e.g. lab.node.configure); those are wrapped in the runtime's context, so Node's
// bridge calls and a script's calls through a global name are seen, calls through a closure are not.
//
// The counts: stops (calls that carry the value), files entered (distinct files), returns (a stop in
// a file the walk had been in and then left: the stop before it was in another file).
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const LAB_DIRS = ['bin', 'lib', 'scripts', 'fixtures'];

/**
 * The walk's counts over a sequence of stops.
 * @param {{file: string, fn: string}[]} stops in call order
 * @returns {{stops: number, files: number, returns: number}}
 */
function countWalk(stops) {
  const seen = new Set();
  let returns = 0;
  let prev = null;
  for (const s of stops) {
    if (s.file !== prev && seen.has(s.file)) returns++;
    seen.add(s.file);
    prev = s.file;
  }
  return { stops: stops.length, files: seen.size, returns };
}

/** Whether `v` holds `target` (a number; its decimal string counts too), bounded in depth and size. */
function carries(v, target, budget = { nodes: 2000 }, depth = 0, seen = new Set()) {
  if (v === target || v === String(target)) return true;
  if (typeof v === 'string') return new RegExp(`(^|[^0-9])${target}([^0-9]|$)`).test(v) && v.length < 200;
  if (v === null || typeof v !== 'object' || depth > 6 || seen.has(v)) return false;
  seen.add(v);
  let keys;
  try {
    keys = Array.isArray(v) ? v.keys() : Object.keys(v);
  } catch {
    return false;
  }
  for (const k of keys) {
    if (--budget.nodes < 0) return false;
    let x;
    try {
      const d = Object.getOwnPropertyDescriptor(v, k);
      if (!d || !('value' in d)) continue; // never run a getter
      x = d.value;
    } catch {
      continue;
    }
    if (carries(x, target, budget, depth + 1, seen)) return true;
  }
  return false;
}

/** The lab file a path names, relative to the root; null outside the lab (node_modules, tools/). */
function labFile(file, root = ROOT) {
  const rel = path.relative(root, file);
  if (rel.startsWith('..') || rel.includes('node_modules')) return null;
  return LAB_DIRS.includes(rel.split(path.sep)[0]) ? rel : null;
}

// ---- the hook, in the child process --------------------------------------------------------------

function installHook(out, target, root) {
  const Module = require('module');
  const vm = require('vm');
  const WRAPPED = Symbol('param-walk');
  const stops = [];
  const bridge = [];

  function wrapFn(fn, file, name) {
    if (typeof fn !== 'function' || fn[WRAPPED]) return fn;
    const src = Function.prototype.toString.call(fn);
    if (/^class\b/.test(src)) {
      wrapClass(fn, file, name);
      return fn;
    }
    const w = function (...args) {
      if (carries(args, target)) stops.push({ file, fn: name });
      return new.target ? Reflect.construct(fn, args, fn) : fn.apply(this, args);
    };
    Object.defineProperty(w, 'name', { value: fn.name });
    Object.defineProperty(w, 'length', { value: fn.length });
    for (const k of Reflect.ownKeys(fn)) {
      if (['name', 'length', 'prototype', 'arguments', 'caller'].includes(k)) continue;
      try {
        Object.defineProperty(w, k, Object.getOwnPropertyDescriptor(fn, k));
      } catch {
        /* a non-configurable own property stays on the original only */
      }
    }
    if (fn.prototype) w.prototype = fn.prototype;
    w.toString = () => src;
    w[WRAPPED] = true;
    return w;
  }

  function wrapMembers(obj, file, prefix, depth) {
    if (!obj || (typeof obj !== 'object' && typeof obj !== 'function') || obj[WRAPPED]) return;
    try {
      Object.defineProperty(obj, WRAPPED, { value: true });
    } catch {
      return;
    }
    for (const k of Object.keys(obj)) {
      const d = Object.getOwnPropertyDescriptor(obj, k);
      if (!d || !('value' in d) || !d.writable) continue;
      if (typeof d.value === 'function') obj[k] = wrapFn(d.value, file, `${prefix}${k}`);
      else if (depth > 0 && d.value && typeof d.value === 'object' && !Array.isArray(d.value))
        wrapMembers(d.value, file, `${prefix}${k}.`, depth - 1);
    }
  }

  function wrapClass(C, file, name) {
    if (Object.prototype.hasOwnProperty.call(C, WRAPPED)) return;
    Object.defineProperty(C, WRAPPED, { value: true });
    for (const [obj, sep] of [
      [C.prototype, '#'],
      [C, '.'],
    ]) {
      if (!obj) continue;
      for (const k of Object.getOwnPropertyNames(obj)) {
        if (k === 'constructor' || k === 'prototype' || k === 'length' || k === 'name') continue;
        const d = Object.getOwnPropertyDescriptor(obj, k);
        if (!d || !('value' in d) || typeof d.value !== 'function' || !d.configurable) continue;
        Object.defineProperty(obj, k, { ...d, value: wrapFn(d.value, file, `${name}${sep}${k}`) });
      }
    }
  }

  // Node side: a lab module's exports, wrapped where they sit when it first loads.
  const done = new WeakSet();
  const origLoad = Module._load;
  Module._load = function (request, parent, isMain) {
    const exp = origLoad.apply(this, arguments);
    let file;
    try {
      file = labFile(Module._resolveFilename(request, parent, isMain), root);
    } catch {
      return exp;
    }
    if (!file || file.endsWith('.json')) return exp;
    const mod = require.cache[Module._resolveFilename(request, parent, isMain)];
    if (!mod || done.has(mod)) return mod ? mod.exports : exp;
    done.add(mod);
    if (typeof mod.exports === 'function' && !/^class\b/.test(Function.prototype.toString.call(mod.exports))) {
      const w = wrapFn(mod.exports, file, mod.exports.name || '(default)');
      wrapMembers(mod.exports, file, `${mod.exports.name || '(default)'}.`, 1);
      mod.exports = w;
      return w;
    }
    if (typeof mod.exports === 'function') wrapClass(mod.exports, file, mod.exports.name);
    else wrapMembers(mod.exports, file, '', 1);
    return mod.exports;
  };

  // Shell side: the scripts' globals, in the contexts they are evaluated in.
  // The globals an evaluation of `file` added to `ctx` are that file's (a nested load() claims its
  // own first, so the outer file takes only the rest).
  const claimedOf = new WeakMap();
  function claimNewGlobals(ctx, file, before) {
    if (!claimedOf.has(ctx)) claimedOf.set(ctx, new Set());
    const claimed = claimedOf.get(ctx);
    for (const k of Object.keys(ctx)) {
      if (before.has(k) || claimed.has(k)) continue;
      claimed.add(k);
      const v = ctx[k];
      if (typeof v === 'function') ctx[k] = wrapFn(v, file, k);
      else if (v && typeof v === 'object') wrapMembers(v, file, `${k}.`, 1);
    }
  }

  // A declaration evaluated in a plain Node vm (lib/core/registry.js loadDeclaration) names its file.
  const origRun = vm.runInContext;
  vm.runInContext = function (code, ctx, opts) {
    const file = opts && typeof opts === 'object' && opts.filename ? labFile(opts.filename, root) : null;
    if (!file || !ctx || typeof ctx !== 'object') return origRun.apply(this, arguments);
    const before = new Set(Object.keys(ctx));
    const r = origRun.apply(this, arguments);
    claimNewGlobals(ctx, file, before);
    return r;
  };

  // The in-process mongosh runtime: each load() of a lab file (its onLoad's evaluate).
  let runtimeCore;
  try {
    runtimeCore = require(require.resolve('@mongosh/browser-runtime-core', { paths: [root] }));
  } catch {
    runtimeCore = null;
  }
  if (runtimeCore && runtimeCore.OpenContextRuntime) {
    const proto = runtimeCore.OpenContextRuntime.prototype;
    const origSet = proto.setEvaluationListener;
    proto.setEvaluationListener = function (listener) {
      const ctx = this.interpreterEnvironment && this.interpreterEnvironment.getContextObject();
      if (listener && listener.onLoad && ctx) {
        const onLoad = listener.onLoad;
        listener = {
          ...listener,
          onLoad: async (filename) => {
            const r = await onLoad(filename);
            const file = labFile(r.resolvedFilename, root);
            if (!file) return r;
            return {
              ...r,
              evaluate: async () => {
                const before = new Set(Object.keys(ctx));
                await r.evaluate();
                claimNewGlobals(ctx, file, before);
              },
            };
          },
        };
      }
      return origSet.call(this, listener);
    };
  }

  // The bridge calls that carry the value (ShellSession#call): counted on their own as well.
  process.on('exit', () => {
    for (const s of stops) if (/shell-runner\.js$/.test(s.file) && /#call$/.test(s.fn)) bridge.push(s);
    fs.writeFileSync(out, JSON.stringify({ stops, bridgeCalls: bridge.length }));
  });
}

// ---- the tool ------------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { value: 1234, json: false, keepTrace: null, root: ROOT, run: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: node tools/param-walk.js [--value 1234] [--json] [--root DIR] [--keep-trace FILE] [-- <run arguments>]\n',
      );
      process.exit(0);
    } else if (a === '--json') o.json = true;
    else if (a === '--value') o.value = Number(argv[++i]);
    else if (a === '--keep-trace') o.keepTrace = argv[++i];
    else if (a === '--root') o.root = path.resolve(argv[++i]);
    else if (a === '--') {
      o.run = argv.slice(i + 1);
      break;
    } else {
      process.stderr.write(`param-walk: unknown option ${a}: see the usage at the top of tools/param-walk.js\n`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(o.value) || o.value < 10) {
    process.stderr.write('param-walk: --value must be an integer of two digits or more (e.g. 1234)\n');
    process.exit(2);
  }
  return o;
}

/** Consecutive stops of one file and function folded into one line with a count. */
function abridge(stops) {
  const lines = [];
  for (const s of stops) {
    const last = lines[lines.length - 1];
    if (last && last.file === s.file && last.fn === s.fn) last.n++;
    else lines.push({ ...s, n: 1 });
  }
  return lines.map((l) => `${l.file}:${l.fn}${l.n > 1 ? ` x${l.n}` : ''}`);
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const { spawnSync } = require('child_process');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'param-walk-'));
  const trace = path.join(tmp, 'trace.json');
  const runArgs = o.run || [
    'run',
    'where',
    '--profile',
    'tiny',
    '--docs',
    String(o.value),
    '--no-charts',
    '--no-progress',
    '--quiet',
    '--out',
    path.join(tmp, 'out'),
  ];
  const r = spawnSync(process.execPath, ['-r', __filename, path.join(o.root, 'bin', 'mongo-perf-lab.js'), ...runArgs], {
    cwd: o.root,
    env: { ...process.env, PARAM_WALK_OUT: trace, PARAM_WALK_VALUE: String(o.value), PARAM_WALK_ROOT: o.root },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0 || !fs.existsSync(trace)) {
    process.stderr.write(`param-walk: the run exited ${r.status}: ${String(r.stderr).trim().split('\n').pop()}\n`);
    process.exit(1);
  }
  const t = JSON.parse(fs.readFileSync(trace, 'utf8'));
  if (o.keepTrace) fs.copyFileSync(trace, o.keepTrace);
  fs.rmSync(tmp, { recursive: true, force: true });
  const counts = countWalk(t.stops);
  const command = `node bin/mongo-perf-lab.js ${runArgs.join(' ').replace(tmp, '<tmp>')}`;
  if (o.json) {
    process.stdout.write(
      JSON.stringify({ command, value: o.value, ...counts, bridgeCalls: t.bridgeCalls, stops: t.stops }, null, 1) +
        '\n',
    );
    return;
  }
  process.stdout.write(`${command}\n\n${abridge(t.stops).join('\n')}\n\n`);
  process.stdout.write(
    `${counts.stops} stops, ${counts.files} files entered, ${counts.returns} returns to a file it had left; ` +
      `${t.bridgeCalls} bridge calls carry ${o.value}\n`,
  );
}

if (require.main === module) main();
else if (process.env.PARAM_WALK_OUT)
  installHook(process.env.PARAM_WALK_OUT, Number(process.env.PARAM_WALK_VALUE), process.env.PARAM_WALK_ROOT || ROOT);

module.exports = { countWalk, carries, labFile, abridge };
