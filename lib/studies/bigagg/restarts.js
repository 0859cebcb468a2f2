'use strict';
// The restarts the study makes and undoes: before a cache point, mongod restarted with that cache
// size (the arguments it was started with kept); before any other point after one, and after the
// study, restarted as it was started; after any restart, the run's connections made usable again.
//
// A cache mongod refuses to start with (the source's unsupported cache_size=2M might be, one day) is
// a finding, not a failure: its log line is kept for the point's measures (cacheStartRefused), mongod
// is started again with the arguments it had, and the run goes on. Only a mongod that will not start
// again with those stops the run.
const { restartWithCache, restartWithArgs, CacheStartRefused } = require('./cache');
const { usable } = require('../../infra/restart-args');
const { LabError } = require('../../infra/errors');
const runs = require('./state');

/** After a refused cache: mongod started again as it ran before (one line, the run stops, if not). */
async function startAgainAfter(ctx, st, refused) {
  const args = st.args || refused.argsBefore;
  try {
    await restartWithArgs(ctx.server, args);
  } catch (e) {
    throw new LabError(
      `bigagg: mongod refused to start with the ${refused.cache} cache (${refused.line}), then did not start ` +
        `again with its own arguments (${String(e.message).split('\n')[0]}): the run stops; check the free ` +
        'memory and disk, then run again',
      { cause: e },
    );
  }
  st.args = null;
  st.refused.set(refused.cache, refused.line);
  ctx.log(
    `bigagg: mongod refused to start with the ${refused.cache} cache (${refused.line}): recorded ` +
      '(cacheStartRefused); mongod runs with its own arguments again and the run goes on',
  );
}

async function beforePoint(ctx, p, point) {
  const st = runs.of(ctx);
  if (point.part === 'cache') {
    try {
      const before = await restartWithCache(ctx.server, point.cache);
      if (!st.args) st.args = before;
    } catch (e) {
      if (!(e instanceof CacheStartRefused)) throw e;
      await startAgainAfter(ctx, st, e);
    }
    st.restarted = true;
  } else if (st.args) {
    await restartWithArgs(ctx.server, st.args);
    st.args = null;
    st.restarted = true;
  }
  if (st.restarted) {
    // The run's pooled connections died with the old mongod: wait until the driver has a
    // working pool again, then give the shell a new session (the script loaded again).
    await usable(ctx.db);
    await ctx.reopen();
    st.restarted = false;
  }
}

/** Leaves the lab's server as it was started (after the last cache point). */
async function restoreServer(ctx) {
  const st = runs.of(ctx);
  if (st.args) {
    await restartWithArgs(ctx.server, st.args);
    st.args = null;
  }
}

module.exports = { beforePoint, restoreServer };
