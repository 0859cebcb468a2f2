'use strict';
// The source's claims (001a, John Page, "MongoDB is not a Javascript Database", 2016), judged on the
// where study's records. His figures: 1,000,000 documents {_id, a, b} (38 MB), one shell timing
// each: $where 38,226 ms, the unindexed {a: {$lt: 1}} 384 ms, the hybrid 263 ms, the aggregation
// 27 ms. Server version, engine and hardware are not stated (the post is dated 2016-03-31).
const { ratioRule, whenMeasured, results, VERDICT } = require('../../core/claims');

const SOURCE_N = 1000000;
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

/** 001-where-js-functional: the string shorthand and the sandbox, from the where-functional record. */
function jsFunctional(records) {
  const f = measureOf(records, 'where-functional');
  const sandbox =
    f.sandbox === 'refused' ? `a $where touching db fails (${failure(f.dbError)})` : 'a $where reached db';
  const str = {
    same: `find('this.a > this.b') returns what {$where} returns (the first ${f.checked} matches by _id${f.whereAgrees ? ', as the generator says' : ''})`,
    rejected: `find('this.a > this.b') is refused (${f.stringError && failure(f.stringError)})`,
    differs: "find('this.a > this.b') returns other documents than {$where}",
  }[f.stringFilter];
  const figure = `${f.stringFilter === 'same' ? 'string filter = $where' : `string filter ${f.stringFilter}`}; sandbox ${f.sandbox}`;
  const setting = functionalSetting(`${str}; ${sandbox}`);
  if (f.sandbox !== 'refused' || f.stringFilter === 'differs' || !f.whereAgrees) {
    return {
      verdict: VERDICT.REVERSED,
      figure,
      interval: null,
      setting,
      why: `${str}; ${sandbox}${f.whereAgrees ? '' : '; $where disagrees with the generator'}`,
    };
  }
  if (f.stringFilter === 'rejected') {
    return {
      verdict: VERDICT.GONE,
      figure,
      interval: null,
      setting,
      why: `the string shorthand is gone: ${str} (the legacy shell turned it into {$where}); the sandbox half holds: ${sandbox}`,
    };
  }
  return { verdict: VERDICT.HOLDS, figure, interval: null, setting, why: `${str}; ${sandbox}` };
}

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

// $where has a time budget: it may run once, and its interval then borrows the other side's spread.
function pooled({ iv, slow, fast }) {
  return iv && iv.pooled ? `${slow} ran once (its time budget): its spread is taken as ${fast}'s` : undefined;
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
      'time($where) / time(plain collection scan) at 1,000,000 documents: holds inside [33x, 300x]; stronger above; weaker [0.8x, 33x); reversed below 0.8x',
    verdict: ratioRule({ slow: 'where', fast: 'plain', band: [33, 300], scale, note: pooled }),
  },
  {
    id: '001-where-no-index',
    claim: '$where converts every document: no index is used',
    published: 'no figure (the 38,226 ms is the consequence)',
    quote: '"(2) It has to convert every record in the Collection - there are no indexes used here."',
    setting: SETTING,
    boundary:
      "functional, from the recorded plans: the $where-only filter is a COLLSCAN (every document examined) while the hybrid's indexed clause is an IXSCAN: holds; an index used by $where alone: reversed",
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
    boundary: 'time($where) / time(hybrid), index on b: holds inside [48x, 436x]',
    verdict: ratioRule({ slow: 'where', fast: 'hybrid', band: [48, 436], scale, note: pooled }),
  },
  {
    id: '001-aggregation',
    claim: 'the aggregation pipeline is ~1,400x faster than $where (the source says "over 1,500")',
    published: '1,416x',
    quote: '"And that takes ... 27ms, over 1,500 times faster than the Javascript!!"',
    derivation:
      '38,226 ms / 27 ms = 1,415.8x: the source\'s "over 1,500" is its own arithmetic slip. The pipeline\'s $match uses the index on b, the $where alone scans: the ratio mixes index use with JavaScript cost',
    setting: SETTING,
    boundary: 'time($where) / time(source-agg): holds inside [472x, 4,250x]',
    verdict: ratioRule({ slow: 'where', fast: 'source-agg', band: [472, 4250], scale, note: pooled }),
  },
  {
    id: '001-agg-vs-hybrid',
    claim: 'the aggregation pipeline is much faster than the hybrid, and just as capable',
    published: '9.7x (derived)',
    quote:
      '"But is it the best option? No, Javascript is rarely the best option. MongoDB offers something much faster and just as capable, the Aggregation Pipeline."',
    derivation: '263 ms / 27 ms = 9.7x: the like-for-like pair (both use the index on b)',
    setting: SETTING,
    boundary: 'time(hybrid) / time(source-agg): holds inside [3.2x, 29x]',
    verdict: ratioRule({ slow: 'hybrid', fast: 'source-agg', band: [3.2, 29], scale, note: pooled }),
  },
  {
    id: '001-where-js-functional',
    claim: 'a string filter is a $where, and the sandboxed JavaScript sees one document, not the database',
    published: 'no figure',
    quote:
      '"The Javascript interpreter in MongoDB is very sandboxed - so you cannot call out to other services or even access other parts of the DB - you are limited to one record"',
    setting: SETTING,
    boundary:
      "functional, untimed: find('this.a > this.b') against {$where: 'this.a > this.b'} on the first 200 matches by _id (the generator's oracle), and a $where whose body calls db.getSiblingDB. Holds: the same documents, and the db call fails; gone: the shell or the find command refuses the string shorthand while the db call still fails; reversed: other documents, or the db call succeeds",
    verdict: whenMeasured(
      (records) => !!measureOf(records, 'where-functional'),
      {
        here: 'no where-functional record in these results (a run before the check existed)',
        measure: 'where --profile quick (the check runs once per run, untimed)',
      },
      jsFunctional,
    ),
  },
  {
    id: '001-bson-typed',
    claim: 'BSON stores everything strongly typed and quickly traversable',
    published: 'no figure',
    quote: '"Unlike Javascript everything in MongoDB is stored strongly typed and quickly traversable."',
    setting: SETTING,
    boundary:
      'functional: one document of Date, int32, int64 (2^53 + 1), double and Decimal128 (0.1) written and read back: holds when each keeps its $type and value; reversed when any does not. "Quickly traversable" is judged by 004-field-scan-hierarchy (a field is found by a linear walk)',
    verdict: whenMeasured(
      (records) => !!measureOf(records, 'bson-types'),
      {
        here: 'no bson-types record in these results (a run before the check existed)',
        measure: 'where --profile quick (the check runs once per run, untimed)',
      },
      bsonTyped,
    ),
  },
];
