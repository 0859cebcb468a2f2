'use strict';
// The restarts the study makes and undoes: before a cache point, mongod restarted with that cache
// size (the arguments it was started with kept); before any other point after one, and after the
// study, restarted as it was started; after any restart, the run's connections made usable again.
const { restartWithCache, restartWithArgs } = require('./cache');
const { usable } = require('../../infra/restart-args');
const runs = require('./state');

async function beforePoint(ctx, p, point) {
  const st = runs.of(ctx);
  if (point.part === 'cache') {
    const before = await restartWithCache(ctx.server, point.cache);
    if (!st.args) st.args = before;
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
