'use strict';
// A study's parameters as a run configures them: the profile's values, then the user's; and the
// check of them all in Node, before a run starts or reaches any server. Nothing here loads the
// driver or the shell runtime: a refused parameter costs neither.
const { ParameterError } = require('../infra/errors');

/** The parameters of a profile (tiny, quick or seed) of a study: defineStudy() made sure each is there. */
function profileParams(entry, profile) {
  const sizes = entry.profiles[profile];
  if (!sizes)
    throw new Error(`study ${entry.name}: no profile ${JSON.stringify(profile)} (profiles: tiny, quick, seed)`);
  return sizes;
}

/** The configuration's values: the profile's, then the user's; numbers given to text parameters as text. */
function configValues(entry, desc, profile, params) {
  // The runner works in its own database: it may create the study's collections.
  const values = { ...(desc.params.GENERATE ? { GENERATE: true } : {}), ...profileParams(entry, profile), ...params };
  // A --set SIZES=100 arrives as a number: text parameters take it as the text it was.
  for (const [k, v] of Object.entries(values)) {
    const kind = desc.params[k] && desc.params[k].kind;
    if (typeof v === 'number' && (kind === 'name' || kind === 'names')) values[k] = String(v);
  }
  return values;
}

/**
 * Every chosen study's parameters checked in Node, by its declaration's own rules (entry.offline:
 * lab.node of the script evaluated in Node, lib/core/registry.js, the very code a session runs),
 * before any server is started or reached: a typo costs no mongod, no connection and no shell
 * runtime. A study of the user's own has offline rules too (registry.js studyFromFile).
 */
function checkParams(entries, { profile = 'quick', paramsOf = () => ({}), profileOf } = {}) {
  for (const entry of entries) {
    if (!entry.offline) continue;
    const node = entry.offline();
    try {
      const values = configValues(
        entry,
        node.describe(entry.name),
        profileOf ? profileOf(entry) : profile,
        paramsOf(entry),
      );
      node.configure(
        entry.name,
        values,
        (entry.variants || []).map((v) => v.name),
      );
    } catch (e) {
      throw ParameterError.of(e) || e;
    }
  }
}

module.exports = { profileParams, configValues, checkParams };
