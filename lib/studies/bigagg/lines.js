'use strict';
// The after step's terminal: the study's tables, storage and load per compressor, and the source's
// claims judged on this server's records.
const os = require('os');
const { fmtMs, wrap } = require('../../../scripts/lib/format');
const { pivot, md } = require('../../report/report');
const { judge } = require('../../core/claims');
const claims = require('./claims');
const { TABLES } = require('./tables');

/** Storage, ratio and load time per compressor, from the measure records. */
function storageTable(records) {
  const ms = records.filter((r) => r.type === 'measure' && r.axis.part === 'compression');
  if (!ms.length) return null;
  const comps = [...new Set(ms.map((r) => r.axis.compressor))];
  const get = (c, n) => (ms.find((r) => r.axis.compressor === c && r.name === n) || {}).value;
  const mb = (b) => (b === undefined ? '' : (b / 1e6).toFixed(1));
  return md(
    ['compressor', 'BSON MB', 'on disk MB', '_id index MB', 'BSON / disk', 'load'],
    comps.map((c) => [
      c,
      mb(get(c, 'dataBytes')),
      mb(get(c, 'storageBytes')),
      mb(get(c, 'indexBytes')),
      get(c, 'ratio') ? get(c, 'ratio').toFixed(2) + 'x' : '',
      get(c, 'loadMs') ? fmtMs(get(c, 'loadMs')) : '(reused)',
    ]),
  );
}

function tableLines(records) {
  const lines = ['', '-- bigagg: tables --'];
  for (const t of TABLES) {
    const recs = records.filter((r) => r.type === 'result' && t.filter(r));
    if (recs.length) lines.push('', t.title, pivot(recs, t));
  }
  const st = storageTable(records);
  if (st) lines.push('', 'Storage and load per block compressor', st);
  return lines;
}

function claimLines(ctx, p, records) {
  const lines = ['', "-- bigagg: the source's claims on this server --"];
  const env = {
    server: { version: ctx.server.version, cacheBytes: ctx.server.cacheBytes },
    host: { cores: os.cpus().length, memoryGB: os.totalmem() / 1073741824 },
  };
  for (const v of judge({ name: 'bigagg', claims }, records, env, { bigagg: p })) {
    const said = [
      `${v.id}: ${v.verdict.toUpperCase()} | ours: ${v.figure === null ? '-' : v.figure} | source: ${v.published}`,
      `  ${v.claim}`,
      `  why: ${v.why}`,
    ];
    for (const l of said) lines.push(...wrap(l, 100, '    '));
  }
  return lines;
}

/** The after step's lines: the tables, then the claims. */
function afterLines(ctx, p, records) {
  return [...tableLines(records), ...claimLines(ctx, p, records)];
}

module.exports = { afterLines, storageTable };
