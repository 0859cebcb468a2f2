'use strict';
// A run's parameters are checked in Node before any server is started or reached
// (lib/core/params.js checkParams: each declaration's own lab.node rules, evaluated without the
// shell). The same refusals through a session, on a server: test/params-typo.test.js.
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { studies } = require('../../lib/studies');
const { checkParams } = require('../../lib/core/params');
const { ParameterError } = require('../../lib/infra/errors');
const { PROFILES } = require('../../lib/core/registry');

const BIN = path.join(__dirname, '..', '..', 'bin', 'mongo-perf-lab.js');

describe('parameters checked before any server', function () {
  it('every study accepts each of its own profiles', function () {
    for (const profile of PROFILES) expect(() => checkParams(studies, { profile }), profile).to.not.throw();
  });

  it('an unknown name, a bad value and an unknown variant are ParameterErrors naming the parameter', function () {
    const where = studies.filter((s) => s.name === 'where');
    const refused = (params) => {
      try {
        checkParams(where, { paramsOf: () => params });
      } catch (e) {
        return e;
      }
      return null;
    };
    const typo = refused({ NN: 5 });
    expect(typo).to.be.instanceOf(ParameterError);
    expect(typo.message).to.match(/^parameter NN: study where has no such parameter \(known: .*\bN\b/);
    expect(refused({ N: -1 }).message).to.match(/^parameter N: expected a whole number >= 0/);
    expect(refused({ VARIANTS: 'expr-fnd' }).message).to.match(/^parameter VARIANTS: unknown variant "expr-fnd"/);
  });

  it('the CLI refuses a typo in one line with no server: none started, none reached', function () {
    const cases = [
      ['run', 'where', '--set', 'BOGUS=1'], // would start an embedded mongod
      ['run', 'where', 'joins', '--set', 'VARIANTS=plain', '--uri', 'mongodb://127.0.0.1:1'], // nothing listens there
    ];
    for (const args of cases) {
      const r = spawnSync(process.execPath, [BIN, ...args, '--no-charts'], { encoding: 'utf8', timeout: 30000 });
      expect(r.status, r.stderr).to.equal(2);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('mongo-perf-lab:'));
      expect(lines, r.stderr).to.have.length(1);
      expect(lines[0]).to.match(/^mongo-perf-lab: parameter (BOGUS|VARIANTS): /);
      expect(r.stderr).to.not.match(/server: |embedded mongod|^\s+at /m);
    }
  });
});
