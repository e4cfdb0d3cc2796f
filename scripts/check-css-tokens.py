#!/usr/bin/env python3
"""Fails when a space, a text size or a radius in the pages' CSS is written as a number instead of
one of the design's tokens (--sp-*, --text-*, --radius-*, set once at the top of app.css). Zero,
auto, em (relative to the text around) and the browser's safe-area insets stay allowed."""
import glob
import re
import sys

PROPS = re.compile(r'(?<![-\w])((?:padding|margin|gap|row-gap|column-gap|border-radius|font-size)(?:-[a-z]+)*)\s*:\s*([^;}]+)')
NUMBER = re.compile(r'(?<![\w(.-])-?\d*\.?\d+(?:rem|px|%|vw|vh)')
TOKENS = re.compile(r'var\(--(sp|text|radius)-[\w]+\)')
failed = []
for path in sorted(glob.glob('src/web/static/*.css')):
    text = open(path).read()
    if path.endswith('app.css'):  # the tokens themselves
        text = text.split('* { box-sizing', 1)[1]
    for line_no, line in enumerate(text.splitlines(), 1):
        for prop, value in PROPS.findall(line):
            bare = TOKENS.sub('', re.sub(r'env\([^)]*\)', '', value))
            if NUMBER.search(bare):
                failed.append(f'{path}: {prop}: {value.strip()} (use the --sp-, --text- or --radius- tokens)')
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
