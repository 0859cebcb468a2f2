'use strict';
// State records in the shape runStates (index.js) writes them, built from figures instead of a
// server: per state, one time per pass and what each pass found in the WiredTiger cache. The
// source replay (source-figures.js) builds the source's states with it, and the rules' unit tests
// build the settings they check (a working set in the cache or pushed out, a run without residency).

// The source's sizes (MMAPv1, 50,000,000 events): dataSize and its two indexes (indexSizes).
const SOURCE_SIZES = { data: 3200000032, created_on_1: 1257869424, _id_: 1460021024 };

/** One residency snapshot: what each part holds in the cache and has read into it so far. */
function snapshot(sizes, cached, read) {
  const indexes = {};
  for (const name of Object.keys(sizes).filter((k) => k !== 'data' && k !== 'storageSize'))
    indexes[name] = { size: sizes[name], cached: cached[name] || 0, read: read[name] || 0 };
  const data = { size: sizes.data, cached: cached.data || 0, read: read.data || 0 };
  // the collection's file bytes, where the figures give them (states.js records storageSize)
  if (typeof sizes.storageSize === 'number') data.storageSize = sizes.storageSize;
  return { data, indexes };
}

/** What each pass of a state read from the disk, where the figures give it (absent: not recorded). */
function disk(s) {
  const out = {};
  for (const k of ['diskReadBytes', 'majorFaults', 'rssBytes']) if (k in s) out[k] = s[k];
  return out;
}

/**
 * Result records, one per state at `grain`, with `passes` passes each:
 *   states: { [state]: { times: [ms per pass], read: { data, created_on_1, _id_ } (bytes one pass
 *            reads into the cache), cached: { ... } (bytes in the cache when a pass starts),
 *            diskReadBytes, majorFaults, rssBytes (optional: what every pass read from the disk and
 *            mongod's resident memory after it, as runStates records them for a mongod on this
 *            machine; null: not known) } }
 *   setting: { cacheBytes, dataBytes, indexBytes, events } (the sizes the claims judge the run by);
 *   cache: the run's cache on the axis (as STATES_CACHE=source writes it); sizes: each part's size
 *   (and storageSize, the collection's file bytes, where given); ramMB: the RAM_MB limit recorded.
 * `withResidency: false` leaves the residency out (a result file from before it was recorded).
 */
function stateRecords(
  states,
  { setting, cache, grain = 'hours', sizes = SOURCE_SIZES, withResidency = true, ramMB = null } = {},
) {
  return Object.entries(states).map(([state, s]) => {
    const times = s.times;
    const passes = times.map((t, i) => ({
      pass: i + 1,
      times: [t, t, t, t, t],
      residency: withResidency
        ? {
            before: snapshot(sizes, s.cached || {}, {}),
            after: snapshot(sizes, s.cached || {}, s.read || {}),
          }
        : undefined,
      ...disk(s),
    }));
    const sorted = [...times].sort((a, b) => a - b);
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    return {
      type: 'result',
      study: 'timeseries',
      variant: 'raw',
      axis: { grain, state, ...(cache ? { cache } : {}) },
      unit: 'ms',
      times,
      runs: times.length,
      mean,
      median: sorted[Math.floor(sorted.length / 2)],
      min: sorted[0],
      max: sorted[sorted.length - 1],
      ratio: null,
      agrees: true,
      plan: { stage: 'IXSCAN', explainVersion: '1' },
      extra: {
        ...(setting ? { setting } : {}),
        ...(ramMB ? { ramMB } : {}),
        passes: withResidency ? passes : passes.map(({ residency, ...p }) => p),
      },
    };
  });
}

/** Warm-up measure records: { [state]: [ms per pass] }. */
function warmupRecords(warmups, { cache } = {}) {
  return Object.entries(warmups).flatMap(([state, ms]) =>
    ms.map((value, i) => ({
      type: 'measure',
      study: 'timeseries',
      name: 'warmupMs',
      variant: null,
      axis: { state, ...(cache ? { cache } : {}) },
      value,
      unit: 'ms',
      extra: { pass: i + 1 },
    })),
  );
}

module.exports = { SOURCE_SIZES, stateRecords, warmupRecords };
