'use strict';
// The chart kit: the few shapes the studies draw, each a function from rows and labels to a
// Vega-Lite spec, so that a study's charts say what they show and not how Vega-Lite draws it.
//
// Usage, in a study's charts.js (a chart is `(records, env, doc) => spec | null`; report.js renders it):
//
//   const kit = require('../../report/chart-kit');
//   function speedChart(records, env) {
//     const recs = records.filter((r) => r.type === 'result' && !r.skipped);
//     if (!recs.length) return null;
//     return kit.bars({
//       name: 'speed',                                   // the file: <study>-speed.png
//       title: 'Time per variant',
//       subtitle: [kit.envLine(env), kit.WHISKERS],
//       values: recs.map((r) => ({ variant: r.variant, ...kit.timeOf(r) })), // value, lo, hi
//       x: { field: 'variant', title: null },
//       y: { title: 'median time, ms', log: 'auto' },      // 'auto': log when the values span 30x
//       color: { field: 'variant' },
//       labels: { field: 'value', format: ',.0f' },        // written past each whisker
//     });
//   }
//
// The shapes: lines (a numeric x, one line per series: rates over batch sizes, ratios over hours),
// bars (a category axis, grouped by series, optionally one panel per value of a field, optionally
// horizontal), dots (bars' layout with points: several figures per slot), dotRows (one row of dots
// per series over a numeric x: every minute of a day). Every row is { <x>, <y> or value, lo?, hi?, ... }:
// a row with lo and hi gets a whisker (the 95 % interval). The figures: timeOf (a time and its
// interval, in any unit), rateOf (an amount per time: the interval inverted), speedupOf (1 / a ratio to
// the baseline). Colours: report.js's colour-blind-safe PALETTE unless a study gives its own.
const { PALETTE, chartTime } = require('./report');

const WHISKERS = 'whiskers: 95% interval (t on log times, 3+ rounds)';
// Line dashes in the order series take them: solid, dashed, dotted, dash-dot, ...
const DASHES = [
  [1, 0],
  [6, 3],
  [2, 2],
  [8, 2, 2, 2],
  [4, 4],
  [1, 3],
];
// A linear scale over values spanning more than this flattens the small ones: 'auto' goes log.
const LOG_SPAN = 30;

// ---- figures from records -------------------------------------------------------------------

/**
 * A record's median time and its 95 % interval (report.js chartTime) times k: k = 1 for ms, 1 / 1000
 * for s, or any unit per run (µs per update: k = usPerUpdate / median). { value, lo?, hi? }
 */
function timeOf(r, k = 1) {
  const t = chartTime(r);
  return { value: t.ms * k, ...(t.lo !== undefined ? { lo: t.lo * k, hi: t.hi * k } : {}) };
}

/** amount per `per` ms (documents/s: per = 1000) from a record's median time; a rate inverts the interval. */
function rateOf(r, amount, per = 1000) {
  const t = chartTime(r);
  return {
    value: (amount / t.ms) * per,
    ...(t.lo !== undefined ? { lo: (amount / t.hi) * per, hi: (amount / t.lo) * per } : {}),
  };
}

/**
 * How many times faster than the baseline: 1 / the record's ratio (time / baseline time), at the
 * interval's own centre (the one estimator compare uses, so the point sits inside its whisker), with
 * the interval inverted; null when the record has no ratio.
 */
function speedupOf(r) {
  if (!r.ratio) return null;
  const mid = typeof r.ratio.mid === 'number' ? r.ratio.mid : r.ratio.median;
  return { value: 1 / mid, ...(r.ratio.ci ? { lo: 1 / r.ratio.ci[1], hi: 1 / r.ratio.ci[0] } : {}) };
}

/** Whether positive values span more than LOG_SPAN (a log scale then shows them all). */
function isWide(values) {
  const v = values.filter((x) => typeof x === 'number' && x > 0);
  // reduce, not a spread: a large file's values overflow the stack as arguments
  return v.length > 0 && v.reduce((a, b) => Math.max(a, b)) / v.reduce((a, b) => Math.min(a, b)) > LOG_SPAN;
}

/** The run's setting for a subtitle: "MongoDB 7.0.2 | 2026-11-28 | 2 cores" (cpu: "2 x <model>"). */
function envLine(env, { cpu = false } = {}) {
  const host = cpu ? `${env.host.cores} x ${env.host.cpuModel}` : `${env.host.cores} cores`;
  return `MongoDB ${env.server.version} | ${String(env.startedAt).slice(0, 10)} | ${host}`;
}

// ---- channels -------------------------------------------------------------------------------

/**
 * A quantitative channel from the kit's axis { field, title, log, base, domain, nice, zero, ticks,
 * format }; log 'auto' looks at `seen` (the values and whisker ends) and says "(log)" in the title.
 */
function quantitative(a, seen) {
  const auto = a.log === 'auto';
  const log = auto ? isWide(seen) : Boolean(a.log);
  const scale = {
    ...(log ? { type: 'log', ...(a.base ? { base: a.base } : {}) } : {}),
    ...(a.domain ? { domain: a.domain } : {}),
    ...(a.nice === false ? { nice: false } : {}),
    ...(!log && a.zero === false ? { zero: false } : {}),
  };
  const axis = {
    ...(a.ticks ? { values: a.ticks } : {}),
    ...(a.format ? { format: a.format } : {}),
  };
  return {
    field: a.field,
    type: 'quantitative',
    title: auto && log && a.title ? `${a.title} (log)` : a.title === undefined ? null : a.title,
    ...(Object.keys(scale).length ? { scale } : {}),
    ...(Object.keys(axis).length ? { axis } : {}),
  };
}

/** A nominal category axis { field, title, order, labelAngle }. */
function nominal(a) {
  return {
    field: a.field,
    type: a.type || 'nominal',
    ...(a.order ? { sort: a.order } : {}),
    title: a.title === undefined ? null : a.title,
    axis: { labelAngle: a.labelAngle === undefined ? 0 : a.labelAngle },
  };
}

/** Colour by a field { field, title, order, colors (array, or (value, i) => colour), legend, type }. */
function colorChannel(c) {
  const colors = c.colors || PALETTE;
  const range = typeof colors === 'function' ? (c.order || []).map(colors) : colors;
  return {
    field: c.field,
    type: c.type || 'nominal',
    ...(c.order ? { sort: c.order } : {}),
    scale: c.order ? { domain: c.order, range } : { range },
    title: c.title === undefined ? c.field : c.title,
    legend: c.legend === null ? null : { labelLimit: 400, ...(c.legend || {}) },
  };
}

/** Line dashes: by the colour's field (`true`), or by a field of their own { field, title, order, range, legend }. */
function dashChannel(dash, color) {
  if (!dash) return null;
  const d = dash === true ? { field: color.field, type: color.type, order: color.sort, title: color.title } : dash;
  return {
    field: d.field,
    type: d.type || 'nominal',
    ...(d.order ? { sort: d.order } : {}),
    scale: { ...(d.order ? { domain: d.order } : {}), range: d.range || DASHES },
    title: d.title === undefined ? d.field : d.title,
    legend: dash === true ? color.legend : d.legend === null ? null : lineLegend(d.legend),
  };
}

function lineLegend(legend) {
  return legend === null ? null : { symbolType: 'stroke', symbolStrokeWidth: 2, symbolSize: 300, ...(legend || {}) };
}

function titleOf(o) {
  return o.subtitle ? { text: o.title, subtitle: o.subtitle } : { text: o.title };
}

const valuesOf = (rows, field) => rows.flatMap((v) => [v[field], v.lo, v.hi]);
const hasWhiskers = { filter: 'isValid(datum.lo)' };
// A whisker layer only where some row has an interval (a count, or a run of 2 rounds, has none).
const anyInterval = (rows) => rows.some((v) => typeof v.lo === 'number');

// ---- shapes ---------------------------------------------------------------------------------

/**
 * Lines over a numeric x, one per series, with points, interval whiskers where a row has lo/hi, and
 * horizontal reference rules.
 * @param {object} o { name, title, subtitle, values, x: axis, y: axis (field default 'value'),
 *   series: colour (optional), dash: true | {field, order, range, title, legend} (optional),
 *   rules: [{ y, color, dash }] (a dotted grey line at each y), points (default true),
 *   line / whisker: extra mark properties, panels: {field, order, independent} (as bars'),
 *   width (640), height (360) }
 */
function lines(o) {
  const values = o.values;
  const yAxis = { field: 'value', ...o.y };
  const x = quantitative(
    o.x,
    values.map((v) => v[o.x.field]),
  );
  const y = quantitative(yAxis, valuesOf(values, yAxis.field));
  // the legend draws each series as its line (colour and dash), not as a dot
  const color = o.series ? colorChannel({ ...o.series, legend: lineLegend(o.series.legend) }) : null;
  const dash = color ? dashChannel(o.dash, color) : null;
  const whiskers = {
    transform: [hasWhiskers],
    mark: { type: 'rule', ...(o.whisker || {}) },
    encoding: {
      x: { field: x.field, type: 'quantitative', ...(x.scale ? { scale: x.scale } : {}) },
      y: { ...y, field: 'lo' },
      y2: { field: 'hi' },
      ...(color ? { color } : {}),
    },
  };
  const line = {
    mark: { type: 'line', point: o.points !== false, ...(o.line || {}) },
    encoding: { x, y, ...(color ? { color } : {}), ...(dash ? { strokeDash: dash } : {}) },
  };
  const rules = (o.rules || []).map((r) => ({
    data: { values: [{ y: r.y }] },
    mark: { type: 'rule', color: r.color || '#888888', strokeDash: r.dash || [2, 2] },
    encoding: { y: { field: 'y', type: 'quantitative' } },
  }));
  const layer = [...(anyInterval(values) ? [whiskers] : []), line, ...rules];
  // one panel per value of o.panels.field (as bars'), else one chart
  return framed({ ...o, width: o.width || 640, height: o.height || 360 }, values, layer);
}

/**
 * Bars over a category axis: one per x, or side by side per `group` (the colour's field unless
 * group says otherwise; false: one bar per x, coloured), whiskers where a row has lo/hi, labels past
 * them, optionally one panel per value of `panels.field` and optionally horizontal.
 * @param {object} o { name, title, subtitle, values, x: {field, title, order, labelAngle},
 *   y: axis (field default 'value'), color, group, labels: {field, format}, panels: {field, order,
 *   independent: scales each panel has alone (default ['y'])}, horizontal, width, height }
 */
function bars(o) {
  return categorical(o, { type: 'bar' }, { type: 'rule', color: 'black' });
}

/** bars' layout with a point per row (several figures per slot: who measured, when); `shape` a field. */
function dots(o) {
  return categorical(o, { type: 'point', filled: true, size: 70 }, { type: 'rule' });
}

function categorical(o, mark, whiskerMark) {
  const yAxis = { field: 'value', ...o.y };
  const values = o.labels ? o.values.map(withLabelEnd(yAxis.field)) : o.values;
  const x = nominal(o.x);
  const y = { ...quantitative(yAxis, valuesOf(values, yAxis.field)), ...(mark.type === 'bar' ? { stack: null } : {}) };
  const color = o.color ? colorChannel(o.color) : null;
  const groupField = o.group === false ? null : o.group || (color && color.field !== x.field ? color.field : null);
  const offset = groupField ? { xOffset: { field: groupField, type: 'nominal', ...groupSort(o, groupField) } } : {};
  const place = { x: { field: x.field, type: x.type, ...(x.sort ? { sort: x.sort } : {}) }, ...offset };
  const layer = [
    {
      mark,
      encoding: {
        x,
        ...offset,
        y,
        ...(color ? { color } : {}),
        ...(o.shape ? { shape: shapeChannel(o.shape) } : {}),
      },
    },
  ];
  // Bars first: their band scale is the layers' scale (a rule first makes it a point scale, bars
  // without gaps), and the whiskers then draw over them; points draw over their whiskers.
  if (o.whiskers !== false && anyInterval(values))
    layer.splice(mark.type === 'bar' ? 1 : 0, 0, {
      transform: [hasWhiskers],
      mark: whiskerMark,
      encoding: {
        ...place,
        y: { ...y, field: 'lo' },
        y2: { field: 'hi' },
        ...(whiskerMark.color ? {} : color ? { color } : {}),
      },
    });
  if (o.labels)
    layer.push({
      mark: o.horizontal ? { type: 'text', align: 'left', dx: 4 } : { type: 'text', dy: -5, fontSize: 9 },
      encoding: {
        ...place,
        y: { ...y, field: '_end', title: y.title },
        text: labelText(o.labels, yAxis.field),
      },
    });
  return framed(o, values, o.horizontal ? layer.map(sideways) : layer);
}

// A row with the labels' place: past the whisker's end, else past the bar.
function withLabelEnd(field) {
  return (v) => ({ ...v, _end: v.hi === undefined ? v[field] : v.hi });
}

function groupSort(o, field) {
  return o.color && o.color.field === field && o.color.order ? { sort: o.color.order } : {};
}

/** Shape by a field { field, title, range, legend }. */
function shapeChannel(s) {
  return {
    field: s.field,
    type: 'nominal',
    title: s.title === undefined ? s.field : s.title,
    scale: { range: s.range || ['circle', 'triangle-up', 'square', 'diamond'] },
    legend: { labelLimit: 300, ...(s.legend || {}) },
  };
}

// A vertical layer turned horizontal: the category on y, the value on x.
function sideways(layer) {
  const swap = { x: 'y', y: 'x', y2: 'x2', xOffset: 'yOffset' };
  const encoding = Object.fromEntries(Object.entries(layer.encoding).map(([k, v]) => [swap[k] || k, v]));
  return { ...layer, encoding };
}

// One chart, or one panel per value of o.panels.field (the layers then go under `spec`).
function framed(o, values, layer) {
  const size = { width: o.width || 260, height: o.height || 300 };
  if (!o.panels) return { name: o.name, title: titleOf(o), data: { values }, ...size, layer };
  const independent = o.panels.independent || ['y'];
  return {
    name: o.name,
    title: titleOf(o),
    data: { values },
    facet: {
      column: {
        field: o.panels.field,
        type: 'nominal',
        title: null,
        ...(o.panels.order ? { sort: o.panels.order } : {}),
        ...(o.panels.header ? { header: o.panels.header } : {}),
      },
    },
    ...(independent.length
      ? { resolve: { scale: Object.fromEntries(independent.map((k) => [k, 'independent'])) } }
      : {}),
    spec: { ...size, layer },
  };
}

// The label's text: a number formatted by Vega (format ',d', '.1f', ...), or a field as it is.
function labelText(labels, field) {
  const f = labels.field || field;
  return labels.format ? { field: f, type: 'quantitative', format: labels.format } : { field: f, type: 'nominal' };
}

/**
 * One row of dots per series over a numeric x (each dot one observation: a simulated minute), the
 * rows sharing one y scale; no whiskers, the spread is the picture.
 * @param {object} o { name, title, subtitle, values, x: axis, y: axis, rows: colour (its field names
 *   the rows), width (640), height (90 per row) }
 */
function dotRows(o) {
  const yAxis = { field: 'value', ...o.y };
  const color = colorChannel({ ...o.rows, legend: null });
  return {
    name: o.name,
    title: titleOf(o),
    data: { values: o.values },
    mark: { type: 'point', filled: true, size: 9, opacity: 0.6 },
    encoding: {
      x: quantitative(
        o.x,
        o.values.map((v) => v[o.x.field]),
      ),
      y: quantitative(
        yAxis,
        o.values.map((v) => v[yAxis.field]),
      ),
      color,
      row: {
        field: color.field,
        type: 'nominal',
        ...(color.sort ? { sort: color.sort } : {}),
        title: null,
        header: { labelOrient: 'top', labelAnchor: 'start', labelAngle: 0, labelAlign: 'left', labelFontSize: 12 },
      },
    },
    width: o.width || 640,
    height: o.height || 90,
    resolve: { scale: { y: 'shared' } },
  };
}

module.exports = {
  WHISKERS,
  DASHES,
  PALETTE,
  timeOf,
  rateOf,
  speedupOf,
  isWide,
  envLine,
  lines,
  bars,
  dots,
  dotRows,
};
