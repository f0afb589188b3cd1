#!/usr/bin/env bash
# Metrics where monitoring looks: watch --format openmetrics (a scrape per
# interval, each ending in '# EOF') and --metrics-file of watch, run,
# compare and observe. promtool check metrics accepts every output (its
# lint: base units, _total on counters, HELP on every family); an
# OpenMetrics parser (python3-prometheus-client, where installed) reads
# watch's scrapes strictly; the names carry their units and the values
# are the JSON's in those units; a label a user typed with quotes and
# backslashes comes out escaped (control bytes: test_openmetrics). Small
# sizes and --ios keep it to a few seconds.
. "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null ||
	skip "needs promtool (Debian package prometheus)"
command -v jq >/dev/null || skip "needs jq"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/target
mkdir -p "$T"
# a Python with prometheus_client's OpenMetrics parser, if any
OMPY=
for py in python3 /usr/bin/python3; do
	"$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null &&
		{ OMPY=$py; break; }
done

# promtool FILE: promtool check metrics accepts it (what it says, shown)
promcheck() {
	local out
	out=$(promtool check metrics <"$1" 2>&1) && return 0
	sed 's/^/#   /' <<<"$out" | head -5
	return 1
}

# names FILE: every family is iotrial_, no unit spelled short or as a
# percent, and every sample has the command label
names() {
	python3 - "$1" <<'PY'
import re, sys
bad = []
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("# TYPE ") or line.startswith("# HELP "):
        name = line.split()[2]
        if not re.fullmatch(r"iotrial_[a-z0-9_]+", name):
            bad.append(name)
        if re.search(r"_(ms|us|ns|kib|kb|mb|pct|percent|mbps)(_|$)", name):
            bad.append(name)
    elif line and not line.startswith("#"):
        if '{command="' not in line:
            bad.append(line)
if bad:
    print("#   ", bad[:3])
    sys.exit(1)
PY
}

# value FILE SERIES: the value of one sample ('name{labels}')
value() { grep -F "$2 " "$1" | head -1 | awk '{print $NF}'; }

dev=
for d in /sys/block/*; do
	[ -r "$d/stat" ] && [ "$(cat "$d/size" 2>/dev/null)" != 0 ] || continue
	read -r rd _ _ _ wr _ <"$d/stat"
	if [ "$((rd + wr))" -gt 0 ]; then dev=$(basename "$d"); break; fi
done

# watch: a scrape per interval on stdout, and the file
if [ -n "$dev" ]; then
	"$IOTRIAL" watch "$dev" -i 100ms -c 2 --format openmetrics >w.om
	check "watch --format openmetrics exits 0" test $? = 0
	check "watch: a scrape per interval, each ending in # EOF" \
		test "$(grep -c '^# EOF$' w.om)" = 2
	awk '/^# EOF$/ {n++; next} {print > ("scrape" n ".txt")}' w.om
	check "watch: promtool accepts each scrape" \
		eval 'promcheck scrape.txt && promcheck scrape1.txt'
	check "watch: names carry the prefix and the command" names w.om
	check "watch: the device's columns, in base units" \
		grep -q "^iotrial_device_utilization_ratio{command=\"watch\",device=\"$dev\"} " w.om
	if [ -n "$OMPY" ]; then
		check "watch: an OpenMetrics parser reads each scrape" "$OMPY" - w.om <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
for part in text.split("# EOF\n")[:-1]:
    fams = list(text_string_to_metric_families(part + "# EOF\n"))
    assert any(f.name == "iotrial_device_reads_per_second" for f in fams)
PY
	else
		echo "# no prometheus_client: the strict OpenMetrics parse is left out"
	fi
	"$IOTRIAL" watch "$dev" -i 50ms -c 3 --metrics-file w.prom >/dev/null
	check "watch --metrics-file exits 0" test $? = 0
	check "watch: promtool accepts the file" promcheck w.prom
	check "watch: the file is one interval's, not three" \
		test "$(grep -c '^iotrial_watch_interval_seconds{' w.prom)" = 1
	check "watch: no temporary left beside it" \
		test -z "$(find . -maxdepth 1 -name '.*.tmp')"
else
	echo "# no disk has done any I/O: watch is left out"
fi

# run: the run's numbers against its JSON
"$IOTRIAL" run seqread -t "$T" --size 1M --ios 256 --no-store \
	--json=run.json --metrics-file run.prom >/dev/null 2>&1
check "run --metrics-file exits 0" test $? = 0
check "run: promtool accepts it" promcheck run.prom
check "run: names carry the prefix and the command" names run.prom
check "run: its I/Os as a counter, the JSON's" \
	test "$(value run.prom 'iotrial_run_ios_total{command="run",direction="read"}')" = \
	"$(jq .ops_read run.json)"
check "run: its metric (MB/s) in bytes per second" python3 - run.prom run.json <<'PY'
import json, sys
run = json.load(open(sys.argv[2]))
want = run["metric"]["value"] * 1e6
for line in open(sys.argv[1]):
    if line.startswith("iotrial_arm_median_bytes_per_second{"):
        got = float(line.split()[-1])
        assert abs(got - want) <= 1e-6 * want, (got, want)
        break
else:
    sys.exit("no median")
PY
# a target on tmpfs (a fresh machine's /tmp) has no device to show
if [ "$(jq '.devices | length' run.json)" -gt 0 ]; then
check "run: its devices' await in seconds, the JSON's in ms" python3 - run.prom run.json <<'PY'
import json, re, sys
run = json.load(open(sys.argv[2]))
text = open(sys.argv[1]).read()
n = 0
for d in run.get("devices", []):
    m = re.search(r'^iotrial_device_read_await_seconds\{command="run",'
                  r'device="%s"\} (\S+)$' % re.escape(d["name"]), text, re.M)
    assert m, d["name"]
    assert abs(float(m.group(1)) - d["r_await_ms"] / 1000) < 1e-9
    n += 1
assert n > 0
PY
else
	check "run: no device, no device metric" \
		eval '! grep -q "^iotrial_device_" run.prom'
fi
check "run: the file says it ended" \
	test "$(value run.prom 'iotrial_progress_running{command="run"}')" = 0
check "run: ...with its one run done" \
	test "$(value run.prom 'iotrial_progress_steps_done{command="run",unit="runs"}')" = 1

# compare: arms and verdicts, with labels a user typed
"$IOTRIAL" compare randread -t "$T" --size 1M --ios 256 --runs 2 \
	--vary 'label=q"x,b\s' --no-store --json=cmp.json \
	--metrics-file cmp.prom >/dev/null 2>&1
check "compare --metrics-file exits 0" test $? = 0
check "compare: promtool accepts it" promcheck cmp.prom
check "compare: names carry the prefix and the command" names cmp.prom
check "compare: the steps done are its runs, the last one too" \
	test "$(value cmp.prom 'iotrial_progress_steps_done{command="compare",unit="runs"}')" = \
	"$(jq '.runs | length' cmp.json)"
check "compare: labels escaped, each arm's runs and one verdict" python3 - cmp.prom cmp.json <<'PY'
import json, re, sys
exp = json.load(open(sys.argv[2]))
text = open(sys.argv[1]).read()
assert 'arm="label=q\\"x"' in text, "quote not escaped"
assert 'arm="label=b\\\\s"' in text, "backslash not escaped"
runs = re.findall(r'^iotrial_arm_runs\{[^}]*\} (\S+)$', text, re.M)
assert runs == ["2", "2"], runs
ones = re.findall(r'^iotrial_arm_verdict\{[^}]*\} 1$', text, re.M)
assert len(ones) == len(exp["verdicts"]) == 1, ones
ratio = re.search(r'^iotrial_arm_ratio\{[^}]*\} (\S+)$', text, re.M)
v = exp["verdicts"][0]
assert v["ratio"] is None or abs(float(ratio.group(1)) - v["ratio"]) < 1e-9
PY

# observe: the windows done
"$IOTRIAL" observe -t "$T" --vary label=a,b --window 0.1s --settle 0s \
	--windows 6 --no-store --json=obs.json --metrics-file obs.prom \
	>/dev/null 2>&1
check "observe --metrics-file exits 0" test $? = 0
check "observe: promtool accepts it" promcheck obs.prom
check "observe: names carry the prefix and the command" names obs.prom
check "observe: its windows done, the object's" \
	test "$(value obs.prom 'iotrial_experiment_windows{command="observe"}')" = \
	"$(jq '.windows | length' obs.json)"
check "observe: the steps done are the windows planned" \
	test "$(value obs.prom 'iotrial_progress_steps_done{command="observe",unit="windows"}')" = \
	"$(jq '.windows | length' obs.json)"

# bad names are refused before anything runs
expect_usage "--metrics-file to a directory is refused" "not a regular file|directory" \
	run seqread -t "$T" --size 1M --ios 16 --no-store --metrics-file "$T"
