'use strict';
// `findings` stopped with Ctrl-C and started again with the same --out resumes across studies: a
// study it finished whole is not measured again (its records are kept as they were), the next one
// is measured, and the end files (results.json, findings.json) are complete. A file measured in
// another setting is not resumed: it is moved aside and the run starts over (lib/core/results.js).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { testUri, labRun, readJsonOrNull, scratchDirAndDb } = require('./helpers');

const DB = 'labtest_resume_findings';
// Two small studies with no PostgreSQL peer (their SQL rows are skipped, which resuming does not
// care about): where (one point and its functional checks), then joins (one point).
const STUDIES = ['where', 'joins'];

function start(out, studies = STUDIES) {
  const args = ['findings', ...studies, '--profile', 'tiny', '--uri', testUri(), '--db', DB, '--out', out];
  const env = {
    LAB_PG_PACKAGE_DIR: path.join(os.tmpdir(), 'lab-no-postgres-here'),
    MONGODB_URI: undefined,
    PG_URI: undefined,
  };
  return labRun(args, { env });
}

/** Stderr with the wrapped lines joined (a line over 100 columns continues indented). */
function said(r) {
  return r.stderr.replace(/\n +/g, ' ');
}

describe('resuming findings: the same --out keeps the studies it finished', function () {
  const scratch = scratchDirAndDb('lab-resume-findings-', DB);

  it('SIGINT after the first study, then the same command: the first is kept, the second measured; another setting starts over', async function () {
    const out = path.join(scratch.dir, 'out');
    const file = path.join(out, 'column-1', 'results.json');
    const first = start(out);
    // The first study's result line ("where: 6.1 s (data ...)") comes once its end is in the file.
    const t0 = Date.now();
    while (Date.now() - t0 < 120000 && !/^where: .* points measured/m.test(first.stderr)) {
      await new Promise((r) => setTimeout(r, 10));
    }
    first.child.kill('SIGINT');
    await first.done;
    expect(first.code, first.stderr).to.not.equal(0);
    const stopped = readJsonOrNull(file);
    expect(stopped.complete).to.equal(false);
    expect(stopped.progress.done).to.deep.equal(['where']);
    const kept = stopped.results.filter((r) => r.study === 'where');
    expect(kept.length).to.be.above(0);
    expect(fs.existsSync(path.join(out, 'findings.json'))).to.equal(false);

    const second = await start(out).done;
    expect(second.code, second.stderr).to.equal(0);
    expect(said(second)).to.contain(
      `resuming: 1 of 1 points of where already measured in ${file}: nothing left to measure`,
    );
    // where was not measured again: no line of its points, its records as they were.
    expect(second.stderr).to.not.match(/^where: .*variants x/m);
    expect(second.stderr).to.match(/^joins: .* points measured/m);
    const end = readJsonOrNull(file);
    expect(end.complete).to.equal(true);
    expect(end.progress.done).to.deep.equal(STUDIES);
    expect(end.progress.sessions.length).to.equal(2);
    expect(end.results.filter((r) => r.study === 'where')).to.deep.equal(kept);
    expect(end.results.some((r) => r.study === 'joins' && r.type === 'result')).to.equal(true);
    const fj = readJsonOrNull(path.join(out, 'findings.json'));
    for (const st of STUDIES)
      expect(
        fj.claims.some((c) => c.study === st),
        st,
      ).to.equal(true);
    expect(fs.readFileSync(path.join(out, 'findings.md'), 'utf8')).to.contain('MongoDB does not support joins');

    // Another setting (here: the file says another server version; where alone, to be quick): not
    // resumed, the file set aside whole, where measured anew.
    const other = { ...end.environment, server: { ...end.environment.server, version: '5.0.0' } };
    fs.writeFileSync(file, JSON.stringify({ ...end, environment: other }));
    const third = await start(out, ['where']).done;
    expect(third.code, third.stderr).to.equal(0);
    expect(said(third)).to.match(
      /not resuming .*results\.json: server version "5\.0\.0" then, "[0-9.]+" now; starting over/,
    );
    expect(third.stderr).to.match(/^where: .*variants x/m);
    const aside = fs.readdirSync(path.join(out, 'column-1')).filter((f) => /^results-.+\.json$/.test(f));
    expect(aside.length).to.equal(1);
    expect(readJsonOrNull(path.join(out, 'column-1', aside[0])).results).to.deep.equal(end.results);
    const redone = readJsonOrNull(file);
    expect(redone.complete).to.equal(true);
    expect(redone.progress.sessions.length).to.equal(1);
    expect(redone.progress.done).to.deep.equal(['where']);
  });
});
