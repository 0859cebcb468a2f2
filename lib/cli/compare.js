'use strict';
// `mongo-perf-lab compare OLD.json NEW.json`: per study, variant and axis point, the change of the
// median time with its 95% interval; exit 1 when a slowdown beyond --threshold is statistically clear.
const fs = require('fs');
const { UsageError } = require('../infra/errors');

const usage = 'mongo-perf-lab compare OLD.json NEW.json [--threshold 10%]';
const summary = 'compare two result files; exit 1 on a clear slowdown';
const about = `compare reads two result files (run --json / --out) and shows, per study, variant and axis point,
the change of the median time with its 95% interval; it exits 1 when a slowdown beyond --threshold
(default 10%) is statistically clear, so a CI job can keep a baseline of its server.`;

const options = {
  threshold: { type: 'string', arg: 'P', text: 'the slowdown that counts, as 10% or 0.1 (default 10%)' },
  json: { type: 'string', arg: 'FILE', text: 'also write the comparison to FILE (\'-\' for stdout only)' },
};

function threshold(value) {
  if (value === undefined) return 0.1;
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$/.exec(value);
  const t = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!m || !(t > 0 && t < 100)) throw new UsageError(`--threshold: expected a percentage like 10% or a fraction like 0.1, got ${JSON.stringify(value)}`);
  return t;
}

function parse(values, positionals) {
  const { checkWritableFile } = require('../infra/output-paths');
  checkWritableFile(values.json, '--json');
  if (positionals.length !== 2) throw new UsageError('compare: give two result files: compare OLD.json NEW.json [--threshold 10%]');
  return { args: positionals, threshold: threshold(values.threshold), json: values.json, debug: values.debug };
}

async function run(o) {
  const { readResults, ResultFormatError, checkWritable } = require('../core/results');
  const { compareResults, compareLines } = require('../core/compare');
  const report = require('../report/report');
  let docs;
  try {
    docs = o.args.map(readResults);
  } catch (e) {
    if (e instanceof ResultFormatError) throw new UsageError(e.message);
    throw e;
  }
  const res = compareResults(docs[0], docs[1], { threshold: o.threshold });
  if (o.json) {
    const text = JSON.stringify(res, null, 2) + '\n';
    if (o.json === '-') process.stdout.write(text);
    else fs.writeFileSync(checkWritable(o.json), text);
  }
  if (o.json !== '-') process.stdout.write(`old: ${report.serverLine(docs[0].environment)}\nnew: ${report.serverLine(docs[1].environment)}\n\n` + compareLines(res).join('\n') + '\n');
  return res.slower ? 1 : 0;
}

module.exports = { name: 'compare', usage, summary, about, options, parse, run };
