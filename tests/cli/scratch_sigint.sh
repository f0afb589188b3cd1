#!/usr/bin/env bash
# SIGINT (and SIGQUIT) while a scratch target is being set up: the
# command tears down what it made before it exits 1, so no loop device,
# mount, image or directory is left, even before any later iotrial runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4"
out=$TEST_TMP/out
export TMPDIR=$TEST_TMP # scratch images go here

# mkfs.ext4 that takes half a second longer, so that "during mkfs" is a
# moment the test can hit every time
mkdir -p "$TEST_TMP/bin"
real_mkfs=$(command -v mkfs.ext4)
printf '#!/bin/sh\nsleep 0.5\nexec %s "$@"\n' "$real_mkfs" >"$TEST_TMP/bin/mkfs.ext4"
chmod +x "$TEST_TMP/bin/mkfs.ext4"
export PATH="$TEST_TMP/bin:$PATH"

# Is the moment reached? dir: the scratch directory exists; loop: a loop
# device backs its image; mkfs: mkfs runs as a child of pid; mount: the
# file system is mounted.
reached() { # MOMENT PID
	case $1 in
	dir) ls -d "$TEST_TMP"/iotrial-scratch.* >/dev/null 2>&1 ;;
	loop) losetup -a | grep -qF "$TEST_TMP/iotrial-scratch." ;;
	mkfs) pgrep -P "$2" mkfs >/dev/null ;;
	mount) grep -qF "$TEST_TMP/iotrial-scratch." /proc/self/mountinfo ;;
	esac
}

# A shell script's background jobs start with SIGINT and SIGQUIT ignored;
# a command typed at a terminal does not: start it that way.
for sig in INT QUIT; do
	for moment in dir loop mkfs mount; do
		env --default-signal=INT,QUIT "$IOTRIAL" run seqwrite \
			-t scratch:4G:ext4 --size 8M --time 30s --no-store \
			>"$out" 2>&1 &
		pid=$!
		hit=no
		for _ in $(seq 1 2000); do
			if reached "$moment" "$pid"; then
				hit=yes
				break
			fi
			kill -0 "$pid" 2>/dev/null || break
		done
		kill -"$sig" "$pid" 2>/dev/null
		wait "$pid"
		rc=$?
		left=$(scratch_leftovers)
		check "SIG$sig at '$moment': the moment was reached" test "$hit" = yes
		check "SIG$sig at '$moment': exits 1, not killed by the signal (rc=$rc)" \
			test "$rc" = 1
		[ -z "$left" ] || echo "$left" | sed 's/^/#   left: /'
		check "SIG$sig at '$moment': no loop device, mount, image or directory is left" \
			test -z "$left"
		check "SIG$sig at '$moment': it says it was interrupted" \
			grep -q "interrupted" "$out"
		# leave nothing for the next round, whatever happened
		if [ -n "$left" ]; then
			"$IOTRIAL" log >/dev/null 2>&1 # recovery removes it
		fi
	done
done
check "no journal is left" test ! -e "$IOTRIAL_STATE_DIR/journal"
