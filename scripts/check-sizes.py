#!/usr/bin/env python3
"""Fails when a C file under src/ is over 700 lines or a function in it over 80: a file holds one
concern and a function one step, so each can be read at once. A function is counted from the
brace that opens its body at the start of a line to the one that closes it."""
import glob
import sys

FILE_MAX, FUNCTION_MAX = 700, 80
failed = []
for path in sorted(glob.glob('src/**/*.c', recursive=True)):
    lines = open(path).read().split('\n')
    if len(lines) - 1 > FILE_MAX:
        failed.append(f'{path}: {len(lines) - 1} lines (at most {FILE_MAX})')
    opened = None
    for n, line in enumerate(lines, 1):
        if line == '{':
            opened = n
        elif line == '}' and opened:
            if n - opened + 1 > FUNCTION_MAX:
                head = lines[opened - 2].strip()
                failed.append(f'{path}:{opened}: {head[:60]} is {n - opened + 1} lines (at most {FUNCTION_MAX})')
            opened = None
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
