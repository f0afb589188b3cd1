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
