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

leftovers() {
	losetup -a | grep -F "$TEST_TMP/iotrial-scratch."
	grep -F "$TEST_TMP/iotrial-scratch." /proc/self/mountinfo
	ls -d "$TEST_TMP"/iotrial-scratch.* 2>/dev/null
}

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
			-t scratch:4G:ext4 --size 8M --time 2s --no-store \
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
		left=$(leftovers)
		echo "# SIG$sig at '$moment' (reached: $hit): exit $rc"
		check "SIG$sig at '$moment': exits 1, not killed by the signal (rc=$rc)" \
			test "$rc" = 1
		[ -z "$left" ] || echo "$left" | sed 's/^/#   left: /'
		check "SIG$sig at '$moment': no loop device, mount, image or directory is left" \
			test -z "$left"
		check "SIG$sig at '$moment': it says it was interrupted" \
			grep -q "interrupted" "$out"
		# leave nothing for the next round, whatever happened
		if [ -n "$left" ]; then
			"$IOTRIAL" revert --list >/dev/null 2>&1
		fi
	done
done
check "no journal is left" test ! -e "$IOTRIAL_STATE_DIR/journal"
