#!/usr/bin/env python3
"""Fails when a page module other than the store (src/web/static/chat-store.js) writes the
store's state `chat`: an assignment to chat.x (or inside it), a change through a method of one of
its maps, sets or lists, Object.assign on it, or a destructuring into it. The views call the
store's functions instead, so each change to the state has one place that makes it."""
import glob
import os
import re
import sys

STORE = 'chat-store.js'
WRITES = [
    re.compile(r'\bchat(?:\.\w+)+(?:\[[^\]]*\])?\s*(?:[-+*/]?=(?!=)|\+\+|--)'),
    re.compile(r'(?:\+\+|--)\s*chat\.\w+'),
    re.compile(r'\bchat\.\w+(?:\.\w+)*\.(?:set|delete|clear|add|push|pop|shift|unshift|splice|sort|reverse)\('),
    re.compile(r'Object\.assign\(\s*chat\b'),
    re.compile(r'\{[^{}]*:\s*chat\.\w+[^{}]*\}\s*=(?!=)'),  # ({ user: chat.me } = …)
]
failed = []
for path in sorted(glob.glob('src/web/static/*.js')):
    if os.path.basename(path) == STORE:
        continue
    for n, line in enumerate(open(path), 1):
        code = line.split('//', 1)[0] if not re.search(r"['\"`][^'\"`]*//", line) else line
        if any(w.search(code) for w in WRITES):
            failed.append(f'{path}:{n}: writes the store\'s state; call a function of {STORE}: {line.strip()}')
for line in failed:
    print(line, file=sys.stderr)
sys.exit(1 if failed else 0)
