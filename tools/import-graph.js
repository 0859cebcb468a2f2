#!/usr/bin/env node
'use strict';
// The import graph between the repository's files, read from their `require('./...')` calls (no
// parser dependency: a small tokenizer that knows strings, templates, comments and regex literals).
// The house has floors that run one way: a file may require a file on its own floor or on a lower
// one, never a higher one, and no files may require each other in a circle.
//
//   node tools/import-graph.js             imports running up a floor and circles of files (exit 1 if any)
//   node tools/import-graph.js --stats     also: requires placed inside functions, requires of scripts/lib's facade
//   node tools/import-graph.js --exclude lib/studies   leave a folder out (its edges too)
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');

// Highest floor first. A file belongs to the first floor that holds it. The tests stand on the top
// floor (they may use anything). The shell side (scripts/, the generators fixtures/gen.js and
// fixtures/*-gen.js) is the ground floor with scripts/lib; the Node loaders of fixtures/ (they write
// a study's data through lib/infra/loader.js) stand with the studies. JSON data files are no floor's.
const under =
  (...dirs) =>
  (rel) =>
    dirs.some((d) => rel.startsWith(`${d}/`));
const SHELL_GENERATOR = /^fixtures\/(gen|[\w-]+-gen)\.js$/;
const FLOORS = [
  { name: 'bin, bench, tools, test', holds: under('bin', 'bench', 'tools', 'test') },
  { name: 'lib/cli', holds: under('lib/cli') },
  {
    name: 'lib/studies',
    holds: (rel) => under('lib/studies')(rel) || (rel.startsWith('fixtures/') && !SHELL_GENERATOR.test(rel)),
  },
  { name: 'lib/report', holds: under('lib/report') },
  { name: 'lib/core', holds: under('lib/core') },
  { name: 'lib/infra', holds: under('lib/infra') },
  { name: 'scripts/lib', holds: (rel) => under('scripts')(rel) || SHELL_GENERATOR.test(rel) },
];
const FOLDERS = ['bin', 'bench', 'tools', 'test', 'lib', 'scripts', 'fixtures'];

function floorOf(rel) {
  return FLOORS.findIndex((f) => f.holds(rel));
}

function listFiles(root, dirs) {
  const out = [];
  const walk = (rel) => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else if (e.name.endsWith('.js')) out.push(child);
    }
  };
  dirs.forEach(walk);
  return out.sort();
}

const CONTROL = new Set(['if', 'for', 'while', 'switch', 'catch', 'with']);
const BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
  'else',
  'do',
]);

// Every `require('literal')` of a source text: its argument, its line, and whether it sits inside a
// function body (a `{` after `=>`, or after the `)` of a parameter list, or an arrow's expression body).
function requiresOf(src) {
  const found = [];
  const stack = []; // openers: { ch, fn }
  const arrows = []; // stack lengths at which an arrow's expression body started
  let prev = null; // the previous significant token: { type, value }
  let lastParen = null; // the opener record of the `(` just closed
  let line = 1;
  let i = src.startsWith('#!') ? src.indexOf('\n') : 0;
  if (i < 0) i = src.length;
  const insideFunction = () => arrows.length > 0 || stack.some((o) => o.fn);
  const readQuoted = (q) => {
    let s = '';
    i++;
    while (i < src.length && src[i] !== q) {
      if (src[i] === '\\') {
        s += src[i + 1];
        i += 2;
        continue;
      }
      if (src[i] === '\n') line++;
      s += src[i++];
    }
    i++;
    return s;
  };
  // Reads template text up to its end (returns true) or up to a `${` (returns false).
  const readTemplate = () => {
    while (i < src.length) {
      const c = src[i];
      if (c === '\\') {
        i += 2;
        continue;
      }
      if (c === '\n') line++;
      if (c === '`') {
        i++;
        return true;
      }
      if (c === '$' && src[i + 1] === '{') {
        i += 2;
        return false;
      }
      i++;
    }
    return true;
  };
  const regexAllowed = () => {
    if (!prev) return true;
    if (prev.type === 'num' || prev.type === 'str') return false;
    if (prev.type === 'id') return BEFORE_REGEX.has(prev.value);
    return !(prev.value === ')' || prev.value === ']' || prev.value === '}');
  };
  const skipComment = () => {
    if (src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      return;
    }
    const end = src.indexOf('*/', i + 2);
    const stop = end < 0 ? src.length : end + 2;
    for (let k = i; k < stop; k++) if (src[k] === '\n') line++;
    i = stop;
  };
  const closeArrows = () => {
    while (arrows.length && stack.length < arrows[arrows.length - 1]) arrows.pop();
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && (src[i + 1] === '/' || src[i + 1] === '*')) {
      skipComment();
      continue;
    }
    // an arrow whose body is an expression: inside a function until that expression ends
    if (prev && prev.value === '=>' && !prev.bodySeen) {
      prev.bodySeen = true;
      if (c !== '{') arrows.push(stack.length);
    }
    if (c === '"' || c === "'") {
      const value = readQuoted(c);
      const at = prev && prev.requireAt;
      if (at && prev.value === '(') found.push({ spec: value, line: at.line, inFunction: at.inFunction });
      prev = { type: 'str', value };
      continue;
    }
    if (c === '`') {
      i++;
      if (readTemplate()) prev = { type: 'str', value: '' };
      else (stack.push({ ch: 'tpl', fn: false }), (prev = { type: 'punct', value: '${' }));
      continue;
    }
    if (c === '/' && regexAllowed()) {
      i++;
      let inClass = false;
      while (i < src.length && src[i] !== '\n') {
        const r = src[i];
        if (r === '\\') {
          i += 2;
          continue;
        }
        if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      while (i < src.length && /[a-z]/i.test(src[i])) i++;
      prev = { type: 'str', value: '' };
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(src.slice(i, i + 64));
    if (word) {
      i += word[0].length;
      // `x.require(...)` is a method, not the module loader
      prev = { type: 'id', value: word[0], member: Boolean(prev && prev.member) };
      continue;
    }
    const num = /^(?:\d[\d_]*\.?[\d_]*(?:e[+-]?\d+)?n?|\.\d[\d_]*(?:e[+-]?\d+)?|0[xob][\da-f_]+n?)/i.exec(
      src.slice(i, i + 64),
    );
    if (num) {
      i += num[0].length;
      prev = { type: 'num', value: num[0] };
      continue;
    }
    const punct = /^(?:=>|\?\.|\.\.\.|[^\s\w])/.exec(src.slice(i, i + 3))[0];
    i += punct.length;
    if (punct === '(') {
      const requireAt =
        prev && prev.type === 'id' && prev.value === 'require' && !prev.member
          ? { line, inFunction: insideFunction() }
          : null;
      stack.push({ ch: '(', fn: false, before: prev });
      prev = { type: 'punct', value: '(', requireAt };
      continue;
    }
    if (punct === '[') stack.push({ ch: '[', fn: false });
    else if (punct === '{') {
      let fn = false;
      if (prev && prev.value === '=>') fn = true;
      else if (prev && prev.value === ')' && lastParen && lastParen.before) {
        const b = lastParen.before;
        fn = b.type === 'id' && !CONTROL.has(b.value);
      }
      stack.push({ ch: '{', fn });
    } else if (punct === ')' || punct === ']' || punct === '}') {
      const opener = stack.pop();
      closeArrows();
      if (punct === '}' && opener && opener.ch === 'tpl') {
        if (readTemplate()) prev = { type: 'str', value: '' };
        else (stack.push(opener), (prev = { type: 'punct', value: '${' }));
        continue;
      }
      if (punct === ')') lastParen = opener;
    } else if (punct === ',' || punct === ';') {
      while (arrows.length && stack.length === arrows[arrows.length - 1]) arrows.pop();
    }
    prev = { type: 'punct', value: punct, member: punct === '.' || punct === '?.' };
  }
  return found;
}

function resolveRelative(fromRel, spec, root) {
  const base = path.join(root, path.dirname(fromRel), spec);
  for (const candidate of [base, `${base}.js`, path.join(base, 'index.js')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(root, candidate);
  }
  return null;
}

// The graph of the files under the floors' folders: each file's requires, relative ones resolved.
function readGraph({ root = ROOT, exclude = [] } = {}) {
  const skip = (rel) => exclude.some((d) => rel === d || rel.startsWith(`${d}/`));
  const files = listFiles(root, FOLDERS).filter((f) => !skip(f));
  const nodes = new Map();
  for (const file of files) {
    const all = requiresOf(fs.readFileSync(path.join(root, file), 'utf8'));
    const edges = [];
    for (const r of all) {
      if (!r.spec.startsWith('.')) continue;
      const to = resolveRelative(file, r.spec, root);
      if (to && to.endsWith('.js') && !skip(to))
        edges.push({ to, line: r.line, inFunction: r.inFunction, spec: r.spec });
    }
    nodes.set(file, { file, floor: floorOf(file), requires: all, edges });
  }
  return nodes;
}

// Edges from a file to a file on a higher floor (a smaller index), or to a file outside the floors.
function upImports(graph) {
  const out = [];
  for (const node of graph.values()) {
    for (const e of node.edges) {
      const to = floorOf(e.to);
      if (to < node.floor) out.push({ from: node.file, line: e.line, to: e.to, fromFloor: node.floor, toFloor: to });
    }
  }
  return out;
}

// Circles of files: the strongly connected components of two or more files (Tarjan), or a file
// that requires itself.
function circles(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const { to } of graph.get(v).edges) {
      if (!graph.has(to)) continue;
      if (!idx.has(to)) {
        visit(to);
        low.set(v, Math.min(low.get(v), low.get(to)));
      } else if (onStack.has(to)) low.set(v, Math.min(low.get(v), idx.get(to)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      const selfLoop = graph.get(v).edges.some((e) => e.to === v);
      if (scc.length > 1 || selfLoop) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

// How many requires (of anything) sit inside a function, and how many files load scripts/lib's
// whole facade (lab.js) rather than the part they use.
function stats(graph, within = '') {
  let all = 0;
  let inside = 0;
  const facade = [];
  const insideList = [];
  for (const node of graph.values()) {
    if (!node.file.startsWith(within)) continue;
    for (const r of node.requires) {
      all++;
      if (r.inFunction) {
        inside++;
        insideList.push(`${node.file}:${r.line} ${r.spec}`);
      }
    }
    if (node.file.startsWith('lib/') && node.edges.some((e) => e.to === 'scripts/lib/lab.js')) facade.push(node.file);
  }
  const files = [...graph.keys()].filter((f) => f.startsWith(within)).length;
  return { files, requires: all, insideFunctions: inside, insideList, facade };
}

function main(argv) {
  const exclude = [];
  let withStats = false;
  for (let k = 0; k < argv.length; k++) {
    if (argv[k] === '--stats') withStats = true;
    else if (argv[k] === '--exclude' && argv[k + 1]) exclude.push(argv[++k].replace(/\/$/, ''));
    else if (argv[k] === '--help') {
      console.log('usage: node tools/import-graph.js [--stats] [--exclude <folder>]...');
      return 0;
    } else {
      console.error(`import-graph: unknown option '${argv[k]}': see --help`);
      return 2;
    }
  }
  const graph = readGraph({ exclude });
  const up = upImports(graph);
  const circ = circles(graph);
  const floorName = (n) => (n < 0 ? 'outside the floors' : FLOORS[n].name);
  for (const u of up)
    console.log(`up: ${u.from}:${u.line} -> ${u.to} (${floorName(u.fromFloor)} -> ${floorName(u.toFloor)})`);
  for (const c of circ) console.log(`circle: ${c.join(' <-> ')}`);
  if (withStats) {
    const s = stats(graph, 'lib/');
    for (const line of s.insideList) console.log(`inside a function: ${line}`);
    for (const file of s.facade) console.log(`requires the facade scripts/lib/lab.js: ${file}`);
    const all = stats(graph);
    console.log(
      `lib/: ${s.files} files, ${s.requires} requires, ${s.insideFunctions} inside functions, ` +
        `${s.facade.length} files require the facade; all folders: ${all.requires} requires, ` +
        `${all.insideFunctions} inside functions`,
    );
  }
  console.log(`${up.length} imports running up a floor, ${circ.length} circles`);
  return up.length || circ.length ? 1 : 0;
}

module.exports = { FLOORS, floorOf, requiresOf, readGraph, upImports, circles, stats };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
