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
const { runStudies } = require('./session');
const { readResults } = require('./results');
const { getServer } = require('../infra/server');
const { safeArgv } = require('../infra/errors');

// How each verdict reads in a report: the rules' own labels (lib/core/claims.js).
const VERDICT_MARK = claims.LABEL;
const mark = (verdict) => VERDICT_MARK[verdict] || verdict;
const TEST_SCALE = 'test scale, not findings';

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
  return runStudies({
    entries, server, dbName, profile, file: path.join(outDir, 'results.json'), echo, log,
    env: { label, engine: engine || 'default', argv: safeArgv(process.argv.slice(2)) },
    announce: (entry) => log(`[${label}] ${entry.name}: ${entry.title}`),
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
  const tiny = (env) => (env.profile === 'tiny' ? ` (${TEST_SCALE})` : '');
  return docs.flatMap((d, i) => (d.environment.sources
    ? d.environment.sources.map((src) => [`${baseLabel(d)}: ${src.file}, ${(src.environment.startedAt || '').slice(0, 10)}${tiny(src.environment)}`,
      scales(src.studies, src.params), report.serverLine(src.environment)])
    : [[labels[i], scales(entries.map((e) => e.name).filter((n) => d.results.some((r) => r.study === n)), d.params), report.serverLine(d.environment)]]));
}

function baseLabel(doc) {
  const e = doc.environment;
  return e.label || `MongoDB ${e.server.version}${e.engine && e.engine !== 'default' ? ` ${e.engine}` : ''}, ${e.profile || '?'} profile`;
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

function judgeAll(entries, docs) {
  return docs.map((doc) => entries.flatMap((e) => claims.judge(e, doc.results, doc.environment, doc.params)));
}

function esc(s) {
  return String(s === undefined || s === null ? '' : s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
}

/** A number of an interval, 3 significant digits (no unit: the figure beside it has one). */
function num(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '?';
  const a = Math.abs(x);
  return a >= 1000 ? lab.fmtInt(Math.round(x)) : String(Number(x.toPrecision(3)));
}

/** "95 % CI 120-150, n 5", or why there is none; nothing when the rule's figure states it already. */
function intervalText(iv, figure) {
  if (!iv || /\bCI\b|no interval/.test(figure || '')) return '';
  const level = `${Math.round((iv.level || 0.95) * 100)} %`;
  if (iv.lo === null || iv.lo === undefined || iv.hi === null || iv.hi === undefined) return `no ${level} interval${iv.n ? ` (n ${iv.n})` : ''}`;
  return `${level} CI ${num(iv.lo)}–${num(iv.hi)}${iv.n ? `, n ${iv.n}` : ''}`;
}

/** The setting a claim needs, whatever shape the rule gave it (text, or {needed, here, ok}). */
function settingOf(j) {
  const s = j && j.setting;
  if (s === undefined || s === null) return { needed: null, here: null, ok: null };
  if (typeof s === 'string') return { needed: s, here: null, ok: null };
  return { needed: s.needed === undefined ? null : s.needed, here: s.here === undefined ? null : s.here, ok: s.ok === undefined ? null : s.ok };
}

/** What this run had of the claim's setting, when a rule checked it ("not checked" says nothing). */
function hereText(j) {
  const st = settingOf(j);
  if (!st.here || (st.ok !== false && /^not checked/.test(st.here))) return null;
  return `here: ${st.here}${st.ok === false ? ' (setting absent)' : ''}`;
}

/** A verdict with our figure, its interval and the setting here, in full (no figure is cut). */
function cell(j) {
  if (!j) return '';
  const fig = j.figure && j.figure !== '-' ? j.figure : null;
  const iv = intervalText(j.interval, fig);
  const here = hereText(j);
  return `${mark(j.verdict)}${fig ? ` (${fig}${iv ? `; ${iv}` : ''})` : iv ? ` (${iv})` : ''}${here ? `; ${here}` : ''}`;
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
    `Profile: **${profile}**${String(profile).includes('tiny') ? ` (${TEST_SCALE}: these verdicts check the machinery at the test suite's scale)` : ''}. ` +
    `Generated by \`${command || 'mongo-perf-lab findings'}\` from result records; every verdict is a rule over them (lib/core/claims.js).`, ''];
  out.push('## At a glance', '', glanceTable(entries, judged, labels, (entry) => writeUp(entry, outDir)), '');
  out.push('## Where it was measured', '', report.md(['column', 'studies (scale)', 'environment'], environmentRows(entries, docs, labels), { left: true }), '');
  for (const line of docs.map((d, i) => report.busyLine(d, labels[i])).filter(Boolean)) out.push(`> warning: ${line}`, '');
  if (docs.length > 1) {
    const diff = differences(entries, judged, docs);
    out.push('## Where the columns differ', '', diff.length
      ? report.md(['study', 'claim', ...labels], diff.map((d) => [d.entry.name, d.claim.claim, ...d.cells.map((c) => cell(c))]), { left: true })
      : 'Every claim gets the same verdict in every column.', '');
  }
  for (const entry of entries) {
    const rows = judged[0].filter((j) => j.study === entry.name);
    if (!rows.length) continue;
    out.push(`## ${entry.name}: ${entry.title} (source ${entry.source})`, '');
    out.push(report.md(['claim', 'published (setting)', ...labels, 'why'], rows.map((j) => [j.claim, `${j.published}${settingOf(j).needed ? ` (${settingOf(j).needed})` : ''}`,
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
 * The at-a-glance rows: per claim, the published figure, the setting it needs, and each column's
 * verdict with our figure and interval (a seed-scale column beside a quick one shows both).
 */
function glanceRows(entries, judged) {
  const rows = [];
  for (const entry of entries) {
    for (const j of judged[0].filter((x) => x.study === entry.name)) {
      rows.push({ entry, claim: j, cells: judged.map((col) => col.find((x) => x.study === j.study && x.id === j.id)) });
    }
  }
  return rows;
}

/**
 * The short table the README shows, in full (a long figure wraps, it is never cut); `link` gives
 * each study's write-up as seen from where the table goes (default: the README's).
 */
function glanceTable(entries, judged, labels = ['verdict'], link = writeUpPath) {
  const rows = glanceRows(entries, judged).map((r) => [`[${r.entry.name}](${link(r.entry)})`, r.claim.claim, r.claim.published,
    settingOf(r.claim).needed || '', ...r.cells.map((c) => cell(c))]);
  return report.md(['study', 'claim', 'published', 'setting', ...labels], rows, { left: true });
}

/** Under a verdict in HTML: our figure, its interval, the setting here. */
function verdictDetail(j) {
  const fig = j.figure && j.figure !== '-' ? j.figure : null;
  const iv = intervalText(j.interval, fig);
  const lines = [fig, iv, hereText(j)].filter(Boolean);
  return lines.map((l) => `<br><small>${esc(l)}</small>`).join('');
}

/** The at-a-glance table in HTML: the same rows as the Markdown one. */
function glanceHtml(entries, judged, labels) {
  const rows = glanceRows(entries, judged).map((r) => `<tr><td><a href="#${esc(r.entry.name)}">${esc(r.entry.name)}</a></td><td>${esc(r.claim.claim)}</td>` +
    `<td>${esc(r.claim.published)}</td><td><small>${esc(settingOf(r.claim).needed || '')}</small></td>` +
    `${r.cells.map((j) => (j ? `<td class="gv ${esc(j.verdict)}">${esc(mark(j.verdict))}${verdictDetail(j)}</td>` : '<td></td>')).join('')}</tr>`);
  return `<h2 id="glance">At a glance</h2><table><tr><th>study</th><th>claim</th><th>published</th><th>setting</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

/** One self-contained HTML file: the same content, charts inline. */
function toHtml({ entries, docs, judged, pngs, profile, outDir, command }) {
  const labels = docs.map(columnLabel);
  const verdictCell = (j) => (j ? `<td class="v ${esc(j.verdict)}">${esc(mark(j.verdict))}${verdictDetail(j)}</td>` : '<td></td>');
  const parts = [];
  const testScale = String(profile).includes('tiny') ? ` (${TEST_SCALE}: these verdicts check the machinery at the test suite's scale)` : '';
  parts.push(`<h1>Findings: the classic MongoDB performance claims, re-measured</h1><p>Profile <b>${esc(profile)}</b>${esc(testScale)}. Generated by <code>${esc(command || 'mongo-perf-lab findings')}</code>; every verdict is a rule over the result records (lib/core/claims.js).</p>`);
  parts.push(glanceHtml(entries, judged, labels));
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
    parts.push(`<table><tr><th>claim</th><th>published (setting)</th>${labels.map((l) => `<th>${esc(l)}</th>`).join('')}<th>why</th></tr>${rows.map((j) => `<tr><td>${esc(j.claim)}</td><td>${esc(j.published)}<br><small>${esc(settingOf(j).needed || '')}</small></td>${judged.map((col) => verdictCell(col.find((x) => x.id === j.id))).join('')}<td><small>${esc(j.why)}</small></td></tr>`).join('')}</table>`);
    for (const png of pngs[entry.name] || []) {
      parts.push(`<figure><img alt="${esc(entry.name)} chart" src="data:image/png;base64,${fs.readFileSync(png).toString('base64')}"></figure>`);
    }
    parts.push(`<p>Full write-up: <a href="${esc(writeUp(entry, outDir))}">${esc(writeUpPath(entry))}</a></p>`);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mongo-perf-lab findings</title><style>
body{font-family:DejaVu Sans,Arial,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;width:100%}td,th{border:1px solid #bbb;padding:.35em .5em;vertical-align:top;text-align:left}
th{background:#eee}.v{font-weight:bold;white-space:nowrap}.holds{background:#dcebf7}.changed{background:#f7e3c8}
.obsolete,.gone{background:#e6e6e6}.not-measurable,.not-reproduced,.inconclusive{background:#fff;color:#666}
.stronger,.weaker,.reversed{background:#f7e3c8}.gv{font-weight:bold}.gv small,.v small{font-weight:normal}
figure{margin:1em 0}img{max-width:100%;border:1px solid #ddd}
</style></head><body>
${parts.join('\n')}
</body></html>
`;
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
  const columns = docs.map((d, i) => ({ column: i + 1, label: labels[i], profiles: columnProfiles(d), testScale: columnProfiles(d).includes('tiny') }));
  const claimsOut = [];
  judged.forEach((col, i) => {
    for (const j of col) {
      const entry = entries.find((e) => e.name === j.study);
      if (!docs[i].results.some((r) => r.study === j.study)) continue; // the column did not run the study: no verdict
      const run = studyRun(docs[i], entry);
      claimsOut.push({
        study: j.study, id: j.id, claim: j.claim, published: j.published === undefined ? null : j.published,
        column: i + 1, label: labels[i], profile: run.profile, scale: run.scale, testScale: run.testScale,
        verdict: j.verdict, figure: j.figure === undefined || j.figure === '-' ? null : j.figure,
        interval: j.interval || null, setting: settingOf(j), why: j.why || null,
      });
    }
  });
  const counts = columns.map((c) => {
    const n = {};
    for (const x of claimsOut.filter((y) => y.column === c.column)) n[x.verdict] = (n[x.verdict] || 0) + 1;
    return n;
  });
  return { format: FINDINGS_FORMAT, version: FINDINGS_VERSION, generatedAt: new Date().toISOString(), command: command || null,
    columns: columns.map((c, i) => ({ ...c, verdicts: counts[i] })), claims: claimsOut };
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
  docs.forEach((d, i) => { const busy = report.busyLine(d, columnLabel(d, i)); if (busy) log(`warning: ${busy}`); });
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
  const json = findingsJson({ entries, docs, judged, command: o.command });
  const files = ['findings.md', 'findings.html', 'findings.json'].map((f) => path.join(outDir, f));
  fs.writeFileSync(files[0], md);
  fs.writeFileSync(files[1], html);
  fs.writeFileSync(files[2], JSON.stringify(json, null, 2) + '\n');
  return { md, html, json, docs, judged, glance: glanceTable(entries, judged, docs.map(columnLabel)), files };
}

module.exports = { findings, toMarkdown, toHtml, glanceTable, findingsJson, FINDINGS_FORMAT, updateReadme, setEngine, mergeDocs, scaleOf, differences, fromGroup };
