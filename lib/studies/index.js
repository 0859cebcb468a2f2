'use strict';
// The list of studies the runner reads: one line per study. A study is its declaration in
// scripts/ (lab.main(STUDY)) and its Node part in lib/studies/<name>/index.js (docs/contract.md).
// The core never requires this file's studies by name: bin/ hands the list to it.

const studies = [
  require('./mapreduce'),
  require('./where'),
  require('./bigagg'),
  require('./inserts'),
  require('./coherency'),
  require('./tasks'),
  require('./joins'),
  require('./timeseries'),
  require('./counters'),
];

function findStudy(name) {
  const s = studies.find((x) => x.name === name);
  if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
  return s;
}

module.exports = { studies, findStudy };
