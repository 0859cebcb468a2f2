'use strict';
// Every rule that has a published figure, replayed on the source's own figures (as records in the
// source's setting: its server, its cores, a quiet machine): it must reach the source's conclusion,
// or the documented "the source's figures do not support it". See lib/core/source-replay.js.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const claims = require('../../lib/core/claims');
const { sourceEnv, sourceRecords } = require('../../lib/core/source-replay');
const { studies } = require('../../lib/studies');

const STUDIES = path.join(__dirname, '..', '..', 'lib', 'studies');

/** A claim has a published figure unless the ledger says it has none. */
function hasFigure(c) {
  return !!c.published && !/^no figure/i.test(c.published);
}

function figuresOf(entry) {
  const f = path.join(STUDIES, entry.name, 'source-figures.js');
  return fs.existsSync(f) ? require(f) : null;
}

/** The records and environment one replay entry describes. */
function replayInput(entry, figures, r) {
  const env = sourceEnv({ ...(figures.env || {}), ...(r.env || {}) });
  const records = r.records || sourceRecords(entry.name, r.points || [], { cores: env.host.cores });
  return { env, records };
}

describe('claims replayed on the sources own figures', function () {
  for (const entry of studies) {
    const withFigure = (entry.claims || []).filter(hasFigure);
    if (!withFigure.length) continue;
    describe(`${entry.name}`, function () {
      const figures = figuresOf(entry);
      it(`has lib/studies/${entry.name}/source-figures.js with an entry for each of its ${withFigure.length} claims with a published figure`, function () {
        expect(figures, `lib/studies/${entry.name}/source-figures.js`).to.be.an('object');
        const missing = withFigure.map((c) => c.id).filter((id) => !figures.claims[id]);
        expect(missing, 'claims with a published figure and no replay entry').to.deep.equal([]);
      });
      for (const c of withFigure) {
        const r = figures && figures.claims[c.id];
        if (!r) continue;
        if (r.none) {
          it(`${c.id}: not replayable (${r.none}); its rule measures nothing`, function () {
            const [j] = claims.judge({ name: entry.name, claims: [c] }, [], sourceEnv(figures.env || {}), {});
            expect(j.verdict, j.why).to.equal('not-measured');
          });
          continue;
        }
        it(`${c.id}: on the source's figures, ${r.expect}`, function () {
          const { env, records } = replayInput(entry, figures, r);
          const [j] = claims.judge({ name: entry.name, claims: [c] }, records, env, { [entry.name]: r.params || {} });
          expect(j.verdict, `${j.figure}: ${j.why}`).to.equal(r.expect);
        });
      }
    });
  }

  it('every gone, reversed or unsupported verdict of the documented runs carries its mechanism with a reference', function () {
    // The entries' mechanism is checked where a verdict needs it: a claim that can be judged gone or
    // reversed names { why, ref } in its declaration (ref: the manual, server source or release notes).
    const bad = [];
    for (const e of studies)
      for (const c of e.claims || [])
        if (c.mechanism && (!c.mechanism.why || !/^https?:\/\//.test(c.mechanism.ref || '')))
          bad.push(`${c.id}: mechanism needs { why, ref: 'https://...' }`);
    expect(bad).to.deep.equal([]);
  });
});
