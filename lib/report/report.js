'use strict';
// Exporters of the one result format (lib/core/results.js): each study's headline in hyperfine's manner,
// report.md (per point tables and the studies' pivot tables, the source's figures beside ours) as a
// document of the report model (model.js) rendered to Markdown, and charts (Vega-Lite -> SVG + PNG).
// Nothing here measures; everything reads result records.
const path = require('path');
const { skipText, SKIP } = require('../../scripts/lib/plan');
const { renderChart } = require('./chart');
const { scaleOf } = require('./scale');
const m = require('./model');
const { renderMarkdown, tableToMarkdown } = require('./render-markdown');
const LabStats = require('../../scripts/lib/stats');
const LabFormat = require('../../scripts/lib/format');
const LabLines = require('../../scripts/lib/lines');
const { compareRecord } = LabStats;
const { comparisonWords } = LabFormat;
const LabRecords = require('../../scripts/lib/records');

// Colour-blind-safe: Paul Tol's "muted" scheme, then his "bright" one for studies with many variants.
const PALETTE = [
  '#332288',
  '#88CCEE',
  '#44AA99',
  '#117733',
  '#999933',
  '#DDCC77',
  '#CC6677',
  '#882255',
  '#AA4499',
  '#4477AA',
  '#EE6677',
  '#228833',
  '#CCBB44',
  '#66CCEE',
  '#AA3377',
  '#BBBBBB',
];

function resultsOf(doc, study) {
  return doc.results.filter((r) => r.type === 'result' && r.study === study);
}

function pointsOf(recs) {
  const seen = new Map();
  for (const r of recs) {
    const k = JSON.stringify(r.axis || {});
    if (!seen.has(k)) seen.set(k, r.axis || {});
  }
  return [...seen.values()];
}

function atPoint(recs, axis) {
  const k = JSON.stringify(axis || {});
  return recs.filter((r) => JSON.stringify(r.axis || {}) === k);
}

function serverLine(env) {
  const s = env.server || {};
  const h = env.host || {};
  return (
    `MongoDB ${s.version} (${s.topology || 'standalone'}, ${s.storageEngine}, ${s.queryFramework || 'classic'}` +
    `${s.cacheBytes ? `, cache ${(s.cacheBytes / 1073741824).toFixed(2)} GB` : ''}) on ${h.cores} x ${h.cpuModel}` +
    `${h.usableCores && h.usableCores < h.cores ? ` (${h.usableCores} usable)` : ''}, ` +
    `${h.memoryGB} GB, load ${(h.loadavgStart || []).join(' ')} -> ${(h.loadavgEnd || []).join(' ') || '?'}`
  );
}

/**
 * One line when a result file's points were measured on a busy machine (load average above the
 * cores at a point's start or end, or for the whole run when its records predate per-point loads);
 * null when not.
 */
function busyLine(doc, label) {
  const recs = doc.results.filter((r) => r.type === 'result' && !r.skipped);
  const busy = recs.filter((r) => LabRecords.isBusy(r));
  const h = (doc.environment || {}).host || {};
  const name = label ? `${label}: ` : '';
  if (busy.length) {
    const points = new Set(busy.map((r) => `${r.study} ${JSON.stringify(r.axis)}`)).size;
    const all = new Set(recs.map((r) => `${r.study} ${JSON.stringify(r.axis)}`)).size;
    // reduce, not Math.max(...list): a spread of a large file's records overflows the stack
    const worst = busy.reduce((w, r) => Math.max(w, r.loadavg.start, r.loadavg.end), -Infinity);
    return (
      `${name}measured on a busy machine at ${points} of ${all} points (load average up to ${worst} on ${busy[0].loadavg.cores} cores; ` +
      `studies ${[...new Set(busy.map((r) => r.study))].join(', ')}): times inflated, ratios noisier`
    );
  }
  const worst = Math.max(...(h.loadavgStart || [0]).slice(0, 1), ...(h.loadavgEnd || [0]).slice(0, 1));
  if (!recs.some((r) => r.loadavg) && h.cores && worst > h.cores) {
    return `${name}measured on a busy machine (load average ${worst} on ${h.cores} cores at the run's start or end): times inflated, ratios noisier`;
  }
  return null;
}

// A study's parts: its points grouped by their `part` axis (one group when there is none).
function partsOf(points) {
  const parts = new Map();
  for (const a of points) {
    const k = a.part === undefined ? '' : String(a.part);
    parts.set(k, [...(parts.get(k) || []), a]);
  }
  return parts;
}

// A part's headline point: the study's choice when it falls in this part, else the point where the
// most variants were compared with the baseline (the last of those on a tie).
function headlinePoint(entry, group, recs) {
  const keys = new Set(group.map((a) => JSON.stringify(a)));
  const chosen = entry.headline ? entry.headline(group) : null;
  if (chosen && keys.has(JSON.stringify(chosen))) return chosen;
  const compared = (a) => atPoint(recs, a).filter((r) => !r.skipped && r.ratio && r.ratio.to !== r.variant).length;
  return group.reduce((best, a) => (compared(a) >= compared(best) ? a : best), group[0]);
}

/**
 * The summary of a study: per part (its `part` axis), the headline point's comparison (the study's
 * choice, else the point comparing the most variants), naming the point.
 */
function headline(doc, entry) {
  const recs = resultsOf(doc, entry.name);
  if (!recs.length) return `${entry.name}: no results`;
  const points = pointsOf(recs);
  const lines = [];
  const parts = partsOf(points);
  for (const [part, group] of parts) {
    const axis = headlinePoint(entry, group, recs);
    const at = atPoint(recs, axis).filter((r) => !r.skipped);
    const head = LabLines.summaryLines(at, LabFormat.pointLabel(axis));
    if (!head.length && parts.size > 1) {
      head.push(
        `${part ? `part=${part}` : 'Summary'}: ${group.length} point${group.length > 1 ? 's' : ''}, one variant each (${[...new Set(at.map((r) => r.variant))].join(', ')}): see its table`,
      );
    }
    lines.push(...head);
    if (group.length > 1 && head.length)
      lines.push(
        `  (${group.length} points${part ? ` in part ${part}` : ''}; the headline is ${LabFormat.pointLabel(axis)})`,
      );
  }
  const bad = recs.filter((r) => r.agrees === false);
  // Without a Node oracle (a study of your own) the reference is the baseline's answer.
  const ref = entry.oracle
    ? 'the independent Node computation'
    : `the baseline's answer (${recs[0] && recs[0].ratio ? recs[0].ratio.to : 'baseline'})`;
  const how = entry.same || entry.sameDeclared ? "by the study's own `same`" : `by value: ${LabRecords.SAME_TOLERANCE}`;
  const empty = recs.filter((r) => r.agrees === true && LabRecords.isEmptyAnswer(r.answer));
  lines.push(
    bad.length
      ? `  DISAGREE with ${ref}: ${bad.map((r) => `${r.variant} @ ${LabFormat.pointLabel(r.axis) || 'the point'}`).join(', ')} (not ranked)`
      : `  every answer checked: ${recs.some((r) => r.agrees === true) ? `all agree with ${ref}` : 'all agree with the baseline'}`,
  );
  if (recs.some((r) => r.agrees !== null && r.agrees !== undefined)) lines.push(`  answers compared ${how}`);
  // Agreeing on nothing proves nothing: every form reads an empty result at a meaningless speed.
  if (empty.length)
    lines.push(
      `  EMPTY ANSWER at ${[...new Set(empty.map((r) => LabFormat.pointLabel(r.axis) || 'the point'))].join(', ')}: the variants agree on nothing found; check the collection, the database and the filters`,
    );
  return lines.join('\n');
}

/**
 * A pivot cell: the record's value as a typed cell (a time is a number in ms, shown the lab's way);
 * a variant whose answer disagrees is marked in every cell, as in the point tables.
 */
function valueCell(r, value, all = []) {
  const c = m.cell(plainValueCell(r, value, all));
  if (!r || r.agrees !== false || /WRONG ANSWER/.test(c.text)) return c;
  return { ...c, text: `${c.text} (WRONG ANSWER)` };
}

function plainValueCell(r, value, all) {
  if (!r || r.skipped) return r && r.skipped ? '-' : '';
  if (typeof value === 'function') return m.cell(value(r));
  if (value === 'median') return m.number(r.median, 'ms', LabFormat.fmtMs(r.median));
  if (value === 'ratio') return comparisonOf(r, all) ? comparisonWords(comparisonOf(r, all)).cell : '';
  if (value.startsWith('extra.')) {
    const v = r.extra && r.extra[value.slice(6)];
    return typeof v === 'number'
      ? m.number(v, '', LabFormat.fmtInt(Number(v.toPrecision(4))))
      : String(v === undefined ? '' : v);
  }
  return String(r[value]);
}

/** A table of figures: the first column names the row (left), the others are right-aligned. */
function figureTable(header, rows) {
  return m.table(
    header.map((title, i) => ({ title: String(title), align: i === 0 ? 'left' : 'right' })),
    rows,
  );
}

/** A Markdown table (for a study's own terminal output); { left: true } for tables of words. */
function md(header, rows, { left = false } = {}) {
  return tableToMarkdown(left ? m.table(header.map(String), rows) : figureTable(header, rows));
}

/** A pivot as a model table: one row per `rows` value, one column per `cols` axis value. */
function pivotTable(recs, { rows = 'variant', cols, value = 'median' }) {
  const key = (r, by) => (by === 'variant' ? r.variant : r.axis[by]);
  const rowKeys = [...new Set(recs.map((r) => key(r, rows)))];
  const colKeys = [...new Set(recs.map((r) => key(r, cols)))];
  const find = (rk, ck) => recs.find((r) => key(r, rows) === rk && key(r, cols) === ck);
  return figureTable(
    [rows, ...colKeys.map(String)],
    rowKeys.map((rk) => [String(rk), ...colKeys.map((ck) => valueCell(find(rk, ck), value, recs))]),
  );
}

/** A pivot in Markdown (a study prints its pivots in its own terminal output). */
function pivot(recs, t) {
  return tableToMarkdown(pivotTable(recs, t));
}

/**
 * The comparison of record r with its baseline (LabStats.compareRecord: the one figure and decision
 * every table, summary and `compare` print), its baseline looked up among `recs` at r's point;
 * null for the baseline itself and a record without a ratio.
 */
function comparisonOf(r, recs) {
  if (!r || r.skipped || !r.ratio || r.ratio.to === r.variant) return null;
  const base = atPoint(recs, r.axis).find((b) => b.variant === r.ratio.to && !b.skipped);
  return compareRecord(r, base);
}

/** One measured row of a point's table. */
function pointRow(r, at) {
  const c = comparisonOf(r, at);
  const w = c ? comparisonWords(c) : null;
  const engine = r.plan ? (r.plan.explainVersion === '2' ? 'SBE' : 'classic') : r.where === 'node' ? 'client' : '';
  return [
    r.variant,
    m.number(r.median, 'ms', LabFormat.fmtMs(r.median)),
    `${LabFormat.fmtMs(r.mean)} ± ${LabFormat.fmtMs(r.sd)}`,
    `${LabFormat.fmtMs(r.min)}..${LabFormat.fmtMs(r.max)}`,
    `${r.runs}${r.capped ? '*' : ''}`,
    w ? w.cell : r.agrees === false ? 'baseline, WRONG ANSWER' : 'baseline',
    w ? w.ci : '',
    LabRecords.planCell(r.plan),
    engine,
    r.agrees === null ? '' : r.agrees ? 'yes' : 'NO',
  ];
}

function pointTable(at) {
  const base = (at.find((r) => r.ratio) || {}).ratio;
  const header = ['variant', 'median', 'mean ± σ', 'min..max', 'runs', `vs ${base ? base.to : 'baseline'}`, '95% CI'];
  return figureTable(
    [...header, 'plan', 'engine', 'agrees'],
    at.map((r) => (r.skipped ? [r.variant, '-', '-', '-', '-', skipText(r.skipped), '', '', '', ''] : pointRow(r, at))),
  );
}

/** Bytes as people read them: 0 B, 512 B, 3.1 MB. */
function fmtBytes(b) {
  if (typeof b !== 'number') return '';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let x = b;
  while (Math.abs(x) >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return `${i ? Number(x.toPrecision(3)) : x} ${units[i]}`;
}

/**
 * The serverStatus evidence of a point (records' `server`, lib/core/run-study.js serverDelta): what
 * each variant made the server do in one run, so that "faster because it examines fewer
 * documents" or "slower because it reads from disk" can be checked. Null when no record has it.
 */
function serverTable(at) {
  const rows = at.filter((r) => r.server && !r.skipped);
  if (!rows.length) return null;
  const n = (x) => (typeof x === 'number' ? LabFormat.fmtInt(x) : '');
  const tickets = (t) => (t ? `${t.out}/${t.out + t.available}` : '');
  return figureTable(
    [
      'variant',
      'docs examined',
      'keys examined',
      'returned',
      'written',
      'read into cache',
      'pages read',
      'cache used, dirty',
      'tickets r, w',
      'operations',
    ],
    rows.map((r) => {
      const s = r.server;
      return [
        r.variant,
        n(s.docsExamined),
        n(s.keysExamined),
        n(s.docsReturned),
        n(s.docsWritten),
        fmtBytes(s.cacheReadBytes),
        n(s.pagesRead),
        s.cacheUsedPct === undefined ? '' : `${s.cacheUsedPct}%, ${s.cacheDirtyPct}%`,
        s.readTickets ? `${tickets(s.readTickets)}, ${tickets(s.writeTickets)}` : '',
        Object.entries(s.ops || {})
          .map(([k, v]) => `${k} ${LabFormat.fmtInt(v)}`)
          .join(', '),
      ];
    }),
  );
}

// A variant that does not apply to a point (a pick method at a claiming point, a per-minute rollup
// asked for seconds) is left out of that point's table: rows of dashes hid the ones that answered.
const notHere = (r) => Boolean(r.skipped) && (r.skipped.code === SKIP.notHere || r.skipped === LabRecords.NOT_HERE);

/** The variants not measured anywhere for one reason (the SQL peer could not start): variant -> why. */
function unmeasuredVariants(recs) {
  const unmeasured = new Map();
  for (const v of new Set(recs.map((r) => r.variant))) {
    const why = new Set(
      recs.filter((r) => r.variant === v).map((r) => (r.skipped && !notHere(r) ? skipText(r.skipped) : '')),
    );
    const [only] = [...why];
    if (why.size === 1 && only) unmeasured.set(v, only);
  }
  return unmeasured;
}

/**
 * A study's per-point tables, each with its busy-machine warning. A study may keep some points out
 * (its pivots already show them); a variant measured nowhere is named once, below the tables.
 */
function pointBlocks(recs, entry, inapplicable) {
  const out = [];
  for (const axis of pointsOf(recs).filter((a) => !entry.pointTables || entry.pointTables(a))) {
    const label = LabFormat.pointLabel(axis);
    const at = atPoint(recs, axis).filter((r) => !inapplicable(r));
    const busy = at.find((r) => LabRecords.isBusy(r));
    if (at.length) out.push(m.paragraph(m.bold(label || 'results')), pointTable(at));
    if (busy) out.push(m.warning(LabRecords.busyText(busy)));
    const server = serverTable(at);
    if (server)
      out.push(
        m.paragraph(
          'On the server (serverStatus just before and after one timed run of each variant; all clients together):',
        ),
        server,
      );
  }
  return out;
}

/** A study's section of report.md: parameters, its pivots, per-point and latency tables, what was not measured, notes. */
function studyResultBlocks(doc, entry) {
  const recs = resultsOf(doc, entry.name);
  if (!recs.length) return [];
  const out = [m.heading(2, `${entry.name}: ${entry.title}`)];
  const params = (doc.params || {})[entry.name];
  if (params)
    out.push(
      m.paragraph(
        `Parameters: ${Object.entries(params)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(', ')}`,
      ),
    );
  for (const t of entry.tables || [])
    out.push(
      m.paragraph(m.bold(t.title)),
      pivotTable(
        recs.filter((r) => !t.filter || t.filter(r)),
        t,
      ),
    );
  const unmeasured = unmeasuredVariants(recs);
  const inapplicable = (r) => notHere(r) || unmeasured.has(r.variant);
  out.push(...pointBlocks(recs, entry, inapplicable));
  const lat = latencyModel(doc, entry);
  if (lat) out.push(m.paragraph(m.bold('latency per operation (HdrHistogram over the timed rounds)')), lat);
  const variants = [...new Set(recs.map((r) => r.variant))];
  const nowhere = variants.filter((v) => !unmeasured.has(v) && recs.filter((r) => r.variant === v).every(inapplicable));
  if (nowhere.length)
    out.push(m.paragraph(`Not measured: ${nowhere.join(', ')} (${LabRecords.NOT_HERE} in this run).`));
  for (const why of new Set(unmeasured.values())) {
    const which = [...unmeasured].filter(([, w]) => w === why).map(([v]) => v);
    out.push(m.paragraph(`Not measured: ${which.join(', ')} (${why}).`));
  }
  for (const n of (doc.notes || []).filter((x) => x.study === entry.name)) out.push(m.note(n.text));
  return out;
}

/**
 * A whole result file as one document of the report model (report.md is its Markdown). summary:
 * the end-of-run summary the terminal printed (lib/cli/run.js summaryDocument), put first, its
 * headings a level down, so that report.md says what the terminal said before the tables.
 */
function resultsDocument(doc, entries, { summary } = {}) {
  const env = doc.environment;
  const sw = env.software;
  const commit = env.lab.commit ? env.lab.commit.slice(0, 10) : 'unknown commit';
  const about = `${serverLine(env)}. Node ${sw.node}, driver ${sw.driver}, mongosh ${sw.mongosh}, lab ${commit}; ${env.startedAt}${doc.complete ? '' : ' (INCOMPLETE run)'}.`;
  const said = summary
    ? [
        m.heading(2, 'Summary (as the run printed it)'),
        ...summary.blocks.slice(1).map((b) => (b.type === 'heading' ? { ...b, level: b.level + 1 } : b)),
      ]
    : [];
  return m.doc('mongo-perf-lab results', [
    m.paragraph(about),
    ...said,
    ...entries.flatMap((entry) => studyResultBlocks(doc, entry)),
  ]);
}

/** Markdown of a whole result file (report.md); o.summary: see resultsDocument. */
function markdown(doc, entries, o = {}) {
  return renderMarkdown(resultsDocument(doc, entries, o));
}

function spanOf(values) {
  const v = values.filter((x) => x > 0);
  // reduce, not a spread: a large file's values overflow the stack as arguments
  return v.length ? v.reduce((a, b) => Math.max(a, b)) / v.reduce((a, b) => Math.min(a, b)) : 1;
}

/** The default chart: time against a numeric axis (lines), else per variant and point (bars). */
function defaultChart(doc, entry) {
  const recs = resultsOf(doc, entry.name).filter((r) => !r.skipped);
  if (!recs.length) return null;
  const env = doc.environment;
  const keys = Object.keys(recs[0].axis || {});
  const numeric = keys.find(
    (k) => recs.every((r) => typeof r.axis[k] === 'number') && new Set(recs.map((r) => r.axis[k])).size > 1,
  );
  const variants = [...new Set(recs.map((r) => r.variant))];
  // the whiskers' ends count too: a linear scale stretched by one wide interval flattens every bar
  const logY = spanOf(recs.flatMap((r) => Object.values(chartTime(r)).filter((x) => typeof x === 'number'))) > 30;
  const mixed = new Set(recs.map((r) => r.where)).size > 1;
  const wrong = recs.some((r) => r.agrees === false);
  const title = {
    // the data size in the title itself: a chart shared alone must say what it measured
    text: `${entry.title} (${chartScale(doc, entry)})`,
    subtitle: [
      `MongoDB ${env.server.version} | ${env.startedAt.slice(0, 10)} | ${env.host.cores} cores | whiskers: 95% interval of the typical time (t on log times, 3+ rounds)`,
    ]
      .concat(numeric && mixed ? ['solid lines: in the server; dashed: in the client (Node)'] : [])
      .concat(wrong ? ['WRONG ANSWER: a variant whose answer disagrees, not comparable'] : []),
  };
  const color = { field: 'variant', type: 'nominal', sort: variants, scale: { range: PALETTE }, title: 'variant' };
  const yTitle = `median time, ms${logY ? ' (log)' : ''}`;
  const y = { field: 'ms', type: 'quantitative', title: yTitle, scale: { type: logY ? 'log' : 'linear' } };
  return numeric ? lineChart(recs, numeric, { title, color, y }) : barChart(recs, variants, { title, color, y });
}

/** Time against a numeric axis: one line per variant, dashed where the variant runs in the client. */
function lineChart(recs, numeric, { title, color, y }) {
  const logX = spanOf(recs.map((r) => r.axis[numeric])) > 30;
  return {
    title,
    width: 620,
    height: 380,
    data: {
      values: recs.map((r) => ({
        variant: r.variant,
        x: r.axis[numeric],
        ...chartTime(r),
        where: r.where === 'node' ? 'client (Node)' : 'in the server',
      })),
    },
    layer: [
      {
        mark: { type: 'line', point: true },
        // a count (cores, writers) reads in whole steps: no 1.10, 1.20 ticks between 1 and 2 cores
        encoding: lineEncoding(
          numeric,
          logX,
          y,
          color,
          recs.every((r) => Number.isInteger(r.axis[numeric])),
        ),
      },
      {
        transform: [{ filter: 'isValid(datum.lo)' }],
        mark: { type: 'errorbar', ticks: true },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: { type: logX ? 'log' : 'linear' } },
          y: { field: 'lo', type: 'quantitative', scale: y.scale, title: y.title },
          y2: { field: 'hi' },
          color,
        },
      },
    ],
  };
}

/** The line layer's encoding: time against the numeric axis, dashed where a variant runs in the client. */
function lineEncoding(numeric, logX, y, color, whole) {
  return {
    x: {
      field: 'x',
      type: 'quantitative',
      title: `${numeric}${logX ? ' (log)' : ''}`,
      scale: { type: logX ? 'log' : 'linear' },
      ...(whole && !logX ? { axis: { tickMinStep: 1, format: 'd' } } : {}),
    },
    y,
    color,
    strokeDash: {
      field: 'where',
      type: 'nominal',
      legend: null,
      scale: {
        domain: ['in the server', 'client (Node)'],
        range: [
          [1, 0],
          [6, 3],
        ],
      },
    },
  };
}

/**
 * A record's time for a chart: the median, and the 95 % interval of the typical time (the t-interval
 * on log times the ratios use, LabStats.ratioInterval) as lo..hi when it has 3 rounds or more.
 */
function chartTime(r) {
  const iv = r.times && r.times.length >= 3 && !r.capped ? LabStats.ratioInterval(r.times) : null;
  return {
    ms: r.median,
    ...(iv && iv.lo !== null ? { lo: iv.lo, hi: iv.hi } : {}),
    answer: r.agrees === false ? 'WRONG ANSWER' : 'ok',
  };
}

/** Time per variant as bars, one panel per axis point. */
function barChart(recs, variants, { title, color, y }) {
  const points = pointsOf(recs).map((a) => LabFormat.pointLabel(a) || 'all');
  const faceted = points.length > 1;
  return {
    title,
    // Faceted, each panel shows only the variants measured at its point (a study whose variants answer
    // different questions, e.g. picking vs claiming, had empty slots), and the panels keep run order
    // (alphabetical put W=16 between W=1 and W=2).
    data: {
      values: recs.map((r) => ({ variant: r.variant, point: LabFormat.pointLabel(r.axis) || 'all', ...chartTime(r) })),
    },
    ...(faceted
      ? {
          resolve: { scale: { x: 'independent' } },
          facet: { column: { field: 'point', type: 'nominal', title: null, sort: points } },
          spec: { width: { step: 44 }, height: 320, layer: barLayers(variants, y, color) },
        }
      : { width: Math.max(300, 60 * variants.length), height: 320, layer: barLayers(variants, y, color) }),
  };
}

/** The bars (a wrong answer pale, and said so above its bar) and their interval whiskers. */
function barLayers(variants, y, color) {
  const x = { field: 'variant', type: 'nominal', sort: variants, title: null, axis: { labelAngle: -30 } };
  return [
    {
      mark: { type: 'bar' },
      encoding: {
        x,
        // stack: null lets bars start at the log scale's lower end instead of at zero (not on a log scale).
        y: { ...y, stack: null },
        color,
        opacity: { condition: { test: "datum.answer === 'WRONG ANSWER'", value: 0.3 }, value: 1 },
      },
    },
    {
      transform: [{ filter: 'isValid(datum.lo)' }],
      mark: { type: 'errorbar', ticks: true, color: 'black' },
      encoding: { x, y: { field: 'lo', type: 'quantitative', scale: y.scale, title: y.title }, y2: { field: 'hi' } },
    },
    {
      transform: [{ filter: "datum.answer === 'WRONG ANSWER'" }],
      mark: { type: 'text', dy: -8, fontSize: 10, color: '#b00' },
      encoding: { x, y: { field: 'ms', type: 'quantitative', scale: y.scale }, text: { value: 'WRONG ANSWER' } },
    },
  ];
}

/** A chart's title scale: the study's size parameter (lib/report/scale.js), else what a study of your own read. */
function chartScale(doc, entry) {
  const size = scaleOf(entry, (doc.params || {})[entry.name], { rounds: false });
  if (size) return size;
  // a study of your own: the collections it read and their sizes (lib/core/run-study.js notes them)
  const read = (doc.notes || []).find((n) => n.study === entry.name && /^reads /.test(n.text));
  return read ? read.text.replace(/^reads /, '').replace(/ \(([\d,]+) documents\)/g, ' $1 docs') : 'default scale';
}

// ---- latency percentiles ---------------------------------------------------------------------
function withLatency(doc, entry) {
  return resultsOf(doc, entry.name).filter((r) => !r.skipped && r.latency && r.latency.count);
}

/** The records' per-operation latency percentiles as a model table (none: null). */
function latencyModel(doc, entry) {
  const recs = withLatency(doc, entry);
  if (!recs.length) return null;
  const ms = (x) => m.number(x, 'ms', LabFormat.fmtMs(x));
  return figureTable(
    ['variant', 'point', 'operations', 'p50', 'p95', 'p99', 'max'],
    recs.map((r) => {
      const l = r.latency;
      const point = LabFormat.pointLabel(r.axis) || '-';
      return [
        r.variant,
        point,
        m.number(l.count, '', LabFormat.fmtInt(l.count)),
        ms(l.p50),
        ms(l.p95),
        ms(l.p99),
        ms(l.max),
      ];
    }),
  );
}

/** The records' per-operation latency percentiles as a Markdown table (none: ''). */
function latencyTable(doc, entry) {
  const t = latencyModel(doc, entry);
  return t ? tableToMarkdown(t) : '';
}

// HdrHistogram's percentile plot: x is 1 / (1 - q), so p50, p90, p99, p99.9 are evenly spaced on a log axis.
const LAT_X = [
  ['p50', 2],
  ['p90', 10],
  ['p95', 20],
  ['p99', 100],
  ['p999', 1000],
  ['max', 10000],
];

/** Latency against percentile (log axes), one panel per variant, one line per axis point. */
function latencySpec(doc, entry) {
  const recs = withLatency(doc, entry);
  if (!recs.length) return null;
  const env = doc.environment;
  const variants = [...new Set(recs.map((r) => r.variant))];
  // A point is named by the axis keys that vary between the records (the legend stays short).
  const keys = [...new Set(recs.flatMap((r) => Object.keys(r.axis || {})))].filter(
    (k) => new Set(recs.map((r) => JSON.stringify(r.axis[k]))).size > 1,
  );
  const name = (r) =>
    LabFormat.pointLabel(Object.fromEntries(keys.filter((k) => k in r.axis).map((k) => [k, r.axis[k]]))) || 'all';
  const points = [...new Set(recs.map(name))];
  const values = [];
  for (const r of recs) {
    for (const [k, x] of LAT_X) {
      if (typeof r.latency[k] === 'number')
        values.push({ variant: r.variant, point: name(r), x, ms: Math.max(0.001, r.latency[k]) });
    }
  }
  const label = LAT_X.map(([k, x]) => `datum.value == ${x} ? '${k === 'p999' ? 'p99.9' : k}'`).join(' : ') + " : ''";
  return {
    title: {
      text: `${entry.name}: latency per operation against percentile`,
      subtitle: [
        `HdrHistogram over the timed rounds; log axes | MongoDB ${(env.server || {}).version} | ${(env.host || {}).cores} cores | ${(env.startedAt || '').slice(0, 10)}`,
      ],
    },
    data: { values },
    facet: { field: 'variant', type: 'nominal', sort: variants, title: null },
    columns: Math.min(3, variants.length),
    spec: {
      width: 220,
      height: 200,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'x',
          type: 'quantitative',
          scale: { type: 'log', domain: [2, 10000] },
          title: 'percentile',
          axis: { values: LAT_X.map(([, x]) => x), labelExpr: label, labelOverlap: false },
        },
        y: { field: 'ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency, ms (log)' },
        color: {
          field: 'point',
          type: 'nominal',
          sort: points,
          scale: { range: PALETTE },
          title: 'point',
          legend: { labelLimit: 400 },
        },
      },
    },
  };
}

/** Renders the latency chart of a study whose records have latencies; returns the paths (or []). */
async function latencyChart(doc, entry, outDir) {
  const spec = latencySpec(doc, entry);
  if (!spec) return [];
  const out = await renderChart(spec, path.join(outDir, `${entry.name}-latency`));
  return [out.png, out.svg];
}

/** Renders a study's charts (its own, else the default one) into outDir; returns the paths. */
async function charts(doc, entry, outDir) {
  const specs = entry.charts
    ? entry.charts.map((f) =>
        f(
          doc.results.filter((r) => r.study === entry.name),
          doc.environment,
          doc,
        ),
      )
    : [defaultChart(doc, entry)];
  const written = [];
  for (const [i, spec] of specs.entries()) {
    if (!spec) continue;
    const base = path.join(outDir, `${entry.name}${specs.length > 1 ? `-${spec.name || i + 1}` : ''}`);
    const { name, ...vl } = spec;
    const out = await renderChart(vl, base);
    written.push(out.png, out.svg);
  }
  written.push(...(await latencyChart(doc, entry, outDir)));
  return written;
}

module.exports = {
  busyLine,
  headline,
  markdown,
  resultsDocument,
  pivotTable,
  charts,
  defaultChart,
  chartTime,
  latencySpec,
  latencyChart,
  latencyTable,
  pivot,
  md,
  serverLine,
  resultsOf,
  pointsOf,
  atPoint,
  comparisonOf,
  PALETTE,
};
