#!/usr/bin/env node
'use strict';
// Are the verdicts stable from run to run? Runs `findings` three times on the same build (by
// default the quick profile, all studies; the third beside two CPU-bound processes, as a busy
// machine would be) and counts the claims whose DECISIVE verdicts differ between runs. A verdict
// that says "cannot tell" (inconclusive) may differ from a decisive one: that is the honest answer
// of a noisier run. holds against stronger, reversed, fails, not-reproduced or not-measured may not.
//
//   npm run bench:stability                         # the documented benchmark: ~10 min on 2 quiet cores
//   node bench/stability.js where --profile tiny    # a quick check of the script itself
//   node bench/stability.js --out DIR --uri URI     # keep the runs in DIR; use your server
//
// Writes DIR/run-1, run-2, run-3-burners (each a findings report with findings.json) and
// DIR/stability.md + DIR/stability.json. Not part of `npm test`: it takes minutes and needs a quiet
// machine to mean anything. Exit code 1 when a decisive verdict flips.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const { parseArgs } = require('util');
const { startBurners } = require('../test/burners');

const ROOT = path.join(__dirname, '..');
const CLI = path.join(ROOT, 'bin', 'mongo-perf-lab.js');
// The verdict that decides nothing: a run may give it where another decides. not-reproduced is a
// decision about the setting, not-measured a fixed fact of the lab (no measurement for the claim):
// lib/core/claims.js DECISIVE leaves both out, yet neither depends on the run, so neither may flip here.
const UNDECIDED = new Set(['inconclusive']);

/** The three runs: the last one beside two burners. */
const RUNS = [
  { name: 'run-1', burners: 0 },
  { name: 'run-2', burners: 0 },
  { name: 'run-3-burners', burners: 2 },
];

function runFindings(args, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'findings', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      log(String(d).trimEnd());
    });
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`findings ${args.join(' ')} exited ${code}: ${err.trim().split('\n').pop()}`)),
    );
  });
}

/**
 * The claims whose verdicts differ between the runs' findings.json documents, split into decisive
 * flips (two decisive verdicts that disagree) and the allowed kind (decisive vs undecided).
 * A not-reproduced whose setting was absent because the cores were busy (setting.absent
 * 'busy-cores', lib/core/claims.js quietCores) decides nothing either: the run beside CPU-bound
 * processes takes those cores away on purpose. Any other not-reproduced stays decisive.
 */
function verdictDifferences(reports) {
  const key = (c) => `${c.study}\u0000${c.id}\u0000${c.column}`;
  const byKey = new Map();
  reports.forEach((rep, i) => {
    for (const c of rep.claims) {
      if (!byKey.has(key(c)))
        byKey.set(key(c), {
          study: c.study,
          id: c.id,
          claim: c.claim,
          column: c.column,
          verdicts: reports.map(() => null),
          figures: reports.map(() => null),
          busyCores: reports.map(() => false),
        });
      const row = byKey.get(key(c));
      row.verdicts[i] = c.verdict;
      row.figures[i] = c.figure;
      row.busyCores[i] = Boolean(c.setting && c.setting.absent === 'busy-cores');
    }
  });
  const rows = [...byKey.values()];
  const decisive = (row) =>
    row.verdicts.filter((v, i) => v !== null && !UNDECIDED.has(v) && !(v === 'not-reproduced' && row.busyCores[i]));
  return {
    claims: rows.length,
    flips: rows.filter((r) => new Set(decisive(r)).size > 1),
    allowed: rows.filter(
      (r) => new Set(decisive(r)).size <= 1 && new Set(r.verdicts.filter((v) => v !== null)).size > 1,
    ),
    rows,
  };
}

function markdown(diff, runs, command) {
  const line = (r) =>
    `| ${r.study} | ${r.claim} | ${r.verdicts.map((v, i) => `${v || '-'}${r.figures[i] ? ` (${r.figures[i]})` : ''}`).join(' | ')} |`;
  const head = `| study | claim | ${runs.map((r) => r.name).join(' | ')} |\n|---|---|${runs.map(() => '---|').join('')}`;
  return [
    `# Verdict stability: ${runs.length} runs of \`${command}\``,
    '',
    `${diff.claims} claims; **${diff.flips.length} decisive flips** (two decisive verdicts that disagree); ` +
      `${diff.allowed.length} claims decided in one run and undecided in another (inconclusive, or not reproduced on busy cores; allowed).`,
    '',
    `Runs: ${runs.map((r) => `${r.name}${r.burners ? ` (beside ${r.burners} CPU-bound processes)` : ''}, ${r.seconds} s`).join('; ')}.`,
    '',
    '## Decisive flips',
    '',
    diff.flips.length ? [head, ...diff.flips.map(line)].join('\n') : 'None.',
    '',
    '## Decided in one run, undecided in another',
    '',
    diff.allowed.length ? [head, ...diff.allowed.map(line)].join('\n') : 'None.',
    '',
    '## Every claim',
    '',
    [head, ...diff.rows.map(line)].join('\n'),
    '',
  ].join('\n');
}

const USAGE = `npm run bench:stability -- [STUDY...] [options]
Runs findings three times on this build (the third beside two CPU-bound processes) and counts the
claims whose decisive verdicts differ; exit 1 when one flips. ~10 min at the quick profile.
  --profile NAME  tiny, quick (default) or seed
  --out DIR       keep the three runs and stability.md/.json in DIR (default results/stability-<time>)
  --uri URI       your server (default: an embedded mongod per run)
`;

async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      profile: { type: 'string', default: 'quick' },
      uri: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const out = path.resolve(
    values.out || path.join(ROOT, 'results', `stability-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}`),
  );
  fs.mkdirSync(out, { recursive: true });
  const log = (t) => process.stderr.write(`${t}\n`);
  const common = [...positionals, '--profile', values.profile, '--quiet', ...(values.uri ? ['--uri', values.uri] : [])];
  const runs = [];
  for (const run of RUNS) {
    const burners = run.burners ? startBurners(run.burners) : null;
    const t0 = Date.now();
    log(`${run.name}: findings ${common.join(' ')}${burners ? ` beside burners ${burners.pids.join(', ')}` : ''}`);
    try {
      await runFindings([...common, '--out', path.join(out, run.name)], log);
    } finally {
      if (burners) burners.stop();
    }
    runs.push({ ...run, seconds: Math.round((Date.now() - t0) / 1000) });
  }
  const reports = runs.map((r) => JSON.parse(fs.readFileSync(path.join(out, r.name, 'findings.json'), 'utf8')));
  const diff = verdictDifferences(reports);
  const command = `mongo-perf-lab findings ${common.filter((a) => !a.startsWith('mongodb')).join(' ')}`;
  fs.writeFileSync(path.join(out, 'stability.md'), markdown(diff, runs, command));
  fs.writeFileSync(
    path.join(out, 'stability.json'),
    JSON.stringify(
      {
        command,
        runs,
        claims: diff.claims,
        decisiveFlips: diff.flips.length,
        allowedDifferences: diff.allowed.length,
        flips: diff.flips,
        allowed: diff.allowed,
      },
      null,
      2,
    ) + '\n',
  );
  process.stdout.write(
    `${diff.claims} claims, ${diff.flips.length} decisive flips, ${diff.allowed.length} decided/inconclusive differences; ` +
      `report: ${path.relative(process.cwd(), path.join(out, 'stability.md'))}\n`,
  );
  return diff.flips.length ? 1 : 0;
}

if (require.main === module) require('./run-main').runMain('bench:stability', main);

module.exports = { verdictDifferences, UNDECIDED };
