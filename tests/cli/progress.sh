#!/usr/bin/env bash
# Progress of long work: run's line on a terminal (script(1) gives it
# one: rewritten in place, cleared at the end, absent with --quiet and
# when stderr is a file), --progress=json on stderr or a descriptor (one
# object per line, fitting docs/schema/progress.schema.json; elapsed
# increasing; a start and an end; a time-based run's ETA is what its
# --time leaves), compare's steps, and compare's ETA, which counts to
# the end of the whole experiment: with a --budget it reaches, the total
# it implies is the budget from the first run on (it counted to the
# runs planned so far, a fraction of it); the end line counts every run
# (or observe's windows) done. About 25 s.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip "needs script (util-linux)"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/target
mkdir -p "$T"
V="python3 $IOTRIAL_SRC/tests/json_schema.py $IOTRIAL_SRC/docs/schema"

# lines FILE PYTHON: PYTHON over L, the parsed JSON lines of FILE
lines() {
	python3 - "$1" "$2" <<'PY'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
exec(sys.argv[2])
PY
}

# run --progress=json on descriptor 3: 1.5 s of reads
"$IOTRIAL" run seqread -t "$T" --size 1M --time 1500ms --no-store \
	--progress=json:3 3>run.jsonl >run.out 2>run.err
check "run --progress=json:3 exits 0" test $? = 0
check "the lines fit the progress schema" $V run.jsonl
check "nothing of it on stderr" eval '! grep -q "\"type\":\"progress\"" run.err'
check "a start, updates, an end that says done" lines run.jsonl '
assert L[0]["event"] == "start" and L[-1]["event"] == "end", L
assert L[-1]["outcome"] == "done"
assert all(x["event"] == "update" for x in L[1:-1]) and len(L) >= 3'
check "elapsed increases, line by line" lines run.jsonl '
e = [x["elapsed_s"] for x in L]
assert all(a < b for a, b in zip(e, e[1:])), e'
check "in the run: its I/Os and rate, and the ETA its --time leaves" lines run.jsonl '
r = [x for x in L if x.get("phase") == "run"]
assert r, L
for x in r:
    assert x["ios"] > 0 and x["bytes"] == x["ios"] * 4096, x
    assert x["eta_by"] == "time", x
    assert abs(x["eta_s"] + x["run_elapsed_s"] - 1.5) < 1e-3, x'
check "with json on stderr, the lines are there" eval '
"$IOTRIAL" run seqread -t "$T" --size 1M --ios 64 --no-store \
	--progress=json 2>&1 >/dev/null | grep -q "\"event\":\"end\""'
"$IOTRIAL" run seqread -t "$T" --size 1M --ios 64 --no-store \
	--progress=json:3 3>one.jsonl >/dev/null 2>&1
check "a run that ended: its end says 1 run of 1 done" lines one.jsonl '
assert L[-1]["event"] == "end" and L[-1]["done"] == L[-1]["planned"] == 1, L[-1]'
exec 9>&- # whatever ran us may have left it open
expect_usage "--progress=json:9 (not open) is refused" "descriptor 9 is not open" \
	run seqread -t "$T" --size 1M --ios 16 --no-store --progress=json:9
expect_usage "--progress=xml is refused" "takes json or json:FD" \
	run seqread -t "$T" --size 1M --ios 16 --no-store --progress=xml

# the terminal's line: script(1) runs it on a pseudo-terminal
script -q -e -c "$IOTRIAL run seqread -t $T --size 1M --time 1500ms --no-store" \
	tty.out >/dev/null </dev/null
check "on a terminal, run exits 0" test $? = 0
check "the line is drawn in place, with the time, I/Os, rate and ETA" \
	grep -qaE $'\r\033\\[Krun: [0-9.]+ s of 1.5 s, [0-9.]+[kM]? I/Os, [0-9.]+[kM]? IO/s, [0-9.]+[kM]? MB/s, ETA [0-9.]+ s' tty.out
check "and cleared before the summary" python3 - tty.out <<'PY'
import sys
t = open(sys.argv[1], "rb").read()
last = t.rfind(b"\r\033[K")
assert last > 0 and t.rfind(b"\r\033[Krun: ") < last, "not cleared at the end"
assert t.find(b"seqread: bs 4k") > last
PY
script -q -e -c "$IOTRIAL run seqread -t $T --size 1M --time 1s --no-store --quiet" \
	quiet.out >/dev/null </dev/null
check "--quiet: no line" eval '! grep -qa "ETA" quiet.out'
"$IOTRIAL" run seqread -t "$T" --size 1M --time 1s --no-store \
	>/dev/null 2>notty.err
check "stderr not a terminal: no line" eval '! grep -qa $'"'"'\033'"'"' notty.err'

# compare: a step per run, then the end
"$IOTRIAL" compare randread -t "$T" --size 1M --ios 128 --runs 2 \
	--vary bs=4k,8k --no-store --progress=json:3 3>cmp.jsonl >/dev/null 2>&1
check "compare --progress=json exits 0" test $? = 0
check "compare: the lines fit the schema" $V cmp.jsonl
check "compare: runs done 0..3 of 4, each arm named, then the end" lines cmp.jsonl '
steps = sorted({x["done"] for x in L if x["event"] != "end" and "done" in x})
assert steps == [0, 1, 2, 3], steps
assert {x.get("arm") for x in L if x.get("arm")} == {"bs=4k", "bs=8k"}
assert all(x["planned"] == 4 for x in L if "planned" in x)
assert L[-1]["event"] == "end" and L[-1]["outcome"] == "done"'
check "compare: the end counts every run done, the last one too" lines cmp.jsonl '
assert L[-1]["done"] == 4, L[-1]'
"$IOTRIAL" compare randread -t "$T" --size 1M --ios 128 --runs 1 --warmup 1 \
	--vary bs=4k,8k --no-store --progress=json:3 3>warm.jsonl >/dev/null 2>&1
check "compare --warmup: its end counts the warm-up and the runs" lines warm.jsonl '
assert L[-1]["event"] == "end" and L[-1]["outcome"] == "done", L[-1]
assert L[-1]["done"] == L[-1]["planned"] == 3, L[-1]'

# observe: a line per window, the end counts them all
"$IOTRIAL" observe -t "$T" --vary label=a,b --window 0.1s --settle 0s \
	--windows 6 --no-store --progress=json:3 3>obs.jsonl >/dev/null 2>&1
check "observe --progress=json exits 0" test $? = 0
check "observe: the lines fit the schema" $V obs.jsonl
check "observe: a line per window of 12, then the end with all 12" lines obs.jsonl '
d = {x["done"] for x in L if x["event"] == "update" and x.get("unit") == "windows"}
assert set(range(1, 12)) <= d <= set(range(1, 13)), d
assert L[-1]["event"] == "end" and L[-1]["done"] == L[-1]["planned"] == 12, L[-1]'

# compare with a budget it reaches (a precision and a --max-runs it does
# not): the ETA counts to the budget's end from the first run on, not to
# the runs planned so far (the time of 12 runs, then one block more).
# Nothing here rests on how fast the machine is: the total is the
# budget's 8 s, or later while a block runs past it.
"$IOTRIAL" compare randread -t "$T" --size 4M --time 100ms --vary bs=4k,8k \
	--precision 0.1% --max-runs 10000 --budget 8s --no-store \
	--progress=json:3 3>budget.jsonl >/dev/null 2>&1
check "compare --budget exits 0" test $? = 0
check "its ETA is the whole experiment's: the total stays the budget's" lines budget.jsonl '
u = [x for x in L if x["event"] != "end" and x.get("eta_s") is not None]
assert u and L[-1]["event"] == "end", L[-1]
assert all(x["eta_by"] == "budget" for x in u), [x["eta_by"] for x in u]
low = [(x["done"], x["total_s"]) for x in u if x["total_s"] < 8 - 1e-3]
assert not low, low'

# run --job: one start and one end for the whole file, a step per group,
# each section's I/Os while it runs, the ETA of the groups left
cat >two.fio <<'JOB'
[global]
directory=target
size=1M
time_based=1
runtime=1
[first]
rw=read
stonewall
[second]
rw=randread
stonewall
JOB
"$IOTRIAL" run --job two.fio --no-store --progress=json:3 \
	3>job.jsonl >/dev/null 2>job.err
check "run --job --progress=json exits 0" test $? = 0
check "its lines fit the progress schema" $V job.jsonl
check "one start, one end, a step per group in order, the ETA of what is left" lines job.jsonl '
assert L[0]["event"] == "start" and L[-1]["event"] == "end", L
assert sum(x["event"] == "end" for x in L) == 1, L
assert L[-1]["outcome"] == "done" and L[-1]["done"] == 2, L[-1]
steps = [(x["done"], x.get("arm")) for x in L if x.get("planned") == 2]
assert (0, "first") in steps and (1, "second") in steps, steps
assert steps.index((0, "first")) < steps.index((1, "second")), steps
first = [x for x in L if x.get("arm") == "first" and x.get("eta_s") is not None]
assert first and max(x["eta_s"] for x in first) <= 2.0 + 1e-6, first
assert any(x["eta_s"] > 1.0 for x in first), first
assert any(x.get("phase") == "run" and x.get("ios", 0) > 0 for x in L), L'
"$IOTRIAL" run --job two.fio --no-store --metrics-file job.prom \
	>/dev/null 2>&1
check "run --job --metrics-file writes the metrics" grep -q "^iotrial_" job.prom
if command -v promtool >/dev/null; then
	check "promtool accepts them" eval 'promtool check metrics <job.prom'
fi
