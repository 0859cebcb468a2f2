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
 * A study configured by its declaration's rules in Node (entry.offline: the script's lab.node
 * evaluated in a Node vm, lib/core/registry.js, the very code a session runs), with no shell
 * runtime and no server: { desc, values (what it was given), cfg, derived: every collection it will
 * derive or scratch-write }.
 * @param {Function} valuesOf desc -> the configuration's values (configValues)
 */
function configureOffline(entry, valuesOf) {
  const node = entry.offline();
  const desc = node.describe(entry.name);
  const values = valuesOf(desc);
  const cfg = node.configure(
    entry.name,
    values,
    (entry.variants || []).map((v) => v.name),
  );
  return { desc, values, cfg, derived: derivedNames(node.derived(entry.name), nodeDerived(entry, cfg.params)) };
}

/**
 * Every collection the study will derive or scratch-write, once each: the shell declaration names
 * what its variants write (`shellDerived`), the Node entry what only its Node part writes.
 */
function derivedNames(shellDerived, nodeNames) {
  return [...new Set([...shellDerived, ...nodeNames])];
}

/** The collections only the study's Node part writes, at parameters `p` (its entry's `derived`). */
function nodeDerived(entry, p) {
  return entry.derived ? entry.derived(p) : [];
}

/**
 * Every chosen study's parameters checked in Node, by its declaration's own rules (configureOffline),
 * before any server is started or reached: a typo costs no mongod, no connection and no shell
 * runtime. A study of the user's own has offline rules too (registry.js studyFromFile). Returns what
 * each configured, by study name ({desc, values, cfg, derived}): the pre-check on the server
 * (run-study.js checkStudies) reads it instead of configuring the same values a second time, and
 * the run's session configures the study with the same values (runStudy's `values`).
 * @returns {Map<string, {desc: object, values: object, cfg: object, derived: string[]}>}
 */
function checkParams(entries, { profile = 'quick', paramsOf = () => ({}), profileOf } = {}) {
  const configured = new Map();
  for (const entry of entries) {
    if (!entry.offline) continue;
    const valuesOf = (desc) => configValues(entry, desc, profileOf ? profileOf(entry) : profile, paramsOf(entry));
    try {
      configured.set(entry.name, configureOffline(entry, valuesOf));
    } catch (e) {
      throw ParameterError.of(e) || e;
    }
  }
  return configured;
}

module.exports = { profileParams, configValues, configureOffline, derivedNames, checkParams };
