'use strict';
// The chart kit (lib/report/chart-kit.js): each shape is a spec Vega-Lite compiles and resvg draws,
// with a whisker layer exactly when a row has an interval, and its figures from records.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const kit = require('../../lib/report/chart-kit');
const { renderChart } = require('../../lib/report/chart');
const { useTmpDir } = require('../helpers');

const env = { server: { version: '7.0.2' }, startedAt: '2026-11-28T21:00:00Z', host: { cores: 2, cpuModel: 'cpu' } };
const rec = (variant, times, extra = {}) => ({ variant, times, median: times[1], ...extra });

// Every layer of a spec, however nested (facet's spec, layer inside layer).
function layersOf(spec) {
  const inner = [...(spec.layer || []), ...(spec.spec ? [spec.spec] : [])];
  return [spec, ...inner.flatMap(layersOf)];
}
// A whisker: lo..hi on y (y2), or on x (x2) on a horizontal chart.
const isWhisker = (l) =>
  l.encoding && ((l.encoding.y2 && l.encoding.y.field === 'lo') || (l.encoding.x2 && l.encoding.x.field === 'lo'));
const whiskers = (spec) => layersOf(spec).filter(isWhisker);

describe('chart kit', function () {
  this.timeout(30000);
  const tmp = useTmpDir('chart-kit-');

  it('figures: a time and its interval in any unit, a rate inverting it, a speedup from a ratio', function () {
    const r = rec('a', [10, 11, 12, 13]);
    const t = kit.timeOf(r, 1 / 1000);
    expect(t.value).to.equal(0.011);
    expect(t.lo).to.be.below(t.value).and.above(0);
    const q = kit.rateOf(r, 100);
    expect(q.value).to.be.closeTo((100 / 11) * 1000, 1e-9);
    expect(q.lo).to.be.below(q.value);
    expect(q.hi).to.be.above(q.value);
    expect(kit.speedupOf({ ratio: { median: 0.5, ci: [0.4, 0.625] } })).to.deep.equal({ value: 2, lo: 1.6, hi: 2.5 });
    expect(kit.speedupOf({})).to.equal(null);
    expect(kit.timeOf(rec('b', [1, 2]))).to.deep.equal({ value: 2 });
    expect(kit.envLine(env)).to.equal('MongoDB 7.0.2 | 2026-11-28 | 2 cores');
  });

  it('every shape renders; whiskers where rows have intervals, none for counts', async function () {
    const timed = ['a', 'b', 'c'].map((v, i) => ({
      variant: v,
      k: 2 ** i,
      ...kit.timeOf(rec(v, [5, 6 * (i + 1), 7, 9])),
    }));
    // A chart of the timed rows, one mark per variant along x; `more` is what the shape adds.
    const perVariant = (name, title, more) => ({ name, title, values: timed, x: { field: 'variant' }, ...more });
    const byColor = { color: { field: 'variant' } };
    const specs = [
      kit.lines({
        name: 'l',
        title: 'lines',
        values: timed,
        x: { field: 'k', log: true, base: 2 },
        y: { log: 'auto' },
        series: { field: 'variant' },
        dash: true,
        rules: [{ y: 10 }],
      }),
      kit.bars(
        perVariant('b', 'bars', { subtitle: [kit.envLine(env), kit.WHISKERS], ...byColor, labels: { format: ',.1f' } }),
      ),
      kit.bars(perVariant('h', 'horizontal', { horizontal: true, labels: {} })),
      kit.bars(
        perVariant('p', 'panels', {
          values: timed.map((v, i) => ({ ...v, panel: i % 2 ? 'odd' : 'even' })),
          ...byColor,
          panels: { field: 'panel' },
        }),
      ),
      kit.dots(
        perVariant('d', 'dots', {
          values: timed.map((v) => ({ ...v, side: 'client' })),
          y: { log: true },
          ...byColor,
          shape: { field: 'side' },
        }),
      ),
      kit.dotRows({ name: 'r', title: 'rows', values: timed, x: { field: 'k' }, rows: { field: 'variant' } }),
    ];
    for (const s of specs.slice(0, 5)) expect(whiskers(s), s.name).to.have.length(1);
    const counts = kit.bars({ name: 'c', title: 'counts', values: [{ x: 'a', value: 3 }], x: { field: 'x' } });
    expect(whiskers(counts)).to.have.length(0);
    for (const s of [...specs, counts]) {
      const { name, ...vl } = s;
      const out = await renderChart(vl, path.join(tmp.dir, name));
      expect(fs.statSync(out.png).size, name).to.be.greaterThan(3000);
    }
    // 'auto' says log in the title only when it chose log
    expect(specs[0].layer.find((l) => l.mark.type === 'line').encoding.y.title).to.equal(null);
  });
});
