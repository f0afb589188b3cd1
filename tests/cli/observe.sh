#!/usr/bin/env bash
# observe on a loop device carrying a background load of direct 1 MiB
# writes whose rate changes every second or so: max_sectors_kb (64 vs
# 1024) splits each write into many more requests, so the device's IOPS
# differ and the verdict must say so; an A/A switchback (label=a,b)
# must not find a difference. Then the safety: an --abort-if rule ends
# the experiment and the original value is back within one window; a
# knob someone else changes mid-experiment is kept; kill -9 leaves the
# knob for the next iotrial to restore; a dry run changes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
command -v jq >/dev/null || skip "needs jq"
mkloop 256M || skip "cannot make a loop device"
L=$LOOP
D=${L#/dev/}
out=$TEST_TMP/out
orig=$(queue "$L" max_sectors_kb)

load() {
	while :; do
		for n in 4 12 8 2 16; do
			for _ in 1 2 3; do
				dd if=/dev/zero of="$L" bs=1M count="$n" \
					oflag=direct conv=notrunc status=none
				sleep 0.2
			done
		done
	done
}
load &
LOADPID=$!
stop_load() { kill "$LOADPID" 2>/dev/null; wait "$LOADPID" 2>/dev/null; }
trap 'stop_load; knob_cleanup' EXIT

# a dry run prints the schedule and changes nothing
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --settle 0.5s --windows 6 --seed 5 --dry-run >"$out" 2>&1
check "dry run prints the schedule" grep -q "^  block  6: " "$out"
check "dry run says the duration" grep -q "expected duration" "$out"
check "dry run changes nothing" [ "$(queue "$L" max_sectors_kb)" = "$orig" ]
check "dry run journals nothing" [ ! -s "$IOTRIAL_STATE_DIR/journal" ]

# a dry run needs no root
as_nobody "$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --windows 6 --dry-run >"$out" 2>&1
check "dry run as another user prints the schedule" \
	grep -q "expected duration" "$out"
as_nobody "$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --windows 6 --no-store >"$out" 2>&1
check "the real thing as another user is refused" grep -q "root" "$out"

# too few windows for a verdict: refused before anything changes
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --windows 3 >"$out" 2>&1
check "too few windows refused" [ $? = 2 ]
check "the refusal says what is needed" grep -q "needs at least 6" "$out"

# --max-change refuses a value outside what the admin allows
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--max-change max_sectors_kb=128..1280 --window 1s --windows 6 \
	>"$out" 2>&1
check "max-change refuses 64" grep -q "outside --max-change" "$out"

# a real effect
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --settle 0.5s --windows 6 --metric iops --seed 7 \
	--json="$TEST_TMP/fx.json" >"$out" 2>&1
check "effect: exit 0" [ $? = 0 ]
check "effect: restored" [ "$(queue "$L" max_sectors_kb)" = "$orig" ]
check "effect: kind observe" jqe '.kind == "observe"' "$TEST_TMP/fx.json"
check "effect: 64 KiB requests give more IOPS (faster)" \
	jqe '.verdicts[] | select(.arm == 1) | .verdict == "faster"' \
	"$TEST_TMP/fx.json"
check "effect: settle windows recorded, not analysed" \
	jqe '([.windows[] | select(.settle)] | length) > 0 and
	     (.runs | length) == 12' "$TEST_TMP/fx.json"
check "effect: randomisation p" \
	jqe '.switchback.arms[1].rand_p <= 0.05' "$TEST_TMP/fx.json"
check "effect: load per window" \
	jqe '[.windows[] | .load > 0] | all' "$TEST_TMP/fx.json"
check "effect: stored" grep -q "stored as" "$out"
# a window's line: the time since the start ("at 2.5 s", it said "(2 s)",
# which read as the window's length), the load with its unit, columns
# that line up (the no-settle warning is said once, not thrice)
check "effect: window lines say when, and the load's unit" \
	grep -Eq "^window  1/[0-9]+  block 1/6  .* load [0-9.]+ MB  at [0-9]+\.[0-9] s$" \
	"$out"
check "effect: no window line says a bare '(N s)'" \
	test -z "$(grep -E '^window .*\([0-9]+ s\)$' "$out")"
id=$(sed -n 's/^stored as \([0-9a-f]*\).*/\1/p' "$out")
"$IOTRIAL" show "$id" >"$TEST_TMP/show" 2>&1
check "show renders the verdict" grep -q "faster" "$TEST_TMP/show"
check "show renders the switchback part" \
	grep -q "randomisation p" "$TEST_TMP/show"
"$IOTRIAL" report "$id" --format html -o "$TEST_TMP/r.html" >/dev/null 2>&1
check "report html: the windows in time" \
	grep -q "The metric of every window" "$TEST_TMP/r.html"
check "report html: settle periods hatched" \
	grep -q 'fill="url(#hatch)"' "$TEST_TMP/r.html"
"$IOTRIAL" export "$id" --format shell >"$TEST_TMP/x.sh" 2>&1
check "export: the winner's value" grep -q "echo '64'" "$TEST_TMP/x.sh"

# A/A: nothing changes, so no verdict of faster or slower; the load's
# rate varies, but the device MB per request (--per-load) does not
"$IOTRIAL" observe --device "$L" --vary label=a,b --window 1s \
	--settle 0.5s --windows 6 --metric mbps --per-load requests \
	--seed 8 --no-store \
	--json="$TEST_TMP/aa.json" >"$out" 2>&1
check "A/A: exit 0" [ $? = 0 ]
check "A/A: not faster or slower" \
	jqe '.verdicts[] | select(.arm == 1) |
	     (.verdict != "faster" and .verdict != "slower")' \
	"$TEST_TMP/aa.json"

# an abort rule that fires on the first window with writes
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=64,1024 \
	--window 1s --settle 0 --windows 6 --abort-if 'iops>0' --no-store \
	--json="$TEST_TMP/ab.json" >"$out" 2>&1
now=$(queue "$L" max_sectors_kb)
check "abort: restored" [ "$now" = "$orig" ]
check "abort: says which rule fired" grep -q "abort-if 'iops>0' fired" "$out"
check "abort: restored within one window" \
	jqe '.abort.restored_after_s < 1' "$TEST_TMP/ab.json"
# it fired after the first window: no window of the schedule's 12 ran
# after it
check "abort: ended after the window that fired" \
	jqe '.windows | length == 1' "$TEST_TMP/ab.json"
check "abort: what was measured before it is shown" \
	grep -q "^  max_sectors_kb=[0-9]* *1 measured window, median iops" "$out"
check "abort: the first window fired" \
	jqe '.abort.window == 0' "$TEST_TMP/ab.json"

# someone else changes the knob: observe stops and keeps their value
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=1024,64 \
	--window 1s --settle 0 --windows 6 --no-store >"$out" 2>&1 &
pid=$!
sleep 1.5
echo 256 >"/sys/block/$D/queue/max_sectors_kb"
wait "$pid"
check "other's change: their value kept" \
	[ "$(queue "$L" max_sectors_kb)" = 256 ]
check "other's change: said" grep -q "someone else changed it" "$out"
echo "$orig" >"/sys/block/$D/queue/max_sectors_kb"

# SIGTERM mid-experiment: restored before it exits, 128 + 15
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=64,128 \
	--window 1s --settle 0 --windows 6 --no-store >"$out" 2>&1 &
pid=$!
sleep 1.5
kill -TERM "$pid"
wait "$pid"
rc=$?
check "SIGTERM: exit 143" [ "$rc" = 143 ]
check "SIGTERM: restored" [ "$(queue "$L" max_sectors_kb)" = "$orig" ]
check "SIGTERM: nothing left in the journal" \
	bash -c "! grep -q '^set' '$IOTRIAL_STATE_DIR/journal' 2>/dev/null"

# kill -9 mid-experiment: the next iotrial restores the baseline; both
# arms differ from a loop device's 128, whichever window it is killed in
"$IOTRIAL" observe --device "$L" --vary max_sectors_kb=64,1024 \
	--window 1s --settle 0 --windows 6 --no-store >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -9 "$pid"
wait "$pid" 2>/dev/null
check "kill -9: the knob was left changed" \
	[ "$(queue "$L" max_sectors_kb)" != "$orig" ]
"$IOTRIAL" revert >"$out" 2>&1
check "kill -9: the next iotrial restores it" \
	[ "$(queue "$L" max_sectors_kb)" = "$orig" ]
