#!/usr/bin/env bash
# Every workload on every kind of target: the cross product users hit.
# Each cell of the two tables below (a workload row times a target
# column) either runs, or is refused where the row says it is, with one
# error whose advice is never the kind of target it refused; and the
# advice is taken: each target the error recommends is run with the
# same workload and must work. A workload that works on files runs on a
# raw scratch:SIZE (it gets an ext4 file system, and a note says so) and
# on every file system the tool makes. Nothing is left behind: no loop
# device, mount or image of a scratch target, no file in the directory.
# A new workload, target kind or file system is one line of a table.
. "$(dirname "$0")/lib.sh"
need_root

# our own directory (a disk file system: O_DIRECT), loop device, and
# where scratch targets are made (so that what they leave is ours)
dir=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
scr=$(mktemp -d /var/tmp/iotrial-test.XXXXXX)
TEST_DIRS+=("$dir" "$scr")
mkloop 512M /var/tmp || skip "cannot make a loop device"

# the inputs of the rows that read a file: a fio job, a trace (an fio
# iolog imported: no BPF needed), a block trace, a dbench load file
job=$TEST_TMP/job.fio
printf '[w]\nrw=randwrite\nbs=4k\nsize=2M\n' >"$job"
printf 'fio version 2 iolog\n/x add\n/x open\n/x write 0 4096\n/x read 0 4096\n/x close\n' \
	>"$TEST_TMP/t.iolog"
"$IOTRIAL" trace import -o "$TEST_TMP/t.trace" "$TEST_TMP/t.iolog" \
	>/dev/null 2>&1 || skip "cannot import a trace"
trace=$TEST_TMP/t.trace
# a block trace: blktrace's records of 20 writes, imported
python3 - "$TEST_TMP/bt.bin" <<'PY'
import struct, sys
def rec(ns, sector, nbytes, action):
    return struct.pack("<IIQQIIIIIHH", 0x65617407, 1, ns, sector, nbytes,
                       action | (2 << 16), 42, (7 << 20) | 3, 0, 0, 0)
open(sys.argv[1], "wb").write(b"".join(
    rec(1000 * i, 8 * i, 4096, 7) + rec(1000 * i + 500, 8 * i, 4096, 8)
    for i in range(1, 21)))
PY
"$IOTRIAL" trace import -o "$TEST_TMP/bt.trace" "$TEST_TMP/bt.bin" \
	>/dev/null 2>&1 || skip "cannot import a block trace"
btrace=$TEST_TMP/bt.trace
load=$TEST_TMP/load.txt
cat >"$load" <<'LOAD'
NTCreateX "\clients\client1\a" 0x40 0x2 101 NT_STATUS_OK
WriteX 101 0 4096 4096 NT_STATUS_OK
Close 101 NT_STATUS_OK
Unlink "\clients\client1\a" 0x6 NT_STATUS_OK
LOAD

# The columns: KIND and its target.
KINDS="
dir      $dir
blk      $LOOP
scratch  scratch:128M
ext4     scratch:128M:ext4
xfs      scratch:320M:xfs
"

# The rows: NAME, the kinds it is refused on (',' between; '-': none)
# and the arguments of 'iotrial run' (-t and --no-store are added; the
# quotes are the shell's, as on a command line). A
# block-layer replay writes a device: it is refused on a file system.
WORKLOADS="
seqread     -    seqread --size=4M --time 200ms
seqwrite    -    seqwrite --size=4M --time 200ms
randread    -    randread --size=4M --time 200ms
randwrite   -    randwrite --size=4M --time 200ms
randrw      -    randrw --size=4M --time 200ms
smallfiles  blk  smallfiles --time 200ms
crashdump   blk  crashdump --time 200ms --sizes 64k
mmapdirty   blk  mmapdirty --size=4M
exec        -    exec -- sh -c \"echo done\"
exec_dir    blk  exec -- sh -c \"echo x >{dir}/x\"
job         -    --job $job --time 200ms
replay      blk  replay --trace $trace
replay_blk  dir,ext4,xfs  replay --trace $btrace --layer block
loadfile    blk  smallfiles --loadfile $load --time 200ms
"

# spec KIND: the target of a column
spec() { awk -v k="$1" '$1 == k { print $2 }' <<<"$KINDS"; }

# run_cell OUT ARGS TARGET: iotrial run ARGS on TARGET, stdout and
# stderr to OUT.out and OUT.err; its exit status
run_cell() {
	local out=$1 args=$2 target=$3 a i
	eval "a=($args)"
	# -t and --no-store go before a command's "--", else at the end
	for ((i = 0; i < ${#a[@]}; i++)); do
		[ "${a[i]}" = -- ] && break
	done
	TMPDIR=$scr "$IOTRIAL" run "${a[@]:0:i}" -t "$target" --no-store \
		"${a[@]:i}" >"$out.out" 2>"$out.err"
}

# recommended ERROR-LINE: the kinds of target the error advises (what
# follows its "give", but for the "not 'TARGET'" that names the refused
# one), one a line, as KIND or KIND=TARGET when it names one
# ("scratch:1G:ext4")
recommended() {
	local e=$1 s
	[[ $e == *"give "* ]] || return 0
	e=$(sed "s/not '[^']*'//g" <<<"${e#*give }")
	grep -q 'a directory' <<<"$e" && echo dir
	grep -qE 'a (block )?device' <<<"$e" && echo blk
	for s in $(grep -oE 'scratch:[A-Za-z0-9]+(:[a-z0-9]+)?(\[[^]]*\])?' <<<"$e"); do
		case $s in
		*'['*) echo scratch; echo ext4; echo xfs ;;
		scratch:SIZE) echo scratch ;;
		scratch:SIZE:FS) echo ext4; echo xfs ;;
		scratch:SIZE:*) echo "${s##*:}" ;;
		scratch:*:*) echo "${s##*:}=$s" ;;
		*) echo "scratch=$s" ;;
		esac
	done
	grep -qE '\(or :xfs\)' <<<"$e" && echo xfs
}

cells=0
while read -r name refused args; do
	[ -n "$name" ] || continue
	while read -r kind target; do
		[ -n "$kind" ] || continue
		cells=$((cells + 1))
		out=$TEST_TMP/cell.$name.$kind
		run_cell "$out" "$args" "$target"
		rc=$?
		err=$(grep -m1 '^error: ' "$out.err")
		if [[ ",$refused," != *",$kind,"* ]]; then
			check "$name on $kind runs (rc=$rc${err:+: $err})" test $rc = 0
			continue
		fi
		check "$name on $kind is refused as a usage error with one error (rc=$rc)" \
			test $rc = 2 -a "$(grep -c '^error: ' "$out.err")" = 1
		advice=$(recommended "$err")
		check "$name on $kind: the error advises another target ($err)" \
			test -n "$advice"
		for a in $advice; do
			k=${a%%=*}
			t=${a#*=}
			[ "$t" = "$a" ] && t=$(spec "$k")
			if [ "$k" = "$kind" ]; then
				fail "$name on $kind: the error recommends what it refused ($err)"
				continue
			fi
			run_cell "$out.advice.$k" "$args" "$t"
			rc=$?
			check "$name on $kind: the advised $k target '$t' runs (rc=$rc)" \
				test $rc = 0
		done
	done <<<"$KINDS"
done <<<"$WORKLOADS"
check "every cell of the matrix was run ($cells)" \
	test "$cells" = $(($(grep -c . <<<"$WORKLOADS") * $(grep -c . <<<"$KINDS")))

check "a workload on files says that its raw scratch got a file system" \
	grep -q "^note: smallfiles works on files, so 'scratch:128M' gets an ext4 file system (as 'scratch:128M:ext4')$" \
	"$TEST_TMP/cell.smallfiles.scratch.err"
check "a raw scratch too small for a file system says so, and what size" \
	bash -c '"$1" run mmapdirty -t scratch:4M --no-store 2>&1 >/dev/null |
		grep -q "^error: scratch size .4M. is too small for ext4 (the workload works on files, so the scratch device gets a file system); give at least 16 MiB$"' \
	_ "$IOTRIAL"
check "no scratch target is left (loop device, mount or image)" \
	test -z "$(find "$scr" -mindepth 1 -print -quit)$(grep -F "$scr" /proc/self/mountinfo)$(losetup -a | grep -F "$scr")"
check "nothing is left in the directory target" \
	test -z "$(find "$dir" -mindepth 1 -print -quit)"
