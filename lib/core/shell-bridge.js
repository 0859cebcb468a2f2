// @ts-check
'use strict';
// The one face of a study's shell side. A study's script is loaded once in a session's mongosh
// runtime (ShellSession.loadStudy, LAB_MODE = 'node'); Node then calls its functions in that runtime:
// lab.node's bridge (scripts/lib/lab.js, "the Node bridge") for every study, and a few functions a
// study's script defines for its own Node part. Each has a named method here, so a search for
// `.sample(` or `.warm(` finds every caller, and the shell's names are written in this file only.
// The runtime resolves each call to the function's return value (~1-2 ms; an evaluation costs ~20 ms).

/** @typedef {import('./shell-runner').ShellSession} ShellSession */
/** @typedef {import('./types').StudyDescription} StudyDescription */
/** @typedef {import('./types').ShellConfiguration} ShellConfiguration */
/** @typedef {import('./types').AxisPoint} AxisPoint */
/** @typedef {import('./types').Params} Params */

class ShellBridge {
  /**
   * @param {ShellSession} session a session the study's script is loaded in
   * @param {string} study the study's name (its STUDY.name)
   */
  constructor(session, study) {
    this.session = session;
    this.study = study;
  }

  /**
   * lab.node.<fn>(study, ...args) in the session's runtime.
   * @param {string} fn
   * @param {...any} args
   * @returns {Promise<any>}
   */
  node(fn, ...args) {
    return this.session.call(`lab.node.${fn}`, this.study, ...args);
  }

  /** @returns {Promise<StudyDescription>} the declaration: parameters, variants, baseline, unit */
  describe() {
    return this.node('describe');
  }

  /**
   * Configures the study with `values` by its declaration's rules (a bad parameter throws, code
   * LAB_PARAMETER); later calls use these parameters.
   * @param {Params} values NAME -> value, the profile's and the user's
   * @param {string[]} nodeVariants the Node part's variant names (VARIANTS may name them too)
   * @returns {Promise<ShellConfiguration>}
   */
  configure(values, nodeVariants) {
    return this.node('configure', values, nodeVariants);
  }

  /** @returns {Promise<string[]>} the collections the chosen shell variants write besides the data */
  derived() {
    return this.node('derived');
  }

  /** @returns {Promise<object>} the fixture the declaration prepares (generated or reused by marker) */
  fixture() {
    return this.node('fixture');
  }

  /** @returns {Promise<boolean>} the declaration's setup(p), once the fixture is ready */
  setup() {
    return this.node('setup');
  }

  /** @returns {Promise<AxisPoint[]>} the axis points (after the fixture and setup: they may depend on the data) */
  points() {
    return this.node('points');
  }

  /**
   * @param {AxisPoint} point
   * @returns {Promise<boolean>} the declaration's setupPoint(p, point), before the point is measured
   */
  setupPoint(point) {
    return this.node('setupPoint', point);
  }

  /**
   * @param {string[]} names shell variants the server's version allows
   * @param {AxisPoint} point
   * @returns {Promise<string[]>} those of `names` whose `able(p, point)` lets them run at `point`
   */
  able(names, point) {
    return this.node('able', names, point);
  }

  /**
   * @param {string} variant
   * @param {AxisPoint} point
   * @returns {Promise<object|null>} the variant's plan (explained once, untimed)
   */
  explain(variant, point) {
    return this.node('explain', variant, point);
  }

  /**
   * One timed run of a shell variant.
   * @param {string} variant
   * @param {AxisPoint} point
   * @returns {Promise<{ms: number, answer: any, extra?: object, timedMs?: number}>}
   */
  sample(variant, point) {
    return this.node('sample', variant, point);
  }

  /**
   * @param {object[]} records the study's result records (lab.node.report prints its extra lines)
   * @returns {Promise<boolean>}
   */
  report(records) {
    return this.node('report', records);
  }

  // ---- functions a study's script defines for its own Node part --------------------------------

  /**
   * scripts/ts_designs.js, tsDesigns: the time-series designs' state, one pass, the warm-up and sizes.
   * @returns {{pass: (p: Params, grain: string, axis: object) => Promise<any>, warm: (p: Params, mode: string) => Promise<any>, storage: (p: Params) => Promise<any>}}
   */
  get tsDesigns() {
    const call = (fn, ...args) => this.session.call(`tsDesigns.${fn}`, ...args);
    return {
      pass: (p, grain, axis) => call('pass', p, grain, axis),
      warm: (p, mode) => call('warm', p, mode),
      storage: (p) => call('storage', p),
    };
  }

  /**
   * scripts/where_vs_agg.js: $where's functional checks (its answer, a string filter, the sandbox)
   * on the study's collection: its name is all the check reads of the parameters.
   * @param {string} coll
   * @returns {Promise<any>}
   */
  whereFunctional(coll) {
    return this.session.call('whereFunctional', coll);
  }
}

/**
 * @param {ShellSession} session
 * @param {string} study
 * @returns {ShellBridge}
 */
function shellBridge(session, study) {
  return new ShellBridge(session, study);
}

module.exports = { ShellBridge, shellBridge };
