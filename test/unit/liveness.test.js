'use strict';
// The liveness watch (lib/infra/liveness.js) against a fake server that answers one hello and then
// falls silent, as a mongod paused just after the watch's monitor got its first reply: the driver's
// connect() then fails on its pooled connection and closes the watch's client, monitor included.
// The watch must still report the silence. No mongod: a TCP listener that speaks just enough of
// the wire protocol for one reply.
const net = require('net');
const { expect } = require('chai');
const { BSON } = require('mongodb');
const { watch, ServerFrozenError } = require('../../lib/infra/liveness');

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

const HELLO = {
  helloOk: true,
  ismaster: true,
  isWritablePrimary: true,
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48000000,
  maxWriteBatchSize: 100000,
  logicalSessionTimeoutMinutes: 30,
  connectionId: 1,
  minWireVersion: 0,
  maxWireVersion: 17,
  readOnly: false,
  ok: 1,
};

/** The reply to one request (the driver's first handshake is OP_QUERY, later hellos OP_MSG). */
function reply(requestId, opCode, doc) {
  const body = BSON.serialize(doc);
  const head =
    opCode === OP_QUERY
      ? Buffer.alloc(16 + 20) // flags, cursor id, starting from, number returned
      : Buffer.alloc(16 + 5); // flag bits, section kind 0
  if (opCode === OP_QUERY) head.writeInt32LE(1, 32);
  head.writeInt32LE(head.length + body.length, 0);
  head.writeInt32LE(requestId + 1000, 4);
  head.writeInt32LE(requestId, 8);
  head.writeInt32LE(opCode === OP_QUERY ? OP_REPLY : OP_MSG, 12);
  return Buffer.concat([head, body]);
}

/** A server on 127.0.0.1 that answers its first request and no other: {uri, stats, close()}. */
async function answersOnce() {
  const stats = { connections: 0, requests: 0 };
  const sockets = new Set();
  const server = net.createServer((s) => {
    stats.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    let buf = Buffer.alloc(0);
    s.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 16 && buf.length >= buf.readInt32LE(0)) {
        const [requestId, opCode] = [buf.readInt32LE(4), buf.readInt32LE(12)];
        buf = buf.subarray(buf.readInt32LE(0));
        if (stats.requests++ === 0) s.write(reply(requestId, opCode, { ...HELLO, localTime: new Date() }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    uri: `mongodb://127.0.0.1:${server.address().port}`,
    stats,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('liveness watch', function () {
  const WINDOW_MS = 4000; // LAB_FROZEN_AFTER_MS's shortest
  let saved;
  before(function () {
    saved = process.env.LAB_FROZEN_AFTER_MS;
    process.env.LAB_FROZEN_AFTER_MS = String(WINDOW_MS);
  });
  after(function () {
    if (saved === undefined) delete process.env.LAB_FROZEN_AFTER_MS;
    else process.env.LAB_FROZEN_AFTER_MS = saved;
  });

  it("reports a server that fell silent between the monitor's first reply and connect()'s pooled connection", async function () {
    this.timeout(30000);
    const fake = await answersOnce();
    let w;
    try {
      const t0 = Date.now();
      const verdict = await new Promise((resolve) => {
        w = watch(fake.uri, { onFailure: resolve });
        setTimeout(() => resolve(null), 20000).unref();
      });
      const ms = Date.now() - t0;
      expect(verdict, `no verdict after ${ms} ms`).to.be.instanceOf(ServerFrozenError);
      expect(verdict.message).to.match(/stopped answering.*: no reply to a ping for \d+ s/);
      // the monitor got its one reply, and connect() went on to a connection of its own
      expect(fake.stats.connections).to.be.at.least(2);
      // the pooled connection's handshake (4 s) is the silence, and one more tick
      expect(ms).to.be.below(WINDOW_MS + 4000);
    } finally {
      if (w) w.stop();
      await fake.close();
    }
  });
});
