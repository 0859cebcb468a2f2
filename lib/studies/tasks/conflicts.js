'use strict';
// The server counts write conflicts for all its clients together: the count is the run's own only
// when the server's document writes over the run were exactly the run's claims (one update each).
// Another client's writes make it "not own" rather than a figure; a server without the counter
// (before 3.x) has none to give ("no counter"). Each is a typed state, so the table and the claim
// say which without reading the explanation's text.

/** The states of a claim run's write-conflict count. */
const CONFLICTS = Object.freeze({ own: 'own', notOwn: 'not-own', noCounter: 'no-counter' });

/** The server's write-conflict counter and document writes, read before and after a claim run. */
async function writeActivity(db) {
  const s = await db.admin().command({ serverStatus: 1 });
  const m = s.metrics || {};
  const w = m.operation && m.operation.writeConflicts;
  const d = m.document || {};
  return {
    conflicts: w === undefined ? null : Number(w),
    writes: { inserted: Number(d.inserted), updated: Number(d.updated), deleted: Number(d.deleted) },
  };
}

/** { conflictsState, writeConflicts (a number only when own), conflictsWhy (when not) }. */
function ownConflicts(before, after, claimed) {
  if (before.conflicts === null || after.conflicts === null)
    return {
      conflictsState: CONFLICTS.noCounter,
      writeConflicts: null,
      conflictsWhy: 'serverStatus has no writeConflicts',
    };
  const dw = (k) => after.writes[k] - before.writes[k];
  if (dw('inserted') === 0 && dw('deleted') === 0 && dw('updated') === claimed)
    return { conflictsState: CONFLICTS.own, writeConflicts: after.conflicts - before.conflicts };
  const seen = `${dw('inserted')} inserted, ${dw('updated')} updated, ${dw('deleted')} deleted`;
  return {
    conflictsState: CONFLICTS.notOwn,
    writeConflicts: null,
    conflictsWhy: `other clients wrote on the server during the run (${seen}; the claims updated ${claimed}): its write-conflict count is not the run's own`,
  };
}

/** The table's cell: the count, "not own", or "n/a" (no counter); records before the state, by their figure. */
function conflictsCell(extra, fmt) {
  if (typeof extra.writeConflicts === 'number') return fmt(extra.writeConflicts);
  return extra.conflictsState === CONFLICTS.noCounter ? 'n/a' : 'not own';
}

module.exports = { CONFLICTS, writeActivity, ownConflicts, conflictsCell };
