'use strict';
// An embedded replica set for what a standalone cannot do: w: "majority" and multi-document
// transactions. Same mongod binary as lib/infra/server.js (mongodb-memory-server-core's
// MongoMemoryReplSet), wiredTiger always. One member by default (~1 s to start); three for a
// majority that really waits for another member (~8 s on 2 cores).
//
// With REPLSET_URI set, that replica set is used as it is (the lab only touches its own database).

const { MongoMemoryReplSet } = require('mongodb-memory-server-core');
const { MongoClient } = require('mongodb');
const { findMongod } = require('./mongod-binary');

// mongodb-memory-server prints a failed start's whole error, stack and all, on console.warn: a
// member stopped during its start (the terminal's Ctrl-C reaches it too) printed two stack traces.
// The lab reports the error itself, in one line (lib/infra/server.js quietStart does so for one mongod).
const START_FAILED = /^Starting the MongoMemory(Server|ReplSet) Instance failed/;

/** MongoMemoryReplSet.create(opts) without those prints. */
async function createQuietly(opts) {
  const warn = console.warn;
  console.warn = (first, ...rest) => {
    if (typeof first === 'string' && START_FAILED.test(first)) return;
    warn(first, ...rest);
  };
  try {
    return await MongoMemoryReplSet.create(opts);
  } finally {
    console.warn = warn;
  }
}

async function describe(uri) {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10000 });
  try {
    await client.connect();
    const hello = await client.db('admin').command({ hello: 1 });
    const build = await client.db('admin').command({ buildInfo: 1 });
    return { version: build.version, setName: hello.setName || null, members: (hello.hosts || []).length };
  } finally {
    await client.close();
  }
}

/**
 * @param {object} [o] { members: 1, log, uri }
 * @returns {Promise<{uri, version, setName, members, embedded, stop()}>}
 */
async function getReplSet({ members = 1, log = () => {}, uri = process.env.REPLSET_URI } = {}) {
  if (uri) {
    const info = await describe(uri);
    if (!info.setName) throw new Error('REPLSET_URI does not point at a replica set member (hello has no setName)');
    return { uri, embedded: false, ...info, stop: async () => {} };
  }
  const found = findMongod({ log });
  const binary = found.download ? { version: found.download } : { systemBinary: found.binary, version: found.version };
  const rs = await createQuietly({
    binary,
    // no /tmp/mongodb-<port>.sock left behind by a killed member (lib/infra/server.js NO_SOCKET)
    replSet: { count: members, storageEngine: 'wiredTiger', args: ['--nounixsocket'] },
  });
  await rs.waitUntilRunning();
  const rsUri = rs.getUri();
  const info = await describe(rsUri);
  let stopped = false;
  return {
    uri: rsUri,
    embedded: true,
    ...info,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await rs.stop({ doCleanup: true, force: true });
    },
  };
}

module.exports = { getReplSet, createQuietly };
