#!/usr/bin/env node
'use strict';
// mongo-perf-lab: dispatch only. Each command is a module of lib/cli/ with its own options, help
// and run; only the chosen command's module is loaded, and it loads the driver and the studies
// itself, when it needs them.
// Before anything loads mongosh's runtime: its Babel rewrite of each script, answered from a cache.
require('../lib/infra/rewrite-cache');
const { parseCommand, commandHelp } = require('../lib/cli/options');
const { commandModule, overview } = require('../lib/cli/help');
const { friendly, debugEnabled, UsageError, InputFileError } = require('../lib/infra/errors');
const liveness = require('../lib/infra/liveness');

/** The module of `require(path)` if some command already loaded it (the cleanup's state after a signal). */
function loaded(modulePath) {
  const m = require.cache[require.resolve(modulePath)];
  return m ? m.exports : {};
}

function isUsage(e) {
  return (
    e instanceof UsageError ||
    e instanceof InputFileError ||
    (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'))
  );
}

// Errors the JavaScript engine itself raises: their text ("Cannot read properties of null",
// "Maximum call stack size exceeded") is about the lab's code, never something a user can act on.
const ENGINE_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

/** The line for an error no rule of friendly() knows: a bug of the lab, said as one. */
function unknownLine(e, line, command, debug) {
  const raw = String((e && e.message) || e || '')
    .split('\n')[0]
    .trim();
  const engine = e && ENGINE_ERRORS.some((k) => e instanceof k) && !e.code;
  if (!engine || line !== raw) return line;
  return (
    `${command ? `\`${command}\`` : 'the command'} stopped on an unexpected error (${e.name}; a bug in mongo-perf-lab, not your input): ` +
    (debug ? 'its stack follows; report it' : 'run it again with --debug for the stack, and report it')
  );
}

/** Where the command writes ({output, outputFlag}), for a line about a full disk: the option that moves it. */
function outputOf(o, mod) {
  const opts = (mod && mod.options) || {};
  for (const [key, flag] of [
    ['out', '--out'],
    ['json', '--json'],
    ['md', '--md'],
    ['rejects', '--rejects'],
  ]) {
    if (o && typeof o[key] === 'string' && o[key] !== '-') return { output: o[key], outputFlag: flag };
  }
  return opts.out ? { outputFlag: '--out' } : {};
}

// compare's exit 1 means "a row is slower" (docs/contract.md): a compare that could not finish
// (a report it could not write, a bug) must not look like one to a CI job.
const FAILED = { compare: 3 };

/** Prints the error's one line (its stack with --debug); returns the exit code: 2 for bad input, else 1 (compare: 3). */
function reportError(e, argv, o, command, mod) {
  const cleanup = loaded('../lib/infra/cleanup');
  // After Ctrl-C or SIGTERM, the work in flight fails because the cleanup stopped its server: that
  // error is the interrupt's echo, not news ("interrupted ... cleaning up" has said what happened).
  if (cleanup.interrupted && cleanup.interrupted() && !debugEnabled(argv)) return 130;
  const line = unknownLine(
    e,
    friendly(e, { uri: o && (o.uri || process.env.MONGODB_URI), ...outputOf(o, mod) }),
    command,
    debugEnabled(argv),
  );
  process.stderr.write(`mongo-perf-lab: ${line}\n`);
  if (debugEnabled(argv) && e && e.stack)
    process.stderr.write(`${e.stack}\n${e.cause && e.cause.stack ? `caused by: ${e.cause.stack}\n` : ''}`);
  if (!e || !isUsage(e)) return FAILED[command] || 1;
  // A file that cannot be used is named in the line; --help cannot fix it.
  if (!(e instanceof InputFileError))
    process.stderr.write(
      `Try \`mongo-perf-lab --help\`${command ? ` or \`mongo-perf-lab ${command} --help\`` : ''}.\n`,
    );
  return 2;
}

async function main(argv) {
  let o;
  let command;
  let mod;
  try {
    const first = argv.findIndex((a) => a !== '--debug');
    if (first < 0 || argv[first] === '--help' || argv[first] === '-h') {
      process.stdout.write(overview() + '\n');
      return 0;
    }
    if (argv[first].startsWith('-'))
      throw new UsageError(
        `${argv[first]}: give the command first (mongo-perf-lab <command> [options]; commands: see --help)`,
      );
    mod = commandModule(argv[first]);
    command = mod.name;
    const { values, positionals } = parseCommand(
      command,
      mod.options,
      argv.filter((_, i) => i !== first),
    );
    if (values.help) {
      process.stdout.write(commandHelp(mod) + '\n');
      return 0;
    }
    o = mod.parse(values, positionals);
    // A server that stops answering (or an embedded mongod that dies) ends the command within
    // liveness.FROZEN_AFTER_MS, whatever the command was waiting for (lib/infra/liveness.js).
    liveness.enable(`\`mongo-perf-lab ${command}\``);
    return await Promise.race([mod.run(o), liveness.failed()]);
  } catch (e) {
    return reportError(e, argv, o, command, mod);
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // The work still waits on the frozen server and would only add lines: leave now (the exit hooks
  // kill the embedded mongod and remove the run's temp files). Not after a signal, whose own cleanup
  // is still under way.
  const cleanup = require.cache[require.resolve('../lib/infra/cleanup')];
  if (liveness.failedWith() && !(cleanup && cleanup.exports.interrupted())) process.exit(code);
  // A driver pool or timer must not keep a finished command alive (an unreachable URI used to hang).
  // After a signal the clean-up exits itself, with the signal's code (143 for SIGTERM), once done.
  if (!(cleanup && cleanup.exports.interrupted())) setTimeout(() => process.exit(code), 2000).unref();
});
