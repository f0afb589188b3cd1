"""What iotrial printed in a journey, read back: the transcript lib.sh's
`it` keeps (NNN.args with the arguments NUL-separated, NNN.out, NNN.err,
NNN.rc, and copies of the files the command wrote, named in NNN.files),
as Steps; each text as a Doc (text, Markdown, HTML or JSON); and the
Facts they state about experiments: arms and their run counts, the
baseline, which way is better, the equivalence margin, and every
comparison (an arm against a base, its ratio, CI, p and verdict) as each
output prints it. lines.py checks these against each other.
"""
import json
import os
import re
from html.parser import HTMLParser

VERDICTS = ("faster", "slower", "equivalent", "inconclusive", "no verdict",
            "suspect")

class Step:
    """One iotrial command of a journey: its arguments, what it printed
    (out, err), its exit status and the documents it wrote (files, a
    name -> text map, for -o and --json=FILE)."""

    def __init__(self, args, out="", err="", rc=0, files=None, n=0):
        self.args = list(args)
        self.out = out
        self.err = err
        self.rc = rc
        self.files = dict(files or {})
        self.n = n

    def name(self):
        """The command as a reader would type it, shortened."""
        s = "iotrial " + " ".join(a if re.match(r"^[\w@%+=:,./-]+$", a)
                                  else "'" + a + "'" for a in self.args)
        return s if len(s) <= 120 else s[:117] + "..."

    def opt(self, *names):
        """The value of the first of the options names given (as
        --name VALUE or --name=VALUE), or None."""
        for i, a in enumerate(self.args):
            if a == "--":
                break
            for n in names:
                if a == n and i + 1 < len(self.args):
                    return self.args[i + 1]
                if n.startswith("--") and a.startswith(n + "="):
                    return a[len(n) + 1:]
        return None

    def fmt(self):
        """The output format asked with -f/--format (report, export)."""
        return self.opt("-f", "--format")


class Doc:
    """One text a step printed or wrote: kind is text, md, html or json."""

    def __init__(self, step, source, kind, text):
        self.step = step
        self.source = source
        self.kind = kind
        self.text = text
        self.lines = text.splitlines()

    def where(self, line=None):
        s = "%s (%s of '%s')" % (self.source, self.kind, self.step.name())
        return s + (": " + line.strip()[:240] if line is not None else "")


def load(d):
    """The steps kept in directory d, in the order they ran."""
    steps = []
    for f in sorted(os.listdir(d)):
        if not f.endswith(".args"):
            continue
        base = os.path.join(d, f[:-5])

        def rd(ext):
            try:
                with open(base + ext, encoding="utf-8", errors="replace") as fh:
                    return fh.read()
            except OSError:
                return ""
        args = [a for a in rd(".args").split("\0")]
        if args and args[-1] == "":
            args.pop()
        rc = rd(".rc").strip()
        st = Step(args, rd(".out"), rd(".err"), int(rc) if rc else -1,
                  n=int(f[:-5]) if f[:-5].isdigit() else 0)
        for entry in rd(".files").splitlines():
            copy, _, path = entry.partition("\t")
            try:
                with open(os.path.join(d, copy), encoding="utf-8", errors="replace") as fh:
                    st.files[path] = fh.read()
            except OSError:
                pass
        steps.append(st)
    return steps


def docs_of(steps):
    """Every text the steps printed or wrote, with its kind."""
    docs = []
    for st in steps:
        f = st.fmt()
        kind = {"md": "md", "html": "html", "json": "json"}.get(f, "text")
        if st.opt("--json") is None and "--json" in st.args:
            kind = "json"
        docs.append(Doc(st, "stdout", kind, st.out))
        docs.append(Doc(st, "stderr", "text", st.err))
        for path, text in st.files.items():
            k = "json" if path == st.opt("--json") else kind
            if k == "json" and not text.lstrip().startswith(("{", "[")):
                k = "text"
            docs.append(Doc(st, path, k, text))
    for d in docs:
        if d.kind == "html":
            d.tables, text = html_parse(d.text)
            d.lines = text.splitlines()
        elif d.kind == "md":
            d.lines = [md_unescape(l) for l in d.lines]
        elif d.kind == "json":
            try:
                d.json = json.loads(d.text)
            except ValueError:
                d.json = None
    return docs


def md_unescape(s):
    return re.sub(r"\\([\\`*_{}\[\]()#+\-.!|<>~])", r"\1", s)


class _Html(HTMLParser):
    """An HTML page as text lines and tables of cell texts; svg, style
    and script are left out."""
    BLOCK = {"p", "div", "h1", "h2", "h3", "h4", "li", "tr", "table", "br",
             "pre", "title", "section", "ul", "ol", "thead", "tbody"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = []
        self.tables = []
        self.row = None
        self.cell = None
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("svg", "style", "script"):
            self.skip += 1
        elif tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []
        if tag in self.BLOCK:
            self.text.append("\n")

    def handle_endtag(self, tag):
        if tag in ("svg", "style", "script"):
            self.skip = max(0, self.skip - 1)
        elif tag in ("td", "th") and self.cell is not None:
            if self.row is not None:
                self.row.append("".join(self.cell).strip())
            self.cell = None
            self.text.append("  ")
        elif tag == "tr" and self.row is not None:
            if self.tables:
                self.tables[-1].append(self.row)
            self.row = None
        if tag in self.BLOCK:
            self.text.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)


def html_parse(text):
    p = _Html()
    p.feed(text)
    return p.tables, re.sub(r"\n\s*\n+", "\n", "".join(p.text))


# --- what the outputs say about experiments ---------------------------------

NUM = r"\d+(?:\.\d+)?"


def num(s):
    """A printed number with the half-unit of its last digit, or None."""
    s = s.strip()
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?", s)
    if not m:
        return None
    dp = len(m.group(2) or "")
    return (float(s), 0.5 * 10 ** -dp)


def label_items(label):
    """A label's factors: [(name, {value, asked value})], as
    'read_ahead_kb=2048 (asked: 4096s) atime=noatime' gives
    [('read_ahead_kb', {'2048', '4096s'}), ('atime', {'noatime'})]. A
    value may hold spaces (bdflush=40 0 0 0 ..., cmd=sleep 1)."""
    starts = [m.start(1) for m in
              re.finditer(r"(?:^| )([A-Za-z_][\w.:/-]*)=", label)]
    items = []
    for i, s in enumerate(starts):
        part = label[s:starts[i + 1] if i + 1 < len(starts) else len(label)]
        name, _, value = part.strip().partition("=")
        vals = set()
        m = re.fullmatch(r"(.*?) \(asked: ([^)]*)\)", value)
        if m:
            value = m.group(1)
            vals.add(m.group(2).strip())
        vals.add(value.strip())
        items.append((name, vals))
    return items


class Cmp:
    """One comparison as one output shows it: arm (label) against base,
    with ratio, CI, p and verdict as printed (each (value, tolerance) or
    None)."""

    def __init__(self, doc, line, exp, label, base, ratio, lo, hi, p,
                 verdict, effect=None):
        self.doc, self.line, self.exp = doc, line, exp
        self.label, self.base, self.effect = label, base, effect
        self.ratio, self.lo, self.hi, self.p = ratio, lo, hi, p
        self.verdict = verdict

    def key(self):
        return (self.exp, self.label, self.base)


class Facts:
    """What the outputs of a journey say about its experiments: arms and
    their run counts, baselines, metric direction, margins, and every
    comparison printed."""

    def __init__(self, docs):
        self.docs = docs
        self.arms = {}      # exp -> {label: n}
        self.aliases = {}   # exp -> {label: [(name, {values})]}
        self.baseline = {}  # exp -> label
        self.higher = {}    # exp -> bool
        self.margin = {}    # exp -> float
        self.cmps = []
        self.ids = set()
        for d in docs:
            if d.kind == "json" and isinstance(getattr(d, "json", None), dict):
                self.from_json(d)
        for d in docs:
            self.ids.update(re.findall(r"\bexperiment '?([0-9a-f]{8})\b",
                                       d.text))
        for d in docs:
            if d.kind != "json":
                self.from_text(d)

    def doc_exp(self, d):
        """The experiment a document is about: the one it names first, or
        the one the step's ID argument is a prefix of."""
        m = re.search(r"\bexperiment '?([0-9a-f]{8}(?:\.\.[0-9a-f]{8})?)\b",
                      "\n".join(d.lines))
        if m:
            return m.group(1)
        for st_doc in self.docs:
            if st_doc.step is d.step and st_doc is not d:
                m = re.search(r"\bexperiment ([0-9a-f]{8})\b", st_doc.text)
                if m:
                    return m.group(1)
        for a in d.step.args[1:3]:
            hits = [i for i in self.ids if re.fullmatch(r"[0-9a-f]{2,8}", a)
                    and i.startswith(a)]
            if len(hits) == 1:
                return hits[0]
        return None

    def set_arm(self, exp, label, n):
        if exp is None:
            return
        self.arms.setdefault(exp, {})
        if n is not None:
            self.arms[exp].setdefault(label, n)
        self.aliases.setdefault(exp, {}).setdefault(label, label_items(label))

    def from_json(self, d):
        o = d.json
        if o.get("type") != "experiment" or "id" not in o:
            return
        exp = o["id"]
        self.ids.add(exp)
        arms = o.get("arms") or []
        labels = {}
        for a in arms:
            lab = a.get("label", "")
            labels[a.get("arm")] = lab
            self.set_arm(exp, lab, a.get("n"))
            items = [(k, {str(v)} | ({str(a["asked"][k])} if k in
                                     (a.get("asked") or {}) else set()))
                     for k, v in (a.get("settings") or {}).items()]
            if items:
                self.aliases[exp][lab] = items
        if isinstance(o.get("baseline"), int) and o["baseline"] in labels:
            self.baseline[exp] = labels[o["baseline"]]
        m = o.get("metric") or {}
        if "higher_is_better" in m:
            self.higher[exp] = bool(m["higher_is_better"])
        if isinstance(o.get("equivalence"), (int, float)):
            self.margin[exp] = float(o["equivalence"])

        def val(x):
            return (float(x), 1e-9) if isinstance(x, (int, float)) else None
        for v in o.get("verdicts") or []:
            self.cmps.append(Cmp(d, "verdicts[arm %s]" % v.get("arm"), exp,
                                 v.get("label"), v.get("baseline"),
                                 val(v.get("ratio")), val(v.get("ci_low")),
                                 val(v.get("ci_high")),
                                 val(v.get("p_adjusted", v.get("p"))),
                                 v.get("verdict")))
        for e in o.get("effects") or []:
            self.cmps.append(Cmp(d, "effects[%s at %s]" % (
                e.get("factor"), e.get("within")), exp,
                labels.get(e.get("arm")), labels.get(e.get("baseline_arm")),
                val(e.get("ratio")), val(e.get("ci_low")),
                val(e.get("ci_high")), val(e.get("p_adjusted", e.get("p"))),
                e.get("verdict"), effect=True))

    def resolve(self, exp, tokens):
        """The arm label whose factors have the values tokens names."""
        want = label_items(tokens)
        hits = []
        for lab, items in (self.aliases.get(exp) or {}).items():
            have = dict((k, v) for k, v in items)
            if len(have) == len(want) and all(
                    k in have and (vals & have[k]) for k, vals in want):
                hits.append(lab)
        return hits[0] if len(hits) == 1 else None

    def add(self, d, line, exp, label, base, ratio, lo, hi, p, verdict,
            effect=None):
        v = verdict.strip().rstrip("*").strip() if verdict else None
        if v:
            m = re.match(r"(no verdict|[a-z]+)", v)
            v = m.group(1) if m else v
        self.cmps.append(Cmp(d, line, exp, label, base, num(ratio) if ratio
                             else None, num(lo) if lo else None,
                             num(hi) if hi else None,
                             num(p) if p and p != "-" else None, v, effect))

    def from_text(self, d):
        exp = self.doc_exp(d)
        text = "\n".join(d.lines)
        if re.search(r"\bhigher is better\b", text) and exp:
            self.higher.setdefault(exp, True)
        if re.search(r"\blower is better\b", text) and exp:
            self.higher.setdefault(exp, False)
        m = re.search(r"equivalent means within ±(" + NUM + r")%", text)
        if m and exp:
            self.margin.setdefault(exp, float(m.group(1)) / 100)
        rows = []  # (label, n, ratio, lo, hi, p, verdict, line)
        effects = []  # (a, b, at, ratio, lo, hi, p, verdict, line)
        # the tables of text output
        in_eff = False
        head = None
        for line in d.lines:
            m = re.match(r"^(?P<label>\S.*?)\s+(?P<med>-?[\d.]+[kMGTµunm]?s?)\s+"
                         r"\[[^\]]*\]\s+(?P<cv>[\d.]+%|-)\s+(?P<n>\d+)\s+"
                         r"(?:baseline|(?P<r>" + NUM + r") \[(?P<lo>" + NUM +
                         r"), (?P<hi>" + NUM + r")\]\s+(?P<p>" + NUM +
                         r"|-)\s+(?P<v>[a-z][a-z ]*\*?))\s*$", line)
            if m and d.kind == "text":
                rows.append((m.group("label"), int(m.group("n")), m.group("r"),
                             m.group("lo"), m.group("hi"), m.group("p"),
                             m.group("v") or "baseline", line))
                continue
            if re.match(r"^effect\s+ratio \[", line):
                in_eff = True
                continue
            if in_eff:
                if not line.strip() or line.startswith("* "):
                    in_eff = False
                    continue
                m = re.match(r"^  at (?P<at>.+?)\s+(?P<r>" + NUM + r") \[(?P<lo>"
                             + NUM + r"), (?P<hi>" + NUM + r")\]\s+(?P<p>" +
                             NUM + r")\s+(?P<v>[a-z][a-z ]*\*?)\s*$", line)
                if m and head:
                    effects.append((head[0], head[1], m.group("at"),
                                    m.group("r"), m.group("lo"), m.group("hi"),
                                    m.group("p"), m.group("v"), line))
                    continue
                m = re.match(r"^(\S.*?) vs (\S.*?)\s*$", line)
                if m:
                    head = (m.group(1), m.group(2))
        # Markdown tables
        for line in d.lines:
            if d.kind != "md" or not line.startswith("| "):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rc = r"(" + NUM + r") \((" + NUM + r") – (" + NUM + r")\)"
            if len(cells) == 8 and cells[4].isdigit():
                m = re.fullmatch(rc, cells[5])
                v = re.sub(r"[*⚠]", " ", cells[7]).split()
                rows.append((cells[0], int(cells[4]),
                             m.group(1) if m else None,
                             m.group(2) if m else None,
                             m.group(3) if m else None, cells[6] or None,
                             " ".join(v[:2]) if v else "", line))
            elif len(cells) == 4 and " vs " in cells[0]:
                m = re.fullmatch(rc, cells[1])
                e = re.fullmatch(r"(.+?) vs (.+?) at (.+)", cells[0])
                if m and e:
                    v = re.sub(r"[*⚠]", " ", cells[3]).split()
                    effects.append((e.group(1), e.group(2), e.group(3),
                                    m.group(1), m.group(2), m.group(3),
                                    cells[2], " ".join(v[:2]), line))
        # HTML tables
        for t in getattr(d, "tables", []):
            if not t:
                continue
            hdr = t[0]
            rc = r"(" + NUM + r") \[(" + NUM + r"), (" + NUM + r")\]"
            if hdr and hdr[0] == "arm" and "ratio [95% CI]" in hdr:
                for r in t[1:]:
                    if len(r) < 8 or not r[4].isdigit():
                        continue
                    m = re.fullmatch(rc, r[5])
                    v = r[7].replace("⚠", " ").split()
                    rows.append((r[0], int(r[4]), m.group(1) if m else None,
                                 m.group(2) if m else None,
                                 m.group(3) if m else None, r[6] or None,
                                 " ".join(v[:2]) if v else "", " | ".join(r)))
            elif hdr and hdr[0] == "at":
                head = None
                for r in t[1:]:
                    if len(r) == 1:
                        m = re.match(r"^(.+?) vs (.+)$", r[0])
                        head = (m.group(1), m.group(2)) if m else None
                    elif len(r) >= 5 and head:
                        m = re.fullmatch(rc, r[1])
                        v = r[4].replace("⚠", " ").split()
                        if m:
                            effects.append((head[0], head[1], r[0], m.group(1),
                                            m.group(2), m.group(3), r[2],
                                            " ".join(v[:2]), " | ".join(r)))
        base = None
        for (label, n, r, lo, hi, p, v, line) in rows:
            self.set_arm(exp, label, n)
            if v.startswith("baseline"):
                base = label
                if exp:
                    self.baseline.setdefault(exp, label)
        for (label, n, r, lo, hi, p, v, line) in rows:
            if r:
                self.add(d, line, exp, label, base or self.baseline.get(exp),
                         r, lo, hi, p, v)
        for (a, b, at, r, lo, hi, p, v, line) in effects:
            arm = self.resolve(exp, a + " " + at)
            bl = self.resolve(exp, b + " " + at)
            if arm and bl:
                self.add(d, line, exp, arm, bl, r, lo, hi, p, v, effect=True)
            else:
                self.add(d, line, exp, "(%s at %s)" % (a, at),
                         "(%s at %s)" % (b, at), r, lo, hi, p, v, effect=True)
        # one-line verdicts: export and apply headers
        flat = text.replace("\\'", "'")
        flat = re.sub(r"\n#\s*", " ", flat)
        for m in re.finditer(
                r"(?:experiment ([0-9a-f]{8})\b[^\n]*?)?arm '(?P<l>[^'\n]*)':\s*"
                r"(?P<v>[a-z][a-z ]*?)\*? against '(?P<b>[^'\n]*)': (?P<r>" + NUM +
                r")x \[(?P<lo>" + NUM + r"), (?P<hi>" + NUM + r")\], p (?P<p>" +
                NUM + r")", flat):
            self.add(d, m.group(0), m.group(1) or exp, m.group("l"),
                     m.group("b"), m.group("r"), m.group("lo"), m.group("hi"),
                     m.group("p"), m.group("v"))
        # iotrial log: one line per experiment
        for line in d.lines:
            m = re.match(r"^([0-9a-f]{8})\s+\d{4}-\d\d-\d\d \d\d:\d\d\s+.*?"
                         r"\d+ arms: (.*)$", line)
            if not m:
                continue
            for e in re.finditer(
                    r"(?:^|, )(?P<l>.+?) (?P<v>" + "|".join(VERDICTS) +
                    r")\*? (?P<r>" + NUM + r")x(?: \((?:[^()]|\([^()]*\))*\))?",
                    m.group(2)):
                self.add(d, line, m.group(1), e.group("l"), None, e.group("r"),
                         None, None, None, e.group("v"))

    def base_of(self, c):
        return c.base or self.baseline.get(c.exp)
