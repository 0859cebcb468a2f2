'use strict';
// The databases a run created and will still drop (tracked-databases.js adds and removes them): a
// frozen server's line names them as left (errors.js, liveness.js). Its own module, with no
// requires, so that those two can read it without a circle through the clean-up.
const names = new Set();

module.exports = {
  add: (name) => names.add(name),
  remove: (name) => names.delete(name),
  /** The names, in the order they were tracked. */
  list: () => [...names],
};
