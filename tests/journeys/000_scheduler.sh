#!/usr/bin/env bash
# Journey 000: the file server admin who switched the I/O scheduler from
# cfq (the default) to deadline, measured with one and with two
# sequential readers, and found noop "basically no different" from
# deadline. In their words: --vary scheduler=cfq,deadline and
# deadline,noop. Where they stand (info, knobs), one reader of a file
# larger than memory (run), the verdicts (compare), the report for the
# change request (show, report text/md/html), the udev rule that keeps
# the winner (export, checked by udevadm), then on the server's disk
# (a loop device of ours, ext4, mounted) apply --dry-run, apply, revert.
# The experiments run on scratch:512M:ext4. About 30 s.
. "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
need_tool udevadm udev

mkloop 256M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
sched0=$(active_sched "$LOOP")
rw=(seqread -t scratch:512M:ext4 --bs 1M --runs 6)

step "where do I stand: the server's disk, its scheduler"
it info -t "$MNT"
expect_rc "info -t the server's mount" 0
check "info names the disk '$dev' and its scheduler '$sched0'" \
	grep -q "^  $dev (loop): .*" "$J_OUT"
check "...scheduler as sysfs has it" grep -q "scheduler $sched0," "$J_OUT"
it knobs -t "$MNT"
expect_rc "knobs -t the server's mount" 0
check "knobs says cfq, deadline and noop are accepted for the scheduler" \
	grep -q "^    legacy names: cfq deadline noop$" "$J_OUT"

step "one sequential reader of a file larger than its memory"
it run seqread -t scratch:512M:ext4 --size 128M --bs 1M --memory-limit 32M \
	--time 1s --no-store
expect_rc "run seqread with a 32M memory limit on scratch:512M:ext4" 0
check "it says how much of the read came from the device" \
	grep -q "^  read: .* by the workload, .* from 'loop[0-9]*'" "$J_OUT"

step "cfq vs deadline, one reader, as the admin says it"
# cfq means its successor bfq: it runs where the kernel offers bfq, and
# is refused, saying so and what is offered, where it does not
bfq=$(grep -cw bfq "/sys/block/$dev/queue/scheduler")
cfq_rc() { # NAME: the compare of cfq ran, or was refused as it should be
	if [ "$bfq" != 0 ]; then
		expect_rc "$1 runs (cfq is bfq, which this kernel offers)" 0
		return
	fi
	expect_rc "$1 is refused: cfq is bfq, which this kernel does not offer" 2
	check "...saying so and what is offered" \
		grep -q "'cfq' is a single-queue scheduler .* read as 'bfq', which .* does not offer .* offers: " "$J_ERR"
}
it compare "${rw[@]}" --size 96M --ios 96 --vary scheduler=cfq,deadline \
	--json="$TEST_TMP/one.json"
cfq_rc "compare --vary scheduler=cfq,deadline"
one=$(exp_id)
if [ -z "$one" ]; then
	step "refused: the same question in today's names"
	it compare "${rw[@]}" --size 96M --ios 96 --vary scheduler=none,mq-deadline \
		--json="$TEST_TMP/one.json"
	expect_rc "compare --vary scheduler=none,mq-deadline runs" 0
	one=$(exp_id)
fi

step "two sequential readers of separate files"
it compare "${rw[@]}" --jobs 2 --size 48M --ios 96 --vary scheduler=cfq,deadline \
	--json="$TEST_TMP/two.json"
cfq_rc "compare --jobs 2 --vary scheduler=cfq,deadline"

step "noop, briefly: no different from deadline?"
it compare "${rw[@]}" --size 96M --ios 96 --vary scheduler=deadline,noop \
	--equivalence 5% --json="$TEST_TMP/noop.json"
expect_rc "compare --vary scheduler=deadline,noop runs" 0
check "deadline and noop are told apart: deadline is set as mq-deadline" \
	grep -q "^scheduler=mq-deadline (asked: deadline) " "$J_OUT"

step "the answer, for the change request"
[ -n "$one" ] || { fail "no experiment to report"; j_lines; exit 1; }
it show "$one"
expect_rc "show $one" 0
it report "$one" --format text
expect_rc "report --format text" 0
it report "$one" --format md -o "$TEST_TMP/one.md"
expect_rc "report --format md -o FILE" 0
it report "$one" --format html -o "$TEST_TMP/one.html"
expect_rc "report --format html -o FILE" 0
check "the HTML report is self-contained" html_self_contained "$TEST_TMP/one.html"
it log
expect_rc "log lists the experiments" 0

step "keep deadline at boot: a udev rule for the server's disk"
it export "$one" --arm scheduler=deadline -t "$MNT" --format udev \
	-o "$TEST_TMP/60-iotrial.rules"
expect_rc "export --arm scheduler=deadline (as asked) --format udev" 0
arm=$(arm_row "$one" 2)
check "the deadline arm is row 2 of the table" test -n "$arm"
if [ ! -s "$TEST_TMP/60-iotrial.rules" ]; then
	it export "$one" --arm "$arm" -t "$MNT" --format udev \
		-o "$TEST_TMP/60-iotrial.rules"
	expect_rc "export --arm '$arm' (the label) --format udev" 0
fi
it export "$one" --arm 2 -t "$MNT" --format udev
expect_rc "export --arm 2 (its row) --format udev" 0
check "...exports row 2, '$arm'" grep -qF "arm '$arm'" "$J_OUT"
rule=$(grep -v '^#' "$TEST_TMP/60-iotrial.rules" 2>/dev/null)
want=$(sed -n 's/.*ATTR{queue\/scheduler}="\([^"]*\)".*/\1/p' <<<"$rule")
check "the rule sets the scheduler of '$dev' ('$want')" \
	grep -q "KERNEL==\"$dev\"" <<<"$rule"
check "...to one the disk offers" \
	grep -qw -- "$want" "/sys/block/$dev/queue/scheduler"
check "udevadm accepts the rule" udev_check "$TEST_TMP/60-iotrial.rules" "$LOOP"
echo "$sched0" >"/sys/block/$dev/queue/scheduler" # the udev test set it

step "roll it out on the server: plan, apply, revert"
it apply "$one" --arm "$arm" -t "$MNT" --dry-run
expect_rc "apply --dry-run" 0
check "the plan changes the scheduler of '$dev' from $sched0 to $want" \
	grep -q "'scheduler' on '$dev': $sched0 -> $want" "$J_OUT"
check "--dry-run changed nothing" test "$(active_sched "$LOOP")" = "$sched0"
it apply "$one" --arm "$arm" -t "$MNT" --yes --force
expect_rc "apply --yes --force (measured on a scratch device)" 0
check "the disk runs $want now" test "$(active_sched "$LOOP")" = "$want"
it revert --list
check "the journal holds the change" grep -q "$dev" "$J_OUT"
it revert
expect_rc "revert" 0
check "the disk is back to $sched0" test "$(active_sched "$LOOP")" = "$sched0"
it revert --list
check "the journal is empty" grep -q "nothing to restore" "$J_OUT"
check "no scratch device or mount is left" scratch_clean

j_lines
