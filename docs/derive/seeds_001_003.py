#!/usr/bin/env python3
"""Check the figures the lab quotes from seeds 003 (Vlad Mihalcea, touch) and 001 (John Page, $where).
Each number is read from the seed text itself (the script fails if a quoted line is missing).
Usage: python3 seeds_001_003.py [SEEDS_DIR]   
"""
import glob, re, sys
D = sys.argv[1] if len(sys.argv) > 1 else sys.exit('usage: seeds_001_003.py SEEDS_DIR (the folder holding the source texts 001_* and 003_*)')
s003 = open(glob.glob(D + '/003_*.txt')[0], encoding='utf-8').read()
s001 = open(glob.glob(D + '/001_*.txt')[0], encoding='utf-8').read()

def tables(text):
    """The three timing tables of seed 003, in order: cold, touch {data,index}, touch {data}, working set."""
    out, cur = [], None
    for line in text.splitlines():
        m = re.match(r'^(T\d|Average) \| (.*) \|$', line.strip())
        if m:
            if m.group(1) == 'T1':
                cur = []
                out.append(cur)
            vals = [0.0 if v.strip() == '0' else float(v.strip().rstrip('s')) for v in m.group(2).split('|')]
            cur.append((m.group(1), vals, line.strip()))
    return out

t = tables(s003)
names = ['cold (restart before each test)', 'after touch {data: true, index: true}',
         'after touch {data: true, index: false}', 'after preloading the working set (year aggregation)']
cols = ['seconds in a minute', 'minutes in an hour', 'hours in a day']
for n, tab in zip(names, t):
    print('== %s' % n)
    for label, vals, line in tab:
        print('   %s' % line)
    rows = [v for l, v, _ in tab if l != 'Average']
    print('   recomputed means of the 5 rows: ' + ', '.join('%.4f' % (sum(r[i] for r in rows) / 5) for i in range(3)))
cold, both, data = [[v for l, v, _ in tab] for tab in t[:3]]
ca, ba, da = cold[-1], both[-1], data[-1]
print('\n003 touch {data,index} / cold, from the Average rows:')
for i, c in enumerate(cols):
    print('   %-20s %.3f / %.4f = %.3fx' % (c, ba[i], ca[i], ba[i] / ca[i]))
print('   per start timestamp (hours in a day): ' + ', '.join('%.2f' % (b[2] / c[2]) for b, c in zip(both[:5], cold[:5])))
print('   per start timestamp (minutes in an hour): ' + ', '.join('%.2f' % (b[1] / c[1]) for b, c in zip(both[:5], cold[:5])))
print('003 touch {data} vs cold, from the Average rows:')
for i, c in enumerate(cols):
    if da[i]:
        print('   %-20s cold %.4f s, data-only %.3f s: speed-up %.3fx, time saved %.1f%%'
              % (c, ca[i], da[i], ca[i] / da[i], 100 * (1 - da[i] / ca[i])))
print('   per start timestamp (hours in a day), speed-up: ' + ', '.join('%.2f' % (c[2] / d[2]) for d, c in zip(data[:5], cold[:5])))

print('\n001 ($where, John Page):')
for q in ['384ms - Not bad in human terms', '38,226 ms - yes 40 Seconds', "OK That's 263 ms, 150 times faster",
          'And that takes ... 27ms, over 1,500 times faster than the Javascript!!']:
    line = next(l for l in s001.splitlines() if q in l)
    print('   quote: %s' % line.strip())
print('   38226/384 = %.2fx   38226/263 = %.2fx   38226/27 = %.2fx   384/27 = %.2fx'
      % (38226 / 384, 38226 / 263, 38226 / 27, 384 / 27))
