'use strict';
// The one session loop of `run` and `findings`: the chosen studies, one after the other, on one
// server, into one result file (rewritten after every axis point), then their claims judged.
// runSession adds what `run` needs around it: the server (embedded or given), and the database the
// run created dropped at the end unless kept.
const { ResultFile, environment } = require('./results');
const { runStudy } = require('./run-study');
const claims = require('./claims');
const { ParameterError } = require('../infra/errors');

/**
 * @param {object} o
 * @param {object[]} o.entries studies of the registry
 * @param {object} o.server a started server (lib/infra/server.js)
 * @param {string} o.file the result file
 * @param {object} [o.env] more of the environment record (profile, label, engine, argv)
 * @param {Function} [o.paramsOf] entry -> parameters over the profile's
 * @param {Function} [o.announce] entry -> void, before each study
 * @param {boolean} [o.resume] keep what `file` already holds of this run (default true; lib/core/results.js)
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
}) {
  // The same result file again resumes: the axis points it holds from the same setting are kept.
  const rf = new ResultFile(file, environment(server, { profile, ...env }), {
    resume,
    studies: entries.map((e) => e.name),
    log,
  });
  rf.doc.params = {};
  for (const entry of entries) {
    announce(entry);
    const r = await ParameterError.from(() =>
      runStudy(entry, { server, dbName, params: paramsOf(entry), profile, results: rf, progress, echo, log }),
    );
    rf.doc.params[entry.name] = r.params;
    rf.write();
  }
  rf.doc.claims = entries.flatMap((entry) => claims.judge(entry, rf.doc.results, rf.doc.environment, rf.doc.params));
  rf.finish();
  return rf.doc;
}

async function withClient(uri, opts, fn) {
  const { MongoClient } = require('mongodb');
  const c = new MongoClient(uri, opts);
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

function databaseExists(uri, name) {
  return withClient(uri, {}, async (c) => {
    const r = await c.db('admin').admin().listDatabases({ nameOnly: true });
    return r.databases.some((d) => d.name === name);
  });
}

/** standalone, replicaSet or sharded; null when the server does not say. */
function topologyOf(uri) {
  return withClient(uri, { serverSelectionTimeoutMS: 5000 }, async (c) => {
    const h = await c.db('admin').command({ hello: 1 });
    return h.msg === 'isdbgrid' ? 'sharded' : h.setName ? 'replicaSet' : 'standalone';
  }).catch(() => null);
}

function serverLine(server, redact) {
  return (
    `server: ${server.embedded ? `embedded mongod (pid ${server.pid}, data ${server.dbPath})` : redact(server.uri)} | ` +
    `MongoDB ${server.version} | ${server.topology || '?'} | ${server.storageEngine || 'storage engine not visible (no clusterMonitor)'} | ${server.queryFramework || 'classic'}`
  );
}

/**
 * `run`: a server (o.uri, else an embedded mongod), the studies on it (runStudies), and the
 * database the run created dropped at the end unless o.keep.
 * @param {object} o runStudies' options without server, plus uri, cacheSizeGB, keep, argv, say
 */
async function runSession(o) {
  const { getServer } = require('../infra/server');
  const { redact } = require('../infra/errors');
  const log = o.log || (() => {});
  const say = o.say || (() => {});
  const server = await getServer({
    uri: o.uri,
    cacheSizeGB: o.cacheSizeGB,
    log: (m) => process.stderr.write(m + '\n'),
  });
  let created = false;
  try {
    server.topology = await topologyOf(server.uri);
    log(serverLine(server, redact));
    if (!server.embedded) created = !(await databaseExists(server.uri, o.dbName));
    return await runStudies({
      ...o,
      server,
      env: { argv: o.argv },
      announce: (entry) => say(`\n=== ${entry.name}: ${entry.title} (source ${entry.source}) ===`),
    });
  } finally {
    // Only a database that exists now was created by this run (a user who may not write created
    // nothing, and is not told to drop anything).
    if (created && !o.keep && (await databaseExists(server.uri, o.dbName).catch(() => false))) {
      await withClient(server.uri, {}, (c) => c.db(o.dbName).dropDatabase()).catch((e) =>
        process.stderr.write(
          `mongo-perf-lab: could not drop database ${o.dbName}, which this run created (${String(e.message)
            .split('\n')[0]
            .replace(/to execute command \{ (\w+):.*$/, 'to run $1')}): drop it yourself\n`,
        ),
      );
    }
    await server.stop();
  }
}

module.exports = { runStudies, runSession, topologyOf };
