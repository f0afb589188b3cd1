#!/usr/bin/env python3
"""Check the include structure of src/ against docs/ARCHITECTURE.md.

Reads every #include "..." under src/, resolves it to a file, and checks:
  1. no circle of files (a .c and its own .h count as one unit);
  2. no circle of folders (a folder that depends on a folder that
     depends back on it);
  3. every include points down the order of layers that
     docs/ARCHITECTURE.md lists between the lines "<!-- layers -->" and
     "<!-- /layers -->" (one folder per line, top first, as "- src/cli/";
     a folder may include itself and anything listed below it).
Prints each problem on a line and exits 1 when there is one; prints a
summary and exits 0 otherwise. Usage: tools/check-layers.py [REPO]
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def files(src):
    for root, _, names in os.walk(src):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                yield os.path.normpath(os.path.join(root, n))


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    here = os.path.dirname(path)
    for inc in INCLUDE.findall(text):
        yield os.path.normpath(os.path.join(here, inc))


def unit(path):
    """A .c and its .h are one unit (the .h declares what the .c does)."""
    return os.path.splitext(path)[0]


def unit_edges(inc_of):
    """Unit -> units it uses. A header without a .c of its own (types,
    private "-int.h" headers) is no unit: including it means using what
    it includes."""
    has_c = {unit(f) for f in inc_of if f.endswith(".c")}

    def reach(h, seen):
        for inc in inc_of.get(h, ()):
            if inc in seen:
                continue
            seen.add(inc)
            if unit(inc) in has_c:
                yield unit(inc)
            else:
                yield from reach(inc, seen)

    graph = {}
    for f in inc_of:
        if unit(f) not in has_c:
            continue
        for u in reach(f, {f}):
            if u != unit(f):
                graph.setdefault(unit(f), set()).add(u)
    return graph


def folder(path, src):
    """The folder a file belongs to; src/main.c is its own."""
    d = os.path.dirname(path)
    return d if d != src else path


def sccs(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def layers(repo):
    path = os.path.join(repo, "docs", "ARCHITECTURE.md")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", text, re.S)
    if not m:
        return None
    order = []
    for line in m.group(1).splitlines():
        m2 = re.match(r"\s*[-*]\s+`?([\w./-]+?)/?`?(\s|$)", line)
        if m2:
            order.append(os.path.normpath(os.path.join(repo, m2.group(1))))
    return order


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    src = os.path.join(repo, "src")
    problems = []
    folder_graph, edges, inc_of = {}, [], {}
    for f in files(src):
        inc_of.setdefault(f, [])
        for inc in includes(f):
            if not os.path.exists(inc):
                continue  # a system header found by -I, or generated
            edges.append((f, inc))
            inc_of[f].append(inc)
            fa, fb = folder(f, src), folder(inc, src)
            if fa != fb:
                folder_graph.setdefault(fa, set()).add(fb)
    unit_graph = unit_edges(inc_of)
    rel = lambda p: os.path.relpath(p, repo)
    for comp in sccs(unit_graph):
        problems.append("circle of files: " + " <-> ".join(rel(c) for c in comp))
    for comp in sccs(folder_graph):
        problems.append("circle of folders: " + " <-> ".join(rel(c) for c in comp))
    order = layers(repo)
    if order is None:
        problems.append("docs/ARCHITECTURE.md has no <!-- layers --> list")
    else:
        rank = {d: i for i, d in enumerate(order)}

        def rank_of(path):
            d = os.path.dirname(path)
            while d.startswith(src):
                if d in rank:
                    return rank[d], d
                d = os.path.dirname(d)
            return None, None

        for f, inc in edges:
            if f == os.path.join(src, "main.c"):
                continue  # the top: it may use anything
            rf, df = rank_of(f)
            ri, di = rank_of(inc)
            if rf is None:
                problems.append("%s: its folder is not in the layers list" % rel(f))
            elif ri is not None and ri < rf:
                problems.append(
                    "%s includes %s: %s/ is above %s/ in docs/ARCHITECTURE.md"
                    % (rel(f), rel(inc), rel(di), rel(df)))
    for p in sorted(set(problems)):
        print(p)
    if problems:
        return 1
    print("layers ok: %d files, %d includes, %d folders, no circles"
          % (len(list(files(src))), len(edges), len(folder_graph)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
