'use strict';
// LabFixture.cleanPlan: what the lab may remove from a database, decided from what it holds (the
// one decision behind a run's end, a drop-in's end and `mongo-perf-lab clean`).
const { expect } = require('chai');
const LabFixture = require('../../scripts/lib/fixture');

const U = (d) => d.repeat(32);
const info = (name, uuid, type) => ({ name, type: type || 'collection', info: { uuid: U(uuid) } });

describe('LabFixture.cleanPlan', function () {
  const infos = {
    perflab_fixtures: info('perflab_fixtures', 'f'),
    mine: info('mine', 'a'),
    kept: info('kept', 'b'),
    orders: info('orders', 'c'),
    recreated: info('recreated', 'd'),
    'system.views': info('system.views', 'e'),
  };
  const markers = [
    { _id: '#markers', uuid: U('f') },
    { _id: 'mine', uuid: U('a') },
    { _id: 'kept', uuid: U('b') },
    { _id: 'gone', uuid: U('9') },
    { _id: 'recreated', uuid: U('8') },
  ];

  it('clean (before = null): every proven collection, stale and foreign markers apart, the unmarked named', function () {
    const p = LabFixture.cleanPlan(markers, infos, infos.perflab_fixtures, null);
    expect(p.drop).to.deep.equal(['mine', 'kept']);
    expect(p.kept).to.deep.equal([]);
    expect(p.stale).to.deep.equal(['gone']);
    expect(p.foreign.map((f) => f.name)).to.deep.equal(['recreated']);
    expect(p.unmarked).to.deep.equal(['orders']);
    expect(p.markersOwn).to.equal(true);
    expect(p.dropMarkers).to.equal(true);
  });

  it("a run's end: only what was not the lab's, by UUID, at its start; the marker collection only if the run made it", function () {
    const p = LabFixture.cleanPlan(markers, infos, infos.perflab_fixtures, { kept: U('b'), perflab_fixtures: U('f') });
    expect(p.drop).to.deep.equal(['mine']);
    expect(p.kept).to.deep.equal(['kept']);
    expect(p.dropMarkers).to.equal(false);
    // kept regenerated since (another UUID at the start): the run made it
    const q = LabFixture.cleanPlan(markers, infos, infos.perflab_fixtures, { kept: U('7') });
    expect(q.drop).to.deep.equal(['mine', 'kept']);
    expect(q.dropMarkers).to.equal(true);
  });

  it("a perflab_fixtures the lab cannot prove it made is never the lab's to drop", function () {
    const forged = markers.filter((m) => m._id !== '#markers');
    const p = LabFixture.cleanPlan(forged, infos, infos.perflab_fixtures, null);
    expect(p.markersOwn).to.equal(false);
    expect(p.dropMarkers).to.equal(false);
    // a #markers or #database document naming another UUID proves nothing either
    const other = [{ _id: '#database', uuid: U('1') }, ...forged];
    expect(LabFixture.cleanPlan(other, infos, infos.perflab_fixtures, null).markersOwn).to.equal(false);
    const db = [{ _id: '#database', uuid: U('f') }, ...forged];
    expect(LabFixture.cleanPlan(db, infos, infos.perflab_fixtures, null).markersOwn).to.equal(true);
  });

  it('the leftovers message fits 100 columns; a long command goes on in a second line with a backslash', function () {
    const deep = `node /tmp/${'d'.repeat(30)}/mongo-perf-lab/bin/mongo-perf-lab.js`;
    const lines = LabFixture.leftLines(
      'shop',
      ['mine', 'perflab_fixtures'],
      'mongodb://127.0.0.1:27017/',
      '--keep',
      deep,
    );
    for (const l of lines) expect(l.length, l).to.be.at.most(100);
    expect(lines.slice(-2)).to.deep.equal([`  ${deep} clean \\`, '    --uri mongodb://127.0.0.1:27017/ --db shop']);
    const short = LabFixture.leftLines('shop', ['mine'], 'mongodb://h:1/', '--keep', 'mongo-perf-lab');
    expect(short).to.deep.equal([
      "left in shop (--keep): the lab's mine; remove them with:",
      '  mongo-perf-lab clean --uri mongodb://h:1/ --db shop',
    ]);
  });

  it('commandUri never prints a password', function () {
    expect(LabFixture.commandUri('mongodb://u:secret@h1:1,h2:2/admin?tls=true')).to.equal(
      'mongodb://<user>:<password>@h1:1,h2:2/',
    );
    expect(LabFixture.commandUri('mongodb+srv://c.example.net/?x=1')).to.equal('mongodb+srv://c.example.net/');
    expect(LabFixture.commandUri(undefined)).to.equal('<your connection string>');
  });
});
