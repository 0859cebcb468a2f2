'use strict';
// `mongo-perf-lab list`: the studies, their source article, script, quick profile and durations.
// Reads the registry only: no server, no driver.
const usage = 'mongo-perf-lab list';
const summary = 'the studies, their scripts, profiles and durations';
const about = 'Lists the studies with their source article, script, quick profile and how long they take.';
const options = {};

function parse(values, positionals) {
  const { UsageError } = require('../infra/errors');
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

// One row per study that fits 100 columns, then what it measures and its quick profile below it,
// wrapped: a row holding both was 385 columns wide.
async function run() {
  const { studies } = require('../studies');
  const { tableLines, wrap } = require('../../scripts/lib/format');
  const rows = studies.map(rowOf);
  const lines = tableLines(
    [
      { key: 'name', title: 'study' },
      { key: 'source', title: 'source' },
      { key: 'script', title: 'script' },
      { key: 'expected', title: 'quick (2 cores)' },
      { key: 'seed', title: '--profile seed' },
    ],
    rows,
  );
  const out = lines.slice(0, 2);
  rows.forEach((r, i) => {
    const indent = (l) => `  ${l}`;
    out.push(
      lines[i + 2],
      ...wrap(r.title, 98, '').map(indent),
      ...wrap(`quick: ${breakable(r.quick)}`, 98, '  ').map(indent),
    );
  });
  out.push('run one: mongo-perf-lab run <study>; all of them: npm start');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

module.exports = { name: 'list', usage, summary, about, options, parse, run };
