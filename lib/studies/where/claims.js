'use strict';
// The source's claims (001a, John Page, "MongoDB is not a Javascript Database", 2016), judged on the
// where study's records. His figures: 1,000,000 documents {_id, a, b} (38 MB), one shell timing
// each: $where 38,226 ms, the unindexed {a: {$lt: 1}} 384 ms, the hybrid 263 ms, the aggregation
// 27 ms. Server version, engine and hardware are not stated (the post is dated 2016-03-31).
const {
  rule,
  ratioRule,
  unmeasured,
  unsupported,
  whenMeasured,
  results,
  quietCores,
  parts,
  exact,
  fx,
  VERDICT,
  KIND,
  LABEL,
} = require('../../core/claims');

const SOURCE_N = 1000000;
const SOURCE_MB = 38; // "That database is only 38MB": 38 MiB (40,000,000 B of 40-byte documents)
const SETTING =
  '1,000,000 documents {a, b} (38 MB), no index for the scans, {b: 1} for the hybrid and the aggregation; server not stated (2016). The lab times each find-style query as the count command ({count, query}, what the source\'s cursor.count() sent) and each pipeline to its one {count} document; "first 100 results" is the first batch, 101 documents';
const SEED_CMD = 'npx mongo-perf-lab run where --profile seed';

// The $where cost is per document, and so is a scan's: the ratio needs the source's scale, since at
// 50,000 documents the plain scan takes a few ms and the machine's other work decides the ratio.
function scale(records, env, params) {
  const n = params && params.N;
  if (!n) return 'the run does not say how many documents it had';
  return n < SOURCE_N
    ? `${n.toLocaleString('en-US')} documents here, the source's 1,000,000 with where --profile seed`
    : null;
}

function measureOf(records, name) {
  const m = records.filter((r) => r.type === 'measure' && r.name === name);
  return m.length ? m[m.length - 1].value : null;
}

/** The BSON types of {_id, a, b} the data-size measure records beside the size (null before it did). */
function writtenTypes(d) {
  return d && d.types && typeof d.types === 'object' ? d.types : null;
}

/** Which writer the size measured, in words (the figure's note). */
function writerWords(d) {
  const t = writtenTypes(d);
  if (t) return `_id ${t._id}, a ${t.a}, b ${t.b}`;
  return 'types not recorded (result files from before the doubles writer: an int32 _id)';
}

/**
 * 001-where-38mb's writer gate (read-3 dispute 5): the size of {_id, a, b} is fixed by the BSON spec
 * once the types are, so only the source's writer (the 2016 shell: every number a double, 40 B) makes
 * it the source's figure. The lab's generator writes doubles (fixture where-ab-doubles); older result
 * files wrote _id as an int32 (36 B): a changed writer, never read as MongoDB. Fails closed: a
 * data-size measure without the types refuses.
 */
const SOURCE_DOUBLES = {
  needed: "the source's documents: {_id, a, b} all doubles (the 2016 shell's numbers), 40 B of BSON each",
  check: (records) => {
    const d = measureOf(records, 'data-size');
    const t = writtenTypes(d);
    if (t && ['_id', 'a', 'b'].every((k) => t[k] === 'double'))
      return { here: '_id, a and b written as doubles (their BSON types recorded), as the source', ok: true };
    return {
      here: t
        ? `the run wrote _id as ${t._id}, a as ${t.a}, b as ${t.b} (recorded), not the source's three doubles: a changed writer, not a change in MongoDB`
        : "the records do not say which BSON types were written (the data-size measure records no types: a result file from before the doubles writer, whose generator stored _id as an int32, 36 B a document against the source's 40 B): a changed writer, not a change in MongoDB",
      ok: false,
      absent: 'writer',
      reproduce:
        "a run of today's where study, whose generator writes the source's doubles (fixture where-ab-doubles) and records their BSON types beside the size: npx mongo-perf-lab run where --profile seed",
    };
  },
};

/** A rule whose decided bands are printed in the claim's own words (the generated ones name impossible regions). */
function sourceBands(text, fn) {
  fn.bands = text;
  return fn;
}

// A functional check needs no setting of its own: the claim's (`needed` null) shows beside it.
function functionalSetting(here) {
  return { needed: null, here, ok: true };
}

/** An error as one short phrase: the server's code name and last cause, or that mongosh refused it (no code). */
function failure(e) {
  const msg = String(e.message)
    .replace(/^.*caused by :: /, '')
    .replace(/\s*:$/, '');
  return e.codeName || e.code ? `${e.codeName || e.code}: ${msg}` : `in mongosh, before the server: ${msg}`;
}

/** 001-where-js-functional/string: find('this.a > this.b') against {$where}, from the where-functional record. */
function stringFilter(records) {
  const f = measureOf(records, 'where-functional');
  const str = {
    same: `find('this.a > this.b') returns what {$where} returns (the first ${f.checked} matches by _id${f.whereAgrees ? ', as the generator says' : ''})`,
    rejected: `find('this.a > this.b') is refused (${f.stringError && failure(f.stringError)})`,
    differs: "find('this.a > this.b') returns other documents than {$where}",
  }[f.stringFilter];
  const out = {
    figure: f.stringFilter === 'same' ? 'string filter = $where' : `string filter ${f.stringFilter}`,
    interval: null,
    setting: functionalSetting(str),
  };
  if (f.stringFilter === 'differs' || !f.whereAgrees)
    return {
      ...out,
      verdict: VERDICT.REVERSED,
      why: `${str}${f.whereAgrees ? '' : '; $where disagrees with the generator'}`,
    };
  // The shorthand was the legacy mongo shell's, never the server's (the find command's filter is a
  // document): its refusal by mongosh's driver is a changed client, not a change in MongoDB.
  if (f.stringFilter === 'rejected')
    return {
      ...out,
      verdict: VERDICT.NOT_REPRODUCED,
      setting: {
        needed: "the source's client: the legacy mongo shell, whose DBCollection.find turned a string into {$where}",
        here: `mongosh: ${str}`,
        ok: false,
        absent: 'client',
      },
      why: `not reproduced here: the source's client (the legacy mongo shell, no longer shipped since 6.0) is absent: ${str}; the server side holds: {$where: 'this.a > this.b'} returns the generator's matches${f.whereAgrees ? '' : ' (not here)'}; to reproduce: the legacy mongo shell 5.0 against this server, db.c.find('this.a > this.b')`,
    };
  return { ...out, verdict: VERDICT.HOLDS, why: str };
}

/** 001-where-js-functional/sandbox: a $where whose body touches db, from the where-functional record. */
function sandbox(records) {
  const f = measureOf(records, 'where-functional');
  const refused = f.sandbox === 'refused';
  const here = refused ? `a $where touching db fails (${failure(f.dbError)})` : 'a $where reached db';
  return {
    verdict: refused ? VERDICT.HOLDS : VERDICT.REVERSED,
    figure: `sandbox ${f.sandbox}`,
    interval: null,
    setting: functionalSetting(here),
    why: here,
  };
}

const FUNCTIONAL_UNMEASURED = {
  here: 'no where-functional record in these results (a run before the check existed)',
  measure: 'where --profile quick (the check runs once per run, untimed)',
};
const hasFunctional = (records) => !!measureOf(records, 'where-functional');

/** 001-bson-typed: every written type read back with its BSON type and value. */
function bsonTyped(records) {
  const t = measureOf(records, 'bson-types');
  const kept = Object.entries(t).filter(([, x]) => x.type === x.want && x.same);
  const lost = Object.entries(t)
    .filter(([, x]) => !(x.type === x.want && x.same))
    .map(([k, x]) => `${k} came back as ${x.type}${x.same ? '' : ' with another value'}`);
  const figure = `${kept.length} of ${Object.keys(t).length} types kept (${Object.entries(t)
    .map(([k, x]) => `${k}: ${x.type}`)
    .join(', ')})`;
  const setting = functionalSetting('one document written and read back on this server');
  if (lost.length) return { verdict: VERDICT.REVERSED, figure, interval: null, setting, why: lost.join('; ') };
  return {
    verdict: VERDICT.HOLDS,
    figure,
    interval: null,
    setting,
    why: 'every value came back with its BSON type and value, 2^53 + 1 as a long and 0.1 as a decimal included; "quickly traversable" is 001-bson-traversable',
  };
}

// $where at the seed scale is timed three times or more (where --profile seed: no time budget,
// RUNS 3); a run with a time budget times it once, and the core then gives no interval.
function fewRounds({ rs, slow, fast }) {
  const n = (v) => (rs.find((r) => r.variant === v) || { times: [] }).times.length;
  return Math.min(n(slow), n(fast)) < 3
    ? `${n(slow) < 3 ? slow : fast} was timed ${Math.min(n(slow), n(fast))} time(s) (a time budget): where --profile seed times it 3 times, which would decide`
    : undefined;
}

// Machine state. A JavaScript scope (MozJSProxyScope, src/mongo/scripting/mozjs/proxyscope.h) owns one
// thread on which SpiderMonkey runs; the query's thread hands every call to it and waits on a
// condition variable for the answer (one thread per pooled scope, one hand-off per call). The same
// $where took 61 s pinned to one core (255x the scan) and 232 s on two idle cores of one VM (984x)
// (docs/studies/where.md, docs/data/where-seed-one-core.json and where-seed-two-cores.json; the seed
// column of 2026-11-29: 88-100 s against 453-463 s, 181x against 956x), while
// the variants without JavaScript kept their times: for a claim dominated by server-side JavaScript
// the machine state is a setting, as much as the server version. Such a claim is judged per state:
// one pinned core (taskset -c 0) or free cores, each state from its own records, both named when
// both ran, and a state whose records do not prove it says which evidence is missing and the command.
const JS_STATE_NEEDED =
  'the machine state recorded: one pinned core (taskset -c 0) or at least 2 free cores, judged apart (server-side JavaScript runs on a thread of its own)';

/** The cores a run could use, from its environment (a file from before usableCores: all its cores). */
function envCores(env) {
  const h = (env && env.host) || {};
  if (typeof h.usableCores === 'number') return h.usableCores;
  return typeof h.cores === 'number' ? h.cores : null;
}

/** The where runs' environments, in file order (a merged column keeps each file's). */
function whereEnvs(env) {
  const src = env && Array.isArray(env.sources) ? env.sources.filter((x) => (x.studies || []).includes('where')) : [];
  return src.length ? src.map((x) => ({ ...x.environment, profile: x.environment.profile || env.profile })) : [env];
}

/**
 * The records grouped by machine state (usable cores): a record says its own (axis.usableCores,
 * since the study stamps its point), else its run's environment does. A merged column keeps each
 * file's records together and in file order, so the k-th record of a kind is the k-th where file's.
 */
function byState(records, env) {
  const envs = whereEnvs(env);
  const groups = new Map();
  const add = (cores, rec, e) => {
    if (!groups.has(cores)) groups.set(cores, { cores, records: [], env: e });
    groups.get(cores).records.push(rec);
  };
  const seen = new Map();
  for (const r of records) {
    if (r.axis && typeof r.axis.usableCores === 'number') {
      const e = envs.find((x) => envCores(x) === r.axis.usableCores) || envs[0] || {};
      add(r.axis.usableCores, r, { ...e, host: { ...(e.host || {}), usableCores: r.axis.usableCores } });
      continue;
    }
    const key = `${r.type}/${r.variant || r.name}`;
    const k = seen.get(key) || 0;
    seen.set(key, k + 1);
    const e = envs[Math.min(k, envs.length - 1)] || {};
    add(envCores(e), r, e);
  }
  return [...groups.values()].sort((a, b) => (a.cores || 0) - (b.cores || 0));
}

const stateName = (cores) =>
  cores === null ? 'cores not recorded' : cores === 1 ? 'one pinned core' : `${cores} usable cores`;

// One pinned core: the lab's client and mongod share it, so the CPU-wait share is high by nature;
// the gate asks that the records carry their load and that no more tasks than cores were runnable.
const pinnedCore = {
  needed: JS_STATE_NEEDED,
  check: (records) => {
    const rs = results(records);
    const bare = rs.filter((r) => !r.loadavg || typeof r.loadavg.start !== 'number');
    if (!rs.length || bare.length)
      return {
        here: 'one usable core, but the records carry no load average to show the run had it to itself',
        ok: false,
        absent: 'no-evidence',
        reproduce: `taskset -c 0 ${SEED_CMD} (the records then carry loadavg.start)`,
      };
    const loaded = rs.find((r) => r.loadavg.cores && r.loadavg.start > r.loadavg.cores);
    return loaded
      ? {
          here: `one pinned core, a load average of ${loaded.loadavg.start} on ${loaded.loadavg.cores} cores when the point started`,
          ok: false,
          absent: 'busy-cores',
          reproduce: `taskset -c 0 ${SEED_CMD}, with nothing else running`,
        }
      : { here: `usable cores 1, a load average of ${rs[0].loadavg.start} when the point started`, ok: true };
  },
};
const quietTwo = quietCores(
  {
    needed: JS_STATE_NEEDED,
    check: (records, env) => ({
      here: `${envCores(env)} usable cores that nothing else wanted (CPU wait at most 40 %, load below the cores)`,
      ok: true,
    }),
  },
  (records) => results(records),
  { cores: 2 },
);
// The cores gate names the evidence it lacked (absent: no-evidence, busy-cores or cores) and the
// study's own command, not a generic "the same command".
const freeCores = {
  needed: quietTwo.needed,
  check: (records, env, params) => {
    const st = quietTwo.check(records, env, params);
    if (st.ok) return st;
    return {
      ...st,
      here: `${st.here} [free-cores gate: ${st.absent}]`,
      reproduce: `${SEED_CMD} on at least 2 cores with nothing else running (a lab that records loadavg.cpuWait, Linux PSI); the pinned state: taskset -c 0 ${SEED_CMD}`,
    };
  },
};
const unknownCores = {
  needed: JS_STATE_NEEDED,
  check: () => ({
    here: 'the records do not say how many cores the run could use',
    ok: false,
    absent: 'no-evidence',
    reproduce: `${SEED_CMD} on a lab that records usable cores (environment.host.usableCores)`,
  }),
};
const stateSetting = (cores) => (cores === null ? unknownCores : cores === 1 ? pinnedCore : freeCores);

/**
 * A ratio rule judged per machine state. One state: its verdict, the state named. Two: the same
 * verdict when both agree, else inconclusive naming each state's verdict (the machine decides, not
 * MongoDB). A state whose gate refused (not reproduced) does not outvote one that was judged.
 */
function perState(o) {
  const rules = new Map();
  const ruleFor = (cores) => {
    if (!rules.has(cores)) rules.set(cores, ratioRule({ ...o, setting: stateSetting(cores) }));
    return rules.get(cores);
  };
  const fn = (records, env, params) => {
    const states = byState(records, env);
    if (!states.length) return ratioRule({ ...o, setting: unknownCores })(records, env, params);
    const outs = states.map((st) => ({ st, out: ruleFor(st.cores)(st.records, st.env, params) }));
    const tag = ({ st, out }) => `${stateName(st.cores)}: ${out.figure || '-'}`;
    const line = ({ st, out }) => `${stateName(st.cores)}: ${LABEL[out.verdict]}, ${out.why}`;
    const setting = {
      needed: JS_STATE_NEEDED,
      here: outs.map(({ st, out }) => `${stateName(st.cores)}: ${out.setting.here}`).join('; '),
      ok: outs.some(({ out }) => out.setting.ok),
      ...(outs.every(({ out }) => out.setting.absent) ? { absent: outs[0].out.setting.absent } : {}),
    };
    if (outs.length === 1) {
      const [{ st, out }] = outs;
      const other =
        st.cores === 1 ? `free cores: ${SEED_CMD}, nothing else running` : `one core: taskset -c 0 ${SEED_CMD}`;
      return {
        ...out,
        figure: out.figure ? tag(outs[0]) : out.figure,
        setting,
        why: `${stateName(st.cores)}: ${out.why}; the other machine state (${other}) is not in these records`,
      };
    }
    const judged = outs.filter(({ out }) => out.verdict !== VERDICT.NOT_REPRODUCED);
    const figure = outs.map(tag).join('; ');
    const kinds = new Set(judged.map(({ out }) => out.verdict));
    if (!judged.length)
      return { verdict: VERDICT.NOT_REPRODUCED, figure, interval: null, setting, why: outs.map(line).join('; ') };
    if (kinds.size === 1) {
      const v = judged[0].out.verdict;
      return {
        verdict: v,
        figure,
        interval: judged.length === 1 ? judged[0].out.interval : null,
        setting,
        why: `${judged.length > 1 ? `the same in both machine states (${LABEL[v]})` : LABEL[v]}: ${outs.map(line).join('; ')}`,
      };
    }
    return {
      verdict: VERDICT.INCONCLUSIVE,
      figure,
      interval: null,
      setting,
      why: `depends on the machine state: ${outs.map(line).join('; ')}`,
    };
  };
  // The bands each state is decided by, printed (read-2 dispute 2: "judged per machine state" gave none).
  fn.bands = `in each machine state (one pinned core; free cores): ${ruleFor(2).bands}; one state in the records: its verdict, the state named; both: their verdict when they agree, inconclusive (depends on the machine state) when they differ; a state whose gate refused does not vote`;
  return fn;
}

// How server-side JavaScript reaches a document, checked in the server source (issue #34, dispute 3).
const JS_MECHANISM = {
  why: 'each document reaches the predicate as a read-only BSON-backed JavaScript object whose fields are materialised lazily on first access (BSONInfo::resolve, src/mongo/scripting/mozjs/bson.cpp), and the predicate runs in a pooled JavaScript scope on a thread of its own: every call is a cross-thread hand-off and wait (MozJSProxyScope), which is why the machine state moves it. $where can use no index; a scan without JavaScript compares BSON values in the query engine. $where is deprecated since 8.0; $expr compares two fields without JavaScript since 3.6',
  ref: 'https://github.com/mongodb/mongo/blob/master/src/mongo/scripting/mozjs/proxyscope.h',
};

/** Every timed variant returned the generator's answer (agrees), and which answers they gave. */
function answers(records) {
  const rs = results(records).filter((r) => typeof r.agrees === 'boolean');
  return { rs, bad: rs.filter((r) => !r.agrees), values: [...new Set(rs.map((r) => JSON.stringify(r.answer)))] };
}

module.exports = [
  {
    id: '001-where-vs-scan',
    claim:
      "$where is ~100x slower than the same predicate scanned without JavaScript (the source's reason (1): JavaScript)",
    published: "99.5x (against {a: {$lt: 1}}, the source's only scan figure)",
    quote:
      '"384ms - Not bad in human terms", "38,226 ms - yes 40 Seconds. This is is why you just don\'t do this!" and "The reason it\'s slow is two fold (1) Javascript - this is an interpreted/JIT language and it\'s never fast"',
    derivation:
      "38,226 ms / 384 ms = 99.5x. His scan was {a: {$lt: 1}}; this row's is the same predicate as the $where ({b < 5, $expr a > b}) forced to a collection scan, so the ratio isolates the JavaScript (his reason (1)); the band is taken from 99.5x because both scans examine every document with native comparisons (one field or two), which costs the same order per document. The as-published ratio is 001-where-vs-published-scan",
    setting: SETTING,
    boundary:
      'time($where) / time(the same predicate via $expr, forced COLLSCAN) at 1,000,000 documents, judged per machine state (one pinned core, free cores: server-side JavaScript hands every call to a thread of its own: 255x pinned against 984x on two idle cores on 2026-11-28, 181x against 956x in the seed column of 2026-11-29)',
    mechanism: JS_MECHANISM,
    verdict: perState({ slow: 'where', fast: 'plain', band: [33, 300], scale, note: fewRounds }),
  },
  {
    id: '001-where-vs-published-scan',
    claim: "$where is ~100x slower than the source's plain scan {a: {$lt: 1}}",
    published: '99.5x',
    quote: '"db.mine.find({a:{$lt:1}}).count()" ... "384ms - Not bad in human terms" against "38,226 ms"',
    derivation: '38,226 ms / 384 ms = 99.5x: $where against another, one-field predicate',
    setting: SETTING,
    boundary:
      'time($where) / time({a: {$lt: 1}} as a COLLSCAN count) at 1,000,000 documents: [33x, 300x], judged per machine state',
    verdict: unmeasured({
      here: "the lab's scan is the $where's own predicate (every variant must return the same count); {a: {$lt: 1}} is not timed",
      measure: `a variant {a: {$lt: 1}} (count command, hint {$natural: 1}) in scripts/where_vs_agg.js beside $where, then ${SEED_CMD}`,
    }),
  },
  {
    id: '001-where-no-index',
    claim: '$where examines every document: no index is used',
    published: 'no figure (the 38,226 ms is the consequence)',
    quote: '"(2) It has to convert every record in the Collection - there are no indexes used here."',
    setting: SETTING,
    boundary:
      "functional, from the recorded plans: the $where-only filter is a COLLSCAN (every document examined) while the hybrid's indexed clause is an IXSCAN: holds; an index used by $where alone: reversed",
    mechanism: {
      why: "the query planner cannot use an index for a JavaScript predicate: $where alone is a collection scan, and only indexable clauses beside it (the hybrid's b < 5) narrow the documents it runs on",
      ref: 'https://www.mongodb.com/docs/manual/reference/operator/query/where/',
    },
    verdict: (records) => {
      const rs = results(records);
      const stage = (v) => {
        const r = rs.find((x) => x.variant === v);
        return r && r.plan ? r.plan.stage : null;
      };
      const w = stage('where');
      const h = stage('hybrid');
      const setting = {
        needed: 'the plans of the $where and hybrid queries',
        here: w ? `$where: ${w}, hybrid: ${h || '?'}` : 'no plan recorded',
        ok: !!w,
      };
      if (!w)
        return {
          verdict: VERDICT.INCONCLUSIVE,
          figure: null,
          interval: null,
          setting,
          why: 'no plan of the $where query in these records',
        };
      const holds = w === 'COLLSCAN' && (!h || /IXSCAN/.test(h));
      return {
        verdict: holds ? VERDICT.HOLDS : VERDICT.REVERSED,
        figure: `$where ${w}; hybrid ${h || '?'}`,
        interval: null,
        setting,
        why: holds
          ? '$where alone scans the whole collection (no index can serve JavaScript); only an indexed clause beside it narrows the scan'
          : `$where alone was planned as ${w}`,
      };
    },
  },
  {
    id: '001-hybrid',
    claim: 'an indexed filter plus $where (hybrid) is ~150x faster than $where alone',
    published: '145x ("150 times")',
    quote: '"OK That\'s 263 ms, 150 times faster and I get to do comparisons between fields."',
    derivation: '38,226 ms / 263 ms = 145.3x (the text rounds to 150)',
    setting: SETTING,
    boundary:
      'time($where) / time(hybrid), index on b: holds inside [48x, 436x]; judged per machine state (one pinned core, free cores)',
    mechanism: {
      why: "the indexed clause b < 5 leaves ~0.5 % of the documents for the JavaScript to run on; each call still pays the read-only BSON wrapper, the fields it touches and the hand-off to the scope's own thread (MozJSProxyScope)",
      ref: 'https://github.com/mongodb/mongo/blob/master/src/mongo/scripting/mozjs/proxyscope.h',
    },
    verdict: perState({ slow: 'where', fast: 'hybrid', band: [48, 436], scale, note: fewRounds }),
  },
  {
    id: '001-aggregation',
    claim:
      'the aggregation pipeline is ~1,400x faster than $where (the source\'s own figures; its "over 1,500" is 001-aggregation-over-1500)',
    published: '1,416x',
    quote: '"And that takes ... 27ms, over 1,500 times faster than the Javascript!!"',
    derivation:
      "38,226 ms / 27 ms = 1,415.8x. The pipeline's $match uses the index on b, the $where alone scans: the ratio mixes index use with JavaScript cost",
    setting: SETTING,
    boundary:
      'time($where) / time(source-agg): holds inside [472x, 4,250x]; judged per machine state (one pinned core, free cores)',
    mechanism: {
      why: "the source's pipeline starts with a $match on the index of b and compares a and b in the aggregation engine, while $where alone scans every document through JavaScript: the ratio mixes index use with the interpreter's per-document cost",
      ref: 'https://www.mongodb.com/docs/manual/core/server-side-javascript/',
    },
    verdict: perState({ slow: 'where', fast: 'source-agg', band: [472, 4250], scale, note: fewRounds }),
  },
  {
    id: '001-aggregation-over-1500',
    claim: 'the aggregation pipeline is "over 1,500 times faster" than $where',
    published: 'over 1,500x (stated); 1,416x by its own figures',
    quote: '"And that takes ... 27ms, over 1,500 times faster than the Javascript!!"',
    derivation: '38,226 ms / 27 ms = 1,415.8x < 1,500: a lower bound its own figures contradict',
    setting: SETTING,
    boundary:
      "unsupported by the source's figures; the lab's time($where) / time(source-agg) shown beside, per machine state",
    mechanism: {
      why: 'arithmetic on the published times: 38,226 / 27 = 1,415.8, so "over 1,500" does not follow (001-aggregation judges the 1,416x)',
      ref: 'https://www.mongodb.com/docs/manual/core/server-side-javascript/',
    },
    verdict: unsupported(
      '38,226 ms / 27 ms = 1,415.8x, less than the "over 1,500" stated',
      perState({ slow: 'where', fast: 'source-agg', band: [472, 4250], scale, note: fewRounds }),
    ),
  },
  {
    id: '001-agg-vs-hybrid',
    claim: 'the aggregation pipeline is much faster than the hybrid, and just as capable',
    published: '9.7x (derived)',
    quote:
      '"But is it the best option? No, Javascript is rarely the best option. MongoDB offers something much faster and just as capable, the Aggregation Pipeline."',
    derivation: '263 ms / 27 ms = 9.7x: the like-for-like pair (both use the index on b)',
    setting: SETTING,
    boundary:
      'time(hybrid) / time(source-agg): holds inside [3.2x, 29x]; judged per machine state (one pinned core, free cores)',
    mechanism: {
      why: "both use the index on b; the hybrid then runs JavaScript on each of ~5,000 candidates (a read-only BSON wrapper and a hand-off to the scope's thread per call) and the pipeline compares natively ($cond/$gt): the gap is the per-call JavaScript cost plus the per-operation scope set-up (taking a pooled scope, compiling the predicate), not separated here",
      ref: 'https://github.com/mongodb/mongo/blob/master/src/mongo/scripting/mozjs/proxyscope.h',
    },
    verdict: perState({ slow: 'hybrid', fast: 'source-agg', band: [3.2, 29], scale }),
  },
  {
    id: '001-agg-vs-hybrid-capable',
    claim: 'the aggregation pipeline is "just as capable": it returns what $where and the hybrid return',
    published: 'no figure',
    quote: '"MongoDB offers something much faster and just as capable, the Aggregation Pipeline."',
    setting: SETTING,
    boundary:
      "functional, from the timed variants: $where, the hybrid, the source's pipeline (and $expr, $function) each return the generator's count: holds; any other count: reversed",
    mechanism: {
      why: 'the pipeline expresses the comparison of two fields natively ($cond with $gt, or $expr in $match since 3.6), so it needs no JavaScript to return the same documents',
      ref: 'https://www.mongodb.com/docs/manual/reference/operator/query/expr/',
    },
    verdict: (records) => {
      const a = answers(records);
      const setting = functionalSetting(
        a.rs.length
          ? `${a.rs.map((r) => r.variant).join(', ')} counted against the generator`
          : 'no variant carries a count check',
      );
      if (!a.rs.some((r) => r.variant === 'source-agg') || !a.rs.some((r) => r.variant === 'where'))
        return unmeasured({
          here: "no count check of $where and the source's pipeline in these records",
          measure: 'where --profile quick (every variant is checked against the generator)',
        })();
      const figure = `${a.rs.length - a.bad.length} of ${a.rs.length} variants return the generator's count (${a.values.join(', ')})`;
      return a.bad.length || a.values.length > 1
        ? {
            verdict: VERDICT.REVERSED,
            figure,
            interval: null,
            setting,
            why: `${a.bad.map((r) => r.variant).join(', ')} differ`,
          }
        : { verdict: VERDICT.HOLDS, figure, interval: null, setting, why: 'every form returns the same count' };
    },
  },
  // Two claims in one sentence, judged apart (the shorthand is gone, the sandbox stands).
  ...parts(
    {
      id: '001-where-js-functional',
      claim: 'a string filter is a $where, and the sandboxed JavaScript sees one document, not the database',
      published: 'no figure',
      quote:
        '"Well that\'s the short version of ... find({ $where: \'this.name == "john"\' })" and "The Javascript interpreter in MongoDB is very sandboxed - so you cannot call out to other services or even access other parts of the DB - you are limited to one record"',
      setting: SETTING,
    },
    [
      {
        id: 'string',
        claim: "find('...') with a string is short for {$where: '...'}",
        boundary:
          "functional, untimed: find('this.a > this.b') against {$where: 'this.a > this.b'} on the first 200 matches by _id (the generator's oracle). Holds: the same documents; not reproduced (absent: client) when the shell refuses the string before the server (the shorthand was the legacy shell's, not the server's); reversed: other documents",
        mechanism: {
          why: 'the string shorthand was the legacy mongo shell\'s: DBCollection.find (_massageObject in src/mongo/shell/collection.js) turned a string or function into {$where: ...}, except a 24-character string, which became {_id: ObjectId(...)}; the find command\'s filter has always been a document. mongosh hands the filter to the Node driver, which refuses a string ("Query filter must be a plain object or ObjectId"); {$where: string} still works on the server',
          ref: 'https://github.com/mongodb/mongo/blob/r5.0.0/src/mongo/shell/collection.js',
        },
        verdict: whenMeasured(hasFunctional, FUNCTIONAL_UNMEASURED, stringFilter),
      },
      {
        id: 'sandbox',
        claim:
          'a $where body has no db object: it cannot reach the rest of the database (calling out to other services and seeing only one record are not checked)',
        boundary:
          'functional, untimed: a $where whose body calls db.getSiblingDB. Holds: the call fails (no db object); reversed: it succeeds. Only the db half of the quote is checked',
        mechanism: {
          why: 'a $where body runs in a JavaScript scope of its own that sees the document as this and no db object; server-side JavaScript is deprecated since 8.0',
          ref: 'https://www.mongodb.com/docs/manual/reference/operator/query/where/',
        },
        verdict: whenMeasured(hasFunctional, FUNCTIONAL_UNMEASURED, sandbox),
      },
    ],
  ),
  {
    id: '001-bson-typed',
    claim: 'BSON stores everything strongly typed (the "quickly traversable" half is 001-bson-traversable)',
    published: 'no figure',
    quote: '"Unlike Javascript everything in MongoDB is stored strongly typed and quickly traversable."',
    setting: SETTING,
    boundary:
      'functional: one document of Date, int32, int64 (2^53 + 1), double and Decimal128 (0.1) written and read back: holds when each keeps its $type and value; reversed when any does not',
    mechanism: {
      why: 'BSON keeps a type byte with every value (date, int32, int64, double, decimal128...), so a value comes back with the type it was written with',
      ref: 'https://www.mongodb.com/docs/manual/reference/bson-types/',
    },
    verdict: whenMeasured(
      (records) => !!measureOf(records, 'bson-types'),
      {
        here: 'no bson-types record in these results (a run before the check existed)',
        measure: 'where --profile quick (the check runs once per run, untimed)',
      },
      bsonTyped,
    ),
  },
  {
    id: '001-bson-traversable',
    claim: 'BSON is quickly traversable',
    published: 'no figure',
    quote: '"Unlike Javascript everything in MongoDB is stored strongly typed and quickly traversable."',
    setting: SETTING,
    boundary:
      'the time to find a field against its position in the document (BSON is walked field by field, skipping each by its length): measured by 004-field-scan-hierarchy/scan and /level, not by this study',
    verdict: unmeasured({
      here: 'the where study does not time field access; 004-field-scan-hierarchy/scan and /level do (a field is found by a linear walk, each sub-document skipped whole by its length)',
      measure: 'fields run (004-field-scan-hierarchy), whose verdict this half shares',
    }),
  },
  {
    id: '001-where-38mb',
    claim: 'the 1,000,000 documents are a small database: only 38 MB',
    published: '38 MB (1,000,000 documents: 40 B each, 38.1 MiB)',
    quote: '"38,226 ms - yes 40 Seconds. This is is why you just don\'t do this! That database is only 38MB."',
    derivation:
      "{_id: x, a: Math.random()*1000, b: Math.random()*1000} from the 2016 shell, where every number is a double: 4 (length) + 13 (_id: type, '_id\\0', 8) + 11 (a) + 11 (b) + 1 = 40 B per document, 40,000,000 B = 38.1 MiB. The lab's generator writes the integer _id as an int32 (9 B): 36 B, 34.3 MiB, 0.90x: a changed writer, not a change in MongoDB",
    setting: SETTING,
    boundary:
      'gate: the run wrote the source\'s documents (_id, a and b doubles, their BSON types recorded beside the size), else not reproduced (absent: writer), the lab\'s int32 figure beside. Then deterministic, one-sided ("only" bounds the size from above): the collection\'s BSON size (collStats size) / 38 MiB scaled to its count: holds at or below 1.25x; fails above (a larger database contradicts "only 38MB"). With the writer proven the figure is fixed by the BSON spec (40 B, 1.00x): the check confirms the source\'s arithmetic, it measures no change',
    mechanism: {
      why: "BSON stores each double in 8 bytes (an int32 in 4) after a type byte and the field name: three numeric fields make a document of 36 to 40 bytes, and collStats size is the sum of the documents' BSON sizes",
      ref: 'https://www.mongodb.com/docs/manual/reference/bson-types/',
    },
    verdict: whenMeasured(
      (records) => !!measureOf(records, 'data-size'),
      {
        here: 'no data-size record in these results (a run before the size was recorded)',
        measure: 'where --profile quick (the size is read once per run, untimed)',
      },
      // Per document, so judged at any count: the source's 38 MB scaled to the run's documents.
      sourceBands(
        "holds at or below 1.25x (the database no larger than the source's 38 MB scaled to the count); FAILS above; gate: the source's writer (doubles, their types recorded), else not reproduced",
        rule({
          holds: [0, 1.25],
          kind: KIND.ONE_SIDED,
          above: VERDICT.FAILS,
          setting: SOURCE_DOUBLES,
          interval: (records) => {
            const d = measureOf(records, 'data-size');
            if (!d || !d.bytes || !d.count) return { iv: null, missing: 'no collection size recorded' };
            const x = d.bytes / ((SOURCE_MB * 1048576 * d.count) / SOURCE_N);
            return {
              iv: exact(x),
              figure: `${(d.bytes / 1048576).toFixed(1)} MB for ${d.count.toLocaleString('en-US')} documents (${(d.bytes / d.count).toFixed(1)} B each, ${writerWords(d)}): ${fx(x)} the source's 38 MB`,
            };
          },
        }),
      ),
    ),
  },
  {
    id: '001-where-needed',
    claim: '$where is needed when the query language cannot compare two fields (WHERE a > b and b < 5)',
    published: 'no figure',
    quote:
      '"What if you cannot express your query using the Mongo query language? ... WHERE a+b > 5 or even WHERE a > b and b < 5"',
    setting: SETTING,
    boundary:
      "functional, from the timed variants: on a server before 3.6 (no $expr) the premise holds; when the $expr forms (find and $match) return the generator's count for the same predicate, gone: the limitation the claim is about was removed from the query language in 3.6 (as 002-no-joins/joins reads $lookup), nothing is the other way round",
    mechanism: {
      why: '$expr (3.6) lets find and $match compare fields of the same document with aggregation expressions, e.g. {b: {$lt: 5}, $expr: {$gt: ["$a", "$b"]}} or {$expr: {$gt: [{$add: ["$a", "$b"]}, 5]}}, using the index on b, without JavaScript',
      ref: 'https://www.mongodb.com/docs/manual/reference/operator/query/expr/',
    },
    verdict: (records, env) => {
      const version = env && env.server && env.server.version;
      const a = answers(records);
      const expr = a.rs.filter((r) => /^expr-/.test(r.variant));
      const where = a.rs.find((r) => r.variant === 'where');
      const here = functionalSetting(
        expr.length ? `${expr.map((r) => r.variant).join(', ')} beside $where` : `server ${version || '?'}`,
      );
      const [major, minor] = String(version || '')
        .split('.')
        .map(Number);
      if (major < 3 || (major === 3 && minor < 6))
        return {
          verdict: VERDICT.HOLDS,
          figure: `server ${version}: no $expr`,
          interval: null,
          setting: here,
          why: 'no $expr before 3.6: only JavaScript compares two fields',
        };
      if (!expr.length || !where)
        return unmeasured({
          here: 'no $expr variant with a count check beside $where in these records',
          measure: 'where --profile quick (expr-find and expr-agg are timed and checked)',
        })();
      const same = expr.every((r) => r.agrees && JSON.stringify(r.answer) === JSON.stringify(where.answer));
      const figure = `${[...new Set(expr.map((r) => r.variant))].join(' and ')} ${same ? 'return' : 'do not return'} the $where's count (${JSON.stringify(where.answer)})`;
      // The premise was a limitation of its day (<= 3.4); 3.6 removed it: gone, not reversed (read-2
      // dispute 5: nothing is the other way round; 002-no-joins/joins reads $lookup the same way).
      return same
        ? {
            verdict: VERDICT.GONE,
            figure,
            interval: null,
            setting: here,
            why: "the limitation is gone: $expr (3.6) expresses a > b and b < 5 without JavaScript, and returns the $where's count",
          }
        : {
            verdict: VERDICT.INCONCLUSIVE,
            figure,
            interval: null,
            setting: here,
            why: 'an $expr form returned another count: check the variant',
          };
    },
  },
  {
    id: '001-where-no-js-advice',
    claim: 'running any in-database JavaScript is probably not the right thing',
    published: 'no figure (advice)',
    quote:
      '"if you are using MongoDB and running ANY in-database javascript, you probably aren\'t doing the right thing"',
    setting: SETTING,
    boundary:
      'documentation and a functional check on an 8.0 server: $where, $function and $accumulator are deprecated since 8.0 and log a deprecation warning',
    mechanism: {
      why: 'MongoDB 8.0 deprecates server-side JavaScript ($accumulator, $function, $where); mapReduce is deprecated since 5.0',
      ref: 'https://www.mongodb.com/docs/manual/core/server-side-javascript/',
    },
    verdict: unmeasured({
      here: "advice, backed by MongoDB's own 8.0 deprecation of server-side JavaScript; the lab's mongod (6.0.5) predates it, so no deprecation warning can be checked here",
      measure: 'an 8.0 server: run a $where and find the deprecation warning in the server log (getLog global)',
    }),
  },
  {
    id: '001-where-safer-than-sql',
    // The sentence is about the query-by-example object (the source's find({"name": "john"})), said
    // before the post turns to $where ("What many don't know is you can also do this") and says
    // "DO NOT do this": the author never calls $where safe (read-2 dispute 1).
    claim:
      'queries built by code as objects (query by example) are a much better and safer fit than constructing SQL strings',
    published: 'no figure',
    quote:
      '"this starts with the premise queries will be constructed by code from some form of UI - it\'s actually a much better and safer fit than constructing SQL strings" (said of the object query find({"name","john"}), before the post turns to $where)',
    setting: SETTING,
    boundary:
      "no figure: an object query's values are data the server matches, never parsed as query text (no string to inject into); the counterpoint is in the mechanism: the $where form the post shows next is code again",
    mechanism: {
      why: "a filter document is BSON: its values are compared as values, so a value from a user cannot become an operator or code unless the application lets it build the object's keys ($-operators); a $where body, which the post shows next, is JavaScript text evaluated on the server, code built from strings, and security.javascriptEnabled: false (--noscripting) disables it",
      ref: 'https://www.mongodb.com/docs/manual/reference/configuration-options/',
    },
    verdict: unmeasured({
      here: 'a safety claim with no figure: the lab measures no injection surface',
      measure:
        'a functional check that an object query given a hostile string as a value matches it as a value (no operator, no code), beside a $where built from the same string, which runs it, and --noscripting, which refuses the $where',
    }),
  },
];
