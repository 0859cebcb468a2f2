'use strict';
// Study 001, second half, with no server: the MOT generator, the source's pipeline as published and
// the band collision the oracle must reproduce. The server's answers: test/bigagg.test.js.
const { expect } = require('chai');
const LabGen = require('../../fixtures/gen');
const LabMot = require('../../fixtures/mot-gen');
const LabBands = require('../../scripts/bigagg_pipelines');
const B = require('../../lib/studies/bigagg/mot');
const { line: csvLine, HEADER: CSV_HEADER } = require('../../lib/studies/bigagg/csv');

const N = 30000;
const SEED = 5;

describe('bigagg (source 001, second half): the MOT banding aggregation', function () {
  const want = B.oracle(N, SEED);

  describe('generator', function () {
    it("is deterministic and makes ~150-byte records with the source's fields (engine as e)", function () {
      const a = LabMot.doc(LabGen.rng(3), 0);
      const b = LabMot.doc(LabGen.rng(3), 0);
      expect(a).to.deep.equal(b);
      expect(Object.keys(a)).to.include.members([
        '_id',
        't',
        'v',
        'd',
        'c',
        'y',
        'r',
        'm',
        's',
        'k',
        'o',
        'u',
        'f',
        'e',
      ]);
      const { BSON } = require('mongodb');
      let bytes = 0;
      for (const d of B.motDocs(2000, 1)) bytes += BSON.calculateObjectSize(d);
      expect(bytes / 2000).to.be.within(130, 170);
    });

    it('as CSV: one line per record, the 14 MOT columns, dates as YYYY-MM-DD, an unknown first-use date empty', function () {
      const d = LabMot.doc(LabGen.rng(3), 0);
      const cells = csvLine(d).replace(/\n$/, '').split(',');
      expect(cells).to.have.length(CSV_HEADER.split(',').length);
      expect(cells.slice(0, 3)).to.deep.equal([String(d.t), String(d.v), d.d.toISOString().slice(0, 10)]);
      expect(csvLine({ ...d, i: undefined }).endsWith(',\n')).to.equal(true);
      expect(csvLine({ ...d, o: 'A, "B"' })).to.include('"A, ""B"""');
    });

    it('has records exactly on the band boundaries and both colliding pairs (diesel 2/petrol 3, diesel 4/petrol 6)', function () {
      const seen = new Set();
      const pairs = new Set();
      for (const d of B.motDocs(N, SEED)) {
        seen.add(d.e);
        pairs.add(`${d.f === 'D' ? 'D' : 'P'}${LabMot.band(d) / (d.f === 'D' ? 1.5 : 1)}`);
      }
      for (const e of [1000, 1200, 1600, 2000, 2500, 3500]) expect(seen.has(e), `e = ${e}`).to.equal(true);
      for (const p of ['D2', 'P3', 'D4', 'P6']) expect(pairs.has(p), p).to.equal(true);
    });
  });

  describe('pipeline forms against the plain-Node oracle', function () {
    it("the source's pipeline is quoted as published: nested $cond on $e, $project then $group then $sort", function () {
      const p = LabBands.seedPipeline();
      expect(JSON.stringify(p)).to.include('{"$cond":[{"$gt":["$e",1000]},{"$cond":[{"$gt":["$e",1200]}');
      expect(p.map((s) => Object.keys(s)[0])).to.deep.equal(['$project', '$group', '$sort']);
    });

    it('the collision is real: band 3 and band 6 hold petrol and diesel vehicles together', function () {
      let p3 = 0;
      let d2 = 0;
      for (const d of B.motDocs(N, SEED)) {
        if (d.f !== 'D' && LabMot.band(d) === 3) p3++;
        if (d.f === 'D' && LabMot.band(d) === 3) d2++;
      }
      expect(p3).to.be.greaterThan(0);
      expect(d2).to.be.greaterThan(0);
      expect(want.find((r) => r._id === 3).count).to.equal(p3 + d2);
      expect(want.map((r) => r._id)).to.deep.equal([1, 1.5, 2, 3, 4, 4.5, 5, 6, 7, 7.5, 9, 10.5]);
    });
  });
});

describe('bigagg claims: the cache rows judged on hand-made records (read-3 disputes 6-9)', function () {
  const claims = require('../../lib/core/claims');
  const entry = { name: 'bigagg', claims: require('../../lib/studies/bigagg/claims') };
  const GIB = 1073741824;
  const env = {
    server: { version: '6.0.5', storageEngine: 'wiredTiger', cacheBytes: 3.5 * GIB },
    host: { memoryGB: 8 },
  };
  const verdictOf = (id, records, e = env) => {
    const j = claims.judge(entry, records, e, { bigagg: { N: 10000000 } }).find((x) => x.id === id);
    return j;
  };
  const measure = (name, axis, value) => ({ type: 'measure', study: 'bigagg', name, axis, value });
  const zlib = (data, files) => [
    measure('dataBytes', { part: 'compression', compressor: 'zlib' }, data),
    measure('storageBytes', { part: 'compression', compressor: 'zlib' }, files),
  ];
  const result = (variant, axis, extra, more = {}) => ({
    type: 'result',
    study: 'bigagg',
    variant,
    axis,
    times: [1000, 1000, 1000],
    median: 1000,
    agrees: true,
    extra,
    ...more,
  });
  const cold = (into, cacheMax) =>
    result('cold', { part: 'cold', compressor: 'zlib' }, { bytesReadIntoCache: into, cacheMaxBytes: cacheMax });

  it('001-bigagg-cache-uncompressed: no upper edge; FAILS only near the files; the scan must fit under half the cache', function () {
    const id = '001-bigagg-cache-uncompressed';
    expect(verdictOf(id, [...zlib(1e9, 3e8), cold(2.5e9, 8 * GIB)]).verdict).to.equal('holds');
    expect(verdictOf(id, [...zlib(1e9, 3e8), cold(3.1e8, 8 * GIB)]).verdict).to.equal('fails');
    expect(verdictOf(id, [...zlib(1e9, 3e8), cold(6e8, 8 * GIB)]).verdict).to.equal('inconclusive');
    const evicting = verdictOf(id, [...zlib(1e9, 3e8), cold(1e9, 1.5 * GIB)]);
    expect(evicting.verdict).to.equal('not-reproduced');
    expect(evicting.setting.absent).to.equal('cache');
    const unsized = verdictOf(id, [...zlib(1e9, 3e8), cold(1e9)]);
    expect(unsized.setting.absent).to.equal('no-evidence');
  });

  it('001-bigagg-2mb-cache: a wrong answer or a recorded refusal to start FAILS, never REVERSED', function () {
    const id = '001-bigagg-2mb-cache';
    const twoMb = (agrees) =>
      result(
        'scan-cpu',
        { part: 'cache', cache: '2MB', compressor: 'zlib' },
        { cacheMaxBytes: 2 * 1048576 },
        { agrees },
      );
    expect(verdictOf(id, [twoMb(true)]).verdict).to.equal('holds');
    expect(verdictOf(id, [twoMb(false)]).verdict).to.equal('fails');
    const line = 'WiredTiger error: cache_size: value too small';
    const refused = verdictOf(id, [measure('cacheStartRefused', { part: 'cache', cache: '2MB' }, line)]);
    expect(refused.verdict).to.equal('fails');
    expect(refused.why).to.include(line);
    expect(verdictOf(id, []).verdict, 'the run did not reach mongod with the option').to.equal('inconclusive');
  });

  it('001-bigagg-1gb-floor/option: a smaller cache that ran FAILS (a changed limit, not a removed feature)', function () {
    const id = '001-bigagg-1gb-floor/option';
    const cache = (gb) =>
      result('scan-cpu', { part: 'cache', cache: `${gb}GB`, compressor: 'zlib' }, { cacheMaxBytes: gb * GIB });
    expect(verdictOf(id, [cache(0.25)]).verdict).to.equal('fails');
    expect(verdictOf(id, [cache(1)]).verdict).to.equal('holds');
    expect(verdictOf('001-bigagg-1gb-floor/consequence', []).verdict).to.equal('unsupported');
  });

  it("001-bigagg-default-cache-disk: one-sided; a pass needs mongod's resident memory and, under a limit, a cache that followed it", function () {
    const id = '001-bigagg-default-cache-disk';
    const files = 6e9; // beside 8 GB of RAM - a 3.5 GB cache: 5.1 GB left
    const run = (disk, extra) =>
      result(
        'scan-cpu',
        { part: 'cache', cache: 'default', compressor: 'zlib' },
        { bytesReadIntoCache: 1e10, diskReadBytes: disk, cacheMaxBytes: 3.5 * GIB, ...extra },
        { warmup: [1000] },
      );
    const unseen = verdictOf(id, [...zlib(2e10, files), run(3e9, {})]);
    expect(unseen.verdict).to.equal('not-reproduced');
    expect(unseen.setting.absent).to.equal('no-evidence');
    expect(verdictOf(id, [...zlib(2e10, files), run(3e9, { residentBytes: 4 * GIB })]).verdict).to.equal('holds');
    expect(verdictOf(id, [...zlib(2e10, files), run(1e8, { residentBytes: 4 * GIB })]).verdict).to.equal('fails');
    // a 6 GB limit: the default cache must be 50 % of (6 - 1) GB = 2.5 GB, not the host's 3.5 GB
    const host = verdictOf(id, [...zlib(2e10, files), run(3e9, { residentBytes: 4 * GIB, memoryLimitBytes: 6 * GIB })]);
    expect(host.setting.absent).to.equal('cache');
    const limited = run(3e9, { residentBytes: 3 * GIB, memoryLimitBytes: 6 * GIB, cacheMaxBytes: 2.5 * GIB });
    expect(verdictOf(id, [...zlib(2e10, files), limited]).verdict).to.equal('holds');
  });

  it('the cache rows print no impossible or contradicting region (no "REVERSED below 0", no "stronger" above a one-sided claim)', function () {
    const rows = entry.claims.filter((c) =>
      /^001-bigagg-(cache-uncompressed|default-cache|small-cache|2mb-cache|1gb-floor\/option|default-cache-disk)$/.test(
        c.id,
      ),
    );
    expect(rows).to.have.length(6);
    for (const c of rows) {
      expect(c.verdict.bands, c.id).to.be.a('string');
      expect(c.verdict.bands, c.id).to.not.match(/REVERSED|below 0\.0|stronger/);
    }
  });
});
