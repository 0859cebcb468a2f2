'use strict';
// The claims of sources 000 and 001 that the lab measures since it has a check for them (they
// were "not measured here" before), and the vocabulary's "not measured here" itself. Records are
// built the way the runner writes them (lab.harness rounds then lab.pointRecords; measure records
// as lab.measureRecord makes them); a figure moved across a boundary flips the verdict.
const { expect } = require('chai');
const lab = require('../../scripts/lib/lab');
const claims = require('../../lib/core/claims');
const mapreduce = require('../../lib/studies/mapreduce');
const where = require('../../lib/studies/where');
const bigagg = require('../../lib/studies/bigagg');
const { timedRecords, verdictOfWith } = require('./claims-records');

const { VERDICT } = claims;
const ENV = {
  server: { version: '6.0.5', cacheBytes: 12 * 1024 ** 3 },
  host: { cores: 2, memoryGB: 23.5 },
  profile: 'quick',
};

const records = timedRecords;

const verdictOf = verdictOfWith(ENV);

const measure = (study, name, value, axis = {}) => lab.measureRecord({ study, name, axis, value, unit: '' });

describe('claims: "not measured here" is its own verdict', function () {
  it('unmeasured() says not-measured (why and what would measure it), never not-reproduced; gone stays gone', function () {
    const shards = verdictOf(mapreduce, '000-shines-at-scale', []);
    expect(shards.verdict).to.equal(VERDICT.NOT_MEASURED);
    expect(shards.why).to.match(/^not measured here: no mongos and 2 cores .*; what would measure it: /);
    expect(shards.setting).to.deep.equal({
      needed: 'sharded cluster, >= 10^7 documents',
      here: 'no mongos and 2 cores (no wheel ships mongos)',
      ok: null,
    }); // not checked, never "absent"
    expect(claims.LABEL[VERDICT.NOT_MEASURED]).to.equal('not measured here');
    expect(claims.DECISIVE).to.not.include(VERDICT.NOT_MEASURED);
    expect(verdictOf(bigagg, '001-bigagg-nopadding', []).verdict).to.equal(VERDICT.GONE);
  });

  it('a tiny run keeps not-measured as it is (nothing was measured to call test scale)', function () {
    expect(verdictOf(mapreduce, '000-shines-at-scale', [], { ...ENV, profile: 'tiny' }).verdict).to.equal(
      VERDICT.NOT_MEASURED,
    );
  });

  it('whenMeasured: records without the measurement are not measured; with it, the rule judges', function () {
    const r = claims.whenMeasured(
      (recs) => recs.length > 0,
      { here: 'h', measure: 'm' },
      () => ({ verdict: VERDICT.HOLDS }),
    );
    expect(r([]).verdict).to.equal(VERDICT.NOT_MEASURED);
    expect(r([]).why).to.equal('not measured here: h; what would measure it: m');
    expect(r([{}]).verdict).to.equal(VERDICT.HOLDS);
  });
});

/** Records that carry a quiet machine's evidence (CPU wait 0, load below the cores). */
const quiet = (recs) => recs.map((r) => ({ ...r, loadavg: { start: 0.5, end: 0.5, cores: 2, cpuWait: 0 } }));
/** Records whose 10^6 runs read `bytes` into the WiredTiger cache (their serverStatus delta, record.server). */
const pressed = (recs, bytes = 1.2e9) =>
  recs.map((r) => (r.axis.batch === 1e6 ? { ...r, server: { runs: 1, cacheReadBytes: bytes } } : r));
/** Records of the whole-document client across a recorded gigabit link, moving `bytes` in its time. */
const onGigabit = (recs, bytes) =>
  recs.map((r) =>
    r.variant === 'py-client-list'
      ? { ...r, extra: { ...(r.extra || {}), linkBytesPerSec: 117e6, bytesIn: bytes } }
      : r,
  );

describe('claims: source 000, measured by the mapreduce study', function () {
  // The client claims are judged on the source's client, PyMongo (py-client-*), the Node driver's beside.
  const client = (list, field, acc, batch = 1e4) =>
    records(
      'mapreduce',
      { group: 10, 'py-client-list': list, 'py-client-field-list': field, 'py-client-acc': acc },
      'group',
      { batch },
    );

  it("projection: unsupported by the source's figures (0.75x-6.9x across its two sessions, decided by the link); the lab's ratio beside, its would-be verdict named, never judged", function () {
    // Fourth read, 000-projection: the 6.9x rests on a ~10 MB/s whole-document client; over gigabit
    // in the 130k session the whole-document list was faster than the projected one (0.75x).
    for (const [list, word] of [
      [500, 'holds'],
      [150, 'weaker'],
      [50, 'REVERSED'],
    ]) {
      const v = verdictOf(mapreduce, '000-projection', client(list, 100, 80));
      expect(v.verdict, word).to.equal(VERDICT.UNSUPPORTED);
      expect(v.why, word).to.include(`measured here (not a verdict): ${word}`);
    }
    const v = verdictOf(mapreduce, '000-projection', client(500, 100, 80));
    expect(v.why).to.match(/68\.0 docs\/ms, 0\.75x the projected list's 50\.9.*decided by the link/);
    expect(v.why).to.match(/at 10,000 documents; the field list is the whole-document list's code/);
    expect(v.figure).to.match(/^5\.\d+x/);
    expect(v.mechanism.why).to.match(/decoding 40-field documents/);
    expect(v.mechanism.ref).to.match(/^https:\/\/www\.mongodb\.com\/docs\//);
  });

  it('lists vs accumulators: the gain holds at 1.3x, no effect at 1.0x, judged at 10^5 when it ran; "past 10,000" is not in the source\'s figures', function () {
    // Fourth read: the lab's list variant is a stand-in for the source's unpublished class; only
    // records of the source's own list code (extra.listCode 'source') are judged.
    const theirs = (recs) =>
      recs.map((r) =>
        r.variant === 'py-client-field-list' ? { ...r, extra: { ...(r.extra || {}), listCode: 'source' } } : r,
      );
    const stand = verdictOf(mapreduce, '000-lists-vs-acc/gain', client(500, 100, 100));
    expect(stand.verdict, 'the stand-in never decides no effect').to.equal(VERDICT.NOT_REPRODUCED);
    expect(stand.why).to.match(/list statistics code is unpublished.*stand-in.*two list builds/);
    expect(stand.setting.absent).to.equal('no-evidence');
    expect(stand.figure, 'the stand-in shown beside').to.match(/^1\.0\dx|^0\.9\dx/);
    const gain = (recs) => verdictOf(mapreduce, '000-lists-vs-acc/gain', theirs(recs)).verdict;
    expect(gain(client(500, 130, 100))).to.equal(VERDICT.HOLDS);
    expect(gain(client(500, 100, 100))).to.equal(VERDICT.NO_EFFECT);
    const both = client(500, 100, 100, 1e4).concat(client(500, 130, 100, 1e5));
    expect(gain(both)).to.equal(VERDICT.HOLDS);
    const past = verdictOf(mapreduce, '000-lists-vs-acc/past-10k', client(500, 130, 100));
    expect(past.verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(past.of).to.equal('000-lists-vs-acc');
    expect(past.why).to.match(
      /nothing slows the list more than the accumulators past 10\^4.*measured here \(not a verdict\): holds/,
    );
    expect(past.mechanism.ref).to.match(/^https:\/\//);
  });

  it("the client pairs abstain below 10^4 (the source's client columns are flat only from there); not measured without the variant", function () {
    const small = verdictOf(mapreduce, '000-lists-vs-acc/past-10k', client(500, 100, 80, 1000));
    expect(small.verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(small.why).to.match(
      /measured here \(not a verdict\): inconclusive, needs the source's scale: the source's client columns are flat only from 10\^4/,
    );
    const old = records('mapreduce', { group: 10, 'py-client-list': 500, 'py-client-acc': 80 }, 'group', {
      batch: 1e4,
    });
    expect(verdictOf(mapreduce, '000-projection', old).why).to.match(
      /measured here \(not a verdict\): not measured here/,
    );
    expect(verdictOf(mapreduce, '000-lists-vs-acc/gain', old).verdict).to.equal(VERDICT.NOT_MEASURED);
  });

  it("chunks: one map/reduce over the range against ten, holds at 1.7x at 10^6, no effect at 1.0x, in a collection of the source's share of memory; abstains at 10^4 with what it would say", function () {
    // 1M documents of ~1.4 KB on a 3 GB host: the source's ~45 % share of RAM (its gain's
    // precondition), and the mr-range pass read most of its batch into the cache (read-3 dispute 1)
    const memory = [{ ...ENV, host: { ...ENV.host, memoryGB: 3 } }, { mapreduce: { N: 1e6 } }];
    const at = (range, chunked, batch = 1e6, read = 1.2e9) =>
      verdictOf(
        mapreduce,
        '000-chunks',
        pressed(
          records('mapreduce', { group: 10, 'mr-range': range, 'mr-chunked': chunked }, 'group', { batch }),
          read,
        ),
        ...memory,
      );
    const resident = at(170, 100, 1e6, 1e6);
    expect(resident.verdict, 'RAM share met, but the pass read ~nothing into the cache').to.equal(
      VERDICT.NOT_REPRODUCED,
    );
    expect(resident.setting.absent).to.equal('memory');
    expect(resident.why).to.match(/read 1 MB into the cache, 0\.1 % .*no memory pressure/);
    const unrecorded = verdictOf(
      mapreduce,
      '000-chunks',
      records('mapreduce', { group: 10, 'mr-range': 170, 'mr-chunked': 100 }, 'group', { batch: 1e6 }),
      ...memory,
    );
    expect(unrecorded.setting.absent).to.equal('no-evidence');
    expect(unrecorded.why).to.match(/carries no serverStatus delta/);
    const cached = verdictOf(
      mapreduce,
      '000-chunks',
      records('mapreduce', { group: 10, 'mr-range': 100, 'mr-chunked': 100 }, 'group', { batch: 1e6 }),
      ENV,
      { mapreduce: { N: 1e6 } },
    );
    expect(cached.verdict, 'a 23.5 GB host holding 1.4 GB: no memory pressure, not a change').to.equal(
      VERDICT.NOT_REPRODUCED,
    );
    expect(cached.setting.absent).to.equal('memory');
    expect(at(170, 100).verdict).to.equal(VERDICT.HOLDS);
    expect(at(100, 100).verdict).to.equal(VERDICT.NO_EFFECT);
    const quick = at(50, 100, 1e4);
    expect(quick.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(quick.why).to.match(/needs the source's scale.*\(at this scale: reversed/);
    expect(
      verdictOf(mapreduce, '000-chunks', records('mapreduce', { group: 10, mr: 100 }, 'group', { batch: 1e6 })).verdict,
    ).to.equal(VERDICT.NOT_MEASURED);
  });

  it("PostgreSQL row inserts against MongoDB's: holds at 1.3x, reversed at 0.5x over the source's million rows, the durable pair beside; the lab's 1,000 rows abstain", function () {
    const ins = (pg, mongo, rows = 1e6) =>
      quiet(
        records('mapreduce', { group: 10, 'insert-pg': pg, 'insert-mongo': mongo }, 'group', { batch: 1000 })
          .map((r) => (/^insert-/.test(r.variant) ? { ...r, extra: { ...(r.extra || {}), rows } } : r))
          .concat(
            records('mapreduce', { group: 1, 'insert-pg-sync': 3 * pg, 'insert-mongo-j': 2 * mongo }, 'group', {
              batch: 100,
            }),
          ),
      );
    const v = verdictOf(mapreduce, '000-pg-insert', ins(130, 100));
    expect(v.verdict).to.equal(VERDICT.HOLDS);
    expect(v.why).to.match(/both durable \(synchronous_commit on \/ j:true, 100 rows\): 1\.9\dx/);
    expect(verdictOf(mapreduce, '000-pg-insert', ins(50, 100)).verdict).to.equal(VERDICT.REVERSED);
    // Fourth read: 1,000 rows into an empty table are not the source's million: inconclusive, the figure beside
    const small = verdictOf(mapreduce, '000-pg-insert', ins(91, 100, 1000));
    expect(small.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(small.why).to.match(
      /needs the source's scale: the source loaded ~1,000,000 rows.*the first 1,000 rows into an empty table.*\(at this scale: no-effect/,
    );
    expect(small.figure).to.match(/^0\.9\dx/);
  });

  it('PostgreSQL row inserts: not reproduced when other processes held the cores during those rounds, or when the records do not show it (fail closed); judged when quiet', function () {
    const ins = (cpuWait) =>
      records('mapreduce', { group: 10, 'insert-pg': 50, 'insert-mongo': 100 }, 'group', { batch: 1000 }).map((r) => {
        const big = /^insert-/.test(r.variant) ? { ...r, extra: { ...(r.extra || {}), rows: 1e6 } } : r;
        return cpuWait === undefined ? big : { ...big, loadavg: { start: 1, end: 1, cores: 2, cpuWait } };
      });
    const busy = verdictOf(mapreduce, '000-pg-insert', ins(0.9));
    expect(busy.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(busy.why).to.match(
      /some task \(the lab's own included\) waited for a CPU 90\.0 % of these points' time \(at most 40\.0 %/,
    );
    expect(busy.why).to.match(
      /to reproduce: the same command on a machine with at least 2 cores and nothing else running/,
    );
    expect(busy.setting.absent).to.equal('busy-cores');
    expect(busy.figure, 'the figure is still shown').to.match(/0\.5\dx/);
    expect(busy.setting.needed).to.match(/cores no other work wanted/);
    expect(verdictOf(mapreduce, '000-pg-insert', ins(0.05)).verdict).to.equal(VERDICT.REVERSED);
    const unknown = verdictOf(mapreduce, '000-pg-insert', ins(undefined));
    expect(unknown.verdict, 'no PSI: nothing shows the cores were free').to.equal(VERDICT.NOT_REPRODUCED);
    expect(unknown.setting.absent).to.equal('no-evidence');
  });

  it('PostgreSQL row inserts: not reproduced when PostgreSQL did not run, not measured in a file without the insert variants', function () {
    const mongoOnly = records('mapreduce', { group: 10, 'insert-mongo': 100 }, 'group', { batch: 1000 });
    const v = verdictOf(mapreduce, '000-pg-insert', mongoOnly);
    expect(v.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(v.why).to.match(/PostgreSQL did not run; to reproduce: set PG_URI/);
    expect(
      verdictOf(mapreduce, '000-pg-insert', records('mapreduce', { group: 10, mr: 100 }, 'group', { batch: 1000 }))
        .verdict,
    ).to.equal(VERDICT.NOT_MEASURED);
  });

  it("whole documents against map/reduce is judged in the figure's own ~130,000-document collection; in a 1M one it abstains with the source's own 1.3M picture", function () {
    // Read 3 of 000, dispute 3: the source's client was wire-bound on gigabit (~95 of ~117 MB/s); the
    // figure is judged only with the client's bytes and its link recorded.
    const local = records('mapreduce', { mr: 270, 'py-client-list': 100 }, 'mr', { batch: 1e5 });
    const bare = verdictOf(mapreduce, '000-python-2x', local, ENV, { mapreduce: { N: 130000 } });
    expect(bare.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(bare.setting.absent).to.equal('no-evidence');
    expect(bare.why).to.match(/local socket, not wire-bound.*extra\.bytesIn.*extra\.linkBytesPerSec/);
    // ~10 MB in ~100 ms: ~100 MB/s of a 117 MB/s link (the source's 81 %); 2 MB: not wire-bound
    const idle = verdictOf(mapreduce, '000-python-2x', onGigabit(local, 2e6), ENV, { mapreduce: { N: 130000 } });
    expect(idle.setting.absent).to.equal('link');
    expect(idle.why).to.match(/not wire-bound as the source's \(81 %; at least 65 % wanted\)/);
    const recs = onGigabit(local, 1e7);
    const small = verdictOf(mapreduce, '000-python-2x', recs, ENV, { mapreduce: { N: 130000 } });
    expect(small.verdict).to.equal(VERDICT.HOLDS);
    expect(small.setting.here).to.match(/wire-bound on about gigabit/);
    const big = verdictOf(mapreduce, '000-python-2x', recs, ENV, { mapreduce: { N: 1000000 } });
    expect(big.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(big.why).to.match(/~130,000-document collection; this run's collection holds 1,000,000 documents/);
    expect(big.why).to.match(/source's 1\.3M figure, 0\.30x, came from another session .*bandwidth-bound/);
    const unknown = verdictOf(mapreduce, '000-python-2x', recs);
    expect(unknown.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(unknown.why).to.match(/size is not in the result file/);
  });

  it('concurrent map/reduce jobs (a guess of the source): measured as a question, on 2 free cores only; not measured before the variant', function () {
    const recs = records(
      'mapreduce',
      { group: 10, mr: 400, 'mr-parallel': 300, 'py-client-parallel': 200, 'client-parallel': 250 },
      'group',
      { batch: 1e6 },
    );
    // Read 3 of 000, dispute 4: no bands (no decision line), and 000-parallel's separate core sets
    const shared = verdictOf(mapreduce, '000-parallel-mr', quiet(recs), {
      ...ENV,
      server: { ...ENV.server, embedded: true },
    });
    expect(shared.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(shared.setting.absent).to.equal('shared-cores');
    const apart = { ...ENV, coreSets: { client: [0, 1], server: [2, 3] } };
    const q = verdictOf(mapreduce, '000-parallel-mr', quiet(recs), apart);
    expect(q.verdict).to.equal(VERDICT.QUESTION);
    expect(q.figure).to.match(/^1\.5\dx/);
    expect(q.why).to.match(/one map\/reduce \/ the four at once 1\.3\dx/);
    expect(q.why).to.not.match(/holds|FAILS|fails|parity/);
    expect(mapreduce.claims.find((c) => c.id === '000-parallel-mr').verdict.bands).to.equal(undefined);
    const busy = verdictOf(mapreduce, '000-parallel-mr', recs);
    expect(busy.verdict, 'no CPU-wait figure: fails closed').to.equal(VERDICT.NOT_REPRODUCED);
    const old = records('mapreduce', { group: 10, mr: 400 }, 'group', { batch: 1e6 });
    expect(verdictOf(mapreduce, '000-parallel-mr', old).verdict).to.equal(VERDICT.NOT_MEASURED);
  });

  it("the i5's \"same dip\" is not in the source's figures; the lab's figure is shown beside", function () {
    const v = verdictOf(mapreduce, '000-i5-dip', []);
    expect(v.verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(v.why).to.match(/211\.9, 229\.8 and 220\.0/);
    expect(v.mechanism.ref).to.match(/^https:\/\/www\.mongodb\.com\/docs\//);
  });

  it('a client claim without PyMongo is not reproduced ("no PyMongo client" and the command that installs it), the Node driver\'s figure shown, never judged on it', function () {
    const node = records(
      'mapreduce',
      { group: 10, 'client-list': 500, 'client-field-list': 100, 'client-acc': 80 },
      'group',
      {
        batch: 1e4,
      },
    );
    for (const id of ['000-projection', '000-lists-vs-acc/gain']) {
      const v = verdictOf(mapreduce, id, node);
      // 000-projection is unsupported by the source's figures whatever ran; its measurement refuses beside
      expect(v.verdict, id).to.equal(id === '000-projection' ? VERDICT.UNSUPPORTED : VERDICT.NOT_REPRODUCED);
      expect(v.why, id).to.match(/no PyMongo client: .*did not run.*npm run setup-pymongo/);
      expect(v.figure, id).to.match(/^Node driver \(not the source's client\): \d/);
    }
    const skipped = node.concat({
      type: 'result',
      study: 'mapreduce',
      variant: 'py-client-acc',
      axis: { batch: 1e4 },
      skipped: {
        code: 'unavailable',
        why: 'no PyMongo client: PyMongo is not installed: npm run setup-pymongo',
      },
    });
    expect(verdictOf(mapreduce, '000-lists-vs-acc/gain', skipped).setting.here).to.equal(
      'no PyMongo client: PyMongo is not installed: npm run setup-pymongo',
    );
    const both = client(500, 100, 80).concat(node.filter((r) => r.variant !== 'group'));
    const judged = verdictOf(mapreduce, '000-projection', both);
    expect(judged.verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(judged.why).to.match(/measured here \(not a verdict\): holds.*Node driver beside: 5\.0\dx/);
  });

  it("client against map/reduce (fourth read): a changed client is never read as a change in MongoDB; the small-batch split; the spread's decider is rounds", function () {
    // stored map/reduce at 10^5 in 800 ms (125 docs/ms, the source's MR2 121.5); the client at the
    // source's 66.0 docs/ms (1,515 ms) or at the seed column's 484 (207 ms: 7.3x the source's)
    const pair = (acc, batch = 1e5) =>
      records('mapreduce', { group: 10, 'py-client-acc': acc, 'mr-stored': 800 }, 'group', { batch });
    expect(verdictOf(mapreduce, '000-stored-vs-client', pair(1515)).verdict).to.equal(VERDICT.HOLDS);
    const fast = verdictOf(mapreduce, '000-stored-vs-client', pair(207));
    expect(fast.verdict, 'the 0.26x is the client').to.equal(VERDICT.NOT_REPRODUCED);
    expect(fast.setting.absent).to.equal('client');
    expect(fast.why).to.match(/ran 4\d\d docs\/ms at 10\^5, 7\.\d+x the source's 66\.0 \(a changed client/);
    expect(fast.why).to.match(
      /mr-stored ran 12\d docs\/ms, 1\.0\dx the source's MR2 121\.5; against the source's client rate it gives 1\.8\dx/,
    );
    expect(fast.figure).to.match(/^0\.2\dx/);
    const entry = require('../../lib/studies/mapreduce/claims').find((c) => c.id === '000-stored-vs-client');
    expect(entry.mechanism.why, 'the ledger entry names the client').to.match(/7\.3x the source's 66\.0/);
    expect(entry.mechanism.why).to.not.match(/since 4\.4/);
    expect(verdictOf(mapreduce, '000-stored-vs-client', pair(207, 1e3)).verdict, 'below 10^5').to.equal(
      VERDICT.INCONCLUSIVE,
    );

    const small = verdictOf(
      mapreduce,
      '000-small-python',
      records('mapreduce', { group: 2.4, mr: 14.8, 'py-client-acc': 0.89 }, 'group', { batch: 100 }),
    );
    expect(small.verdict).to.equal(VERDICT.STRONGER);
    expect(small.why).to.match(
      /the split: the client 11\d docs\/ms here against the source's 42\.5 \(a changed client: 2\.\d+x\), mr 6\.\d against the source's best 18\.1 \(the server: 0\.3\dx\); against the source's client rate the same mr gives 6\.\d+x/,
    );
    const smallEntry = require('../../lib/studies/mapreduce/claims').find((c) => c.id === '000-small-python');
    expect(smallEntry.mechanism.ref).to.match(/4\.4-compatibility/);

    const spread = verdictOf(
      mapreduce,
      '000-spread',
      records(
        'mapreduce',
        { group: 4, 'mr-stored': 28, 'py-client-acc': 4.8 },
        'group',
        { batch: 1000 },
        { rounds: 4 },
      ),
    );
    expect(spread.verdict).to.equal(VERDICT.INCONCLUSIVE);
    expect(spread.why).to.match(
      /too few rounds for a spread: 4 per cell here, a spread needs 10 .*mapreduce --profile seed --runs 10 --set SIZES=1000$/,
    );
    expect(spread.why).to.not.match(/scale/);
    expect(spread.figure).to.match(/\(n 4: no interval\)$/);
  });

  it("collection growth: the client part stays not measured (the two runs that would measure it); the 30 % read as the whole collection (jsMode: gone on 4.4+, on 4.2 behind 000-peak's memory gate); the index size is not in the source's figures", function () {
    const v = verdictOf(mapreduce, '000-collection-growth/client', []);
    expect(v.verdict).to.equal(VERDICT.NOT_MEASURED);
    expect(v.why).to.match(/--docs 130000 --set SIZES=100000 .*--docs 1300000/);
    // Second adversarial read of 000, dispute 3: the largest batch of each session (-29.6 %) is
    // supported by the figures; the same-batch -2 % now explains /index-size only.
    const drop = (ms6) =>
      records('mapreduce', { group: 10, 'mr-jsmode': 1 }, 'group', { batch: 1e5 }).concat(
        records('mapreduce', { group: 10, 'mr-jsmode': ms6 }, 'group', { batch: 1e6 }),
      );
    expect(verdictOf(mapreduce, '000-collection-growth/mr-30', drop(14)).verdict).to.equal(VERDICT.GONE);
    const old = { ...ENV, server: { version: '4.2.0', cacheBytes: 2e9 }, host: { ...ENV.host, memoryGB: 3 } };
    const mr30 = (ms6, params) =>
      claims.judge(mapreduce, pressed(drop(ms6)), old, params).find((j) => j.id === '000-collection-growth/mr-30');
    expect(mr30(14, { mapreduce: { N: 1e6 } }).verdict).to.equal(VERDICT.HOLDS);
    expect(mr30(10, { mapreduce: { N: 1e6 } }).verdict).to.equal(VERDICT.NO_EFFECT);
    expect(mr30(14, { mapreduce: { N: 1e5 } }).setting.absent).to.equal('memory');
    expect(verdictOf(mapreduce, '000-collection-growth/index-size', []).verdict).to.equal(VERDICT.UNSUPPORTED);
    expect(verdictOf(mapreduce, '000-cpu', []).why).to.match(/same iMac in both tables, ran 2\.7-2\.8x faster/);
  });

  it("the peak and the ten chunks need a collection of the source's share of memory: refused without N and the cache, or in a small share", function () {
    const peak = (ms6) =>
      records('mapreduce', { group: 10, 'mr-stored': 1 }, 'group', { batch: 1e5 }).concat(
        records('mapreduce', { group: 10, 'mr-stored': ms6 }, 'group', { batch: 1e6 }),
      );
    // Read 3 of 000, dispute 1: the source's share of RAM (under MMAPv1 all of it was the cache) and,
    // on WiredTiger, the judged pass's own reads into the cache
    const big = { ...ENV, host: { ...ENV.host, memoryGB: 3 } };
    const none = verdictOf(mapreduce, '000-peak', peak(17));
    expect(none.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(none.setting.absent).to.equal('no-evidence');
    const small = verdictOf(mapreduce, '000-peak', pressed(peak(17)), big, { mapreduce: { N: 100000 } });
    expect(small.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(small.setting.absent).to.equal('memory');
    expect(small.why).to.match(/100,000 documents \(~140 MB\) on a host of 3\.0 GB RAM: 4\.3 %.*--cache-gb/);
    const resident = verdictOf(mapreduce, '000-peak', peak(17), big, { mapreduce: { N: 1e6 } });
    expect(resident.setting.absent, 'no serverStatus delta: nothing shows pressure').to.equal('no-evidence');
    const mmap = { ...big, server: { version: '4.0.0', storageEngine: 'mmapv1' } };
    expect(verdictOf(mapreduce, '000-peak', peak(17), mmap, { mapreduce: { N: 1e6 } }).verdict).to.equal(VERDICT.HOLDS);
    expect(verdictOf(mapreduce, '000-peak', pressed(peak(17)), big, { mapreduce: { N: 1e6 } }).verdict).to.equal(
      VERDICT.HOLDS,
    );
    expect(verdictOf(mapreduce, '000-peak', pressed(peak(10)), big, { mapreduce: { N: 1e6 } }).verdict).to.equal(
      VERDICT.NO_EFFECT,
    );
  });

  it('client against jsMode map/reduce: gone on 4.4+ (the lead rested on jsMode), judged on an older server', function () {
    const recs = records('mapreduce', { group: 10, 'mr-jsmode': 100, mr: 200, 'py-client-acc': 117 }, 'group', {
      batch: 1e6,
    });
    const v = verdictOf(mapreduce, '000-client-acc', recs);
    expect(v.verdict).to.equal(VERDICT.GONE);
    expect(v.mechanism.ref).to.match(/mongodb\.com\/docs\/.*4\.4/);
    expect(verdictOf(mapreduce, '000-client-acc', recs, { ...ENV, server: { version: '4.2.0' } }).verdict).to.equal(
      VERDICT.HOLDS,
    );
    expect(verdictOf(mapreduce, '000-stored-5x', recs).verdict).to.equal(VERDICT.GONE);
  });
});

describe('claims: source 001, measured by the where and bigagg studies', function () {
  const functional = (o) => [
    measure('where', 'where-functional', {
      checked: 200,
      whereAgrees: true,
      stringFilter: 'same',
      stringError: null,
      sandbox: 'refused',
      dbError: { code: 139, codeName: 'JSInterpreterFailure', message: 'ReferenceError: db is not defined' },
      ...o,
    }),
  ];

  it('string filter and sandbox, judged apart: the shorthand holds, is not reproduced (a changed client) when refused, reversed when it differs; the sandbox holds, reversed when db is reached', function () {
    const str = (o) => verdictOf(where, '001-where-js-functional/string', functional(o));
    const box = (o) => verdictOf(where, '001-where-js-functional/sandbox', functional(o));
    expect(str({}).verdict).to.equal(VERDICT.HOLDS);
    expect(box({}).verdict).to.equal(VERDICT.HOLDS);
    const refused = {
      stringFilter: 'rejected',
      stringError: { code: 2, codeName: 'BadValue', message: 'filter must be an object' },
    };
    // The shorthand was the legacy shell's, never the server's: a changed client is not a change in MongoDB.
    const gone = str(refused);
    expect(gone.verdict).to.equal(VERDICT.NOT_REPRODUCED);
    expect(gone.setting.absent).to.equal('client');
    expect(gone.why).to.match(
      /the source's client \(the legacy mongo shell.*to reproduce: the legacy mongo shell 5\.0/,
    );
    const stands = box(refused);
    expect(stands.verdict, 'one part gone does not take the other with it').to.equal(VERDICT.HOLDS);
    expect(stands.why).to.match(/a \$where touching db fails \(JSInterpreterFailure/);
    expect(box({ sandbox: 'reached', dbError: null }).verdict).to.equal(VERDICT.REVERSED);
    expect(str({ stringFilter: 'differs' }).verdict).to.equal(VERDICT.REVERSED);
    expect(verdictOf(where, '001-where-js-functional/string', []).verdict).to.equal(VERDICT.NOT_MEASURED);
  });

  it('BSON types: holds when each type and value comes back, reversed when one does not', function () {
    const types = (o = {}) => [
      measure('where', 'bson-types', {
        date: { want: 'date', type: 'date', same: true },
        int32: { want: 'int', type: 'int', same: true },
        int64: { want: 'long', type: 'long', same: true },
        double: { want: 'double', type: 'double', same: true },
        decimal: { want: 'decimal', type: 'decimal', same: true },
        ...o,
      }),
    ];
    const v = verdictOf(where, '001-bson-typed', types());
    expect(v.verdict).to.equal(VERDICT.HOLDS);
    expect(v.figure).to.match(/^5 of 5 types kept/);
    expect(
      verdictOf(where, '001-bson-typed', types({ int64: { want: 'long', type: 'double', same: false } })).verdict,
    ).to.equal(VERDICT.REVERSED);
    expect(verdictOf(where, '001-bson-typed', []).verdict).to.equal(VERDICT.NOT_MEASURED);
  });

  it('BSON vs CSV: holds at 1.6x, weaker at 1.1x, reversed at 0.9x; not measured without the CSV count', function () {
    const ax = { part: 'compression', compressor: 'none' };
    const sizes = (data, csv) => [measure('bigagg', 'dataBytes', data, ax), measure('bigagg', 'csvBytes', csv, ax)];
    const v = verdictOf(bigagg, '001-bigagg-bson-vs-csv', sizes(160e6, 100e6));
    expect(v.verdict).to.equal(VERDICT.HOLDS);
    expect(v.figure).to.equal('BSON/CSV 1.60x (160.0 MB BSON, 100.0 MB CSV)');
    expect(verdictOf(bigagg, '001-bigagg-bson-vs-csv', sizes(110e6, 100e6)).verdict).to.equal(VERDICT.WEAKER);
    expect(verdictOf(bigagg, '001-bigagg-bson-vs-csv', sizes(90e6, 100e6)).verdict).to.equal(VERDICT.REVERSED);
    expect(verdictOf(bigagg, '001-bigagg-bson-vs-csv', [measure('bigagg', 'dataBytes', 1e6, ax)]).verdict).to.equal(
      VERDICT.NOT_MEASURED,
    );
  });

  describe('machine state: the claims $where dominates are judged per state (usable cores)', function () {
    const SEED = { where: { N: 1000000 } };
    const load = (cpuWait) => ({ start: 0.3, end: 0.3, cores: 2, ...(cpuWait === undefined ? {} : { cpuWait }) });
    const run = (x, cores, o = {}) =>
      records('where', { where: 100 * x, plain: 100, hybrid: 1, 'source-agg': 0.1 }, 'where', {}, o).map((r) => ({
        ...r,
        axis: { usableCores: cores },
        loadavg: load(cores === 1 ? 0.6 : 0.02),
      }));
    const seedEnv = { ...ENV, profile: 'seed' };

    it('one state: its verdict, the state named, the other state said to be missing', function () {
      const one = verdictOf(where, '001-where-vs-scan', run(250, 1), seedEnv, SEED);
      expect(one.verdict).to.equal(VERDICT.HOLDS);
      expect(one.figure).to.match(/^one pinned core: 2\d\dx/);
      expect(one.why).to.match(
        /the other machine state \(free cores: npx mongo-perf-lab run where --profile seed, nothing else running\) is not in these records/,
      );
    });

    it('both states, different verdicts: inconclusive naming each state, never "stronger" from one of them', function () {
      const v = verdictOf(where, '001-where-vs-scan', [...run(250, 1), ...run(1000, 2)], seedEnv, SEED);
      expect(v.verdict).to.equal(VERDICT.INCONCLUSIVE);
      expect(v.why).to.match(/^depends on the machine state: one pinned core: holds, .*; 2 usable cores: stronger, /);
      expect(v.figure).to.match(/^one pinned core: 2\d\dx .*; 2 usable cores: 1\d{3}x/);
      const same = verdictOf(where, '001-where-vs-scan', [...run(100, 1), ...run(150, 2)], seedEnv, SEED);
      expect(same.verdict).to.equal(VERDICT.HOLDS);
      expect(same.why).to.match(/^the same in both machine states \(holds\)/);
    });

    it('a merged column without stamped records: each file keeps its state (its environment, in file order)', function () {
      const bare = (x) => run(x, 2).map(({ axis, ...r }) => ({ ...r, axis: {} }));
      const env = {
        ...seedEnv,
        sources: [
          { studies: ['where'], environment: { ...seedEnv, host: { cores: 2, usableCores: 1 } } },
          { studies: ['where'], environment: { ...seedEnv, host: { cores: 2, usableCores: 2 } } },
        ],
      };
      const v = verdictOf(where, '001-where-vs-scan', [...bare(250), ...bare(1000)], env, SEED);
      expect(v.why).to.match(/one pinned core: holds.*2 usable cores: stronger/);
    });

    it('free cores fail closed: records without a CPU-wait figure are not reproduced, with what is missing', function () {
      const recs = run(250, 2).map((r) => ({ ...r, loadavg: load() }));
      const v = verdictOf(where, '001-where-vs-scan', recs, seedEnv, SEED);
      expect(v.verdict).to.equal(VERDICT.NOT_REPRODUCED);
      expect(v.setting.absent).to.equal('no-evidence');
    });

    it('$where timed once: no interval (no borrowed spread), "too few rounds" with what would decide', function () {
      const recs = run(250, 1).map((r) =>
        r.variant === 'where' ? { ...r, times: [r.times[0]], capped: true, ratio: { ...r.ratio, perRound: false } } : r,
      );
      const v = verdictOf(where, '001-where-vs-scan', recs, seedEnv, SEED);
      expect(v.verdict).to.equal(VERDICT.INCONCLUSIVE);
      expect(v.why).to.match(/too few rounds.*where --profile seed times it 3 times, which would decide/);
      expect(v.interval).to.equal(null);
    });
  });

  describe('bigagg: parallel claims need two free cores; less RAM like for like', function () {
    const SEED = { bigagg: { N: 5000000 } };
    const seedEnv = { ...ENV, profile: 'seed', host: { cores: 2, usableCores: 2, memoryGB: 23.5 } };
    const together = (loadavg) =>
      records('bigagg', { 'together-1': 100, 'together-2': 110 }, 'together-1', { part: 'concurrent' }).map((r) => ({
        ...r,
        loadavg,
      }));

    it('one-thread: holds on two quiet cores; not reproduced without the CPU-wait figure or on one usable core', function () {
      const quiet = { start: 0.3, end: 0.3, cores: 2, cpuWait: 0.02 };
      expect(verdictOf(bigagg, '001-bigagg-one-thread', together(quiet), seedEnv, SEED).verdict).to.equal(
        VERDICT.HOLDS,
      );
      const bare = verdictOf(bigagg, '001-bigagg-one-thread', together({ start: 0.3, cores: 2 }), seedEnv, SEED);
      expect(bare.verdict).to.equal(VERDICT.NOT_REPRODUCED);
      expect(bare.setting.absent).to.equal('no-evidence');
      const pinned = { ...seedEnv, host: { cores: 2, usableCores: 1 } };
      const one = verdictOf(bigagg, '001-bigagg-one-thread', together(quiet), pinned, SEED);
      expect(one.verdict).to.equal(VERDICT.NOT_REPRODUCED);
      expect(one.setting.absent).to.equal('cores');
    });

    it("less RAM: against MMAPv1's footprint gone here (with its mechanism); like for like, zlib files and the source's cache share against the BSON", function () {
      const ax = { part: 'compression', compressor: 'zlib' };
      const sizes = [
        measure('bigagg', 'dataBytes', 741e6, ax),
        measure('bigagg', 'storageBytes', 220e6, ax),
        measure('bigagg', 'indexBytes', 69e6, ax),
      ];
      const [mm, like] = claims
        .judge(bigagg, sizes, { ...seedEnv, server: { version: '6.0.5', storageEngine: 'wiredTiger' } }, SEED)
        .filter((j) => j.of === '001-bigagg-less-ram');
      expect(mm.id).to.equal('001-bigagg-less-ram/vs-mmapv1');
      expect(mm.verdict).to.equal(VERDICT.GONE);
      expect(mm.mechanism.ref).to.match(/^https:\/\/www\.mongodb\.com\/docs\//);
      expect(like.id).to.equal('001-bigagg-less-ram/compressed');
      // Size arithmetic is a RAM saving only where the small cache reads no disk (001-bigagg-small-cache,
      // second adversarial read of 001, dispute 4): no small-cache runs here, so not reproduced, the
      // arithmetic beside. The cache share is the source's 2 x 1 GB run: 2 GB / 88.9 GB = 2.25 % of the BSON.
      expect(like.verdict).to.equal(VERDICT.NOT_REPRODUCED);
      expect(like.why).to.match(
        /001-bigagg-small-cache reads "not reproduced here"[^]*the arithmetic would read: holds/,
      );
      expect(like.figure).to.match(/810 MB uncompressed against 289 MB zlib files \+ 17 MB cache .*: 2\.6\dx/);
    });
  });
});
