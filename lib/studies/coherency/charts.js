'use strict';
// The coherency study's chart: duplicates per race at the default point, one bar per pattern.
const LabFormat = require('../../../scripts/lib/format');
const LabStats = require('../../../scripts/lib/stats');
const kit = require('../../report/chart-kit');
const { dupsOf } = require('./records');
const { defaultPoint } = require('./races');

/**
 * No interval whiskers (#36 item 6): the chart shows a count of duplicate documents, not a time
 * or a ratio of times; its spread over the races (min..max) is in the duplicates table.
 */
function duplicatesChart(records, env) {
  // The default point is where the fixed patterns ran (module state is gone when a report is
  // made again from a result file).
  const fixedRec = records.find((r) => r.type === 'result' && !r.skipped && r.variant === 'unique-insert');
  const at = fixedRec ? fixedRec.axis : defaultPoint;
  const recs = records.filter(
    (r) => r.type === 'result' && !r.skipped && dupsOf(r) && r.axis.chars === at.chars && r.axis.n === at.n,
  );
  if (!recs.length) return null;
  const values = recs.map((r) => ({
    variant: r.variant,
    value: LabStats.median(dupsOf(r)),
    store: r.variant.startsWith('pg-') ? 'PostgreSQL' : 'MongoDB',
  }));
  // The "alone-" variants run one worker and record no W: the race's figures come from a racing one.
  const race = recs.find((r) => r.extra && r.extra.W > 1) || recs[0];
  return kit.bars({
    name: 'duplicates',
    title: 'The price of coherency: duplicates per race, by pattern',
    subtitle: [
      `${race.extra.W || '?'} workers (${race.extra.mode || 'sessions'}) at a barrier, each inserting the same ${LabFormat.fmtInt(recs[0].axis.n)} keys of ${LabFormat.fmtInt(recs[0].axis.chars)} chars; median of the races`,
      `MongoDB ${env.server.version} (transactions on a 1-member replica set) | ${env.host.cores} cores | ${env.startedAt.slice(0, 10)}`,
    ],
    values,
    x: { field: 'variant', order: values.map((v) => v.variant), labelAngle: -30 },
    y: { title: 'duplicate documents (median)' },
    color: { field: 'store', colors: ['#332288', '#DDCC77'], title: 'store' },
    group: false,
    labels: { format: ',d' },
    width: 520,
    height: 300,
  });
}

module.exports = { duplicatesChart };
