'use strict';
// Two dialects. The shell side (scripts/, the generators in fixtures/, and the few files of a
// study that its script load()s) is plain ES2017 run by mongosh and pasted into Robo 3T's legacy
// shell: the shell's globals, no modules, and each file's top-level `var`s are globals the other
// files use. Everything else is Node (CommonJS). Formatting is Prettier's (.prettierrc.json).
const fs = require('fs');
const path = require('path');
const js = require('@eslint/js');
const globals = require('globals');

// Files mongosh load()s (a study's shell-side helpers live beside its Node part, named by their
// dialect: *.mongosh.js).
const SHELL = [
  'scripts/**/*.js',
  'fixtures/gen.js',
  'fixtures/*-gen.js',
  'lib/studies/**/*.mongosh.js',
  'test/fixtures/toy/scripts/*.js',
];

// What mongosh (and the legacy shell) defines.
const MONGOSH = {
  db: 'writable',
  print: 'readonly',
  printjson: 'readonly',
  load: 'readonly',
  sleep: 'readonly',
  quit: 'readonly',
  EJSON: 'readonly',
  ObjectId: 'readonly',
  ISODate: 'readonly',
  NumberLong: 'readonly',
  NumberInt: 'readonly',
  NumberDecimal: 'readonly',
  Code: 'readonly',
  Timestamp: 'readonly',
  BinData: 'readonly',
  UUID: 'readonly',
  MinKey: 'readonly',
  MaxKey: 'readonly',
  DBRef: 'readonly',
  Long: 'readonly',
  Decimal128: 'readonly',
  rs: 'readonly',
  sh: 'readonly',
  version: 'readonly',
  use: 'readonly',
  __dirname: 'readonly',
  __filename: 'readonly',
  // Node's, where a shell file is also required by Node (each use guarded with typeof)
  module: 'writable',
  require: 'readonly',
  globalThis: 'readonly',
  process: 'readonly',
};

// The shell files' own globals: what one file declares at its top level (`var lab = ...`,
// `function recordHit(...)`) the scripts that load() it use. Read from the files themselves, so a
// new paste-able function needs no entry here; a name no file declares is still an error.
function shellGlobals() {
  const walk = (dir) =>
    fs
      .readdirSync(path.join(__dirname, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const asRegExp = (glob) =>
    new RegExp(
      `^${glob
        .replace(/[.]/g, '\\.')
        .replace(/\*\*\//g, '(.*/)?')
        .replace(/\*/g, '[^/]*')}$`,
    );
  const patterns = SHELL.map(asRegExp);
  const files = ['scripts', 'fixtures', 'lib/studies', 'lib/core', 'test/fixtures']
    .flatMap(walk)
    .filter((f) => patterns.some((re) => re.test(f)));
  const names = new Set();
  for (const f of files) {
    const text = fs.readFileSync(path.join(__dirname, f), 'utf8');
    for (const m of text.matchAll(/^(?:var|function)\s+([A-Za-z_$][\w$]*)/gm)) names.add(m[1]);
  }
  return Object.fromEntries([...names].map((n) => [n, 'writable']));
}

// Server-side JavaScript: map/reduce's emit, and `field`, the scope variable mr_functions.js's map reads.
// labStats*: the functions mr_store_functions.js stores in system.js, which map/reduce calls by name.
const SERVER_JS = {
  emit: 'readonly',
  field: 'readonly',
  labStatsMap: 'readonly',
  labStatsReduce: 'readonly',
  labStatsFinalize: 'readonly',
};

module.exports = [
  { ignores: ['node_modules/**', 'results/**', 'tmp/**', 'docs/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    ignores: SHELL,
    languageOptions: { ecmaVersion: 2022, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**/*.js'],
    ignores: SHELL,
    languageOptions: { globals: { ...globals.mocha } },
  },
  {
    files: SHELL,
    languageOptions: {
      ecmaVersion: 2017,
      sourceType: 'script',
      globals: { ...MONGOSH, ...SERVER_JS, ...shellGlobals(), LAB_MODE: 'writable' },
    },
    rules: {
      // A top-level var is how a shell file exports (STUDY, lab, the paste-able functions).
      'no-unused-vars': ['error', { vars: 'local', args: 'none', caughtErrors: 'none' }],
      'no-redeclare': ['error', { builtinGlobals: false }],
    },
  },
  // The paste-able functions also run in Robo 3T's 4.2 legacy shell: none of what it lacks.
  {
    files: ['scripts/*_functions.js', 'scripts/bigagg_pipelines.js'],
    rules: {
      'no-restricted-globals': ['error', 'console', 'BigInt', 'EJSON', 'require'],
      'no-restricted-properties': ['error', { object: 'Object', property: 'fromEntries' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(flat|flatMap)$/]',
          message: "Robo 3T's shell has no Array.prototype.flat/flatMap",
        },
      ],
    },
  },
  // Small functions: none over 60 lines (blank lines and comments not counted) in what the lab ships.
  // A module-pattern wrapper, the shell's way to make a module (var LabStats = (function () {...})()),
  // is not a function anyone reads as one: not counted (IIFEs: false); every function inside it is.
  {
    files: ['bin/**/*.js', 'lib/**/*.js', 'scripts/**/*.js', 'fixtures/**/*.js', 'bench/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: false }] },
  },
  // The shell side is ES2017 (mongosh and Robo 3T): an Error has no `cause` option there, so a
  // rethrow carries the cause's message in its own; and a collection or database name check must
  // name the NUL byte MongoDB forbids, a control character in a regular expression on purpose.
  {
    files: ['scripts/**/*.js'],
    rules: { 'preserve-caught-error': 'off' },
  },
  { files: ['scripts/lib/fixture.js'], rules: { 'no-control-regex': 'off' } },
];
