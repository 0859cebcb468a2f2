'use strict';
// lib/infra/cpu-wait.js reads Linux's CPU pressure ("some" line): the share of a stretch of time in
// which some task waited for a CPU. A file written here stands in for /proc/pressure/cpu, so the
// parse and the share are checked on any machine; the real file, where it exists, gives a share.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { cpuWaitMicros, cpuWaitWatch, PSI } = require('../../lib/infra/cpu-wait');
const { useTmpDir } = require('../helpers');

describe('cpu wait (pressure stall information)', function () {
  const tmp = useTmpDir('lab-cpu-wait-');
  const write = (total) => {
    const f = path.join(tmp.dir, 'cpu');
    fs.writeFileSync(
      f,
      `some avg10=1.00 avg60=2.00 avg300=3.00 total=${total}\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n`,
    );
    return f;
  };

  it('reads the "some" total in microseconds; no file or no such line gives null, never a guess', function () {
    expect(cpuWaitMicros(write(123456789))).to.equal(123456789);
    expect(cpuWaitMicros(path.join(tmp.dir, 'absent'))).to.equal(null);
    fs.writeFileSync(path.join(tmp.dir, 'odd'), 'full avg10=0.00 total=5\n');
    expect(cpuWaitMicros(path.join(tmp.dir, 'odd'))).to.equal(null);
  });

  it('the share of the watched time, clamped to 0..1', async function () {
    const f = write(1000000);
    const w = cpuWaitWatch(f);
    await new Promise((r) => setTimeout(r, 50));
    write(1000000 + 25000); // 25 ms of waiting in ~50 ms
    const share = w.stop();
    expect(share).to.be.within(0.3, 0.5);
    const all = cpuWaitWatch(write(0));
    write(10 ** 12);
    expect(all.stop()).to.equal(1);
  });

  it('on this machine: a share between 0 and 1 where the kernel tells it, null where it does not', function () {
    const share = cpuWaitWatch().stop();
    if (fs.existsSync(PSI)) expect(share).to.be.within(0, 1);
    else expect(share).to.equal(null);
  });
});
