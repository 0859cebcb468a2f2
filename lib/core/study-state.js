'use strict';
// A study's own state for one run (its writers' connections, the restarts it owes the server, a
// cursor over its simulated minutes), kept beside the run's context and not on it: the context is
// the core's, shared by every study, and a field a study hangs on it is a name no search finds.
//
//   const runs = studyState(() => ({ restarted: false }));
//   load(ctx, p)        { const st = runs.open(ctx); ... }   // a fresh state for this run
//   run(ctx, p, point)  { const st = runs.of(ctx); ... }     // the run's state, passed on explicitly

/**
 * @template S
 * @param {() => S} fresh makes the state a run starts with
 * @returns {{ open: (ctx: object) => S, of: (ctx: object) => S }}
 */
function studyState(fresh) {
  const runs = new WeakMap(); // a finished run's context, and its state with it, can be collected
  const open = (ctx) => {
    const st = fresh();
    runs.set(ctx, st);
    return st;
  };
  // of: the state open made; a fresh one when the run did not open it (a resumed run skips load)
  return { open, of: (ctx) => runs.get(ctx) || open(ctx) };
}

module.exports = { studyState };
