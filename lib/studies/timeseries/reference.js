'use strict';
// The time-series study's answers computed in plain Node, independently of the server and of the
// shell scripts: what every design's aggregation is checked against in the tests.

/**
 * count / min / max / avg of value per group of `group` ms (epoch-aligned) over the events with
 * from <= created_on < to, fed one event at a time: memory holds the groups, never the events, so
 * the year of the source's 50,000,000 events is checked in constant memory.
 * Returns { add(ev), rows() }; rows() are sorted by group start: { t: Date, count, min, max, avg }.
 */
function aggregator(from, to, group) {
  const f = from instanceof Date ? from.getTime() : from;
  const e = to instanceof Date ? to.getTime() : to;
  const groups = new Map();
  return {
    add(ev) {
      const t = ev.created_on.getTime();
      if (t < f || t >= e) return;
      const k = t - (((t % group) + group) % group);
      let g = groups.get(k);
      if (!g) {
        g = { t: k, count: 0, min: Infinity, max: -Infinity, sum: 0 };
        groups.set(k, g);
      }
      g.count++;
      g.sum += ev.value;
      if (ev.value < g.min) g.min = ev.value;
      if (ev.value > g.max) g.max = ev.value;
    },
    rows() {
      return [...groups.values()]
        .sort((a, b) => a.t - b.t)
        .map((g) => ({ t: new Date(g.t), count: g.count, min: g.min, max: g.max, avg: g.sum / g.count }));
    },
  };
}

/** The same over any iterable of events (an array, or a generator of any length). */
function aggregate(events, from, to, group) {
  const a = aggregator(from, to, group);
  for (const ev of events) a.add(ev);
  return a.rows();
}

/** The interval of `width` ms holding `start`, epoch-aligned: [from, to). */
function calibrate(start, width) {
  const t = start instanceof Date ? start.getTime() : start;
  const from = Math.floor(t / width) * width;
  return { from, to: from + width };
}

module.exports = { aggregate, aggregator, calibrate };
