'use strict';
// One worker process of lib/studies/source-002/insert-workers.js: connect, prepare, report ready, wait for "go",
// work, report the result, wait for "exit". Errors go back as one message, never a stack dump.
const { MongoClient } = require('mongodb');
const { prepare, work } = require('./insert-workers');

let client;
let task;
let input;

process.on('message', async (m) => {
  try {
    if (m.uri) {
      task = m;
      client = new MongoClient(m.uri, { maxPoolSize: 1 });
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      input = prepare(m.job, m.w, m.W);
      process.send({ ready: true });
    } else if (m.go) {
      const result = await work(client, task.job, input, task.w);
      process.send({ result });
    } else if (m.exit) {
      await client.close();
      process.exit(0);
    }
  } catch (e) {
    process.send({ error: e.message.split('\n')[0] });
    if (client)
      await client.close().catch(() => {
        /* exiting: a failed close (server gone) changes nothing reported */
      });
    process.exit(1);
  }
});
