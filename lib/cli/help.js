'use strict';
// `mongo-perf-lab help [command]` and `mongo-perf-lab --help`: the overview, or one command's help.
// Reads the command modules' declarations only (their requires of the driver and the studies are lazy).
const { COMMANDS, commandHelp, optionLines, closest, helpWidth } = require('./options');
const { UsageError } = require('../infra/errors');

const usage = 'mongo-perf-lab help [command]';
const summary = "this overview, or a command's help";
const about =
  "Prints the overview of the commands, or one command's help (the same as `mongo-perf-lab <command> --help`).";
const options = {};

function commandModule(name) {
  if (!COMMANDS.includes(name)) {
    const guess = closest(name, COMMANDS);
    throw new UsageError(
      `unknown command ${JSON.stringify(name)} (commands: ${COMMANDS.join(', ')}${guess ? `; did you mean ${guess}?` : ''}; see --help)`,
    );
  }
  return require(`./${name}`);
}

/** The overview: every command's usage line, then each command's options and notes. */
function overview() {
  const mods = COMMANDS.map((c) => require(`./${c}`));
  const sections = mods
    .filter((m) => Object.keys(m.options).length)
    .map((m) =>
      ['', `Options for ${m.name}: ${m.summary}`, ...optionLines(m.options), ...(m.notes ? ['', m.notes] : [])].join(
        '\n',
      ),
    );
  const text = [
    'mongo-perf-lab: MongoDB performance studies, measured on your own server',
    '',
    'Usage:',
    ...mods.map((m) => `  ${m.usage}`),
    '  mongo-perf-lab <command> --help',
    '',
    'Any command: --debug (or DEBUG=mongo-perf-lab) prints the stack of an error, not only its one line.',
    'An option a command does not take is refused.',
    ...sections,
  ].join('\n');
  return helpWidth(text);
}

function parse(values, positionals) {
  if (positionals.length > 1) throw new UsageError('help: name one command, or none');
  if (positionals.length) commandModule(positionals[0]);
  return { args: positionals };
}

async function run(o) {
  process.stdout.write((o.args.length ? commandHelp(commandModule(o.args[0])) : overview()) + '\n');
  return 0;
}

module.exports = { name: 'help', usage, summary, about, options, parse, run, overview, commandModule };
