'use strict';
// The findings report as one document of the report model (model.js): findings.md and findings.html
// are the Markdown and HTML renderings of what findingsDocument() builds, and the README's glance
// table is glanceTable() in Markdown. The core (lib/core/findings.js) runs the studies, judges the
// claims and says which columns differ; everything here only decides how that reads.
const path = require('path');
const { fmtInt } = require('../../scripts/lib/format');
const { LABEL } = require('../core/claims');
const m = require('./model');
const report = require('./report');
const practices = require('./practices');
const { renderMarkdown } = require('./render-markdown');

const TEST_SCALE = 'test scale, not findings';
const TITLE = 'Findings: the classic MongoDB performance claims, re-measured';
const ROOT = path.resolve(__dirname, '..', '..');

// How each verdict reads: the rules' own labels.
const mark = (verdict) => LABEL[verdict] || verdict;

/** The setting a claim needs, whatever shape the rule gave it (text, or {needed, here, ok}). */
function settingOf(j) {
  const s = j && j.setting;
  if (s === undefined || s === null) return { needed: null, here: null, ok: null };
  if (typeof s === 'string') return { needed: s, here: null, ok: null };
  const or = (x) => (x === undefined ? null : x);
  return { needed: or(s.needed), here: or(s.here), ok: or(s.ok), ...(s.absent ? { absent: s.absent } : {}) };
}

/** A number of an interval, 3 significant digits (no unit: the figure beside it has one). */
function num(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '?';
  return Math.abs(x) >= 1000 ? fmtInt(Math.round(x)) : String(Number(x.toPrecision(3)));
}

/** "95 % CI 120-150, n 5", or why there is none; nothing when the rule's figure states it already. */
function intervalText(iv, figure) {
  if (!iv || /\bCI\b|no interval/.test(figure || '')) return '';
  const level = `${Math.round((iv.level || 0.95) * 100)} %`;
  const n = iv.n ? `, n ${iv.n}` : '';
  if (iv.lo === null || iv.lo === undefined || iv.hi === null || iv.hi === undefined) {
    return `no ${level} interval${iv.n ? ` (n ${iv.n})` : ''}`;
  }
  return `${level} CI ${num(iv.lo)}–${num(iv.hi)}${n}`;
}

/** What this run had of the claim's setting, when a rule checked it ("not checked" says nothing). */
function hereText(j) {
  const st = settingOf(j);
  if (!st.here || (st.ok !== false && /^not checked/.test(st.here))) return null;
  return `here: ${st.here}${st.ok === false ? ' (setting absent)' : ''}`;
}

/** A judged claim as a verdict cell: our figure and its interval in full (no figure is cut), the setting here. */
function verdictOf(j) {
  if (!j) return m.textCell('');
  const fig = j.figure && j.figure !== '-' ? j.figure : null;
  return m.verdictCell(j.verdict, mark(j.verdict), [fig, intervalText(j.interval, fig)], hereText(j));
}

/** The study's write-up in the repository: `docs/studies/<name>.md`, or the declaration's `writeUp` (a file#section). */
function writeUpPath(entry) {
  return entry.writeUp || `docs/studies/${entry.name}.md`;
}

/** The write-up as a link from outDir. */
function writeUp(entry, outDir) {
  const [file, anchor] = writeUpPath(entry).split('#');
  return path.relative(outDir, path.join(ROOT, file)).split(path.sep).join('/') + (anchor ? `#${anchor}` : '');
}

/** Each column's judgement of claim j (by study and id); undefined where a column has none. */
const cellsOf = (judged, j) => judged.map((col) => col.find((x) => x.study === j.study && x.id === j.id));

/**
 * The at-a-glance table: per claim, the published figure, the setting it needs, and each column's
 * verdict with our figure and interval (a seed-scale column beside a quick one shows both); `link`
 * gives each study's write-up as seen from where the table goes (default: the README's).
 * `footnotes`: the setting cell holds a short mark (S1, S2, ...) and settingNotes() gives the texts,
 * so that the table fits a screen (a study's claims mostly share one long setting).
 */
function glanceTable(entries, judged, labels = ['verdict'], link = writeUpPath, { footnotes = null } = {}) {
  const rows = [];
  for (const entry of entries) {
    for (const j of judged[0].filter((x) => x.study === entry.name)) {
      const needed = settingOf(j).needed;
      rows.push([
        m.link(entry.name, link(entry)),
        j.claim,
        j.published,
        footnotes ? m.textCell(footnoteMark(footnotes, needed)) : m.textCell(needed, { small: true }),
        ...cellsOf(judged, j).map(verdictOf),
      ]);
    }
  }
  return m.table(['study', 'claim', 'published', 'setting', ...labels], rows, { verdictWrap: true });
}

/** The mark of a setting text in a footnote list (a Map text -> mark), added when new; '' for none. */
function footnoteMark(notes, text) {
  if (!text) return '';
  if (!notes.has(text)) notes.set(text, `S${notes.size + 1}`);
  return notes.get(text);
}

/** The settings behind the glance table's marks, one paragraph each: "S1: MongoDB 2.4 ...". */
function settingNotes(notes) {
  return [...notes].map(([text, mark]) => m.paragraph(m.bold(mark), `: ${text}`));
}

/** The glance table with its settings as footnotes: [table, ...notes]. */
function glanceBlocks(entries, judged, labels, link) {
  const notes = new Map();
  const table = glanceTable(entries, judged, labels, link, { footnotes: notes });
  return [
    table,
    ...(notes.size ? [m.paragraph("The setting each claim was made in (the table's marks):")] : []),
    ...settingNotes(notes),
  ];
}

/**
 * The profile a study's records were measured with in a column: their own when they carry one (a
 * study --budget planned at another profile than the file's, lib/core/session.js stampProfile), else
 * the file's (a merged column: its source file's).
 */
function profileIn(doc, entry) {
  const own = (doc.results || []).find((r) => r.study === entry.name && r.profile);
  if (own) return own.profile;
  const env = doc.environment || {};
  const src = env.sources && env.sources.find((x) => x.studies.includes(entry.name));
  return (src ? src.environment.profile : env.profile) || null;
}

/**
 * " (each study at its own profile: joins at tiny)": the studies whose records carry a profile of
 * their own (--budget planned them below the column's), for the report's profile line.
 */
function otherProfiles(entries, docs) {
  const other = entries
    .map((entry) => {
      const own = docs.flatMap((d) => d.results.filter((r) => r.study === entry.name && r.profile));
      return own.length ? `${entry.name} at ${[...new Set(own.map((r) => r.profile))].join(', ')}` : null;
    })
    .filter(Boolean);
  return other.length ? ` (each study at its own profile: ${other.join(', ')})` : '';
}

/** "What this means for you" from the columns' records and judged claims; `link(study name)` the write-up. */
function forYouBlocks(entries, docs, judged, labels, link) {
  const lines = practices.practiceLines(
    entries,
    docs.map((d, i) => ({
      records: d.results,
      judged: judged[i],
      profile: (entry) => profileIn(d, entry),
      label: labels[i],
    })),
  );
  return practices.practiceBlocks(lines, link, { columns: docs.length });
}

/**
 * The README's generated block (between its findings markers): "What this means for you", then the
 * glance table with its settings as footnotes, links as seen from the README.
 */
function readmeBlock(entries, docs, judged, labels) {
  const byName = (name) => writeUpPath(entries.find((e) => e.name === name));
  const blocks = [
    ...forYouBlocks(entries, docs, judged, labels, byName),
    m.heading(2, 'Findings at a glance'),
    ...glanceBlocks(entries, judged, labels, writeUpPath),
  ];
  return renderMarkdown(m.doc('', blocks))
    .replace(/^# \n+/, '')
    .trim();
}

/**
 * A study's claims, one row each: the published figure with the setting it was made in, each
 * column's verdict, and the rules' reason (the first column that gives one).
 */
function claimsTable(rows, judged, labels) {
  return m.table(
    ['claim', 'published (setting)', ...labels, 'why'],
    rows.map((j) => {
      const cells = cellsOf(judged, j);
      const why = cells.map((c) => c && c.why).filter(Boolean)[0] || '';
      const published = m.textCell(j.published, { details: [settingOf(j).needed] });
      return [j.claim, published, ...cells.map(verdictOf), m.textCell(why, { small: true })];
    }),
  );
}

/** "Where the columns differ": the claims two columns that ran the study judge differently. */
function differenceBlocks(diff, labels) {
  if (!diff) return [];
  const table = m.table(
    ['study', 'claim', ...labels],
    diff.map((d) => [m.link(d.entry.name, `#${d.entry.name}`), d.claim.claim, ...d.cells.map(verdictOf)]),
  );
  return [
    m.heading(2, 'Where the columns differ'),
    diff.length ? table : m.paragraph('Every claim gets the same verdict in every column.'),
  ];
}

/** A study's section: its claims table, each column's headline, its charts, its write-up. */
function studyBlocks(entry, { docs, judged, labels, images, outDir }) {
  const rows = judged[0].filter((j) => j.study === entry.name);
  if (!rows.length) return [];
  const heads = docs.map((d) => report.headline(d, entry)).filter(Boolean);
  return [
    m.heading(2, `${entry.name}: ${entry.title} (source ${entry.source})`, entry.name),
    claimsTable(rows, judged, labels),
    ...heads.map(m.codeBlock),
    ...(images[entry.name] || []).map((img) => m.image(img, entry.name)),
    m.paragraph('Full write-up: ', m.link(writeUpPath(entry), writeUp(entry, outDir))),
  ];
}

/**
 * The findings document.
 * @param {object} o { entries, docs, judged: per column the judged claims, labels: the columns' names,
 *   environment: rows of "where it was measured", differences: the core's differing claims (null for
 *   one column), images: study -> chart paths relative to outDir, profile, outDir, command }
 */
function findingsDocument(o) {
  const { entries, docs, judged, labels, outDir } = o;
  const tiny = String(o.profile).includes('tiny')
    ? ` (${TEST_SCALE}: these verdicts check the machinery at the test suite's scale)`
    : '';
  const busy = docs.map((d, i) => report.busyLine(d, labels[i])).filter(Boolean);
  return m.doc(TITLE, [
    m.paragraph(
      'Profile: ',
      m.bold(o.profile),
      `${otherProfiles(entries, docs)}${tiny}. Generated by `,
      m.code(o.command || 'mongo-perf-lab findings'),
      ' from result records; every verdict is a rule over them (lib/core/claims.js).',
    ),
    ...forYouBlocks(entries, docs, judged, labels, (name) =>
      writeUp(
        entries.find((e) => e.name === name),
        outDir,
      ),
    ),
    m.heading(2, 'At a glance', 'glance'),
    ...glanceBlocks(entries, judged, labels, (entry) => writeUp(entry, outDir)),
    m.heading(2, 'Where it was measured'),
    m.table(['column', 'studies (scale)', 'environment'], o.environment),
    ...busy.map((line) => m.warning(line)),
    ...differenceBlocks(o.differences, labels),
    ...entries.flatMap((entry) => studyBlocks(entry, { docs, judged, labels, images: o.images || {}, outDir })),
  ]);
}

module.exports = {
  findingsDocument,
  glanceTable,
  glanceBlocks,
  readmeBlock,
  forYouBlocks,
  profileIn,
  claimsTable,
  verdictOf,
  settingOf,
  intervalText,
  writeUpPath,
  TEST_SCALE,
};
