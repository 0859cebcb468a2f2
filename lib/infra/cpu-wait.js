'use strict';
// How much of a stretch of time some runnable task waited for a CPU: Linux's pressure stall
// information (/proc/pressure/cpu, "some" line, microseconds since boot). The load average cannot
// tell a busy neighbour from the lab's own writers (16 of them raise it as much as two foreign
// loops) and lags by a minute; the stall share is read over one point (its warm-up and all its
// variants; it is the whole machine's, the lab's own processes and threads included). A single
// client talking to a single server leaves the cores idle between messages, so on a machine with
// nothing else running such a point shows little stall; beside CPU-bound processes each wake-up queues.
const fs = require('fs');

const PSI = '/proc/pressure/cpu';

/** Microseconds some task has waited for a CPU since boot, or null (no PSI: another OS, an old kernel). */
function cpuWaitMicros(file = PSI) {
  try {
    const line = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('some '));
    const m = line && / total=(\d+)/.exec(line);
    return m ? Number(m[1]) : null;
  } catch {
    return null; // no pressure file: the share is unknown, never guessed
  }
}

/** A stopwatch of CPU waiting: stop() gives the share (0..1, 2 decimals) of the wall time, or null. */
function cpuWaitWatch(file = PSI) {
  const u0 = cpuWaitMicros(file);
  const t0 = process.hrtime.bigint();
  return {
    stop() {
      const u1 = cpuWaitMicros(file);
      const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
      if (u0 === null || u1 === null || wallUs <= 0) return null;
      return Number(Math.min(1, Math.max(0, (u1 - u0) / wallUs)).toFixed(2));
    },
  };
}

module.exports = { cpuWaitMicros, cpuWaitWatch, PSI };
