'use strict';
// The facts of a run's environment record (lib/core/results.js environment() writes them), each
// read in one place, with its two names: `resume`, when a result file cannot be resumed in another
// setting (results.js settingDiff, in this order: the first that differs is named); `compare`, when
// two result files were measured in different places (lib/core/compare.js, in the order it lists).
// A fact without one of the names is not part of that check.
const ENV_FACTS = {
  version: { read: (e) => e.server && e.server.version, resume: 'server version', compare: 'MongoDB' },
  storageEngine: {
    read: (e) => e.server && e.server.storageEngine,
    resume: 'storage engine',
    compare: 'storage engine',
  },
  queryFramework: {
    read: (e) => e.server && e.server.queryFramework,
    resume: 'query engine',
    compare: 'query framework',
  },
  cacheBytes: { read: (e) => e.server && e.server.cacheBytes, resume: 'cache size', compare: 'cache bytes' },
  topology: { read: (e) => e.server && e.server.topology, resume: 'topology', compare: 'topology' },
  cores: { read: (e) => e.host && e.host.cores, resume: 'cores', compare: 'cores' },
  // A file written before usableCores was recorded ran on all of them.
  usableCores: { read: (e) => e.host && (e.host.usableCores || e.host.cores), resume: 'usable cores' },
  cpuModel: { read: (e) => e.host && e.host.cpuModel, compare: 'CPU' },
  node: { read: (e) => e.software && e.software.node, resume: 'Node' },
  driver: { read: (e) => e.software && e.software.driver, resume: 'driver' },
  mongosh: { read: (e) => e.software && e.software.mongosh, resume: 'mongosh' },
  commit: { read: (e) => e.lab && e.lab.commit, resume: "lab's commit" },
  profile: { read: (e) => e.profile, resume: 'profile', compare: 'profile' },
  engine: { read: (e) => e.engine, resume: 'engine', compare: 'query engine column' },
  label: { read: (e) => e.label, resume: 'label' },
};

/** The facts named `by` ('resume' or 'compare') as [name, read], in the order of `keys`. */
function factsNamed(by, keys = Object.keys(ENV_FACTS)) {
  return keys.filter((k) => ENV_FACTS[k][by]).map((k) => [ENV_FACTS[k][by], ENV_FACTS[k].read]);
}

module.exports = { ENV_FACTS, factsNamed };
