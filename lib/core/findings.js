'use strict';
// `mongo-perf-lab findings`: every source article's claims judged on this server (or on several
// servers and query engines side by side), one Markdown and one self-contained HTML report.
// It runs the studies through the same runner as `run` (or reads result files with --from), and
// judges the claims with the studies' own rules (lib/core/claims.js) over the records. How the
// findings read is lib/report/findings-report.js: one document, rendered to Markdown and HTML.
const fs = require('fs');
const path = require('path');
const lab = require('../../scripts/lib/lab');
const claims = require('./claims');
const report = require('../report/report');
const { findingsDocument, glanceTable, readmeBlock, settingOf, TEST_SCALE } = require('../report/findings-report');
const { renderMarkdown } = require('../report/render-markdown');
const { renderHtml } = require('../report/render-html');
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
  if (lab.versionAtLeast(version, '7.0')) {
    await admin.command({
      setParameter: 1,
      internalQueryFrameworkControl: engine === 'classic' ? 'forceClassicEngine' : 'trySbeEngine',
    });
  } else if (lab.versionAtLeast(version, '5.1')) {
    await admin.command({ setParameter: 1, internalQueryForceClassicEngine: engine === 'classic' });
  } else if (engine !== 'classic') {
    throw new Error(`MongoDB ${version} has only the classic engine`);
  }
}

/** Runs the chosen studies on one server (and engine), into outDir/results.json. */
async function runColumn({ entries, server, label, engine, profile, dbName, outDir, log, echo, ready }) {
  fs.mkdirSync(outDir, { recursive: true });
  const { MongoClient } = require('mongodb');
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
  });
}

/**
 * One column from several result files (--merge): the first file is the base run; a study found in
 * later files (documented runs) takes its records from all of those instead, added together (e.g. a
 * study's main run and its cache run). Each file's environment is kept.
 */
function mergeDocs(docs, names) {
  const byStudy = new Map();
  docs.forEach((d, i) => {
    for (const st of new Set(d.results.map((r) => r.study))) byStudy.set(st, [...(byStudy.get(st) || []), i]);
  });
  for (const [st, files] of byStudy) if (files.length > 1 && files[0] === 0) byStudy.set(st, files.slice(1));
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
 * The scale a study ran at, from its parameters: its size parameter (the one --docs sets) and the
 * timed rounds, e.g. "N 1,000,000, 10 rounds". A seed-scale report must say what "seed" meant.
 */
function scaleOf(entry, params) {
  if (!entry || !params) return '';
  const size = entry.cli && entry.cli.docs;
  const parts = [];
  if (size && typeof params[size] === 'number') parts.push(`${size} ${lab.fmtInt(params[size])}`);
  if (typeof params.RUNS === 'number') parts.push(`${params.RUNS} round${params.RUNS === 1 ? '' : 's'}`);
  if (params.VARIANTS) parts.push(`variants ${params.VARIANTS}`);
  return parts.join(', ');
}

/** One row per column (per source file of a merged column): what ran, at what scale, where. */
function environmentRows(entries, docs, labels) {
  const scales = (studies, params) =>
    studies
      .map((st) => {
        const sc = scaleOf(
          entries.find((e) => e.name === st),
          (params || {})[st],
        );
        return sc ? `${st} (${sc})` : st;
      })
      .join('; ');
  const tiny = (env) => (env.profile === 'tiny' ? ` (${TEST_SCALE})` : '');
  return docs.flatMap((d, i) =>
    d.environment.sources
      ? d.environment.sources.map((src) => [
          `${baseLabel(d)}: ${src.file}, ${(src.environment.startedAt || '').slice(0, 10)}${tiny(src.environment)}`,
          scales(src.studies, src.params),
          report.serverLine(src.environment),
        ])
      : [
          [
            labels[i],
            scales(
              entries.map((e) => e.name).filter((n) => d.results.some((r) => r.study === n)),
              d.params,
            ),
            report.serverLine(d.environment),
          ],
        ],
  );
}

function baseLabel(doc) {
  const e = doc.environment;
  return (
    e.label ||
    `MongoDB ${e.server.version}${e.engine && e.engine !== 'default' ? ` ${e.engine}` : ''}, ${e.profile || '?'} profile`
  );
}

/** A column's name in the reports: a column with test-scale (tiny) records says so. */
function columnLabel(doc) {
  const base = baseLabel(doc);
  return columnProfiles(doc).includes('tiny') && !base.includes(TEST_SCALE) ? `${base} (${TEST_SCALE})` : base;
}

/** The profiles a column's records were measured with (a merged column: each source file's). */
function columnProfiles(doc) {
  const e = doc.environment;
  return [...new Set(e.sources ? e.sources.map((src) => src.environment.profile || null) : [e.profile || null])];
}

/** The profile, scale and parameters a study ran with in a column (a merged column: its source file's). */
function studyRun(doc, entry) {
  const src = doc.environment.sources && doc.environment.sources.find((x) => x.studies.includes(entry.name));
  const env = src ? src.environment : doc.environment;
  const params = ((src ? src.params : doc.params) || {})[entry.name];
  return { profile: env.profile || null, scale: scaleOf(entry, params) || null, testScale: env.profile === 'tiny' };
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

const FINDINGS_FORMAT = 'mongo-perf-lab-findings';
const FINDINGS_VERSION = 1;

/**
 * findings.json (docs/findings.schema.json): one object per claim and column, for a CI or a script
 * to read instead of the Markdown. A column's studies may come from several files (a merged column),
 * so each object carries the profile and scale of the run its study came from.
 */
function findingsJson({ entries, docs, judged, command }) {
  const labels = docs.map(columnLabel);
  const columns = docs.map((d, i) => ({
    column: i + 1,
    label: labels[i],
    profiles: columnProfiles(d),
    testScale: columnProfiles(d).includes('tiny'),
  }));
  const claimsOut = [];
  judged.forEach((col, i) => {
    for (const j of col) {
      const entry = entries.find((e) => e.name === j.study);
      if (!docs[i].results.some((r) => r.study === j.study)) continue; // the column did not run the study: no verdict
      const run = studyRun(docs[i], entry);
      claimsOut.push({
        study: j.study,
        id: j.id,
        claim: j.claim,
        published: j.published === undefined ? null : j.published,
        column: i + 1,
        label: labels[i],
        profile: run.profile,
        scale: run.scale,
        testScale: run.testScale,
        verdict: j.verdict,
        figure: j.figure === undefined || j.figure === '-' ? null : j.figure,
        interval: j.interval || null,
        setting: settingOf(j),
        why: j.why || null,
      });
    }
  });
  const counts = columns.map((c) => {
    const n = {};
    for (const x of claimsOut.filter((y) => y.column === c.column)) n[x.verdict] = (n[x.verdict] || 0) + 1;
    return n;
  });
  return {
    format: FINDINGS_FORMAT,
    version: FINDINGS_VERSION,
    generatedAt: new Date().toISOString(),
    command: command || null,
    columns: columns.map((c, i) => ({ ...c, verdicts: counts[i] })),
    claims: claimsOut,
  };
}

/** Rewrites README.md's glance table between its markers from a findings result. */
function updateReadme(readmeFile, table) {
  const text = fs.readFileSync(readmeFile, 'utf8');
  const start = '<!-- findings:glance:start -->';
  const end = '<!-- findings:glance:end -->';
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`${readmeFile} has no ${start} ... ${end} markers`);
  fs.writeFileSync(readmeFile, `${text.slice(0, i + start.length)}\n${table}\n${text.slice(j)}`);
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
 * @param {object} o { entries, profile, uris: (string|undefined)[], engines: string[], from: string[], labels, outDir, dbName, log, echo, cacheSizeGB,
 *   command: the command line to print in the report (without connection strings),
 *   ready: async, before a column's first study, once its parameters are accepted (e.g. the peers' start) }
 * @returns {Promise<{md: string, html: string, docs: object[], judged: object[][]}>}
 */
async function findings(o) {
  const { entries, profile = 'quick', outDir, log = () => {} } = o;
  fs.mkdirSync(outDir, { recursive: true });
  let docs = o.from && o.from.length ? readColumns(o) : await runColumns(o);
  if (o.labels && o.labels.length) {
    docs = docs.map((d, i) => (o.labels[i] ? { ...d, environment: { ...d.environment, label: o.labels[i] } } : d));
  }
  // Read results say what profile they were measured with.
  const shownProfile =
    o.from && o.from.length
      ? [
          ...new Set(
            docs.map((d) =>
              d.environment.sources
                ? 'merged: each study from the result file named beside it below'
                : d.environment.profile || 'unknown',
            ),
          ),
        ].join('; ')
      : profile;
  const judged = judgeAll(entries, docs);
  docs.forEach((d, i) => {
    const busy = report.busyLine(d, columnLabel(d, i));
    if (busy) log(`warning: ${busy}`);
  });
  const images = await chartImages(entries, docs, outDir);
  const labels = docs.map(columnLabel);
  const model = findingsDocument({
    entries,
    docs,
    judged,
    labels,
    images,
    outDir,
    profile: shownProfile,
    command: o.command,
    environment: environmentRows(entries, docs, labels),
    differences: docs.length > 1 ? differences(entries, judged, docs) : null,
  });
  const md = renderMarkdown(model);
  const html = renderHtml(model, { baseDir: outDir });
  const json = findingsJson({ entries, docs, judged, command: o.command });
  const files = ['findings.md', 'findings.html', 'findings.json'].map((f) => path.join(outDir, f));
  fs.writeFileSync(files[0], md);
  fs.writeFileSync(files[1], html);
  fs.writeFileSync(files[2], JSON.stringify(json, null, 2) + '\n');
  // The glance table with the README's links: the terminal shows it; --readme writes the README's
  // block ("What this means for you", then this table with its settings as footnotes).
  const glance = glanceTable(entries, judged, labels);
  const readme = readmeBlock(entries, docs, judged, labels);
  return { md, html, json, docs, judged, model, glance: readme, glanceTable: glance, files };
}

/** Each study's charts (from the first column that ran it) under outDir/charts: study -> PNG paths relative to outDir. */
async function chartImages(entries, docs, outDir) {
  const images = {};
  for (const entry of entries) {
    const withData = docs.find((d) => d.results.some((r) => r.study === entry.name));
    if (!withData) continue;
    const files = (await report.charts(withData, entry, path.join(outDir, 'charts'))).filter((f) => f.endsWith('.png'));
    images[entry.name] = files.map((f) => path.relative(outDir, f));
  }
  return images;
}

module.exports = {
  findings,
  findingsJson,
  columnLabel,
  environmentRows,
  FINDINGS_FORMAT,
  updateReadme,
  setEngine,
  mergeDocs,
  scaleOf,
  differences,
  fromGroup,
};
