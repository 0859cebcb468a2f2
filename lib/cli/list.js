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

async function run() {
  const { studies } = require('../studies');
  const { tableLines } = require('../../scripts/lib/lab');
  process.stdout.write(
    tableLines(
      [
        { key: 'name', title: 'study' },
        { key: 'source', title: 'source' },
        { key: 'script', title: 'script' },
        { key: 'quick', title: 'quick profile' },
        { key: 'expected', title: 'takes (2 cores)' },
        { key: 'seed', title: '--profile seed' },
        { key: 'title', title: 'what it measures' },
      ],
      studies.map(rowOf),
    ).join('\n') + '\nrun one: mongo-perf-lab run <study>; all of them: npm start\n',
  );
  return 0;
}

module.exports = { name: 'list', usage, summary, about, options, parse, run };
