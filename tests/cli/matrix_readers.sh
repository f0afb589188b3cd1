#!/usr/bin/env bash
# Every command that reads a file a user names, against what that file
# can be: good, a FIFO, cut short, empty, huge (a sparse file larger
# than any cap), and on a read-only mount. One row per reader in READERS
# below; a new reader is one more row. What each kind must give:
#   good       read: exit 0;
#   FIFO       refused at once with its kind named (a hang is a
#              failure: nothing writes to it);
#   cut        what the row says: a trace cut mid-record reads to its
#              last whole record as incomplete (docs/TRACE-FORMAT.md);
#              a text cut mid-line is refused with its line, or read;
#   empty      refused with a sentence, or read as nothing;
#   huge       refused by its size at once (never read whole), or read
#              as far as the reader reads (a log is followed from its
#              end; SQLite reads a store's pages, not the whole file);
#   read-only  read as the good file is (a store too: SQLite cannot make
#              its -shm file there). Needs root (left out without it).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
cd "$TEST_TMP" || exit 1

T=$TEST_TMP/target
mkdir -p "$T" "$TEST_TMP/runs"
gen_runs "$TEST_TMP/runs" a 3 1000
DB=$TEST_TMP/fix.db
"$IOTRIAL" import --db "$DB" runs/a0.json runs/a1.json runs/a2.json >/dev/null ||
	skip "cannot make the fixture store"
ID=$("$IOTRIAL" log --db "$DB" | awk 'NR == 2 { print $1 }')

# make KIND FILE: a good file of KIND
make() {
	case $1 in
	trace) python3 "$IOTRIAL_SRC/tests/cli/mktrace.py" "$2" /w/a /w/b ;;
	iolog) printf 'fio version 3 iolog\n0 /w/a add\n0 /w/a open\n1 /w/a read 0 4096\n2 /w/a close\n' >"$2" ;;
	json) cp runs/a0.json "$2" ;;
	job) printf '[j]\nrw=read\nbs=4k\nsize=64k\n' >"$2" ;;
	load) printf 'Mkdir "\\\\d" NT_STATUS_OK\nNTCreateX "\\\\d\\\\f" 0x40 0x2 100 NT_STATUS_OK\nWriteX 100 0 4096 4096 NT_STATUS_OK\nClose 100 NT_STATUS_OK\n' >"$2" ;;
	log) printf 'served 1\nserved 2\n' >"$2" ;;
	store) cp "$DB" "$2" ;;
	esac
}

# The readers: NAME|GOOD|COMMAND|CUT|CUT_RC|CUT_SAYS|EMPTY_RC|EMPTY_SAYS|
# HUGE_RC|HUGE_SAYS. {SRC} is the file read, {NEW} a new output. CUT is
# the bytes cut off the end of the good file; each *_SAYS is an
# extended regex the output must hold (empty: anything).
READERS=(
	"trace show|trace|trace show {SRC}|20|0|incomplete: cut short in a record|2|an empty file, not an iotrial trace|2|too large for a trace"
	"trace stats|trace|trace stats {SRC}|20|0|its last [0-9]+ bytes, a record cut short, left out|2|an empty file, not an iotrial trace|2|too large for a trace"
	"trace export|trace|trace export --format fio-iolog3 {SRC}|20|0|fio version 3 iolog|2|an empty file, not an iotrial trace|2|too large for a trace"
	"run replay --trace|trace|run replay --trace {SRC} -t $T --speed max --no-store|20|0||2|an empty file, not an iotrial trace|1|too large for a trace"
	"trace import|iolog|trace import -o {NEW} {SRC}|9|2|line 5: expected a file name and an action|2|an empty file is no fio iolog|2|larger than 2048 MiB"
	"import|json|import --db {NEW} {SRC}|9|2|is not valid JSON: it ends in the middle|2|holds no JSON object|2|larger than 64 MiB"
	"run --job|job|run --job {SRC} -t $T --time 100ms --no-store|3|2|out of range for .size.|2|has no job section|2|not a job file: larger than 4 MiB"
	"run --loadfile|load|run smallfiles --loadfile {SRC} -t $T --clients 1 --ios 8 --no-store|20|2|line 4: expected a status|2|no operation|2|larger than 256 MiB"
	"observe --metric-file|log|observe --vary label=a,b --window 0.1s --settle 0s --windows 6 --metric-file {SRC} --metric-regex served --no-store|3|0||0||0|"
	"log --db|store|log --db {SRC}|4096|2|damaged SQLite database|0|an empty file, not a results store yet|0|"
	"show --db|store|show $ID --db {SRC}|4096|2|damaged SQLite database|2|an empty file, not a results store yet|0|"
)

is_root=0
[ "$(id -u)" = 0 ] && is_root=1
RO=
if [ $is_root = 1 ] && mkloop 32M && mkmount "$LOOP"; then
	RO=$MNT
else
	echo "# not root: the read-only kind is left out"
fi

# run_case SRC: the row's command reading SRC; sets rc (124: it hung)
# and out (stdout and stderr)
n_case=0
run_case() {
	local cmd=${row_cmd//\{SRC\}/$1} args
	rm -f "$TEST_TMP/new.out"
	cmd=${cmd//\{NEW\}/$TEST_TMP/new.out}
	read -ra args <<<"$cmd"
	n_case=$((n_case + 1))
	timeout 60 "$IOTRIAL" "${args[@]}" >"$TEST_TMP/out" 2>&1 </dev/null
	rc=$?
	out=$(head -c 2000 "$TEST_TMP/out")
}

# gives NAME RC SAYS: the case exited RC with SAYS in its output
gives() {
	if [ "$rc" = "$2" ] && { [ -z "$3" ] || grep -qE -- "$3" <<<"$out"; }; then
		return 0
	fi
	echo "#   $1: rc=$rc (want $2): $(head -c 400 <<<"$out")"
	return 1
}

for row in "${READERS[@]}"; do
	IFS='|' read -r name kind row_cmd cut cut_rc cut_says empty_rc \
		empty_says huge_rc huge_says <<<"$row"
	d=$TEST_TMP/r
	rm -rf "$d"
	mkdir -p "$d"
	f=$d/j.fio # one name for every kind (the job file's errors name it)

	make "$kind" "$f"
	run_case "$f"
	check "$name: good: read" gives good 0 ""

	rm -f "$f"
	mkfifo "$f"
	run_case "$f"
	check "$name: FIFO: refused at once" gives FIFO 2 "a FIFO, not a"

	rm -f "$f"
	make "$kind" "$f"
	truncate -s "-$cut" "$f"
	run_case "$f"
	check "$name: cut: as it should" gives cut "$cut_rc" "$cut_says"

	: >"$f"
	run_case "$f"
	check "$name: empty: as it should" gives empty "$empty_rc" "$empty_says"

	make "$kind" "$f"
	truncate -s 5G "$f"
	run_case "$f"
	check "$name: huge: as it should" gives huge "$huge_rc" "$huge_says"
	rm -f "$f"

	if [ -n "$RO" ]; then
		mount -o remount,rw "$RO"
		rm -rf "${RO:?}"/*
		make "$kind" "$RO/j.fio"
		mount -o remount,ro "$RO"
		run_case "$RO/j.fio"
		check "$name: read-only mount: read" gives read-only 0 ""
	fi
done
echo "# $n_case cases"
