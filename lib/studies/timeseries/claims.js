'use strict';
// The source's claims (003, Vlad Mihalcea, "A beginner's guide to MongoDB performance turbocharging",
// 2013), judged on the timeseries study's records. The source: MongoDB 2.4.6 (MMAPv1), 50,000,000
// events, an 8 GB RAM workstation: dataSize 3.2 GB fits in RAM, data + indexes (7.13 GB) nearly
// fill it; five start timestamps T1..T5 per grain, one pass each; cold = a restart before each test.
//
// The lab's state records are grouped into runs by their setting (the cache on the axis of a
// converted run, e.g. docs/data/timeseries-5m-smallcache.json, else the result file's cache), and
// every rule picks the run whose setting the claim needs, whatever order the files were merged in.
//
// Cache claims prove their state: every state pass records what the collection and each index held
// in the WiredTiger cache, and had read into it, before and after it (index.js runStates). A claim
// that needs the queries' working set (the documents and the created_on index they scan) in the
// cache, or out of it, reads that evidence and refuses (not reproduced) when the records do not show
// it. The states are repeated (PASSES, 3 at the quick and seed profiles): an interval is over passes,
// never over the five intervals of one pass.
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  unmeasured,
  whenMeasured,
  pairedTimes,
  unpairedInterval,
  intervalOf,
  find,
  results,
  exact,
  fx,
  pct,
  parts,
  unsupported,
  setting,
  VERDICT,
  KIND,
  MIN_ROUNDS,
} = require('../../core/claims');

// The source's setting as its own figures give it. In 2.4 totalSize() = storageSize() +
// totalIndexSize(), so the data extents MMAPv1 mapped were 7,133,702,032 - 2,717,890,448 =
// 4,415,811,584 B (88.3 B per event; dataSize 64 B): touch {data} paged in 4.42 GB and touch {data,
// index} 7.13 GB. The D:\ paths and "GTB Daylight Time" are a Windows workstation; the warm tables'
// 0, 0.015/0.016, 0.031/0.032, 0.046/0.047 s are whole ticks of its ~15.6 ms timer.
const SETTING =
  "MongoDB 2.4.6 (MMAPv1) on a Windows workstation, 8 GB RAM, 50,000,000 events: storageSize 4.42 GB (dataSize 3.2 GB), indexes 2.72 GB, totalSize 7.13 GB; timings by the shell's Date at about 15.6 ms resolution (the seconds grain is 0 to 1 tick); a restart does not clear the OS file cache";
const SOURCE_EVENTS = 50000000;
// The smallest state run the lab documents: below it a restart leaves too little to read.
const MIN_EVENTS = 5000000;
// What would narrow a state interval: more passes of every state.
const MORE = 'more passes of every state (--set PASSES=5 or more)';
// The no-difference band of the state comparisons is the core's default, [0.8x, min(1.25x, the
// claim's lower edge)]: the source published one pass per state, so nothing in it measures how much
// a pass of one state moves by, and the lab's passes are interleaved, so the interval over them
// carries their own spread (an earlier +-10 % band cited an 8-35 % day-to-day spread that argued
// for a wider band, not a narrower one).
// The hours queries' working set: the documents and the index their $match scans.
const WORKING_SET = ['data', 'created_on_1'];
// A pass found its working set in the cache when it read at most this share of what a cold pass
// (from an empty cache) read; without cold passes, at most IN_CACHE_BYTES. It was out of the cache
// when it read at least OUT_SHARE of it. A restart leaves the cache empty: at most COLD_SHARE of a
// part's size is in it before a cold pass.
const IN_SHARE = 0.1;
const IN_CACHE_BYTES = 65536;
const OUT_SHARE = 0.25;
const COLD_SHARE = 0.01;

/** The runs of states in these records: one per cache setting, with its cache and sizes. */
function stateRuns(records, env) {
  const runs = new Map();
  for (const r of results(records).filter((x) => x.axis.state)) {
    const key = r.axis.cache || 'default';
    if (!runs.has(key)) runs.set(key, { key, recs: [] });
    runs.get(key).recs.push(r);
  }
  for (const run of runs.values()) {
    const s = run.recs.map((r) => r.extra && r.extra.setting).find(Boolean);
    const m = (name) => {
      const x = records.find(
        (r) =>
          r.type === 'measure' &&
          r.name === name &&
          (name === 'events' || r.variant === 'raw') &&
          (r.axis.cache || 'default') === run.key,
      );
      return x ? x.value : null;
    };
    run.cacheBytes = (s && s.cacheBytes) || setting.cacheBytes(env);
    run.dataBytes = (s && s.dataBytes) || m('dataSize');
    run.indexBytes = (s && s.indexBytes) || m('indexSize');
    run.events = (s && s.events) || m('events');
  }
  return [...runs.values()];
}

const sizeOf = (b) => (b >= 1073741824 ? `${(b / 1073741824).toFixed(2)} GB` : `${(b / 1048576).toFixed(0)} MB`);
function describe(run) {
  return `${run.events ? lab.fmtInt(run.events) : '?'} events, data ${run.dataBytes ? sizeOf(run.dataBytes) : '?'} + indexes ${run.indexBytes ? sizeOf(run.indexBytes) : '?'}, cache ${run.cacheBytes ? sizeOf(run.cacheBytes) : '?'}`;
}

/** Data + indexes larger than 85 % of the cache (the source: 7.13 GB in 8 GB). */
const pastCache = (run) =>
  !!(run.cacheBytes && run.dataBytes && run.indexBytes && (run.dataBytes + run.indexBytes) / run.cacheBytes >= 0.85);
/** The data alone fits in the cache. */
const dataFits = (run) => !!(run.cacheBytes && run.dataBytes && run.dataBytes < run.cacheBytes);

/**
 * The run a claim needs: among the runs whose setting passes `ok`, the one nearest the source's
 * scale (the most events): the same choice in any merge order.
 */
function chooseRun(records, env, ok) {
  const runs = stateRuns(records, env);
  const good = runs.filter(ok).sort((a, b) => (b.events || 0) - (a.events || 0) || (a.key < b.key ? -1 : 1));
  return { runs, run: good[0] || null };
}

/**
 * The state run the warm-up claims read: the one the state rules choose (nearest the source's
 * scale, in a setting they judge), else any; null without states. Its key selects its measures.
 */
function warmupRun(records, env) {
  const { runs, run } = chooseRun(records, env, (r) => dataFits(r) || pastCache(r));
  return run || runs[0] || null;
}
const inRun = (run) => (r) => !!run && (r.axis.cache || 'default') === run.key;

/**
 * The setting a state claim needs: a run whose sizes pass `ok`, then, when `evidence` is given, the
 * cache residency its passes recorded (evidence(run) -> {ok, here, absent?, reproduce?}): without
 * that evidence, or against it, the claim is not reproduced (absent says which).
 */
function stateCheck(needed, ok, reproduce, evidence = null) {
  return {
    needed: evidence ? `${needed}; ${evidence.needed}` : needed,
    check: (records, env) => {
      const { runs, run } = chooseRun(records, env, ok);
      if (!runs.length)
        return {
          here: 'no cold and warm states in these records (they need a server the lab started)',
          ok: false,
          absent: 'no-evidence',
          reproduce: 'run timeseries without --uri',
        };
      if (!run) return { here: runs.map(describe).join('; '), ok: false, reproduce };
      if (!evidence) return { here: describe(run), ok: true };
      const e = evidence.check(run);
      const here = `${describe(run)}; ${e.here}`;
      if (e.ok) return { here, ok: true };
      return { here, ok: false, absent: e.absent, reproduce: e.reproduce || reproduce };
    },
  };
}

// ---- cache residency: what each pass found in the cache ------------------------------------------
/** A state record's passes with their residency, or null (a result file from before passes were kept). */
function passesOf(rec) {
  const ps = rec && rec.extra && rec.extra.passes;
  return Array.isArray(ps) && ps.length && ps.every((p) => p.residency) ? ps : null;
}

/** A part's reading ('data': the collection, else an index name) in one residency snapshot. */
function partOf(snapshot, part) {
  return part === 'data' ? snapshot.data : snapshot.indexes && snapshot.indexes[part];
}

/** Bytes one pass read into the cache for these parts (null when a part is missing). */
function readDuring(p, partsList) {
  let sum = 0;
  for (const part of partsList) {
    const b = partOf(p.residency.before, part);
    const a = partOf(p.residency.after, part);
    if (!a || !b || typeof a.read !== 'number' || typeof b.read !== 'number') return null;
    sum += a.read - b.read;
  }
  return sum;
}

const sizeOfBytes = (b) =>
  b >= 1048576 ? sizeOf(b) : b >= 1024 ? `${(b / 1024).toFixed(0)} KB` : `${Math.round(b)} B`;

/** What the cold hours passes read for these parts (their median), or null without such passes. */
function coldRead(run, partsList) {
  const ps = passesOf(stateRec(run, 'cold'));
  if (!ps) return null;
  const xs = ps.map((p) => readDuring(p, partsList)).filter((x) => x !== null && x > 0);
  return xs.length ? lab.median(xs) : null;
}

/**
 * Whether the hours passes of `state` found `partsList` in the cache (want 'in') or had to read
 * them (want 'out'), from the bytes each pass read into the cache against what a cold pass read.
 * Every pass must show it (fail closed). -> {ok, here, absent?}
 */
function residency(run, state, partsList, want) {
  const what = partsList.map((x) => (x === 'data' ? 'the documents' : `the ${x} index`)).join(' and ');
  const rec = stateRec(run, state);
  if (!rec) return { ok: false, here: `no ${state} passes at the hours grain`, absent: 'no-evidence' };
  const ps = passesOf(rec);
  if (!ps)
    return {
      ok: false,
      here: `the ${state} records carry no cache residency per pass (a result file from before it was recorded): nothing shows whether ${what} were in the cache`,
      absent: 'no-evidence',
      reproduce: 'the same command again: every pass now records the residency before and after it',
    };
  const reads = ps.map((p) => readDuring(p, partsList));
  if (reads.some((x) => x === null))
    return { ok: false, here: `the ${state} residency does not cover ${what}`, absent: 'no-evidence' };
  const cold = coldRead(run, partsList);
  const fmtReads = reads.map(sizeOfBytes).join(', ');
  if (cold === null && want === 'out')
    return {
      ok: false,
      here: `no cold pass to compare what the ${state} passes read (${fmtReads}) with`,
      absent: 'no-evidence',
    };
  const shares = cold === null ? null : reads.map((r) => r / cold);
  const said = `${state} hours passes read ${fmtReads} of ${what} into the cache${shares ? ` (${shares.map(pct).join(', ')} of a cold pass's ${sizeOfBytes(cold)})` : ''}`;
  const inCache = shares ? shares.every((x) => x <= IN_SHARE) : reads.every((x) => x <= IN_CACHE_BYTES);
  const outOfCache = !!shares && shares.every((x) => x >= OUT_SHARE);
  if (want === 'in' && inCache) return { ok: true, here: `${said}: in the cache` };
  if (want === 'out' && outOfCache) return { ok: true, here: `${said}: not in the cache` };
  return {
    ok: false,
    here: `${said}: ${want === 'in' ? 'NOT in the cache' : 'mostly in the cache (not pushed out)'}`,
    absent: want === 'in' ? 'out-of-cache' : 'in-cache',
  };
}

/** The cold passes started from an empty cache: the documents and created_on at most COLD_SHARE cached. */
function coldIsCold(run) {
  const ps = passesOf(stateRec(run, 'cold'));
  if (!ps)
    return {
      ok: false,
      here: 'the cold records carry no cache residency per pass: nothing shows the cache was empty',
      absent: 'no-evidence',
      reproduce: 'the same command again: every pass now records the residency before and after it',
    };
  for (const p of ps)
    for (const part of WORKING_SET) {
      const x = partOf(p.residency.before, part);
      if (!x || !x.size) return { ok: false, here: `no ${part} residency before a cold pass`, absent: 'no-evidence' };
      if (x.cached > COLD_SHARE * x.size)
        return {
          ok: false,
          here: `a cold pass started with ${sizeOfBytes(x.cached)} of ${part} in the cache (${pct(x.cached / x.size)} of ${sizeOfBytes(x.size)})`,
          absent: 'warm-cold',
        };
    }
  return { ok: true, here: `the ${ps.length} cold passes started from an empty cache` };
}

/** Several evidence checks, all needed, in order (the first refusal answers). */
function allOf(needed, ...checks) {
  return {
    needed,
    check: (run) => {
      const heres = [];
      for (const c of checks) {
        const e = c(run);
        if (!e.ok) return { ...e, here: [...heres, e.here].join('; ') };
        heres.push(e.here);
      }
      return { ok: true, here: heres.join('; ') };
    },
  };
}

const TO_REPRODUCE_PAST =
  "npx mongo-perf-lab run timeseries --docs 5000000 --set STATES_CACHE=source (the cache sized as the source's memory; --profile seed does it at 50,000,000 events)";
const TO_REPRODUCE_FITS = 'npx mongo-perf-lab run timeseries --profile seed';
// The working set the source's "preloading" needs in memory: its 4.31 GB estimate fitted its 8 GB.
// A cache sized from the on-disk sizes (STATES_CACHE=source) can be too small for it: WiredTiger
// holds pages uncompressed, larger than on disk; how much larger the cache residency of a run says
// (the bytes cached after the year preload's passes), no fixed factor.
const TO_REPRODUCE_WS =
  'a cache that holds the documents and the created_on index as this run held them in memory (the residency after the year preload) but not the _id index as well: --cache-gb with the sizes this run printed';

// A warm-both pass was RAM short when the mongod read from the disk at least this share of the bytes
// the pass read into the WiredTiger cache (read-3 dispute 16; the share the other gate uses). Disk
// bytes are compressed blocks and cache bytes uncompressed pages, so a pass served wholly from the
// disk shows the files' compression (storageSize/dataSize: 0.47 for the source's documents with
// snappy on 6.0.5), not 100 %: 25 % then means at least about half of its re-reads came from the disk.
const DISK_SHARE = 0.25;
const TO_REPRODUCE_RAM =
  'npx mongo-perf-lab run timeseries --docs 5000000 --set STATES_CACHE=source --set RAM_MB=<MB below the WiredTiger cache + 256 MB + the data files on disk> (Linux, as root: the embedded mongod in a memory cgroup; each pass records its disk reads, /proc/<pid>/io read_bytes, and its resident memory)';

/** Every part a pass's residency covers: the documents and each index. */
const partsIn = (p) => ['data', ...Object.keys((p.residency.after && p.residency.after.indexes) || {})];

/** The data and index files' bytes on disk before a pass (storageSize + indexSizes), or null (not recorded). */
function fileBytes(p) {
  const b = p.residency.before;
  if (!b || !b.data || typeof b.data.storageSize !== 'number') return null;
  return b.data.storageSize + Object.values(b.indexes || {}).reduce((a, i) => a + (i.size || 0), 0);
}

/** With RAM_MB: the limit, the page cache left beside mongod (limit - its largest RSS) and the files' bytes. */
function roomBeside(rec, ps) {
  const mb = rec.extra && rec.extra.ramMB;
  if (!mb) return '; no memory limit recorded (RAM_MB)';
  const rss = ps.map((p) => p.rssBytes).filter((x) => typeof x === 'number');
  const files = fileBytes(ps[0]);
  if (!rss.length) return `; memory limit ${mb} MB (mongod's resident memory not recorded)`;
  const room = mb * 1048576 - Math.max(...rss);
  return `; memory limit ${mb} MB: page cache left beside mongod ${sizeOfBytes(Math.max(room, 0))} (the limit less its resident ${sizeOfBytes(Math.max(...rss))}) against ${files === null ? '? (not recorded)' : sizeOfBytes(files)} of data + index files`;
}

/**
 * RAM was short while warm-both ran, as the source's 7.13 GB in 8 GB (read-2 dispute 1, read-3
 * dispute 16): the WiredTiger cache overflowing is not enough, since what it evicts comes back from
 * the OS page cache, not the disk, and a "holds" would read decompression churn as the source's
 * paging. Evidence: every warm-both pass read from the disk (/proc/<pid>/io read_bytes, states.js)
 * at least DISK_SHARE of what it read into the cache (all parts). Major faults are not evidence:
 * WiredTiger reads its read-write files with pread (mmap maps only read-only checkpoint objects:
 * https://source.wiredtiger.com/mongodb-3.4/tune_read_only.html; mmap_all, WT-5170, is off), so
 * mongod's major faults count anonymous memory and its binary, not data re-reads; they are shown beside. A pass without disk reads, or below the share, fails closed
 * (absent: ram).
 */
function ramShort(run) {
  const rec = stateRec(run, 'warm-both');
  const ps = passesOf(rec);
  const refuse = (here) => ({ ok: false, here, absent: 'ram', reproduce: TO_REPRODUCE_RAM });
  if (!ps) return refuse('no warm-both passes with their residency: nothing shows RAM was short');
  const rows = ps.map((p) => {
    const cache = readDuring(p, partsIn(p));
    const disk = typeof p.diskReadBytes === 'number' ? p.diskReadBytes : null;
    return { cache, disk, share: disk !== null && cache > 0 ? disk / cache : null, faults: p.majorFaults };
  });
  if (rows.some((r) => r.disk === null))
    return refuse(
      "the warm-both passes record no disk reads (/proc/<pid>/io read_bytes): nothing shows RAM was short (the lab's overflow is the WiredTiger cache, whose evicted pages come back from the OS page cache, not the disk; major faults are no evidence: WiredTiger reads its files with pread, not through a mapping)",
    );
  const faults = rows.every((r) => typeof r.faults === 'number')
    ? `; major faults beside (not evidence): ${rows.map((r) => r.faults).join(', ')}`
    : '';
  const said = `the warm-both passes read ${rows.map((r) => sizeOfBytes(r.disk)).join(', ')} from disk against ${rows.map((r) => sizeOfBytes(r.cache || 0)).join(', ')} read into the WiredTiger cache (${rows.map((r) => (r.share === null ? '?' : pct(r.share))).join(', ')})${roomBeside(rec, ps)}${faults}`;
  if (rows.every((r) => r.share !== null && r.share >= DISK_SHARE))
    return { ok: true, here: `${said}: every pass >= ${pct(DISK_SHARE)}, RAM short (as the source's)` };
  return refuse(
    `${said}: a pass under ${pct(DISK_SHARE)}: its re-reads came mostly from the OS page cache, RAM was not short`,
  );
}

/** A rule whose decided bands are printed in the claim's own words (the generated ones would misname them). */
function ownBands(text, inner) {
  const fn = (records, env, params) => inner(records, env, params);
  fn.bands = text;
  return fn;
}

/** The cold passes were cold, and warming data and indexes pushed the working set out (the source's swapping). */
const PAST_CACHE = stateCheck(
  'data + indexes larger than the cache (>= 85 % of it)',
  pastCache,
  TO_REPRODUCE_PAST,
  allOf(
    'cold passes from an empty cache, the warm-both passes had to read the working set (documents + created_on) again, and re-read it from disk (RAM short)',
    coldIsCold,
    (run) => residency(run, 'warm-both', WORKING_SET, 'out'),
    ramShort,
  ),
);
const DATA_FITS = stateCheck(
  'the data fits in the cache',
  dataFits,
  TO_REPRODUCE_FITS,
  allOf(
    'cold passes from an empty cache, and the warm-data passes found the documents in the cache',
    coldIsCold,
    (run) => residency(run, 'warm-data', ['data'], 'in'),
  ),
);
const WS_FITS = stateCheck(
  'the data fits in the cache',
  dataFits,
  TO_REPRODUCE_FITS,
  allOf('the passes after the year preload found the working set (documents + created_on) in the cache', (run) => {
    const e = residency(run, 'warm-year', WORKING_SET, 'in');
    return e.ok || e.absent === 'no-evidence' ? e : { ...e, reproduce: TO_REPRODUCE_WS };
  }),
);

function scale(records, env) {
  const { run } = chooseRun(records, env, (r) => dataFits(r) || pastCache(r));
  if (!run || !run.events) return null;
  return run.events < MIN_EVENTS
    ? `${lab.fmtInt(run.events)} events here; the states need at least ${lab.fmtInt(MIN_EVENTS)} (the source had ${lab.fmtInt(SOURCE_EVENTS)}): timeseries --profile seed`
    : null;
}

function stateRec(run, state, grain = 'hours') {
  return run.recs.find((r) => r.axis.state === state && r.axis.grain === grain);
}

/**
 * time(a)/time(b) over passes: pass k of one state against pass k of the other (the states run in
 * turn within a pass), from the passes' means of T1..T5. A record of one pass (before passes were
 * kept) gives the figure and no interval: the five intervals of one pass are one cache state.
 */
function overPasses(a, b) {
  if (!passesOf(a) || !passesOf(b))
    return {
      mid: a.mean / b.mean,
      lo: null,
      hi: null,
      n: 1,
      undecided:
        'one pass per state in these records: an interval needs at least 3 passes of each state (--set PASSES=3), not the five intervals of one pass',
    };
  const n = Math.min(a.times.length, b.times.length);
  const iv = pairedTimes(a.times.slice(0, n), b.times.slice(0, n));
  return n < MIN_ROUNDS
    ? { ...iv, undecided: `${n} pass(es) per state: an interval needs at least ${MIN_ROUNDS} (--set PASSES=3)` }
    : iv;
}

/** Per-pass ratios, for the note. */
function perPass(a, b) {
  const n = Math.min(a.times.length, b.times.length);
  return a.times.slice(0, n).map((t, i) => t / b.times[i]);
}

/** time(slow state)/time(fast state), hours grain, over passes, in the chosen run. */
function states(slow, fast, ok) {
  return (records, env) => {
    const { run } = chooseRun(records, env, ok);
    if (!run) return { iv: null, missing: 'no run in the needed setting' };
    const a = stateRec(run, slow);
    const b = stateRec(run, fast);
    if (!a || !b) return { iv: null, missing: `the hours grain was not measured in ${slow} and ${fast}` };
    const am = stateRec(run, slow, 'minutes');
    const bm = stateRec(run, fast, 'minutes');
    return {
      iv: overPasses(a, b),
      note: `${passesOf(a) ? `per pass: ${perPass(a, b).map(fx).join(', ')}` : `one pass, per interval T1..T5: ${perPass({ times: a.times }, { times: b.times }).map(fx).join(', ')}`}; minutes grain ${am && bm ? fx(am.mean / bm.mean) : '?'}; ${describe(run)}`,
    };
  };
}

/**
 * time(warm-data)/time(after the year preload), hours grain, over passes, in the chosen run. The
 * source's "best results so far" followed its touch-data state, so the comparator is the lab's data
 * warm-up (its analogue), never the fastest of several states (a minimum of noisy states biases the
 * ratio down, and warm-no-id holds the very working set the year aggregation loads); the other warm
 * states are shown beside.
 */
function preload(records, env) {
  const { run } = chooseRun(records, env, dataFits);
  if (!run) return { iv: null, missing: 'no run in the needed setting' };
  const year = stateRec(run, 'warm-year');
  const data = stateRec(run, 'warm-data');
  if (!year || !data) return { iv: null, missing: 'the warm-data and warm-year states were not both measured' };
  const beside = ['warm-both', 'warm-indexes', 'warm-no-id']
    .map((st) => stateRec(run, st))
    .filter(Boolean)
    .map((r) => `${r.axis.state} ${fx(r.mean / year.mean)}`);
  return {
    iv: overPasses(data, year),
    note: `against warm-data${passesOf(data) && passesOf(year) ? `, per pass ${perPass(data, year).map(fx).join(', ')}` : ''}${beside.length ? `; beside (not judged): ${beside.join(', ')}` : ''}; the lab ran the year preload from a restart; ${describe(run)}`,
  };
}

function largestRawSizes(records) {
  const evs = records.filter((r) => r.type === 'measure' && r.name === 'events');
  if (!evs.length) return null;
  const ev = evs.reduce((a, b) => (b.value > a.value ? b : a));
  const key = ev.axis.cache || 'default';
  const m = (name, variant) =>
    records.find(
      (r) => r.type === 'measure' && r.name === name && r.variant === variant && (r.axis.cache || 'default') === key,
    );
  return { events: ev.value, m };
}

/** The warm-up times of a state in the warm-up run, one per pass. */
function warmups(records, env, state) {
  const run = warmupRun(records, env);
  return records
    .filter((r) => r.type === 'measure' && r.name === 'warmupMs' && r.axis.state === state && inRun(run)(r))
    .map((r) => r.value);
}

/** time(warm-up of `slow`)/time(warm-up of `fast`): one per pass, an unpaired interval (3 of each at least). */
function warmupRatio(slow, fast) {
  return (records, env) => {
    const a = warmups(records, env, slow);
    const b = warmups(records, env, fast);
    if (!a.length || !b.length) return { iv: null, missing: `no ${slow} and ${fast} warm-up times in these records` };
    const iv = unpairedInterval(a, b);
    return {
      iv,
      figure: `${fx(iv.mid)}${iv.lo === null ? '' : ` (95% CI ${fx(iv.lo)} to ${fx(iv.hi)})`}: ${lab.fmtMs(lab.median(a))} against ${lab.fmtMs(lab.median(b))}, ${a.length} and ${b.length} warm-ups`,
    };
  };
}

/**
 * Whether the warm-both warm-ups' index scans were covered (read-3 dispute 20): keys only, no FETCH,
 * from the plans of their steps (states.js keeps them). An uncovered index scan re-reads every
 * document, so the warm-both/warm-data ratio would time the data twice, not the indexes. Null
 * without warm-both warm-ups.
 */
function indexWarmupCoverage(records, env) {
  const run = warmupRun(records, env);
  const ws = records.filter(
    (r) => r.type === 'measure' && r.name === 'warmupMs' && r.axis.state === 'warm-both' && inRun(run)(r),
  );
  if (!ws.length) return null;
  const steps = ws.flatMap((r) => (r.extra && r.extra.steps) || []).filter((x) => /^index /.test(x.what || ''));
  if (!steps.length || steps.some((x) => !x.plan || !Array.isArray(x.plan.stages)))
    return "index warm-ups' coverage not in these records (no plans of the warm-up steps): each is a hinted $match {key: {$gte: MinKey}} + $count, which needs no document (6.0.5 plans it COUNT_SCAN with no FETCH); the same command again records the plans";
  const fetched = steps.filter((x) => x.plan.stages.includes('FETCH'));
  const stages = [...new Set(steps.map((x) => x.plan.stage))].join(', ');
  if (fetched.length)
    return `${fetched.length} of ${steps.length} index warm-up scans fetched documents (FETCH in the plan): the ratio re-reads the data, it is not the indexes' cost`;
  return `index warm-ups covered: ${steps.length} index scans read keys only (${stages}, no FETCH)`;
}

/** warm-both/warm-data warm-ups, with the index scans' coverage in the figure. */
function indexWarmupRatio(records, env) {
  const m = warmupRatio('warm-both', 'warm-data')(records, env);
  const cover = indexWarmupCoverage(records, env);
  return m.figure && cover ? { ...m, figure: `${m.figure}; ${cover}` } : m;
}

/**
 * 003-id-index-unneeded: warming every index (warm-both) against warming the data and created_on_1
 * only (warm-no-id), judged only where data + indexes nearly fill the cache and the records show
 * the warm-both passes had to read their working set again, as in the source.
 */
function idIndexRule() {
  const gate = stateCheck(
    'data + indexes larger than the cache (>= 85 % of it)',
    pastCache,
    'npx mongo-perf-lab run timeseries --docs 5000000 --set STATES_CACHE=source (--profile seed does it at 50,000,000 events)',
    allOf(
      'the warm-both passes had to read the working set (documents + created_on) again, from disk (RAM short)',
      (run) => residency(run, 'warm-both', WORKING_SET, 'out'),
      ramShort,
    ),
  );
  return rule({
    holds: [1.1, Infinity],
    more: MORE,
    setting: gate,
    scale,
    interval: states('warm-both', 'warm-no-id', pastCache),
  });
}

const TOUCH_GONE = {
  why: 'touch (MMAPv1 only: it asked the OS to page the mapped data and index files in) was removed in 4.2 with MMAPv1; WiredTiger keeps its own cache of uncompressed pages, filled only by reads through it, so the lab warms up by a collection scan and index scans instead, and whether warming hurts depends on whether data + indexes fit that cache',
  ref: 'https://www.mongodb.com/docs/v4.4/release-notes/4.2-compatibility/',
};

/** The server's engine, and the warm-ups' own record of touch refused, when either says touch is gone. */
function touchGoneHere(records, env) {
  const engine = env && env.server && env.server.storageEngine;
  const refused = records.find(
    (r) => r.type === 'measure' && r.name === 'warmupMs' && /touch: CommandNotFound/.test(r.what || ''),
  );
  if (refused) return `${engine || 'this server'}: ${refused.what.replace(/^warm-up: /, '')}`;
  return engine && engine !== 'mmapv1' ? `storage engine ${engine}` : null;
}

/**
 * A claim whose comparator is touch itself (a warm-up's cost against touch's): gone where touch is
 * gone. The lab's warm-ups are scans through the WiredTiger cache, a different operation from
 * touch's page-in of mapped files, so their ratio is shown beside and never read as a change; on a
 * server with touch (MMAPv1) `measured` judges.
 */
function touchGoneOr(measured) {
  return (records, env, params) => {
    const gone = touchGoneHere(records, env);
    if (!gone) return measured(records, env, params);
    const m = measured(records, env, params);
    return {
      verdict: VERDICT.GONE,
      figure: m.figure || null,
      interval: null,
      setting: { needed: 'a server with touch (MMAPv1)', here: gone, ok: true },
      why: `touch is gone (${gone}); the lab's warm-ups scan through the WiredTiger cache, a different operation, so their ratio is shown, not judged${m.figure ? `: ${m.figure}` : ''}`,
    };
  };
}

/**
 * The source's writer, proven by the records: its documents' _id was an ObjectId (12 B); the lab's
 * generator writes an int32 (4 B), a changed writer, 8 B less per document. A measure `idType`
 * ('objectId') says the run wrote the source's _id; without it the size is not like for like
 * (read-2 dispute 2: the band must not be widened to take in the lab's writer).
 */
const SOURCE_WRITER = {
  needed: "the source's documents: {_id: ObjectId, created_on: Date, value: double}, 57 B of BSON",
  check: (records) => {
    const id = records.find((r) => r.type === 'measure' && r.name === 'idType');
    if (id && id.value === 'objectId') return { here: 'ObjectId _ids, as the source', ok: true };
    return {
      here: `the lab's events carry ${id ? `${id.value}` : 'an int32 (the generator)'} _id, not the source's ObjectId: 8 B less per document, a changed writer, not a change in MongoDB`,
      ok: false,
      absent: 'writer',
      reproduce:
        "events written with the source's ObjectId _ids (--set ID=objectId; the quick and seed profiles set it), the run recording idType from the data: npx mongo-perf-lab run timeseries --profile seed",
    };
  },
};

/** Which _id the run's events carried, as its idType measure says (for the notes beside a size). */
function idWords(records) {
  const id = records.find((r) => r.type === 'measure' && r.name === 'idType');
  if (id && id.value === 'objectId') return "ObjectId _ids, as the source's";
  return `the lab's ${id ? id.value : 'int32'} _id against the source's ObjectId: not like for like`;
}

// The source's printed document {_id: ObjectId, created_on: Date, value: double} in BSON: 4 (length)
// + 17 (_id) + 20 (created_on) + 15 (value) + 1 (terminator) = 57 B.
const SOURCE_BSON = 57;
// 2.4's dataSize per event: 3,200,000,032 / 50,000,000.
const SOURCE_DATA = 64;

/** The documents' bytes per event at the largest scale measured (dataSize / events), or null. */
function dataPerEvent(records) {
  const s = largestRawSizes(records);
  const x = s && s.m('dataSize', 'raw');
  return x ? { per: x.value / s.events, events: s.events } : null;
}

const engineOf = (env) => (env && env.server && env.server.storageEngine) || null;

/**
 * The source's writer proven by the bytes (read-3 dispute 18): ObjectId _ids recorded (idType) and
 * 57.0 B per document, which the BSON spec gives only for {_id: ObjectId, created_on: Date, value:
 * double} under these names; another size with ObjectId _ids is another type or name in the other
 * fields, a changed writer too (WiredTiger's dataSize is the documents' BSON bytes).
 */
const SOURCE_DOCUMENTS = {
  needed: SOURCE_WRITER.needed,
  check: (records, env) => {
    const w = SOURCE_WRITER.check(records, env);
    if (!w.ok) return w;
    const d = dataPerEvent(records);
    if (d && Math.abs(d.per - SOURCE_BSON) < 0.05)
      return {
        here: `ObjectId _ids and ${d.per.toFixed(1)} B per document (avgObjSize): the source's documents`,
        ok: true,
      };
    return {
      here: d
        ? `ObjectId _ids, but ${d.per.toFixed(1)} B per document, not the 57 B the source's three fields take in BSON: created_on or value is not a Date and a double under those names, a changed writer`
        : "no dataSize measure: nothing proves the documents are the source's",
      ok: false,
      absent: 'writer',
      reproduce: SOURCE_WRITER.check([], env).reproduce,
    };
  },
};

/**
 * 003-bytes/data: the source's documents are 57 B of BSON on a server whose dataSize counts BSON
 * (WiredTiger): an exact check once the writer is proven, never read as a change in MongoDB (a
 * different size is a different writer). MMAPv1's dataSize counts allocation: not measured there.
 */
function bsonBytes() {
  const inner = rule({
    holds: [(SOURCE_BSON - 0.05) / SOURCE_BSON, (SOURCE_BSON + 0.05) / SOURCE_BSON],
    kind: KIND.PARITY,
    setting: SOURCE_DOCUMENTS,
    interval: (records) => {
      const d = dataPerEvent(records);
      if (!d) return { iv: null, missing: 'no storage measures in these results' };
      return {
        iv: exact(d.per / SOURCE_BSON),
        figure: `${d.per.toFixed(1)} B of documents per event against the source's document's ${SOURCE_BSON} B of BSON (${fx(d.per / SOURCE_BSON)}; ${fx(d.per / SOURCE_DATA)} of its printed 64 B of dataSize)`,
        note: `at ${lab.fmtInt(d.events)} events; WiredTiger's dataSize is the documents' BSON bytes`,
      };
    },
  });
  return ownBands(
    "holds by construction, not a finding about the server: the gate proves the writer by these same 57.0 B per document (with ObjectId _ids recorded), and WiredTiger's dataSize is the documents' BSON bytes, so no other outcome can be read; any other size is another writer (not reproduced), never a change in MongoDB",
    (records, env, params) => {
      if (engineOf(env) === 'mmapv1')
        return unmeasured({
          here: "MMAPv1's dataSize counts each record's allocation less its header, not the documents' BSON (64 B for the source's 57 B documents: 003-bytes/allocation)",
          measure:
            'the same documents on a WiredTiger server (dataSize counts BSON bytes): npx mongo-perf-lab run timeseries --profile seed',
        })();
      const v = inner(records, env, params);
      if (v.verdict !== VERDICT.HOLDS) return v;
      // col-2 read: the gate and the check read the same 57.0 B, so the verdict cannot say "the
      // interval lies inside the band": it is the BSON spec's arithmetic for the source's writer
      const d = dataPerEvent(records);
      return {
        ...v,
        why: `holds by construction (not a finding about the server): the gate proves the source's writer by these same ${d.per.toFixed(1)} B per document, and WiredTiger's dataSize is the documents' BSON bytes, so no other size could be read here; at ${lab.fmtInt(d.events)} events; the source's 64 B counted 2.4's allocation as well (003-bytes/allocation)`,
      };
    },
  );
}

/**
 * 003-bytes/allocation: the 7 B per event 2.4's dataSize counted beyond the BSON (64 - 57). Gone on a
 * server without MMAPv1 (its storage engine recorded): WiredTiger's dataSize counts BSON only, the
 * lab's bytes per event beside. On MMAPv1, with the source's documents: (dataSize per event - 57 B) /
 * 7 B, parity [0.8x, 1.25x].
 */
function allocationBytes() {
  const onMmap = rule({
    holds: [0.8, 1.25],
    kind: KIND.PARITY,
    setting: SOURCE_WRITER,
    interval: (records) => {
      const d = dataPerEvent(records);
      if (!d) return { iv: null, missing: 'no storage measures in these results' };
      const extra = d.per - SOURCE_BSON;
      return {
        iv: exact(extra / (SOURCE_DATA - SOURCE_BSON)),
        figure: `${extra.toFixed(1)} B per event of allocation beyond the ${SOURCE_BSON} B of BSON (dataSize ${d.per.toFixed(1)} B) against the source's ${SOURCE_DATA - SOURCE_BSON} B`,
      };
    },
  });
  return (records, env, params) => {
    const engine = engineOf(env);
    if (engine === 'mmapv1') return onMmap(records, env, params);
    if (!engine)
      return unmeasured({
        here: 'no storage engine in these records',
        measure: 'npx mongo-perf-lab run timeseries (the result file records the storage engine)',
      })();
    const d = dataPerEvent(records);
    const beside = d
      ? `dataSize ${d.per.toFixed(1)} B per event here (${idWords(records)}): the BSON bytes, no allocation`
      : null;
    return {
      verdict: VERDICT.GONE,
      figure: beside || `storage engine ${engine}`,
      interval: null,
      setting: { needed: 'a server with MMAPv1', here: `storage engine ${engine}`, ok: true },
      why: `MMAPv1's record allocation is gone (storage engine ${engine}): dataSize counts the documents' BSON bytes, so the source's 7 B per event (64 - 57) has no counterpart${beside ? `; ${beside}` : ''}`,
    };
  };
}

// The source's created_on_1: 1,257,869,424 B / 50,000,000 = 25.2 B per event (a Date key, as the lab's).
const SOURCE_CREATED_ON = 25.2;

// Where the created_on_1 bytes come from: collStats indexSizes, the index file's bytes on disk
// (free space the file keeps for reuse included), never the bytes it takes in the cache.
const INDEX_BYTES_SOURCE =
  "collStats indexSizes: the index file's bytes on disk, reusable space included, not its bytes in the cache";
// The two build orders are judged on bytes in use, the file less the blocks it keeps for reuse, as the
// study's other sizes are (ts_base.js): WiredTiger writes changed pages to new blocks at each
// checkpoint, so an index grown by inserts keeps as much free space as the checkpoints that fell
// during its load left behind, a matter of timing (10,000 events with checkpoints forced during the
// inserts: 24-26 B an event in the file, 13.1 B in use every time), not of the keys' packing.
const IN_USE_BYTES_SOURCE =
  "collStats indexSizes less the file's reusable blocks: the bytes in use on disk, not its bytes in the cache";
const BOTH_BUILDS =
  "a run that builds created_on_1 both ways on the same events, before the load (grown by inserts) and after it (in bulk), and records both file sizes (measure createdOnBytes with extra.built 'before-load' and 'after-load': the study's after step records them on min(N, 1,000,000) events, lib/studies/timeseries/index-orders.js; result files from before 2026-11-29 have neither): npx mongo-perf-lab run timeseries";

/** created_on_1's bytes in use (the file less its reusable blocks, when recorded). */
function inUseBytes(m) {
  const reusable = Number(m.extra.reusableBytes);
  return Number.isFinite(reusable) && reusable >= 0 && reusable <= m.value ? m.value - reusable : m.value;
}

/**
 * created_on_1's bytes per event in use by build order, from createdOnBytes measures: {before,
 * after, events, fileBefore, fileAfter} (the file's own bytes per event beside) or null.
 */
function bothBuilds(records) {
  const ms = records.filter((r) => r.type === 'measure' && r.name === 'createdOnBytes' && r.extra);
  const of = (built) => ms.find((r) => r.extra.built === built);
  const b = of('before-load');
  const a = of('after-load');
  const events = (x) => x.extra.events || (largestRawSizes(records) || {}).events;
  if (!b || !a || !events(b) || !events(a)) return null;
  return {
    before: inUseBytes(b) / events(b),
    after: inUseBytes(a) / events(a),
    fileBefore: b.value / events(b),
    fileAfter: a.value / events(a),
    events: events(a),
    from: a.extra.from || null,
  };
}

/**
 * The pair's scale in words (col-2 read): the side collections hold the first events in record
 * order, and the generator draws created_on uniformly over the year (fixtures/gen.js timeEvent), so
 * they are a sample of the year whose keys lie further apart than the whole collection's; the whole
 * collection's own created_on_1 (built after the load, its file, from the state passes) is quoted
 * beside when the records have it at another scale.
 */
function pairScale(both, records, env) {
  const whole = residencyIndexSize(records, env);
  const sample = both.from
    ? `; the pair: ${both.from}, a sample of the year (created_on drawn uniformly over it), so its keys lie further apart than a larger collection's`
    : '';
  const other = whole && whole.events !== both.events;
  const beside = other
    ? `; beside, the ${lab.fmtInt(whole.events)}-event collection's own created_on_1, built after the load: ${whole.per.toFixed(1)} B per event in its file (${fx(whole.per / SOURCE_CREATED_ON)}; ${INDEX_BYTES_SOURCE})`
    : '';
  const besideShort = other
    ? `; the ${lab.fmtInt(whole.events)}-event collection's own created_on_1 file beside: ${whole.per.toFixed(1)} B per event (${fx(whole.per / SOURCE_CREATED_ON)})`
    : '';
  return { sample, beside, besideShort };
}

/** The created_on_1 size the state passes' residency carries at the largest run: {per, id, events} or null. */
function residencyIndexSize(records, env) {
  const { runs } = chooseRun(records, env, () => true);
  const sized = runs
    .map((run) => {
      const rec = run.recs.find((r) => passesOf(r));
      const ix = rec && passesOf(rec)[0].residency.before.indexes;
      return ix && ix.created_on_1 && ix.created_on_1.size && run.events ? { run, ix } : null;
    })
    .filter(Boolean)
    .sort((a, b) => b.run.events - a.run.events)[0];
  if (!sized) return null;
  return {
    per: sized.ix.created_on_1.size / sized.run.events,
    id: sized.ix._id_ && sized.ix._id_.size ? sized.ix._id_.size / sized.run.events : null,
    events: sized.run.events,
  };
}

/** 003-bytes/index's interval from both build orders: the pair's range, its scale and sample named. */
function pairInterval(both, records, env) {
  const [lo, hi] = [both.before, both.after].sort((x, y) => x - y);
  const { sample, beside, besideShort } = pairScale(both, records, env);
  return {
    iv: {
      mid: (lo + hi) / 2 / SOURCE_CREATED_ON,
      lo: lo / SOURCE_CREATED_ON,
      hi: hi / SOURCE_CREATED_ON,
      n: 2,
      exact: true,
    },
    figure: `at ${lab.fmtInt(both.events)} events, both build orders: created_on_1 ${both.before.toFixed(1)} B per event grown by inserts, ${both.after.toFixed(1)} B built after the load, against the source's ${SOURCE_CREATED_ON} B (${fx(both.before / SOURCE_CREATED_ON)}, ${fx(both.after / SOURCE_CREATED_ON)}; ${IN_USE_BYTES_SOURCE})${beside}`,
    note: `at ${lab.fmtInt(both.events)} events, both build orders (the files ${both.fileBefore.toFixed(1)} and ${both.fileAfter.toFixed(1)} B per event with their reusable blocks)${sample}${besideShort}`,
  };
}

/**
 * 003-bytes/index (read-3 dispute 19): the created_on index alone (a Date key in both, unlike _id_:
 * an ObjectId at the source, an int32 in the lab's default events) against the source's 25.2 B per
 * event, from its file bytes (INDEX_BYTES_SOURCE). Built both ways on the same events (grown by
 * inserts, and in bulk after the load): inside the band holds, above fails, both below is gone (the
 * MMAPv1 B-tree's size is the engine's, whatever the build order). Built one way only: holds or fails
 * as that size says, but below the band it is not reproduced (the build order could make it: the
 * source does not say when it built its index). A file with only both indexes' total: inconclusive.
 */
function createdOnBytes() {
  const band = [1 / 1.5, 1.5];
  const inner = rule({
    holds: band,
    kind: KIND.PARITY,
    below: VERDICT.GONE,
    interval: (records, env) => {
      const both = bothBuilds(records);
      if (both) return pairInterval(both, records, env);
      const one = residencyIndexSize(records, env);
      if (one)
        return {
          iv: exact(one.per / SOURCE_CREATED_ON),
          figure: `created_on_1 ${one.per.toFixed(1)} B per event against the source's ${SOURCE_CREATED_ON} B (${fx(one.per / SOURCE_CREATED_ON)}; ${INDEX_BYTES_SOURCE})`,
          note: `at ${lab.fmtInt(one.events)} events${one.id === null ? '' : `; _id_ beside ${one.id.toFixed(1)} B (${idWords(records)}: shown, not judged)`}; the lab builds created_on_1 after loading`,
        };
      const s = largestRawSizes(records);
      const x = s && s.m('indexSize', 'raw');
      if (!x) return { iv: null, missing: 'no storage measures in these results' };
      const total = x.value / s.events;
      return {
        iv: null,
        figure: `both indexes ${total.toFixed(1)} B per event (created_on_1 is at most that) against the source's created_on_1 ${SOURCE_CREATED_ON} B`,
        missing: `these records give only both indexes' total (${total.toFixed(1)} B per event, with the run's own _id_ and a created_on_1 built after loading): created_on_1 alone needs its own size, which the state passes record (timeseries with its states, any run from now on)`,
      };
    },
  });
  return ownBands(
    'holds inside [0.67x, 1.5x]; fails above (larger now); below: gone when both build orders are below, else not reproduced (one build order: the order could make it)',
    (records, env, params) => {
      const v = inner(records, env, params);
      if (v.verdict !== VERDICT.GONE || bothBuilds(records)) return v;
      const here = `created_on_1 was built one way only (after the load): below the band, the build order could make it, not the engine (${v.figure})`;
      return {
        ...v,
        verdict: VERDICT.NOT_REPRODUCED,
        setting: {
          needed: 'created_on_1 built both ways (grown by inserts, and in bulk after the load)',
          here,
          ok: false,
          absent: 'build-order',
        },
        why: `not reproduced here: ${here}; to reproduce: ${BOTH_BUILDS}`,
      };
    },
  );
}

const BYTES_BASE = {
  id: '003-bytes',
  claim: 'an event takes ~64 B of data (88 B of data extents on disk) and ~54 B of index: ~143 B in all (MMAPv1)',
  published: '64 B + 54 B (143 B in all)',
  quote:
    '"> db.randomData.dataSize() 3200000032 > db.randomData.totalIndexSize() 2717890448 > db.randomData.totalSize() 7133702032" and "The data size is around 3GB, while the total size is almost 7GB."',
  derivation:
    "dataSize 3,200,000,032 / 50,000,000 = 64.0 B; totalIndexSize 2,717,890,448 / 50,000,000 = 54.4 B (_id_ 29.2 B + created_on_1 25.2 B); totalSize 7,133,702,032 / 50,000,000 = 142.7 B, so storageSize (totalSize - totalIndexSize in 2.4) 4,415,811,584 B = 88.3 B: 24.3 B per event of record headers and extent space beyond dataSize, MMAPv1's, gone with it (the lab's storageSize is WiredTiger's compressed bytes, in 003-compressed-model)",
  setting: SETTING,
};

// Why an IXSCAN on the raw collection is created_on_1 and every plan fetches (read-2 dispute 7: the
// reasoning sat in the boundary, with no reference).
const PLAN_MECHANISM = {
  why: "the raw collection has two indexes, _id_ and created_on_1, and the pipelines' $match bounds created_on alone: the planner builds candidate plans only from indexes on the predicate's (or the sort's) fields, so an IXSCAN in the winning plan is created_on_1 and _id_ is never read; the $group reads `value`, which no index holds, so no plan is covered and each one fetches every document it matched (IXSCAN then FETCH)",
  ref: 'https://www.mongodb.com/docs/manual/core/query-plans/',
};

// The compact designs that keep every event (a rollup keeps only per-period sums).
const LOSSLESS = ['bucket', 'timeseries'];

const ID_INDEX_BASE = {
  id: '003-id-index-unneeded',
  claim: 'the _id index is not needed for this workload',
  quote:
    '"We don\'t need the _id index at all, and for our specific use-case, loading it is actually hindering performance."',
  setting: SETTING,
};

/**
 * The share of the raw design's timed pipelines whose winning plan reads an index. The raw
 * collection has two indexes, _id_ and created_on_1, and the pipelines' $match bounds created_on
 * only: the planner considers only indexes on the predicate's (or the sort's) fields, so an IXSCAN
 * is created_on_1, and the $group reads `value`, which no index holds, so every plan fetches.
 */
function planShareRule() {
  return rule({
    holds: [1, 1],
    floor: 0,
    tie: [0, 0],
    kind: KIND.PARITY,
    below: VERDICT.INCONCLUSIVE,
    fmt: pct,
    interval: (records) => {
      const rs = results(records).filter((r) => r.variant === 'raw' && r.plan && r.plan.stage);
      if (!rs.length) return { iv: null, missing: 'no plans of the raw design in these records' };
      const ix = rs.filter((r) => r.plan.stage === 'IXSCAN').length;
      const stages = [...new Set(rs.map((r) => r.plan.stage))].join(', ');
      return { iv: exact(ix / rs.length), figure: `${ix} of ${rs.length} raw pipelines read the index (${stages})` };
    },
  });
}

/**
 * 003-id-index-unneeded/unused (read-3 dispute 17): the claim is "the workload never reads _id_", so
 * the count is of the raw design's winning plans whose index scans name _id_ (explain's indexName,
 * which the plan summaries keep as `indexes`; IDHACK reads _id_ by definition), not of plans with an
 * IXSCAN: a collection scan reads no _id_ either. Holds at 0; fails above (the one-sided claim does
 * not hold). A plan that scans an index it does not name (records from before the summaries kept
 * the names) could be either: with any such plan and none naming _id_ the rule does not decide.
 */
function idUnusedRule() {
  const readsIndex = (stage) => /IXSCAN|COUNT_SCAN|IDHACK|DISTINCT_SCAN|EXPRESS/.test(stage || '');
  return ownBands(
    'holds when no winning plan of the raw design names _id_ (0 %); fails when any does; plans that scan an index without naming it leave it undecided',
    rule({
      holds: [0, 0],
      floor: 0,
      tie: [0, 0],
      kind: KIND.ONE_SIDED,
      above: VERDICT.FAILS,
      fmt: pct,
      interval: (records) => {
        const rs = results(records).filter((r) => r.variant === 'raw' && r.plan && r.plan.stage);
        if (!rs.length) return { iv: null, missing: 'no plans of the raw design in these records' };
        const named = (r) => Array.isArray(r.plan.indexes) && r.plan.indexes.length > 0;
        const onId = rs.filter((r) => (named(r) && r.plan.indexes.includes('_id_')) || /IDHACK/.test(r.plan.stage));
        const unnamed = rs.filter((r) => !named(r) && readsIndex(r.plan.stage) && !/IDHACK/.test(r.plan.stage));
        const indexes = [...new Set(rs.flatMap((r) => (named(r) ? r.plan.indexes : [])))];
        const stages = [...new Set(rs.map((r) => r.plan.stage))].join(', ');
        const figure = `${onId.length} of ${rs.length} raw winning plans read _id_ (${stages}${indexes.length ? `; indexes named: ${indexes.join(', ')}` : ''})`;
        if (!onId.length && unnamed.length)
          return {
            iv: null,
            figure,
            missing: `${unnamed.length} of ${rs.length} raw plans scan an index the records do not name (${stages}: result files from before the plan summaries kept explain's indexName): nothing shows which index they read; to reproduce: npx mongo-perf-lab run timeseries --profile quick (every plan now names its indexes)`,
          };
        return { iv: exact(onId.length / rs.length), figure };
      },
    }),
  );
}

/**
 * What the records say of the OS page cache around the cold passes (col-2 read): a restart empties
 * the WiredTiger cache, not the operating system's, so "cold" is cold for mongod; the machine's RAM
 * against the files' bytes, and each pass's disk reads, say how warm memory was.
 */
function osPageCache(ps, env) {
  const b = ps[0].residency.before;
  const ix = Object.values(b.indexes || {}).reduce((t, x) => t + (x.size || 0), 0);
  const files = b.data && typeof b.data.storageSize === 'number' ? b.data.storageSize + ix : null;
  const mem = env && env.host && env.host.memoryGB;
  const disk = ps.map((p) => p.diskReadBytes).filter((x) => typeof x === 'number');
  const ram = mem && files ? ` (${mem} GB of RAM against ${sizeOf(files)} of data and index files)` : '';
  const reads = disk.length
    ? `; the cold passes read ${sizeOfBytes(Math.min(...disk))} to ${sizeOfBytes(Math.max(...disk))} from disk`
    : '';
  return `the operating system's page cache is not recorded and a restart does not empty it${ram}${reads}: cold for mongod, not for memory, as the source's Windows file cache most likely was`;
}

/**
 * 003-restart-cold: the share of the documents or created_on in the WiredTiger cache before each
 * cold pass; the OS page cache beside, never judged (the records cannot see it).
 */
function restartCold() {
  const inner = rule({
    holds: [0, COLD_SHARE],
    // a share with no direction (col-2 read): never REVERSED; below 0 cannot happen
    kind: KIND.ONE_SIDED,
    setting: {
      needed: 'cold passes with their cache residency before each',
      check: (records, env) => {
        const { runs } = chooseRun(records, env, () => true);
        const n = runs.filter((run) => passesOf(stateRec(run, 'cold'))).length;
        if (n) return { here: `${n} run(s) of cold passes with their residency`, ok: true };
        return {
          here: runs.length
            ? 'the cold records carry no cache residency per pass (a result file from before it was recorded): nothing shows what a restart left in the cache'
            : 'no cold passes in these records (they need a server the lab started)',
          ok: false,
          absent: 'no-evidence',
          reproduce:
            'npx mongo-perf-lab run timeseries --profile quick (every pass records the residency before and after it)',
        };
      },
    },
    floor: 0,
    // more than that cached: the lab's restart did not give the source's cold state
    above: VERDICT.NOT_REPRODUCED,
    fmt: pct,
    interval: (records, env) => {
      const { runs } = chooseRun(records, env, () => true);
      const ps = runs.flatMap((run) => passesOf(stateRec(run, 'cold')) || []);
      if (!ps.length) return { iv: null, missing: 'no cold passes with their cache residency in these records' };
      const shares = ps.flatMap((p) =>
        WORKING_SET.map((part) => partOf(p.residency.before, part)).map((x) => (x && x.size ? x.cached / x.size : 1)),
      );
      const worst = Math.max(...shares);
      return {
        iv: exact(worst),
        figure: `at most ${pct(worst)} of the documents or created_on in the WiredTiger cache before ${ps.length} cold pass(es)`,
        note: osPageCache(ps, env),
      };
    },
  });
  return ownBands(
    `holds when at most ${pct(COLD_SHARE)} of the documents or of created_on is in the WiredTiger cache before every cold pass; not reproduced above (the restart did not empty the WiredTiger cache); the operating system's page cache is not recorded and not judged`,
    (records, env, params) => {
      const v = inner(records, env, params);
      if (v.verdict !== VERDICT.HOLDS) return v;
      const { note } = v;
      return {
        ...v,
        why: `holds for the WiredTiger cache (at most ${pct(COLD_SHARE)} of the documents or created_on in it before every cold pass)${note ? `; ${note}` : ''}`,
      };
    },
  );
}

module.exports = [
  {
    id: '003-touch-both',
    claim:
      'warming data and indexes past memory makes the queries ~4x slower than cold (the means, touch, is 003-touch-command: gone)',
    published: '4.1x',
    quote:
      '"If I choose to preload all data and indexes I\'m going to hit the 8GB RAM limit of the current workstation ... This will cause swapping and performance will drop." and "The performance dropped drastically"',
    derivation:
      'hours grain: 5.385 s / 1.3132 s = 4.10x (per timestamp 3.2-5.0x); minutes 0.355/0.088 = 4.03x. Not the seconds grain: its rows (0.016, 0, 0.015, 0.01, 0.016) average 0.0114 s (the printed 0.009 s is a slip), against cold\'s 0.016 s, and both are 0 to 1 tick of the ~15.6 ms timer: the claim is judged on hours. The lab\'s earlier "4-6x" is not in the source. touch itself is gone (4.2; never on WiredTiger): the lab warms by scans',
    setting: `${SETTING}. The lab's memory that overflows is the WiredTiger cache (sized to the source's 7.13/8 ratio by STATES_CACHE=source); pages it evicts are re-read from the OS page cache, not from disk (the machine's RAM is not exhausted): the lab's cost of overflowing is decompression and copying, the source's was re-reading mapped files`,
    boundary:
      "gates: data + indexes >= 85 % of the cache; every cold pass started from an empty cache (documents and created_on <= 1 % cached); every warm-both pass read >= 25 % of what a cold pass read of the documents + created_on (the working set pushed out of the cache); every warm-both pass re-read from disk: the mongod's disk reads (/proc/<pid>/io read_bytes) at least 25 % of the bytes the pass read into the WiredTiger cache (RAM short, as the source's 7.13 GB in 8 GB; a cache overflow served from the OS page cache is not the source's setting; disk bytes are compressed, so a pass read wholly from disk shows about storageSize/dataSize, ~47 %; major faults are shown, never evidence: WiredTiger reads its files with pread); with RAM_MB the limit and the page cache left beside mongod (limit - its resident memory) against the data + index files are shown; else not reproduced, the refusal naming the gate (absent: ram). Then time(warm data+indexes) / time(cold), hours grain, over >= 3 passes: holds inside [1.37x, 12.3x]; weaker [1.25x, 1.37x); no effect inside [0.8x, 1.25x] (the core's default band); reversed below",
    mechanism: {
      why: "MMAPv1 mapped its files: touch {data, index} paged 7.13 GB of extents and indexes into 8 GB of RAM, and the OS then dropped mapped pages (not swap: mapped file pages are re-read from their files) that the day queries needed. The 4.1x against cold also says the source's cold baseline was warm in the OS: the 2.72 GB of indexes took 1.87 s beyond the data's 14.0 s (about 1.45 GB/s), faster than a 2013 disk, and a mongod restart unmaps its files without emptying the Windows file cache. touch went with MMAPv1 in 4.2; WiredTiger evicts from its own cache and re-reads from the OS cache or disk",
      ref: 'https://www.mongodb.com/docs/v3.0/core/mmapv1/',
    },
    verdict: rule({
      holds: [1.37, 12.3],
      more: MORE,
      setting: PAST_CACHE,
      scale,
      interval: states('warm-both', 'cold', pastCache),
    }),
  },
  {
    id: '003-touch-data',
    claim: 'warming the data only (touch {data}) makes the queries ~25% faster than cold',
    published: '1.32x (24 % less time), hours grain',
    quote:
      '"Because the data size fits entirely in RAM, we can choose to only preload data, leaving the indexes away." and "This is better as we can see improvements for all three time- interval queries."',
    derivation:
      "hours grain: 1.3132 s / 0.9922 s = 1.32x, i.e. 24.4 % less time. Per timestamp 1.75, 1.41, 1.16, 1.15, 1.13x: a 95 % t-interval over the five of [1.03x, 1.64x], across the band's 1.1x edge, so the source's own figures cannot show the claimed band (the same rule as 002-dups-vs-n: the spread between the source's own cells decides, and the replay feeds the five timestamps as passes). \"All three\" is not in the figures beyond the timer: seconds 0.016 s against 0.0032 s (one tick against a fifth of one), minutes 0.0882/0.0468 = 1.88x with 0.047 s three ticks of ~15.6 ms (quantised)",
    setting: SETTING,
    boundary:
      "unsupported by the source's figures (its five timestamps give [1.03x, 1.64x], across 1.1x); the lab's measurement is shown beside, never read as a change. Measured: gates: the data fits in the cache; every cold pass started from an empty cache; every warm-data pass read <= 10 % of what a cold pass read of the documents (the data in the cache); else not reproduced, the refusal naming the gate. time(cold) / time(warm data), hours grain, over >= 3 passes: holds inside [1.1x, 2.0x]; stronger above; no effect inside [0.8x, 1.1x] (the core's default band); reversed below",
    mechanism: TOUCH_GONE,
    // The source's own spread decides, as in 002-dups-vs-n (read-2 dispute 4): its five timestamps
    // straddle the band's lower edge, so its figures cannot show "~25 % faster".
    verdict: unsupported(
      "the five timestamps' ratios 1.75, 1.41, 1.16, 1.15, 1.13x give a 95 % t-interval of [1.03x, 1.64x], across the band's 1.1x edge: the source's figures cannot show ~25 % faster (their mean is 1.32x)",
      rule({
        holds: [1.1, 2.0],
        more: MORE,
        setting: DATA_FITS,
        scale,
        interval: states('cold', 'warm-data', dataFits),
      }),
    ),
  },
  {
    id: '003-preload',
    claim: 'preloading the working set (aggregating the year first) beats warming the data only',
    published: '1.12x faster than touch data (hours)',
    quote:
      '"We can preload all working set in a background process, and that should definitely improve all our aggregations." and "Rerunning all tests yields the best results so far"',
    derivation:
      "hours grain: 0.9922 s / 0.8892 s = 1.12x against touch data (the state before it in the text), 1.3132/0.8892 = 1.48x against cold; minutes 0.0468/0.0406 = 1.15x (2 to 3 ticks of the ~15.6 ms timer). Per timestamp against touch data 1.120, 1.128, 1.098, 1.126, 1.108x: their 95 % t-interval is [1.100x, 1.132x] (the lower edge 1.1002x), inside the band by a hair (T3 alone is under 1.1x): the source's own spread supports it, only narrowly (the replay feeds the five timestamps as passes, the rule 002-dups-vs-n uses)",
    setting: `${SETTING}. The source does not say what state the year aggregation started from (after a restart, or after touch {data}); its workingSet estimate (overSeconds 723) spans the preload and the tests. The lab runs it from a restart`,
    boundary:
      "gates: the data fits in the cache, and every pass after the year preload read <= 10 % of what a cold pass read of the documents + created_on (the working set in the cache, as the source's 4.31 GB in 8 GB); else not reproduced, the refusal naming the gate. time(warm data: the source's touch-data analogue) / time(after the year aggregation), hours grain, over >= 3 passes: holds inside [1.1x, 1.5x]; stronger above; no effect inside [0.8x, 1.1x] (the core's default band); reversed below. The other warm states are shown beside, not judged",
    mechanism: {
      why: "a hypothesis where it fails, not an observation: the year aggregation reads every document through the created_on index, so in a WiredTiger cache that cannot hold the uncompressed documents and the index together the fetched documents can evict index pages the hours queries then need; the source's 4.31 GB working set fitted its 8 GB of RAM. The gate reads each pass's cache residency and refuses (not reproduced) when the working set was not in the cache, so the verdict never rests on the hypothesis",
      ref: 'https://www.mongodb.com/docs/v6.0/core/wiredtiger/',
    },
    verdict: rule({ holds: [1.1, 1.5], more: MORE, setting: WS_FITS, scale, interval: preload }),
  },
  {
    id: '003-swapping',
    claim: "loading data and indexes past RAM causes swapping (the source's explanation of touch-both)",
    published: "no figure: the source's explanation",
    quote:
      '"If I choose to preload all data and indexes I\'m going to hit the 8GB RAM limit of the current workstation I am running the tests on. This will cause swapping and performance will drop."',
    setting: SETTING,
    boundary:
      'functional: gone on a server without MMAPv1 (its storage engine in the result file): there is no memory-mapped data file to overfill; on MMAPv1 not measured (the lab records no page faults)',
    mechanism: {
      why: 'MMAPv1 served reads from memory-mapped data files, so past RAM the OS dropped clean mapped pages and re-read them from the files on the next touch (page faults), which is not swapping: swap holds anonymous memory. MMAPv1 went in 4.2; WiredTiger reads into its own cache of uncompressed pages, evicts from it past its size, and re-reads from the OS page cache or the disk',
      ref: 'https://www.mongodb.com/docs/v3.0/core/mmapv1/',
    },
    verdict: (records, env) => {
      const engine = env && env.server && env.server.storageEngine;
      if (engine && engine !== 'mmapv1')
        return {
          verdict: VERDICT.GONE,
          figure: `storage engine ${engine}`,
          interval: null,
          setting: { needed: 'a server with MMAPv1', here: `storage engine ${engine}`, ok: true },
          why: `no memory-mapped data files on ${engine}: what overflows is the WiredTiger cache, evicted and re-read, never swapped (003-touch-both judges the effect)`,
        };
      return unmeasured({
        here: engine
          ? 'MMAPv1, but the lab records no page faults or swap activity'
          : 'no storage engine in these records',
        measure:
          'major page faults and swap-ins per pass on an MMAPv1 server (2.4-4.0) with the data files past its RAM',
      })();
    },
  },
  {
    id: '003-background-preload',
    claim: 'the working set can be preloaded in a background process, alongside the queries',
    published: 'no figure: the source ran the preload as a separate 300 s script and timed no query during it',
    quote:
      '"We can preload all working set in a background process, and that should definitely improve all our aggregations."',
    setting: SETTING,
    boundary: 'not measured: no query is timed while the year aggregation runs',
    verdict: unmeasured({
      here: 'the lab runs the year preload, then the queries; no query is timed during it',
      measure:
        'the hours queries timed while the year aggregation runs against after it, on cores no other work wanted (a cores gate: loadavg.cpuWait quiet, >= 2 usable cores)',
    }),
  },
  ...parts(BYTES_BASE, [
    {
      // Split (read-3 dispute 18): the 64 B were 57 B of BSON and 7 B of MMAPv1 allocation; the id
      // stays /data for the BSON part (the writer tests and the earlier answers name it).
      id: 'data',
      claim: "the documents are the printed document's 57 B of BSON each (of the 64 B dataSize counted)",
      published: '57 B (derived from the printed document; dataSize 64 B)',
      derivation:
        "the document printed ({_id: ObjectId, created_on: Date, value: double}) is 57 B of BSON (4 + 17 + 20 + 15 + 1); dataSize 3,200,000,032 / 50,000,000 = 64.0 B counted 2.4's allocation as well (/allocation). The lab's generator writes an int32 _id (49 B of BSON) unless ID=objectId: a changed writer, shown beside and not judged",
      boundary:
        "gate: the run wrote the source's documents, proven by the records: ObjectId _ids (idType) and 57.0 B per document (dataSize / count: the size the BSON spec gives these three fields under these names), else not reproduced (absent: writer), the lab's bytes beside. Then an exact check that holds by construction, not a finding about the server: the gate reads the same 57.0 B and WiredTiger's dataSize is the documents' BSON bytes, so the entry says holds by construction; no other outcome is read as a change in MongoDB (a different size is a different writer). On MMAPv1 not measured: its dataSize counts allocation. WiredTiger's compressed bytes are in 003-compressed-model",
      mechanism: {
        why: "WiredTiger's dataSize is the sum of the documents' BSON bytes, which the BSON spec fixes for a given document: {_id: ObjectId, created_on: Date, value: double} is 57 B on every version (measured: avgObjSize 57 for 1,000,000 such documents on 6.0.5)",
        ref: 'https://bsonspec.org/spec.html',
      },
      verdict: bsonBytes(),
    },
    {
      id: 'allocation',
      claim: "2.4's dataSize counted ~7 B per event of record allocation beyond the BSON (64 B for a 57 B document)",
      published: '7 B (64 - 57)',
      derivation:
        "64.0 B - 57 B = 7 B per event: 2.4's dataSize counted each record's allocation less its 16 B header; a 57 B document is a 73 B record, which 2.4's quantized allocation (1/16 of the next power of 2) rounds to 80 B: 80 - 16 = 64 B",
      boundary:
        "functional: gone on a server without MMAPv1 (its storage engine recorded): WiredTiger's dataSize counts the BSON bytes only, the lab's dataSize per event beside. On MMAPv1, with the source's writer: (dataSize per event - 57 B) / 7 B, parity [0.8x, 1.25x]; not measured without a storage engine",
      mechanism: {
        why: "2.4's dataSize summed each record's allocated space less its 16 B header, and 64.0 B exactly is an 80 B record for a 57 B document (73 B with the header), as 2.4's quantized allocation rounds it; MMAPv1 and its record allocation were removed in 4.2, and WiredTiger's dataSize is the documents' BSON bytes",
        ref: 'https://mongodb.com/docs/v2.4/core/record-padding',
      },
      verdict: allocationBytes(),
    },
    {
      id: 'index',
      claim: 'the created_on index takes ~25 B per event (both indexes ~54 B)',
      published: '25.2 B (created_on_1; both 54.4 B)',
      derivation:
        "indexSizes created_on_1 1,257,869,424 / 50,000,000 = 25.2 B; totalIndexSize 2,717,890,448 / 50,000,000 = 54.4 B (_id_ 29.2 B). Judged on created_on_1 alone, a Date key at the source and here: the lab's _id is an int32 unless the run wrote the source's ObjectId (ID=objectId, recorded as idType), so _id_ is shown beside, never judged. The source does not say when it built its index",
      boundary:
        "deterministic: created_on_1's bytes per event / 25.2 B. Built both ways on the same events (grown by inserts before the load, and in bulk after it, both sizes recorded; the study's after step builds the pair on the first min(N, 1,000,000) events in record order, a sample of the year at that scale, which the cell names, with the whole collection's own created_on_1 file beside), the bytes in use (collStats indexSizes less the file's reusable blocks, as the study's other sizes: the free space an index grown by inserts keeps depends on when checkpoints fell during its load; the file's bytes beside): holds inside [0.67x, 1.5x]; fails above (larger now); both below 16.8 B: gone (the MMAPv1 B-tree's size, whatever the build order), both sizes beside. Built one way only (the lab builds after the load), the file's bytes (collStats indexSizes, reusable space included, as the state passes record them): holds or fails as that size says; below 16.8 B not reproduced (absent: build-order: the order could make it), naming the recorder that builds both. A file with only both indexes' total (with the lab's int32 _id_): inconclusive, the bytes beside",
      mechanism: {
        why: "WiredTiger (default since 3.2; MMAPv1 removed in 4.2) stores index keys with prefix compression by default, on disk and in memory, so sorted Date keys share most of their bytes; MMAPv1's B-tree stored each key whole in 8 KB buckets split 50/50 (90/10 at the right edge). Measured by hand in another run, outside the result files (6.0.5, 1,000,000 of the source's documents): created_on_1 10.8 B per event grown by inserts and 10.9 B built after the load, both 0.43x of 25.2 B, so the build order does not make the difference (the result files' own sizes are in the entry's figure); the study's after step records both builds since 2026-11-29, and the verdict reads gone only from such records",
        ref: 'https://www.mongodb.com/docs/v6.0/faq/storage/',
      },
      verdict: createdOnBytes(),
    },
  ]),
  {
    id: '003-touch-command',
    claim: 'MongoDB offers the touch command to preload data, indexes, or both',
    published: 'no figure: a command the source used',
    quote:
      '"MongoDB offers the touch command for this purpose." and "The touch command let us specify what we want to preload: data, indexes, both data and indexes"',
    setting: SETTING,
    boundary:
      "functional: gone on a server without MMAPv1 (4.2+, or any WiredTiger server: the warm-ups' records say touch answered CommandNotFound); holds on MMAPv1 where the warm-ups used touch; not measured without warm-up records",
    mechanism: TOUCH_GONE,
    verdict: (records, env) => {
      const ws = records.filter((r) => r.type === 'measure' && r.name === 'warmupMs');
      const engine = env && env.server && env.server.storageEngine;
      const usedTouch = ws.some((r) => /^warm-up: touch$/.test(r.what || ''));
      // the server's own refusal (warm-no-id never tries touch: it cannot leave _id_ out)
      const refused = ws.filter((r) => /touch: CommandNotFound/.test(r.what || ''));
      const base = { interval: null, setting: { needed: 'a warm-up that tried touch', here: null, ok: true } };
      if (usedTouch)
        return { ...base, verdict: VERDICT.HOLDS, figure: 'touch used by the warm-ups', why: 'the server ran touch' };
      if (refused.length || (engine && engine !== 'mmapv1'))
        return {
          ...base,
          verdict: VERDICT.GONE,
          figure: refused.length ? refused[0].what.replace(/^warm-up: /, '') : `storage engine ${engine}`,
          why: `touch is gone on this server (${engine || 'storage engine unknown'}${refused.length ? `: ${refused[0].what.replace(/^warm-up: /, '')}` : ''}); the warm-ups read through the cache instead`,
        };
      return unmeasured({
        here: 'no warm-up records and no storage engine in these records',
        measure: 'npx mongo-perf-lab run timeseries (its warm-ups try touch first)',
      })();
    },
  },
  {
    id: '003-touch-cost',
    claim: 'preloading by the year aggregation takes ~20x as long as touching the data',
    published: '21.4x',
    quote:
      '"Touch {data: true, index: true} took 15.897s", "Touch {data: true} took 14.025s" and "Aggregation took:299.666s Fetched :366 documents."',
    derivation:
      "299.666 s / 14.025 s = 21.4x (18.9x against touch of data and indexes). One timing of each in the source: its replay repeats each (x0.99, x1, x1.01) to read the published ratio, no interval is the source's; and the source does not say the aggregation started from a restart",
    setting: SETTING,
    boundary:
      "gone where touch is gone (WiredTiger, 4.2+: the server's own CommandNotFound in the warm-ups' records, or its storage engine): the lab's ratio, year aggregation against a collection scan (a different operation from touch's page-in of files), is shown, never judged. On MMAPv1: time(year aggregation preload) / time(touch {data}), one of each per pass, unpaired interval (>= 3 of each, else inconclusive): holds inside [7.1x, 64x]; stronger above; weaker [1.25x, 7.1x)",
    mechanism: TOUCH_GONE,
    verdict: touchGoneOr(rule({ holds: [7.1, 64], scale, interval: warmupRatio('warm-year', 'warm-data') })),
  },
  {
    id: '003-touch-index-cost',
    claim: 'warming the indexes as well adds little to warming the data (touch: 15.9 s against 14.0 s)',
    published: '1.13x',
    quote: '"Touch {data: true, index: true} took 15.897s" and "Touch {data: true} took 14.025s"',
    derivation:
      "15.897 s / 14.025 s = 1.13x, one timing each. The 2.72 GB of indexes took the 1.87 s difference, about 1.45 GB/s, faster than a 2013 workstation disk reads: they came mostly from the Windows file cache, so 1.13x is that machine's state, not a general cost of warming indexes",
    setting: SETTING,
    boundary:
      'gone where touch is gone (WiredTiger, 4.2+): the lab\'s ratio, a collection scan plus covered index scans (keys only: each a hinted $match on the key + $count, planned COUNT_SCAN or IXSCAN with no FETCH, the plans recorded per warm-up) against a collection scan alone (not touch), is shown, never judged; the figure says whether the recorded plans show the index scans covered. On MMAPv1: time(touch {data, index}) / time(touch {data}), one of each per pass, unpaired interval (>= 3 of each): a one-sided claim ("adds little"): holds at or below 1.6x (below 0.8x it still adds little); above 1.6x it fails (adds much): a one-sided claim has no direction to reverse (read-2 dispute 8)',
    mechanism: TOUCH_GONE,
    verdict: touchGoneOr(
      rule({
        holds: [0.8, 1.6],
        kind: KIND.ONE_SIDED,
        above: VERDICT.FAILS,
        below: VERDICT.HOLDS,
        scale,
        interval: indexWarmupRatio,
      }),
    ),
  },
  ...parts(ID_INDEX_BASE, [
    {
      id: 'unused',
      claim: 'the workload never reads the _id index',
      published: 'no figure: a statement about the plan',
      boundary:
        "deterministic: the raw design's winning plans whose index scans name _id_ (explain's indexName; IDHACK reads it by definition), as a share of its timed pipelines: holds at 0 % (a collection scan reads no _id_ either); fails above 0 (a plan read _id_: the claim does not hold). Plans that scan an index without naming it (result files from before the plan summaries kept the names): inconclusive, with the command to get them",
      mechanism: PLAN_MECHANISM,
      verdict: idUnusedRule(),
    },
    {
      id: 'hinders',
      claim: 'loading the _id index hinders the queries',
      published: '_id_ = 53.7 % of the index bytes',
      derivation: '_id_ 1,460,021,024 B of 2,717,890,448 B index = 53.7 %',
      boundary:
        "the source's figures do not isolate _id_ (unsupported; the lab's measurement is shown beside, never read as a change). Measured: gates: data + indexes >= 85 % of the cache, every warm-both pass read >= 25 % of what a cold pass read of the documents + created_on (loading everything pushed the working set out), and every warm-both pass read from disk at least 25 % of the bytes it read into the WiredTiger cache (RAM short: /proc/<pid>/io read_bytes, recorded; major faults are no evidence), else not reproduced. Then time(after warming data + all indexes) / time(after warming data + created_on_1 only: state warm-no-id), hours grain, over >= 3 passes: holds above 1.1x; no effect inside [0.8x, 1.1x] (holding _id_ costs nothing; the core's default band); reversed below",
      // The source never warmed the data and created_on without _id (touch {index: true} loads every
      // index): its figures show that warming everything hurt, not that _id is what hurt.
      mechanism: {
        why: "touch's index option loads every index of the collection (it cannot leave _id_ out), so the source never measured the data and created_on warmed without _id_: its figures show that warming data + both indexes (7.13 GB in 8 GB) made the hours 4.1x slower than cold and warming the data alone 1.32x faster; that _id_ is what hinders is its reasoning from the index sizes (53.7 % of the index bytes), not a measurement",
        ref: 'https://www.mongodb.com/docs/v2.4/reference/command/touch/',
      },
      verdict: unsupported(
        'the source never warmed data + created_on without _id_ (touch loads every index): warming everything was 4.1x slower than cold (5.385 s / 1.3132 s) and the data alone 1.32x faster; that _id_ is what hinders is reasoned from its 53.7 % of the index bytes, not measured',
        whenMeasured(
          (records) => records.some((r) => r.axis && r.axis.state === 'warm-no-id'),
          {
            here: 'no warm-no-id state in these results (a run before the state existed)',
            measure: 'npx mongo-perf-lab run timeseries --docs 5000000 --set STATES_CACHE=source',
          },
          idIndexRule(),
        ),
      ),
    },
  ]),
  {
    id: '003-working-set',
    claim: "the working set (~4.3 GB, the server's own estimate) fits in memory after the year preload",
    published: '4.31 GB',
    quote:
      '"each memory page is about 4k, so our estimated working set is about 4k * 1130387 = 4521548k = 4.31GB, ensuring us the current working set fits our RAM."',
    derivation: '4 KiB x 1,130,387 = 4,521,548 KiB = 4.31 GiB',
    setting: SETTING,
    boundary:
      "serverStatus({workingSet: 1}) is gone (removed in 3.0). Measured instead: what the hours passes after the year preload read into the cache, against what a cold pass read (documents + created_on). At the lab's scale for the states (>= 5,000,000 events; the source had 50,000,000), with the data fitting the cache as the source's data fitted its RAM: holds when every pass read <= 10 % of it (the working set in the cache); not reproduced when a pass read more (the working set does not fit this cache: the cache, not MongoDB, is the setting; the refusal gives the bytes read) or when the records carry no residency per pass. The estimator itself is gone: that part is not judged here but stated in the mechanism",
    mechanism: {
      why: "serverStatus({workingSet: 1}) (an MMAPv1 estimate of pages touched) was removed in 3.0; WiredTiger's per-collection and per-index cache statistics ($collStats storageStats) replace it",
      ref: 'https://www.mongodb.com/docs/v3.0/reference/method/db.serverStatus/',
    },
    // Its own band words (read-2 dispute 6): the generated "stronger above" would call a working set
    // that does not fit a stronger form of "fits".
    verdict: ownBands(
      'holds when every pass after the year preload read <= 10 % of what a cold pass read (the working set in the cache); not reproduced above (it does not fit this cache: the cache is the setting, not MongoDB)',
      rule({
        holds: [0, IN_SHARE],
        floor: 0,
        above: VERDICT.NOT_REPRODUCED,
        fmt: pct,
        setting: WS_FITS,
        scale,
        interval: (records, env) => {
          const { run } = chooseRun(records, env, dataFits);
          const rec = run && stateRec(run, 'warm-year');
          const ps = passesOf(rec);
          if (!ps) return { iv: null, missing: 'no cache residency per pass after the year preload in these records' };
          const cold = coldRead(run, WORKING_SET);
          const worst = Math.max(...ps.map((p) => readDuring(p, WORKING_SET)));
          const last = ps[ps.length - 1].residency.after;
          const held = last.data.cached + (last.indexes.created_on_1 ? last.indexes.created_on_1.cached : 0);
          return {
            iv: exact(cold ? worst / cold : worst <= IN_CACHE_BYTES ? 0 : 1),
            figure: `${sizeOfBytes(held)} of documents + created_on in the ${sizeOf(run.cacheBytes)} cache after the year preload's passes; the passes read at most ${sizeOfBytes(worst)} into it${cold ? ` (${pct(worst / cold)} of a cold pass)` : ''}`,
            note: "the source's own estimate: 4 KB x 1,130,387 pages = 4.31 GB of 8 GB; the workingSet command itself is gone",
          };
        },
      }),
    ),
  },
  {
    id: '003-restart-cold',
    claim: 'restarting the server between tests leaves nothing preloaded (a cold database)',
    published: 'no figure (the cold baseline)',
    quote:
      '"The first tests are going to be run on a freshly started MongoDB instance. So between each test we are going to restart the database, so no index gets pre-loaded."',
    setting: SETTING,
    boundary:
      "gate: the records carry cold passes with their cache residency, else not reproduced (no evidence: the command to get it is given). Then deterministic: the most of the documents or of created_on in the WiredTiger cache before any cold pass, as a share of its size: holds at or below 1 %; not reproduced above. Judged for MongoDB's own cache only: a restart does not empty the operating system's page cache, which the records cannot see, so 'cold' here is a cache refilled from memory, as the source's was most likely from the Windows file cache",
    mechanism: {
      why: 'on 2.4 (MMAPv1) a restart unmapped the data files but left their pages in the OS file cache: the source\'s own touch timings (2.72 GB of indexes in 1.87 s) show them cached, so its "no index gets pre-loaded" held for mongod\'s mappings, not for memory. On WiredTiger a restart empties the WiredTiger cache (what the lab checks), and the OS page cache keeps the compressed blocks',
      ref: 'https://www.mongodb.com/docs/v3.0/core/mmapv1/',
    },
    verdict: restartCold(),
  },
  {
    id: '003-index-match-only',
    claim: 'the aggregation uses the created_on index in its $match only, and fetches the (unindexed) values',
    published: 'no figure: a statement about the plan',
    quote:
      '"we use the index during the match phase only. During data fetching, we are also loading the values, which are not indexed."',
    setting: SETTING,
    boundary:
      "deterministic: the share of the raw design's timed pipelines whose winning plan reads an index (IXSCAN): holds at 100 %; below, the $match scanned the collection instead (inconclusive: the plan is shown). The records keep the plan's stage, not its index or the stages above it, and need not (the mechanism says why the IXSCAN is created_on_1 and every plan fetches)",
    mechanism: PLAN_MECHANISM,
    verdict: planShareRule(),
  },
  ...parts(
    {
      id: '003-vs-previous-and-oracle',
      claim: "against the previous post's figure and Oracle (JOOQ)",
      quote:
        '"Comparing the current minutes-in-an-hour results to my previous one we can see a five time improvement already" and "This simple optimization reduced the gap between my previous results (0.209s) and the JOOQ Oracle one (0.02s), although their result is still a little bit better."',
      setting: "the previous post's setting (not in this text); Oracle",
    },
    [
      {
        id: 'five-times',
        // Split from its attribution (read-2 dispute 5): the comparison itself is what the figures
        // show; "this simple optimization" is not.
        claim: 'the minutes grain is now five times faster than in the previous post',
        published: '5.2x',
        derivation:
          '0.209 s (the previous post) / 0.040 s (this post, after the year preload) = 5.2x: the figures are consistent with the five times',
        boundary:
          "consistent with the source's figures (5.2x); not measured: the previous post's setting is not in this text. Its attribution to the optimization is /attribution",
        verdict: unmeasured({
          here: "the previous post's setting is not in this text, so its 0.209 s cannot be re-run; this post's figures give 0.209/0.040 = 5.2x, consistent with the claim",
          measure:
            "the previous post's setting (its schema, server and machine) beside this post's warm-year state, the minutes grain timed in both",
        }),
      },
      {
        id: 'attribution',
        claim: 'this simple optimization (the warm-up) made the five times',
        published: '2.17x (of the 5.2x)',
        derivation:
          "this post's own cold minutes grain is 0.088 s: the warm-ups took it from 0.0882 s to 0.0406 s = 2.17x, and the other 2.4x (0.209/0.088) was gone before any warm-up, between the previous post's setting and this one",
        boundary:
          'the source\'s figures give 2.17x to the optimization (unsupported as the cause of "five times"); nothing measured: the previous post\'s setting is not in this text',
        mechanism: {
          why: "the optimization is the warm-up (touch {data}, then the year aggregation) and it took the minutes grain from this post's cold 0.0882 s (0.097, 0.089, 0.089, 0.084, 0.082 s) to 0.0406 s, 2.17x; the cold table is already 2.4x below the previous post's 0.209 s before any warm-up, so the five times mixes an unstated change of setting with the warm-up's effect",
          ref: 'https://www.mongodb.com/docs/v2.4/reference/command/touch/',
        },
        verdict: unsupported(
          "this post's cold minutes grain is already 0.088 s: the optimization gives 0.0882/0.0406 = 2.17x of the 0.209/0.040 = 5.2x, the other 2.4x is an unstated change between the posts",
        ),
      },
      {
        id: 'oracle',
        claim: 'Oracle (JOOQ) is still a little better',
        published: 'Oracle 2x (0.040 s against 0.02 s)',
        derivation:
          '0.040 s / 0.02 s = 2x ("a little bit better"); both are 1 to 3 ticks of the ~15.6 ms timer, so the gap is at its resolution',
        boundary: 'not reproducible: no Oracle here',
        verdict: unmeasured({
          here: "no Oracle; the previous post's setting is not in this text",
          measure:
            'the same aggregation in Oracle (JOOQ) on the same machine, timed with a sub-millisecond clock; a PostgreSQL peer would be the nearest open stand-in',
        }),
      },
    ],
  ),
  {
    id: '003-structure-large',
    claim: 'the one-document-per-event structure works against us for large data sets',
    published: 'no figure (next post)',
    quote: '"We concluded that the current structure works against us for large data-sets."',
    setting: SETTING,
    boundary:
      'time(raw events) / time(the faster lossless compact design: buckets or a time-series collection, which keep every event), the year by day (else hours in a day), at the largest scale run (>= 5,000,000 events; "large" is judged as that scale, not as a ratio growing with scale), interleaved rounds: holds above 1.25x; no effect inside [0.8x, 1.25x]; reversed below. Rollups store the precomputed answer, not the events: shown beside, never the comparator',
    mechanism: {
      why: 'buckets, time-series collections (5.0+) and rollups hold many events per document and per index key, so a query over an interval reads far fewer documents, keys and pages than one document per event; the same grouping stores the repeated field names and timestamps once',
      ref: 'https://www.mongodb.com/docs/v6.0/core/timeseries-collections/',
    },
    verdict: rule({
      holds: [1.25, Infinity],
      scale: (records) => {
        const s = largestRawSizes(records);
        return s && s.events < MIN_EVENTS
          ? `${lab.fmtInt(s.events)} events here; a claim about large data sets needs at least ${lab.fmtInt(MIN_EVENTS)}`
          : null;
      },
      interval: (records) => {
        const rs = results(records).filter((r) => !r.axis.state);
        const grain = ['days', 'hours'].find((g) => rs.some((r) => r.axis.grain === g && r.variant === 'raw'));
        const at = rs.filter((r) => r.axis.grain === grain);
        // Lossless designs only: a rollup answers from precomputed sums, which measures precomputing,
        // not the data model the source promised ("store more documents").
        const compact = LOSSLESS.filter((v) => at.some((r) => r.variant === v));
        const rollup = at.some((r) => r.variant === 'rollup') && at.some((r) => r.variant === 'raw');
        const beside = rollup
          ? `; rollup beside (not judged): ${fx(find(at, 'raw').median / find(at, 'rollup').median)}`
          : '';
        if (!grain || !compact.length)
          return {
            iv: null,
            missing: `no lossless compact design (buckets, a time-series collection) timed beside raw${beside} (VARIANTS=all times them)`,
          };
        const best = compact.reduce((a, b) => (find(at, b).median < find(at, a).median ? b : a));
        return {
          iv: intervalOf(at, 'raw', best),
          note: `${grain} grain: raw against ${best}${beside}`,
        };
      },
    }),
  },
  {
    id: '003-compressed-model',
    claim: 'a compressed data model stores more events per byte (promised for the next post)',
    published: 'no figure (next post)',
    quote:
      '"My next post will bring you an improved compressed data model, which will allow us to store more documents per shard."',
    setting: SETTING,
    boundary:
      'deterministic: (storage + index bytes per event, raw design) / (the same, the more compact lossless design: buckets or a time-series collection, which keep every event): holds above 1.25. Rollups keep no event (their bytes per event divide by events they discarded): shown beside, never the comparator',
    mechanism: {
      why: 'buckets, time-series collections (5.0+) and rollups hold many events per document and per index key, so a query over an interval reads far fewer documents, keys and pages than one document per event; the same grouping stores the repeated field names and timestamps once',
      ref: 'https://www.mongodb.com/docs/v6.0/core/timeseries-collections/',
    },
    verdict: rule({
      holds: [1.25, Infinity],
      interval: (records) => {
        const s = largestRawSizes(records);
        if (!s) return { iv: null, missing: 'no storage measures' };
        const raw = s.m('totalSize', 'raw');
        const others = LOSSLESS.map((v) => [v, s.m('totalSize', v)]).filter(([, x]) => x);
        const rollup = s.m('totalSize', 'rollup');
        const beside =
          raw && rollup
            ? `; rollup beside (not a store of events): ${lab.fmtInt(rollup.value)} B, ${fx(raw.value / rollup.value)}`
            : '';
        if (!raw || !others.length)
          return {
            iv: null,
            missing: `no lossless compact design (buckets, a time-series collection) measured beside raw${beside} (VARIANTS=all builds them)`,
          };
        const [v, best] = others.reduce((a, b) => (b[1].value < a[1].value ? b : a));
        return {
          iv: exact(raw.value / best.value),
          figure: `raw ${lab.fmtInt(raw.value)} B / ${v} ${lab.fmtInt(best.value)} B on disk = ${fx(raw.value / best.value)}`,
          note: `at ${lab.fmtInt(s.events)} events${beside}`,
        };
      },
    }),
  },
];
