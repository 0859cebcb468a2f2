'use strict';
// Charts as SVG and PNG from a Vega-Lite spec, headless: vega renders the SVG, resvg rasterises
// it (prebuilt binary, no compiler, no browser). vega and vega-lite 6 are ESM-only, hence import().
const fs = require('fs');
const path = require('path');

/**
 * Renders a Vega-Lite spec to `${outBase}.svg` and `${outBase}.png`; returns both paths.
 * @param {object} spec a Vega-Lite spec with inline data ({ data: { values: [...] }, ... })
 * @param {string} outBase path without extension
 * @param {object} [o] { scale: PNG zoom (default 2) }
 */
async function renderChart(spec, outBase, { scale = 2 } = {}) {
  const vega = await import('vega');
  const vl = await import('vega-lite');
  const { Resvg } = require('@resvg/resvg-js');
  const compiled = vl.compile({ background: 'white', ...spec }, { logger: quietLogger() }).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  fs.mkdirSync(path.dirname(path.resolve(outBase)), { recursive: true });
  fs.writeFileSync(`${outBase}.svg`, svg);
  // DejaVu Sans is the font Debian and most Linux images have; resvg also loads system fonts.
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  fs.writeFileSync(`${outBase}.png`, png);
  return { svg: `${outBase}.svg`, png: `${outBase}.png` };
}

/**
 * Vega-Lite's logger without its warnings: they are about layout choices made on purpose (a faceted
 * bar chart's whiskers share the bars' independent x scale), and a run's terminal is for its results.
 * Errors still throw.
 */
function quietLogger() {
  const logger = {
    level: () => logger,
    warn: () => logger,
    info: () => logger,
    debug: () => logger,
    error: (...args) => {
      throw new Error(args.join(' '));
    },
  };
  return logger;
}

module.exports = { renderChart };
