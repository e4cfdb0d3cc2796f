#!/usr/bin/env python3
"""Fails when the pages' modules (src/web/static/*.js) import each other in a circle: every module
must be loadable after the ones it imports, so that each can be read (and tested) from the bottom
up. Prints each circle found, as the modules that form it."""
import glob
import os
import re
import sys

IMPORT = re.compile(r"^import\s[^;]*?from\s+'\./([\w.-]+\.js)';", re.MULTILINE | re.DOTALL)
graph = {}
for path in sorted(glob.glob('src/web/static/*.js')):
    graph[os.path.basename(path)] = sorted(set(IMPORT.findall(open(path).read())))

# Tarjan's strongly connected components: a component of more than one module is a circle.
index, low, stack, on_stack, circles = {}, {}, [], set(), []


def visit(node):
    index[node] = low[node] = len(index)
    stack.append(node)
    on_stack.add(node)
    for nxt in graph.get(node, []):
        if nxt not in index:
            visit(nxt)
            low[node] = min(low[node], low[nxt])
        elif nxt in on_stack:
            low[node] = min(low[node], index[nxt])
    if low[node] == index[node]:
        component = []
        while True:
            top = stack.pop()
            on_stack.discard(top)
            component.append(top)
            if top == node:
                break
        if len(component) > 1 or node in graph.get(node, []):
            circles.append(sorted(component))


sys.setrecursionlimit(10000)
for module in graph:
    if module not in index:
        visit(module)
for c in circles:
    print(f'src/web/static: these modules import each other in a circle: {", ".join(c)}', file=sys.stderr)
missing = [(m, n) for m, deps in graph.items() for n in deps if n not in graph]
for m, n in missing:
    print(f'src/web/static/{m}: imports ./{n}, which does not exist', file=sys.stderr)
sys.exit(1 if circles or missing else 0)
