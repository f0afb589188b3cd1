#!/usr/bin/env bash
# Crash recovery must not overwrite a change someone made after the
# crash: a run with --set read_ahead_kb is killed with SIGKILL, an admin
# sets read_ahead_kb by hand, and the next command keeps the admin's
# value, says so (the knob, what iotrial wrote, what is there now) and
# retires the record. Without the admin's change the original comes
# back. `revert --list` shows what a crash left before anything is
# restored, and changes nothing. A journal of the previous version (set
# lines without the written value) is still restored, and said so.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
log=$TEST_TMP/run.log
J=$IOTRIAL_STATE_DIR/journal

mkloop 256M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
mkmount "$L" || skip "cannot make a file system"
M=$MNT
mkdir -p "$M/w"
# loop devices keep their queue settings from one use to the next:
# start from a known value
ra0=$(queue "$L" read_ahead_kb)
orig=256
echo "$orig" >"/sys/block/$N/queue/read_ahead_kb"

# wait_for CMD...: until CMD succeeds (bounded: 600 tries, 50 ms apart)
wait_for() {
	local i
	for i in $(seq 1 600); do
		"$@" && return 0
		sleep 0.05
	done
	return 1
}

# ra_is KIB: read_ahead_kb of the loop device is KIB now
ra_is() { [ "$(queue "$L" read_ahead_kb)" = "$1" ]; }

# start_killed: a run that sets read_ahead_kb=4096, killed with SIGKILL
# while the change is in place
start_killed() {
	"$IOTRIAL" run seqwrite -t "$M/w" --size 16M --time 60s \
		--set read_ahead_kb=4096 >"$log" 2>&1 &
	local pid=$!
	wait_for ra_is 4096
	local seen=$?
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -rf "$M"/w/iotrial.* # a killed run leaves its work files
	return $seen
}

# revert --list right after the crash: shows it, changes nothing
start_killed || { sed "s/^/# run: /" "$log"; skip "the run did not set read_ahead_kb"; }
check "a killed run leaves its change in the journal" test -e "$J"
cp "$J" "$TEST_TMP/journal.before"
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list exits 0" test $? = 0
check "revert --list shows what the crash left" \
	has "$out" "'read_ahead_kb' on '$N': original $orig KiB"
check "and what iotrial wrote" has "$out" "set to 4096 KiB"
check "and that the owner is gone" has "$out" "gone: the next iotrial that changes settings (run, compare, set, apply, revert) restores them"
check "revert --list restored nothing" ra_is 4096
check "revert --list left the journal as it was" \
	cmp -s "$J" "$TEST_TMP/journal.before"
# no change since: the next command brings the original back
recover_now
check "without a change since, recovery restores the original" ra_is "$orig"
check "and says so" has "$out" "note: restored 'read_ahead_kb' on '$N': 4096 KiB"
check "the journal is gone" test ! -e "$J"

# the admin changes it after the crash: the next command keeps that
start_killed || { sed "s/^/# run: /" "$log"; skip "the run did not set read_ahead_kb"; }
echo 512 >"/sys/block/$N/queue/read_ahead_kb"
recover_now
check "the admin's value survives recovery" ra_is 512
check "and recovery says so, naming the knob and what iotrial wrote" \
	has "$out" "warning: 'read_ahead_kb' on '$N' was changed after iotrial set it: iotrial wrote 4096 KiB"
check "and what is there now, which is kept" \
	has "$out" "it is now 512 KiB (512 KiB; blockdev --setra 1024); that value is kept"
check "the record is retired" test ! -e "$J"
$IOTRIAL log >"$out" 2>&1
check "the next command says nothing more about it" \
	bash -c "! grep -q 'read_ahead_kb\|^warning' '$out'"

# the same seen through revert --list before anything is done
echo "$orig" >"/sys/block/$N/queue/read_ahead_kb"
start_killed || { sed "s/^/# run: /" "$log"; skip "the run did not set read_ahead_kb"; }
echo 512 >"/sys/block/$N/queue/read_ahead_kb"
$IOTRIAL revert --list >"$out" 2>&1
check "revert --list says the value was changed since and is kept" \
	has "$out" "now 512 KiB (512 KiB; blockdev --setra 1024) (changed since iotrial set it: that value is kept, not restored)"
$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "revert keeps the admin's value too" ra_is 512
check "and the journal is empty" test ! -e "$J"

# a journal of the previous version: no written value, restored anyway
BOOT=$(cat /proc/sys/kernel/random/boot_id)
ID="$(cat /sys/block/$N/dev)%20diskseq%20$(cat /sys/block/$N/diskseq)"
echo 1024 >"/sys/block/$N/queue/read_ahead_kb"
python3 -c '
import sys, zlib
out = ["iotrial-journal 1\n"]
for body in sys.stdin.read().splitlines():
    out.append("%s c=%08x\n" % (body, zlib.crc32(body.encode()) & 0xffffffff))
sys.stdout.write("".join(out))' >"$J" <<EOT
own 1 999999 1 1700000000 $BOOT run
set 2 1 read_ahead_kb read_ahead_kb device $N $ID $orig
EOT
recover_now
check "an old journal's record is restored" \
	test "$(queue "$L" read_ahead_kb)" = "$orig"
check "saying the written value is unknown" \
	has "$out" "the journal does not say what iotrial wrote to 'read_ahead_kb' on '$N'"
check "the old journal is gone" test ! -e "$J"
echo "$ra0" >"/sys/block/$N/queue/read_ahead_kb"
