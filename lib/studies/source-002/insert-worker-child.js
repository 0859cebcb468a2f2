'use strict';
// One worker process of lib/studies/source-002/insert-workers.js, kept for many jobs: per job
// connect (once per server), prepare, report ready, wait for "go", work, report the result; then
// wait for the next job, or "exit". Errors go back as one message, never a stack dump. It ends
// itself when its parent goes (IPC disconnect) or after argv[2] ms without a job.
const { MongoClient } = require('mongodb');
const { prepare, work } = require('./insert-workers');

const IDLE_MS = Number(process.argv[2]) || 60000;
let client = null;
let clientUri = null;
let task;
let input;
let idleTimer = null;

async function closeClient() {
  if (!client) return;
  const c = client;
  client = null;
  clientUri = null;
  await c.close().catch(() => {
    /* its server is gone (a stopped replica set): nothing to close */
  });
}

async function connectTo(uri) {
  if (client && clientUri === uri) return;
  await closeClient();
  client = new MongoClient(uri, { maxPoolSize: 1 });
  await client.connect();
  clientUri = uri;
  await client.db('admin').command({ ping: 1 });
}

// No close(): its server may be stopped already (a replica set ended first), and the OS closes
// the socket with the process.
function exit(code) {
  process.exit(code);
}

function waitIdle() {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => exit(0), IDLE_MS);
}

process.on('disconnect', () => exit(0));

process.on('message', async (m) => {
  try {
    if (m.uri) {
      clearTimeout(idleTimer);
      task = m;
      await connectTo(m.uri);
      input = prepare(m.job, m.w, m.W);
      process.send({ ready: true });
    } else if (m.go) {
      const result = await work(client, task.job, input, task.w);
      input = null;
      process.send({ result });
      waitIdle();
    } else if (m.exit) {
      exit(0);
    }
  } catch (e) {
    if (process.connected) process.send({ error: e.message.split('\n')[0] });
    exit(1);
  }
});

waitIdle();
