#!/usr/bin/env bash
# iotrial record and trace show|stats: a command's file-system calls are
# captured with their counts, sizes, names and the files' starting
# state; -p follows a running process; a tiny ring buffer loses calls
# and says so; --progress=json follows the capture; bad command lines
# and bad trace files are refused.
. "$(dirname "$0")/lib.sh"
need_root
W="$TEST_TMP/w"
mkdir -p "$W"
cd "$W" || exit 1
if ! "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
	cat "$TEST_TMP/err"
	skip "the BPF capture cannot load here"
fi

# --progress=json: a start, the capture's events, an end that says done
"$IOTRIAL" record --progress=json:3 -o "$TEST_TMP/tp" -- sh -c 'echo x >p' \
	3>"$TEST_TMP/rec.jsonl" >/dev/null 2>&1
check "record --progress=json:3 exits 0" test $? = 0
check "...its lines fit the progress schema" python3 \
	"$IOTRIAL_SRC/tests/json_schema.py" "$IOTRIAL_SRC/docs/schema" \
	"$TEST_TMP/rec.jsonl"
check "...a start, then the end: done, with the events and the lost count" \
	python3 - "$TEST_TMP/rec.jsonl" <<'PY'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
assert L[0]["event"] == "start" and L[-1]["event"] == "end", L
assert L[-1]["outcome"] == "done" and L[-1]["lost"] == 0, L[-1]
assert L[-1]["events"] > 0 and all(x["command"] == "record" for x in L), L
PY
rm -f p

# a known workload: 100 writes of 4 KiB, a copy, a mkdir, a rename, a
# directory listing, an append to a file that was there, removals (of
# everything made, and of that file: by the time record reads what the
# kernel handed it, none is there to look at)
echo old >"$W/before"
printf 12345 >"$W/grown"
"$IOTRIAL" record -o "$TEST_TMP/t1" -- sh -c \
	'dd if=/dev/zero of=f1 bs=4k count=100 2>/dev/null; cat f1 > f2;
	 mkdir d; mv f2 d/f3; ls d >/dev/null; cat before >/dev/null;
	 echo more >> grown; rm -r d f1 grown' >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "record a command" test $? = 0
check "record says what it recorded and what it cost" \
	grep -q "^capture cost: .* of a core in BPF" "$TEST_TMP/out"
"$IOTRIAL" trace stats "$TEST_TMP/t1" >"$TEST_TMP/stats"
ops() { awk -v op="$1" '$1 == op && $3 ~ /\/s$/ { print $2 }' "$TEST_TMP/stats"; }
check "the 100 writes of dd (and no more than the few of ls, sh)" \
	test "$(ops write)" -ge 101 -a "$(ops write)" -le 106
check "a rename, a mkdir, an rmdir, three unlinks" \
	test "$(ops rename)" = 1 -a "$(ops mkdir)" = 1 \
	-a "$(ops rmdir)" = 1 -a "$(ops unlink)" = 3 ||
	grep -E '^  (rename|mkdir|rmdir|unlink) ' "$TEST_TMP/stats"
check "800 KiB written (dd, then cat to f2, and 5 B)" \
	grep -q "written 800 KiB$" "$TEST_TMP/stats"
check "4 KiB writes in the size table" \
	grep -q "write  4 KiB to under 8 KiB: 100" "$TEST_TMP/stats"
"$IOTRIAL" trace show "$TEST_TMP/t1" >"$TEST_TMP/show"
check "'before' existed, with its size" \
	grep -q "file  existed 4 B $W/before\$" "$TEST_TMP/show" ||
	grep " $W/before\$" "$TEST_TMP/show"
check "the rename's target is a file of its own" \
	grep -q "file  new     $W/d/f3\$" "$TEST_TMP/show" ||
	grep " $W/d/f3\$" "$TEST_TMP/show"
check "the directory made and removed is a new directory" \
	grep -q "dir   new     $W/d\$" "$TEST_TMP/show" ||
	grep " $W/d\$" "$TEST_TMP/show"
# what the kernel says at the opens' exits (without its BTF, record has
# only a later statx, after the files are gone, and a birth time that
# can be a tick before the start: it says so)
if grep -q "kernel's BTF" "$TEST_TMP/err"; then
	echo "# no kernel BTF here: the checks of f1 and 'grown' are left out"
else
	check "f1 was made in the trace" \
		grep -q "file  new     $W/f1\$" "$TEST_TMP/show" ||
		grep " $W/f1\$" "$TEST_TMP/show"
	check "a file there before, opened with O_CREAT (>>) and gone: existed, with its size then" \
		grep -q "file  existed 5 B $W/grown\$" "$TEST_TMP/show" ||
		grep " $W/grown\$" "$TEST_TMP/show"
fi
check "nothing lost" grep -q "^end: .* 0 lost" "$TEST_TMP/show"
check "the command is in the trace" grep -q "command = sh -c" "$TEST_TMP/show"

# failed calls: a mkdir refused with EEXIST found its directory there; an
# ENOTDIR (a file named as a directory) says nothing of the name, which
# was there if it is still there, and not if it is not
mkdir -p "$W/exdir"
echo x >"$W/odir"
"$IOTRIAL" record -o "$TEST_TMP/t5" -- sh -c \
	'mkdir exdir; ls odir/; cat odir/nothing; cat nothere' >/dev/null 2>&1
"$IOTRIAL" trace show "$TEST_TMP/t5" >"$TEST_TMP/show"
check "a mkdir that failed with EEXIST: its directory existed" \
	grep -q "dir   existed $W/exdir\$" "$TEST_TMP/show" ||
	grep " $W/exdir\$" "$TEST_TMP/show"
check "a file looked at as a directory (ENOTDIR): it existed" \
	grep -q "file  existed 2 B $W/odir\$" "$TEST_TMP/show" ||
	grep " $W/odir\$" "$TEST_TMP/show"
check "a name below a file (ENOTDIR) was not there, and the trace did not make it" \
	grep -q "absent  $W/odir/nothing\$" "$TEST_TMP/show" ||
	grep " $W/odir/nothing\$" "$TEST_TMP/show"
check "a name looked up and never there (ENOENT) is absent, not new" \
	grep -q "^ *[0-9]* ?     absent  $W/nothere\$" "$TEST_TMP/show" ||
	grep " $W/nothere\$" "$TEST_TMP/show"
"$IOTRIAL" trace stats "$TEST_TMP/t5" >"$TEST_TMP/stats"
check "a trace shorter than a second gives its rate over its length" \
	grep -q "ops/s .*(over its 0\.[0-9]* s)\$" "$TEST_TMP/stats"
rm -r "$W/exdir" "$W/odir"

# -p: a process running before the capture, with a child
mkfifo "$TEST_TMP/fifo"
sh -c 'read x < "$0"; dd if=/dev/zero of=pf bs=8k count=20 2>/dev/null' \
	"$TEST_TMP/fifo" &
pid=$!
"$IOTRIAL" record -p "$pid" -o "$TEST_TMP/t2" >"$TEST_TMP/out" 2>&1 &
rec=$!
# the capture is on once the trace file has its header and the meta
for _ in $(seq 100); do
	[ "$(stat -c %s "$TEST_TMP/t2" 2>/dev/null || echo 0)" -gt 16 ] && break
	sleep 0.1
done
sleep 0.3
echo go >"$TEST_TMP/fifo"
wait "$pid"
wait "$rec"
check "record -p ends when the process does" test $? = 0
"$IOTRIAL" trace stats "$TEST_TMP/t2" >"$TEST_TMP/stats"
check "-p: the 20 writes of 8 KiB of its child" \
	grep -q "write  8 KiB to under 16 KiB: 20" "$TEST_TMP/stats"

# a ring buffer of one page cannot hold a burst of calls
"$IOTRIAL" record --ring 4K -o "$TEST_TMP/t3" -- \
	dd if=/dev/zero of=lf bs=512 count=20000 >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "a tiny ring buffer: lost calls are warned about" \
	grep -q "calls were lost" "$TEST_TMP/err"
"$IOTRIAL" trace stats "$TEST_TMP/t3" >"$TEST_TMP/stats"
check "and the trace counts them" grep -q "^lost: [1-9][0-9]* calls" "$TEST_TMP/stats"
rm -f lf pf

# --anonymize: the trace names nothing, the tree keeps its shape
"$IOTRIAL" record --anonymize -o "$TEST_TMP/t4" -- sh -c 'echo x > an1' \
	>/dev/null 2>&1
"$IOTRIAL" trace show "$TEST_TMP/t4" >"$TEST_TMP/show"
check "--anonymize: no path of the work directory" \
	sh -c "! grep -q '$W' '$TEST_TMP/show'"
check "--anonymize: no command" sh -c "! grep -q 'command =' '$TEST_TMP/show'"
check "--anonymize: paths of hashes" \
	grep -qE ' (/[0-9a-f]{16}){2,}$' "$TEST_TMP/show"
rm -f an1

# refusals
"$IOTRIAL" record -- true >/dev/null 2>"$TEST_TMP/err"
check "no -o: usage" test $? = 2
"$IOTRIAL" record -p 1 --cgroup /sys/fs/cgroup -o x >/dev/null 2>"$TEST_TMP/err"
check "two targets: usage" test $? = 2
"$IOTRIAL" record -o "$TEST_TMP/t1" -- true >/dev/null 2>"$TEST_TMP/err"
check "an existing trace is not replaced without --force" test $? = 2
check "and says so" grep -q "exists; give another file, or --force" "$TEST_TMP/err"
printf 'not a trace' >"$TEST_TMP/bad"
"$IOTRIAL" trace stats "$TEST_TMP/bad" >/dev/null 2>"$TEST_TMP/err"
check "a file that is not a trace: refused" test $? = 2
check "with why" grep -q "not an iotrial trace" "$TEST_TMP/err"

# a command that cannot be run is a failure, not a trace of nothing; a
# command that runs and fails is recorded, its exit code said
"$IOTRIAL" record -o "$TEST_TMP/nocmd.trace" -- "$TEST_TMP/no-such-command" \
	>/dev/null 2>"$TEST_TMP/err"
check "a command that cannot be run: exit 1" test $? = 1
check "...saying it did not run and the trace holds none of it" \
	grep -q "did not run, so '$TEST_TMP/nocmd.trace' holds none of its calls" "$TEST_TMP/err"
check "...and not 'recorded'" eval '! grep -q "^recorded" "$TEST_TMP/err"'
"$IOTRIAL" record -o "$TEST_TMP/exit3.trace" -- sh -c 'exit 3' \
	>/dev/null 2>"$TEST_TMP/err"
check "a command that exits 3 is recorded (exit 0)" test $? = 0
check "...with a note of its exit code" grep -q "'sh' exited with 3" "$TEST_TMP/err"
