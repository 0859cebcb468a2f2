'use strict';
// `mongo-perf-lab findings`: every source article's claims judged on this server (or on several
// servers and query engines side by side), one Markdown and one self-contained HTML report.
// It runs the studies through the same runner as `run` (or reads result files with --from), and
// judges the claims with the studies' own rules (lib/core/claims.js) over the records.
const fs = require('fs');
const path = require('path');
const lab = require('../../scripts/lib/lab');
const claims = require('./claims');
const report = require('../report/report');
const { runStudy } = require('./run-study');
const { ResultFile, environment, readResults } = require('./results');
const { getServer } = require('../infra/server');
const { safeArgv } = require('../infra/errors');

const VERDICT_MARK = claims.LABEL;

/**
 * The query engine of a server the lab started: 6.0 has internalQueryForceClassicEngine, 7.0+
 * internalQueryFrameworkControl. Never called on a server the lab did not start.
 */
async function setEngine(client, engine, version) {
  const admin = client.db('admin');
  if (lab.versionAtLeast(version, '7.0')) {
    await admin.command({ setParameter: 1, internalQueryFrameworkControl: engine === 'classic' ? 'forceClassicEngine' : 'trySbeEngine' });
  } else if (lab.versionAtLeast(version, '5.1')) {
    await admin.command({ setParameter: 1, internalQueryForceClassicEngine: engine === 'classic' });
  } else if (engine !== 'classic') {
    throw new Error(`MongoDB ${version} has only the classic engine`);
  }
}

/** Runs the chosen studies on one server (and engine), into outDir/results.json. */
async function runColumn({ entries, server, label, engine, profile, dbName, outDir, log, echo }) {
  fs.mkdirSync(outDir, { recursive: true });
  const { MongoClient } = require('mongodb');
  if (engine && engine !== 'default') {
    const c = new MongoClient(server.uri);
    try { await setEngine(c, engine, server.version); } finally { await c.close(); }
  }
  const rf = new ResultFile(path.join(outDir, 'results.json'), environment(server, { profile, label, engine: engine || 'default', argv: safeArgv(process.argv.slice(2)) }));
  rf.doc.params = {};
  for (const entry of entries) {
    log(`[${label}] ${entry.name}: ${entry.title}`);
    const r = await runStudy(entry, { server, dbName, profile: profile === 'seed' ? 'seedScale' : profile, results: rf, echo, log });
    rf.doc.params[entry.name] = r.params;
    rf.write();
  }
  rf.doc.claims = entries.flatMap((e) => claims.judge(e, rf.doc.results, rf.doc.environment, rf.doc.params));
  rf.finish();
  return rf.doc;
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
    results.push(...d.results.filter((r) => studies.includes(r.study)));
    for (const st of studies) if (d.params && d.params[st] && !params[st]) params[st] = d.params[st];
    sources.push({ file: path.basename(names[i]), studies, environment: d.environment, params: d.params || {} });
  });
  const first = sources.length ? sources[0].environment : docs[0].environment;
  return { ...docs[0], results, params, environment: { ...first, label: 'merged results', sources } };
}

/** One --from item: a file or folder, or several joined with '+' into one column. */
function fromGroup(item) {
  return fs.existsSync(item) ? [item] : item.split('+').map((x) => x.trim()).filter(Boolean);
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
      const cells = judged.map((col, i) => (ran[i] ? col.find((x) => x.id === j.id) : undefined));
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
  const scales = (studies, params) => studies.map((st) => {
    const sc = scaleOf(entries.find((e) => e.name === st), (params || {})[st]);
    return sc ? `${st} (${sc})` : st;
  }).join('; ');
  return docs.flatMap((d, i) => (d.environment.sources
    ? d.environment.sources.map((src) => [`${labels[i]}: ${src.file}, ${(src.environment.startedAt || '').slice(0, 10)}`,
      scales(src.studies, src.params), report.serverLine(src.environment)])
    : [[labels[i], scales(entries.map((e) => e.name).filter((n) => d.results.some((r) => r.study === n)), d.params), report.serverLine(d.environment)]]));
}

function columnLabel(doc, i) {
  const e = doc.environment;
  return e.label || `MongoDB ${e.server.version}${e.engine && e.engine !== 'default' ? ` ${e.engine}` : ''}, ${e.profile || '?'} profile`;
}

function judgeAll(entries, docs) {
  return docs.map((doc) => entries.flatMap((e) => claims.judge(e, doc.results, doc.environment, doc.params)));
}

function esc(s) {
  return String(s === undefined || s === null ? '' : s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

function cell(j, max = Infinity) {
  if (!j) return '';
  if (j.figure === '-') j = { ...j, figure: null };
  // Shortened at a word boundary: a figure is never cut mid-word (or mid-number).
  const fig = j.figure && j.figure.length > max ? `${j.figure.slice(0, max).replace(/\s+\S*$/, '').replace(/[ ,;:(]+$/, '')}…` : j.figure;
  return `${VERDICT_MARK[j.verdict]}${fig ? ` (${fig})` : ''}`;
}

/** The findings as Markdown; `imgs` maps study -> chart paths relative to the report. */
const ROOT = path.resolve(__dirname, '..', '..');

/** The study's write-up in the repository: `docs/studies/<name>.md`, or the declaration's `writeUp` (a file#section). */
function writeUpPath(entry) {
  return entry.writeUp || `docs/studies/${entry.name}.md`;
}

/** The write-up as a link from outDir. */
function writeUp(entry, outDir) {
  const [file, anchor] = writeUpPath(entry).split('#');
  return path.relative(outDir, path.join(ROOT, file)).split(path.sep).join('/') + (anchor ? `#${anchor}` : '');
}

function toMarkdown({ entries, docs, judged, imgs, profile, outDir, command }) {
  const labels = docs.map(columnLabel);
  const out = ['# Findings: the classic MongoDB performance claims, re-measured', '',
    `Profile: **${profile}**. Generated by \`${command || 'mongo-perf-lab findings'}\` from result records; every verdict is a rule over them (lib/core/claims.js).`, ''];
  out.push('## Where it was measured', '', report.md(['column', 'studies (scale)', 'environment'], environmentRows(entries, docs, labels), { left: true }), '');
  out.push('## At a glance', '', glanceTable(entries, judged, labels, (entry) => writeUp(entry, outDir)), '');
  if (docs.length > 1) {
    const diff = differences(entries, judged, docs);
    out.push('## Where the columns differ', '', diff.length
      ? report.md(['study', 'claim', ...labels], diff.map((d) => [d.entry.name, d.claim.claim, ...d.cells.map((c) => cell(c, 70))]), { left: true })
      : 'Every claim gets the same verdict in every column.', '');
  }
  for (const entry of entries) {
    const rows = judged[0].filter((j) => j.study === entry.name);
    if (!rows.length) continue;
    out.push(`## ${entry.name}: ${entry.title} (source ${entry.source})`, '');
    out.push(report.md(['claim', 'published (setting)', ...labels, 'why'], rows.map((j) => [j.claim, `${j.published} (${j.setting})`,
      ...judged.map((col) => cell(col.find((x) => x.id === j.id))), judged.map((col) => (col.find((x) => x.id === j.id) || {}).why).filter(Boolean)[0] || '']), { left: true }), '');
    for (const doc of docs) {
      const head = report.headline(doc, entry);
      if (head) out.push('```', head, '```', '');
    }
    for (const img of imgs[entry.name] || []) out.push(`![${entry.name}](${img})`, '');
    out.push(`Full write-up: [${writeUpPath(entry)}](${writeUp(entry, outDir)})`, '');
  }
  return out.join('\n') + '\n';
}

/**
 * The short table the README shows: one row per claim, each column's verdict (figures shortened);
 * `link` gives each study's write-up as seen from where the table goes (default: the README's).
 */
function glanceTable(entries, judged, labels = ['verdict'], link = writeUpPath) {
  const rows = [];
  for (const entry of entries) {
    for (const j of judged[0].filter((x) => x.study === entry.name)) {
      rows.push([`[${entry.name}](${link(entry)})`, j.claim, j.published.length > 60 ? `${j.published.slice(0, 60).replace(/\s+\S*$/, '').replace(/[ ,;:(]+$/, '')}…` : j.published,
        ...judged.map((col) => cell(col.find((x) => x.id === j.id), 70))]);
    }
  }
  return report.md(['study', 'claim', 'published', ...labels], rows, { left: true });
}

/** One self-contained HTML file: the same content, charts inline. */
function toHtml({ entries, docs, judged, pngs, profile, outDir, command }) {
  const labels = docs.map(columnLabel);
  const verdictCell = (j) => (j ? `<td class="v ${j.verdict}">${esc(VERDICT_MARK[j.verdict])}${j.figure ? `<br><small>${esc(j.figure)}</small>` : ''}</td>` : '<td></td>');
  const parts = [];
  parts.push(`<h1>Findings: the classic MongoDB performance claims, re-measured</h1><p>Profile <b>${esc(profile)}</b>. Generated by <code>${esc(command || 'mongo-perf-lab findings')}</code>; every verdict is a rule over the result records (lib/core/claims.js).</p>`);
  parts.push(`<h2>Where it was measured</h2><table><tr><th>column</th><th>studies (scale)</th><th>environment</th></tr>${environmentRows(entries, docs, labels).map((row) => `<tr>${row.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`);
  if (docs.length > 1) {
    const diff = differences(entries, judged, docs);
    parts.push(`<h2>Where the columns differ</h2>${diff.length
      ? `<table><tr><th>study</th><th>claim</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}</tr>${diff.map((d) => `<tr><td><a href="#${esc(d.entry.name)}">${esc(d.entry.name)}</a></td><td>${esc(d.claim.claim)}</td>${d.cells.map(verdictCell).join('')}</tr>`).join('')}</table>`
      : '<p>Every claim gets the same verdict in every column.</p>'}`);
  }
  for (const entry of entries) {
    const rows = judged[0].filter((j) => j.study === entry.name);
    if (!rows.length) continue;
    parts.push(`<h2 id="${esc(entry.name)}">${esc(entry.name)}: ${esc(entry.title)} <small>(source ${esc(entry.source)})</small></h2>`);
    parts.push(`<table><tr><th>claim</th><th>published (setting)</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}<th>why</th></tr>${rows.map((j) => `<tr><td>${esc(j.claim)}</td><td>${esc(j.published)}<br><small>${esc(j.setting)}</small></td>${judged.map((col) => verdictCell(col.find((x) => x.id === j.id))).join('')}<td><small>${esc(j.why)}</small></td></tr>`).join('')}</table>`);
    for (const png of pngs[entry.name] || []) {
      parts.push(`<figure><img alt="${esc(entry.name)} chart" src="data:image/png;base64,${fs.readFileSync(png).toString('base64')}"></figure>`);
    }
    parts.push(`<p>Full write-up: <a href="${esc(writeUp(entry, outDir))}">${esc(writeUpPath(entry))}</a></p>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mongo-perf-lab findings</title><style>
body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;width:100%}td,th{border:1px solid #bbb;padding:.35em .5em;vertical-align:top;text-align:left}
th{background:#eee}.v{font-weight:bold;white-space:nowrap}.holds{background:#dcebf7}.changed{background:#f7e3c8}
.obsolete{background:#e6e6e6}.not-measurable{background:#fff;color:#666}figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}
</style></head><body>
${parts.join('\n')}
</body></html>
`;
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
 * @param {object} o { entries, profile, uris: (string|undefined)[], engines: string[], from: string[], labels, outDir, dbName, log, echo, cacheSizeGB,
 *   command: the command line to print in the report (without connection strings) }
 * @returns {Promise<{md: string, html: string, docs: object[], judged: object[][]}>}
 */
async function findings(o) {
  const { entries, profile = 'quick', outDir, log = () => {}, echo = () => {} } = o;
  fs.mkdirSync(outDir, { recursive: true });
  let docs = [];
  if (o.from && o.from.length) {
    const read = readResults;
    // A column is one file, or files joined with '+' (see mergeDocs): e.g. a seed-scale column
    // assembled from several documented runs, beside a quick run.
    const groups = o.merge ? [o.from] : o.from.map(fromGroup);
    docs = groups.map((g) => (g.length > 1 ? mergeDocs(g.map(read), g) : read(g[0])));
  } else {
    const uris = o.uris && o.uris.length ? o.uris : [undefined];
    const engines = o.engines && o.engines.length ? o.engines : ['default'];
    for (const [si, uri] of uris.entries()) {
      const server = await getServer({ uri, cacheSizeGB: o.cacheSizeGB, log });
      try {
        for (const engine of engines) {
          if (engine !== 'default' && !server.embedded) {
            log(`not switching the query engine of ${uri ? 'a server the lab did not start' : 'this server'}: column ${engine} skipped`);
            continue;
          }
          const label = `${uris.length > 1 ? `server ${si + 1} ` : ''}MongoDB ${server.version}${engine !== 'default' ? ` ${engine === 'classic' ? 'classic engine' : 'slot-based engine'}` : ''}`;
          docs.push(await runColumn({ entries, server, label, engine, profile, dbName: o.dbName || 'perflab', outDir: path.join(outDir, `column-${docs.length + 1}`), log, echo }));
        }
      } finally {
        await server.stop();
      }
    }
  }
  if (o.labels && o.labels.length) {
    docs = docs.map((d, i) => (o.labels[i] ? { ...d, environment: { ...d.environment, label: o.labels[i] } } : d));
  }
  // Read results say what profile they were measured with.
  const shownProfile = o.from && o.from.length
    ? [...new Set(docs.map((d) => (d.environment.sources ? 'merged: each study from the result file named beside it below' : d.environment.profile || 'unknown')))].join('; ')
    : profile;
  const judged = judgeAll(entries, docs);
  const pngs = {};
  const imgs = {};
  for (const entry of entries) {
    const withData = docs.find((d) => d.results.some((r) => r.study === entry.name));
    if (!withData) continue;
    const files = (await report.charts(withData, entry, path.join(outDir, 'charts'))).filter((f) => f.endsWith('.png'));
    pngs[entry.name] = files;
    imgs[entry.name] = files.map((f) => path.relative(outDir, f));
  }
  const md = toMarkdown({ entries, docs, judged, imgs, profile: shownProfile, outDir, command: o.command });
  const html = toHtml({ entries, docs, judged, pngs, profile: shownProfile, outDir, command: o.command });
  fs.writeFileSync(path.join(outDir, 'findings.md'), md);
  fs.writeFileSync(path.join(outDir, 'findings.html'), html);
  return { md, html, docs, judged, glance: glanceTable(entries, judged, docs.map(columnLabel)), files: [path.join(outDir, 'findings.md'), path.join(outDir, 'findings.html')] };
}

module.exports = { findings, toMarkdown, toHtml, glanceTable, updateReadme, setEngine, mergeDocs, scaleOf, differences, fromGroup };
