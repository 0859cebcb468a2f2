// @ts-check
'use strict';
// defineStudy(): the one validation of a study's Node part (docs/contract.md, "The Node part").
// Unknown keys are refused, required keys must be there, each thing has one name. The title and
// the source article are the script's (its `var STUDY = {...}`), read from the declaration when
// first asked for, so the two sides cannot drift. The core never requires a study: the list of
// studies (lib/studies/index.js) hands its definitions to registry().
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const { LabError } = require('../infra/errors');

/** @typedef {import('./types').StudyEntry} StudyEntry */

const SCRIPTS = path.resolve(__dirname, '..', '..', 'scripts');
const PROFILES = ['tiny', 'quick', 'seed'];

class StudyDefinitionError extends LabError {}

// Every key of the Node part: its type, and whether it must be there. What each means: docs/contract.md.
const KEYS = {
  name: { type: 'string', required: true },
  script: { type: 'string', required: true },
  profiles: { type: 'object', required: true },
  expected: { type: 'string', required: true },
  seedExpected: { type: 'string', required: true },
  cli: { type: 'object' },
  writeUp: { type: 'string' },
  load: { type: 'function' },
  derived: { type: 'function' },
  oracle: { type: 'function' },
  same: { type: 'function' },
  points: { type: 'function' },
  beforePoint: { type: 'function' },
  measures: { type: 'function' },
  after: { type: 'function' },
  headline: { type: 'function' },
  pointTables: { type: 'function' },
  variants: { type: 'array' },
  claims: { type: 'array' },
  practices: { type: 'array' },
  tables: { type: 'array' },
  charts: { type: 'array' },
  helpers: { type: 'object' },
  peers: { type: 'array' },
};
// Servers beside MongoDB a study may ask the run for (`peers`): `run` and `findings` start one of
// each for every study that names it (lib/cli/study-run.js sharedPeers).
const PEERS = ['postgres'];
const VARIANT_KEYS = {
  name: { type: 'string', required: true },
  what: { type: 'string', required: true },
  run: { type: 'function', required: true },
  where: { type: 'string' },
  minVersion: { type: 'string' },
  able: { type: 'function' },
  explain: { type: 'function' },
};
const TABLE_KEYS = {
  title: { type: 'string', required: true },
  rows: { type: 'string', required: true },
  cols: { type: 'string', required: true },
  value: { type: ['string', 'function'], required: true },
  filter: { type: 'function' },
};
// Names the Node part once used for what now has one name (or comes from the script).
const RENAMED = {
  title: "the title is the script's (STUDY.title): remove it here",
  source: "the source article is the script's (STUDY.source): remove it here",
  quick: 'sizes go under profiles: {tiny, quick, seed}',
  tiny: 'sizes go under profiles: {tiny, quick, seed}',
  seedScale: "sizes go under profiles: {tiny, quick, seed} (seed is the source's scale)",
};
const VARIANT_RENAMED = {
  skippedWhy: 'able gives the reason itself: true, false (cannot answer here) or a text saying what it lacks',
};

function typeOf(v) {
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v;
}

/** Refuses keys obj may not have, and missing or mistyped ones; `where` names obj in the message. */
function checkKeys(obj, keys, where) {
  for (const k of Object.keys(obj)) {
    if (!keys[k]) {
      const renamed = keys === VARIANT_KEYS ? VARIANT_RENAMED : keys === KEYS ? RENAMED : {};
      const hint = renamed[k] ? `: ${renamed[k]}` : ` (known: ${Object.keys(keys).join(', ')})`;
      throw new StudyDefinitionError(`${where}: unknown key ${JSON.stringify(k)}${hint}`);
    }
    const types = [].concat(keys[k].type);
    if (obj[k] !== undefined && !types.includes(typeOf(obj[k]))) {
      throw new StudyDefinitionError(`${where}: ${k} must be a ${types.join(' or ')}, not a ${typeOf(obj[k])}`);
    }
  }
  for (const [k, spec] of Object.entries(keys)) {
    if (spec.required && obj[k] === undefined) throw new StudyDefinitionError(`${where}: ${k} is required`);
  }
}

function checkProfiles(def) {
  const where = `study ${def.name}: profiles`;
  for (const k of Object.keys(def.profiles)) {
    if (!PROFILES.includes(k))
      throw new StudyDefinitionError(
        `${where}: unknown profile ${JSON.stringify(k)} (profiles: ${PROFILES.join(', ')})`,
      );
  }
  for (const k of PROFILES) {
    const sizes = def.profiles[k];
    if (typeOf(sizes) !== 'object') throw new StudyDefinitionError(`${where}: ${k} is required ({PARAM: value, ...})`);
    for (const name of Object.keys(sizes)) {
      if (!/^[A-Z][A-Z0-9_]*$/.test(name))
        throw new StudyDefinitionError(`${where}.${k}: ${JSON.stringify(name)} is not a script parameter (UPPER_CASE)`);
    }
  }
}

function checkCli(def) {
  for (const [k, v] of Object.entries(def.cli || {})) {
    if (!['docs', 'runs', 'seed'].includes(k))
      throw new StudyDefinitionError(`study ${def.name}: cli: unknown option ${JSON.stringify(k)} (docs, runs, seed)`);
    if (typeof v !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(v))
      throw new StudyDefinitionError(`study ${def.name}: cli.${k} must name a script parameter (UPPER_CASE)`);
  }
}

/**
 * Evaluates a study's declaration the way `load()` would, with LAB_MODE = 'node': `lab.main(STUDY)`
 * then only registers the study. No server and no `db`: a declaration never touches the database at
 * its top level (docs/contract.md). Returns { STUDY, node: the context's lab.node }.
 */
function loadDeclaration(script) {
  const ctx = vm.createContext({ LAB_MODE: 'node', print() {}, printjson() {} });
  ctx.require = (m) => require(m.startsWith('.') ? path.resolve(ctx.__dirname, m) : m);
  ctx.load = (file) => {
    const abs = path.resolve(file);
    const outer = ctx.__dirname;
    ctx.__dirname = path.dirname(abs);
    try {
      vm.runInContext(fs.readFileSync(abs, 'utf8'), ctx, { filename: abs });
    } finally {
      ctx.__dirname = outer;
    }
    return true;
  };
  if (path.isAbsolute(script)) ctx.load(path.join(SCRIPTS, 'lib', 'lab.js')); // a user's file uses the lab, not loads it
  ctx.load(path.resolve(SCRIPTS, script));
  if (!ctx.STUDY)
    throw new StudyDefinitionError(`${path.isAbsolute(script) ? script : `scripts/${script}`} declares no STUDY`);
  return { STUDY: ctx.STUDY, node: ctx.lab.node };
}

/** The STUDY a script declares (see loadDeclaration). */
function readDeclaration(script) {
  return loadDeclaration(script).STUDY;
}

// What a user's own declaration may hold: what the harness reads, and no fixture, setup or
// report, so that the run only reads the user's data (the variants are the user's own code).
const OWN_KEYS = ['name', 'title', 'source', 'params', 'axes', 'baseline', 'boundaries', 'unit', 'variants', 'same'];

/**
 * A study from a user's declaration file (`run ./my_study.js`): the same contract as the lab's
 * scripts (parameters, axes, variants, baseline), no Node part, no claims. Its answers are checked
 * against each other (the baseline's), as the drop-in does.
 * @param {string} file
 * @returns {StudyEntry}
 */
function studyFromFile(file) {
  const abs = path.resolve(file);
  if (!fs.existsSync(abs))
    throw new StudyDefinitionError(
      `${file}: no such file (a study of your own is a declaration file: docs/own-study.md)`,
    );
  const loaded = loadDeclaration(abs);
  const decl = loaded.STUDY;
  const where = `${file}: STUDY`;
  const extra = Object.keys(decl).filter((k) => !OWN_KEYS.includes(k));
  if (extra.length)
    throw new StudyDefinitionError(
      `${where} has ${extra.join(', ')}: a study of your own reads your data as it is (keys: ${OWN_KEYS.join(', ')})`,
    );
  if (!/^[a-z0-9-]+$/.test(decl.name || '')) throw new StudyDefinitionError(`${where}.name must be [a-z0-9-]`);
  if (!Array.isArray(decl.variants) || decl.variants.length < 2)
    throw new StudyDefinitionError(`${where}.variants: give at least two forms to compare`);
  const source = { id: 'own', title: decl.title || decl.name };
  Object.defineProperty(source, 'toString', { value: () => 'own' });
  const own = {
    name: decl.name,
    script: abs,
    title: decl.title || decl.name,
    source,
    own: true,
    profiles: { tiny: {}, quick: {}, seed: {} },
    cli: { runs: 'RUNS' },
    expected: '?',
    seedExpected: '?',
  };
  // Its parameter rules in Node, as a lab study's (defineStudy's offline): refused before a server.
  Object.defineProperty(own, 'offline', { enumerable: false, value: () => loaded.node });
  return own;
}

/** The source article as the script gives it; its string form is its id ('001'). */
function sourceOf(decl, script) {
  const s = decl.source;
  if (!s || typeof s.id !== 'string')
    throw new StudyDefinitionError(`scripts/${script}: STUDY.source must be {id: '00x', author, title, year, url}`);
  const article = JSON.parse(JSON.stringify(s));
  Object.defineProperty(article, 'toString', { value: () => article.id });
  return article;
}

/**
 * Validates a study's Node part and returns the study: the definition, plus `title` and `source`
 * read from its script on first use.
 * @param {StudyEntry} def
 * @returns {StudyEntry}
 */
function defineStudy(def) {
  if (typeOf(def) !== 'object') throw new StudyDefinitionError('defineStudy: expected an object');
  const where = `study ${def.name || '(no name)'}`;
  checkKeys(def, KEYS, where);
  if (!/^[a-z0-9-]+$/.test(def.name)) throw new StudyDefinitionError(`${where}: name must be [a-z0-9-]`);
  checkProfiles(def);
  checkCli(def);
  for (const peer of def.peers || [])
    if (!PEERS.includes(peer))
      throw new StudyDefinitionError(
        `${where}: peers: unknown peer ${JSON.stringify(peer)} (known: ${PEERS.join(', ')})`,
      );
  (def.variants || []).forEach((v, i) =>
    checkKeys(v, VARIANT_KEYS, `${where}: variants[${i}]${v.name ? ` (${v.name})` : ''}`),
  );
  (def.tables || []).forEach((t, i) => checkKeys(t, TABLE_KEYS, `${where}: tables[${i}]`));
  const study = { ...def };
  let loaded;
  const declaration = () => {
    if (!loaded) loaded = loadDeclaration(def.script);
    const decl = loaded.STUDY;
    if (decl.name !== def.name)
      throw new StudyDefinitionError(`${where}: scripts/${def.script} declares study ${JSON.stringify(decl.name)}`);
    return decl;
  };
  let source;
  Object.defineProperty(study, 'title', { enumerable: true, get: () => declaration().title });
  Object.defineProperty(study, 'source', {
    enumerable: true,
    get: () => source || (source = sourceOf(declaration(), def.script)),
  });
  // The declaration's lab.node in Node (no server, no shell runtime): its parameter rules, the very
  // code a session runs, so that a bad parameter is refused before a server is started or reached.
  Object.defineProperty(study, 'offline', {
    enumerable: false,
    value: () => {
      declaration();
      return loaded.node;
    },
  });
  return study;
}

/**
 * The list of studies and findStudy, from the definitions lib/studies/index.js gives.
 * @param {StudyEntry[]} studies
 * @returns {{studies: StudyEntry[], findStudy: (name: string) => StudyEntry}}
 */
function registry(studies) {
  const names = new Set();
  for (const s of studies) {
    if (names.has(s.name)) throw new StudyDefinitionError(`two studies are named ${s.name}`);
    names.add(s.name);
  }
  function findStudy(name) {
    const s = studies.find((x) => x.name === name);
    if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
    return s;
  }
  return { studies, findStudy };
}

module.exports = { defineStudy, registry, studyFromFile, readDeclaration, StudyDefinitionError, PROFILES, PEERS };
