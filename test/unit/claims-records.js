'use strict';
// What the claims tests share: records built the way the runner builds them (lab.harness rounds,
// then lab.pointRecords) and one claim's verdict out of claims.judge.
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');
const claims = require('../../lib/core/claims');

/**
 * Variants timed in the same rounds against `baseline`: every round multiplies all times by a shared
 * drift (1 % a round) and each non-baseline variant's by its own jitter(round); `extra` goes with
 * every round (a record's extra).
 */
function timedRecords(study, medians, baseline, axis = {}, { rounds = 5, jitter = () => 1, extra } = {}) {
  const h = lab.harness(Object.keys(medians), { warmup: 0, rounds, baseline });
  let step;
  while ((step = h.next()) !== null) {
    const own = step.variant === baseline ? 1 : jitter(step.round);
    h.record(step, medians[step.variant] * (1 + 0.01 * step.round) * own, 1, extra);
  }
  return lab.pointRecords({ name: study }, {}, axis, h.result(), {}, {});
}

/** verdictOf(entry, id, records, env = defaultEnv, params): the judged claim `id` (it must be there). */
const verdictOfWith =
  (defaultEnv) =>
  (entry, id, recs, env = defaultEnv, params = {}) => {
    const v = claims.judge(entry, recs, env, params).find((c) => c.id === id);
    expect(v, id).to.not.equal(undefined);
    return v;
  };

module.exports = { timedRecords, verdictOfWith };
