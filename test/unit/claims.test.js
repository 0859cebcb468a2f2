'use strict';
// The verdict rules are code over result records: one vocabulary, decided from an interval in the
// claim's setting. These checks build records the way the runner does (lab.harness rounds, then
// lab.pointRecords) and move a figure, its spread, the setting or the scale across a boundary.
const { expect } = require('chai');
const claims = require('../../lib/core/claims');
const where = require('../../lib/studies/where');
const mapreduce = require('../../lib/studies/mapreduce');
const timeseries = require('../../lib/studies/timeseries');
const { timedRecords, verdictOfWith } = require('./claims-records');

const { VERDICT } = claims;

// Records as the runner makes them: variants timed in rounds against a baseline (claims-records.js).
const records = timedRecords;

const ENV = {
  server: { version: '6.0.5', cacheBytes: 12 * 1024 ** 3 },
  host: { cores: 2, memoryGB: 23.5 },
  profile: 'seed',
};
const SEED_WHERE = { where: { N: 1000000 } };
// The claims $where dominates are judged per machine state (usable cores): a free-cores state needs
// records that prove the cores were free (a CPU-wait figure, a load below the cores).
const quiet = (recs) => recs.map((r) => ({ ...r, loadavg: { start: 0.2, end: 0.2, cores: 2, cpuWait: 0.02 } }));

const verdictOf = verdictOfWith(ENV);

describe('claims: one vocabulary, decided from an interval', function () {
  it('exports the vocabulary as constants, the decisive subset and a label for each', function () {
    expect(claims.VERDICTS).to.deep.equal([
      'holds',
      'stronger',
      'weaker',
      'no-effect',
      'reversed',
      'fails',
      'gone',
      'unsupported',
      'question',
      'not-reproduced',
      'not-measured',
      'inconclusive',
    ]);
    expect(claims.DECISIVE).to.deep.equal(['holds', 'stronger', 'weaker', 'no-effect', 'reversed', 'fails', 'gone']);
    for (const v of claims.VERDICTS) expect(claims.LABEL[v]).to.be.a('string');
    // findings.json's schema names the same words (a new word added here must be valid there)
    const enums = [];
    JSON.stringify(require('../../docs/findings.schema.json'), (k, v) => {
      if (k === 'enum' && v.includes('holds')) enums.push(v);
      return v;
    });
    expect(enums).to.deep.equal([claims.VERDICTS]);
    expect(Object.isFrozen(claims.VERDICT)).to.equal(true);
  });

  it('the t-interval on log per-round ratios: none below 3 rounds, wider with spread, centred on the geometric mean', function () {
    expect(claims.ratioInterval([2, 2])).to.include({ lo: null, hi: null, n: 2 });
    const tight = claims.ratioInterval([2, 2.02, 1.98, 2.01, 1.99]);
    const wide = claims.ratioInterval([2, 3, 1.3, 2.5, 1.6]);
    expect(tight.lo).to.be.within(1.9, 2);
    expect(tight.hi).to.be.within(2, 2.1);
    expect(wide.hi / wide.lo).to.be.above(tight.hi / tight.lo);
    expect(tight.method).to.equal('t-log');
  });

  it('decide: holds inside the band, stronger above, weaker between the no-difference band and the band, no-effect inside the no-difference band, reversed below it, inconclusive across a boundary', function () {
    const band = { holds: [33, 300] };
    const iv = (lo, hi) => ({ mid: Math.sqrt(lo * hi), lo, hi, n: 5 });
    expect(claims.decide(iv(50, 200), band).verdict).to.equal(VERDICT.HOLDS);
    expect(claims.decide(iv(400, 900), band).verdict).to.equal(VERDICT.STRONGER);
    expect(claims.decide(iv(2, 20), band).verdict).to.equal(VERDICT.WEAKER);
    expect(
      claims.decide(iv(0.88, 0.98), band).verdict,
      'an interval wholly below 1 but inside the band: no effect',
    ).to.equal(VERDICT.NO_EFFECT);
    expect(claims.decide(iv(1.1, 1.4), band).verdict, 'between no effect and a smaller effect').to.equal(
      VERDICT.INCONCLUSIVE,
    );
    expect(claims.decide(iv(0.3, 0.7), band).verdict).to.equal(VERDICT.REVERSED);
    // A band that starts below 1.25x leaves no room for weaker: the no-difference band ends at it.
    expect(claims.decide(iv(0.9, 1.05), { holds: [1.1, 2] }).verdict).to.equal(VERDICT.NO_EFFECT);
    expect(claims.decide(iv(0.97, 1.02), { holds: [1.03, 1.5], tie: [0.95, 1.03] }).verdict).to.equal(
      VERDICT.NO_EFFECT,
    );
    // A parity claim: no effect is what it claims.
    expect(claims.decide(iv(0.9, 1.1), { holds: [0.8, 1.25] }).verdict).to.equal(VERDICT.HOLDS);
    expect(claims.decide(iv(0.3, 0.6), { holds: [0.8, 1.25] }).verdict).to.equal(VERDICT.REVERSED);
    const across = claims.decide(iv(200, 400), band);
    expect(across.verdict).to.equal(VERDICT.INCONCLUSIVE);
    // what would decide: the rounds this spread needs to clear the nearest boundary, or that more
    // rounds alone are unlikely to (a centre near 300x with a 2x-wide interval)
    expect(across.why).to.match(
      /straddles 300x.*more rounds alone are unlikely to decide \(about \d+ rounds at this spread\)/,
    );
    const near = claims.decide(iv(250, 320), band);
    expect(near.why).to.match(
      /straddles 300x.*more rounds \(--runs (\d+), the RUNS parameter\) would decide if the rounds keep this spread/,
    );
    const n = Number(/--runs (\d+)/.exec(near.why)[1]);
    expect(n).to.be.above(5).and.at.most(30);
    expect(claims.decide({ mid: 100, lo: null, hi: null, n: 2 }, band).why).to.match(/too few rounds \(2\)/);
  });

  it('the kind of a claim: a directional one fails the other way round (REVERSED); a one-sided or parity one that fails has no direction to reverse (FAILS)', function () {
    const iv = (lo, hi) => ({ mid: Math.sqrt(lo * hi), lo, hi, n: 5 });
    const { KIND } = claims;
    // directional ("3x faster"): beyond the no-difference band on the other side
    const directional = claims.decide(iv(0.3, 0.6), { holds: [2, 4] });
    expect(directional.verdict).to.equal(VERDICT.REVERSED);
    expect(directional.why).to.match(/the other way round/);
    expect(claims.decide(iv(0.3, 0.6), { holds: [2, 4], kind: KIND.DIRECTIONAL }).verdict).to.equal(VERDICT.REVERSED);
    // one-sided "no faster" ([0.8x, infinity)): measured faster
    const noFaster = { holds: [0.8, Infinity], kind: KIND.ONE_SIDED };
    expect(claims.decide(iv(1.5, 3), noFaster).verdict).to.equal(VERDICT.HOLDS);
    const faster = claims.decide(iv(0.3, 0.6), noFaster);
    expect(faster.verdict).to.equal(VERDICT.FAILS);
    expect(faster.why).to.match(/below the claim's band .*: the one-sided claim does not hold/);
    expect(faster.why).not.to.match(/other way round/);
    // one-sided "adds little" (at most 1.6x; below 0.8x it still adds little): measured adding much
    const addsLittle = { holds: [0.8, 1.6], kind: KIND.ONE_SIDED, above: VERDICT.FAILS, below: VERDICT.HOLDS };
    expect(claims.decide(iv(2, 3), addsLittle).verdict).to.equal(VERDICT.FAILS);
    expect(claims.decide(iv(0.3, 0.5), addsLittle).verdict).to.equal(VERDICT.HOLDS);
    // parity ("a wash", "level"): outside the band either way
    const wash = { holds: [0.8, 1.25], kind: KIND.PARITY, above: VERDICT.FAILS };
    expect(claims.decide(iv(0.9, 1.1), wash).verdict).to.equal(VERDICT.HOLDS);
    expect(claims.decide(iv(1.5, 2), wash).verdict).to.equal(VERDICT.FAILS);
    expect(claims.decide(iv(0.3, 0.6), wash).verdict).to.equal(VERDICT.FAILS);
    expect(claims.decide(iv(0.7, 0.9), wash).verdict, 'across a boundary').to.equal(VERDICT.INCONCLUSIVE);
    // a parity claim with no word of its own for the upper side fails there too ("breaks even")
    const breakEven = { holds: [0.8, 1.25], kind: KIND.PARITY };
    expect(claims.decide(iv(1.5, 2), breakEven).verdict).to.equal(VERDICT.FAILS);
    expect(claims.bandsText(breakEven)).to.equal('holds [0.80x, 1.25x]; FAILS above; FAILS below');
    // a band around 1 with its own no-difference band is not parity: a fraction of files re-read
    // (0.1-1.5, none below 0.1) has no effect below, never REVERSED
    const reread = { holds: [0.1, 1.5], floor: 0.1, tie: [0, 0.1] };
    expect(claims.decide(iv(0.01, 0.05), reread).verdict).to.equal(VERDICT.NO_EFFECT);
    expect(claims.bandsText(reread)).to.match(/no effect \[0\.00x, 0\.10x\]/);
    // the generated bands say the same words
    expect(claims.bandsText(wash)).to.equal('holds [0.80x, 1.25x]; FAILS above; FAILS below');
    expect(claims.bandsText({ holds: [2, 4] })).to.match(/REVERSED below 0\.80x$/);
    // a word that misnames the claim is refused when the rule is built, and so is an unknown kind
    expect(() => claims.rule({ ...wash, above: VERDICT.REVERSED, interval: () => ({}) })).to.throw(
      /parity claim rule says reversed: it has no direction to reverse/,
    );
    expect(() => claims.rule({ holds: [2, 4], below: VERDICT.FAILS, interval: () => ({}) })).to.throw(
      /directional claim rule says fails/,
    );
    expect(() => claims.rule({ holds: [2, 4], kind: 'sideways', interval: () => ({}) })).to.throw(/kind is "sideways"/);
  });

  it('the ledger never says REVERSED of a one-sided or parity claim: the four the adversarial readers named fail', function () {
    // the generated bands where the rule keeps them (touch's gone wrapper does not), and the boundary
    const words = Object.fromEntries(
      require('../../lib/studies')
        .studies.flatMap((e) => e.claims)
        .map((c) => [c.id, `${c.boundary} ${(c.verdict && c.verdict.bands) || ''}`]),
    );
    for (const id of [
      '003-touch-index-cost',
      '004-field-scan-hierarchy/level',
      '004-collections-wash',
      '004-array-no-faster/growth',
      '004-array-no-faster/absolute',
    ]) {
      expect(words[id], id).to.match(/\bfails\b/i);
      expect(words[id], id).not.to.match(/\breversed\b/i);
    }
  });

  it('judge returns exactly the fields findings.json is written from', function () {
    const [j] = claims.judge(where, quiet(records('where', { where: 10000, plain: 100 }, 'where')), ENV, SEED_WHERE);
    const fields = 'study id claim published verdict figure interval setting why'.split(' ');
    expect(Object.keys(j)).to.deep.equal(fields);
    expect(Object.keys(j.interval)).to.deep.equal(['lo', 'hi', 'level', 'n']);
    expect(Object.keys(j.setting)).to.deep.equal(['needed', 'here', 'ok']);
  });

  it('a rule that throws is reported as inconclusive, with the reason', function () {
    const entry = {
      name: 'x',
      claims: [
        {
          id: 'x1',
          claim: 'c',
          published: '1',
          setting: 's',
          verdict: () => {
            throw new Error('boom');
          },
        },
      ],
    };
    expect(claims.judge(entry, [], ENV)[0]).to.include({ verdict: VERDICT.INCONCLUSIVE, why: 'the rule failed: boom' });
  });

  it('records of --profile tiny are labelled test scale and never judged as findings', function () {
    const recs = quiet(records('where', { where: 100000, plain: 100 }, 'where'));
    expect(verdictOf(where, '001-where-vs-scan', recs, ENV, SEED_WHERE).verdict).to.equal(VERDICT.STRONGER);
    const tiny = verdictOf(where, '001-where-vs-scan', recs, { ...ENV, profile: 'tiny' }, SEED_WHERE);
    expect(tiny.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(tiny.why).to.match(/^test scale \(--profile tiny\): not a finding/);
  });
});

describe('claims: the rules of where, mapreduce and timeseries', function () {
  it('$where vs a scan: holds at 100x, stronger at 1,000x, inconclusive when the rounds scatter across 300x', function () {
    const at = (x, o) =>
      verdictOf(
        where,
        '001-where-vs-scan',
        quiet(records('where', { where: 100 * x, plain: 100 }, 'where', {}, o)),
        ENV,
        SEED_WHERE,
      );
    expect(at(100).verdict).to.equal(VERDICT.HOLDS);
    expect(at(1000).verdict).to.equal(VERDICT.STRONGER);
    expect(at(10).verdict).to.equal(VERDICT.WEAKER);
    const scattered = at(300, { jitter: (r) => [0.5, 2, 0.6, 1.8, 1][r] });
    expect(scattered.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(scattered.interval.lo).to.be.below(300);
    expect(scattered.interval.hi).to.be.above(300);
  });

  it("$where vs a scan abstains below the source's 1,000,000 documents, whatever its figure", function () {
    const v = verdictOf(
      where,
      '001-where-vs-scan',
      quiet(records('where', { where: 100000, plain: 100 }, 'where')),
      ENV,
      {
        where: { N: 50000 },
      },
    );
    expect(v.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(v.why).to.match(/needs the source's scale: 50,000 documents/);
  });

  it('jsMode: gone on 4.4+, judged by its interval on an older server', function () {
    const recs = records('mapreduce', { group: 10, mr: 100, 'mr-jsmode': 40 }, 'group', { batch: 1000 });
    expect(verdictOf(mapreduce, '000-jsmode', recs).verdict).to.equal(VERDICT.GONE);
    expect(verdictOf(mapreduce, '000-jsmode', recs, { server: { version: '4.2.0' } }).verdict).to.equal(VERDICT.HOLDS);
    const none = records('mapreduce', { group: 10, mr: 100, 'mr-jsmode': 100 }, 'group', { batch: 1000 });
    expect(verdictOf(mapreduce, '000-jsmode', none, { server: { version: '4.2.0' } }).verdict).to.equal(
      VERDICT.NO_EFFECT,
    );
    expect(verdictOf(mapreduce, '000-jsmode', recs).mechanism.ref).to.match(/mongodb\.com\/docs\/.*4\.4/);
  });

  it('stored functions: unsupported by the source (its two variants differed in more than storage); the ratio at 10^6 beside: holds at 3x, no effect at 1.05x, weaker at 1.5x; abstains at 10^4', function () {
    // Second adversarial read of 000, dispute 5: ~30 us per document saved is not storage, so the
    // source's figure does not isolate it; the lab's rule is read beside, never as a change.
    const at = (stored, batch = 1e6) => {
      const v = verdictOf(
        mapreduce,
        '000-stored',
        records('mapreduce', { group: 10, mr: 300, 'mr-stored': stored }, 'group', { batch }),
      );
      expect(v.verdict).to.equal(VERDICT.UNSUPPORTED);
      return v.why.replace(/^.*measured here \(not a verdict\): /, '');
    };
    expect(at(100)).to.match(/^holds/);
    expect(at(285)).to.match(/^no effect/);
    expect(at(200)).to.match(/^weaker/);
    expect(at(100, 1e4)).to.match(/^inconclusive/);
  });

  it("the parallel client is judged against the source's own methods, $group only beside it, on 2 free cores only", function () {
    const recs = records(
      'mapreduce',
      {
        group: 10,
        mr: 300,
        'mr-stored': 250,
        'py-client-acc': 200,
        'py-client-chunked': 220,
        'py-client-parallel': 120,
        'client-parallel': 150,
      },
      'group',
      { batch: 1e6 },
    );
    const quietRecs = recs.map((r) => ({ ...r, loadavg: { start: 0.5, end: 0.5, cores: 2, cpuWait: 0 } }));
    const noEvidence = verdictOf(mapreduce, '000-parallel', recs);
    expect(noEvidence.verdict, 'no CPU-wait figure: fails closed').to.equal(VERDICT.NOT_REPRODUCED);
    expect(noEvidence.setting.absent).to.equal('no-evidence');
    const oneCore = verdictOf(mapreduce, '000-parallel', quietRecs, { ...ENV, host: { cores: 1, usableCores: 1 } });
    expect(oneCore.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(oneCore.setting.absent).to.equal('cores');
    // Read 3 of 000, dispute 4: the source's threads had cores of their own (a 4-core client, a
    // 2-core server): on one host, or with nothing recorded, the setting is absent.
    const shared = verdictOf(mapreduce, '000-parallel', quietRecs, {
      ...ENV,
      server: { ...ENV.server, embedded: true },
    });
    expect(shared.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(shared.setting.absent).to.equal('shared-cores');
    expect(shared.why).to.match(/mongod ran embedded on the client's host.*coreSets/);
    expect(verdictOf(mapreduce, '000-parallel', quietRecs).setting.absent).to.equal('no-evidence');
    const overlap = verdictOf(mapreduce, '000-parallel', quietRecs, {
      ...ENV,
      coreSets: { client: [0, 1], server: [1] },
    });
    expect(overlap.setting.absent).to.equal('shared-cores');
    const v = verdictOf(mapreduce, '000-parallel', quietRecs, { ...ENV, coreSets: { client: [0, 1], server: [2, 3] } });
    expect(v.verdict).to.equal(VERDICT.HOLDS);
    expect(v.why).to.match(
      /fastest of the source's own methods here: py-client-acc; today's \$group is 12\.?0?x faster than py-client-parallel/,
    );
    expect(v.why).to.match(/Node driver beside: 1\.6\dx/);
    expect(v.setting.here).to.match(/measured with PyMongo/);
  });

  // The time-series states as runStates writes them: one record per (state, grain), times = one
  // per pass, each pass with the cache residency around it (lib/studies/timeseries/state-records.js).
  const { stateRecords } = require('../../lib/studies/timeseries/state-records');
  const three = (x) => [x, x * 1.02, x * 0.98];
  const COLD = { read: { data: 1e6, created_on_1: 1e6 }, cached: {} };
  const SMALL = { cacheBytes: 0.25 * 1024 ** 3, dataBytes: 245e6, indexBytes: 118e6, events: 5e6 };
  const BIG = { cacheBytes: 12e9, dataBytes: 3.2e9, indexBytes: 2.7e9, events: 5e7 };
  const tsRun = (st, setting, o = {}) => stateRecords(st, { setting, cache: o.cache, withResidency: o.withResidency });

  // RAM short while warm-both ran: its passes record disk reads (second adversarial read of 003, dispute 1).
  const ramShort = (recs) =>
    recs.map((r) =>
      r.axis.state === 'warm-both'
        ? { ...r, extra: { ...r.extra, passes: r.extra.passes.map((p) => ({ ...p, diskReadBytes: 1e6 })) } }
        : r,
    );

  it('touch past RAM: judged only where data + indexes fill the cache AND the records show the working set pushed out and RAM short; never from a run without residency', function () {
    const pushedOut = { cold: { times: three(10), ...COLD }, 'warm-both': { times: three(40), ...COLD } };
    const fits = tsRun(pushedOut, BIG, { cache: '12GB' });
    const v = verdictOf(timeseries, '003-touch-both', fits);
    expect(v.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(v.why).to.match(/--set STATES_CACHE=source/);
    const small = ramShort(tsRun(pushedOut, SMALL, { cache: '0.25GB' }));
    expect(verdictOf(timeseries, '003-touch-both', fits.concat(small)).verdict).to.equal(VERDICT.HOLDS);
    expect(verdictOf(timeseries, '003-touch-both', small.concat(fits)).verdict).to.equal(VERDICT.HOLDS);
    // the same times, but the warm-both passes found everything in the cache: not the source's setting
    const stayed = tsRun(
      { cold: { times: three(10), ...COLD }, 'warm-both': { times: three(40), read: {}, cached: {} } },
      SMALL,
    );
    const inCache = verdictOf(timeseries, '003-touch-both', stayed);
    expect(inCache.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(inCache.setting.absent).to.equal('in-cache');
    // no residency per pass (a result file from before): fails closed
    const none = verdictOf(timeseries, '003-touch-both', tsRun(pushedOut, SMALL, { withResidency: false }));
    expect(none.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(none.setting.absent).to.equal('no-evidence');
  });

  it('touch data: unsupported by the source (its five timestamps straddle 1.1x); the measurement beside: an interval over passes, judged only when the data was in the cache', function () {
    const warm = { times: three(10), read: { created_on_1: 1e6 }, cached: {} };
    const run = (cold, w = warm) => tsRun({ cold: { times: cold, ...COLD }, 'warm-data': w }, BIG);
    // The source's own spread decides, as 002-dups-vs-n (read-2 dispute 4): always unsupported, the
    // lab's rule read beside and never as a change.
    const beside = (recs) => {
      const v = verdictOf(timeseries, '003-touch-data', recs);
      expect(v.verdict).to.equal(VERDICT.UNSUPPORTED);
      expect(v.why).to.match(/\[1\.03x, 1\.64x\]/);
      return v;
    };
    expect(beside(run(three(13))).why).to.match(/measured here \(not a verdict\): holds/);
    // the core's default no-difference band [0.8x, 1.1x] (the claim's lower edge): 1.05x is no effect
    expect(beside(run(three(10.5))).why).to.match(/measured here \(not a verdict\): no effect/);
    // one pass per state: no interval
    const one = beside(run([13], { ...warm, times: [10] }));
    expect(one.why).to.match(/inconclusive.*1 pass\(es\) per state: an interval needs at least 3/);
    // the warm-data passes read the documents again: the data was not in the cache
    const out = beside(run(three(13), { ...warm, read: COLD.read }));
    expect(out.why).to.match(/not reproduced here/);
    expect(out.setting.absent).to.equal('out-of-cache');
  });

  it('restart-cold: holds when every cold pass started with (almost) nothing cached; touch-command: gone on WiredTiger, with its mechanism', function () {
    const run = (cached) => tsRun({ cold: { times: three(10), read: COLD.read, cached } }, BIG);
    const cold = verdictOf(timeseries, '003-restart-cold', run({}));
    expect(cold.verdict).to.equal(VERDICT.HOLDS);
    expect(cold.figure).to.match(/at most 0\.00 % .* before 3 cold pass/);
    expect(verdictOf(timeseries, '003-restart-cold', run({ created_on_1: 0.5e9 })).verdict).to.equal(
      VERDICT.NOT_REPRODUCED,
    );
    const env = { ...ENV, server: { ...ENV.server, storageEngine: 'wiredTiger' } };
    const touch = verdictOf(timeseries, '003-touch-command', run({}), env);
    expect(touch.verdict).to.equal(VERDICT.GONE);
    expect(touch.mechanism.ref).to.match(/4\.2-compatibility/);
  });

  it('preload: judged only when the passes after the year preload found the working set in the cache', function () {
    const st = (yearRead) =>
      tsRun(
        {
          cold: { times: three(13), ...COLD },
          'warm-data': { times: three(10), read: { created_on_1: 1e6 }, cached: {} },
          'warm-year': { times: three(8.5), read: yearRead, cached: {} },
        },
        BIG,
      );
    expect(verdictOf(timeseries, '003-preload', st({})).verdict).to.equal(VERDICT.HOLDS);
    const out = verdictOf(timeseries, '003-preload', st({ created_on_1: 0.9e6 }));
    expect(out.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(out.setting.absent).to.equal('out-of-cache');
    expect(out.setting.here).to.match(/warm-year hours passes read .* NOT in the cache/);
    expect(verdictOf(timeseries, '003-working-set', st({})).verdict).to.equal(VERDICT.HOLDS);
    expect(verdictOf(timeseries, '003-working-set', st({ created_on_1: 0.9e6 })).verdict).to.equal(
      VERDICT.NOT_REPRODUCED,
    );
  });
});

describe('claims: gates fail closed, no borrowed spread, parts, unsupported and questions', function () {
  const base = { needed: 'the base setting', check: () => ({ here: 'base ok', ok: true }) };
  const rec = (loadavg) => ({ type: 'result', study: 'x', variant: 'a', axis: {}, times: [1, 1, 1], loadavg });
  const env = { host: { cores: 2, usableCores: 2 } };
  const gate = claims.quietCores(base, (rs) => rs, { cores: 2 });

  it('quietCores refuses records without a CPU-wait figure, with a load above the cores, or without a cores count', function () {
    expect(gate.check([rec({ start: 0.5, end: 0.5, cores: 2 })], env)).to.include({ ok: false, absent: 'no-evidence' });
    expect(gate.check([rec({ start: 2.6, end: 2.6, cores: 2, cpuWait: 0.1 })], env)).to.include({
      ok: false,
      absent: 'busy-cores',
    });
    expect(gate.check([rec({ start: 0.5, end: 0.5, cores: 2, cpuWait: 0.6 })], env)).to.include({
      ok: false,
      absent: 'busy-cores',
    });
    expect(gate.check([rec({ start: 0.5, end: 0.5, cpuWait: 0.1 })], {})).to.include({
      ok: false,
      absent: 'no-evidence',
    });
    expect(gate.check([rec({ start: 0.5, end: 0.5, cores: 1, cpuWait: 0.1 })], { host: { cores: 1 } })).to.include({
      ok: false,
      absent: 'cores',
    });
    // no records of the claim's points: nothing to judge (the rule abstains without an interval)
    expect(gate.check([], env)).to.include({ ok: true });
    expect(gate.check([rec({ start: 0.5, end: 0.5, cores: 2, cpuWait: 0.1 })], env)).to.include({ ok: true });
  });

  it('an unpaired interval needs three times on each side: no side borrows the other spread', function () {
    const one = claims.unpairedInterval([100], [1, 1.1, 0.9, 1, 1.05]);
    expect(one).to.include({ lo: null, hi: null });
    expect(one.undecided).to.match(/each side needs 3/);
    expect(claims.decide(one, { holds: [10, 1000] }).verdict).to.equal(VERDICT.INCONCLUSIVE);
    const both = claims.unpairedInterval([100, 110, 90], [1, 1.1, 0.9]);
    expect(both.lo).to.be.a('number');
  });

  it('parts: one entry per part, each with its own verdict, tied by of', function () {
    const c = { id: 'p', claim: 'two things', published: '2x', setting: 's', quote: 'q' };
    const entry = {
      name: 'x',
      claims: claims.parts(c, [
        { id: 'a', claim: 'first', verdict: () => ({ verdict: 'gone', why: 'removed' }) },
        { id: 'b', claim: 'second', verdict: () => ({ verdict: 'holds', why: 'inside' }) },
      ]),
    };
    const js = claims.judge(entry, [], env);
    expect(js.map((j) => [j.id, j.of, j.verdict])).to.deep.equal([
      ['p/a', 'p', 'gone'],
      ['p/b', 'p', 'holds'],
    ]);
  });

  it('unsupported keeps the measurement beside it; question reports without a verdict', function () {
    const measured = () => ({ verdict: 'weaker', figure: '1.5x', why: 'smaller' });
    const u = claims.unsupported('the source shows 1.0x', measured)([], env, {});
    expect(u.verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(u.why).to.match(
      /source's own figures do not support it: the source shows 1.0x; measured here \(not a verdict\)/,
    );
    expect(u.figure).to.equal('1.5x');
    const q = claims.question(measured)([], env, {});
    expect(q).to.include({ verdict: VERDICT.QUESTION, figure: '1.5x' });
    const absent = claims.question(() => ({ verdict: 'not-reproduced', why: 'no' }))([], env, {});
    expect(absent.verdict).to.equal('not-reproduced');
  });
});
