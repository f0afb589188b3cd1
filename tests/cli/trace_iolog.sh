#!/usr/bin/env bash
# fio iologs both ways: a trace exported as a version 3 iolog is
# replayed by fio with as many reads and writes as the trace has; an
# iolog fio wrote imports and replays with every call as recorded; a
# malformed iolog is refused with its line.
# parallel: runs in a directory of its own; measures nothing another test changes
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "fio is not installed"
W="$TEST_TMP/w"
mkdir -p "$W" "$TEST_TMP/target"
cd "$W" || exit 1

# fio's own iolog, imported (no root, no BPF needed)
fio --name=w --filename="$W/fiof" --rw=randrw --bs=4k --size=1M \
	--ioengine=psync --write_iolog="$TEST_TMP/fio.iolog" \
	--output-format=json >"$TEST_TMP/fio.json" 2>/dev/null
check "fio writes an iolog" test -s "$TEST_TMP/fio.iolog"
ios=$(json "$TEST_TMP/fio.json" \
	"o['jobs'][0]['read']['total_ios'] + o['jobs'][0]['write']['total_ios']")
"$IOTRIAL" trace import -o "$TEST_TMP/imp.trace" "$TEST_TMP/fio.iolog" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "it imports" test $? = 0
"$IOTRIAL" trace stats "$TEST_TMP/imp.trace" >"$TEST_TMP/stats"
got=$(awk '($1 == "read" || $1 == "write") && $3 ~ /\/s$/ { n += $2 } END { print n }' \
	"$TEST_TMP/stats")
check "with fio's $ios reads and writes ($got)" test "$got" = "$ios"
"$IOTRIAL" run replay --trace "$TEST_TMP/imp.trace" -t "$TEST_TMP/target" \
	--speed max --no-store --json="$TEST_TMP/r.json" >"$TEST_TMP/out" 2>&1
check "the imported trace replays" test $? = 0
check "every call as recorded" grep -q "; 0 calls ended otherwise" "$TEST_TMP/out"
fid=$(grep -o '"fidelity": *[0-9.]*' "$TEST_TMP/r.json" | head -1 |
	grep -o '[0-9.]*$')
check "fidelity 100 in the run object ($fid)" test "$fid" = 100.0

# and back out: the export of the import, replayed by fio
"$IOTRIAL" trace export --format fio-iolog3 -o "$TEST_TMP/back.iolog" \
	"$TEST_TMP/imp.trace" 2>"$TEST_TMP/err"
check "the trace exports" test $? = 0
check "as a version 3 iolog" test "$(head -1 "$TEST_TMP/back.iolog")" = "fio version 3 iolog"
fio --name=r --read_iolog="$TEST_TMP/back.iolog" --ioengine=psync \
	--output-format=json >"$TEST_TMP/fio2.json" 2>/dev/null
check "fio replays it" test $? = 0
ios2=$(json "$TEST_TMP/fio2.json" \
	"o['jobs'][0]['read']['total_ios'] + o['jobs'][0]['write']['total_ios']")
check "with the same $ios reads and writes ($ios2)" test "$ios2" = "$ios"

# refusals
printf 'fio version 3 iolog\n0 /x add\nzz /x read 0 4096\n' >"$TEST_TMP/bad"
"$IOTRIAL" trace import -o "$TEST_TMP/bad.trace" "$TEST_TMP/bad" \
	>/dev/null 2>"$TEST_TMP/err"
check "a line without a timestamp is refused" test $? = 2
check "naming the line" grep -q "line 3: expected a timestamp" "$TEST_TMP/err"
check "and no trace is left" test ! -e "$TEST_TMP/bad.trace"
printf 'fio version 2 iolog\n../../etc/passwd add\n' >"$TEST_TMP/bad2"
"$IOTRIAL" trace import -o "$TEST_TMP/bad2.trace" "$TEST_TMP/bad2" \
	>/dev/null 2>"$TEST_TMP/err"
check "a file name with .. is refused" test $? = 2
"$IOTRIAL" trace export --format csv "$TEST_TMP/imp.trace" >/dev/null 2>&1
check "an unknown export format is a usage error" test $? = 2

# --anonymize: no name of the trace is left, the same name hashes alike
"$IOTRIAL" trace export --format fio-iolog3 --anonymize \
	-o "$TEST_TMP/anon.iolog" "$TEST_TMP/imp.trace" 2>/dev/null
check "an anonymized export holds no name of the trace" \
	sh -c "! grep -q fiof '$TEST_TMP/anon.iolog'"
check "but as many lines" \
	test "$(wc -l <"$TEST_TMP/anon.iolog")" = "$(wc -l <"$TEST_TMP/back.iolog")"
check "each component a 16-digit hash" \
	grep -qE '^[0-9]+ (/[0-9a-f]{16})+ add$' "$TEST_TMP/anon.iolog"

# paths no iolog line can name (a tab, a space, a newline, an escape
# sequence, a name over fio's 256 bytes): left out and named, never
# written raw (fio read the tab as another action and crashed; the
# escape went to the terminal; a space or a newline was dropped saying
# nothing)
long="/w/$(printf 'x%.0s' $(seq 260))"
python3 "$IOTRIAL_SRC/tests/cli/mktrace.py" "$TEST_TMP/odd.trace" '/w/a\tb' \
	'/w/c d' '/w/n\nl' '/w/e\x1b]0;pwn\x07f' '/w/csi\x1b[2J' "$long" \
	"$W/plain"
head -c 8192 /dev/zero >"$W/plain"
"$IOTRIAL" trace export --format fio-iolog3 "$TEST_TMP/odd.trace" \
	>"$TEST_TMP/odd.iolog" 2>"$TEST_TMP/err"
check "a trace with unnameable paths exports" test $? = 0
check "no control byte but the line ends in the iolog" \
	sh -c "! LC_ALL=C grep -q '[[:cntrl:]]' '$TEST_TMP/odd.iolog'"
check "every line is one name and its words" \
	awk 'NR > 1 && NF != 3 && NF != 5 { bad = 1 } END { exit bad }' \
	"$TEST_TMP/odd.iolog"
check "the nameable file is there" grep -q "^[0-9]* $W/plain read 0 4096$" \
	"$TEST_TMP/odd.iolog"
check "what is left out is counted and named" \
	grep -q "warning: 6 reads, writes and syncs on 6 files left out: a fio iolog line cannot name a path with white space or a control character, or one over 256 bytes ('/w/a?b' and others)" \
	"$TEST_TMP/err"
check "and no escape reaches the terminal" \
	sh -c "! LC_ALL=C grep -q \"\$(printf '\\033')\" '$TEST_TMP/err'"
(cd "$W" && fio --name=odd --read_iolog="$TEST_TMP/odd.iolog" \
	--ioengine=psync --output-format=json >"$TEST_TMP/fio3.json" 2>&1)
check "fio replays the export" test $? = 0

# blkparse's records are binary: not written to a terminal
if command -v script >/dev/null; then
	script -qec "'$IOTRIAL' trace export --format blkparse '$TEST_TMP/odd.trace'" \
		/dev/null >"$TEST_TMP/tty" 2>&1
	check "blkparse export to a terminal is refused" test $? = 2
	check "saying where it can go" grep -q "binary, not for a terminal; give -o FILE" \
		"$TEST_TMP/tty"
fi

# --root: the paths below a directory, as a replay maps them (the
# directory every file shares taken off); each file closed after its
# last line, so fio holds one open at a time: 300 files replay under a
# descriptor limit of 48 (opened all at once and closed at the end, a
# tree of 22,401 files ran fio out of descriptors)
paths=()
for d in 0 1 2; do
	for f in $(seq 0 99); do paths+=("/data/tree/d$d/f$f"); done
done
python3 "$IOTRIAL_SRC/tests/cli/mktrace.py" "$TEST_TMP/many.trace" "${paths[@]}"
R="$TEST_TMP/root"
"$IOTRIAL" trace export --format fio-iolog3 --root "$R" \
	-o "$TEST_TMP/many.iolog" "$TEST_TMP/many.trace" >"$TEST_TMP/out" 2>&1
check "export below a root" test $? = 0
check "every name is below it, none of the trace's own" \
	awk -v r="$R/" 'NR > 1 && index($2, r) != 1 { bad = 1 } END { exit bad }' \
	"$TEST_TMP/many.iolog"
check "mapped as a replay maps them (the shared /data/tree taken off)" \
	grep -q "^[0-9]* $R/d1/f7 read 0 4096$" "$TEST_TMP/many.iolog"
check "each file closed after its last line" \
	test "$(grep -c ' close$' "$TEST_TMP/many.iolog")" = 300
check "it says how many fio holds open at once" \
	grep -q "^note: fio holds at most 1 file open at once" "$TEST_TMP/out"
check "and what must be there first" \
	grep -q "^note: fio reads 300 files that existed before the trace (2.3 MiB) and makes no directory: they and 3 directories below '$R' must be there first" \
	"$TEST_TMP/out"
for p in "${paths[@]}"; do
	mkdir -p "$R/$(dirname "${p#/data/tree/}")"
	head -c 8192 /dev/zero >"$R/${p#/data/tree/}"
done
(ulimit -n 48 && fio --name=m --read_iolog="$TEST_TMP/many.iolog" \
	--ioengine=psync --output-format=json >"$TEST_TMP/fio4.json" 2>/dev/null)
check "fio replays the 300 files under 'ulimit -n 48'" test $? = 0
check "all 300 reads" \
	test "$(json "$TEST_TMP/fio4.json" "o['jobs'][0]['read']['total_ios']")" = 300
expect_usage "--root must be absolute and plain" "not a plain absolute path" \
	trace export --format fio-iolog3 --root "rel/dir" "$TEST_TMP/many.trace"
expect_usage "--root goes with the iolog" "'--root' goes with '--format fio-iolog3'" \
	trace export --format blkparse --root "$R" -o "$TEST_TMP/x.blk" \
	"$TEST_TMP/many.trace"

# files open together: the descriptors fio needs, and a warning when
# the limit here is lower; a dump written under a temporary name and
# renamed is written and read under its last name (fio renames nothing)
python3 - "$TEST_TMP/open.trace" "$TEST_TMP/dump.trace" "$TEST_TMP/uring.trace" <<'PY'
import struct, sys
def rec(t, p): return struct.pack('<II', t, len(p)) + p
def ev(ts, op, fid, off=0, size=0, ret=0, fd=-1, file2=0, tid=1):
    return struct.pack('<QQIHHIIQQqIi', ts, 1000, tid, op, 0, fid, file2,
                       off, size, ret, 0, fd)
def trace(path, files, events):
    d = b'IOTRACE\n' + struct.pack('<HHI', 1, 3, 16)
    for i, (p, existed) in enumerate(files, 1):
        d += rec(2, struct.pack('<IBBHQQQ', i, 1, existed, len(p), 0, 0,
                                8192 if existed else 0) + p)
    d += rec(3, b''.join(events))
    d += rec(4, struct.pack('<QQQQQQ', len(events), 0, 10**9, 0, 0, 0))
    open(path, 'wb').write(d)
# 100 files opened, each read, then all closed
files = [(b'/w/o%d' % i, 1) for i in range(100)]
e = [ev(1000 + i, 1, i + 1, ret=3 + i, fd=3 + i) for i in range(100)]
e += [ev(200000 + i, 3, i + 1, 0, 4096, 4096, 3 + i) for i in range(100)]
e += [ev(400000 + i * 1000, 3, i + 1, 4096, 4096, 4096, 3 + i) for i in range(100)]
e += [ev(900000 + i, 2, i + 1, fd=3 + i) for i in range(100)]
trace(sys.argv[1], files, e)
# a producer writes .tmp, fsyncs, renames it dump; a consumer reads dump
files = [(b'/spool/.tmp', 0), (b'/spool/dump', 0)]
e = [ev(1000, 1, 1, ret=3, fd=3), ev(2000, 4, 1, 0, 8192, 8192, 3),
     ev(3000, 6, 1, fd=3), ev(4000, 2, 1, fd=3), ev(5000, 12, 1, file2=2),
     ev(6000, 1, 2, ret=4, fd=4, tid=2), ev(7000, 3, 2, 0, 8192, 8192, 4, tid=2),
     ev(8000, 2, 2, fd=4, tid=2)]
trace(sys.argv[2], files, e)
# io_uring requests on ring 1 (file2), written as they completed: the
# read submitted last completed first
files = [(b'/u/f', 1)]
e = [ev(1000, 1, 1, ret=3, fd=3), ev(5000, 28, 1, 4096, 4096, 4096, 3, 1),
     ev(2000, 29, 1, 0, 4096, 4096, 3, 1), ev(3000, 28, 1, 0, 4096, 4096, 3, 1),
     ev(6000, 30, 1, 0, 0, 0, 3, 1), ev(7000, 2, 1, fd=3)]
trace(sys.argv[3], files, e)
PY
(ulimit -n 64 && "$IOTRIAL" trace export --format fio-iolog3 --root "$R/o" \
	-o "$TEST_TMP/open.iolog" "$TEST_TMP/open.trace" >"$TEST_TMP/out" 2>&1)
check "100 files open together: fio holds 100" \
	grep -q "^note: fio holds at most 100 files open at once" "$TEST_TMP/out"
check "more than 'ulimit -n' allows here: said, with what it needs" \
	grep -q "^warning: fio needs 116 descriptors or more for it; 'ulimit -n' is 64 here" \
	"$TEST_TMP/out"
"$IOTRIAL" trace export --format fio-iolog3 --root "$R/s" \
	-o "$TEST_TMP/dump.iolog" "$TEST_TMP/dump.trace" >"$TEST_TMP/out" 2>&1
check "a renamed dump: written under its last name" \
	grep -q "^[0-9]* $R/s/dump write 0 8192$" "$TEST_TMP/dump.iolog"
check "its temporary name has no line" \
	sh -c "! grep -q '\\.tmp' '$TEST_TMP/dump.iolog'"
check "saying so, and what no line can say (the rename), and the threads" \
	grep -q "^note: 2 reads, writes and syncs of data a rename moved are played under the name it ended with" \
	"$TEST_TMP/out" && grep -q "^note: 1 name operations (unlink, rename" \
	"$TEST_TMP/out" && grep -q "^note: the trace's 2 threads play as one fio job" \
	"$TEST_TMP/out"
mkdir -p "$R/s"
(cd "$R/s" && fio --name=s --read_iolog="$TEST_TMP/dump.iolog" \
	--ioengine=psync --output-format=json >"$TEST_TMP/fio5.json" 2>/dev/null)
check "fio replays it: the dump is read where it was written" \
	test "$(json "$TEST_TMP/fio5.json" "o['jobs'][0]['read']['total_ios'] + o['jobs'][0]['write']['total_ios']")" = 2
# without a root, an iolog that writes writes to the trace's own paths
"$IOTRIAL" trace export --format fio-iolog3 "$TEST_TMP/dump.trace" \
	>/dev/null 2>"$TEST_TMP/err"
check "an export that writes to the trace's own paths warns" \
	grep -q "^warning: the iolog writes to the trace's own paths (1 writes): fio would write to those files where they are; --root DIR puts them below DIR instead" \
	"$TEST_TMP/err"

# io_uring requests: lines as the read, write or sync they do, in the
# order they were submitted (fio issues the lines in theirs)
"$IOTRIAL" trace export --format fio-iolog3 --root "$R/u" \
	-o "$TEST_TMP/uring.iolog" "$TEST_TMP/uring.trace" >/dev/null 2>&1
check "io_uring requests export in the order they were submitted" test \
	"$(awk 'NR > 1 && $3 != "add" && $3 != "open" && $3 != "close" {
		printf "%s %s,", $3, $4 }' "$TEST_TMP/uring.iolog")" = \
	"write 0,read 0,read 4096,sync ," || cat "$TEST_TMP/uring.iolog"
