'use strict';
// `mongo-perf-lab findings [study...]`: run every study (or read result files) and judge each source
// article's claims; writes findings.md and a self-contained findings.html.
const fs = require('fs');
const path = require('path');
const opt = require('./options');
const { UsageError } = require('../infra/errors');

const usage =
  'mongo-perf-lab findings [study...] [--profile quick|seed|tiny] [--uri URI | --servers URI1,URI2] [--engines sbe,classic] [--from DIR,...] [--labels L1,...] [--out DIR] [--readme]';
const summary = "judge the source articles' claims on your server(s), or on saved results";
const about = `findings runs every study (or reads result files: --from), says first what the measured
practices mean for your server ("What this means for you": each figure from the records with its
95 % interval, or the run that would decide it), then judges each source article's claims in one
vocabulary (below). It writes findings.md, a self-contained findings.html and findings.json (one
object per claim and column, for a CI job: docs/findings.schema.json) under --out (default
results/findings-<date-time>).`;

/** The verdict vocabulary as the reports print it (lib/core/claims.js LABEL and MEANING), wrapped to 100 columns. */
function verdictNotes() {
  const { VERDICTS, LABEL, MEANING } = require('../core/claims');
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
  uri: { type: 'string', arg: 'URI', text: 'run against this server (default: $MONGODB_URI, else an embedded mongod)' },
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
  db: { type: 'string', arg: 'NAME', text: 'database to use (default: perflab)' },
  keep: {
    type: 'boolean',
    text: 'on your own server(s), keep what the run made (default: dropped at the end; `clean` removes it later)',
  },
  'cache-gb': { type: 'string', arg: 'N', text: 'WiredTiger cache size of the embedded mongod, in GB' },
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
  return {
    args: positionals,
    profile: opt.profileName(values.profile),
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
  const { safeArgv } = require('../infra/errors');
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
  if (o.labels.length && o.labels.length !== columns) {
    throw new UsageError(
      `--labels: ${o.labels.length} name(s) for ${columns} column(s); give one per column, comma-separated`,
    );
  }
}

async function run(o) {
  const { findings, updateReadme } = require('../report/findings-files');
  const { fromGroup } = require('../core/findings');
  const { humanLines } = require('../core/lab-lines');
  const { checkWritable } = require('../core/results');
  const { fmtMs } = require('../../scripts/lib/lab');
  const { ParameterError } = require('../infra/errors');
  const { prepareRun, finishPlaces, lazyPeers, announceSeed, outDirOf, fileLines } = require('./study-run');
  const { renderTableLines } = require('../report/render-terminal');
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
  if (o.profile === 'seed' && !o.from.length) announceSeed(entries, log);
  let res;
  // Results read from files (--from) start no server of any kind: `ready` is never called.
  const peers = lazyPeers(entries, log);
  try {
    res = await ParameterError.from(() =>
      findings({
        entries,
        profile: o.profile,
        uris: o.servers.length ? o.servers : [o.uri],
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
  const glance = renderTableLines(res.glanceTable, { width: 100, color: Boolean(process.stdout.isTTY) });
  process.stdout.write(
    `\n${glance.join('\n')}\n\ntotal time ${fmtMs(Date.now() - t0)}; written:\n${fileLines(res.files)}\n` +
      (o.readme ? '  README.md (findings at a glance)\n' : ''),
  );
  return 0;
}

module.exports = { name: 'findings', usage, summary, about, options, notes, parse, run };
