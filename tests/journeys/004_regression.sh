#!/usr/bin/env bash
# Journey 004: a kernel developer regression-tests a writeback patch as
# five timed iterations with and without it, real/user/sys and iostat
# columns, with a program that maps a file, dirties it and msyncs it;
# "no significant degradation" was read off 2m43s against 2m45s. Here,
# on the test machine's disk (a loop device of ours, ext4, mounted):
# where it stands (info, knobs), the built-in mmapdirty (run, first on
# scratch:1G:ext4 as one would try), their own program as the workload
# (run exec -- mmap-msync, tests/journeys/mmap-msync.c: "patched" or
# JOURNEY_KERNEL=patched plays a kernel whose writeback got 0.5 s
# slower), five iterations without and five with the "patched kernel"
# (two A/A compares) and the verdict between them (diff
# --fail-on-regression --strict: exit 3), the same as one compare of two
# exec arms (--fail-on-regression --strict: exit 3), each run's
# real/user/sys and iostat columns (show --runs), the reports, and what
# export and apply say of an experiment that varied no knob. About 35 s.
. "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
command -v cc >/dev/null || skip "needs a C compiler for the test program"

mkloop 256M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
mkdir -p "$TEST_TMP/bin"
cc -O2 -o "$TEST_TMP/bin/mmap-msync" "$J_HERE/mmap-msync.c" ||
	skip "cannot build mmap-msync.c"
export PATH=$TEST_TMP/bin:$PATH
prog=(mmap-msync f 8) # 8 MiB dirtied and msync'd per run

step "where do I stand: the test machine's disk and writeback settings"
it info -t "$MNT"
expect_rc "info -t the test disk" 0
check "info names '$dev' and the vm.dirty_* settings" \
	grep -q "^  $dev (loop)" "$J_OUT"
it knobs -t "$MNT"
expect_rc "knobs -t the test disk" 0

step "the built-in mmap-dirty-msync test"
it run mmapdirty -t scratch:1G:ext4 --size 64M --no-store
expect_rc "run mmapdirty -t scratch:1G:ext4" 0
if [ "$J_RC" != 0 ]; then
	it run mmapdirty -t "$MNT" --size 64M --no-store
	expect_rc "run mmapdirty -t the test disk's mount" 0
fi

step "their own program as the workload"
it run exec -t "$MNT" --no-store -- "${prog[@]}"
expect_rc "run exec -- mmap-msync f 8" 0
check "it reports the time and the CPU of the program (user, sys)" \
	grep -q "^  cpu  *user [0-9.]* s, sys [0-9.]* s" "$J_OUT"
check "...and what it printed last" \
	grep -q "^  command  exited 0; its last line: dirtied 8388608 bytes$" "$J_OUT"

step "five iterations without the patch, five with it, and the verdict"
it compare exec -t "$MNT" --vary label=a,b --runs 5 -- "${prog[@]}"
expect_rc "compare exec --vary label=a,b --runs 5 (without)" 0
before=$(exp_id)
check "five iterations: told that they cannot say faster or slower" \
	grep -q "^warning: --runs 5: a faster/slower verdict needs at least 6 blocks" "$J_ERR"
JOURNEY_KERNEL=patched it compare exec -t "$MNT" --vary label=a,b --runs 5 \
	-- "${prog[@]}"
expect_rc "the same with the patched kernel" 0
after=$(exp_id)
it diff "$before" "$after" --fail-on-regression --strict
expect_rc "diff before after --fail-on-regression --strict: a regression (exit 3)" 3
check "diff says the patched kernel is slower" \
	grep -q "^after $after .* slower\|estimate: slower" "$J_OUT"
it diff "$before" "$after" --fail-on-regression
expect_rc "diff without --strict: short runs are not counted (exit 0)" 0

step "the same as one compare of two exec arms"
it compare exec -t "$MNT" --runs 7 --fail-on-regression --strict \
	--vary "cmd=${prog[*]},${prog[*]} patched" --json="$TEST_TMP/x.json"
expect_rc "compare --vary cmd=...,... patched --fail-on-regression --strict (exit 3)" 3
id=$(exp_id)
[ -n "$id" ] || { fail "no experiment"; j_lines; exit 1; }

step "the iterations as the kernel list reads them"
it show "$id" --runs
expect_rc "show --runs" 0
check "the runs table has real/user/sys and iostat's columns" \
	grep -qE "^block +arm +wall +real +user +sys +device +tps +MB_read/s +MB_wrtn/s +MB_read +MB_wrtn$" "$J_OUT"
check "...a row for each of the 14 runs" \
	test "$(grep -cE '^ +[0-9]+ +cmd=' "$J_OUT")" = 14
it report "$id" --format text
expect_rc "report --format text" 0
it report "$id" --format md -o "$TEST_TMP/x.md"
expect_rc "report --format md" 0
it report "$id" --format html -o "$TEST_TMP/x.html"
expect_rc "report --format html" 0
check "the HTML report is self-contained" html_self_contained "$TEST_TMP/x.html"

step "nothing to roll out: no knob was varied"
it export "$id" --format shell
expect_rc "export of an experiment without a knob: a usage error" 2
check "...saying no knob was varied" grep -q "varied no knob" "$J_ERR"
it apply "$id" --dry-run
expect_rc "apply --dry-run of it: a usage error" 2
it revert --list
check "the journal holds nothing" grep -q "nothing to restore" "$J_OUT"
check "no scratch device or mount is left" scratch_clean

j_lines
