'use strict';
// `mongo-perf-lab clean --uri URI --db NAME`: removes from a database what the lab can prove it made
// (a collection whose marker in perflab_fixtures names its current UUID; the marker collection when
// the lab made it and no other marker is left; the whole database when the lab made it and nothing
// else wrote into it), and names what it refused to touch. The decisions are LabFixture.cleanPlan's
// (scripts/lib/fixture.js), the same a run's end uses.
const opt = require('./options');
const { UsageError, clientOptions } = require('../infra/errors');
const targets = require('../infra/targets');

const usage = 'mongo-perf-lab clean --uri URI --db NAME | --kept-data';
const summary = 'remove from a database what the lab made there, and only that';
const about = `Drops every collection of the database that the lab can prove it made (its marker in
perflab_fixtures names the collection's current UUID), then perflab_fixtures itself when the lab made
it and holds no other marker; a database the lab made, with nothing else in it, goes whole. Every
other collection is left as it is, and named. What a run or a drop-in kept (--keep, KEEP = true) is
removed this way; the end of such a run prints this command.`;

const options = {
  uri: { type: 'string', arg: 'URI', text: 'the server (default: $MONGODB_URI; required)' },
  db: { type: 'string', arg: 'NAME', text: 'the database to clean (required)' },
  'kept-data': {
    type: 'boolean',
    text: "instead: remove the embedded mongod's kept data (run --keep with no server given),\n~/.cache/mongo-perf-lab/kept-data, unless a run is using it",
  },
};

function parse(values, positionals) {
  if (values['kept-data']) {
    if (values.uri !== undefined || values.db !== undefined || positionals.length)
      throw new UsageError('clean --kept-data: takes no --uri, --db or arguments (it removes one directory)');
    return { keptData: true, debug: values.debug };
  }
  if (positionals.length)
    throw new UsageError(`clean: takes no arguments, got ${JSON.stringify(positionals.join(' '))} (use --db NAME)`);
  const uri = values.uri || process.env.MONGODB_URI;
  if (!uri) throw new UsageError('clean: give the server with --uri (or $MONGODB_URI)');
  if (values.db === undefined) throw new UsageError('clean: name the database with --db NAME');
  return { uri, db: opt.dbName(values.db), debug: values.debug };
}

/** The lines that say what clean did: what went, then what it left alone and why. */
function reportLines(dbName, r) {
  const lines = [
    r.dropped.length
      ? `clean: dropped from ${dbName}${r.database ? ' (a database the lab made: dropped whole)' : ''}: ${r.dropped.join(', ')}`
      : `clean: nothing in ${dbName} is provably the lab's: nothing dropped`,
  ];
  const unmarked = r.refused.filter((x) => x.why === 'no lab marker names it').map((x) => x.name);
  const other = r.refused.filter((x) => x.why !== 'no lab marker names it');
  if (unmarked.length) lines.push(`clean: left alone, no lab marker names them: ${unmarked.join(', ')}`);
  for (const x of other) lines.push(`clean: left alone ${dbName}.${x.name}: ${x.why}`);
  return lines;
}

async function run(o) {
  if (o.keptData) {
    process.stdout.write(`${require('./kept-data').removeKeptData()}\n`);
    return 0;
  }
  // Loaded here: the driver is not for --help or a refused option.
  const { MongoClient } = require('mongodb');
  const client = new MongoClient(o.uri, clientOptions(o.uri));
  try {
    const list = await client.db('admin').admin().listDatabases({ nameOnly: true });
    if (!list.databases.some((d) => d.name === o.db)) {
      process.stdout.write(`clean: there is no database ${o.db} on this server: nothing to clean\n`);
      return 0;
    }
    const r = await targets.cleanDatabase(client.db(o.db));
    process.stdout.write(reportLines(o.db, r).join('\n') + '\n');
    return 0;
  } finally {
    await client.close().catch(() => {
      /* the work is done or has failed with its own line */
    });
  }
}

module.exports = { name: 'clean', usage, summary, about, options, parse, run, reportLines };
