'use strict';
// Functions saved in system.js live in the database, not in a connection or the shell: after a
// server restart (same data files) map/reduce still finds them by name. A server of its own,
// since the run's shared one must not restart under the other test files.
const { expect } = require('chai');
const { MongoClient } = require('mongodb');
const { startEmbedded } = require('../lib/infra/server');
const { ShellSession } = require('../lib/core/shell-runner');
const { parseLabLines } = require('../lib/core/lab-lines');
const { statsDiffer } = require('../lib/studies/mapreduce/client');
const sensors = require('../fixtures/sensors');

describe('mapreduce: stored functions survive a server restart', function () {
  let server;

  before(async function () {
    server = await startEmbedded({});
  });

  after(async function () {
    if (server) await server.stop();
  });

  async function runScript(file, params) {
    const session = await ShellSession.open(server.uri, 'random');
    try {
      return parseLabLines(await session.run(file, { LAB_LINES: true, ...params }));
    } finally {
      await session.close();
    }
  }

  it('stores them, restarts mongod, and map/reduce calling them by name still agrees with Node', async function () {
    // The collection does not exist: the shell script generates 2,000 rows itself, the same rows
    // as the CSV generator (fixtures/sensor-gen.js), so plain Node knows the answer.
    const first = await runScript('mr_store_functions.js', { N: 2000, SEED: 5 });
    expect(first.find((r) => r.type === 'environment').written).to.deep.equal([
      'labStatsMap',
      'labStatsReduce',
      'labStatsFinalize',
    ]);
    const ref = sensors.referenceStats(2000, 'engine_rpm', { seed: 5 });
    expect(statsDiffer(first.find((r) => r.type === 'measure').extra.stats, ref)).to.equal(null);

    const pidBefore = server.mms.instanceInfo.instance.mongodProcess.pid;
    await server.restart();
    expect(server.mms.instanceInfo.instance.mongodProcess.pid).to.not.equal(pidBefore);

    // Nothing is saved again (the code in system.js is unchanged): the run uses what survived.
    const after = await runScript('mr_store_functions.js', { N: 2000, SEED: 5 });
    expect(after.find((r) => r.type === 'environment').written).to.deep.equal([]);
    const check = after.find((r) => r.type === 'measure');
    expect(check.value).to.equal(true);
    expect(statsDiffer(check.extra.stats, ref)).to.equal(null);

    const rows = parseLabLines(
      await (async () => {
        const s = await ShellSession.open(server.uri, 'random');
        try {
          return await s.run('mr_variants.js', {
            N: 2000,
            SEED: 5,
            SIZES: '1000',
            RUNS: 1,
            VARIANTS: 'mr-stored,mr-stored-jsmode',
            LAB_LINES: true,
          });
        } finally {
          await s.close();
        }
      })(),
    ).filter((r) => r.type === 'result');
    expect(rows.map((r) => r.variant)).to.deep.equal(['mr-stored', 'mr-stored-jsmode']);
    for (const r of rows)
      expect(statsDiffer(r.answer, sensors.referenceStats(1000, 'engine_rpm', { seed: 5 })), r.variant).to.equal(null);

    const client = new MongoClient(server.uri);
    try {
      const names = (await client.db('random').collection('system.js').find().toArray()).map((d) => d._id).sort();
      expect(names).to.deep.equal(['labStatsFinalize', 'labStatsMap', 'labStatsReduce']);
    } finally {
      await client.close();
    }
  });
});
