'use strict';
// `mongo-perf-lab findings [study...]`: run every study (or read result files) and judge each source
// article's claims; writes findings.md and a self-contained findings.html.
const fs = require('fs');
const path = require('path');
const { fmtMs } = require('../../scripts/lib/format');
const { VERDICTS, LABEL, MEANING } = require('../core/claims');
const { checkWritable } = require('../core/results');
const { UsageError, ParameterError, safeArgv } = require('../infra/errors');
const { renderTableLines } = require('../report/render-terminal');
const opt = require('./options');
const studyRun = require('./study-run');

const usage =
  'mongo-perf-lab findings [study...] [--profile quick|seed|tiny | --budget 30m] [--uri URI | --servers URI1,URI2] [--engines sbe,classic] [--from DIR,...] [--labels L1,...] [--out DIR] [--readme]';
const summary = "judge the source articles' claims on your server(s), or on saved results";
const about = `findings runs every study (or reads result files: --from), says first what the measured
practices mean for your server ("What this means for you": each figure from the records with its
95 % interval, or the run that would decide it), then judges each source article's claims in one
vocabulary (below). It writes findings.md, a self-contained findings.html and findings.json (one
object per claim and column, for a CI job: docs/findings.schema.json) under --out (default
results/findings-<date-time>).`;

/** The verdict vocabulary as the reports print it (lib/core/claims.js LABEL and MEANING), wrapped to 100 columns. */
function verdictNotes() {
  const width = Math.max(...VERDICTS.map((v) => LABEL[v].length));
  const indent = ' '.repeat(width + 4);
  const lines = ['Verdicts, in the words of every report and the README (lib/core/claims.js LABEL, MEANING):'];
  for (const v of VERDICTS) {
    const words = MEANING[v].split(' ');
    let line = `  ${LABEL[v].padEnd(width)}  `;
    for (const w of words) {
      if (line.length + w.length + 1 > 100 && line.trim()) {
        lines.push(line.trimEnd());
        line = indent;
      }
      line += (line.endsWith(' ') ? '' : ' ') + w;
    }
    lines.push(line.trimEnd());
  }
  return lines.join('\n');
}
const notes = verdictNotes();

const options = {
  profile: {
    type: 'string',
    arg: 'P',
    text: "quick (default), seed (the source articles' scales), or tiny (test scale:\nthe test suite's; its verdicts are labelled test scale, not findings)",
  },
  budget: opt.withMore(opt.RUN_OPTIONS.budget, ' (findings.json: budget)'),
  uri: opt.RUN_OPTIONS.uri,
  servers: { type: 'string', arg: 'URIS', text: 'one column per server (comma-separated connection strings)' },
  engines: {
    type: 'string',
    arg: 'LIST',
    text: 'default, sbe, classic: one column per query engine, switched with setParameter on\nan embedded mongod only (a server the lab did not start is never reconfigured)',
  },
  from: {
    type: 'string',
    arg: 'FILES',
    text: "judge saved result files (or run folders) again, one column each, no server needed;\nA.json+B.json makes one column of several files (a study in several of them takes the\nrecords of all but the first file, e.g. a study's main run and its cache run)",
  },
  labels: { type: 'string', arg: 'L1,L2', text: "the columns' names (default: server version, engine and profile)" },
  merge: { type: 'boolean', text: 'with --from: all the files in one column, as A.json+B.json+...' },
  readme: {
    type: 'boolean',
    text: "also rewrite README.md's generated block (what this means for you, at a glance)",
  },
  out: { type: 'string', arg: 'DIR', text: 'where findings.md, findings.html and the charts go' },
  db: opt.RUN_OPTIONS.db,
  keep: opt.withMore(
    opt.RUN_OPTIONS.keep,
    ": on your own server(s) (`clean --uri --db` removes it), or with no server given in\n~/.cache/mongo-perf-lab/kept-data, the embedded mongod's data (`clean --kept-data`)",
  ),
  'cache-gb': opt.RUN_OPTIONS['cache-gb'],
  quiet: { type: 'boolean', short: 'q', text: 'print only the glance table and the files written' },
};

function engineList(value) {
  const engines =
    value === undefined
      ? []
      : value
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean);
  for (const e of engines)
    if (!['default', 'sbe', 'classic'].includes(e))
      throw new UsageError(`--engines: ${JSON.stringify(e)} is not one of default, sbe, classic`);
  return engines;
}

function parse(values, positionals) {
  opt.budgetProfile(values.budget, values.profile);
  return {
    args: positionals,
    profile: opt.profileName(values.profile),
    budgetMs: opt.budgetMs(values.budget),
    uri: values.uri,
    servers: opt.listOption('servers', values.servers),
    engines: engineList(values.engines),
    from: opt.listOption('from', values.from),
    labels: opt.listOption('labels', values.labels),
    merge: values.merge,
    readme: values.readme,
    out: values.out,
    db: opt.dbName(values.db) || 'perflab',
    cacheSizeGB: opt.cacheGb(values['cache-gb']),
    quiet: values.quiet,
    keep: values.keep,
    debug: values.debug,
  };
}

/** The command line a report names so it can be made again (connection strings left out). */
function reportCommand() {
  return [
    'mongo-perf-lab',
    ...safeArgv(process.argv.slice(2)).map((a) => (/[\s'"$`\\]/.test(a) ? `'${a.replace(/'/g, "'\\''")}'` : a)),
  ].join(' ');
}

/** Refuses, before any work, --from items that do not exist and a --labels count that does not fit. */
function checkColumns(o, fromGroup) {
  for (const item of o.from) {
    for (const f of fromGroup(item)) if (!fs.existsSync(f)) throw new UsageError(`--from ${f}: no such file or folder`);
  }
  const columns = o.from.length
    ? o.merge
      ? 1
      : o.from.length
    : Math.max(1, o.servers.length) * Math.max(1, o.engines.length);
  // A budget is one run's wall time: read results spend none, and a second column would start past every deadline.
  if (o.budgetMs && (o.from.length || columns > 1))
    throw new UsageError(
      `--budget plans one run on one server: not with ${o.from.length ? '--from' : `${columns} columns (--servers, --engines)`}`,
    );
  if (o.labels.length && o.labels.length !== columns) {
    throw new UsageError(
      `--labels: ${o.labels.length} name(s) for ${columns} column(s); give one per column, comma-separated`,
    );
  }
}

/** The studies a budget plans at the seed profile (the seed warning names only those). */
function seedStudies(budget) {
  return budget.plan.filter((r) => r.profile === 'seed').map((r) => r.entry);
}

/**
 * The end of a budgeted findings: findings.json gains its `budget` object (given, spent, plan, open
 * claims: docs/findings.schema.json); returns the lines naming the open claims and their deciding runs.
 */
function budgetEnd(budget, res) {
  const { lines, record } = studyRun.endBudget(budget, res.judged[0] || []);
  const file = res.files.find((f) => f.endsWith('findings.json'));
  res.json.budget = record;
  fs.writeFileSync(file, JSON.stringify(res.json, null, 2) + '\n');
  return lines;
}

async function run(o) {
  // Lazy: findings-files and core/findings load the driver and mongosh's runtime (~1.4 s),
  // lab-lines the driver, ../studies every study: none of them for `--help` (test/cli.test.js).
  const { findings, updateReadme } = require('../report/findings-files');
  const { fromGroup } = require('../core/findings');
  const { humanLines } = require('../core/lab-lines');
  const { prepareRun, finishPlaces, lazyPeers, outDirOf, keptUri } = studyRun;
  const t0 = Date.now();
  const entries = o.args.length ? opt.chooseStudies(o.args) : require('../studies').studies;
  checkColumns(o, fromGroup);
  const outDir = outDirOf(o, 'findings-');
  checkWritable(path.join(outDir, 'findings.md'), '--out');
  // A findings report read from result files connects to no server: nothing to track or drop.
  // Otherwise each server's database (--uri, or every one of --servers) is settled at the end.
  const places = o.from.length ? [] : await prepareRun(o);
  const log = (t) => {
    if (!o.quiet) process.stderr.write(t + '\n');
  };
  const { budget, profile } = planProfiles(o, entries, log, t0);
  let res;
  // Results read from files (--from) start no server of any kind: `ready` is never called.
  const peers = lazyPeers(entries, log);
  try {
    res = await ParameterError.from(() =>
      findings({
        entries,
        profile,
        ...(budget ? { profileOf: budget.profileOf, deadlineOf: budget.deadlineOf } : {}),
        // --keep with no server given: the embedded mongod on the kept data (kept-data.js)
        uris: o.servers.length ? o.servers : [keptUri(places) || o.uri],
        engines: o.engines,
        from: o.from,
        merge: o.merge,
        labels: o.labels,
        command: reportCommand(),
        outDir,
        dbName: o.db,
        cacheSizeGB: o.cacheSizeGB,
        ready: peers.start,
        log,
        echo: (text) => {
          if (!o.quiet) process.stdout.write(humanLines(text).join('\n') + '\n');
        },
      }),
    );
  } finally {
    await peers.stop();
    // Like `run`: the database findings created on each server goes when it is done (proven by
    // UUID), and in one that existed what it made there, unless --keep (study-run.js finishPlaces).
    await finishPlaces(places);
  }
  if (o.readme) updateReadme(path.join(__dirname, '..', '..', 'README.md'), res.glance);
  printEnd(o, res, budget ? budgetEnd(budget, res) : [], t0);
  return 0;
}

/**
 * The profile(s) before the run: --budget's plan (printed), else --profile; the seed warning names
 * the studies that will run at the sources' scales.
 */
function planProfiles(o, entries, log, t0) {
  const budget = studyRun.startBudget(o.budgetMs, entries, (t) => process.stdout.write(`${t}\n`), t0);
  const profile = budget ? budget.profile : o.profile;
  if (profile === 'seed' && !o.from.length) studyRun.announceSeed(budget ? seedStudies(budget) : entries, log);
  return { budget, profile };
}

/** The glance table, the time and the files written; under --budget, the claims it left open. */
function printEnd(o, res, openLines, t0) {
  const glance = renderTableLines(res.glanceTable, { width: 100, color: Boolean(process.stdout.isTTY) });
  process.stdout.write(
    `\n${glance.join('\n')}\n\ntotal time ${fmtMs(Date.now() - t0)}; written:\n${studyRun.fileLines(res.files)}\n` +
      (o.readme ? '  README.md (findings at a glance)\n' : ''),
  );
  if (openLines.length) process.stdout.write(`\n${openLines.join('\n')}\n`);
}

module.exports = { name: 'findings', usage, summary, about, options, notes, parse, run };
