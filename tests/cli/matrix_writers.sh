#!/usr/bin/env bash
# Every command that writes a file a user names, against every kind of
# thing that name can be: nothing yet, a regular file, a symbolic link
# (to a file, and to nothing), a FIFO, a block device (a scratch loop
# device with ext4 on it, so a destroyed super block shows) and a
# directory on a read-only mount. One row per writer in WRITERS below;
# a new writer is one more row. What each kind must give:
#   new        written whole, and nothing else left beside it;
#   existing   per the writer's contract: "replace" (--json=FILE, the
#              playbook, the at-boot unit: replaced), "force" (refused
#              with "exists" unless --force, then replaced), "refuse"
#              (compare --report: refused), "store" (--db: a file that
#              is not a store is refused and left as it was);
#   link       refused, --force or not; the link and what it points to
#              untouched, nothing made where a dangling one points (a
#              --db link is followed to what it names, which must then
#              be a store: never created through a link);
#   FIFO       refused at once, --force or not (a hang is a failure),
#              still a FIFO;
#   block      refused, --force or not; the device's bytes unchanged
#              and its file system still there;
#   read-only  refused with the system's reason.
# Block devices and the read-only mount need root (those kinds are left
# out without it; so is record, which needs root and BPF).
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "needs jq"
command -v python3 >/dev/null || skip "needs python3"
cd "$TEST_TMP" || exit 1

# fixtures: a target, a store with two experiments, a trace, an iolog, a
# series with a plan, an inventory
T=$TEST_TMP/target
mkdir -p "$T" "$TEST_TMP/runs"
gen_runs "$TEST_TMP/runs" a 3 1000
gen_runs "$TEST_TMP/runs" b 3 2000
DB=$TEST_TMP/fix.db
"$IOTRIAL" import --db "$DB" runs/a0.json runs/a1.json runs/a2.json >/dev/null &&
	"$IOTRIAL" import --db "$DB" runs/b0.json runs/b1.json runs/b2.json >/dev/null ||
	skip "cannot make the fixture store"
ID1=$("$IOTRIAL" log --db "$DB" --json | jq -r '.experiments[1].id')
ID2=$("$IOTRIAL" log --db "$DB" --json | jq -r '.experiments[0].id')
TR=$TEST_TMP/fix.trace
python3 "$IOTRIAL_SRC/tests/cli/mktrace.py" "$TR" /w/a /w/b
IOLOG=$TEST_TMP/fix.iolog
printf 'fio version 3 iolog\n0 /w/a add\n0 /w/a open\n1 /w/a read 0 4096\n2 /w/a close\n' >"$IOLOG"
"$IOTRIAL" series m --define --db "$DB" -- exec -- true >/dev/null 2>&1 &&
	"$IOTRIAL" series m plan --values a,b --boots 1 --db "$DB" >/dev/null 2>&1 ||
	skip "cannot make the fixture series"
echo host1 >"$TEST_TMP/inv"

# The writers: NAME|CONTRACT|SUBDIR|FILE|CHECK|COMMAND. {DST} is the
# destination (ROOT/SUBDIR/FILE), {ROOT} its root (for --root), {FORCE}
# --force where a case gives it. CHECK says what a good output is.
WRITERS=(
	"run --json=FILE|replace||o.json|json|run seqread -t $T --size 64k --ios 4 --no-store --json={DST}"
	"compare --json=FILE|replace||o.json|json|compare randread -t $T --size 64k --ios 8 --vary bs=4k,8k --runs 2 --no-store --json={DST}"
	"compare --report|refuse||o.html|html|compare randread -t $T --size 64k --ios 8 --vary bs=4k,8k --runs 2 --no-store --report {DST}"
	"info --json=FILE|replace||o.json|json|info -t $T --json={DST}"
	"knobs --json=FILE|replace||o.json|json|knobs -t $T --json={DST}"
	"log --json=FILE|replace||o.json|json|log --db $DB --json={DST}"
	"show --json=FILE|replace||o.json|json|show $ID1 --db $DB --json={DST}"
	"diff --json=FILE|replace||o.json|json|diff $ID1 $ID2 --db $DB --json={DST}"
	"import --json=FILE|replace||o.json|json|import --db $TEST_TMP/imp.db runs/a0.json --json={DST}"
	"set --dry-run --json=FILE|replace||o.json|json|set vm.dirty_expire_centisecs=2500 --dry-run --json={DST}"
	"revert --list --json=FILE|replace||o.json|json|revert --list --json={DST}"
	"watch --json=FILE|replace||o.json|json|watch -c 1 -i 10ms --json={DST}"
	"observe --json=FILE|replace||o.json|json|observe --vary label=a,b --window 0.1s --settle 0s --windows 6 --no-store --json={DST}"
	"report -o|force||o.html|html|report $ID1 --db $DB --format html -o {DST} {FORCE}"
	"export -o|force||o.conf|text|export --set vm.dirty_expire_centisecs=2500 --format sysctl -o {DST} {FORCE}"
	"trace import -o|force||o.trace|trace|trace import -o {DST} {FORCE} $IOLOG"
	"trace export -o|force||o.iolog|text|trace export --format fio-iolog3 -o {DST} {FORCE} $TR"
	"record -o|force||o.trace|trace|record -o {DST} {FORCE} -- true"
	"fleet plan -o|replace||o.yml|text|fleet plan $TEST_TMP/inv -o {DST} -- compare randread --vary bs=4k,8k"
	"series at-boot|replace|etc/systemd/system|iotrial-series-m.service|unit|series m at-boot --install --root {ROOT} --db $DB"
	"import --db|store||o.db|store|import --db {DST} runs/a0.json"
	"run --db|store||o.db|store|run seqread -t $T --size 64k --ios 4 --db {DST}"
	"watch --metrics-file|replace||o.prom|prom|watch -c 1 -i 10ms --metrics-file {DST}"
	"run --metrics-file|replace||o.prom|prom|run seqread -t $T --size 64k --ios 4 --no-store --metrics-file {DST}"
	"compare --metrics-file|replace||o.prom|prom|compare randread -t $T --size 64k --ios 8 --vary bs=4k,8k --runs 2 --no-store --metrics-file {DST}"
	"observe --metrics-file|replace||o.prom|prom|observe --vary label=a,b --window 0.1s --settle 0s --windows 6 --no-store --metrics-file {DST}"
	"compare --export-csv|replace||o.csv|csv|compare randread -t $T --size 64k --ios 8 --vary bs=4k,8k --runs 2 --no-store --export-csv {DST}"
	"compare --export-markdown|replace||o.md|md|compare randread -t $T --size 64k --ios 8 --vary bs=4k,8k --runs 2 --no-store --export-markdown {DST}"
)

is_root=0
[ "$(id -u)" = 0 ] && is_root=1
# record needs root and a BPF capture that loads here
can_record=0
if [ $is_root = 1 ] && "$IOTRIAL" record -o "$TEST_TMP/probe.trace" -- true \
	>/dev/null 2>&1; then
	can_record=1
fi
command -v ansible-playbook >/dev/null && can_fleet=1 || can_fleet=0

# the block device (ext4 on a loop device of ours) and the read-only
# mount, and what the device's first MiB and file system are
if [ $is_root = 1 ] && mkloop 32M && mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1; then
	BLK=$LOOP
	BLK_MM=$(printf '%d %d' "0x$(stat -c %t "$BLK")" "0x$(stat -c %T "$BLK")")
	BLK_SUM=$(head -c 1M "$BLK" | md5sum)
	mkloop 32M && mkmount "$LOOP" && RO=$MNT || RO=
else
	BLK= RO=
	echo "# not root: the block device and read-only kinds are left out"
fi
blk_intact() {
	[ "$(head -c 1M "$BLK" | md5sum)" = "$BLK_SUM" ] &&
		[ "$(blkid -p -o value -s TYPE "$BLK")" = ext4 ]
}

# good CHECK FILE: is FILE what the writer writes?
good() {
	case $1 in
	json) jq -e . "$2" >/dev/null 2>&1 ;;
	html) grep -q '^<!DOCTYPE html>' "$2" ;;
	text) [ -s "$2" ] && ! grep -qx keep "$2" ;;
	trace) "$IOTRIAL" trace stats "$2" >/dev/null 2>&1 ;;
	unit) grep -q '^ExecStart=' "$2" ;;
	store) "$IOTRIAL" log --db "$2" >/dev/null 2>&1 ;;
	prom) grep -q '^# TYPE iotrial_' "$2" ;;
	csv) head -1 "$2" | grep -q '^arm,metric,unit,runs' ;;
	md) head -1 "$2" | grep -q '^| Arm | Runs | Median' ;;
	esac
}

# run_case ROOT FORCE: the row's command for ROOT (its DST under it),
# with --force when FORCE is 1; sets rc (124: it hung) and err
n_case=0
run_case() {
	local cmd=${row_cmd//\{ROOT\}/$1} args
	cmd=${cmd//\{DST\}/$1/${row_sub:+$row_sub/}$row_file}
	if [ "$2" = 1 ]; then cmd=${cmd//\{FORCE\}/--force}; else cmd=${cmd//\{FORCE\}/}; fi
	read -ra args <<<"$cmd"
	n_case=$((n_case + 1))
	timeout 60 "$IOTRIAL" "${args[@]}" >"$TEST_TMP/out" 2>"$TEST_TMP/err" \
		</dev/null
	rc=$?
	err=$(head -c 600 "$TEST_TMP/err")
}

# fresh ROOT: an empty root with the row's subdirectory; sets dst
fresh() {
	rm -rf "$1"
	mkdir -p "$1/$row_sub"
	dst=$1/${row_sub:+$row_sub/}$row_file
}

# refused NAME PATTERN: rc is a refusal (not 0, not a hang) with PATTERN
refused() {
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && grep -qE -- "$2" <<<"$err"; then
		return 0
	fi
	echo "#   $1: rc=$rc: $err"
	return 1
}

for row in "${WRITERS[@]}"; do
	IFS='|' read -r name contract row_sub row_file check row_cmd <<<"$row"
	case $name in record*) [ $can_record = 1 ] || {
		echo "# $name left out: needs root and the BPF capture"; continue; } ;; esac
	case $name in fleet*) [ $can_fleet = 1 ] || {
		echo "# $name left out: needs ansible-playbook"; continue; } ;; esac
	forces=0
	[ "$contract" = force ] && forces="0 1"
	R=$TEST_TMP/w

	# a name that is not there yet
	fresh "$R"
	run_case "$R" 0
	check "$name: new: written ($rc)" eval 'good $check "$dst" || { echo "#   $err"; false; }'
	check "$name: new: nothing else left beside it" \
		test -z "$(find "$(dirname "$dst")" -maxdepth 1 \( -name '*.tmp' -o -name '.*iotrial*' \))"

	# a regular file that is there
	fresh "$R"
	echo keep >"$dst"
	run_case "$R" 0
	case $contract in
	replace) check "$name: existing: replaced" good "$check" "$dst" ;;
	force | refuse)
		check "$name: existing: refused" refused existing "exists; give another file, or"
		check "$name: existing: left as it was" grep -qx keep "$dst"
		if [ $contract = force ]; then
			run_case "$R" 1
			check "$name: existing with --force: replaced" good "$check" "$dst"
		fi ;;
	store)
		check "$name: existing non-store: refused" refused existing "not an iotrial results store"
		check "$name: existing non-store: left as it was" grep -qx keep "$dst" ;;
	esac

	for f in $forces; do
		w=""
		[ "$f" = 1 ] && w=" with --force"
		# a link to a file, and a link to nothing
		fresh "$R"
		echo victim >"$R/victim"
		ln -s "$R/victim" "$dst"
		run_case "$R" "$f"
		if [ $contract = store ]; then
			check "$name: link to a non-store$w: refused" refused link "not an iotrial results store"
		else
			check "$name: link$w: refused" refused link "a symbolic link, which iotrial neither writes through nor replaces"
		fi
		check "$name: link$w: link and file untouched" \
			eval '[ -L "$dst" ] && [ "$(cat "$R/victim")" = victim ]'
		fresh "$R"
		ln -s "$R/nowhere" "$dst"
		run_case "$R" "$f"
		check "$name: dangling link$w: refused" refused dangling "symbolic link"
		check "$name: dangling link$w: nothing made through it" \
			eval '[ -L "$dst" ] && [ ! -e "$R/nowhere" ]'

		# a FIFO
		fresh "$R"
		mkfifo "$dst"
		run_case "$R" "$f"
		check "$name: FIFO$w: refused at once" refused FIFO "a FIFO, not a"
		check "$name: FIFO$w: still a FIFO" test -p "$dst"

		# a block device with a file system
		if [ -n "$BLK" ]; then
			fresh "$R"
			# shellcheck disable=SC2086 # major and minor
			mknod "$dst" b $BLK_MM
			run_case "$R" "$f"
			check "$name: block device$w: refused" refused block "a block device, not a"
			check "$name: block device$w: its bytes and file system intact" blk_intact
		fi
	done

	# a read-only mount
	if [ -n "$RO" ]; then
		mount -o remount,rw "$RO"
		fresh "$RO/w"
		mount -o remount,ro "$RO"
		run_case "$RO/w" 0
		check "$name: read-only mount: refused with the reason" \
			refused read-only "Read-only file system"
	fi
done
echo "# $n_case cases"
