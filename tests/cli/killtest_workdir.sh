#!/usr/bin/env bash
# A run on a directory target journals its work directory: after kill -9
# the next command removes iotrial.XXXXXX and its files and says so, also
# after a reboot; the work directory of a run that is still going is
# never removed by another iotrial's recovery; runs on directories and
# `iotrial set` still run side by side (the lock is held only for a
# moment); SIGQUIT stops a run like SIGINT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
out=$TEST_TMP/out
J=$IOTRIAL_STATE_DIR/journal
BOOT=$(cat /proc/sys/kernel/random/boot_id)
A=$TEST_TMP/a
B=$TEST_TMP/b
mkdir -p "$A" "$B"

# wait_files DIR: until DIR/iotrial.*/ holds a work file; prints the dir
wait_files() {
	local i wd
	for i in $(seq 1 250); do
		wd=$(ls -d "$1"/iotrial.* 2>/dev/null | head -n 1)
		if [ -n "$wd" ] && ls "$wd"/job* >/dev/null 2>&1; then
			echo "$wd"
			return 0
		fi
		sleep 0.02
	done
	return 1
}

# 1. kill -9: the next command removes the work directory, and says so
"$IOTRIAL" run seqwrite -t "$B" --size 8M --time 10s --no-store >"$out" 2>&1 &
pid=$!
wd=$(wait_files "$B")
check "the run made its work directory and files" test -n "$wd"
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9 leaves the work directory" test -d "$wd"
recover_now
check "the next command removes it" test ! -e "$wd"
check "and says so" has "$out" "removed the leftover work directory '$wd'"
check "the target directory is as it was" test -z "$(ls -A "$B")"
check "no journal is left" test ! -e "$J"

# 2. a run that is still going keeps its work directory
"$IOTRIAL" run seqwrite -t "$A" --size 8M --time 4s --no-store >"$TEST_TMP/a.out" 2>&1 &
apid=$!
awd=$(wait_files "$A")
"$IOTRIAL" run seqwrite -t "$B" --size 8M --time 10s --no-store >"$out" 2>&1 &
pid=$!
wd=$(wait_files "$B")
kill -9 "$pid"
wait "$pid" 2>/dev/null
recover_now
check "recovery removes the killed run's work directory" test ! -e "$wd"
check "but not the one of the run still going" \
	bash -c "ls '$awd'/job* >/dev/null 2>&1"
"$IOTRIAL" run seqwrite -t "$B" --size 8M --time 300ms --no-store >"$out" 2>&1
check "another run on a directory meanwhile works" test $? = 0
check "and does not touch it either" bash -c "ls '$awd'/job* >/dev/null 2>&1"

# 3. `iotrial set` while a run on a directory goes on
if mkloop 32M; then
	L=$LOOP
	ra=$(queue "$L" read_ahead_kb)
	"$IOTRIAL" set read_ahead_kb=512 --device "$L" >"$out" 2>&1
	check "set during a run on a directory works" test $? = 0
	check "and changed the knob" test "$(queue "$L" read_ahead_kb)" = 512
	"$IOTRIAL" revert >"$out" 2>&1
	check "revert during the run works" test $? = 0
	check "and restored the knob" test "$(queue "$L" read_ahead_kb)" = "$ra"
	check "the running run's work directory is still there" test -d "$awd"
else
	fail "cannot make a loop device for the set check"
fi
wait "$apid"
check "the run that was left alone ends cleanly" test $? = 0
check "and removes its own work directory" test ! -e "$awd"
check "nothing is left in the journal" test ! -e "$J"

# 4. forged records: a live owner's directory stays; after a reboot the
# files on disk are still removed; a replaced directory is left alone
mk_wd() { # DIR NAME -> a work directory with a work file, prints its id
	mkdir -m 700 "$1/$2"
	echo x >"$1/$2/job0.data"
	stat -c '%d:%i' "$1/$2"
}
ticks=$(awk '{ sub(/.*\) /, ""); print $20 }' /proc/$$/stat)
id1=$(mk_wd "$A" iotrial.Live01)
id2=$(mk_wd "$A" iotrial.Boot02)
id3=$(mk_wd "$A" iotrial.Repl03)
mkdir -m 700 "$A/new" # made first, so that it cannot reuse the inode
echo mine >"$A/new/job0.data"
rm -rf "$A/iotrial.Repl03"
mv "$A/new" "$A/iotrial.Repl03" # the same name, another directory
id4=$(mk_wd "$A" iotrial.Frgn04)
ln -s /etc/passwd "$A/iotrial.Frgn04/job1.data"
forge_journal "$J" <<EOF
own 1 $$ $ticks 1700000000 $BOOT run
scr 2 1 work $A/iotrial.Live01 $id1
own 3 999999 1 1700000000 00000000-0000-0000-0000-000000000000 run
scr 4 3 work $A/iotrial.Boot02 $id2
own 5 999998 1 1700000000 $BOOT run
scr 6 5 work $A/iotrial.Repl03 $id3
scr 7 5 work $A/iotrial.Frgn04 $id4
EOF
recover_now
check "a live owner's work directory is left" test -e "$A/iotrial.Live01/job0.data"
check "after a reboot the work directory is still removed" \
	test ! -e "$A/iotrial.Boot02"
check "a directory that replaced the journaled one is left" \
	test -e "$A/iotrial.Repl03/job0.data"
check "a work directory holding a link is not removed" \
	test -L "$A/iotrial.Frgn04/job1.data"
check "and that is warned about" has "$out" "it holds 'job1.data', which iotrial does not make"
check "/etc/passwd is intact" test -s /etc/passwd
check "only the live owner's record is left" \
	test "$(grep -c '^scr' "$J")" = 1
rm -rf "$A"/iotrial.*
: >"$J" && rm -f "$J"

# 5. SIGQUIT stops a run on a directory and removes its work directory
env --default-signal=QUIT "$IOTRIAL" run seqwrite -t "$B" --size 8M \
	--time 10s --no-store >"$out" 2>&1 &
pid=$!
wd=$(wait_files "$B")
kill -QUIT "$pid"
wait "$pid"
rc=$?
check "SIGQUIT: the run exits 1 (rc=$rc)" test "$rc" = 1
check "SIGQUIT: its work directory is gone" test -z "$(ls -A "$B")"
check "SIGQUIT: no journal is left" test ! -e "$J"
