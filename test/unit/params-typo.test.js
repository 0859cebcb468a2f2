'use strict';
// The nearest known name a refused parameter suggests, with no server (each script refusing a typo
// through the real mongosh CLI: test/params-typo.test.js).
const { expect } = require('chai');
const LabParams = require('../../scripts/lib/params');

describe('unknown parameters', function () {
  it('the nearest known name is suggested', function () {
    expect(LabParams.nearest('NN', ['RUNS', 'N', 'SEED'])).to.equal('N');
    expect(LabParams.nearest('RUN', ['RUNS', 'N', 'SEED'])).to.equal('RUNS');
    expect(() => LabParams.refuseUnknown(['RUNS', 'N'], ['N'], 'x')).to.not.throw();
    expect(() => LabParams.refuseUnknown(['WARMPU'], ['N'], 'x')).to.throw(
      /parameter WARMPU: x has no such parameter \(did you mean WARMUP\?\)/,
    );
  });
});
