'use strict';
// A small embedded replica set for the w:"majority" measurement of study 004 (the same mongod
// binary the lab uses; wiredTiger chosen explicitly, since mongodb-memory-server would pick
// ephemeralForTest for 6.0).
const { createQuietly } = require('../../infra/replset');
const { findMongod } = require('../../infra/mongod-binary');

async function startReplSet({ members = 3, log = () => {} } = {}) {
  const found = findMongod({ log });
  const binary = found.download ? { version: found.download } : { systemBinary: found.binary, version: found.version };
  const rs = await createQuietly({
    binary,
    // --nounixsocket: a killed member leaves no /tmp/mongodb-<port>.sock (lib/infra/server.js NO_SOCKET)
    replSet: { count: members, storageEngine: 'wiredTiger', name: 'perflab', args: ['--nounixsocket'] },
    instanceOpts: Array.from({ length: members }, () => ({ storageEngine: 'wiredTiger', launchTimeout: 60000 })),
  });
  await rs.waitUntilRunning();
  const stop = () => rs.stop({ doCleanup: true, force: true });
  const onExit = () => {
    for (const s of rs.servers) {
      const p = s.instanceInfo && s.instanceInfo.instance && s.instanceInfo.instance.mongodProcess;
      if (p && p.exitCode === null) p.kill('SIGKILL');
    }
  };
  process.once('exit', onExit);
  return {
    uri: rs.getUri(),
    members,
    stop: async () => {
      process.removeListener('exit', onExit);
      await stop();
    },
  };
}

module.exports = { startReplSet };
