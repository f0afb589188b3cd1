#!/usr/bin/env python3
"""Reads every line iotrial printed in a journey and fails on lines that
contradict each other.

A journey (tests/journeys/NNN_*.sh) runs iotrial through lib.sh's `it`,
which keeps each command's arguments, what it printed and the files it
wrote in a directory (transcript.py reads it back). The rules below are
applied to all of it; each prints one TAP line, "ok - lines: ..." or
"not ok - lines: ...", with what it found under it as "#" lines.

    lines.py DIR          check a journey's transcript
    lines.py --self-test  feed every rule lines that must trip it and
                          the same lines made consistent
                          (lines_selftest.py)

The rules (RULES) are about what a reader can check with a pencil: two
numbers that cannot both be true, a verdict its own interval denies, an
error that recommends what it has just refused.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from transcript import NUM, Facts, docs_of, load  # noqa: E402

ALPHA = 0.05
MARGIN = 0.02  # --equivalence default

# --- the rules ---------------------------------------------------------------

def rule_memory_share(steps, docs, facts):
    """What reached the device and what came from memory add up to at most
    100% of what the workload read; a run's summary and its warning give
    the same page-cache share."""
    bad = []
    pat = re.compile(r"delivered [^()]*\((" + NUM + r")%\), so (at least )?("
                     + NUM + r")% came from memory")
    for d in docs:
        for line in d.lines:
            for m in pat.finditer(line):
                dev, mem = float(m.group(1)), float(m.group(3))
                if mem > max(0.0, 100.0 - dev) + 1.0:
                    bad.append("%.1f%% reached the device and %s%.1f%% came "
                               "from memory: %s" % (dev, m.group(2) or "", mem,
                                                    d.where(line)))
    for st in steps:
        if not st.args or st.args[0] != "run":
            continue
        pc = re.findall(r"from the page cache: (" + NUM + r")%", st.out)
        mems = pat.findall(st.out + "\n" + st.err)
        if len(pc) != 1 or len(mems) != 1:
            continue
        p, (dev, least, mem) = float(pc[0]), mems[0]
        if float(mem) > p + 1.5 or (not least and abs(float(mem) - p) > 1.5):
            bad.append("the summary says %.0f%% came from the page cache, the "
                       "warning %s%s%%: '%s'" % (p, least, mem, st.name()))
    return bad


def rule_verdict_ci(steps, docs, facts):
    """A verdict agrees with its CI and p: faster/slower only with p below
    0.05 and a CI on that side of 1; equivalent only with the CI inside the
    margin; inconclusive only when neither holds."""
    bad = []
    for c in facts.cmps:
        if not (c.verdict and c.lo and c.hi):
            continue
        lo, hi = c.lo[0], c.hi[0]
        tl, th = c.lo[1], c.hi[1]
        p = c.p[0] if c.p else None
        tp = c.p[1] if c.p else 0
        higher = facts.higher.get(c.exp, True)
        m = facts.margin.get(c.exp, MARGIN)
        above = lo - tl > 1.0   # the CI is surely above 1
        below = hi + th < 1.0
        touches = lo + tl <= 1.0 <= hi - th  # surely contains 1
        signif = p is not None and p + tp < ALPHA
        inside = lo - tl >= 1 - m and hi + th <= 1 + m
        outside = lo + tl < 1 - m or hi - th > 1 + m
        v = c.verdict
        why = None
        if v in ("faster", "slower"):
            good = above if (v == "faster") == higher else below
            if touches or not (above or below):
                why = "its CI contains 1"
            elif not good and (above or below):
                why = "its CI is on the other side of 1 (%s is better)" % (
                    "higher" if higher else "lower")
            elif p is not None and p - tp >= ALPHA:
                why = "its p is not below %.2f" % ALPHA
        elif v == "equivalent":
            if outside:
                why = "its CI reaches outside ±%g%%" % (100 * m)
            elif signif and (above or below):
                why = "p < %.2f and a CI that excludes 1 make it %s" % (
                    ALPHA, "faster or slower")
        elif v == "inconclusive":
            if signif and (above or below):
                why = "p < %.2f and a CI that excludes 1 is a verdict" % ALPHA
            elif inside and not (signif and (above or below)):
                why = "its CI lies inside ±%g%%: equivalent" % (100 * m)
        if why:
            bad.append("'%s' %s: %s; %s" % (c.label, v, why,
                                           c.doc.where(c.line)))
    return bad


def _close(a, b):
    return abs(a[0] - b[0]) <= a[1] + b[1] + 1e-9


def _round3(x):
    return round(float(x), 3)


def rule_one_p(steps, docs, facts):
    """One comparison (an arm against a base, in one experiment) has one p,
    wherever it is printed: the effects table, the arm table, a report, the
    JSON."""
    bad = []
    seen = {}
    for c in facts.cmps:
        if c.p is None or c.exp is None or c.label is None:
            continue
        base = facts.base_of(c)
        if base is None:
            continue
        seen.setdefault((c.exp, c.label, base), []).append(c)
    # a report that prints one pair in two tables, each adjusted over its
    # own family, says so: "... two p values: at X (raw p R): P here, Q
    # in the arm table"; such a pair of p values is explained, not two
    explained = set()
    for d in docs:
        for line in d.lines:
            if "two p values" not in line:
                continue
            for m in re.finditer(r"(<?[0-9.e-]+) here, (<?[0-9.e-]+) in the "
                                 r"arm table", line):
                explained.add((None, m.group(1).lstrip("<"),
                               m.group(2).lstrip("<")))
    def said(a, b):
        for _, here, there in explained:
            try:
                h, t = float(here), float(there)
            except ValueError:
                continue
            if {_round3(a.p[0]), _round3(b.p[0])} == {_round3(h),
                                                      _round3(t)}:
                return True
        return False
    for k, cs in seen.items():
        # the pair a reader sees first: two printed texts before the JSON
        cs.sort(key=lambda c: c.doc.kind == "json")
        pairs = [(a, b) for i, a in enumerate(cs) for b in cs[i + 1:]
                 if not _close(a.p, b.p) and not said(a, b)]
        if pairs:
            a, b = pairs[0]
            bad.append("'%s' against '%s' in experiment %s: p %g (%s) but "
                       "p %g (%s)" % (k[1], k[2], k[0], a.p[0],
                                      a.doc.where(a.line), b.p[0],
                                      b.doc.where(b.line)))
    return bad


def rule_text_json(steps, docs, facts):
    """An arm's ratio, CI and verdict are the same in every output that
    prints them (text, Markdown, HTML, export headers, log) and in the
    JSON, within the rounding of what is printed."""
    bad = []
    seen = {}
    for c in facts.cmps:
        if c.exp is None or c.label is None or c.ratio is None:
            continue
        base = facts.base_of(c)
        seen.setdefault((c.exp, c.label, base), []).append(c)
    for (exp, label, base), cs in seen.items():
        ref = next((c for c in cs if c.doc.kind == "json"), cs[0])
        for c in cs:
            if c is ref:
                continue
            for what, a, b in (("ratio", ref.ratio, c.ratio),
                               ("CI low", ref.lo, c.lo),
                               ("CI high", ref.hi, c.hi)):
                if a and b and not _close(a, b):
                    bad.append("'%s' in experiment %s: %s %g in %s, %g in %s"
                               % (label, exp, what, a[0],
                                  ref.doc.where(ref.line), b[0],
                                  c.doc.where(c.line)))
                    break
            else:
                strict = {"--strict" in x.doc.step.args for x in (ref, c)}
                if ref.verdict and c.verdict and ref.verdict != c.verdict \
                        and len(strict) == 1:
                    bad.append("'%s' in experiment %s: '%s' in %s, '%s' in %s"
                               % (label, exp, ref.verdict,
                                  ref.doc.where(ref.line), c.verdict,
                                  c.doc.where(c.line)))
    return bad


def size_re():
    return r"\d+(?:\.\d+)?(?:[KMGTPkmgtp](?:i?B)?|B)?"


def advice_templates(clause):
    """The targets an error's advice clause recommends, as regular
    expressions: scratch:SIZE, scratch:SIZE:ext4, scratch:SIZE[:FS], ..."""
    out = []
    for m in re.finditer(r"scratch:SIZE((?:\[:[A-Za-z0-9|]+\])|(?::[A-Za-z0-9|]+))?",
                         clause):
        fs = m.group(1) or ""
        names = re.findall(r"[A-Za-z0-9]+", fs)
        names = ["ext4", "xfs"] if not names or "FS" in names else names
        alt = "(?:" + "|".join(map(re.escape, names)) + ")"
        if not fs:
            out.append("scratch:" + size_re())
        elif fs.startswith("["):
            out.append("scratch:" + size_re() + "(?::" + alt + ")?")
        else:
            out.append("scratch:" + size_re() + ":" + alt)
    return out


def rule_refusal_advice(steps, docs, facts):
    """An error never recommends what the command just gave: a refused
    target that fits the form the error asks for (scratch:SIZE after
    -t scratch:1G), or an argument the advice quotes as the fix."""
    bad = []
    for st in steps:
        target = st.opt("-t", "--target")
        for line in (st.err + "\n" + st.out).splitlines():
            if not line.startswith("error:"):
                continue
            m = re.search(r"\b(give|use|try|pass|name)\b(.*)$", line)
            if not m:
                continue
            clause = re.split(r",? not '", m.group(2))[0]
            if target:
                for t in advice_templates(clause):
                    if re.fullmatch(t, target):
                        bad.append("'%s' was refused, and the error asks for "
                                   "%s: %s" % (target, t.split("\\")[0] +
                                               "SIZE...", line.strip()[:240])
                                   + " ('%s')" % st.name())
                        break
                if re.search(r"\ba directory\b", clause) and \
                        os.path.isdir(target):
                    bad.append("the directory '%s' was refused, and the error "
                               "asks for a directory: %s" % (target, line[:240]))
            for q in re.findall(r"'([^']+)'", clause):
                if q in st.args[1:] and q != target and len(q) > 2:
                    bad.append("the error recommends '%s', which the command "
                               "gave: %s ('%s')" % (q, line.strip()[:200],
                                                   st.name()))
    return bad


def rule_ra_units(steps, docs, facts):
    """read_ahead_kb is shown in KiB: a value asked in 512-byte sectors
    (4096s) never comes back as that number of KiB (4096) on the devices
    the journey set it on."""
    sectors, kib = set(), set()
    for st in steps:
        for a in st.args:
            for m in re.finditer(r"read_ahead_kb=([^\s]+)", a):
                for v in m.group(1).split(","):
                    if re.fullmatch(r"\d+s", v):
                        sectors.add(v[:-1])
                    elif re.fullmatch(r"\d+", v):
                        kib.add(v)
    sectors -= kib
    if not sectors:
        return []
    bad = []
    after = re.compile(r"read_ahead_kb['\"}\])]*(?:\s*[=:]\s*|\s+)['\"]?(\d+)"
                       r"(?![\d.]|s\b| ?sectors)")
    before = re.compile(r"(\d+)['\"]?\s*>\s*['\"]?\S*read_ahead_kb")
    kib_pat = re.compile(r"(?<![\d.])(\d+) KiB")
    for d in docs:
        dev = None
        for line in d.lines:
            h = re.match(r"^\s+(\S+) \((\w+)[,)]", line)
            if h:
                dev = h.group(1)
            if "read_ahead_kb" not in line:
                continue
            if re.match(r"^\s+scheduler \S+, read_ahead_kb", line) and \
                    not (dev or "").startswith("loop"):
                continue  # a disk under the journey's loop device
            vals = after.findall(line) + before.findall(line)
            if "'read_ahead_kb'" in line or re.match(r"^read_ahead_kb\s", line):
                vals += kib_pat.findall(line)
            for v in vals:
                if v in sectors:
                    bad.append("%s sectors were asked, and read_ahead_kb shows "
                               "%s: %s" % (v, v, d.where(line)))
                    break
    return bad


def rule_counts(steps, docs, facts):
    """No count of flagged, warned or outlying runs exceeds the runs it is
    a count of, nor the arm's runs in the table."""
    bad = []

    def n_of(exp, label):
        return (facts.arms.get(exp) or {}).get(label)

    def total(exp):
        a = facts.arms.get(exp) or {}
        return sum(a.values()) if a and None not in a.values() else None
    for d in docs:
        exp = facts.doc_exp(d)
        labels = sorted((facts.arms.get(exp) or {}), key=len, reverse=True)
        for line in d.lines:
            subj = None
            m = re.match(r"^\s*(?:\* |⚠ suspect:? |⚠ )(.*)$", line)
            if m:
                subj = next((l for l in labels if m.group(1).startswith(l + ":")),
                            None)
            for m in re.finditer(r"(\d+) of (\d+) runs? of the arm", line):
                k, of = int(m.group(1)), int(m.group(2))
                n = n_of(exp, subj) if subj else None
                if k > of or (n is not None and of > n):
                    bad.append("%d of %d runs of '%s' (n %s): %s" % (
                        k, of, subj, n, d.where(line)))
            for m in re.finditer(r"(\d+) of (\d+) (?:runs )?of (?:the baseline )?"
                                 r"'([^']*)'", line):
                k, of, lab = int(m.group(1)), int(m.group(2)), m.group(3)
                n = n_of(exp, lab)
                if k > of or (n is not None and of > n):
                    bad.append("%d of %d runs of '%s' (n %s): %s" % (
                        k, of, lab, n, d.where(line)))
            for m in re.finditer(r"arm '([^']*)': (\d+) of (\d+) runs warned",
                                 line):
                lab, k, of = m.group(1), int(m.group(2)), int(m.group(3))
                n = n_of(exp, lab)
                if k > of or (n is not None and of > n):
                    bad.append("%d of %d runs of '%s' warned (n %s): %s" % (
                        k, of, lab, n, d.where(line)))
            for m in re.finditer(r"arm '([^']*)': (\d+) run\(s\) are outliers",
                                 line):
                n = n_of(exp, m.group(1))
                if n is not None and int(m.group(2)) > n:
                    bad.append("%s outliers among %d runs: %s" % (
                        m.group(2), n, d.where(line)))
            for m in re.finditer(r"(?:median of|none of its|of its) (\d+) runs",
                                 line):
                t = total(exp)
                if t is not None and int(m.group(1)) > t:
                    bad.append("%s runs of an experiment of %d: %s" % (
                        m.group(1), t, d.where(line)))
            for m in re.finditer(r"\b(\d+) of (\d+) runs\b", line):
                if int(m.group(1)) > int(m.group(2)):
                    bad.append("%s of %s runs: %s" % (m.group(1), m.group(2),
                                                      d.where(line)))
        o = getattr(d, "json", None)
        if d.kind == "json" and isinstance(o, dict) and o.get("type") == \
                "experiment":
            for v in (o.get("verdicts") or []) + (o.get("effects") or []):
                for s in v.get("suspect") or []:
                    n = n_of(o.get("id"), s.get("label"))
                    if s.get("runs", 0) > s.get("of", 0) or \
                            (n is not None and s.get("of", 0) > n):
                        bad.append("suspect %s: %s of %s runs of '%s' (n %s) "
                                   "in %s" % (s.get("kind"), s.get("runs"),
                                              s.get("of"), s.get("label"), n,
                                              d.where()))
    return bad


def rule_legacy_allowed(steps, docs, facts):
    """A legacy name a knob lists is translated to a value that knob
    allows here (knobs: 'cfq -> bfq' beside 'allowed: none mq-deadline')."""
    bad = []
    for d in docs:
        allowed = None
        for line in d.lines:
            if re.match(r"^\S", line):
                allowed = None
            m = re.match(r"^\s+allowed: ([a-z][\w-]*(?: [a-z][\w-]*)*)\s*$", line)
            if m:
                allowed = set(m.group(1).split())
            m = re.search(r"legacy names are translated: (.*)$", line)
            if m and allowed:
                for old, new in re.findall(r"([\w.-]+) -> ([\w.-]+)", m.group(1)):
                    if new not in allowed:
                        bad.append("'%s' translates to '%s', which is not in "
                                   "'allowed: %s': %s" % (
                                       old, new, " ".join(sorted(allowed)),
                                       d.where(line)))
        o = getattr(d, "json", None)
        if d.kind == "json" and isinstance(o, dict):
            for k in o.get("knobs") or []:
                allow = set(str(k.get("allowed", "")).split())
                if not allow or not all(re.fullmatch(r"[a-z][\w-]*", a)
                                        for a in allow):
                    continue
                for note in k.get("notes") or []:
                    m = re.search(r"legacy names are translated: (.*)$", note)
                    for old, new in re.findall(r"([\w.-]+) -> ([\w.-]+)",
                                               m.group(1) if m else ""):
                        if new not in allow:
                            bad.append("'%s' translates to '%s', not allowed "
                                       "(%s) in %s" % (old, new, " ".join(
                                           sorted(allow)), d.where()))
    return bad


RULES = [
    ("memory", "what reached the device and what came from memory add up "
     "to 100% at most", rule_memory_share),
    ("verdict", "every verdict agrees with its CI, p and margin",
     rule_verdict_ci),
    ("p", "one comparison, one p", rule_one_p),
    ("advice", "no error recommends what it refused", rule_refusal_advice),
    ("units", "read_ahead_kb never shows a sector count as KiB",
     rule_ra_units),
    ("ratios", "ratios, CIs and verdicts agree between text and JSON",
     rule_text_json),
    ("counts", "no count of flagged runs exceeds the runs", rule_counts),
    ("legacy", "a legacy name translates to a value the knob allows",
     rule_legacy_allowed),
]


def check(steps):
    """Apply every rule; print a TAP line each; True when all passed."""
    docs = docs_of(steps)
    facts = Facts(docs)
    nlines = sum(len(d.lines) for d in docs)
    print("# read %d lines of %d commands (%d comparisons)" % (
        nlines, len(steps), len(facts.cmps)))
    good = True
    for key, desc, fn in RULES:
        bad = fn(steps, docs, facts)
        if bad:
            good = False
            print("not ok - lines: %s (%d)" % (desc, len(bad)))
            for b in bad[:6]:
                print("#   " + b.replace("\n", " "))
        else:
            print("ok - lines: %s" % desc)
    return good


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        import lines_selftest
        return 0 if lines_selftest.self_test(RULES) else 1
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: lines.py DIR | --self-test\n")
        return 2
    return 0 if check(load(argv[1])) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
