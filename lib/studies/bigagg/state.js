'use strict';
// The bigagg study's state for one run: the mongod arguments it owes the server (the cache part
// restarts mongod with other cache sizes), whether the run's connections died with a restart, the
// cold runs made per compressor (the harness's warm-up calls restart nothing), and whether the CSV
// size was measured (once, beside the first compressor's sizes), and the caches mongod refused to
// start with (name -> its log line: recorded as cacheStartRefused, their point not timed).
const { studyState } = require('../../core/study-state');

module.exports = studyState(() => ({
  args: null,
  restarted: false,
  coldCalls: new Map(),
  csvDone: false,
  refused: new Map(),
}));
