'use strict';
// The write-conflict count of a claim run, as a typed state (lib/studies/tasks/conflicts.js); the
// server side (another client writing during a run) is test/inserts.test.js's.
const { expect } = require('chai');
const { CONFLICTS, ownConflicts, conflictsCell } = require('../../lib/studies/tasks/conflicts');

const at = (conflicts, updated, inserted = 0, deleted = 0) => ({ conflicts, writes: { inserted, updated, deleted } });
const fmt = (n) => `#${n}`;

describe('tasks: whose write conflicts a claim run counted', function () {
  it("own: the server wrote exactly the claims, so the counter delta is the run's", function () {
    const c = ownConflicts(at(10, 100), at(17, 400), 300);
    expect(c).to.deep.equal({ conflictsState: CONFLICTS.own, writeConflicts: 7 });
    expect(conflictsCell(c, fmt)).to.equal('#7');
  });

  it('not own: any other write (an insert, a delete, one update more) keeps no figure', function () {
    for (const after of [at(17, 400, 1), at(17, 400, 0, 1), at(17, 401)]) {
      const c = ownConflicts(at(10, 100), after, 300);
      expect(c.conflictsState).to.equal(CONFLICTS.notOwn);
      expect(c.writeConflicts).to.equal(null);
      expect(c.conflictsWhy).to.match(/other clients wrote on the server during the run/);
      expect(conflictsCell(c, fmt)).to.equal('not own');
    }
  });

  it('no counter: a server without writeConflicts says n/a, not "not own"', function () {
    const c = ownConflicts(at(null, 100), at(null, 400), 300);
    expect(c.conflictsState).to.equal(CONFLICTS.noCounter);
    expect(c.writeConflicts).to.equal(null);
    expect(conflictsCell(c, fmt)).to.equal('n/a');
  });

  it('a record written before the state existed reads by its figure', function () {
    expect(conflictsCell({ writeConflicts: 3 }, fmt)).to.equal('#3');
    expect(conflictsCell({ writeConflicts: null, conflictsWhy: 'x' }, fmt)).to.equal('not own');
  });
});
