#!/usr/bin/env python3
"""Fails when the pages' modules (src/web/static/*.js) import each other in a circle, or when a
module imports from a tier its own may not: the tiers are the table under "The people's page" in
docs/architecture.md (data, base, state, views, pages; a module it does not name is a view when
its name starts with chat-). Every module must be loadable after the ones it imports, so that each
can be read (and tested) from the bottom up."""
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

# The tiers, as docs/architecture.md writes them.
DOC = 'docs/architecture.md'
tier_of, may = {}, {}
for line in open(DOC).read().split("\n## The people's page", 1)[-1].splitlines():
    cells = [c.strip() for c in line.split('|')]
    if len(cells) == 5 and cells[1] in ('data', 'base', 'state', 'views', 'pages'):
        for module in re.findall(r'`([\w.-]+\.js)`', cells[2]):
            tier_of[module] = cells[1]
        may[cells[1]] = set() if cells[3] == 'nothing' else {t.strip() for t in cells[3].split(',')}
if len(may) != 5:
    print(f'{DOC}: the tiers of the pages\' modules were not found', file=sys.stderr)
    sys.exit(1)
unplaced = []
for module in graph:
    if module not in tier_of:
        if module.startswith('chat-'):
            tier_of[module] = 'views'
        else:
            unplaced.append(module)
for m in unplaced:
    print(f'src/web/static/{m}: in no tier of {DOC}', file=sys.stderr)
climbs = [(m, n) for m, deps in graph.items() for n in deps
          if m in tier_of and n in tier_of and tier_of[n] not in may[tier_of[m]]]
for m, n in climbs:
    print(f'src/web/static/{m} ({tier_of[m]}): imports ./{n} ({tier_of[n]}), which its tier may not', file=sys.stderr)
sys.exit(1 if circles or missing or unplaced or climbs else 0)
