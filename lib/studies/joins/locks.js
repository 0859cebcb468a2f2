'use strict';
// The joins study's functional check of 002-no-joins/table-locking.
const LabRecords = require('../../../scripts/lib/records');

// The commands a client could take a lock with (002-no-joins/table-locking: "it doesn't support
// table locking"): listCommands' client-facing names with "lock" in them, and whether any names a
// collection or table. On 6.0 they are fsyncUnlock (with fsync {lock: true}: the whole instance) and
// lockInfo (a diagnostic); a collection lock for a client would be a new name here.
async function lockCommands(ctx) {
  let cmds;
  try {
    cmds = Object.keys((await ctx.db.admin().command({ listCommands: 1 })).commands || {});
  } catch (e) {
    ctx.note(`table locking is not checked: listCommands failed (${e.message})`);
    return [];
  }
  // internal commands (a leading underscore: server-to-server) are not a client's; "block" is not a lock
  const lock = cmds.filter((c) => !c.startsWith('_') && /lock/i.test(c.replace(/block/gi, ''))).sort();
  const perCollection = lock.filter((c) => /coll|table/i.test(c));
  return [
    LabRecords.measureRecord({
      study: 'joins',
      name: 'lock-commands',
      variant: 'listCommands',
      axis: { part: 'locks' },
      value: perCollection.length,
      unit: 'commands',
      what: 'commands that would lock one collection for a client (names with lock and coll/table)',
      extra: { commands: cmds.length, lock, perCollection },
    }),
  ];
}

module.exports = { lockCommands };
