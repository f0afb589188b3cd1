#!/usr/bin/env bash
# A newcomer's first command: plain make in a fresh clone builds the
# program ./iotrial (not only the BPF object whose rule comes first in
# the Makefile), and make with -j2 too. Checked with make -n on a clone
# of the committed tree, so nothing is compiled twice.
# parallel: make -n in a clone of its own
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null || skip "make is not installed"
command -v git >/dev/null || skip "git is not installed"
git -C "$IOTRIAL_SRC" rev-parse --git-dir >/dev/null 2>&1 ||
	skip "the source is not a git checkout"

clone=$TEST_TMP/clone
git clone -q --no-hardlinks "$IOTRIAL_SRC" "$clone" 2>"$TEST_TMP/clone.err" ||
	skip "cannot clone: $(head -c 200 "$TEST_TMP/clone.err")"
# the working tree's Makefile, committed or not: that is what is tested
cp "$IOTRIAL_SRC/Makefile" "$clone/Makefile"

mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$clone" "$@" \
		2>"$TEST_TMP/make.err"
}
for args in "-n" "-n -j2"; do
	# shellcheck disable=SC2086 # the flags are words
	out=$(mk $args)
	if grep -qE -- '-o iotrial( |$)' <<<"$out"; then
		ok "make $args in a fresh clone links ./iotrial"
	else
		fail "make $args in a fresh clone links ./iotrial"
		head -n 5 <<<"$out" | sed 's/^/#   /'
	fi
done
goal=$(mk -pq 2>/dev/null | sed -n 's/^\.DEFAULT_GOAL := //p' | head -n 1)
check "the default goal is all (got '$goal')" test "$goal" = all
