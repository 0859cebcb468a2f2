#!/usr/bin/env python3
"""Re-derive Rick Copeland's per-minute counter write rates (rick446/mongodb-sdas, 2012).

Usage:  python3 sdas_counters.py [GIT_DIR]
  GIT_DIR: the .git folder of a clone of github.com/rick446/mongodb-sdas. Files are read with `git show <COMMIT>:<file>` at the pinned COMMIT below.

Files (all at commit 60cac38f..., the repository's HEAD; added in 3415165 "Added stats & plots"):
  times_initial_wps.csv, times_prealloc_wps.csv, times_hier_wps.csv
      rows "minute,wps" written by writer.py (DILATION=300). minute = simulated minute of day
      (UTC, 0..1439) of the LAST write of a 60-simulated-second window; wps = writes in the window
      / real seconds the window took (incl. the getLastError that closes it). These are the
      files the repository's notebook plotted (commit 3415165).
  times_initial.csv, times_prealloc.csv, times_hier.csv  (older experiment, supplementary)
      rows "minute,count" written by the gevent writer + clock.py: count = writes during one
      clock tick (0.2 s real = 1 simulated minute). writes/s = count / 0.2.

Definitions
  day boundary : a row whose minute is smaller than the previous row's minute (wrap 1439 -> 0).
  first complete day : the rows between the first and the second wrap (the writer starts at the
      wall-clock UTC time of launch, so the rows before the first wrap are a PARTIAL day).
  start / end  : median of the rows of that day with minute in [0,120) (00:00-02:00) and with
      minute in [1320,1440) (22:00-24:00).  Variant "5%": [0,72) and [1368,1440).
  ratios       : ratio of those medians (not a median of per-minute ratios: rows of different
      runs do not share minutes).
"""
import csv, hashlib, io, statistics as st, subprocess, sys

GIT = sys.argv[1] if len(sys.argv) > 1 else sys.exit('usage: sdas_counters.py GIT_DIR (a clone of github.com/rick446/mongodb-sdas: its .git folder)')
COMMIT = '60cac38f5cac01cbc4f95cd152e0b15780aaaf21'
SCHEMAS = ['initial', 'prealloc', 'hier']


def load(path, scale=1.0):
    raw = subprocess.check_output(['git', '-C', GIT, 'show', '%s:%s' % (COMMIT, path)])
    rows = [(int(a), float(b) * scale) for a, b in csv.reader(io.StringIO(raw.decode()))]
    return rows, hashlib.sha1(b'blob %d\0' % len(raw) + raw).hexdigest()


def days(rows):
    """Split at wraps; returns list of (first_row_index, rows)."""
    out, start = [], 0
    for i in range(1, len(rows)):
        if rows[i][0] < rows[i - 1][0]:
            out.append((start, rows[start:i]))
            start = i
    out.append((start, rows[start:]))
    return out


def med(rows, lo, hi):
    v = [w for m, w in rows if lo <= m < hi]
    return (st.median(v), len(v)) if v else (None, 0)


def quart(rows, lo, hi):
    v = sorted(w for m, w in rows if lo <= m < hi)
    if len(v) < 4:
        return '-'
    q = st.quantiles(v, n=10)  # deciles (method 'exclusive')
    q4 = st.quantiles(v, n=4)
    return 'p10 %.0f, q1 %.0f, q3 %.0f, p90 %.0f' % (q[0], q4[0], q4[2], q[8])


def fmt(x):
    return '-' if x is None else '{:,.1f}'.format(x)


def report(kind, files, scale, label):
    print('=' * 100)
    print(label)
    res = {}
    for s in SCHEMAS:
        path = files % s
        rows, blob = load(path, scale)
        ds = days(rows)
        print('\n%s  (git blob %s) %d rows' % (path, blob, len(rows)))
        for k, (i0, d) in enumerate(ds):
            full = d[0][0] < 60 and d[-1][0] > 1380 and k not in (0, len(ds) - 1)
            tag = 'COMPLETE' if full else 'partial'
            s0, n0 = med(d, 0, 120)
            s1, n1 = med(d, 1320, 1440)
            a0, m0 = med(d, 0, 72)
            a1, m1 = med(d, 1368, 1440)
            print('  day %d  file rows %d-%d (1-based), minutes %d..%d, %d rows, %s:'
                  % (k, i0 + 1, i0 + len(d), d[0][0], d[-1][0], len(d), tag))
            print('     median 00-02h %s (n=%d)  22-24h %s (n=%d)  | 5%%: [0,72) %s (n=%d) [1368,1440) %s (n=%d)'
                  % (fmt(s0), n0, fmt(s1), n1, fmt(a0), m0, fmt(a1), m1))
            if full:
                print('     spread 00-02h: %s;  22-24h: %s' % (quart(d, 0, 120), quart(d, 1320, 1440)))
            if full:
                res.setdefault(s, []).append(dict(day=k, rows=(i0 + 1, i0 + len(d)), start=s0, end=s1,
                                                  start5=a0, end5=a1, n=len(d), ns=(n0, n1),
                                                  hourly=[med(d, h * 60, h * 60 + 60)[0] for h in range(24)]))
        p0, q0 = med(rows, 0, 120)
        p1, q1 = med(rows, 1320, 1440)
        print('  POOLED over all rows (partial days included): 00-02h %s (n=%d)  22-24h %s (n=%d)'
              % (fmt(p0), q0, fmt(p1), q1))
        res.setdefault('pooled', {})[s] = (p0, p1)
    ndays = min(len(res[s]) for s in SCHEMAS)
    for k in range(ndays):
        I, P, H = (res[s][k] for s in SCHEMAS)
        print('\n  COMPLETE DAY #%d of each file:' % (k + 1))
        for name, r in zip(SCHEMAS, (I, P, H)):
            print('    %-9s rows %5d-%5d  start %8s  end %8s  end/start %.2f   [5%%: %s -> %s]'
                  % (name, r['rows'][0], r['rows'][1], fmt(r['start']), fmt(r['end']),
                     r['end'] / r['start'], fmt(r['start5']), fmt(r['end5'])))
        print('    end of day: prealloc/initial %.2fx   hier/prealloc %.2fx   hier/initial %.2fx'
              % (P['end'] / I['end'], H['end'] / P['end'], H['end'] / I['end']))
        print('    start of day: prealloc/initial %.2fx   hier/prealloc %.2fx'
              % (P['start'] / I['start'], H['start'] / P['start']))
        print('    5%% variant, end: prealloc/initial %.2fx   hier/prealloc %.2fx'
              % (P['end5'] / I['end5'], H['end5'] / P['end5']))
        if k == 0:
            print('    hourly medians (writes/s) of that day:')
            print('      hour ' + ' '.join('%6s' % s for s in SCHEMAS))
            for h in range(24):
                print('      %02d   ' % h + ' '.join('%6s' % ('%.0f' % res[s][k]['hourly'][h]) for s in SCHEMAS))
    pi, pp, ph = (res['pooled'][s] for s in SCHEMAS)
    print('\n  POOLED (what one gets by mixing partial and complete days): initial %s -> %s, prealloc %s -> %s, '
          'hier %s -> %s; end ratios prealloc/initial %.2fx hier/prealloc %.2fx'
          % (fmt(pi[0]), fmt(pi[1]), fmt(pp[0]), fmt(pp[1]), fmt(ph[0]), fmt(ph[1]),
             pp[1] / pi[1], ph[1] / pp[1]))


if __name__ == '__main__':
    report('wps', 'times_%s_wps.csv', 1.0,
           'MAIN: times_<schema>_wps.csv (writer.py, DILATION=300, value = writes/s as written by the writer)')
    report('count', 'times_%s.csv', 5.0,
           'SUPPLEMENTARY: times_<schema>.csv (gevent writer + clock.py, value = writes per 0.2 s tick x 5 = writes/s)')
