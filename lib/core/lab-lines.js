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

/**
 * Lines for a terminal of `width` columns: a longer line (a script's sentence) is wrapped at its
 * spaces, its continuation indented under it. Tables arrive already cut to the width
 * (scripts/lib/format.js), so this only ever meets prose.
 */
function fitLines(lines, width = 100) {
  const { wrap } = require('../../scripts/lib/format');
  return lines.flatMap((l) => {
    if ([...l].length <= width) return [l];
    const lead = /^ */.exec(l)[0];
    return wrap(l.slice(lead.length), width - lead.length, '    ').map((x) => lead + x);
  });
}

module.exports = { parseLabLines, humanLines, fitLines, PREFIX };
