#!/usr/bin/env bash
# Bad input to `set`: an unknown knob (nearest suggested), a value the
# kernel does not offer (what it offers is listed), out of range, a unit
# the knob cannot take, no device, a device that does not exist, twins
# in one command, a non-root user (knobs still works), and a corrupt
# journal (refused, with how to inspect it; never discarded).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"

out=$TEST_TMP/out

# try EXPECTED_RC TEXT ARGS...: rc and a fixed string in the output
try() {
	local rc=$1 text=$2 name
	shift 2
	name="set $*"
	"$IOTRIAL" set "$@" >"$out" 2>&1
	local got=$?
	if [ "$got" = "$rc" ] && has "$out" "$text"; then
		ok "$name: exit $rc, says \"$text\""
	else
		fail "$name: wanted exit $rc and \"$text\", got $got:"
		sed 's/^/# /' "$out"
	fi
}

try 2 "unknown knob 'schedular'; did you mean 'scheduler'?" \
	schedular=bfq --dry-run
try 2 "did you mean 'vm.dirty_ratio'?" vm.dirty_rato=10 --dry-run
try 2 "'scheduler' is a device knob and no device was given; give --device DEV or -t TARGET" \
	scheduler=bfq --dry-run
try 2 "device '/dev/iotrial-nope' does not exist" \
	--device /dev/iotrial-nope scheduler=bfq
try 2 "'vm.dirty_bytes' and 'vm.dirty_ratio' are one setting in two units" \
	vm.dirty_bytes=1G vm.dirty_ratio=5 --dry-run
try 2 "'vm.dirty_ratio' is given twice" \
	vm.dirty_ratio=5 bdflush.nfract_sync=6 --dry-run
try 2 "'101' is out of range for 'vm.dirty_ratio'; it takes 0..100" \
	vm.dirty_ratio=101 --dry-run
try 2 "'vm.dirty_ratio' takes a percentage 0..100" vm.dirty_ratio=4k --dry-run
try 2 "'15ms' is not a whole number of centiseconds" \
	vm.dirty_expire_centisecs=15ms --dry-run
try 2 "give at least one KNOB=VALUE" --dry-run
try 2 "unexpected argument 'scheduler'" scheduler --dry-run
try 2 "'vm.dirty_ratio' needs a value" vm.dirty_ratio= --dry-run
try 2 "a scratch target lives only as long as one command" \
	-t scratch:64M scheduler=bfq
try 2 "which is outside '/sys'" sysfs:/etc/hostname=x --dry-run
try 2 "'sysctl:vm.iotrial_nope' does not exist" sysctl:vm.iotrial_nope=1 \
	--dry-run

need_root
mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
offered=$(tr -d '[]' <"/sys/block/$N/queue/scheduler" | xargs)
# a misspelling of a scheduler this kernel offers (bfq -> bfqq), whichever
s=$(other_sched "$L") || s=$(active_sched "$L")
try 2 "'$N' does not offer scheduler '$s${s: -1}' (did you mean '$s'?); it offers: $offered" \
	--device "$L" "scheduler=$s${s: -1}"
try 2 "'scheduler' takes the name of an I/O scheduler, not a number or size ('4k'); '$N' offers: $offered" \
	--device "$L" scheduler=4k
try 2 "'7' is out of range for 'rq_affinity'; it takes 0..2" \
	--device "$L" rq_affinity=7
try 2 "'read_ahead_kb' takes a size such as 2048 (KiB), 2MiB or 4096s" \
	--device "$L" read_ahead_kb=fast
try 2 "'nr_requests' takes a count such as 64, not '2MiB' (no unit)" \
	--device "$L" nr_requests=2MiB
try 2 "is out of range for 'max_sectors_kb' on '$N'" \
	--device "$L" max_sectors_kb=1T
try 2 "'atime' is a mount knob and '$L' is not mounted" \
	--device "$L" atime=noatime
if findmnt -n --target /tmp >/dev/null; then
	try 2 "'noatme' is not an atime setting (did you mean 'noatime'?)" \
		-t /tmp atime=noatme --dry-run
else
	# a chroot whose root is a directory: /tmp's mount is not here
	try 2 "no mount holding '/tmp' is visible here: its file system" \
		-t /tmp atime=noatme --dry-run
fi
# bfq's parameter under a scheduler that lacks it
s=$(grep -owm1 -e kyber -e mq-deadline "/sys/block/$N/queue/scheduler" | head -n1)
if [ -n "$s" ]; then
	try 2 "scheduler '$s' has no parameter 'slice_idle'" \
		--device "$L" "scheduler=$s" iosched.slice_idle=1 --dry-run
else
	echo "# '$N' offers neither kyber nor mq-deadline: a parameter of another scheduler is not tried"
fi

# not root: changing is refused with the knob named; knobs still works
as_nobody "$IOTRIAL" set --device "$L" scheduler=none >"$out" 2>&1
check "non-root set exits 1" test $? = 1
check "and says \"changing 'scheduler' needs root\"" \
	has "$out" "changing 'scheduler' needs root"
as_nobody "$IOTRIAL" set --device "$L" scheduler=none --dry-run >"$out" 2>&1
check "non-root --dry-run still shows the plan" has "$out" "1. 'scheduler'"
as_nobody "$IOTRIAL" knobs --device "$L" >"$out" 2>&1
check "non-root knobs works" test $? = 0
as_nobody "$IOTRIAL" revert >"$out" 2>&1
check "non-root revert with an unreadable state dir fails clearly" \
	has "$out" "restoring settings needs root"

# a corrupt journal: refuse to change, explain, never discard
ra=$(queue "$L" read_ahead_kb)
$IOTRIAL set --device "$L" read_ahead_kb=256 >"$out" 2>&1
check "set read_ahead_kb=256 (to have a journal)" test $? = 0
J=$IOTRIAL_STATE_DIR/journal
cp "$J" "$TEST_TMP/journal.good"
sed -i "s/ read_ahead_kb device $N \([^ ]*\) $ra 256 c=/ read_ahead_kb device $N \1 9$ra 256 c=/" "$J"
check "(the test damaged the journal)" test "$(md5sum <"$J")" != "$(md5sum <"$TEST_TMP/journal.good")"
cp "$J" "$TEST_TMP/journal.bad"
$IOTRIAL set --device "$L" nomerges=1 >"$out" 2>&1
check "set with a corrupt journal exits 1" test $? = 1
check "and says the journal is corrupt, at which line" \
	grep -q "journal '$J' is corrupt (line 3: checksum mismatch" "$out"
check "and how to inspect it" has "$out" "inspect it with 'iotrial revert --list'"
check "and what to do after" has "$out" "mv $J $J.bad"
check "nothing was changed" test "$(queue "$L" nomerges)" = 0
check "the corrupt journal is kept as it was" cmp -s "$J" "$TEST_TMP/journal.bad"
$IOTRIAL knobs --device "$L" >"$out" 2>&1
check "knobs still works with a corrupt journal" test $? = 0
check "with a one-line warning" \
	grep -q "^warning: the journal '$J' is corrupt; no setting can be changed" "$out"
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list shows the journal numbered" \
	grep -q "^    3  set 3 2 read_ahead_kb\|^    3  set " "$out"
$IOTRIAL revert >"$out" 2>&1
check "revert refuses a corrupt journal too" test $? = 1
check "and the journal is still there" cmp -s "$J" "$TEST_TMP/journal.bad"
cp "$TEST_TMP/journal.good" "$J"
$IOTRIAL revert >"$out" 2>&1
check "with the journal repaired, revert restores" \
	test "$(queue "$L" read_ahead_kb)" = "$ra"
