'use strict';
// Reads the machine-readable lines the shell scripts print: '@@LAB ' + Extended JSON.
const { EJSON } = require('mongodb').BSON;
const { wrap } = require('../../scripts/lib/format');

const PREFIX = '@@LAB ';

function parseLabLines(lines) {
  return lines.filter((l) => l.startsWith(PREFIX)).map((l) => EJSON.parse(l.slice(PREFIX.length), { relaxed: true }));
}

/** The human-readable part of printed text: every line but the @@LAB ones. */
function humanLines(text) {
  return text.split('\n').filter((l) => !l.startsWith(PREFIX));
}

/**
 * Lines for a terminal of `width` columns: a longer line of prose (a script's sentence) is wrapped
 * at its spaces, its continuation indented under it. A table row (columns two spaces apart) is left
 * whole: wrapping would break its columns; the shell side cuts its tables to the width already
 * (scripts/lib/format.js), and a row still wider is a table's own to fix.
 */
function fitLines(lines, width = 100) {
  return lines.flatMap((l) => {
    if ([...l].length <= width || /\S {2,}\S/.test(l)) return [l];
    return wrap(l, width, `${/^ */.exec(l)[0]}    `);
  });
}

module.exports = { parseLabLines, humanLines, fitLines, PREFIX };
