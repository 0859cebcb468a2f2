'use strict';
// The one session loop of `run` and `findings`: the chosen studies, one after the other, on one
// server, into one result file (rewritten after every axis point), then their claims judged.
// runSession adds what `run` needs around it: the server (embedded or given). The database a run
// creates on a given server is the caller's to drop (lib/infra/tracked-databases.js trackDatabase), so that
// one guarded drop serves the end of a run and an interrupt alike.
const { ResultFile, environment } = require('./results');
const { runStudy, checkStudies } = require('./run-study');
const claims = require('./claims');
const { MongoClient } = require('mongodb');
const { ParameterError, redact } = require('../infra/errors');
const { getServer } = require('../infra/server');
const { wrap } = require('../../scripts/lib/format');
const liveness = require('../infra/liveness');

/**
 * @param {object} o
 * @param {object[]} o.entries studies of the registry
 * @param {object} o.server a started server (lib/infra/server.js)
 * @param {string} o.file the result file
 * @param {object} [o.env] more of the environment record (profile, label, engine, argv)
 * @param {Function} [o.paramsOf] entry -> parameters over the profile's
 * @param {Function} [o.announce] entry -> void, before each study
 * @param {boolean} [o.resume] keep what `file` already holds of this run (default true; lib/core/results.js)
 * @param {Function} [o.ready] async, once every study's parameters and names are accepted, before the first study
 * @param {Map} [o.configured] what checkParams (lib/core/params.js) configured in Node, by study: not configured again
 * @returns {Promise<object>} the finished result document
 */
async function runStudies({
  entries,
  server,
  dbName,
  profile = 'quick',
  file,
  env = {},
  paramsOf = () => ({}),
  announce = () => {},
  echo,
  log,
  progress,
  resume = true,
  ready = async () => {},
  profileOf = () => profile,
  deadlineOf = () => undefined,
  configured,
}) {
  const checked = await ParameterError.from(() =>
    checkStudies(entries, { server, dbName, profile, paramsOf, profileOf, configured }),
  );
  await ready();
  // The same result file again resumes: the axis points it holds from the same setting are kept.
  const rf = new ResultFile(file, environment(server, { profile, ...env }), {
    resume,
    studies: entries.map((e) => e.name),
    log,
  });
  rf.doc.params = {};
  for (const entry of entries) {
    announce(entry);
    liveness.during(`study ${entry.name}`);
    const r = await ParameterError.from(() =>
      runStudy(entry, {
        server,
        dbName,
        params: paramsOf(entry),
        // the values the check configured with and the collections it found they derive: the
        // session gets the same, not assembled or derived again
        values: checked.has(entry.name) ? checked.get(entry.name).values : undefined,
        derived: checked.has(entry.name) ? checked.get(entry.name).derived : undefined,
        profile: profileOf(entry),
        deadline: deadlineOf(entry),
        results: rf,
        progress,
        echo,
        log,
      }),
    );
    rf.doc.params[entry.name] = r.params;
    stampProfile(rf.doc.results, entry.name, profileOf(entry), profile);
    rf.write();
  }
  rf.doc.claims = entries.flatMap((entry) => claims.judge(entry, rf.doc.results, rf.doc.environment, rf.doc.params));
  rf.finish();
  return rf.doc;
}

/**
 * A study run at another profile than the file's (--budget plans one per study): its records carry
 * their own, which claims.judge reads (a tiny study's claims are test scale, the others' are not).
 */
function stampProfile(records, study, own, fileProfile) {
  if (own === fileProfile) return;
  for (const r of records) if (r.study === study) r.profile = own;
}

async function withClient(uri, opts, fn) {
  const c = new MongoClient(uri, opts);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

/** standalone, replicaSet or sharded; null when the server does not say. */
function topologyOf(uri) {
  return withClient(uri, { serverSelectionTimeoutMS: 5000 }, async (c) => {
    const h = await c.db('admin').command({ hello: 1 });
    return h.msg === 'isdbgrid' ? 'sharded' : h.setName ? 'replicaSet' : 'standalone';
  }).catch(() => null);
}

/**
 * What the run is measured on, in lines of at most 100 columns broken between its fields (never
 * inside one: the embedded server's pid and data path are read back from this text).
 */
function serverLines(server, redact, dbName) {
  // The database on the server line itself where it is the user's; beside an embedded mongod's
  // long data path it may take the next line.
  const db = dbName ? `database ${dbName}` : null;
  const fields = [
    `server: ${server.embedded ? `embedded mongod (pid ${server.pid}, data ${server.dbPath})` : `${redact(server.uri)}${db ? `, ${db}` : ''}`}`,
    ...(server.embedded && db ? [db] : []),
    `MongoDB ${server.version}`,
    server.topology || '?',
    server.storageEngine || 'storage engine not visible (no clusterMonitor)',
    server.queryFramework || 'classic',
  ];
  const lines = [fields[0]];
  for (const f of fields.slice(1)) {
    const joined = `${lines[lines.length - 1]} | ${f}`;
    if (joined.length <= 100) lines[lines.length - 1] = joined;
    else lines.push(`    ${f}`);
  }
  return lines;
}

/**
 * `run`: a server (o.uri, else an embedded mongod) and the studies on it (runStudies).
 * @param {object} o runStudies' options without server, plus uri, cacheSizeGB, argv, say
 */
async function runSession(o) {
  const log = o.log || (() => {});
  const say = o.say || (() => {});
  const server = await getServer({
    uri: o.uri,
    cacheSizeGB: o.cacheSizeGB,
    log: (m) => process.stderr.write(m + '\n'),
  });
  try {
    server.topology = await topologyOf(server.uri);
    for (const line of serverLines(server, redact, o.dbName)) log(line);
    return await runStudies({
      ...o,
      server,
      env: { argv: o.argv },
      announce: (entry) =>
        say(`\n${wrap(`=== ${entry.name}: ${entry.title} (source ${entry.source}) ===`, 100, '    ').join('\n')}`),
    });
  } finally {
    await server.stop();
  }
}

module.exports = { runStudies, runSession, topologyOf };
