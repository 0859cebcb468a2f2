'use strict';
// `mongo-perf-lab list`: the studies, their source article, script, quick profile and durations.
// Reads the registry only: no server, no driver.
const { UsageError } = require('../infra/errors');
const m = require('../report/model');
const { renderTableLines, wrapText } = require('../report/render-terminal');

const usage = 'mongo-perf-lab list';
const summary = 'the studies, their scripts, profiles and durations';
const about = 'Lists the studies with their source article, script, quick profile and how long they take.';
const options = {};

function parse(values, positionals) {
  if (positionals.length)
    throw new UsageError(`list: takes no arguments, got ${JSON.stringify(positionals.join(' '))}`);
  return { debug: values.debug };
}

function rowOf(s) {
  const quick = s.profiles.quick;
  return {
    name: s.name,
    source: s.source.id,
    script: `scripts/${s.script}`,
    quick: Object.entries(quick)
      .map(([k, v]) => `${k}=${v}`)
      .join(' '),
    expected: s.expected || '',
    seed: (s.seedExpected || '').replace(/ \(.*/, ''),
    title: s.title,
  };
}

/** A value list too long for one line (counters' VARIANTS) may break after its commas. */
function breakable(text) {
  return text
    .split(' ')
    .map((w) => (w.length > 60 ? w.replace(/,/g, ', ') : w))
    .join(' ');
}

// One row per study that fits 100 columns (a table of the report model, by the terminal renderer),
// then what it measures and its quick profile below it, wrapped: a row holding both was 385 columns wide.
async function run() {
  // Loaded here: the studies (and what they load) are not for --help.
  const { studies } = require('../studies');
  const rows = studies.map(rowOf);
  const table = m.table(
    ['study', 'source', 'script', 'quick (2 cores)', '--profile seed'],
    rows.map((r) => [r.name, r.source, r.script, r.expected, r.seed]),
  );
  const lines = renderTableLines(table, { width: 100 });
  const indent = (pad) => (l) => `${pad}${l}`;
  // A row wrapped to several lines (a long script name) would not be one line to put details under.
  const oneLineRows = lines.length === rows.length + 2;
  const out = oneLineRows ? lines.slice(0, 2) : [...lines, ''];
  rows.forEach((r, i) => {
    const [first, ...rest] = wrapText(`quick: ${breakable(r.quick)}`, 96);
    out.push(lines[i + 2], ...wrapText(r.title, 98).map(indent('  ')), `  ${first}`, ...rest.map(indent('    ')));
  });
  out.push('run one: mongo-perf-lab run <study>; all of them: npm start');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

module.exports = { name: 'list', usage, summary, about, options, parse, run };
