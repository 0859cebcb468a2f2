'use strict';
// The list of studies the runner reads: one line per study. A study is its declaration in
// scripts/ (lab.main(STUDY)) and its Node part in lib/studies/<name>/index.js (docs/contract.md).
// Each study validates itself with defineStudy() (lib/core/registry.js); the core never requires
// this file's studies by name: the commands hand the list to it.
const { registry } = require('../core/registry');

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

module.exports = registry(studies);
