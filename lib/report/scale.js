'use strict';
// The scale a study ran at, read one way for every report: its size parameter (the one --docs sets,
// the study's `cli.docs`), and where asked the timed rounds and variants, e.g. "N 1,000,000, 10
// rounds". A seed-scale report must say what "seed" meant; a chart shared alone, what it measured.
const { fmtInt } = require('../../scripts/lib/format');

/**
 * @param {object} entry a study's registry entry
 * @param {object} params the parameters it ran with
 * @param {{rounds?: boolean}} [o] rounds: false leaves out the rounds and variants (a chart's title)
 */
function scaleOf(entry, params, { rounds = true } = {}) {
  if (!entry || !params) return '';
  const size = entry.cli && entry.cli.docs;
  const parts = [];
  if (size && typeof params[size] === 'number') parts.push(`${size} ${fmtInt(params[size])}`);
  if (rounds && typeof params.RUNS === 'number') parts.push(`${params.RUNS} round${params.RUNS === 1 ? '' : 's'}`);
  if (rounds && params.VARIANTS) parts.push(`variants ${params.VARIANTS}`);
  return parts.join(', ');
}

module.exports = { scaleOf };
