'use strict';
// Reads the machine-readable lines the shell scripts print: '@@LAB ' + Extended JSON.
const { EJSON } = require('mongodb').BSON;

const PREFIX = '@@LAB ';

function parseLabLines(lines) {
  return lines.filter((l) => l.startsWith(PREFIX)).map((l) => EJSON.parse(l.slice(PREFIX.length), { relaxed: true }));
}

/** The human-readable part of printed text: every line but the @@LAB ones. */
function humanLines(text) {
  return text.split('\n').filter((l) => !l.startsWith(PREFIX));
}

module.exports = { parseLabLines, humanLines, PREFIX };
