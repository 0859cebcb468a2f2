'use strict';
// `mongo-perf-lab compare OLD NEW`: per study, variant and axis point, whether the time changed
// beyond --threshold, decided by the 95 % Welch t interval of the change of the per-round ratios to
// the point's reference (lib/core/compare.js);
// exit 1 only when a slowdown beyond the threshold is statistically clear.
const fs = require('fs');
const { UsageError } = require('../infra/errors');

const usage =
  'mongo-perf-lab compare OLD.json NEW.json [--threshold 10%] [--absolute] [--json FILE] [--md FILE]   (files or run folders)';
const summary = 'compare two result files; exit 1 on a clear slowdown';
const about = `compare reads two result files or run folders (run --json / --out) and shows, per study, variant
and axis point, the change with its 95% interval: the ratio of the two runs' geometric-mean ratios
of each round's time to the point's reference (steady under a drifting machine), with a Welch t
interval on their logarithms. The reference is the run's baseline variant, or, when the baseline
was capped (timed once), the first variant timed in every round; the reference's own row is its
ratio to the next such variant. Each heading names the reference. Below 3 rounds a side it calls
nothing ("too few rounds"); a variant timed once shows absolute time. It says what differs between
the files (server, study parameters; a study whose workload parameters differ is not compared) and
exits 1 only when a slowdown beyond --threshold is statistically clear.
--json - prints the comparison as JSON (for a CI: no table to parse), --md - as Markdown.`;

const options = {
  threshold: { type: 'string', arg: 'P', text: 'the smallest change that counts, in percent: 10 or 10% (default 10%)' },
  absolute: { type: 'boolean', text: 'also call changes of absolute time (a quiet, dedicated machine only)' },
  json: { type: 'string', arg: 'FILE', text: "also write the comparison as JSON to FILE ('-' for stdout only)" },
  md: { type: 'string', arg: 'FILE', text: "also write the comparison as Markdown to FILE ('-' for stdout only)" },
};

/**
 * --threshold: a percentage, with or without '%' ("10" and "10%" are both 10 %). A bare number
 * below 1 ("0.1", the old fraction form) is refused: read as a percentage it would be 0.1 %.
 */
function threshold(value) {
  if (value === undefined) return 0.1;
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*(%?)\s*$/.exec(value);
  const pct = m ? Number(m[1]) : NaN;
  if (!m || !(pct > 0 && pct < 10000))
    throw new UsageError(`--threshold: expected a percentage like 10 or 10%, got ${JSON.stringify(value)}`);
  if (!m[2] && pct < 1)
    throw new UsageError(
      `--threshold: ${value} reads as ${value} %; write ${pct * 100}% for ${pct * 100} %, or ${value}% if that is meant`,
    );
  return pct / 100;
}

function parse(values, positionals) {
  const { checkWritableFile } = require('../infra/output-paths');
  checkWritableFile(values.json, '--json');
  checkWritableFile(values.md, '--md');
  if (values.json === '-' && values.md === '-')
    throw new UsageError('compare: --json - and --md - both want stdout; give one of them a FILE');
  if (positionals.length !== 2)
    throw new UsageError('compare: give two result files or run folders: compare OLD NEW [--threshold 10%]');
  return {
    args: positionals,
    threshold: threshold(values.threshold),
    absolute: !!values.absolute,
    json: values.json,
    md: values.md,
    debug: values.debug,
  };
}

/** FILE, or stdout for '-'. */
function writeTo(target, text) {
  const { checkWritable } = require('../core/results');
  if (target === '-') process.stdout.write(text);
  else fs.writeFileSync(checkWritable(target), text);
}

async function run(o) {
  const { readResults, resultPath } = require('../core/results');
  const { compareResults } = require('../core/compare');
  const { InputFileError } = require('../infra/errors');
  const { compareDocument } = require('../report/compare-report');
  const { serverLine } = require('../report/report');
  // A file that is not a result file, or holds a record the lab did not write, is an InputFileError:
  // one line naming the file and the record, exit 2 (bin/mongo-perf-lab.js).
  const docs = o.args.map((arg) => readResults(arg));
  // A file without records measured nothing: every row would read "new" or "gone" and exit 0, which
  // a CI job would take for a pass.
  docs.forEach((d, i) => {
    if (!d.results.length)
      throw new InputFileError(
        `${resultPath(o.args[i])}: no records (nothing was measured: a run stopped before its first point?); nothing to compare`,
      );
  });
  const res = compareResults(docs[0], docs[1], { threshold: o.threshold, absolute: o.absolute, names: o.args });
  const servers = docs.map((d) => serverLine(d.environment));
  if (o.json) writeTo(o.json, JSON.stringify(res, null, 2) + '\n');
  if (o.md) {
    const { renderMarkdown } = require('../report/render-markdown');
    writeTo(o.md, renderMarkdown(compareDocument(res, servers, `compare ${o.args[0]} ${o.args[1]}`)));
  }
  if (o.json !== '-' && o.md !== '-') {
    const { renderTerminal } = require('../report/render-terminal');
    const color = Boolean(process.stdout.isTTY);
    process.stdout.write(renderTerminal(compareDocument(res, servers), { width: 100, color }));
  }
  return res.slower ? 1 : 0;
}

module.exports = { name: 'compare', usage, summary, about, options, parse, run };
