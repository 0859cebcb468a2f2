'use strict';
// The list of studies the runner reads: one line per study. A study is its declaration in
// scripts/ (lab.main(STUDY)) and its Node part in lib/studies/<name>.js (docs/contract.md).

const studies = [
  require('./studies/mapreduce'),
  require('./studies/where'),
  require('./studies/bigagg'),
  require('./studies/inserts'),
  require('./studies/coherency'),
  require('./studies/tasks'),
  require('./studies/joins'),
  require('./studies/timeseries'),
  require('./studies/counters'),
];

function findStudy(name) {
  const s = studies.find((x) => x.name === name);
  if (!s) throw new Error(`unknown study ${JSON.stringify(name)} (known: ${studies.map((x) => x.name).join(', ')})`);
  return s;
}

module.exports = { studies, findStudy };
