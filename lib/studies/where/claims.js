'use strict';
// The source's claims (001a, John Page, "MongoDB is not a Javascript Database", 2016), judged on the
// where study's records. His figures: 1,000,000 documents {_id, a, b} (38 MB), one shell timing
// each: $where 38,226 ms, the unindexed {a: {$lt: 1}} 384 ms, the hybrid 263 ms, the aggregation
// 27 ms. Server version, engine and hardware are not stated (the post is dated 2016-03-31).
const {
  rule,
  ratioRule,
  whenMeasured,
  results,
  quietCores,
  usableCores,
  parts,
  exact,
  fx,
  VERDICT,
  LABEL,
} = require('../../core/claims');

const SOURCE_N = 1000000;
const SOURCE_MB = 38; // "That database is only 38MB": 38 MiB (40,000,000 B of 40-byte documents)
const SETTING =
  '1,000,000 documents {a, b} (38 MB), no index for the scans, {b: 1} for the hybrid and the aggregation; server not stated (2016)';

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
  if (f.stringFilter === 'rejected')
    return {
      ...out,
      verdict: VERDICT.GONE,
      why: `the string shorthand is gone: ${str} (the legacy shell turned it into {$where})`,
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
    why: 'every value came back with its BSON type and value, 2^53 + 1 as a long and 0.1 as a decimal included; "quickly traversable" is judged by 004-field-scan-hierarchy',
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

// Machine state. mongod hands each server-side JavaScript call to a thread of its own and waits for
// the answer (MozJSProxyScope, src/mongo/scripting/mozjs/proxyscope.cpp): the same $where took 61 s
// pinned to one core and 232 s on two idle cores of one VM (docs/studies/where.md). A claim
// dominated by server-side JavaScript is therefore judged per state: one pinned core (taskset -c 0)
// or free cores, each state from its own records, and both named when both ran.
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
        reproduce: 'taskset -c 0 npx mongo-perf-lab run where --profile seed',
      };
    const loaded = rs.find((r) => r.loadavg.cores && r.loadavg.start > r.loadavg.cores);
    return loaded
      ? {
          here: `one pinned core, a load average of ${loaded.loadavg.start} on ${loaded.loadavg.cores} cores when the point started`,
          ok: false,
          absent: 'busy-cores',
          reproduce: 'taskset -c 0 npx mongo-perf-lab run where --profile seed, with nothing else running',
        }
      : { here: `usable cores 1, a load average of ${rs[0].loadavg.start} when the point started`, ok: true };
  },
};
const freeCores = quietCores(
  {
    needed: JS_STATE_NEEDED,
    check: (records, env) => ({
      here: `${usableCores(env, records)} usable cores that nothing else wanted (CPU wait at most 40 %, load below the cores)`,
      ok: true,
    }),
  },
  (records) => results(records),
  { cores: 2 },
);
const unknownCores = {
  needed: JS_STATE_NEEDED,
  check: () => ({
    here: 'the records do not say how many cores the run could use',
    ok: false,
    absent: 'no-evidence',
    reproduce: 'where --profile seed on a lab that records usable cores',
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
  return (records, env, params) => {
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
      const other = st.cores === 1 ? 'free cores' : 'one core, taskset -c 0';
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
}

module.exports = [
  {
    id: '001-where-vs-scan',
    claim: '$where is ~100x slower than a plain collection scan',
    published: '99.5x',
    quote: '"384ms - Not bad in human terms" and "38,226 ms - yes 40 Seconds. This is is why you just don\'t do this!"',
    derivation:
      '38,226 ms / 384 ms = 99.5x. His plain query was {a: {$lt: 1}}; ours is the same predicate as the $where ({b < 5, $expr a > b}) forced to a collection scan',
    setting: SETTING,
    boundary:
      'time($where) / time(plain collection scan) at 1,000,000 documents: holds inside [33x, 300x]; stronger above; weaker (1.25x, 33x); no-effect [0.8x, 1.25x]; reversed below 0.8x; judged per machine state (one pinned core, free cores)',
    mechanism: {
      why: '$where turns every document into a JavaScript object and runs the function in the embedded JavaScript engine, on a thread of its own per call (so the machine state moves it), with no index; a plain scan compares BSON values in the query engine. $where is deprecated since 8.0 (a warning is logged); $expr compares two fields without JavaScript since 3.6',
      ref: 'https://www.mongodb.com/docs/manual/core/server-side-javascript/',
    },
    verdict: perState({ slow: 'where', fast: 'plain', band: [33, 300], scale, note: fewRounds }),
  },
  {
    id: '001-where-no-index',
    claim: '$where converts every document: no index is used',
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
      why: "the indexed clause b < 5 leaves ~0.5 % of the documents for the JavaScript to run on; each call still pays the engine's per-call cost and thread hand-off",
      ref: 'https://www.mongodb.com/docs/manual/reference/operator/query/where/',
    },
    verdict: perState({ slow: 'where', fast: 'hybrid', band: [48, 436], scale, note: fewRounds }),
  },
  {
    id: '001-aggregation',
    claim: 'the aggregation pipeline is ~1,400x faster than $where (the source says "over 1,500")',
    published: '1,416x',
    quote: '"And that takes ... 27ms, over 1,500 times faster than the Javascript!!"',
    derivation:
      '38,226 ms / 27 ms = 1,415.8x: the source\'s "over 1,500" is its own arithmetic slip. The pipeline\'s $match uses the index on b, the $where alone scans: the ratio mixes index use with JavaScript cost',
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
      why: 'both use the index on b; the hybrid then runs JavaScript on each candidate (a thread hand-off per call), the pipeline compares natively ($cond/$gt), so the gap is the per-call cost of server-side JavaScript',
      ref: 'https://www.mongodb.com/docs/manual/core/server-side-javascript/',
    },
    verdict: perState({ slow: 'hybrid', fast: 'source-agg', band: [3.2, 29], scale }),
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
          "functional, untimed: find('this.a > this.b') against {$where: 'this.a > this.b'} on the first 200 matches by _id (the generator's oracle). Holds: the same documents; gone: the shell or the find command refuses the string; reversed: other documents",
        mechanism: {
          why: 'the string shorthand was the legacy mongo shell\'s: DBCollection.find turned a string or function into {$where} (jstests/core/where1.js); mongosh hands the filter to the Node driver, whose find refuses anything but a document ("Query filter must be a plain object or ObjectId")',
          ref: 'https://github.com/mongodb/node-mongodb-native/blob/main/src/operations/find.ts',
        },
        verdict: whenMeasured(hasFunctional, FUNCTIONAL_UNMEASURED, stringFilter),
      },
      {
        id: 'sandbox',
        claim: 'the JavaScript cannot reach the rest of the database',
        boundary:
          'functional, untimed: a $where whose body calls db.getSiblingDB. Holds: the call fails (no db object); reversed: it succeeds',
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
    claim: 'BSON stores everything strongly typed and quickly traversable',
    published: 'no figure',
    quote: '"Unlike Javascript everything in MongoDB is stored strongly typed and quickly traversable."',
    setting: SETTING,
    boundary:
      'functional: one document of Date, int32, int64 (2^53 + 1), double and Decimal128 (0.1) written and read back: holds when each keeps its $type and value; reversed when any does not. "Quickly traversable" is judged by 004-field-scan-hierarchy (a field is found by a linear walk)',
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
    id: '001-where-38mb',
    claim: 'the 1,000,000 documents are a small database: only 38 MB',
    published: '38 MB (1,000,000 documents: 38 B each, 40 B if MB is 2^20 bytes)',
    quote: '"38,226 ms - yes 40 Seconds. This is is why you just don\'t do this! That database is only 38MB."',
    derivation:
      '{_id: x, a: Math.random()*1000, b: Math.random()*1000} from the shell: three doubles, 4 + 3 x 11 + 1 = 40 B of BSON per document, 40,000,000 B = 38.1 MiB',
    setting: SETTING,
    boundary:
      "deterministic, at 1,000,000 documents: the collection's BSON size (collStats size) / 38 MB scaled to its count: holds inside [0.8x, 1.25x]; stronger above (a larger database), weaker below",
    mechanism: {
      why: 'BSON stores each double in 8 bytes with a type byte and the field name: three numeric fields make a document of about 40 bytes',
      ref: 'https://www.mongodb.com/docs/manual/reference/bson-types/',
    },
    verdict: whenMeasured(
      (records) => !!measureOf(records, 'data-size'),
      {
        here: 'no data-size record in these results (a run before the size was recorded)',
        measure: 'where --profile quick (the size is read once per run, untimed)',
      },
      // Per document, so judged at any count: the source's 38 MB scaled to the run's documents.
      rule({
        holds: [0.8, 1.25],
        interval: (records) => {
          const d = measureOf(records, 'data-size');
          if (!d || !d.bytes || !d.count) return { iv: null, missing: 'no collection size recorded' };
          const x = d.bytes / ((SOURCE_MB * 1048576 * d.count) / SOURCE_N);
          return {
            iv: exact(x),
            figure: `${(d.bytes / 1048576).toFixed(1)} MB for ${d.count.toLocaleString('en-US')} documents (${(d.bytes / d.count).toFixed(1)} B each): ${fx(x)} the source's 38 MB`,
          };
        },
      }),
    ),
  },
];
