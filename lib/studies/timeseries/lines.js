'use strict';
// The timeseries study's terminal lines: the one state x grain table with the source's figures
// beside ours, and what the scale of a run can show.
const LabFormat = require('../../../scripts/lib/format');
const LabStats = require('../../../scripts/lib/stats');
const {
  SOURCE_EVENTS,
  MINUTES_IN_2012,
  MIN_EVENTS_PER_MINUTE,
  SOURCE_FIGURES,
  STATES,
  STATE_GRAINS,
  GRAIN_TITLES,
} = require('./setting');
const { perMinute } = require('./oracle');

function fmtBytes(b) {
  if (b >= 1073741824) return `${(b / 1073741824).toFixed(2)} GB`;
  if (b >= 1048576) return `${(b / 1048576).toFixed(1)} MB`;
  return `${Math.round(b / 1024)} KB`;
}

/** The one state x grain table, with the source's figures beside ours. */
function stateTableLines(records, grains) {
  const recs = records.filter((r) => r.type === 'result' && r.axis.state);
  const warm = records.filter((r) => r.type === 'measure' && r.name === 'warmupMs');
  const cols = [
    { key: 'state', title: 'state' },
    { key: 'warm', title: 'warm-up', right: true },
  ];
  for (const g of grains) {
    cols.push({ key: g, title: GRAIN_TITLES[g], right: true }, { key: `${g}-src`, title: 'source', right: true });
  }
  const rows = STATES.filter((s) => recs.some((r) => r.axis.state === s.name)).map((s) => {
    const w = warm.filter((m) => m.axis.state === s.name).map((m) => m.value);
    const row = { state: s.name, warm: w.length ? LabFormat.fmtMs(LabStats.median(w)) : '-' };
    for (const g of grains) {
      const r = recs.find((x) => x.axis.state === s.name && x.axis.grain === g);
      const src = SOURCE_FIGURES[s.name];
      row[g] = r ? LabFormat.fmtMs(r.mean) + (r.agrees === false ? ' WRONG' : '') : '-';
      row[`${g}-src`] = src ? `${src.Average[STATE_GRAINS.indexOf(g)]} s` : '-';
    }
    return row;
  });
  return LabFormat.tableLines(cols, rows);
}

/** What the scale of this run can show and what it cannot, in a few lines. */
function scaleNotes(events, sizes, cacheBytes) {
  const raw = sizes.find((s) => s.variant === 'raw');
  const notes = [];
  if (raw && cacheBytes) {
    const need = raw.dataSize + raw.indexSize;
    notes.push(
      need < cacheBytes
        ? `At ${LabFormat.fmtInt(events)} events the collection and its indexes (${fmtBytes(need)}) fit in the WiredTiger cache (${fmtBytes(cacheBytes)}): ` +
            'a restart empties that cache but not the operating system\'s page cache, so "cold" here means refilling the cache from memory, not reading a disk. ' +
            `The source's ${LabFormat.fmtInt(SOURCE_EVENTS)} events did not fit its 8 GB of RAM; for its "warming does more harm than good" use --set STATES_CACHE=source (the cache sized as its memory was).`
        : `At ${LabFormat.fmtInt(events)} events the collection and its indexes (${fmtBytes(need)}) do NOT fit in the WiredTiger cache (${fmtBytes(cacheBytes)}): warming it all evicts part of what a query needs, as in the source.`,
    );
  }
  if (perMinute(events) < MIN_EVENTS_PER_MINUTE) {
    notes.push(
      `Seconds in a minute is left out: ${LabFormat.fmtInt(events)} events put ~${perMinute(events).toPrecision(2)} events in a minute ` +
        `(the source's ${LabFormat.fmtInt(SOURCE_EVENTS)}: ~${Math.round(perMinute(SOURCE_EVENTS))}); it shows from ~${LabFormat.fmtInt(MIN_EVENTS_PER_MINUTE * MINUTES_IN_2012)} events (--docs), e.g. --profile seed.`,
    );
  }
  return notes;
}

module.exports = { fmtBytes, stateTableLines, scaleNotes };
