'use strict';
// Runs a file from scripts/ the way mongosh runs it, two ways:
//   - in-process, with the very runtime mongosh is built from (@mongosh/browser-runtime-core on
//     @mongosh/service-provider-node-driver): ~20 ms per evaluation instead of ~1.5 s per spawn;
//   - through the real `mongosh` CLI, for the end-to-end checks.
// Both load the file with the shell's own load(), so __dirname, print() and db behave the same.

const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { spawn } = require('child_process');
const cleanup = require('../infra/cleanup');
const { EventEmitter } = require('events');
const { Console } = require('console');
const { NodeDriverServiceProvider } = require('@mongosh/service-provider-node-driver');
const { OpenContextRuntime } = require('@mongosh/browser-runtime-core');
const { formatOutput } = require('@mongosh/cli-repl/lib/format-output');

const ROOT = path.resolve(__dirname, '..', '..');
// Resolved as a module, not as ROOT/node_modules/.bin: an installed lab may have its dependencies
// hoisted beside it (npm install --prefix DIR), where ROOT has no node_modules of its own.
const MONGOSH_BIN = require.resolve('@mongosh/cli-repl/bin/mongosh.js');

/**
 * Turns script parameters into the shell statement `var A = 1, B = "x";`.
 * Only finite numbers, booleans and plain strings are accepted, and values are written with
 * JSON.stringify: parameters are data, never code that gets concatenated into JavaScript.
 */
function paramsToShell(params = {}) {
  const parts = [];
  for (const [name, value] of Object.entries(params)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name))
      throw new Error(`bad script parameter name ${JSON.stringify(name)} (expected UPPER_CASE)`);
    const ok =
      (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' || typeof value === 'string';
    if (!ok) throw new Error(`script parameter ${name}: ${JSON.stringify(value)} is not a number, boolean or string`);
    parts.push(`${name} = ${JSON.stringify(value)}`);
  }
  return parts.length ? `var ${parts.join(', ')};` : '';
}

function resolveScript(file) {
  const abs = path.isAbsolute(file) ? file : path.join(ROOT, 'scripts', file);
  if (!fs.existsSync(abs)) throw new Error(`no such script: ${abs}`);
  return abs;
}

// The user's connection string is never rewritten (a multi-host or mongodb+srv URI is not a URL
// Node can parse, and its path names the auth database): the database is selected after connecting.
function selectDb(db) {
  if (db === undefined || db === null) return '';
  // eslint-disable-next-line no-control-regex -- a database name must not hold NUL
  if (typeof db !== 'string' || !/^[^/\\. "$*<>:|?\x00]{1,63}$/.test(db))
    throw new Error(`bad database name ${JSON.stringify(db)}`);
  return `db = db.getSiblingDB(${JSON.stringify(db)}); void 0;`;
}

/**
 * Driver options for the lab's shell connections: fail within 5 s unless the URI says otherwise.
 * patient: the driver's own timeouts (30 s), as the study's own client has them. A study's session
 * opens mid-run, on a server that has answered already: a silence then is the liveness watch's to
 * report (lib/infra/liveness.js, within its window, naming the study and the database left). With
 * 5 s, a server paused as a study began was reported as one that never answered, before the watch.
 */
function shellDriverOptions(uri, { patient = false } = {}) {
  const o = { productName: 'mongo-perf-lab', productDocsLink: 'https://www.mongodb.com/docs/mongodb-shell/' };
  if (patient) return o;
  if (!/[?&]serverSelectionTimeoutMS=/i.test(uri)) o.serverSelectionTimeoutMS = 5000;
  if (!/[?&]connectTimeoutMS=/i.test(uri)) o.connectTimeoutMS = 5000;
  return o;
}

class ShellSession {
  /** Connects once; evaluate many files. o.patient: see shellDriverOptions. */
  static async open(uri, db, { patient = false } = {}) {
    const bus = new EventEmitter();
    // The driver's connect awaits work that holds no ref'd handle, and mongodb-memory-server
    // unrefs its mongod: without a handle of our own Node may find an empty event loop and exit.
    const keepAlive = setInterval(() => {}, 1 << 30);
    try {
      const pick = selectDb(db);
      const sp = await NodeDriverServiceProvider.connect(uri, shellDriverOptions(uri, { patient }), {}, bus);
      const session = new ShellSession(sp, bus);
      session.keepAlive = keepAlive;
      if (pick) {
        try {
          await session.runtime.evaluate(pick);
        } catch (e) {
          await session.close();
          throw e;
        }
      }
      return session;
    } catch (e) {
      clearInterval(keepAlive);
      throw e;
    }
  }

  constructor(serviceProvider, bus) {
    this.sp = serviceProvider;
    this.lines = [];
    // A context with the Node globals the CLI's REPL context also has. The shell API rebinds
    // console.log & co. to print(), so the context gets a console of its own, not ours.
    const context = (this.ctx = vm.createContext({
      console: new Console({ stdout: process.stdout, stderr: process.stderr }),
      process,
      Buffer,
      URL,
      TextEncoder,
      TextDecoder,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      setImmediate,
      clearImmediate,
      require,
    }));
    const env = {
      sloppyEval: (code) => vm.runInContext(code, context),
      getContextObject: () => context,
    };
    this.runtime = new OpenContextRuntime(serviceProvider, env, bus);
    this.runtime.setEvaluationListener({
      onPrint: (values, type) => {
        const opts =
          type === 'printjson'
            ? { colors: false, compact: false, depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity }
            : { colors: false };
        const text = values.map((v) => formatOutput({ type: v.type, value: v.printable }, opts)).join(' ');
        this.lines.push(...text.split('\n'));
        if (this.echo) this.echo(text);
      },
      // load() resolves relative paths against the current directory, as the CLI does.
      onLoad: async (filename) => {
        const abs = path.resolve(filename);
        const contents = fs.readFileSync(abs, 'utf8');
        return {
          resolvedFilename: abs,
          evaluate: async () => {
            await this.runtime.evaluate(contents);
          },
        };
      },
      onExit: async (code) => {
        throw new Error(`script called exit(${code === undefined ? '' : code})`);
      },
    });
  }

  /**
   * Runs a script file with parameters; returns its printed lines.
   * @param {string} file name under scripts/ or absolute path
   * @param {object} [params] UPPER_CASE names -> numbers/strings, set as globals before the file runs
   * @param {object} [o] { echo: fn(text) } to stream output while it runs
   */
  async run(file, params = {}, { echo } = {}) {
    const abs = resolveScript(file);
    this.lines = [];
    this.echo = echo;
    // Globals outlive an evaluation: unset the previous runs' parameters and upper-case constants, as
    // a fresh mongosh process would not have them, so a script falls back to its defaults and the
    // lab's check for mistyped parameters sees only this run's.
    const stale = Object.keys(this.ctx).filter(
      (k) =>
        /^[A-Z][A-Z0-9_]*$/.test(k) &&
        k !== 'LAB_MODE' &&
        !(k in params) &&
        ['number', 'string', 'boolean'].includes(typeof this.ctx[k]),
    );
    const pre =
      paramsToShell(params) + (stale.length ? ` var ${stale.map((k) => `${k} = undefined`).join(', ')};` : '');
    if (pre.trim()) await this.runtime.evaluate(pre);
    await this.runtime.evaluate(`load(${JSON.stringify(abs)})`);
    return this.lines.slice();
  }

  /**
   * Loads a study's declaration once, in Node mode: `lab.main(STUDY)` then only registers the study,
   * and Node samples it with call('lab.node.sample', ...) instead of re-evaluating the file.
   */
  async loadStudy(file, { echo } = {}) {
    const abs = resolveScript(file);
    this.echo = echo;
    await this.runtime.evaluate('var LAB_MODE = "node";');
    // A declaration outside scripts/ (a user's own study) uses the lab without loading it itself.
    if (path.dirname(path.dirname(abs)) !== ROOT)
      await this.runtime.evaluate(`load(${JSON.stringify(path.join(ROOT, 'scripts', 'lib', 'lab.js'))})`);
    await this.runtime.evaluate(`load(${JSON.stringify(abs)})`);
  }

  /**
   * Calls a function the loaded scripts defined (e.g. 'lab.node.sample') with plain arguments.
   * Functions evaluated by mongosh's runtime are rewritten to be awaitable, so this resolves to
   * the function's return value: ~1-2 ms per call, where an evaluation costs ~15-30 ms.
   */
  async call(fnPath, ...args) {
    const parts = fnPath.split('.');
    let owner = this.ctx;
    for (const k of parts.slice(0, -1)) owner = owner && owner[k];
    const fn = owner && owner[parts[parts.length - 1]];
    if (typeof fn !== 'function') throw new Error(`the loaded scripts define no function ${fnPath}`);
    return fn.apply(owner, args);
  }

  async close() {
    clearInterval(this.keepAlive);
    await this.sp.close(true);
  }
}

/**
 * Runs the same file through the real mongosh CLI: `mongosh URI --quiet --eval 'var ...' FILE`.
 * Resolves { code, stdout, stderr, lines }.
 */
function runCli(file, { uri, db, params, cwd = process.cwd(), timeoutMs = 600000 } = {}) {
  const abs = resolveScript(file);
  const args = [uri, '--quiet', '--norc'];
  const pick = selectDb(db);
  const pre = paramsToShell(params);
  if (pick || pre) args.push('--eval', pick + (pick && pre ? ' ' : '') + pre);
  args.push(abs);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MONGOSH_BIN, ...args], {
      cwd,
      env: { ...process.env, MONGOSH_NO_TELEMETRY: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    // Stopped by a signal, this process takes its mongosh with it (a mongosh left behind kept running
    // its script until the server it talked to was gone).
    const unhook = cleanup.addSync(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      unhook();
      clearTimeout(timer);
      resolve({ code, stdout, stderr, lines: stdout.replace(/\n$/, '').split('\n') });
    });
  });
}

module.exports = { ShellSession, runCli, paramsToShell, shellDriverOptions, MONGOSH_BIN, ROOT };
