#!/usr/bin/env python3
"""check-circles.py [TOP]: part of make check-layers. Holds tools/kiln/ to
docs/design.md's rule that no files call each other in a circle, judged on
where functions are defined and used, not on includes (a _private.h shared
by two files passes any include check however they call each other).

universal-ctags finds every function and variable each file defines (and
whether it is static); a scan of each .c file (comments, strings,
character constants and struct members left out) finds every name it
uses. A uses B when A names a function or variable B defines and does
not itself define as static: a call, or the function handed over as a
callback. A static inline function of a header is the header's own (a
call to it is no call into a .c file), and only its body is scanned. The
files and their uses make a directed graph; each strongly connected part
of more than one file is a circle, said with its files and a shortest
chain of uses that closes it, e.g.

    circle: base/a.c base/b.c (cut it, see docs/design.md)
      tools/kiln/base/a.c:12: calls b_do (base/b.c)
      tools/kiln/base/b.c:30: calls a_back (base/a.c)

scripts/circles.known lists, one a line, the circles not yet cut (the
files of each, in any order; # starts a comment): a circle not there
fails, and so does a line there no circle matches any more, so the list
only shrinks. A variable that can change, defined in one file and named
in another, fails too: no global is read across files (a constant table
may be). CIRCLES_GRAPH=1 prints every use, for a look. Exit 1 on any
break, 2 when universal-ctags cannot be run."""

import json
import os
import re
import shutil
import subprocess
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
src = os.path.join(top, "tools", "kiln")
known_path = os.path.join(top, "scripts", "circles.known")


def say(line):
    print(line, file=sys.stderr)


files = []
for d, _, names in os.walk(src):
    for n in names:
        if n.endswith((".c", ".h")):
            files.append(os.path.relpath(os.path.join(d, n), src))
files.sort()

# Debian's universal-ctags is ctags-universal; ctags may be another one.
ctags = "ctags-universal" if shutil.which("ctags-universal") else "ctags"
try:
    out = subprocess.run(
        [ctags, "--output-format=json", "--languages=C",
         "--language-force=C", "--kinds-C=fvm", "--fields=+neF", "-o", "-"]
        + files, cwd=src, capture_output=True, text=True, check=True).stdout
except (OSError, subprocess.CalledProcessError) as e:
    say("check-circles: cannot run universal-ctags (make deps): %s" % e)
    sys.exit(2)


# defs[name] = [(file, line, kind)] of names not static (and a header's
# inline functions); local[file] = the static names a .c file defines,
# which hide another file's.
defs = {}
local = {}
bodies = {}  # header -> [(start, end)] of its inline functions
members = set()  # struct members' names: F(stress_memory) is no use
tags = []
for line in out.splitlines():
    try:
        t = json.loads(line)
    except ValueError:
        continue
    if t.get("_type") != "tag":
        continue
    path, name, kind = t["path"], t["name"], t["kind"]
    if kind == "member":
        members.add(name)
        continue
    if path.endswith(".h"):
        if kind != "function":
            continue
        bodies.setdefault(path, []).append((t["line"], t.get("end", t["line"])))
    tags.append(t)


def source(path):
    with open(os.path.join(src, path), encoding="utf-8",
              errors="replace") as f:
        return strip_re.sub(blank, f.read())


def static_var(lines, n):
    """Whether the variable declared on line N is static: ctags misses a
    "static const struct {" a few lines above its "} name[] = {"."""
    if lines[n - 1].startswith("static"):
        return True
    if not lines[n - 1].startswith("}"):
        return False
    for l in reversed(lines[:n - 1]):
        if l[:1] not in ("", "\t", " ", "}", "{"):
            return l.startswith("static")
    return False


def mutable(typeref):
    """A variable whose value can change: not "const T" nor "T *const"."""
    t = typeref.split(":", 1)[-1]
    if "*" in t:
        return not re.search(r"\*\s*const\b[^*]*$", t)
    return not re.match(r"(volatile\s+)?const\b", t) and " const" not in t


texts = {}

# Strip comments, strings and character constants, keeping lines.
strip_re = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m):
    s = m.group(0)
    if s.startswith(("/", )):
        return "\n" * s.count("\n") if s.startswith("/*") else ""
    return s[0] + s[0]


ident_re = re.compile(r"(\.|->)?\s*\b([A-Za-z_]\w*)\b(\s*\()?")
skip_after = {"struct", "union", "enum"}

for t in tags:
    path, name, kind = t["path"], t["name"], t["kind"]
    if kind == "variable" and not t.get("file"):
        if path not in texts:
            texts[path] = source(path).split("\n")
        if static_var(texts[path], t["line"]):
            t["file"] = True
    if t.get("file") and path.endswith(".c"):
        local.setdefault(path, set()).add(name)
        continue
    defs.setdefault(name, []).append(
        (path, t["line"], "global" if kind == "variable"
         and mutable(t.get("typeref", "")) else kind))

# uses[a][b] = (line, name, called?) of the first use of B in A.
uses = {}
globals_read = []
seen = set()
for path in files:
    node = path
    lines = texts.get(path) or source(path).split("\n")
    if path.endswith(".h"):
        keep = set()
        for s, e in bodies.get(path, []):
            keep.update(range(s, e + 1))
        if not keep:
            continue
    hidden = local.get(node, set())
    prev = None
    for ln, l in enumerate(lines, 1):
        if path.endswith(".h") and ln not in keep:
            continue
        for m in ident_re.finditer(l):
            member, name, call = m.group(1), m.group(2), m.group(3)
            after, prev = prev, name
            if member or after in skip_after or name in hidden:
                continue
            if not call and name in members:
                continue
            for (b, dline, kind) in defs.get(name, ()):
                if b == node:
                    break
            else:
                for (b, dline, kind) in defs.get(name, ())[:1]:
                    verb = "calls" if call else "names"
                    if kind == "global":
                        verb = "reads"
                        if (path, name) not in seen:
                            seen.add((path, name))
                            globals_read.append((path, ln, name, b))
                    uses.setdefault(node, {}).setdefault(
                        b, (path, ln, name, verb))

if os.environ.get("CIRCLES_GRAPH"):
    for a in sorted(uses):
        for b in sorted(uses[a]):
            print("%s -> %s  %s:%d %s %s" % ((a, b) + uses[a][b]))

# Tarjan's strongly connected components, iteratively.
nodes = sorted(set(uses) | {b for a in uses for b in uses[a]})
index, low, onstack, stack, comps = {}, {}, set(), [], []
counter = [0]
for root in nodes:
    if root in index:
        continue
    work = [(root, iter(sorted(uses.get(root, {}))))]
    index[root] = low[root] = counter[0]
    counter[0] += 1
    stack.append(root)
    onstack.add(root)
    while work:
        v, it = work[-1]
        for w in it:
            if w not in index:
                index[w] = low[w] = counter[0]
                counter[0] += 1
                stack.append(w)
                onstack.add(w)
                work.append((w, iter(sorted(uses.get(w, {})))))
                break
            if w in onstack:
                low[v] = min(low[v], index[w])
        else:
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    onstack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))


def cycle(comp):
    """A shortest circle of comp, as its uses."""
    best = None
    for start in comp:
        c = cycle_from(start, set(comp))
        if c and (best is None or len(c) < len(best)):
            best = c
    return best or []


def cycle_from(start, inside):
    """A shortest circle through START within INSIDE, as its uses."""
    prev, queue = {start: None}, [start]
    for v in queue:
        for w in sorted(uses.get(v, {})):
            if w not in inside:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                path.reverse()
                path.append(start)
                return [(path[i], path[i + 1]) for i in range(len(path) - 1)]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return []


known = []
try:
    with open(known_path, encoding="utf-8") as f:
        for n, l in enumerate(f, 1):
            l = l.split("#", 1)[0].split()
            if l:
                known.append((n, frozenset(l)))
except FileNotFoundError:
    pass

bad = 0
found = set()
for comp in sorted(comps, key=lambda c: (-len(c), c)):
    found.add(frozenset(comp))
    if frozenset(comp) in {k for _, k in known}:
        continue
    say("circle: " + " ".join(comp) + " (cut it, see docs/design.md)")
    for a, b in cycle(comp):
        path, ln, name, verb = uses[a][b]
        say("  tools/kiln/%s:%d: %s %s (%s)" % (path, ln, verb, name, b))
    bad += 1
for n, k in known:
    if k not in found:
        say("scripts/circles.known:%d: %s: no longer a circle (take the line out)"
            % (n, " ".join(sorted(k))))
        bad += 1
for path, ln, name, b in globals_read:
    say("tools/kiln/%s:%d: reads %s, a global of %s: no global is read "
        "across files (make it a function of %s, or pass it)"
        % (path, ln, name, b, b))
    bad += 1
if bad:
    say("check-circles: %d break(s) of the no-circles rule" % bad)
sys.exit(1 if bad else 0)
