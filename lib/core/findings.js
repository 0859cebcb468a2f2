'use strict';
// `mongo-perf-lab findings`, its measuring half: every source article's claims judged on this
// server (or on several servers and query engines side by side). It runs the studies through the
// same runner as `run` (or reads result files with --from), and judges the claims with the studies'
// own rules (lib/core/claims.js) over the records. The report's half (the document, its Markdown,
// HTML and JSON files, the README's block) is lib/report/findings-files.js, above this floor.
const fs = require('fs');
const path = require('path');
const { MongoClient } = require('mongodb');
const { versionAtLeast } = require('../../scripts/lib/server');
const claims = require('./claims');
const { ENV_FACTS } = require('./env-facts');
const { runStudies } = require('./session');
const { readResults } = require('./results');
const { getServer } = require('../infra/server');
const { safeArgv } = require('../infra/errors');

/**
 * The query engine of a server the lab started: 6.0 has internalQueryForceClassicEngine, 7.0+
 * internalQueryFrameworkControl. Never called on a server the lab did not start.
 */
async function setEngine(client, engine, version) {
  const admin = client.db('admin');
  if (versionAtLeast(version, '7.0')) {
    await admin.command({
      setParameter: 1,
      internalQueryFrameworkControl: engine === 'classic' ? 'forceClassicEngine' : 'trySbeEngine',
    });
  } else if (versionAtLeast(version, '5.1')) {
    await admin.command({ setParameter: 1, internalQueryForceClassicEngine: engine === 'classic' });
  } else if (engine !== 'classic') {
    throw new Error(`MongoDB ${version} has only the classic engine`);
  }
}

/** Runs the chosen studies on one server (and engine), into outDir/results.json. */
async function runColumn({
  entries,
  server,
  label,
  engine,
  profile,
  dbName,
  outDir,
  log,
  echo,
  ready,
  profileOf,
  deadlineOf,
}) {
  fs.mkdirSync(outDir, { recursive: true });
  if (engine && engine !== 'default') {
    const c = new MongoClient(server.uri);
    try {
      await setEngine(c, engine, server.version);
    } finally {
      await c.close();
    }
  }
  return runStudies({
    entries,
    server,
    dbName,
    profile,
    file: path.join(outDir, 'results.json'),
    echo,
    log,
    env: { label, engine: engine || 'default', argv: safeArgv(process.argv.slice(2)) },
    announce: (entry) => log(`[${label}] ${entry.name}: ${entry.title}`),
    ready,
    // --budget (lib/core/budget.js): each study's planned profile and deadline; else the run's one profile.
    ...(profileOf ? { profileOf } : {}),
    deadlineOf,
  });
}

const coresOf = (doc) => ENV_FACTS.usableCores.read(doc.environment || {});

/**
 * One column from several result files (--merge): the first file is the base run; a study found in
 * later files (documented runs) takes its records from all of those instead, added together (e.g. a
 * study's main run and its cache run). A study whose later files all ran in another machine state
 * (usable cores: `taskset -c 0` beside a run on free cores) keeps the base's records beside theirs:
 * a state added, not a re-run, and the claims judge each state apart. Each file's environment is kept.
 */
function mergeDocs(docs, names) {
  const byStudy = new Map();
  docs.forEach((d, i) => {
    for (const st of new Set(d.results.map((r) => r.study))) byStudy.set(st, [...(byStudy.get(st) || []), i]);
  });
  const otherState = (i) => coresOf(docs[i]) !== coresOf(docs[0]);
  for (const [st, files] of byStudy)
    if (files.length > 1 && files[0] === 0 && !files.slice(1).every(otherState)) byStudy.set(st, files.slice(1));
  const results = [];
  const sources = [];
  const params = {};
  docs.forEach((d, i) => {
    const studies = [...byStudy].filter(([, files]) => files.includes(i)).map(([st]) => st);
    if (!studies.length) return;
    // A loop, not push(...records): a spread of a large file's records overflows the stack.
    for (const r of d.results) if (studies.includes(r.study)) results.push(r);
    for (const st of studies) if (d.params && d.params[st] && !params[st]) params[st] = d.params[st];
    sources.push({ file: path.basename(names[i]), studies, environment: d.environment, params: d.params || {} });
  });
  const first = sources.length ? sources[0].environment : docs[0].environment;
  return { ...docs[0], results, params, environment: { ...first, label: 'merged results', sources } };
}

/** One --from item: a file or folder, or several joined with '+' into one column. */
function fromGroup(item) {
  return fs.existsSync(item)
    ? [item]
    : item
        .split('+')
        .map((x) => x.trim())
        .filter(Boolean);
}

/**
 * The claims on which the columns reach different verdicts. A column that did not run the study
 * at all is left out of the comparison (its cell stays empty): "not run" is not a verdict.
 */
function differences(entries, judged, docs) {
  const rows = [];
  for (const entry of entries) {
    const ran = docs.map((d) => d.results.some((r) => r.study === entry.name));
    for (const j of judged[0].filter((x) => x.study === entry.name)) {
      // Claim ids are unique within a study only.
      const same = (x) => x.study === j.study && x.id === j.id;
      const cells = judged.map((col, i) => (ran[i] ? col.find(same) : undefined));
      if (new Set(cells.filter(Boolean).map((c) => c.verdict)).size > 1) rows.push({ entry, claim: j, cells });
    }
  }
  return rows;
}

/**
 * Each column's judgements. A study with no record in a column was not measured there: its claims
 * say so, whatever a rule would make of no records (some rules answer "inconclusive", which means
 * measured but undecided).
 */
function judgeAll(entries, docs) {
  return docs.map((doc) => {
    const studies = new Set(doc.results.map((r) => r.study));
    return entries.flatMap((e) => {
      const judged = claims.judge(e, doc.results, doc.environment, doc.params);
      if (studies.has(e.name)) return judged;
      const why = `not measured: ${doc.results.length ? `no record of ${e.name}` : 'no records at all'} in ${columnSource(doc)}`;
      return judged.map((j) => ({
        ...j,
        verdict: claims.VERDICT.NOT_MEASURED,
        figure: null,
        interval: null,
        setting: { needed: j.setting.needed, here: null, ok: null },
        why,
        mechanism: undefined,
      }));
    });
  });
}

/** Where a column's records came from, for a line about them: its file(s), or "this run". */
function columnSource(doc) {
  const files = doc.sourceFiles || (doc.environment.sources || []).map((src) => src.file);
  return files.length ? files.join(' + ') : 'this run';
}

/**
 * The columns from saved result files: a column is one file, or files joined with '+' (see
 * mergeDocs), e.g. a seed-scale column assembled from several documented runs, beside a quick run.
 */
function readColumns(o) {
  const log = o.log || (() => {});
  const groups = o.merge ? [o.from] : o.from.map(fromGroup);
  return groups.map((g) => {
    const read = g.map((f) => readResults(f));
    // A file without records (a run stopped before its first point) measured nothing: said once,
    // and its claims are "not measured" (judgeAll), never "inconclusive".
    read.forEach((d, i) => {
      if (!d.results.length)
        log(`warning: ${g[i]} holds no records (nothing was measured): its claims are "not measured"`);
    });
    const doc = g.length > 1 ? mergeDocs(read, g) : read[0];
    return { ...doc, sourceFiles: g };
  });
}

/** The columns measured now: per server (each started or reached once), per query engine. */
async function runColumns(o) {
  const { entries, profile = 'quick', outDir, log = () => {}, echo = () => {} } = o;
  const docs = [];
  const uris = o.uris && o.uris.length ? o.uris : [undefined];
  const engines = o.engines && o.engines.length ? o.engines : ['default'];
  for (const [si, uri] of uris.entries()) {
    const server = await getServer({ uri, cacheSizeGB: o.cacheSizeGB, log });
    try {
      for (const engine of engines) {
        if (engine !== 'default' && !server.embedded) {
          log(
            `not switching the query engine of ${uri ? 'a server the lab did not start' : 'this server'}: column ${engine} skipped`,
          );
          continue;
        }
        const label = `${uris.length > 1 ? `server ${si + 1} ` : ''}MongoDB ${server.version}${engine !== 'default' ? ` ${engine === 'classic' ? 'classic engine' : 'slot-based engine'}` : ''}`;
        docs.push(
          await runColumn({
            entries,
            server,
            label,
            engine,
            profile,
            dbName: o.dbName || 'perflab',
            outDir: path.join(outDir, `column-${docs.length + 1}`),
            log,
            echo,
            ready: o.ready,
            profileOf: o.profileOf,
            deadlineOf: o.deadlineOf,
          }),
        );
      }
    } finally {
      await server.stop();
    }
  }
  return docs;
}

/**
 * The columns of a findings report and each column's judgements: measured now (per server, per query
 * engine) or read from result files (--from). How they read is lib/report/findings-files.js.
 * @param {object} o { entries, profile, uris: (string|undefined)[], engines: string[], from: string[], merge, labels, outDir, dbName, log, echo, cacheSizeGB,
 *   ready: async, before a column's first study, once its parameters are accepted (e.g. the peers' start) }
 * @returns {Promise<{docs: object[], judged: object[][], profile: string}>} profile: the one shown (read results say theirs)
 */
async function findingsColumns(o) {
  const { entries, profile = 'quick' } = o;
  let docs = o.from && o.from.length ? readColumns(o) : await runColumns(o);
  if (o.labels && o.labels.length) {
    docs = docs.map((d, i) => (o.labels[i] ? { ...d, environment: { ...d.environment, label: o.labels[i] } } : d));
  }
  const shownProfile = o.from && o.from.length ? [...new Set(docs.map(profileShown))].join('; ') : profile;
  return { docs, judged: judgeAll(entries, docs), profile: shownProfile };
}

/** A read column's profile: its own, or a merged column's one profile (when its files share it) with how it was merged. */
function profileShown(d) {
  const { sources, profile } = d.environment;
  if (!sources) return profile || 'unknown';
  const merged = 'merged: each study from the result file named beside it below';
  const all = [...new Set(sources.map((s) => s.environment.profile || 'unknown'))];
  return all.length === 1 && all[0] !== 'unknown' ? `${all[0]} (${merged})` : merged;
}

module.exports = { findingsColumns, setEngine, mergeDocs, profileShown, differences, fromGroup };
