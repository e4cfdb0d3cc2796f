#!/usr/bin/env python3
"""Fails when an #include climbs or crosses the layers: the table under "## Layers" in
docs/architecture.md is the rule. Its rows go from the top (main.c) down, and a folder includes
only folders of the rows below its own. A row whose folder is written "(beside `x/`)" is on x/'s
level: the two never include each other. Every folder under src/ must be in the table."""
import glob
import re
import sys

DOC = 'docs/architecture.md'
text = open(DOC).read()
section = text.split('\n## Layers\n', 1)[1].split('\n## ', 1)[0]
place = {}  # folder -> its level, counted from the top
for row, line in enumerate(l for l in section.splitlines() if l.startswith('| `')):
    cell = line.split('|')[1]
    name = re.match(r' `([a-z_]+)(?:/|\.c)`', cell)
    beside = re.search(r'\(beside `([a-z_]+)/`\)', cell)
    if name:
        place[name.group(1)] = place[beside.group(1)] if beside else row

failed = []
if len(place) < 10:
    failed.append(f'{DOC}: the layer table was not found under "## Layers"')
folders = {p.split('/')[1] for p in glob.glob('src/*/')} | {'main'}
for f in sorted(folders - set(place)):
    failed.append(f'src/{f}/ is not in the layer table of {DOC}')
INCLUDE = re.compile(r'^#include "([a-z_]+)/[^"]+"', re.MULTILINE)
for path in sorted(glob.glob('src/**/*.[ch]', recursive=True)):
    parts = path.split('/')
    here = parts[1] if len(parts) > 2 else 'main'
    if here not in place:
        continue
    for there in INCLUDE.findall(open(path).read()):
        if there == here or there not in place:
            continue
        if place[there] <= place[here]:
            failed.append(f'{path}: includes {there}/, which is not below {here}/ in {DOC}')
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
