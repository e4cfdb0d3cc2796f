#!/usr/bin/env python3
"""Fails when a call's name does not say where it goes: a function that src/<folder>/ exports
carries the folder's prefix (core/ keeps one short prefix per module, as a base library), and a
name with the double underscore (api__x) is called from no other folder."""
import glob
import re
import sys

PREFIX = {'api': 'api', 'bus': 'bus', 'cli': 'cli', 'domain': 'rule', 'engineio': 'eio',
          'gateway': 'gateway', 'http': 'http', 'ops': 'ops', 'serve': 'serve', 'socketio': 'sio',
          'state': 'state', 'store': 'store', 'web': 'web', 'ws': 'ws'}
DEFINITION = re.compile(r'^(?!static\b)(?!typedef\b)[A-Za-z][^;{}()=#]*?\b([a-z_][a-z0-9_]*)\([^;{]*?\)\s*\n\{',
                        re.MULTILINE)
failed = []
defined = {}
for path in sorted(glob.glob('src/*/*.c')):
    folder = path.split('/')[1]
    for name in DEFINITION.findall(open(path).read()):
        defined[name] = folder
        prefix = PREFIX.get(folder)
        if prefix and not (name.startswith(prefix + '_')):
            failed.append(f'{path}: {name} is exported from {folder}/ without the prefix {prefix}_')
internal = {n: f for n, f in defined.items() if '__' in n}
if internal:
    call = re.compile(r'\b(' + '|'.join(map(re.escape, internal)) + r')\b')
    for path in sorted(glob.glob('src/**/*.[ch]', recursive=True)):
        folder = path.split('/')[1] if path.count('/') > 1 else ''
        for name in set(call.findall(open(path).read())):
            if internal[name] != folder:
                failed.append(f'{path}: calls {name}, internal to {internal[name]}/')
if len(defined) < 100:
    failed.append(f'only {len(defined)} exported functions found: the pattern no longer matches the code')
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
