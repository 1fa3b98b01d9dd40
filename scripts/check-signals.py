#!/usr/bin/env python3
"""check-signals.py [TOP]: part of make check-layers. Holds tools/kiln/
to docs/design.md's "A signal is one file and one table line": the files
that loop over results/signals.c's table (result.c, result_target.c,
restore.c, summary.c, report*.c and ocptv*.c in results/, lab/metrics*.c,
fleet/fleet*.c) call no function of a
signal's own files: the file that fills a `const struct signal_ops
NAME_signal`, and results/NAME_*.c beside it (vitals_text.c and
vitals_html.c are the vitals'). They reach a signal through its hooks,
so a new signal touches its own files and one line of signals.c, not
them.

universal-ctags finds the functions each signal's files define that are
not static (a static one cannot be called from elsewhere anyway); a scan
of the looping files (comments and strings left out) finds every call
of one, said as FILE:LINE: calls NAME (its file). The burn's own steps
(cmd/burn.c, burn_start.c, burn_loop.c, burn_finish.c) are held the same
way against sense/'s functions: they reach SMART, the NVMe logs, the
BMC, the sampler, iperf3 and the stress through each signal's burn hook.
The judging (judge/record.c) is held against the signals' rules: a
function of judge/ that a signal's own files call is that signal's rule,
reached through its judge hook (signals_judge), never by name.
Exit 1 on any, 2 when
universal-ctags cannot be run, 0 quietly when there is no tools/kiln/
results/ to check (a clone without the tester)."""

import json
import os
import re
import shutil
import subprocess
import sys

top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))
src = os.path.join(top, "tools", "kiln")
results = os.path.join(src, "results")
if not os.path.isdir(results):
    sys.exit(0)

# The files that loop over the table and must name no signal: results'
# writers, OCP's output, and (in other folders) the lab's metrics and the
# fleet's readers and pages.
looping = re.compile(
    r"^(result|result_target|restore|summary|report\w*|ocptv\w*)\.c$")
elsewhere = [("lab", re.compile(r"^metrics\w*\.c$")),
             ("fleet", re.compile(r"^fleet\w*\.c$"))]
signal_re = re.compile(r"^const\s+struct\s+signal_ops\s+(\w+)_signal\b", re.M)
strip_re = re.compile(
    r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def say(line):
    print(line, file=sys.stderr)


def text(name, folder=results):
    with open(os.path.join(folder, name), encoding="utf-8",
              errors="replace") as f:
        return f.read()


def stripped(s):
    """s with its comments and strings blanked, its lines kept."""
    return strip_re.sub(lambda m: "\n" * m.group(0).count("\n"), s)


names = sorted(n for n in os.listdir(results) if n.endswith(".c"))
callers = [n for n in names if looping.match(n)]
own = set()
for n in names:
    if n in callers:
        continue
    for sig in signal_re.findall(stripped(text(n))):
        own.add(n)
        own.update(m for m in names if m.startswith(sig + "_") and
                   m not in callers)
own = sorted(own)
if not own:
    sys.exit(0)

ctags = "ctags-universal" if shutil.which("ctags-universal") else "ctags"


def exported(files, cwd):
    """{name: file} of the functions files define that are not static."""
    try:
        out = subprocess.run(
            [ctags, "--output-format=json", "--languages=C",
             "--language-force=C", "--kinds-C=f", "--fields=+nF", "-o",
             "-"] + files, cwd=cwd, capture_output=True, text=True,
            check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        say("check-signals: cannot run universal-ctags (make deps): %s" % e)
        sys.exit(2)
    found = {}
    for line in out.splitlines():
        try:
            t = json.loads(line)
        except ValueError:
            continue
        if t.get("_type") == "tag" and t.get("kind") == "function" and \
                not t.get("file"):
            found[t["name"]] = t["path"]
    return found


# defs[name] = the signal's file that defines it, not static.
defs = exported(own, results)

call_re = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
bad = 0


def calls_of(body, names, where, why):
    """Says each call in body of a function in names, as where:LINE:
    calls NAME (why(NAME)); how many."""
    n = 0
    for ln, line in enumerate(body.split("\n"), 1):
        for m in call_re.finditer(line):
            if m.group(1) in names:
                say("%s:%d: calls %s (%s)" % (where, ln, m.group(1),
                                              why(m.group(1))))
                n += 1
    return n

looped = [("results", n) for n in callers]
for folder, pat in elsewhere:
    d = os.path.join(src, folder)
    if os.path.isdir(d):
        looped += [(folder, n) for n in sorted(os.listdir(d))
                   if pat.match(n)]
for folder, n in looped:
    bad += calls_of(stripped(text(n, os.path.join(src, folder))), defs,
                    "tools/kiln/%s/%s" % (folder, n),
                    lambda f: "results/%s, a signal's own: call it "
                    "through its hook" % defs[f])

# The burn's own steps (cmd/burn.c, burn_start.c, burn_loop.c and
# burn_finish.c) reach the machine's signals through the table's burn
# hooks (signals_burn): they call no function sense/ defines.
sense = os.path.join(src, "sense")
burn = [os.path.join(src, "cmd", n) for n in
        ("burn.c", "burn_start.c", "burn_loop.c", "burn_finish.c")]
burn = [b for b in burn if os.path.exists(b)]
if os.path.isdir(sense) and burn:
    sdefs = exported(sorted(n for n in os.listdir(sense)
                            if n.endswith(".c")), sense)
    for b in burn:
        bad += calls_of(stripped(text(os.path.basename(b),
                                      os.path.dirname(b))), sdefs,
                        "tools/kiln/cmd/%s" % os.path.basename(b),
                        lambda f: "sense/%s: a signal's reader; the burn "
                        "reaches it through its burn hook, signals_burn"
                        % sdefs[f])

# The judging (judge/record.c, record_judge()) reaches each signal's
# rules through its judge hook (signals_judge): it calls no function of
# judge/ that a signal's judge hook calls (the function its `.judge =`
# names), save judge_reason, which every rule writes through.
judge = os.path.join(src, "judge")
judging = [n for n in ("record.c",)
           if os.path.exists(os.path.join(judge, n))]
if os.path.isdir(judge) and judging:
    jdefs = exported(sorted(n for n in os.listdir(judge)
                            if n.endswith(".c") and n not in judging), judge)
    rules = {}
    hook_re = re.compile(r"^\s*\.judge\s*=\s*(\w+)", re.M)
    for n in own:
        body = stripped(text(n))
        for hook in hook_re.findall(body):
            m = re.search(r"^\w[^;{]*\b%s\s*\([^;{]*\)\s*\{(.*?)^\}"
                          % hook, body, re.M | re.S)
            for c in call_re.finditer(m.group(1) if m else ""):
                if c.group(1) in jdefs and c.group(1) != "judge_reason":
                    rules.setdefault(c.group(1), n)
    for n in judging:
        bad += calls_of(stripped(text(n, judge)), rules,
                        "tools/kiln/judge/%s" % n,
                        lambda f: "judge/%s, the rule of the signal in "
                        "results/%s: call it through its judge hook"
                        % (jdefs[f], rules[f]))

if bad:
    say("check-signals: %d call(s) by name of a signal's own file or "
        "rule where its hooks reach it (docs/design.md)" % bad)
sys.exit(1 if bad else 0)
