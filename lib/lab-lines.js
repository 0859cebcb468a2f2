'use strict';
// Reads the machine-readable lines the shell scripts print: '@@LAB ' + Extended JSON.
const { EJSON } = require('mongodb').BSON;

const PREFIX = '@@LAB ';

function parseLabLines(lines) {
  return lines.filter((l) => l.startsWith(PREFIX)).map((l) => EJSON.parse(l.slice(PREFIX.length), { relaxed: true }));
}

module.exports = { parseLabLines, PREFIX };
