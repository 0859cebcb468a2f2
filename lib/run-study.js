'use strict';
// Runs one study end to end on a server: fixture, then its shell script in mongosh's runtime.
const { MongoClient } = require('mongodb');
const { ShellSession } = require('./shell-runner');
const { parseLabLines } = require('./lab-lines');
const { interleave } = require('./harness');

/**
 * @param {object} study an entry of lib/studies.js
 * @param {object} o { server, db, docs, runs, seed, progress, echo }
 * @returns {Promise<object>} JSON-ready result: study, server, params, fixture, rows
 *
 * By default a study's fixture is prepared, then each of its scripts (study.scripts, or
 * study.script) runs in mongosh's runtime and its @@LAB lines become the result's records.
 * A study with Node-side parts (client-side variants, restarts) defines study.run(ctx) and
 * returns { fixture, records } itself; ctx = { server, dbName, client, db, opts, session, echo, progress }.
 */
async function runStudy(study, { server, db: dbName, docs, runs, seed, progress, echo }) {
  const opts = { ...study.defaults, ...definedOnly({ docs, runs, seed }) };
  const client = new MongoClient(server.uri);
  let session;
  let out;
  try {
    await client.connect();
    const db = client.db(dbName);
    session = await ShellSession.open(server.uri, dbName);
    if (study.run) {
      out = await study.run({ server, dbName, client, db, opts, session, echo, progress });
    } else {
      const fixture = await study.prepare({ db, ...opts, progress });
      const records = [];
      for (const script of study.scripts || [study.script]) {
        records.push(...parseLabLines(await session.run(script, study.params(opts, script), { echo })));
      }
      out = { fixture, records };
    }
  } finally {
    if (session) await session.close();
    await client.close();
  }
  return {
    study: study.name,
    seed: study.seed,
    title: study.title,
    at: new Date().toISOString(),
    server: pick(server, ['version', 'storageEngine', 'queryFramework', 'cacheSizeBytes', 'embedded', 'binarySource']),
    db: dbName,
    params: opts,
    fixture: out.fixture,
    script: out.records.find((r) => r.kind === 'server'),
    rows: out.records.filter((r) => r.kind === 'row'),
    records: out.records,
    ...(out.extra || {}),
  };
}

/**
 * Times chosen variants of a study's script against each other, interleaved: each timed run is
 * one evaluation of the script with ONLY=<variant>, RUNS=0, timed inside the shell.
 */
async function compareVariants(session, study, names, opts = {}) {
  const params = study.params({ ...study.defaults, ...definedOnly(opts) });
  const runOne = async (name) => {
    const rows = parseLabLines(await session.run(study.script, { ...params, ONLY: name, RUNS: 0 }));
    const row = rows.find((r) => r.kind === 'row' && r.variant === name);
    if (!row) throw new Error(`${study.script} printed no result for ${name}`);
    return row.median;
  };
  return interleave(names.map((name) => ({ name, run: () => runOne(name) })),
    { warmup: opts.warmup ?? 1, rounds: opts.rounds ?? 5, baseline: opts.baseline || names[0] });
}

function definedOnly(o) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function pick(o, keys) {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
}

module.exports = { runStudy, compareVariants };
