'use strict';
// `mongo-perf-lab import FILE.csv... --uri URI`: CSV files into a collection (lib/infra/csv-import.js);
// exit code 1 when rows were rejected.
const fs = require('fs');
const opt = require('./options');
const { valueOption, flag } = require('./option-kinds');
const { UsageError, clientOptions } = require('../infra/errors');
const targets = require('../infra/targets');
const { checkWritableFile } = require('../infra/output-paths');
const cleanup = require('../infra/cleanup');
const liveness = require('../infra/liveness');

const usage =
  'mongo-perf-lab import FILE.csv... --uri URI [--db NAME] [--coll NAME] [--key COLUMN] [--header a,b,c] [--rejects FILE] [--encoding E] [--append]';
const summary = 'import CSV files into a collection (rows read = stored + rejected)';
const about = 'Imports CSV files into a collection; rows read = stored + rejected, always.';

const options = {
  uri: valueOption(
    'URI',
    'the server to import into (default: $MONGODB_URI; required); used as given,\nmulti-host, mongodb+srv, /authDb and TLS options included',
  ),
  db: valueOption('NAME', 'database (default: random, as source 000); admin, local and config are refused'),
  coll: valueOption('NAME', 'collection (default: sensors); system.* is refused'),
  key: valueOption(
    'COLUMN',
    "use this column's value as _id (a blank or repeated key rejects the row); default: a hash\nof the row (names and cells), so re-importing a file, or the same name in another\nfolder, or an edited file stores each distinct row exactly once",
  ),
  header: valueOption(
    'a,b,c',
    'the column names, when the file has no header row (then line 1 is data);\notherwise line 1 must name the columns, and a line 1 that looks like data is refused',
  ),
  rejects: valueOption(
    'FILE',
    'where bad rows go, with file, line, field, value and reason\n(default: FILE.csv.rejects.csv next to the first file)',
  ),
  encoding: valueOption(
    'E',
    "the files' text encoding: utf8 (default; a line that is not UTF-8 is rejected) or latin1",
  ),
  append: flag(
    'add the rows to an existing collection the lab did not make (without it, import\nwrites only into a collection it creates, or one it made before, and refuses others)',
  ),
  'no-progress': flag('no progress bar'),
};

const notes = `Types: a column is numeric when most of its first 100 values are; numbers are stored exactly
(double up to 15 digits, else Long or Decimal128; 01000 stays text; 1e400 is rejected); ISO 8601
timestamps become dates; blank cells are left out. Names with '.', a leading '$', __proto__ or
control characters are refused with the reason. A quote never closed costs one row, reported at
the line it opened. Exit code 1 when rows were rejected.`;

function collName(value) {
  if (value === undefined) return undefined;
  try {
    targets.checkTarget('x', value);
  } catch (e) {
    throw new UsageError(`--coll: ${e.message}`);
  }
  if (!/^[A-Za-z_][A-Za-z0-9_.-]{0,100}$/.test(value))
    throw new UsageError(`--coll: ${JSON.stringify(value)} is not a valid collection name`);
  return value;
}

function parse(values, positionals) {
  const header = values.header === undefined ? undefined : values.header.split(',').map((h) => h.trim());
  if (header && header.some((h) => !h))
    throw new UsageError(`--header: ${JSON.stringify(values.header)} has an empty name`);
  checkWritableFile(values.rejects, '--rejects');
  return {
    args: positionals,
    uri: values.uri || process.env.MONGODB_URI,
    db: opt.dbName(values.db) || 'random',
    coll: collName(values.coll) || 'sensors',
    key: values.key,
    header,
    rejects: values.rejects,
    encoding: values.encoding,
    append: Boolean(values.append),
    progress: values['no-progress'] ? false : undefined,
    debug: values.debug,
  };
}

/** Refuses before connecting: no server, no file, a file that is not there, an unwritable rejects file. */
function checkInputs(o) {
  if (!o.uri)
    throw new UsageError(
      'import: give the server with --uri (or $MONGODB_URI); an embedded mongod would vanish with its data',
    );
  if (!o.args.length) throw new UsageError('import: name one or more CSV files');
  for (const f of o.args) {
    if (!fs.existsSync(f) || !fs.statSync(f).isFile()) throw new UsageError(`import: ${f}: no such file`);
  }
  checkWritableFile(o.rejects || `${o.args[0]}.rejects.csv`, 'rejects file');
}

/**
 * A file refused before any row was stored (empty, a bad header, an unknown --key) leaves nothing on
 * the server: the collection this run made goes, and the lab's marker collection if this run made it
 * (with them a database the run made, which then holds nothing).
 */
async function undoTarget(db, coll, before) {
  if (await db.collection(coll).estimatedDocumentCount()) return;
  await targets.dropOwned(db, coll);
  // No dropDatabase: a database goes with its last collection, so one the run made (it held none
  // before) is gone once the marker collection this run made is (proven by its UUID, as at a run's
  // end), while anything another client wrote there meanwhile stays with it.
  if (!before.includes(targets.META)) await targets.dropMarkersIfEmpty(db);
}

async function run(o) {
  // Loaded here: the driver (and the importer, which needs it) is not for --help or a refused option.
  const { importCsv, ImportError } = require('../infra/csv-import');
  const { MongoClient } = require('mongodb');
  cleanup.install();
  checkInputs(o);
  // The URI is used as given (its path is the auth database); the database is chosen here.
  const client = new MongoClient(o.uri, clientOptions(o.uri));
  let watch = null;
  try {
    await client.connect();
    // A server that stops answering mid-import ends it in one line (lib/infra/liveness.js).
    watch = liveness.watch(o.uri);
    liveness.during(`the import into ${o.db}.${o.coll}`);
    const db = client.db(o.db);
    const before = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    // Ownership (lib/infra/targets.js): a collection the lab did not make is appended to only with --append.
    const target = await targets.importTarget(db, o.coll, { append: o.append });
    let r;
    try {
      r = await importCsv(db, o.args, {
        coll: o.coll,
        key: o.key,
        header: o.header,
        encoding: o.encoding,
        rejectsFile: o.rejects,
        progress: o.progress,
        log: (m) => process.stdout.write(m + '\n'),
      });
    } catch (e) {
      if (e instanceof ImportError && target.created) await undoTarget(db, o.coll, before);
      throw e;
    }
    process.stdout.write(`${r.db}.${r.coll}: ${r.inserted} new documents in ${(r.ms / 1000).toFixed(1)} s\n`);
    return r.rejected ? 1 : 0;
  } catch (e) {
    if (e instanceof ImportError) throw new UsageError(e.message);
    throw e;
  } finally {
    if (watch) watch.stop();
    await client.close().catch(() => {
      /* the import's outcome is already decided and reported */
    });
  }
}

module.exports = { name: 'import', usage, summary, about, options, notes, parse, run };
