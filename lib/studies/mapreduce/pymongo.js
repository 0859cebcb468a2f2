'use strict';
// The source's client, PyMongo, for the mapreduce study's py-client-* variants (source 000 measured
// its client claims with Python 3.4 and PyMongo). Finding, installing and running PyMongo is the
// lab's, shared with the inserts study's writers (lib/infra/pymongo.js); what the client does is
// this study's (py_client.py).
//   npm run setup-pymongo     installs it (README, .ci/run; lib/infra/pymongo.js)
const path = require('path');
const { findPyMongo, installPyMongo, PyProcess, SETUP, VERSION, PINS } = require('../../infra/pymongo');

const CLIENT = path.join(__dirname, 'py_client.py');

/**
 * One Python process running py_client.py, connected to `uri`, database `db`, collection `coll`;
 * run(variant, n, field) resolves to { ms, answer } as the Python side timed it.
 */
class PyClient extends PyProcess {
  static async open(uri, db, coll, pm = findPyMongo()) {
    const c = new PyClient(pm, CLIENT);
    const hello = await c.request({ op: 'connect', uri, db, coll });
    c.version = hello.pymongo;
    return c;
  }

  /** The harness's shape: the time is the Python side's own (lib/core/harness.js timeAsync). */
  async run(variant, n, field) {
    const r = await this.request({ op: 'run', variant, n, field });
    return { __labTook: true, ms: r.ms, answer: r.answer, extra: { client: `PyMongo ${this.version}` } };
  }
}

module.exports = { findPyMongo, installPyMongo, PyClient, SETUP, VERSION, PINS };
