#!/usr/bin/env bash
# The lock the vm.dirty_* tests share (knob-lib.bash) is opened by root,
# so it must live where nobody else can create files: otherwise another
# user could put a link in its place that root would follow.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
d=$(dirname "$KNOB_VM_LOCK")
check "the vm.dirty_* test lock is in a directory owned by root" \
	test "$(stat -c %u "$d")" = 0
check "which group and others cannot write" \
	test $((8#$(stat -c %a "$d") & 8#022)) = 0
if as_nobody touch "$KNOB_VM_LOCK.probe" 2>/dev/null; then
	rm -f "$KNOB_VM_LOCK.probe"
	fail "another user cannot create files there"
else
	ok "another user cannot create files there"
fi
