'use strict';
// The source's claims (002, a database as a task scheduler), judged on the tasks study's records.
const lab = require('../../../scripts/lib/lab');
const { fx } = require('../../core/claims');

// The MongoDB ways of picking a random unprocessed task other than skip(R), as the why names them.
const ALTERNATIVES = { 'random-field': 'a random indexed field', 'sample-first': '$sample first', 'match-sample': '$match + $sample' };
// skip(R) "holds" while no alternative picks at least this many times faster (the lab's "clearly
// faster", as in the mapreduce speed claim).
const CLEARLY = 2;

module.exports = [
  {
    id: '002-random-pick', claim: 'pick a random unprocessed task with find({processed: 0}).skip(R).limit(1) (SQL: LIMIT 1 OFFSET R)',
    seedFigure: 'no figure published (the post stops at the queries)', setting: 'MongoDB 2.x, MySQL, 1M matrix tasks, 54 workers',
    // The post names skip(R) as the way to pick and publishes no figure, so the rule judges the
    // method against the alternatives at the same queue: it holds while skip(R) (over a scan or
    // the index, the faster) is within 2x of the fastest MongoDB alternative (a still-fair way to
    // pick at this size), changed when one is at least 2x faster. PostgreSQL's OFFSET R is the
    // same method in SQL: shown, not compared.
    verdict(records) {
      const at = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.part === 'pick');
      const per = (v) => { const r = at.find((x) => x.variant === v); return r ? r.median / r.answer.picks : null; };
      const skip = per('skip-scan');
      const skipIx = per('skip-index');
      const rf = per('random-field');
      if (skip === null || rf === null) return { verdict: 'not-measurable', figure: '-', why: 'needs skip-scan and random-field' };
      const parts = ['skip-scan', 'skip-index', 'sample-first', 'match-sample', 'random-field', 'pg-offset']
        .filter((v) => per(v) !== null).map((v) => `${v} ${lab.fmtMs(per(v))}/pick`);
      const claims = records.filter((r) => r.type === 'result' && !r.skipped && r.axis.part === 'claim');
      const clean = claims.every((r) => r.answer && r.answer.double === 0 && r.answer.lost === 0);
      const conf = claims.filter((r) => r.extra).map((r) => `${r.variant} W${r.axis.W}: ${lab.fmtInt(r.extra.claimsPerSec)} claims/s, ${lab.fmtInt(r.extra.writeConflicts)} write conflicts`);
      const skipBest = skipIx === null ? skip : Math.min(skip, skipIx);
      const alt = Object.keys(ALTERNATIVES).filter((v) => per(v) !== null).reduce((a, v) => (per(v) < per(a) ? v : a));
      const factor = skipBest / per(alt);
      const claim = 'findOneAndUpdate turns the pick into an atomic claim, which picking alone is not (two workers may pick the same task)';
      return {
        verdict: factor >= CLEARLY ? 'changed' : 'holds',
        figure: `${parts.join(', ')}` + (conf.length ? `; claiming: ${conf.join('; ')}; ${clean ? 'no task claimed twice or lost' : 'DOUBLE CLAIMS OR LOSSES'}` : ''),
        why: factor >= CLEARLY
          ? `skip(R) still works but walks R entries per pick (${fx(factor)} ${ALTERNATIVES[alt]} here, and it grows with the queue); ` +
            `${alt === 'random-field' ? 'a random field with an index picks in about one index seek' : `${ALTERNATIVES[alt]} is the fastest pick here`}, and ${claim}`
          : `skip(R) picks within ${CLEARLY}x of the fastest alternative here (${ALTERNATIVES[alt]}: skip takes ${fx(factor)} its time): at this queue size walking R entries costs little, though it grows with the queue; ${claim}`,
      };
    },
  },
];
