'use strict';
// Reading the race records back: shared by the study's tables and its claims.
const { median } = require('../../../scripts/lib/lab');

// The patterns that fix the race (0 duplicates expected).
const FIXED = ['unique-insert', 'upsert-unique', 'txn-guard'];

function dupsOf(r) {
  if (!r || !r.extra) return null;
  if (r.extra.duplicatesPerRun) return r.extra.duplicatesPerRun;
  return typeof r.extra.duplicates === 'number' ? [r.extra.duplicates] : null; // one mongosh worker: last run only
}

function fmtDups(r) {
  const d = dupsOf(r);
  if (!d) return r && r.skipped ? '-' : '';
  return d.length > 1 ? `${median(d)} (${Math.min(...d)}..${Math.max(...d)})` : String(d[0]);
}

module.exports = { FIXED, dupsOf, fmtDups };
