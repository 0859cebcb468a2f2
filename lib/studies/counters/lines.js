'use strict';
// The after step's terminal tables: minute 0 vs 1439 per layout and mode, storage and read-back per
// schema, and the writers / write-concern sweeps.
const { fmtInt, fmtMs, speedWords, tableLines } = require('../../../scripts/lib/format');

function afterLines(out) {
  return [...scanLines(out), ...storageLines(out), ...sweepLines(out)];
}

function scanLines(out) {
  const lines = [];
  const scanRecs = out.filter((r) => r.type === 'result' && r.axis.part === 'scan' && r.variant === 'minute-1439');
  if (scanRecs.length) {
    lines.push(
      '',
      'minute 0 vs minute 1439 (per update: client us, server us from the collection latencyStats; ratio = median of per-round ratios)',
    );
    lines.push(
      ...tableLines(
        ['layout', 'mode', 'first', 'last', 'srvFirst', 'srvLast', 'ratio'].map((k, i) => ({
          key: k,
          title: ['layout', 'mode', 'minute 0 us', 'minute 1439 us', 'server us (0)', 'server us (1439)', '1439 / 0'][
            i
          ],
          right: i > 1,
        })),
        scanRecs.map((r) => {
          const first = out.find(
            (x) =>
              x.variant === 'minute-0' &&
              x.axis.part === 'scan' &&
              x.axis.layout === r.axis.layout &&
              x.axis.mode === r.axis.mode,
          );
          return {
            layout: r.axis.layout,
            mode: r.axis.mode,
            first: first.extra.usPerUpdate.toFixed(1),
            last: r.extra.usPerUpdate.toFixed(1),
            srvFirst: first.extra.serverUsPerUpdate.toFixed(1),
            srvLast: r.extra.serverUsPerUpdate.toFixed(1),
            ratio: `${r.ratio.median.toFixed(2)}x`,
          };
        }),
        100,
      ),
    );
  }
  return lines;
}

function storageLines(out) {
  const lines = [];
  const sizes = out.filter((r) => r.type === 'measure' && r.name === 'bytes-per-metric-day');
  const reads = out.filter((r) => r.type === 'result' && r.axis.part === 'read-day');
  if (sizes.length) {
    lines.push('', 'storage and reading one metric-day back');
    lines.push(
      ...tableLines(
        [
          { key: 'v', title: 'variant' },
          { key: 'b', title: 'bytes / metric-day', right: true },
          { key: 'd', title: 'documents', right: true },
          { key: 'r', title: 'read 1,440 minutes', right: true },
          { key: 'x', title: 'vs node-preallocated', right: true },
          { key: 'a', title: 'agrees' },
        ],
        sizes.map((s) => {
          const rd = reads.find((r) => r.variant === s.variant);
          const docs = out.find((r) => r.name === 'documents' && r.variant === s.variant);
          return {
            v: s.variant,
            b: fmtInt(s.value),
            d: docs ? fmtInt(docs.value) : '',
            r: rd ? fmtMs(rd.median) : '',
            x: rd && rd.ratio ? speedWords(rd.ratio).text : '',
            a: rd ? (rd.agrees ? 'yes' : 'NO') : '',
          };
        }),
        100,
      ),
    );
  }
  return lines;
}

function sweepLines(out) {
  const lines = [];
  const sweep = out.filter((r) => r.type === 'measure' && r.name === 'writes-per-s');
  if (sweep.length) {
    lines.push('', 'writers and write concerns (thinned day: one minute in 60; median writes/s)');
    const keys = [...new Set(sweep.map((r) => `${r.axis.part} W=${r.axis.writers} ${r.axis.wc}`))];
    const vars = [...new Set(sweep.map((r) => r.variant))];
    lines.push(
      ...tableLines(
        [{ key: 'k', title: 'setting' }, ...vars.map((v) => ({ key: v, title: v, right: true }))],
        keys.map((k) =>
          Object.assign(
            { k },
            ...vars.map((v) => {
              const r = sweep.find((x) => x.variant === v && `${x.axis.part} W=${x.axis.writers} ${x.axis.wc}` === k);
              return { [v]: r ? fmtInt(r.value) : '' };
            }),
          ),
        ),
        100,
      ),
    );
  }
  return lines;
}

module.exports = { afterLines };
