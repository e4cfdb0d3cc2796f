#!/usr/bin/env python3
"""Fails when an #include leaves what the layer table allows: the table under "## Layers" in
docs/architecture.md is the rule. Each row names a folder (or main.c) and the folders it may
include ("every folder" for main.c, "—" for none); the rows go from the top down, and a row may
only allow folders of rows below it. Every folder under src/ must be in the table."""
import glob
import re
import sys

DOC = 'docs/architecture.md'
text = open(DOC).read()
section = text.split('\n## Layers\n', 1)[1].split('\n## ', 1)[0]
rows = []  # (folder, allowed set or None for every folder)
for line in section.splitlines():
    if not line.startswith('| `'):
        continue
    cells = line.split('|')
    name = re.match(r' `([a-z_]+)(?:/|\.c)`', cells[1])
    if not name:
        continue
    allowed = None if 'every folder' in cells[2] else set(re.findall(r'`([a-z_]+)/`', cells[2]))
    rows.append((name.group(1), allowed))

failed = []
place = {folder: n for n, (folder, _) in enumerate(rows)}
allow = dict(rows)
if len(rows) < 10:
    failed.append(f'{DOC}: the layer table was not found under "## Layers"')
for folder, allowed in rows:
    for there in sorted(allowed or ()):
        if there not in place:
            failed.append(f'{DOC}: {folder} may include {there}/, which is not in the table')
        elif place[there] <= place[folder]:
            failed.append(f'{DOC}: {folder} may include {there}/, which is not below it')
folders = {p.split('/')[1] for p in glob.glob('src/*/')} | {'main'}
for f in sorted(folders - set(place)):
    failed.append(f'src/{f}/ is not in the layer table of {DOC}')
INCLUDE = re.compile(r'^#include "([a-z_]+)/[^"]+"', re.MULTILINE)
for path in sorted(glob.glob('src/**/*.[ch]', recursive=True)):
    parts = path.split('/')
    here = parts[1] if len(parts) > 2 else 'main'
    if here not in place or allow[here] is None:
        continue
    for there in sorted(set(INCLUDE.findall(open(path).read()))):
        if there != here and there not in allow[here]:
            failed.append(f'{path}: includes {there}/, which the row of {here}/ in {DOC} does not allow')
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
