'use strict';
// Per-operation latencies in an HdrHistogram (hdr-histogram-js), as YCSB, POCDriver and genny report
// them: a round's total hides the tail a DBA watches. Values are kept in microseconds (1 us .. 1 h,
// 3 significant digits); histograms cross process boundaries as compressed base64 and merge exactly.
const hdr = require('hdr-histogram-js');

const PERCENTILES = [50, 90, 95, 99, 99.9];

function histogram() {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3.6e9, numberOfSignificantValueDigits: 3 });
}

/** Records operations' durations in milliseconds. */
class Latency {
  constructor() {
    this.h = histogram();
  }

  record(ms) {
    this.h.recordValue(Math.min(3.6e9, Math.max(1, Math.round(ms * 1000))));
  }

  /** Times one awaited operation and records it; resolves to its value. */
  async time(fn) {
    const t0 = process.hrtime.bigint();
    const out = await fn();
    this.record(Number(process.hrtime.bigint() - t0) / 1e6);
    return out;
  }

  get count() {
    return this.h.totalCount;
  }

  encode() {
    return hdr.encodeIntoCompressedBase64(this.h);
  }

  /** Adds another recorder's or an encoded histogram's values. */
  add(other) {
    if (!other) return this;
    const h = typeof other === 'string' ? hdr.decodeFromCompressedBase64(other) : other.h;
    this.h.add(h);
    return this;
  }

  /** The record's `latency` field: {count, p50, p90, p95, p99, p999, max, unit: 'ms', hdr}. */
  summary() {
    const ms = (us) => Number((us / 1000).toPrecision(4));
    const at = (q) => ms(this.h.getValueAtPercentile(q));
    return {
      count: this.h.totalCount,
      p50: at(50),
      p90: at(90),
      p95: at(95),
      p99: at(99),
      p999: at(99.9),
      max: ms(this.h.maxValue),
      unit: 'ms',
      hdr: this.encode(),
    };
  }
}

/** One Latency holding all of the given encoded histograms (workers' shares). */
function merged(encodedList) {
  const l = new Latency();
  for (const e of encodedList || []) l.add(e);
  return l;
}

module.exports = { Latency, merged, PERCENTILES };
