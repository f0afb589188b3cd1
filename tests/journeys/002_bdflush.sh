#!/usr/bin/env bash
# Journey 002: a file server admin whose dbench throughput fell between
# two kernels, and the answer they got: dbench's files are deleted
# before writeback, so dirty-memory thresholds decide how much reaches
# the disk; "echo 80 0 0 0 500 3000 90 0 0 > /proc/sys/vm/bdflush"
# raises them. In their words: bdflush='80 0 0 0 500 3000 90 0 0'
# against the 2.4 default '40 0 0 0 500 3000 60 0 0'. Where they stand
# (info, knobs), a dbench-like run of short-lived small files (run
# smallfiles -t scratch:1G, as the admin would try first), the question
# (compare smallfiles --vary bdflush=...), with the judgement whether the
# thresholds were reached at all, as the modern knob gets it; the answer
# (show, report text/md/html), a sysctl.d file (export, read by sysctl
# --dry-run), the plan in their own line (set bdflush=... --dry-run),
# apply --dry-run, apply and revert. vm.dirty_* are machine-wide: saved
# first under the tests' lock and put back whatever happens. About 35 s.
. "$(dirname "$0")/lib.sh"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4 (e2fsprogs)"
knob_save_vm
vm0=$(knob_vm_now)
tgt=()
sf=(--clients 4 --sizes 16k --lifetime 20ops --fsync never)
old_line="40 0 0 0 500 3000 60 0 0"
new_line="80 0 0 0 500 3000 90 0 0"

step "where do I stand: the dirty thresholds"
it info
expect_rc "info" 0
check "info shows the vm.dirty_* settings" grep -q "^vm  *dirty_ratio " "$J_OUT"
it knobs
expect_rc "knobs" 0
check "knobs names bdflush.nfract as vm.dirty_background_ratio's old name" \
	grep -A4 "^vm.dirty_background_ratio " "$J_OUT" | grep -q "legacy names: bdflush.nfract"

step "a dbench-like run: small files deleted before writeback"
it run smallfiles -t scratch:1G "${sf[@]}" --time 1s --no-store
# it runs, or says what to give instead (the line checker reads what)
check "run smallfiles -t scratch:1G runs or says what to give (exit $J_RC)" \
	test "$J_RC" = 0 -o "$J_RC" = 2
if [ "$J_RC" != 0 ]; then
	said "$J_ERR" 2
	it run smallfiles -t scratch:1G:ext4 "${sf[@]}" --time 1s --no-store
	expect_rc "run smallfiles -t scratch:1G:ext4" 0
fi
check "the run says what never reached the device" \
	grep -q "absorbed by the page cache" "$J_OUT"

step "the question, in the admin's line: bdflush 40/60 vs 80/90"
it compare smallfiles -t scratch:1G:ext4 "${sf[@]}" --time 500ms --runs 6 \
	--vary "bdflush=$old_line,$new_line" --json="$TEST_TMP/bd.json"
expect_rc "compare --vary bdflush='$old_line,$new_line' runs" 0
id=$(exp_id)
[ -n "$id" ] || { fail "no experiment"; j_lines; exit 1; }
check "vm.dirty_* are as they were after the compare" test "$(knob_vm_now)" = "$vm0"
it compare smallfiles -t scratch:1G:ext4 "${sf[@]}" --time 500ms --runs 2 \
	--vary vm.dirty_background_ratio=40,80 --json="$TEST_TMP/bg.json"
expect_rc "the same with --vary vm.dirty_background_ratio=40,80" 0
if grep -q "could not matter\|reached the regime" "$J_OUT"; then
	it show "$id"
	check "the bdflush compare says whether the thresholds were reached, as vm.dirty_background_ratio's does" \
		grep -q "could not matter\|reached the regime" "$J_OUT"
	check "...and its JSON keeps it" test "$(json "$TEST_TMP/bd.json" 'len(o.get("regimes") or [])')" -gt 0
fi

step "the answer"
it show "$id"
expect_rc "show" 0
it report "$id" --format md -o "$TEST_TMP/bd.md"
expect_rc "report --format md" 0
it report "$id" --format html -o "$TEST_TMP/bd.html"
expect_rc "report --format html" 0
check "the HTML report is self-contained" html_self_contained "$TEST_TMP/bd.html"

step "keep it: a sysctl.d file for the 80/90 line, the second row"
arm=$(arm_row "$id" 2)
check "row 2 is the 80/90 line" test "$arm" = "bdflush=$new_line"
it export "$id" --arm 2 -t "$TEST_TMP" --format sysctl -o "$TEST_TMP/rows.conf"
expect_rc "export --arm 2 (its row) --format sysctl" 0
it export "$id" --arm "bdflush=$new_line" --format sysctl -o "$TEST_TMP/60-iotrial.conf"
expect_rc "export --arm 'bdflush=$new_line' --format sysctl (system-wide: no disk asked)" 0
if [ "$J_RC" != 0 ] && grep -q "give --device DEV or -t TARGET" "$J_ERR"; then
	# as the error says: a target, though vm.* belong to no disk
	tgt=(-t "$TEST_TMP")
	it export "$id" --arm "bdflush=$new_line" "${tgt[@]}" --format sysctl \
		-o "$TEST_TMP/60-iotrial.conf"
	expect_rc "export ... -t DIR --format sysctl" 0
fi
sysctl --dry-run -p "$TEST_TMP/60-iotrial.conf" >"$TEST_TMP/sysctl.out" 2>&1
check "sysctl --dry-run -p reads the file" test $? = 0
check "...with the line's four modern settings" test "$(sort "$TEST_TMP/sysctl.out")" = \
	"$(printf '%s\n' "vm.dirty_background_ratio = 80" "vm.dirty_expire_centisecs = 3000" \
		"vm.dirty_ratio = 90" "vm.dirty_writeback_centisecs = 500")"
check "sysctl --dry-run changed nothing" test "$(knob_vm_now)" = "$vm0"

step "the plan in the admin's own line, then apply and revert"
it set "bdflush=$new_line" --dry-run
expect_rc "set bdflush='$new_line' --dry-run" 0
check "the plan sets vm.dirty_background_ratio to 80" \
	grep -q "'vm.dirty_background_ratio': [0-9]* -> 80" "$J_OUT"
check "...and vm.dirty_ratio to 90" grep -q "'vm.dirty_ratio': [0-9]* -> 90" "$J_OUT"
it apply "$id" --arm "bdflush=$new_line" ${tgt[@]+"${tgt[@]}"} --dry-run
expect_rc "apply --dry-run" 0
check "--dry-run changed nothing" test "$(knob_vm_now)" = "$vm0"
it apply "$id" --arm "bdflush=$new_line" ${tgt[@]+"${tgt[@]}"} --yes --force
expect_rc "apply --yes --force" 0
check "vm.dirty_background_ratio is 80 now" test "$(cat /proc/sys/vm/dirty_background_ratio)" = 80
check "vm.dirty_ratio is 90 now" test "$(cat /proc/sys/vm/dirty_ratio)" = 90
it revert
expect_rc "revert" 0
check "vm.dirty_* are as they were" test "$(knob_vm_now)" = "$vm0"
check "no scratch device or mount is left" scratch_clean

j_lines
