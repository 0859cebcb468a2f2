#!/usr/bin/env python3
"""Which run produced each committed CSV of rick446/mongodb-sdas, and with which writer.

For every committed version of times.csv (the file the writers write), print its commit, date,
row count, first row; then say which of the six committed result files it equals or is a prefix of.
The writer code in effect is the writer.py / writer_hier.py / clock.py of the commits just before.
Usage: python3 sdas_provenance.py [GIT_DIR]
"""
import subprocess, sys
GIT = sys.argv[1] if len(sys.argv) > 1 else sys.exit('usage: sdas_provenance.py GIT_DIR (a clone of github.com/rick446/mongodb-sdas: its .git folder)')
HEAD = '60cac38f5cac01cbc4f95cd152e0b15780aaaf21'
def git(*a):
    return subprocess.check_output(['git', '-C', GIT] + list(a)).decode()
results = {f: git('show', '%s:%s' % (HEAD, f)).splitlines()
           for f in ['times_initial_wps.csv', 'times_prealloc_wps.csv', 'times_hier_wps.csv',
                     'times_initial.csv', 'times_prealloc.csv', 'times_hier.csv']}
for c in git('rev-list', HEAD, '--', 'times.csv').split():
    try:
        lines = git('show', '%s:times.csv' % c).splitlines()
    except subprocess.CalledProcessError:
        continue
    if not lines:
        continue
    date = git('log', '-1', '--format=%ad', c).strip()
    hits = []
    for f, r in results.items():
        n = min(len(r), len(lines))
        if n and r[:n] == lines[:n]:
            hits.append('%s %s' % (f, 'EQUAL' if len(r) == len(lines) else
                                   ('its first %d rows' % n if len(lines) < len(r) else 'is a prefix (%d rows)' % n)))
    if hits:
        print('%s %s rows=%d first=%s -> %s' % (c[:8], date, len(lines), lines[0], '; '.join(hits)))
