#!/usr/bin/env bash
# Every renderer times every shape of experiment people make: one arm (a
# run), an A/A label pair, one numeric knob, one numeric parameter, a
# non-numeric knob (scheduler), two factors, three factors with a
# numeric sweep, a fio job file, a fleet merge, an imported fio result,
# suspect arms, --strict, no verdict (a budget), with and without device
# series, and file workloads timed per operation (crashdump,
# smallfiles). Each is made once, with tiny runs, and rendered by report
# (text, json, csv, md, html), show, show --runs, show --json, log and
# diff. Each must exit 0 and be well formed (report's text being show
# --runs): JSON parsed by jq, CSV by Python's csv module (every row as
# wide as the header), Markdown tables
# with as many cells per row as the header, no "nan" or "inf" printed,
# and each HTML page loaded by Chromium with no console message, every
# plot it draws holding data points (its SVG marks counted), no NaN in
# any coordinate. The knob shapes need root (a scratch loop device);
# without it they are skipped and said so.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
command -v jq >/dev/null || skip "needs jq"
command -v chromium >/dev/null ||
	skip "needs chromium (apt-get install chromium)"

db=$TEST_TMP/store/results.db
# a directory on a disk (not $TEST_TMP, which may be a tmpfs): runs with
# device series
dev_dir=$(mktemp -d /var/tmp/iotrial-matrix.XXXXXX) || exit 1
TEST_DIRS+=("$dev_dir")
export TMPDIR=$TEST_TMP # scratch images and mounts go here
# a directory with no block device under it: runs with no device series
nodev_dir=
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	nodev_dir=$(mktemp -d /dev/shm/iotrial-matrix.XXXXXX) &&
		TEST_DIRS+=("$nodev_dir")
fi
small=(--size=2M --ios 300 --no-drop-caches --quiet --db "$db")

declare -a SHAPES
declare -A ID
# shape NAME IOTRIAL-ARGS...: make the experiment NAME, note its id
shape() {
	local name=$1 out=$TEST_TMP/$1.made.json
	shift
	"$IOTRIAL" "$@" --json="$out" >"$TEST_TMP/$name.made" 2>&1
	local rc=$?
	# compare exits 0; a run's or a budget's warnings do not fail it
	# a run's object has no id: it is the store's newest
	ID[$name]=$(jq -re '.id // empty' "$out" 2>/dev/null ||
		"$IOTRIAL" log --db "$db" --json | jq -re '.experiments[0].id')
	if [ $rc != 0 ] || [ -z "${ID[$name]}" ]; then
		fail "$name: made (rc=$rc: $(tail -c 300 "$TEST_TMP/$name.made"))"
		return
	fi
	SHAPES+=("$name")
}
# imported NAME FILE...: an import, its id from the printed line
imported() {
	local name=$1
	shift
	"$IOTRIAL" import --db "$db" "$@" >"$TEST_TMP/$name.made" 2>&1
	local rc=$? id
	id=$(sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p' "$TEST_TMP/$name.made")
	if [ $rc != 0 ] || [ -z "$id" ]; then
		fail "$name: imported (rc=$rc: $(tail -c 300 "$TEST_TMP/$name.made"))"
		return
	fi
	ID[$name]=$id
	SHAPES+=("$name")
}

shape run run seqwrite -t "$dev_dir" --size=2M --ios 300 --db "$db" --seed 1
shape aa compare seqwrite -t "$dev_dir" "${small[@]}" --vary label=a,b \
	--runs 3 --seed 2
shape num_param compare seqwrite -t "$dev_dir" "${small[@]}" \
	--vary bs=4k,64k --runs 3 --seed 3
shape two_factors compare seqwrite -t "$dev_dir" "${small[@]}" \
	--vary bs=4k,64k --vary label=x,y --runs 2 --seed 4
shape three_factors compare seqwrite -t "$dev_dir" "${small[@]}" \
	--vary bs=4k,16k,64k --vary jobs=1,2 --vary 'label=p,q r' --runs 2 \
	--seed 5
# buffered reads of a cached 2M file, too short: every run is flagged
shape suspect compare randread -t "$dev_dir" --size=2M --ios 200 \
	--no-drop-caches --quiet --db "$db" --vary bs=4k,1M --runs 6 --seed 7 --metric mbps
shape strict compare randread -t "$dev_dir" --size=2M --ios 200 \
	--no-drop-caches --quiet --db "$db" --vary bs=4k,1M --runs 6 --seed 7 --metric mbps \
	--strict
shape budget compare seqwrite -t "$dev_dir" "${small[@]}" --vary bs=4k,8k \
	--runs auto --budget 1ms --force --seed 8
if [ -n "$nodev_dir" ]; then
	shape nodev compare seqwrite -t "$nodev_dir" "${small[@]}" \
		--vary bs=4k,64k --runs 2 --seed 9
else
	ok "# skip nodev: no tmpfs at /dev/shm"
fi
shape crashdump compare crashdump -t "$dev_dir" --no-drop-caches --quiet \
	--db "$db" --vary 'label=one,two' --time 150ms --runs 2 --seed 10
shape smallfiles compare smallfiles -t "$dev_dir" --no-drop-caches --quiet \
	--db "$db" --vary 'label=one,two' --time 150ms --runs 2 --seed 11

# a fio job file of tests/data/fio, its size and length made tiny
shape fio_job compare --job "$IOTRIAL_SRC/tests/data/fio/fio-seq-write.fio" \
	-t "$dev_dir" "${small[@]}" --vary bs=4k,64k --runs 2 --seed 14

# a fleet merge: each host's result is the JSON of its compare
mkdir -p "$TEST_TMP/fleet"
for h in h1 h2; do
	"$IOTRIAL" compare seqwrite -t "$dev_dir" --size=2M --ios 300 \
		--no-drop-caches --quiet --no-store --vary bs=4k,64k --runs 2 \
		--json="$TEST_TMP/fleet/$h.json" >/dev/null 2>&1
done
echo "connection refused" >"$TEST_TMP/fleet/h3.error"
"$IOTRIAL" fleet merge --db "$db" --json="$TEST_TMP/fleet.json" \
	"$TEST_TMP/fleet" >"$TEST_TMP/fleet.made" 2>&1
rc=$?
if [ $rc = 4 ] && ID[fleet]=$(jq -re '.id' "$TEST_TMP/fleet.json"); then
	SHAPES+=(fleet)
else
	fail "fleet: merged, one host failed (rc=$rc: $(tail -c 300 "$TEST_TMP/fleet.made"))"
fi

if command -v fio >/dev/null; then
	for i in 1 2; do
		fio --name=t --filename="$TEST_TMP/fio.dat" --size=1M --bs=4k \
			--rw=randread --number_ios=200 --output-format=json \
			>"$TEST_TMP/fio$i.json" 2>/dev/null
	done
	imported fio --arm first "$TEST_TMP/fio1.json" --arm second "$TEST_TMP/fio2.json"
else
	ok "# skip fio: fio is not installed"
fi

if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null; then
	shape num_knob compare seqread -t scratch:32M --size=2M --ios 200 \
		--quiet --db "$db" --vary read_ahead_kb=16,1024 --runs 2 --seed 12
	shape scheduler compare randread -t scratch:32M --size=2M --ios 200 \
		--quiet --db "$db" --vary scheduler=none,mq-deadline --runs 2 \
		--seed 13
else
	ok "# skip num_knob, scheduler: need root and mkfs.ext4"
fi

# Render every format of every shape; the files go into the manifest
# (SHAPE KIND FILE per line) that chk.py checks in one go.
manifest=$TEST_TMP/manifest
: >"$manifest"
# render SHAPE KIND OUT IOTRIAL-ARGS...: run, note OUT, fail on non-zero
render() {
	local name=$1 kind=$2 out=$3 rc
	shift 3
	"$IOTRIAL" "$@" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc != 0 ]; then
		echo "$name $kind $out exit $rc: $(tail -c 200 "$out.err" | tr '\n' ' ')" >>"$manifest"
	else
		echo "$name $kind $out" >>"$manifest"
	fi
}
for name in "${SHAPES[@]}"; do
	id=${ID[$name]}
	o=$TEST_TMP/$name
	for fmt in text json csv md html; do
		render "$name" "$fmt" "$o.$fmt" report "$id" --db "$db" --format "$fmt"
	done
	render "$name" text "$o.show" show "$id" --db "$db"
	render "$name" text "$o.runs" show "$id" --runs --db "$db"
	render "$name" json "$o.sj" show "$id" --json --db "$db"
	# diff against the same experiment stored again under another id
	id2=$("$IOTRIAL" import --db "$db" "$o.sj" 2>/dev/null |
		sed -n 's/^imported .* experiment \([0-9a-f]*\)$/\1/p')
	render "$name" text "$o.diff" diff "$id" "${id2:-none}" --db "$db"
	render "$name" json "$o.dj" diff "$id" "${id2:-none}" --json --db "$db"
done
render log text "$TEST_TMP/log" log --db "$db"
render log json "$TEST_TMP/log.json" log --json --db "$db"

# JSON by jq: the exit status of its parse
while read -r name kind file rest; do
	[ "$kind" = json ] && [ -z "$rest" ] || continue
	jq -e 'type == "object" or type == "array"' "$file" >/dev/null 2>&1 ||
		echo "$file: jq cannot parse it" >>"$TEST_TMP/jq.bad"
done <"$manifest"

# HTML by Chromium: every page in a frame of one index page, loaded
# once; each console message names its page. A page planted with an
# inline script (that the CSP blocks, with a console message) proves the
# messages of frames are seen.
sed 's|<main>|<main><script>console.log(1)</script>|' \
	"$(awk '$2 == "html" && NF == 3 { print $3; exit }' "$manifest")" \
	>"$TEST_TMP/planted.html"
{
	echo '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
	awk '$2 == "html" && NF == 3 { print "<iframe src=\"file://" $3 "\"></iframe>" }' "$manifest"
	echo "<iframe src=\"file://$TEST_TMP/planted.html\"></iframe></body></html>"
} >"$TEST_TMP/index.html"
timeout 120 chromium --headless --no-sandbox --disable-gpu \
	--disable-background-networking --disable-component-update \
	--disable-sync --no-first-run --user-data-dir="$TEST_TMP/profile" \
	--enable-logging=stderr --dump-dom "file://$TEST_TMP/index.html" \
	>"$TEST_TMP/index.dom" 2>"$TEST_TMP/chromium.log"
check "Chromium loaded the pages" grep -q '<iframe' "$TEST_TMP/index.dom"
check "Chromium's console messages of a frame are seen (a planted one)" \
	grep -q "CONSOLE.*source: file://$TEST_TMP/planted.html" "$TEST_TMP/chromium.log"
grep 'CONSOLE' "$TEST_TMP/chromium.log" | grep -v "$TEST_TMP/planted.html" \
	>"$TEST_TMP/console" || true

cat >"$TEST_TMP/chk.py" <<'PY'
# chk.py MANIFEST JQBAD CONSOLE: check each file of the manifest as its
# kind (text, csv, md, html; json was jq's) and print one TAP line per
# shape: ok when all its files are well formed, else what is wrong.
import csv, html.parser, re, sys
from collections import OrderedDict

NANINF = re.compile(r"(?<![\w.])-?(nan|inf)(?![\w.])", re.I)

def check_text(text, bad):
    m = NANINF.search(text)
    if m:
        bad.append("prints %r" % text[max(0, m.start() - 40):m.end() + 20])

def check_csv(path, bad):
    rows = list(csv.reader(open(path, newline="", encoding="utf-8"), strict=True))
    if not rows:
        bad.append("no header")
    for i, r in enumerate(rows):
        if len(r) != len(rows[0]):
            bad.append("row %d has %d fields, the header %d" % (i, len(r), len(rows[0])))
            return
        if any(re.fullmatch(r"-?(nan|inf)", f, re.I) for f in r):
            bad.append("row %d holds nan or inf" % i)
            return

def check_md(text, bad):
    table = None
    for i, line in enumerate(text.split("\n")):
        n = len(re.findall(r"(?<!\\)\|", line))
        if not line.startswith("|"):
            table = None
        elif table is None:
            table = n
        elif n != table:
            bad.append("line %d has %d cell bars, its table %d" % (i + 1, n, table))
            return

class Page(html.parser.HTMLParser):
    """The figures of a report: the marks each draws, NaN coordinates."""
    COORDS = ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "d", "width",
              "height", "viewbox")
    def __init__(self, bad):
        super().__init__()
        self.bad, self.fig, self.figs = bad, None, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        for k in self.COORDS:
            if re.search(r"nan|inf", a.get(k) or "", re.I):
                self.bad.append("<%s %s=%r>" % (tag, k, a[k]))
        if tag == "figure":
            self.fig = {"title": "", "marks": 0, "in_caption": True}
            self.figs.append(self.fig)
        if self.fig is None:
            return
        if tag == "svg":
            self.fig["in_caption"] = False
        d = a.get("d") or ""
        if ((tag == "circle" and "dot" in cls) or
                (tag == "use" and "pt" in cls) or
                (tag == "rect" and ("mark" in cls or "ci" in cls)) or
                (tag == "line" and ("median" in cls or "whisker" in cls)) or
                (tag == "path" and ("whisker" in cls or
                                    ("line" in cls and "L" in d)))):
            self.fig["marks"] += 1
    def handle_data(self, data):
        if self.fig is not None and self.fig["in_caption"]:
            self.fig["title"] += data
    def handle_endtag(self, tag):
        if tag == "figure":
            self.fig = None

def check_html(text, bad):
    p = Page(bad)
    p.feed(text)
    p.close()
    if not text.rstrip().endswith("</html>"):
        bad.append("does not end with </html>")
    for f in p.figs:
        if not f["marks"]:
            bad.append("the plot %r draws no data" % f["title"].strip())

manifest, jqbad, console = sys.argv[1:4]
shapes = OrderedDict()
notes = {}
for line in open(jqbad) if jqbad != "-" else []:
    notes[line.split(":", 1)[0]] = line.split(": ", 1)[1].strip()
msgs = open(console).read().splitlines()
for line in open(manifest):
    name, kind, path, *rest = line.split(" ", 3)
    path = path.strip()
    bad = shapes.setdefault(name, [])
    what = path.rsplit("/", 1)[1]
    if rest:
        bad.append("%s: %s" % (what, rest[0].strip()))
        continue
    text = open(path, encoding="utf-8").read()
    problems = []
    if not text.strip():
        problems.append("empty")
    elif kind == "json":
        if path in notes:
            problems.append(notes[path])
    else:
        check_text(text, problems)
        if kind == "csv":
            check_csv(path, problems)
        elif kind == "md":
            check_md(text, problems)
        elif kind == "html":
            check_html(text, problems)
            problems += ["console: " + m[-200:] for m in msgs if path in m]
    bad += ["%s: %s" % (what, p) for p in problems[:3]]
for name, bad in shapes.items():
    if bad:
        print("not ok - %s: every format renders well formed: %s" % (name, "; ".join(bad[:4])))
    else:
        print("ok - %s: every format renders well formed" % name)
PY
[ -f "$TEST_TMP/jq.bad" ] || : >"$TEST_TMP/jq.bad"
python3 "$TEST_TMP/chk.py" "$manifest" "$TEST_TMP/jq.bad" "$TEST_TMP/console"
check "no console message from any page" test ! -s "$TEST_TMP/console"
# one page: report's text is what show --runs prints, a fleet's hosts
# included (it left them out)
for name in "${SHAPES[@]}"; do
	cmp -s "$TEST_TMP/$name.text" "$TEST_TMP/$name.runs" ||
		echo "$name" >>"$TEST_TMP/text.differs"
done
check "report --format text is show --runs for every shape ($(cat "$TEST_TMP/text.differs" 2>/dev/null | tr '\n' ' '))" \
	test ! -s "$TEST_TMP/text.differs"
check "log lists every shape and its copy" \
	test "$(grep -cE '^[0-9a-f]{8} ' "$TEST_TMP/log")" = "$((2 * ${#SHAPES[@]}))"

# what the plots must show, not only that they render
has() { grep -q -- "$2" "$TEST_TMP/$1.html"; }
check "one numeric parameter: the metric is drawn against it" \
	has num_param '<figcaption>The metric against bs'
# figure TITLE FILE: the <figure> whose caption starts with TITLE
figure() { sed -n "s|.*\(<figcaption>$1.*\)|\1|p" "$2" | sed 's|</figure>.*||'; }
check "three factors: the sweep, one line per setting of the others" \
	test "$(figure 'The metric against bs' "$TEST_TMP/three_factors.html" |
		grep -o '<path class="line c[0-9]' | sort -u | wc -l)" = 4
check "crashdump: no per-direction latency panel" \
	test "$(grep -c 'atency percentiles' "$TEST_TMP/crashdump.html")" = 0
check "crashdump: a latency plot per operation" \
	has crashdump '<figcaption>Latency of write_dump'
check "crashdump: the per-operation table" \
	has crashdump '<code>read_dump</code>'
check "crashdump: its other metrics" \
	has crashdump '<th class="num">produced_per_min'
check "crashdump: show prints the per-operation table" \
	grep -qE '^label=one +write_dump +[0-9]' "$TEST_TMP/crashdump.show"
check "crashdump: md has the per-operation table" \
	grep -qE '^\| label=one \| write\\_dump \| [0-9]+ \|' "$TEST_TMP/crashdump.md"
check "crashdump: csv has each operation's columns, no untimed direction's" \
	python3 -c 'import csv, sys
h = next(csv.reader(open(sys.argv[1])))
assert "op_write_dump_p50_us" in h and "read_p50_ns" not in h, h' "$TEST_TMP/crashdump.csv"
check "smallfiles: a latency plot per operation" \
	has smallfiles '<figcaption>Latency of '
check "with device series: a device plot" \
	has num_param '<figcaption>Device '
if [ -n "${ID[nodev]:-}" ]; then
	check "without device series: no device plot" \
		test "$(grep -c '<figcaption>Device ' "$TEST_TMP/nodev.html")" = 0
fi
if [ -n "${ID[num_knob]:-}" ]; then
	check "one numeric knob: the metric is drawn against it" \
		has num_knob '<figcaption>The metric against read_ahead_kb'
fi
check "suspect arms are marked" has suspect 'class="suspect"'
check "--strict: the verdict is 'suspect' ($(jq -c '[.verdicts[].verdict]' "$TEST_TMP/strict.json"))" \
	test "$(jq -r '[.verdicts[].verdict] | join(",")' "$TEST_TMP/strict.json")" = suspect
check "budget: stopped by the budget ($(jq -r .stopped "$TEST_TMP/budget.json"))" \
	grep -q budget <(jq -r '.stopped' "$TEST_TMP/budget.json")
