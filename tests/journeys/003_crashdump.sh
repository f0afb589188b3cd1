#!/usr/bin/env bash
# Journey 003: the crash-dump collectors. Ops raised read-ahead from
# 128 KB to 2 MB with "blockdev --setra 4096" (512-byte sectors) and
# turned atime off, estimating "15-25%" and "another 15%" without a
# clean-room benchmark; "the hardest part is writing the puppet config".
# Here: the collector's volume (a loop device of ours, ext4, mounted,
# read-ahead 128 KB as theirs was) is looked at (info, knobs), the
# crashdump workload runs once (run), then the clean-room benchmark the
# note missed: compare crashdump --vary read_ahead_kb=128,4096s --vary
# atime=relatime,noatime on scratch:1G:ext4, four arms, the effect of
# each change within the other. The answer (show, report text/md/html),
# the Puppet manifest of the arm they chose, the fourth row (export,
# checked by puppet parser validate and puppet apply --noop), then on
# the volume: apply --dry-run, apply, blockdev --getra, revert. About
# 25 s.
. "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
need_tool puppet puppet

mkloop 256M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
echo 128 >"/sys/block/$dev/queue/read_ahead_kb" # "from 128KB"
opts0=$(mount_opts "$MNT")

step "where do I stand: the collector's volume"
it info -t "$MNT"
expect_rc "info -t the collector's volume" 0
check "info shows read_ahead_kb 128 of '$dev'" \
	grep -q "read_ahead_kb 128," "$J_OUT"
it knobs -t "$MNT"
expect_rc "knobs -t the volume" 0
check "knobs shows read-ahead in KiB and in blockdev's sectors" \
	grep -q "^read_ahead_kb  *128 KiB (.*blockdev --setra 256)" "$J_OUT"
check "knobs shows the mount's atime" grep -q "^atime  *relatime" "$J_OUT"

step "the collector's load, once"
it run crashdump -t scratch:1G:ext4 --time 1s --no-store
expect_rc "run crashdump on scratch:1G:ext4" 0
check "it reports dumps per minute" grep -q "dumps_per_min" "$J_OUT"

step "the clean-room benchmark: read-ahead 4096 sectors and noatime"
it compare crashdump -t scratch:1G:ext4 --vary read_ahead_kb=128,4096s \
	--vary atime=relatime,noatime --time 500ms --runs 6 \
	--json="$TEST_TMP/cd.json"
expect_rc "compare --vary read_ahead_kb=128,4096s --vary atime=... runs" 0
id=$(exp_id)
[ -n "$id" ] || { fail "no experiment"; j_lines; exit 1; }
check "4096s is said to be 2 MiB" grep -q "'4096s' is 4096 sectors .* (2 MiB)" "$J_ERR"
check "the effect of each factor within the other is given" \
	grep -q "^read_ahead_kb=4096s vs read_ahead_kb=128$" "$J_OUT"

step "the answer, for the change approval"
it show "$id"
expect_rc "show" 0
it show "$id" --runs
expect_rc "show --runs" 0
it report "$id" --format text
expect_rc "report --format text" 0
it report "$id" --format md -o "$TEST_TMP/cd.md"
expect_rc "report --format md" 0
it report "$id" --format html -o "$TEST_TMP/cd.html"
expect_rc "report --format html" 0
check "the HTML report is self-contained" html_self_contained "$TEST_TMP/cd.html"
it report "$id" --format json -o "$TEST_TMP/cd-report.json"
expect_rc "report --format json" 0

step "the puppet config: the fourth row, 2 MB read-ahead and noatime"
arm=$(arm_row "$id" 4)
check "row 4 is read-ahead 2048 KiB with noatime ('$arm')" \
	grep -q "^read_ahead_kb=2048 .*atime=noatime$" <<<"$arm"
it export "$id" --arm 4 -t "$MNT" --format puppet -o "$TEST_TMP/rows.pp"
expect_rc "export --arm 4 (its row) --format puppet" 0
check "...exports row 4" grep -qF "arm '$arm'" "$TEST_TMP/rows.pp" 2>/dev/null
it export "$id" --arm "$arm" -t "$MNT" --format puppet -o "$TEST_TMP/iotrial.pp"
expect_rc "export --arm '$arm' --format puppet" 0
check "the manifest sets read_ahead_kb 2048 (KiB) on '$dev'" \
	grep -qF "KERNEL==\"$dev\", ATTR{queue/read_ahead_kb}=\"2048\"" "$TEST_TMP/iotrial.pp"
check "...and noatime on the volume" grep -q "noatime" "$TEST_TMP/iotrial.pp"
pp="--confdir $TEST_TMP/puppet --vardir $TEST_TMP/puppet/var"
# shellcheck disable=SC2086 # $pp is words
HOME=$TEST_TMP puppet parser validate $pp "$TEST_TMP/iotrial.pp" >"$TEST_TMP/pv" 2>&1
check "puppet parser validate accepts it" test $? = 0
# shellcheck disable=SC2086
HOME=$TEST_TMP puppet apply --noop --detailed-exitcodes --color=false $pp \
	--codedir "$TEST_TMP/puppet/code" "$TEST_TMP/iotrial.pp" >"$TEST_TMP/pa" 2>&1
rc=$?
check "puppet apply --noop compiles and runs it (rc=$rc)" test $rc = 0 -o $rc = 2
[ $rc = 0 ] || [ $rc = 2 ] || grep -v Facter "$TEST_TMP/pa" | tail -5 | sed 's/^/#   /'

step "on the collector: plan, apply, check with blockdev, revert"
it apply "$id" --arm "$arm" -t "$MNT" --dry-run
expect_rc "apply --dry-run" 0
check "the plan: read_ahead_kb 128 KiB -> 2048 KiB (blockdev --setra 4096)" \
	grep -q "'read_ahead_kb' on '$dev': 128 KiB .* -> 2048 KiB (2 MiB; blockdev --setra 4096)" "$J_OUT"
check "the plan: atime relatime -> noatime" \
	grep -q "'atime' on '$MNT': relatime -> noatime" "$J_OUT"
check "--dry-run changed nothing" test "$(queue "$LOOP" read_ahead_kb)" = 128 -a \
	"$(mount_opts "$MNT")" = "$opts0"
it apply "$id" --arm "$arm" -t "$MNT" --yes --force
expect_rc "apply --yes --force" 0
check "blockdev --getra says 4096, as the note's admin set it" \
	test "$(blockdev --getra "$LOOP")" = 4096
check "the volume is mounted noatime" grep -q noatime <<<"$(mount_opts "$MNT")"
it revert
expect_rc "revert" 0
check "read-ahead is back to 128 KiB" test "$(queue "$LOOP" read_ahead_kb)" = 128
check "the mount options are back" test "$(mount_opts "$MNT")" = "$opts0"
check "no scratch device or mount is left" scratch_clean

j_lines
