#!/usr/bin/env node
'use strict';
// One parameter's trip (#35): the calls that carry `--docs`'s value from the CLI into the study's
// shell side and back to the report, in the order they happen.
//
//   node tools/param-walk.js [--value 1234] [--json] [--root DIR] [--keep-trace FILE | --from FILE] [-- <run arguments>]
//
// --root DIR walks another checkout's bin/mongo-perf-lab.js (an old build in a git worktree);
// --keep-trace FILE keeps the recorded walk, --from FILE prints one kept walk again (no run).
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
// Two walks are counted: the parameter's (the number as an argument itself or under a key N or docs,
// or in a string such as argv's '1234') and the value's (the number anywhere in the arguments: also
// the records whose docsExamined or count equals N). Each: stops (calls that carry it), files
// entered (distinct files), returns (a stop in a file the walk had been in and then left: the stop
// before it was in another file), bridge calls (ShellSession#call, Node's hand-offs to mongosh), and
// the same counts per leg (legsOf). Not seen: calls inside a module to its unexported functions,
// shell functions reached through a closure, callbacks passed as arguments, and the mongosh CLI
// (a spawned process; `run` evaluates in-process).
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

/**
 * The walk in three legs, each counted on its own: out (the CLI to the run session's configure, the
 * last lab.node.configure), study (the fixture, the points, the shell side's records), back (from the
 * claims' judge to the report).
 * @param {{file: string, fn: string}[]} stops
 */
function legsOf(stops) {
  let out = -1;
  stops.forEach((s, i) => {
    if (/(^|\.)configure$/.test(s.fn) && s.file.startsWith('scripts/')) out = i;
  });
  let back = stops.findIndex((s, i) => i > out && s.file === 'lib/core/claims.js' && s.fn === 'judge');
  if (back < 0) back = stops.length;
  return {
    out: countWalk(stops.slice(0, out + 1)),
    study: countWalk(stops.slice(out + 1, back)),
    back: countWalk(stops.slice(back)),
  };
}

// The parameter's own names: `--docs` and the N it sets (study.cli maps docs -> N).
const PARAM_KEYS = ['N', 'docs'];

/**
 * Whether `v` (a call's arguments) holds `target`, bounded in depth (6) and size (2,000 values), never
 * through a getter: as a string anywhere ('1234', '--docs=1234'), and as the number anywhere or, with
 * o.keys, only as an argument itself or under one of those keys (so a record's docsExamined or count
 * that happens to equal N is not the parameter).
 * @param {any} v
 * @param {number} target
 * @param {{keys?: string[]}} [o]
 */
function carries(v, target, o = {}) {
  const budget = { nodes: 2000 };
  const seen = new Set();
  const digits = new RegExp(`(^|[^0-9])${target}([^0-9]|$)`);
  function walk(x, depth, key) {
    if (x === String(target)) return true;
    if (x === target) return !o.keys || depth <= 1 || o.keys.includes(String(key));
    if (typeof x === 'string') return x.length < 200 && digits.test(x);
    if (x === null || typeof x !== 'object' || depth > 6 || seen.has(x)) return false;
    seen.add(x);
    let keys;
    try {
      keys = Array.isArray(x) ? [...x.keys()] : Object.keys(x);
    } catch {
      return false;
    }
    for (const k of keys) {
      if (--budget.nodes < 0) return false;
      let d;
      try {
        d = Object.getOwnPropertyDescriptor(x, k);
      } catch {
        continue;
      }
      if (d && 'value' in d && walk(d.value, depth + 1, k)) return true;
    }
    return false;
  }
  return walk(v, 0, null);
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

  function wrapFn(fn, file, name) {
    if (typeof fn !== 'function' || fn[WRAPPED]) return fn;
    const src = Function.prototype.toString.call(fn);
    if (/^class\b/.test(src)) {
      wrapClass(fn, file, name);
      return fn;
    }
    const w = function (...args) {
      if (carries(args, target)) stops.push({ file, fn: name, own: carries(args, target, { keys: PARAM_KEYS }) });
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

  process.on('exit', () => fs.writeFileSync(out, JSON.stringify({ stops })));
}

// ---- the tool ------------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = { value: 1234, json: false, keepTrace: null, from: null, root: ROOT, run: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: node tools/param-walk.js [--value 1234] [--json] [--root DIR] [--keep-trace FILE | --from FILE] [-- <run arguments>]\n',
      );
      process.exit(0);
    } else if (a === '--json') o.json = true;
    else if (a === '--value') o.value = Number(argv[++i]);
    else if (a === '--keep-trace') o.keepTrace = argv[++i];
    else if (a === '--from') o.from = argv[++i];
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

/** Runs the command with the hook preloaded; its trace { stops, bridgeCalls, command }. */
function walkRun(o) {
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
  fs.rmSync(tmp, { recursive: true, force: true });
  t.command = `node bin/mongo-perf-lab.js ${runArgs.join(' ').replace(tmp, '<tmp>')}`;
  return t;
}

/** A walk's counts, its legs and its bridge calls (ShellSession#call, the hand-offs to mongosh). */
function summaryOf(stops) {
  const bridgeCalls = stops.filter((s) => s.file === 'lib/core/shell-runner.js' && /#call$/.test(s.fn)).length;
  return { ...countWalk(stops), legs: legsOf(stops), bridgeCalls };
}

function countsLine(c) {
  return (
    `${c.stops} stops, ${c.files} files entered, ${c.returns} returns to a file it had left, ` +
    `${c.bridgeCalls} bridge calls (legs: ` +
    Object.entries(c.legs)
      .map(([k, l]) => `${k} ${l.stops}/${l.files}/${l.returns}`)
      .join(', ') +
    ' stops/files/returns)'
  );
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const t = o.from ? JSON.parse(fs.readFileSync(o.from, 'utf8')) : walkRun(o);
  if (o.keepTrace) fs.writeFileSync(o.keepTrace, JSON.stringify(t));
  const own = t.stops.filter((s) => s.own);
  const walk = { parameter: summaryOf(own), value: summaryOf(t.stops) };
  if (o.json) {
    process.stdout.write(
      JSON.stringify({ command: t.command, value: o.value, ...walk, stops: t.stops }, null, 1) + '\n',
    );
    return;
  }
  process.stdout.write(`${t.command}\n\nThe parameter (${o.value} as an argument, under N or docs, or in a string):\n`);
  process.stdout.write(`${abridge(own).join('\n')}\n\n`);
  process.stdout.write(`the parameter: ${countsLine(walk.parameter)}\n`);
  process.stdout.write(
    `the value anywhere in the arguments (records whose counts equal it too): ${countsLine(walk.value)}\n`,
  );
}

if (require.main === module) main();
else if (process.env.PARAM_WALK_OUT)
  installHook(process.env.PARAM_WALK_OUT, Number(process.env.PARAM_WALK_VALUE), process.env.PARAM_WALK_ROOT || ROOT);

module.exports = { countWalk, legsOf, summaryOf, carries, labFile, abridge };
