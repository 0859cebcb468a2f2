'use strict';
// What every command module shares: strict parsing of its own options (util.parseArgs), the
// one-line refusal of an option it does not take (with the closest name, or the command that takes
// it), its help text, and the value checks several commands use. Requires nothing heavy: `--help`
// and `list` must not load the driver.
const os = require('os');
const { parseArgs } = require('util');
const { studyFromFile } = require('../core/registry');
const { UsageError } = require('../infra/errors');
const { checkTarget } = require('../infra/targets');
const LabParams = require('../../scripts/lib/params');
const { editDistance } = LabParams;

const COMMANDS = ['list', 'run', 'compare', 'findings', 'import', 'server', 'clean', 'help'];

// What the machine can do: past these, a run would not finish (or not fit) on any machine the
// lab targets, so the number is refused up front instead of running for days.
// The shell's one table of limits (scripts/lib/params.js), under the options' names.
const LIMITS = { docs: LabParams.MAX_COUNT, runs: LabParams.LIMITS.RUNS, seed: LabParams.LIMITS.SEED };

/** Options every command takes. */
const GLOBAL = {
  help: { type: 'boolean', short: 'h', text: "this command's help" },
  debug: { type: 'boolean', text: 'print the stack of an error, not only its one line (or DEBUG=mongo-perf-lab)' },
};

/**
 * Options `run` and `findings` share, with one help text: a command that says more of one adds its
 * own words after it (withMore: findings' --budget, run's --db, each command's --keep).
 */
const RUN_OPTIONS = {
  uri: { type: 'string', arg: 'URI', text: 'run against this server (default: $MONGODB_URI, else an embedded mongod)' },
  budget: {
    type: 'string',
    arg: 'TIME',
    text: "a wall time (90s, 30m, 1.5h) instead of --profile: per study the largest profile whose\nstated time (see list) fits its share; no new round after a study's deadline; at the end\nthe claims left open and the run that would decide each",
  },
  'cache-gb': { type: 'string', arg: 'N', text: 'WiredTiger cache size of the embedded mongod, in GB' },
  db: { type: 'string', arg: 'NAME', text: 'database to use (default: perflab)' },
  keep: {
    type: 'boolean',
    text: 'keep what the run made, so a later run reuses the generated data its markers prove the same',
  },
};

/** A shared option (RUN_OPTIONS) with the command's own words after its text. */
function withMore(option, more) {
  return { ...option, text: `${option.text}${more}` };
}

/** The closest of names to word, when it is close enough to be a typo (else undefined). */
function closest(word, names) {
  let best;
  let bestD = Infinity;
  for (const n of names) {
    const d = editDistance(word, n);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  return bestD <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}

/** The commands (other than this one) that take option name, read from their modules. */
function commandsTaking(name, except) {
  return COMMANDS.filter((c) => c !== except && c !== 'help').filter((c) => {
    // Lazy: a command's module is read only when a mistyped option asks which commands take it.
    const spec = require(`./${c}`).options;
    return Object.prototype.hasOwnProperty.call(spec, name);
  });
}

/** The one line for an option the command does not take: a typo's likely meaning, or who takes it. */
function unknownOption(command, spec, flag) {
  const name = flag.replace(/^--?/, '').replace(/=.*/, '');
  const own = Object.keys({ ...spec, ...GLOBAL });
  const guess = closest(name, own);
  let hint;
  if (guess) hint = `did you mean --${guess}?`;
  else {
    const others = commandsTaking(name, command);
    hint = others.length
      ? `--${name} is an option of ${others.join(', ')}, not of ${command}`
      : `${command} takes ${
          Object.keys(spec).length
            ? own
                .filter((n) => n !== 'help' && n !== 'debug')
                .map((n) => `--${n}`)
                .join(', ')
            : 'no options'
        }`;
  }
  return new UsageError(`${command}: Unknown option '--${name}'; ${hint}`);
}

/**
 * Parses a command's arguments strictly: its own options, --help and --debug, and positionals. An
 * option its table declares `whole: MIN` comes back checked, as a whole number >= MIN (wholeNumber):
 * the command's parse takes the value, not the text to hand back here for checking. With --help,
 * nothing is checked (the help is printed whatever the values).
 * @returns {{values: object, positionals: string[]}}
 */
function parseCommand(command, spec, argv) {
  const options = {};
  for (const [k, v] of Object.entries({ ...spec, ...GLOBAL })) {
    options[k] = { type: v.type, ...(v.short ? { short: v.short } : {}), ...(v.multiple ? { multiple: true } : {}) };
  }
  // `--docs -1` is a value, not an option: parseArgs calls it "ambiguous"; joined as --docs=-1, the
  // option's own check says what is wrong with it.
  const args = argv.slice();
  for (let i = args.length - 2; i >= 0; i--) {
    const name = /^--([^=]+)$/.exec(args[i]);
    if (name && options[name[1]] && options[name[1]].type === 'string' && /^-\d/.test(args[i + 1]))
      args.splice(i, 2, `${args[i]}=${args[i + 1]}`);
  }
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const m = /'([^']+)'/.exec(e.message);
      throw unknownOption(command, spec, m ? m[1] : '?');
    }
    if (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'))
      throw new UsageError(`${command}: ${e.message.split('\n')[0]}`);
    throw e;
  }
  if (!parsed.values.help) checkDeclared(spec, parsed.values);
  return parsed;
}

/** The values of the options declared `whole: MIN`, as checked whole numbers (in place). */
function checkDeclared(spec, values) {
  for (const [name, o] of Object.entries(spec))
    if (o.whole !== undefined && values[name] !== undefined) values[name] = wholeNumber(name, values[name], o.whole);
}

const HELP_WIDTH = 100;
const OPTION_TEXT = ' '.repeat(19);

/** Help lines of an option table: `  --name ARG` padded, then its text (continuation lines indented). */
function optionLines(spec) {
  const out = [];
  for (const [name, o] of Object.entries(spec)) {
    if (!o.text) continue;
    const head = `  --${name}${o.arg ? ` ${o.arg}` : ''}`;
    // one paragraph, laid out under the description column whatever breaks the text was written with
    const [first, ...rest] = fill(o.text.split(/\s+/), OPTION_TEXT, OPTION_TEXT).map((l) => l.slice(19));
    out.push(head.length < 19 ? `${head.padEnd(19)}${first}` : `${head}\n${OPTION_TEXT}${first}`);
    for (const l of rest) out.push(`${OPTION_TEXT}${l}`);
  }
  return out;
}

/** Words of a usage line, an option group in brackets kept whole ("[--header a,b,c]"). */
const usageWords = (line) => line.trim().match(/\[[^\]]*\]|\S+/g);

/** Words laid into lines of at most HELP_WIDTH columns: the first after `lead`, the rest after `indent`. */
function fill(words, lead, indent) {
  const out = [];
  let line = '';
  for (const w of words) {
    const next = line ? `${line} ${w}` : `${lead}${w}`;
    if (next.length > HELP_WIDTH && line) {
      out.push(line);
      line = `${indent}${w}`;
    } else line = next;
  }
  return line ? [...out, line] : out;
}

/**
 * Help text within 100 columns: a longer usage line is broken between its option groups, its rest
 * indented under the command; any other long line at spaces, under itself.
 */
function helpWidth(text) {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= HELP_WIDTH) return [line];
      const lead = /^ */.exec(line)[0];
      if (/^(Usage: | {2})mongo-perf-lab /.test(line)) return fill(usageWords(line), lead, '      ');
      return fill(line.trim().split(' '), lead, lead);
    })
    .join('\n');
}

/** One command's help: usage, what it does, its options, the notes after them. */
function commandHelp(mod) {
  return helpWidth(
    [
      `Usage: ${mod.usage}`,
      '',
      mod.about,
      ...(Object.keys(mod.options).length ? ['', 'Options:', ...optionLines(mod.options)] : []),
      ...(mod.notes ? ['', mod.notes] : []),
      '',
      'Any command: --debug (or DEBUG=mongo-perf-lab) prints the stack of an error, not only its one line.',
    ].join('\n'),
  );
}

/**
 * A comma-separated option. Given but empty (--from "" from an unset shell variable) is an error: read as
 * "not given", --from "" ran every study on an embedded server instead of reading files.
 */
function listOption(name, value) {
  if (value === undefined) return [];
  const items = value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!items.length)
    throw new UsageError(`--${name}: ${JSON.stringify(value)} names nothing; give one or more, separated by commas`);
  return items;
}

function wholeNumber(name, value, min, max = LIMITS[name]) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+(\.\d+)?(e\+?\d+)?\s*$/i.test(value) || !Number.isInteger(n) || n < min) {
    throw new UsageError(`--${name}: expected a whole number >= ${min}, got ${JSON.stringify(value)}`);
  }
  if (max !== undefined && n > max) {
    throw new UsageError(`--${name}: ${value} is more than this lab can do (at most ${max.toLocaleString('en-US')})`);
  }
  return n;
}

function cacheGb(value) {
  if (value === undefined) return undefined;
  const maxGb = Math.floor((os.totalmem() / 2 ** 30) * 100) / 100;
  const n = Number(value);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) || !(n >= 0.25)) {
    throw new UsageError(`--cache-gb: expected a decimal number of GB >= 0.25, got ${JSON.stringify(value)}`);
  }
  if (n > maxGb) throw new UsageError(`--cache-gb: ${value} GB is more than this machine's memory (${maxGb} GB)`);
  return n;
}

/** --db: a plain name, and never one of MongoDB's own databases. */
function dbName(value) {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(value))
    throw new UsageError(`--db: ${JSON.stringify(value)} is not a valid database name ([A-Za-z0-9_-])`);
  try {
    checkTarget(value);
  } catch (e) {
    throw new UsageError(`--db: ${e.message}`);
  }
  return value;
}

/** The profile a run's parameters come from: tiny (tests), quick (default) or seed (the sources' scales). */
function profileName(value) {
  if (value !== undefined && !['quick', 'seed', 'tiny'].includes(value)) {
    throw new UsageError(`--profile: expected quick, seed or tiny, got ${JSON.stringify(value)}`);
  }
  return value || 'quick';
}

// A budget past two days is a typo (48h runs every study at the source's scale many times over).
const MAX_BUDGET_MS = 48 * 3600 * 1000;

/**
 * --budget: a wall time as a positive number of seconds, minutes or hours ("90s", "30m", "1.5h") ->
 * milliseconds. Anything else (no unit, another unit, zero) is refused in one line.
 */
function budgetMs(value) {
  if (value === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smh])\s*$/.exec(value);
  const ms = m ? Number(m[1]) * { s: 1000, m: 60000, h: 3600000 }[m[2]] : NaN;
  if (!(ms >= 1000))
    throw new UsageError(
      `--budget: expected a wall time of at least 1s in s, m or h (e.g. 90s, 30m, 1.5h), got ${JSON.stringify(value)}`,
    );
  if (ms > MAX_BUDGET_MS) throw new UsageError(`--budget: ${value} is more than this lab plans for (at most 48h)`);
  return ms;
}

/**
 * --budget chooses each study's profile: with --profile as well, one of the two would be ignored.
 */
function budgetProfile(budget, profile) {
  if (budget !== undefined && profile !== undefined)
    throw new UsageError("--budget chooses each study's profile itself: give --budget or --profile, not both");
}

/** A --set value: a JSON number or boolean when it reads as one, else the string itself. */
function parseValue(text) {
  if (/^(true|false)$/.test(text)) return text === 'true';
  if (/^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(text)) return Number(text);
  return text;
}

/** --set NAME=VALUE (repeatable) -> {NAME: value}. */
function sets(list) {
  const out = {};
  for (const kv of list || []) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/s.exec(kv);
    if (!m) throw new UsageError(`--set ${JSON.stringify(kv)}: expected NAME=VALUE with an UPPER_CASE parameter name`);
    out[m[1]] = parseValue(m[2]);
  }
  return out;
}

function stamp(d = new Date()) {
  return d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Studies by name, as UsageErrors (the registry's own error is a plain Error). */
function chooseStudies(names) {
  // Lazy: every study's declaration (~0.5 s), which `--help` must not load (test/cli.test.js).
  const { findStudy } = require('../studies');
  return names.map((n) => {
    try {
      // A path (./my_study.js) is a study of your own: its declaration file, from any folder.
      if (/\.js$/.test(n) || n.includes('/')) return studyFromFile(n);
      return findStudy(n);
    } catch (e) {
      throw new UsageError(e.message);
    }
  });
}

module.exports = {
  COMMANDS,
  GLOBAL,
  RUN_OPTIONS,
  withMore,
  parseCommand,
  commandHelp,
  helpWidth,
  optionLines,
  closest,
  listOption,
  wholeNumber,
  cacheGb,
  dbName,
  profileName,
  budgetMs,
  budgetProfile,
  sets,
  parseValue,
  stamp,
  chooseStudies,
};
