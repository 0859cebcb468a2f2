'use strict';
// Every function of the files the README calls paste-able, proven as a user would use it: its own
// source text (with the helpers its comment names, found by the names it calls, and nothing else
// of the lab) evaluated in a fresh real mongosh against the test server, then called, and its
// return value asserted. Every file's cases share one mongosh process, each in a scope of its own
// and only after the script checked that no earlier case left anything behind (inFreshMongosh).
// Each file must parse as ES2017 (Robo 3T's 4.2 shell has nothing newer), and a function added
// without a case here fails the suite.
const fs = require('fs');
const path = require('path');
const os = require('os');
const acorn = require('acorn');
const { expect } = require('chai');
const { EJSON } = require('bson');
const { testDatabase } = require('./helpers');
const { runCli } = require('../lib/core/shell-runner');

const ROOT = path.join(__dirname, '..');

/** Top-level declarations of a file: name -> source text (function declarations and `var x = ...`). */
function declarations(file) {
  const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const ast = acorn.parse(src, { ecmaVersion: 2017, sourceType: 'script' });
  const out = new Map();
  for (const node of ast.body) {
    if (node.type === 'FunctionDeclaration') out.set(node.id.name, src.slice(node.start, node.end));
    if (node.type === 'VariableDeclaration') {
      for (const d of node.declarations) out.set(d.id.name, `var ${src.slice(d.start, d.end)};`);
    }
  }
  return out;
}

/** The text a user pastes for `name` (a case that calls several, e.g. map with its reduce, names them in `with`): its declaration and those it names, transitively, in file order. */
function pasteText(decls, name) {
  const need = new Set([name]);
  const queue = [name];
  while (queue.length) {
    const text = decls.get(queue.shift());
    for (const other of decls.keys()) {
      if (!need.has(other) && new RegExp(`\\b${other}\\b`).test(text)) {
        need.add(other);
        queue.push(other);
      }
    }
  }
  return [...decls.keys()]
    .filter((n) => need.has(n))
    .map((n) => decls.get(n))
    .join('\n');
}

/**
 * Runs the cases in ONE fresh mongosh (a mongosh start costs ~1.1-1.5 s of CPU, far more than a
 * case): `mongosh URI --quiet --norc <script>`, from `/`, on the test database. Each case is still
 * pasted alone into a fresh shell: its text (and the helpers it names) goes into a function scope
 * of its own, so nothing it declares outlives it, and before it runs the script checks that the
 * shell is as it started: no global added since (a case that assigned one), none of the names in
 * `names` visible (every paste-able file's, so a name one file leaked fails the next case of any
 * file). A case that finds the shell otherwise is not run and fails with what it found. Resolves,
 * in the order of `pastes`, { r } (the value it returned, EJSON, canonical) or an Error.
 */
async function inFreshMongosh(uri, dbName, names, pastes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lab-pasteable-'));
  const file = path.join(dir, 'cases.js');
  const head =
    `db = db.getSiblingDB(${JSON.stringify(dbName)});\n` +
    `globalThis.${FRESH} = { keys: Object.keys(globalThis), names: ${JSON.stringify(names)} };\n`;
  fs.writeFileSync(file, head + pastes.map(({ c, paste }, i) => caseScript(i, paste, c)).join('\n') + '\n');
  try {
    const r = await runCli(file, { uri, cwd: '/' });
    return resultsOf(r, pastes);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const FRESH = '__labFreshShell';

/** The process's lines cut into the cases' results: the `@@R i` line each case printed, or why not. */
function resultsOf({ code, stdout, stderr }, pastes) {
  const lines = stdout.split('\n');
  return pastes.map(({ c }, i) => {
    const line = lines.find((l) => l.startsWith(`@@R ${i} `));
    if (!line) return new Error(`mongosh exit ${code}, no answer for ${c.name}: ${stdout}${stderr}`);
    const v = EJSON.parse(line.slice(`@@R ${i} `.length), { relaxed: false });
    return v.shell ? new Error(`${c.name}: ${v.shell}`) : v;
  });
}

/**
 * A case in its own function scope: the fresh-shell check, its paste, its setup, the call (errors
 * become {error}), the value printed as EJSON. A throw outside the call (the setup) is its answer too.
 */
function caseScript(i, paste, c) {
  const fresh = `(function (f) { var added = Object.keys(globalThis).filter(function (k) { return k !== '${FRESH}' && f.keys.indexOf(k) < 0; });
  var seen = f.names.filter(function (n) { return typeof globalThis[n] !== 'undefined'; });
  return added.length || seen.length ? 'not a fresh shell: globals added ' + JSON.stringify(added) + ', names visible ' + JSON.stringify(seen) : null; })(globalThis.${FRESH})`;
  const R = (v) => `print('@@R ${i} ' + EJSON.stringify(${v}, { relaxed: false }));`;
  return (
    `try { (function () {\nvar __stale = ${fresh};\nif (__stale) { ${R('{ shell: __stale }')} return; }\n` +
    `${paste}\nvar C = db.getCollection('p_${c.name}'); C.drop();\n${c.setup || ''}\n` +
    `var __r; try { __r = (function () { ${c.call} })(); } catch (e) { __r = { error: String(e.message || e) }; }\n` +
    `${R('{ r: __r === undefined ? null : __r }')}\n})(); } catch (e) { ${R("{ shell: 'threw outside the call: ' + String(e.message || e) }")} }`
  );
}

const num = (x) => (x && typeof x === 'object' && x.toString ? Number(x.toString()) : x);
const TASKS =
  'var a = []; for (var i = 0; i < 50; i++) a.push({ _id: i, processed: i % 5 ? 0 : 1, r: i / 50 }); C.insertMany(a); C.createIndex({ processed: 1, r: 1 });';
// A user's join data: a null and a missing region, "5" and 5 as distinct customers, Long and
// Decimal128 amounts, an order without cust or with an unknown one.
const JOIN =
  "var O = db.getCollection('p_orders_' + Math.random().toString(36).slice(2)); var K = db.getCollection(O.getName() + '_c');" +
  "K.insertMany([{ _id: 5, code: 'a', alias: 'a', region: 'north' }, { _id: '5', code: 'b', alias: 'b', region: 'south' }, { _id: 6, code: 'c', alias: 'c', region: null }, { _id: 7, code: 'd', alias: 'd' }, { _id: 8, code: 'e', alias: 'e', region: 'nowhere' }]); K.createIndex({ code: 1 });" +
  "O.insertMany([{ cust: 5, custCode: 'a', cents: NumberLong('9007199254740993') }, { cust: NumberLong(5), custCode: 'a', cents: 2 }, { cust: '5', custCode: 'b', cents: NumberDecimal('1.10') }," +
  " { cust: '5', custCode: 'b', cents: NumberDecimal('2.05') }, { cust: 6, custCode: 'c', cents: 1 }, { cust: 7, custCode: 'd', cents: 'n/a' }, { cust: 8, custCode: 'e', cents: 3 }, { custCode: 'z', cents: 4 }, { cust: 99, custCode: 'z', cents: 4 }]);";
const JOIN_WANT = [
  { region: '(none)', orders: 4, cents: '9' },
  { region: 'north', orders: 2, cents: '9007199254740995' },
  { region: 'nowhere', orders: 1, cents: '3' },
  { region: 'south', orders: 2, cents: '3.15' },
];
const joinRows = (r) => r.map((x) => ({ region: x.region, orders: num(x.orders), cents: String(x.cents) }));

const CASES = {
  'scripts/inserts_functions.js': [
    {
      name: 'insertSequential',
      call: 'return [insertSequential(C, [{ a: 1 }, { a: 2 }, { a: 3 }]), C.countDocuments({})];',
      check: (r) => expect(r.map(num)).to.deep.equal([3, 3]),
    },
    {
      name: 'insertBatches',
      call: 'var d = []; for (var i = 0; i < 5; i++) d.push({ _id: i }); return [insertBatches(C, d, 2, false), C.countDocuments({})];',
      check: (r) => expect(r.map(num)).to.deep.equal([5, 5]),
    },
    {
      name: 'serverSideCopy',
      setup: "C.insertMany([{ _id: 1 }, { _id: 2 }]); db.getCollection('p_copy_to').drop();",
      call: "return serverSideCopy(C, 'p_copy_to');",
      check: (r) => expect(num(r)).to.equal(2),
    },
    {
      name: 'checkThenInsert',
      call: "return [checkThenInsert(C, { key: 'k', data: 1 }), checkThenInsert(C, { key: 'k', data: 2 }), C.countDocuments({})];",
      check: (r) => expect(r.map(num)).to.deep.equal([true, false, 1]),
    },
    {
      name: 'isDuplicateKey',
      call: "return [isDuplicateKey({ code: 11000 }), isDuplicateKey({ writeErrors: [{ code: 11000 }] }), isDuplicateKey(new Error('E11000 dup')), isDuplicateKey({ code: 2 }), isDuplicateKey(null)];",
      check: (r) => expect(r).to.deep.equal([true, true, true, false, false]),
    },
    {
      name: 'insertUnique',
      setup: 'C.createIndex({ key: 1 }, { unique: true });',
      call: "return [insertUnique(C, { key: 'k', data: 1 }), insertUnique(C, { key: 'k', data: 2 }), C.countDocuments({})];",
      check: (r) => expect(r.map(num)).to.deep.equal([true, false, 1]),
    },
    {
      name: 'upsertOnce',
      setup: 'C.createIndex({ key: 1 }, { unique: true });',
      call: "return [upsertOnce(C, { key: 'new', data: 1 }), upsertOnce(C, { key: 'new', data: 2 }), C.findOne({ key: 'new' }).data];",
      check: (r) => expect(r.map(num)).to.deep.equal([true, false, 1]),
    },
    {
      name: 'countDuplicates',
      setup: "C.insertMany([{ key: 'a' }, { key: 'a' }, { key: 'b' }]);",
      call: 'return [countDuplicates(C), countDuplicates(db.getCollection("p_empty_none"))];',
      check: (r) =>
        expect(r.map((x) => ({ keys: num(x.keys), docs: num(x.docs), duplicates: num(x.duplicates) }))).to.deep.equal([
          { keys: 2, docs: 3, duplicates: 1 },
          { keys: 0, docs: 0, duplicates: 0 },
        ]),
    },
    {
      name: 'pickBySkip',
      setup: TASKS,
      call: 'var d = pickBySkip(C, 3, { processed: 1, r: 1 }); var e = pickBySkip(C, 1000); return [d.processed, d._id, e];',
      check: (r) => expect(r.map(num)).to.deep.equal([0, 4, null]),
    },
    {
      name: 'pickBySampleFirst',
      setup: TASKS,
      call: 'return pickBySampleFirst(C, 100).processed;',
      check: (r) => expect(num(r)).to.equal(0),
    },
    {
      name: 'pickByMatchSample',
      setup: TASKS,
      call: 'return [pickByMatchSample(C).processed, pickByMatchSample(db.getCollection("p_empty_none"))];',
      check: (r) => expect(r.map(num)).to.deep.equal([0, null]),
    },
    {
      name: 'pickByRandomField',
      setup: TASKS,
      call: 'var a = pickByRandomField(C, 0.5); var b = pickByRandomField(C, 0.999); return [a._id, a.processed, b._id];',
      check: (r) => expect(r.map(num)).to.deep.equal([26, 0, 1]),
    },
    {
      name: 'claimTask',
      setup: TASKS,
      call: "var t = claimTask(C, 'w1', 0.5); var u = claimTask(C, 'w2'); var none = claimTask(db.getCollection('p_empty_none'), 'w3'); var bad; try { claimTask(C, 'w4', 'x'); } catch (e) { bad = e.message; } return [t._id, t.processed, t.by, C.findOne({ _id: t._id }).by, u._id, u.by, none, bad];",
      check: (r) =>
        expect(r.map(num)).to.deep.equal([
          26,
          1,
          'w1',
          'w1',
          1,
          'w2',
          null,
          'claimTask: x must be a number in [0, 1) or nothing, got x',
        ]),
    },
    {
      name: 'joinKey',
      call: "return [joinKey('5') === joinKey(5), joinKey(NumberLong(5)) === joinKey(5), joinKey(NumberDecimal('5.0')) === joinKey(5), joinKey(null) === joinKey(undefined), joinKey(NumberLong('9007199254740993')) === joinKey(9007199254740992)];",
      check: (r) => expect(r).to.deep.equal([false, true, true, true, false]),
    },
    {
      name: 'joinDecimalAdd',
      call: "return [joinDecimalAdd('1.1', '2.25'), joinDecimalAdd('-1.1', '0.1'), joinDecimalAdd('1E+3', '-0.001'), joinDecimalAdd('5', '-7.5')];",
      check: (r) => expect(r).to.deep.equal(['3.35', '-1.0', '999.999', '-2.5']),
    },
    {
      name: 'joinSum',
      call: "return [joinSum(NumberLong('9007199254740993'), 2), joinSum(NumberDecimal('1.10'), 2), joinSum(1, 'n/a'), joinSum(0, null), joinSum(1.5, 2)];",
      check: (r) => {
        expect(r[0]._bsontype).to.equal('Long');
        expect(r.map(String)).to.deep.equal(['9007199254740995', '3.10', '1', '0', '3.5']);
        expect(r[1]._bsontype).to.equal('Decimal128');
      },
    },
    {
      name: 'joinTotals',
      call: "return joinTotals([{ region: 'b', cents: 1 }, { region: null, cents: 2 }, { cents: 3 }, { region: 'b', cents: NumberLong(4) }]);",
      check: (r) =>
        expect(joinRows(r)).to.deep.equal([
          { region: '(none)', orders: 2, cents: '5' },
          { region: 'b', orders: 2, cents: '5' },
        ]),
    },
    {
      name: 'joinInClient',
      setup: JOIN,
      call: 'return joinInClient(O, K);',
      check: (r) => expect(joinRows(r)).to.deep.equal(JOIN_WANT),
    },
    {
      name: 'lookupStage',
      call: "return [lookupStage('c', '_id'), lookupStage('c', 'indexed').$lookup.foreignField, lookupStage('c', 'unindexed').$lookup.foreignField, Object.keys(lookupStage('c', 'pipeline').$lookup)];",
      check: (r) => {
        expect(r[0].$lookup).to.include({ from: 'c', localField: 'cust', foreignField: '_id' });
        expect(r.slice(1)).to.deep.equal(['code', 'alias', ['from', 'let', 'pipeline', 'as']]);
      },
    },
    {
      name: 'joinInServer',
      setup: JOIN,
      call: "return ['_id', 'indexed', 'unindexed', 'pipeline'].map(function (on) { return joinInServer(O, K.getName(), on); });",
      check: (r) => {
        for (const one of r) expect(joinRows(one)).to.deep.equal(JOIN_WANT);
      },
    },
  ],
  'scripts/counters_functions.js': [
    {
      name: 'COUNTER_SCHEMAS',
      call: 'return COUNTER_SCHEMAS;',
      check: (r) => expect(r).to.deep.equal(['initial', 'preallocated', 'hierarchical', 'array']),
    },
    { name: 'COUNTER_PREALLOC_P', call: 'return COUNTER_PREALLOC_P;', check: (r) => expect(num(r)).to.equal(1 / 2000) },
    {
      name: 'counterPad',
      call: 'return [counterPad(5, 2), counterPad(123, 2), counterPad(7, 4)];',
      check: (r) => expect(r).to.deep.equal(['05', '123', '0007']),
    },
    {
      name: 'counterKey',
      call: "var k = counterKey(new Date(Date.UTC(2024, 0, 2, 3, 4)), 'm'); return [k._id, k.metadata.date.toISOString(), k.metadata.metric];",
      check: (r) => expect(r).to.deep.equal(['20240102/m', '2024-01-02T00:00:00.000Z', 'm']),
    },
    {
      name: 'counterMinuteField',
      call: "return [counterMinuteField('hierarchical', 61), counterMinuteField('array', 61), counterMinuteField('initial', 61)];",
      check: (r) => expect(r).to.deep.equal(['minute.01.01', 'minute.61', 'minute.0061']),
    },
    {
      name: 'counterHitUpdate',
      call: "return counterHitUpdate('initial', Date.UTC(2024, 0, 2, 3, 4), 2);",
      check: (r) =>
        expect(Object.fromEntries(Object.entries(r.$inc).map(([k, v]) => [k, num(v)]))).to.deep.equal({
          daily: 2,
          'hourly.03': 2,
          'minute.0184': 2,
        }),
    },
    {
      name: 'counterPreallocUpdate',
      call: "var p = counterPreallocUpdate('hierarchical', Date.UTC(2024, 0, 2), 'm'); var a = counterPreallocUpdate('array', Date.UTC(2024, 0, 2), 'm'); return [p.filter._id, Object.keys(p.update.$inc).length, a.update.$setOnInsert.minute.length];",
      check: (r) => expect(r.map(num)).to.deep.equal(['20240102/m', 1465, 1440]),
    },
    {
      name: 'preallocate',
      call: "preallocate(C, Date.UTC(2024, 0, 2), 'm', 'preallocated'); preallocate(C, Date.UTC(2024, 0, 2), 'm', 'preallocated'); var d = C.findOne({ _id: '20240102/m' }); return [C.countDocuments({}), d.daily, Object.keys(d.minute).length];",
      check: (r) => expect(r.map(num)).to.deep.equal([1, 0, 1440]),
    },
    {
      name: 'counterTime',
      call: "var bad = []; ['2024-01-02T03:04:00Z', new Date('nope'), {}, NaN].forEach(function (x) { try { counterTime(x); } catch (e) { bad.push(e.message); } }); return [counterTime(new Date(5)), counterTime(7), Math.abs(counterTime() - Date.now()) < 60000, bad];",
      check: (r) => {
        expect(r.slice(0, 3).map(num)).to.deep.equal([5, 7, true]);
        expect(r[3]).to.have.length(4);
        expect(r[3][0]).to.equal(
          'recordHit: the time must be a valid Date, epoch milliseconds or nothing (now), got 2024-01-02T03:04:00Z (a string: pass new Date("2024-01-02T03:04:00Z"))',
        );
      },
    },
    {
      name: 'recordHit',
      call: "var at = new Date(Date.UTC(2024, 0, 2, 3, 4)); recordHit(C, at, 'm', 'initial'); recordHit(C, at.getTime(), 'm', 'initial'); recordHit(C, undefined, 'now', 'initial'); var errs = []; ['2024-01-02', new Date('x')].forEach(function (x) { try { recordHit(C, x, 'm', 'initial'); } catch (e) { errs.push(e.message.split(',')[0]); } }); try { recordHit(C, at, 'm', 'bogus'); } catch (e) { errs.push(e.message); } recordHit(C, at, 'a', 'array', false); var d = C.findOne({ _id: '20240102/m' }); return [d.daily, d.hourly['03'], d.minute['0184'], C.countDocuments({ _id: /NaN/ }), C.countDocuments({ 'metadata.metric': 'now' }), C.findOne({ _id: '20240102/a' }).minute[184], errs];",
      check: (r) => {
        expect(r.slice(0, 6).map(num)).to.deep.equal([2, 2, 2, 0, 1, 1]);
        expect(r[6]).to.deep.equal([
          'recordHit: the time must be a valid Date',
          'recordHit: the time must be a valid Date',
          'recordHit: schema must be one of initial, preallocated, hierarchical, array, got bogus',
        ]);
      },
    },
  ],
  'scripts/mr_functions.js': [
    {
      name: 'mrStatsMap',
      with: ['mrStatsReduce', 'mrStatsFinalize'],
      setup: 'C.insertMany([{ v: 1 }, { v: 5 }, { v: "x" }, {}]);',
      call: "var o = C.mapReduce(mrStatsMap, mrStatsReduce, { out: { inline: 1 }, finalize: mrStatsFinalize, scope: { field: 'v' } }); return (o.results || o)[0].value;",
      check: (r) => expect(Object.values(r).map(num)).to.deep.equal([6, 1, 5, 2, 3]),
    },
    {
      name: 'mrStatsReduce',
      call: 'return mrStatsReduce(0, [{ sum: 1, min: 1, max: 1, count: 1 }, mrStatsReduce(0, [{ sum: 2, min: 2, max: 2, count: 1 }, { sum: 3, min: 3, max: 3, count: 1 }])]);',
      check: (r) => expect(Object.values(r).map(num)).to.deep.equal([6, 1, 3, 3]),
    },
    {
      name: 'mrStatsFinalize',
      call: 'return [mrStatsFinalize(0, { sum: 6, min: 1, max: 3, count: 3 }).mean, mrStatsFinalize(0, { sum: 0, min: 0, max: 0, count: 0 }).mean];',
      check: (r) => expect(r.map(num)).to.deep.equal([2, null]),
    },
    {
      name: 'accStatsInit',
      with: ['accStatsAccumulate', 'accStatsMerge', 'accStatsFinalize'],
      setup: 'C.insertMany([{ v: 2 }, { v: 4 }, { v: "x" }]);',
      call: "return C.aggregate([{ $group: { _id: null, s: { $accumulator: { init: accStatsInit, accumulate: accStatsAccumulate, accumulateArgs: ['$v'], merge: accStatsMerge, finalize: accStatsFinalize, lang: 'js' } } } }]).toArray()[0].s;",
      check: (r) => expect([r.sum, r.min, r.max, r.count, r.mean].map(num)).to.deep.equal([6, 2, 4, 2, 3]),
    },
    {
      name: 'accStatsAccumulate',
      with: ['accStatsInit'],
      call: 'var s = accStatsInit(); accStatsAccumulate(s, 3); accStatsAccumulate(s, NaN); accStatsAccumulate(s, "7"); return s;',
      check: (r) => expect([r.sum, r.min, r.max, r.count].map(num)).to.deep.equal([3, 3, 3, 1]),
    },
    {
      name: 'accStatsMerge',
      call: 'return accStatsMerge({ sum: 1, min: 1, max: 1, count: 1 }, { sum: 0, min: null, max: null, count: 0 });',
      check: (r) => expect([r.sum, r.min, r.max, r.count].map(num)).to.deep.equal([1, 1, 1, 1]),
    },
    {
      name: 'accStatsFinalize',
      call: 'return accStatsFinalize({ sum: 6, min: 1, max: 5, count: 2 }).mean;',
      check: (r) => expect(num(r)).to.equal(3),
    },
    {
      name: 'fnReading',
      setup: 'C.insertMany([{ v: 2 }, { v: "x" }]);',
      call: "return C.aggregate([{ $project: { _id: 0, r: { $function: { body: fnReading, args: ['$v'], lang: 'js' } } } }]).toArray().map(function (d) { return d.r; });",
      check: (r) => expect(r.map(num)).to.deep.equal([2, null]),
    },
    {
      name: 'STORED_NAMES',
      call: 'return STORED_NAMES;',
      check: (r) =>
        expect(r).to.deep.equal({ map: 'labStatsMap', reduce: 'labStatsReduce', finalize: 'labStatsFinalize' }),
    },
    {
      name: 'saveStatsFunctions',
      call: "var d = db.getSiblingDB(db.getName() + '_sysjs'); d.dropDatabase(); var w = saveStatsFunctions(d); var again = saveStatsFunctions(d); d.dropDatabase(); return [w, again];",
      check: (r) => expect(r).to.deep.equal([['labStatsMap', 'labStatsReduce', 'labStatsFinalize'], []]),
    },
    {
      name: 'mrStoredMap',
      with: ['mrStoredReduce', 'mrStoredFinalize', 'saveStatsFunctions'],
      setup: 'C.insertMany([{ v: 1 }, { v: 3 }]); var SJ = db.getSiblingDB(db.getName()); saveStatsFunctions(SJ);',
      call: "var o = C.mapReduce(mrStoredMap, mrStoredReduce, { out: { inline: 1 }, finalize: mrStoredFinalize, scope: { field: 'v' } }); db.getCollection('system.js').deleteMany({}); return (o.results || o)[0].value.mean;",
      check: (r) => expect(num(r)).to.equal(2),
    },
    {
      name: 'mrFunctionsStored',
      with: ['saveStatsFunctions'],
      call: "var d = db.getSiblingDB(db.getName() + '_sysjs2'); d.dropDatabase(); var before = mrFunctionsStored(d); saveStatsFunctions(d); var after = mrFunctionsStored(d); d.dropDatabase(); return [before, after];",
      check: (r) => expect(r).to.deep.equal([false, true]),
    },
    { name: 'mrStoredReduce', call: 'return typeof mrStoredReduce;', check: (r) => expect(r).to.equal('function') },
    { name: 'mrStoredFinalize', call: 'return typeof mrStoredFinalize;', check: (r) => expect(r).to.equal('function') },
    {
      name: 'mrStatsCommand',
      with: ['mrStatsMap', 'mrStatsReduce', 'mrStatsFinalize'],
      setup: 'C.insertMany([{ v: 1 }, { v: 5 }, { v: "x" }, {}]);',
      call: "var cmd = mrStatsCommand(C.getName(), 'v', mrStatsMap, mrStatsReduce, mrStatsFinalize); cmd.query = { v: { $lt: 5 } }; return C.getDB().runCommand(cmd).results[0].value;",
      check: (r) => expect(Object.values(r).map(num)).to.deep.equal([1, 1, 1, 1, 1]),
    },
  ],
  'scripts/bigagg_pipelines.js': [
    {
      name: 'LabBands',
      setup:
        "C.insertMany([{ _id: 'a', e: 1500, f: 'P', m: 1 }, { _id: ObjectId(), e: '1500', f: 'D', m: NumberLong(2) }, { _id: 3, f: 'P', m: 3 }, { _id: 4, e: 1000.5, f: 'D', m: 4 }, { _id: 5, e: NumberDecimal('3600.5'), f: 'P', m: 5 }]);",
      call: "var ans = Object.keys(LabBands.FORMS).map(function (k) { return C.aggregate(LabBands.FORMS[k].pipeline()).toArray(); }); var sr = LabBands.serverRanges(C, 3); var parts = sr.ranges.map(function (r) { return C.aggregate(LabBands.shardPart(r[0], r[1], sr.oneClass)).toArray(); }); return { forms: ans, merged: LabBands.mergePartials(parts), ranges: sr.ranges.length, onServer: db.aggregate([{ $documents: [].concat.apply([], parts) }].concat(LabBands.mergerPart())).toArray(), cuts: LabBands.cutPositions(10, 4), bounds: LabBands.ranges(0, 10, 2), filter: LabBands.rangeFilter(5, 'x').$match };",
      check: (r) => {
        const rows = (x) => x.map((y) => `${num(y._id)}:${num(y.count)}:${num(y.miles)}`).join(' ');
        const want = '1:1:3 3:2:5 7:1:5 10.5:1:2';
        for (const f of r.forms) expect(rows(f)).to.equal(want);
        expect(rows(r.merged)).to.equal(want);
        expect(rows(r.onServer)).to.equal(want);
        expect(num(r.ranges)).to.equal(3);
        expect(r.cuts.map(num)).to.deep.equal([3, 5, 8]);
        expect(r.bounds.map((b) => b.map(num))).to.deep.equal([
          [null, 5],
          [5, null],
        ]);
        expect(EJSON.stringify(r.filter)).to.equal('{"$or":[{"_id":{"$gte":5}},{"_id":{"$lt":"x"}}]}');
      },
    },
  ],
};

describe('paste-able functions, each pasted alone into a fresh real mongosh', function () {
  let t;
  // file -> its top-level declarations (read as each file's describe is defined below)
  const declsOf = new Map();
  // file -> Map case name -> what inFreshMongosh resolved for it
  const results = new Map();
  // Every file's cases in one fresh mongosh, each in a scope of its own (inFreshMongosh).
  before(async function () {
    this.timeout(600000);
    t = await testDatabase('pasteable');
    const pastes = Object.entries(CASES).flatMap(([file, cases]) =>
      cases.map((c) => ({
        file,
        c,
        paste: [c.name, ...(c.with || [])].map((n) => pasteText(declsOf.get(file), n)).join('\n'),
      })),
    );
    const names = [...new Set([...declsOf.values()].flatMap((d) => [...d.keys()]))];
    const answers = await inFreshMongosh(t.uri, t.dbName, names, pastes);
    pastes.forEach(({ file, c }, i) => {
      if (!results.has(file)) results.set(file, new Map());
      results.get(file).set(c.name, answers[i]);
    });
  });
  after(async function () {
    if (t) await t.close();
  });

  for (const [file, cases] of Object.entries(CASES)) {
    describe(file, function () {
      const decls = declarations(file);
      declsOf.set(file, decls);

      it('parses as ES2017 and every top-level function or value has a case here', function () {
        const names = [...decls.keys()].filter((n) => !/^module$/.test(n));
        expect(
          names.filter((n) => !cases.some((c) => c.name === n)),
          'functions without a case',
        ).to.deep.equal([]);
        const src = fs.readFileSync(path.join(ROOT, file), 'utf8');
        // the syntax (?., ??, ...) is refused by the ES2017 parse above; these are the missing APIs
        expect(src).to.not.match(/Object\.fromEntries|\.flat\(|\bBigInt\b|\brequire\(['"]|\bconsole\./);
      });

      for (const c of cases) {
        it(`${c.name}: its own text (and the helpers it names) in a fresh mongosh, called, answers as its name says`, async function () {
          const r = results.get(file).get(c.name);
          if (r instanceof Error) throw r;
          if (r.r && r.r.error && !c.throws) throw new Error(`${c.name} threw in mongosh: ${r.r.error}`);
          c.check(r.r);
        });
      }
    });
  }
});
