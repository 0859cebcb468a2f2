'use strict';
// `mongo-perf-lab findings`, its report's half: the columns the core measured or read and judged
// (lib/core/findings.js findingsColumns) as one document (findings-report.js), written to
// findings.md, a self-contained findings.html and findings.json, the charts beside them, and the
// README's block. Nothing here measures.
const fs = require('fs');
const path = require('path');
const report = require('./report');
const { findingsDocument, glanceTable, readmeBlock, settingOf, profileIn, TEST_SCALE } = require('./findings-report');
const { renderMarkdown } = require('./render-markdown');
const { renderHtml } = require('./render-html');
const { scaleOf } = require('./scale');
const { findingsColumns, differences } = require('../core/findings');
const { claimOutcome } = require('../core/claims');

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

/**
 * The profiles a column's records were measured with (a merged column: each source file's), and
 * those records carry of their own (a study --budget planned at another profile).
 */
function columnProfiles(doc) {
  const e = doc.environment;
  const files = e.sources ? e.sources.map((src) => src.environment.profile || null) : [e.profile || null];
  return [...new Set([...files, ...(doc.results || []).filter((r) => r.profile).map((r) => r.profile)])];
}

/** The profile, scale and parameters a study ran with in a column (its records' own profile, findings-report.js profileIn). */
function studyRun(doc, entry) {
  const src = doc.environment.sources && doc.environment.sources.find((x) => x.studies.includes(entry.name));
  const params = ((src ? src.params : doc.params) || {})[entry.name];
  const profile = profileIn(doc, entry);
  return { profile, scale: scaleOf(entry, params) || null, testScale: profile === 'tiny' };
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
        ...claimOutcome(j, j),
        column: i + 1,
        label: labels[i],
        profile: run.profile,
        scale: run.scale,
        testScale: run.testScale,
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
 * Measures (or reads) and judges the columns, then writes the report.
 * @param {object} o findingsColumns' options (lib/core/findings.js), and
 *   command: the command line to print in the report (without connection strings)
 * @returns {Promise<{md: string, html: string, json: object, docs: object[], judged: object[][], model: object, glance: string, glanceTable: object, files: string[]}>}
 */
async function findings(o) {
  fs.mkdirSync(o.outDir, { recursive: true });
  const { docs, judged, profile } = await findingsColumns(o);
  return writeFindings({ ...o, docs, judged, profile });
}

/** The report of judged columns: findings.md, findings.html, findings.json and the charts, under outDir. */
async function writeFindings({ entries, docs, judged, profile, command, outDir, log = () => {} }) {
  fs.mkdirSync(outDir, { recursive: true });
  docs.forEach((d) => {
    const busy = report.busyLine(d, columnLabel(d));
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
    profile,
    command,
    environment: environmentRows(entries, docs, labels),
    differences: docs.length > 1 ? differences(entries, judged, docs) : null,
  });
  const md = renderMarkdown(model);
  const html = renderHtml(model, { baseDir: outDir });
  const json = findingsJson({ entries, docs, judged, command });
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
  writeFindings,
  findingsJson,
  columnLabel,
  environmentRows,
  FINDINGS_FORMAT,
  updateReadme,
};
