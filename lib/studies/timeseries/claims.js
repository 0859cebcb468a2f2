'use strict';
// The source's claims (003, "MongoDB performance turbocharging"), judged on the timeseries study's records.
const lab = require('../../../scripts/lib/lab');
const claims = require('../../core/claims');

const SOURCE_SETTING = 'MongoDB 2.4.6 (MMAPv1), 50,000,000 events, 8 GB RAM';

// ---- claims: the cold and warm states, on the hours-in-a-day grain (the source's clearest) ----
function stateMean(records, state, grain = 'hours') {
  const r = claims.results(records).find((x) => x.axis.state === state && x.axis.grain === grain);
  return r ? r.mean : null;
}

function stateFactor(records, slow, fast) {
  const a = stateMean(records, slow);
  const b = stateMean(records, fast);
  return a === null || b === null ? null : a / b;
}

function notStates(records) {
  return claims.results(records).some((r) => r.axis.state) ? 'the hours grain was not measured in every state'
    : 'the cold and warm states need a server the lab started (run without --uri)';
}

/** Did data and indexes fit in the WiredTiger cache? The source's harm needs them not to. */
function fitNote(records, env) {
  const total = records.filter((r) => r.type === 'measure' && r.name === 'totalSize' && r.variant === 'raw').map((r) => r.value)[0];
  const cache = env && env.server && env.server.cacheBytes;
  if (!total || !cache) return '';
  return total < cache ? `; here data + indexes (${(total / 1048576).toFixed(0)} MB) fit in the ${(cache / 1073741824).toFixed(2)} GB cache, ` +
    'unlike the source\'s (run --cache-gb 0.25 --docs 5000000 to reproduce its setting)' : `; data + indexes exceed the ${(cache / 1073741824).toFixed(2)} GB cache, as in the source`;
}

function stateVerdict(records, env, slow, fast, published) {
  const f = stateFactor(records, slow, fast);
  if (f === null) return { verdict: 'not-measurable', figure: null, why: notStates(records) };
  const v = claims.factorVerdict(f, published);
  return { ...v, why: `${v.why}${fitNote(records, env)}` };
}

// The source: MongoDB 2.4.6 (MMAPv1), 50,000,000 events, 8 GB RAM: data and indexes larger than RAM.
module.exports = [
  { id: '003-touch-both', claim: 'warming data and indexes (touch) past RAM makes queries 4-6x slower than cold', seedFigure: '~4.1x (hours: 5.39 s vs 1.31 s)',
    setting: SOURCE_SETTING, verdict: (records, env) => stateVerdict(records, env, 'warm-both', 'cold', 4.1) },
  { id: '003-touch-data', claim: 'warming the data only (touch {data}) makes queries ~25% faster than cold', seedFigure: '~1.3x (hours: 0.99 s vs 1.31 s)',
    setting: SOURCE_SETTING, verdict: (records, env) => {
      const f = stateFactor(records, 'cold', 'warm-data');
      if (f === null) return { verdict: 'not-measurable', figure: null, why: notStates(records) };
      const fit = fitNote(records, env);
      return f >= 1.1 && f <= 2 ? { verdict: 'holds', figure: claims.fx(f), why: `warming the data helps${fit}` }
        : { verdict: 'changed', figure: claims.fx(f), why: `${f < 1.1 ? 'no clear gain' : 'a larger gain'} from warming the data${fit}` };
    } },
  { id: '003-preload', claim: 'preloading the working set (aggregating the year first) is the best warm-up', seedFigure: 'fastest state (hours: 0.89 s)',
    setting: SOURCE_SETTING, verdict: (records) => {
      const hours = claims.results(records).filter((r) => r.axis.state && r.axis.grain === 'hours');
      const year = hours.find((r) => r.axis.state === 'warm-year');
      if (!year) return { verdict: 'not-measurable', figure: null, why: notStates(records) };
      const best = hours.reduce((a, b) => (b.mean < a.mean ? b : a));
      return year.mean <= best.mean * 1.1
        ? { verdict: 'holds', figure: `${lab.fmtMs(year.mean)} per hours-in-a-day interval`, why: `fastest (or within 10% of ${best.axis.state})` }
        : { verdict: 'changed', figure: `${claims.fx(year.mean / best.mean)} slower than ${best.axis.state}`, why: `${best.axis.state} is fastest now` };
    } },
  { id: '003-bytes', claim: 'an event takes ~64 B of data and ~54 B of index', seedFigure: '64 B + 54 B (MMAPv1)',
    setting: SOURCE_SETTING, verdict: (records) => {
      const m = (name) => records.find((r) => r.type === 'measure' && r.name === name && (r.variant === 'raw' || name === 'events'));
      const events = m('events');
      const data = m('storageSize');
      const index = m('indexSize');
      if (!events || !data || !index || !events.value) return { verdict: 'not-measurable', figure: null, why: 'no storage measures in these results' };
      const d = data.value / events.value;
      const ix = index.value / events.value;
      const figure = `${d.toFixed(0)} B + ${ix.toFixed(0)} B on disk`;
      const near = (x, y) => x / y >= 1 / 1.5 && x / y <= 1.5;
      return near(d, 64) && near(ix, 54) ? { verdict: 'holds', figure, why: 'about the same per event' }
        : { verdict: 'changed', figure, why: `WiredTiger compresses: ${claims.fx(64 / d)} less data, ${claims.fx(54 / ix)} less index per event than MMAPv1` };
    } },
];
