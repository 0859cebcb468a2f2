'use strict';
// The timeseries study's charts: time per interval by design, and the cold and warm states beside
// the source's figures; one panel per grain.
const LabFormat = require('../../../scripts/lib/format');
const kit = require('../../report/chart-kit');
const { NAME, SOURCE_FIGURES, SOURCE_SETTING, STATES, STATE_GRAINS, GRAIN_TITLES, DESIGNS } = require('./setting');

function spanOf(values) {
  const v = values.filter((x) => x > 0);
  return v.length ? Math.max(...v) / Math.min(...v) : 1;
}

function runFacts(records, env, doc) {
  const p = ((doc && doc.params) || {})[NAME] || {};
  const ev = records.find((r) => r.type === 'measure' && r.name === 'events');
  const events = ev ? ev.value : p.N;
  return {
    p,
    events,
    line: `${LabFormat.fmtInt(events)} events | MongoDB ${env.server.version} | ${String(env.startedAt).slice(0, 10)} | ${env.host.cores} cores`,
  };
}

/** Bars with their value written above them, one panel per grain, each panel with its own scale. */
function panels({ name, title, subtitle, values, x, xSort, color, colorSort, yTitle, log }) {
  const grains = Object.values(GRAIN_TITLES).filter((g) => values.some((v) => v.grain === g));
  return kit.bars({
    name,
    title,
    subtitle,
    values: values.map((v) => ({ ...v, label: LabFormat.fmtMs(v.value) })),
    x: { field: x, order: xSort, title: null, labelAngle: -35 },
    // Two lines: a y title longer than the 260-pixel plot makes vega stretch every panel to fit it,
    // leaving empty bands above and below the bars.
    y: { title: log ? [yTitle, '(log scale)'] : yTitle, log },
    color: {
      field: color,
      order: colorSort,
      title: color === 'series' ? null : color,
      legend: { labelLimit: 320, orient: color === 'series' ? 'bottom' : 'right' },
    },
    group: color !== x ? color : false,
    labels: { field: 'label' },
    panels: { field: 'grain', order: grains, header: { labelFontSize: 12 } },
    width: Math.max(150, (34 * xSort.length * (color === x ? 1 : colorSort.length)) / 1.5),
    height: 260,
  });
}

function designsChart(records, env, doc) {
  const recs = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.grain && !r.axis.state);
  if (!recs.length) return null;
  const f = runFacts(records, env, doc);
  const designs = DESIGNS.filter((d) => recs.some((r) => r.variant === d));
  const values = recs.map((r) => ({ grain: GRAIN_TITLES[r.axis.grain], variant: r.variant, ...kit.timeOf(r) }));
  const log = spanOf(values.flatMap((v) => [v.value, v.lo, v.hi])) > 30;
  return panels({
    name: 'designs',
    title: 'Time series (source 003): time per interval by design',
    subtitle: [
      f.line,
      `median of ${f.p.RUNS === undefined ? '?' : f.p.RUNS} interleaved rounds, whiskers: 95% interval (t on log times, 3+ rounds); days = one aggregation of the whole year by day`,
    ],
    values,
    x: 'variant',
    xSort: designs,
    color: 'variant',
    colorSort: designs,
    yTitle: 'ms per interval (median)',
    log,
  });
}

function statesChart(records, env, doc) {
  const all = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.state);
  if (!all.length) return null;
  // one run of states: a run's cache is on its records' axis (STATES_CACHE=source, a converted run)
  const key = all[0].axis.cache || null;
  const recs = all.filter((r) => (r.axis.cache || null) === key);
  const f = runFacts(records, env, doc);
  const ours = `this run (${LabFormat.fmtInt(f.events)} events)`;
  const theirs = 'source (2.4.6, 50M events)';
  const values = recs.map((r) => ({
    grain: GRAIN_TITLES[r.axis.grain],
    state: r.axis.state,
    series: ours,
    // the whisker: the 95 % interval over the passes (kit.timeOf); the bar, their mean
    ...kit.timeOf(r),
    value: r.mean,
  }));
  for (const r of recs) {
    const src = SOURCE_FIGURES[r.axis.state];
    const v = src && src.Average[STATE_GRAINS.indexOf(r.axis.grain)];
    if (v > 0) values.push({ grain: GRAIN_TITLES[r.axis.grain], state: r.axis.state, series: theirs, value: v * 1000 });
  }
  const states = STATES.map((s) => s.name).filter((s) => recs.some((r) => r.axis.state === s));
  return panels({
    name: 'states',
    title: 'Time series (source 003): cold and warm states, raw design',
    subtitle: [
      f.line,
      'mean aggregation time of T1..T5, mean over the passes of each state; whiskers: 95% interval over the passes (3+)',
      `beside ours, the source's: ${SOURCE_SETTING}`,
    ],
    values,
    x: 'state',
    xSort: states,
    color: 'series',
    colorSort: [ours, theirs],
    yTitle: 'ms per interval (mean of T1..T5)',
    log: spanOf(values.flatMap((v) => [v.value, v.lo, v.hi])) > 30,
  });
}

module.exports = { designsChart, statesChart };
