#!/usr/bin/env bash
# A sysfs: knob of a block device carries the device's identity, like
# the named device knobs: when loop0 is detached and attached to another
# image before the restore, the restore is dropped (and said so) instead
# of writing the old value into the new device. On the same device it is
# restored, whichever path under /sys named it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
need_root
out=$TEST_TMP/out
J=$IOTRIAL_STATE_DIR/journal

mkloop 64M || skip "cannot make a loop device"
L=$LOOP
N=${L#/dev/}
echo 0 >"/sys/block/$N/queue/nomerges"
$IOTRIAL set "sysfs:/sys/block/$N/queue/nomerges=2" >"$out" 2>&1
check "set sysfs:.../nomerges=2 exits 0" test $? = 0
check "nomerges is 2" test "$(queue "$L" nomerges)" = 2
seq0=$(cat "/sys/block/$N/diskseq")
check "the journal binds it to the device and its disk sequence" \
	grep -q " device $N $(cat /sys/block/$N/dev)%20diskseq%20$seq0 0 2 c=" "$J"

# the device is replaced by another image under the same name
other=$TEST_TMP/other.img
truncate -s 32M "$other"
losetup -d "$L"
if ! losetup "$L" "$other" 2>/dev/null; then
	TEST_LOOPS=() # the name is someone else's now: not ours to detach
	skip "'$L' was taken by someone else before it could be reattached"
fi
[ "$(cat "/sys/block/$N/diskseq")" != "$seq0" ] ||
	skip "the kernel gave the new device the same disk sequence"
# the new device holds the value iotrial wrote, so only its identity
# tells it apart
echo 2 >"/sys/block/$N/queue/nomerges"
$IOTRIAL revert >"$out" 2>&1
check "revert exits 0" test $? = 0
check "the new device was not written" test "$(queue "$L" nomerges)" = 2
check "and the note says why" \
	has "$out" "no longer applies ('$N' is not the device it was"
check "the journal is empty" test ! -e "$J"
echo 0 >"/sys/block/$N/queue/nomerges"

# the same device: restored
$IOTRIAL set "sysfs:/sys/devices/virtual/block/$N/queue/nomerges=1" >"$out" 2>&1
check "set through the /sys/devices path exits 0" test $? = 0
check "it is bound to the disk too" grep -q " device $N .*diskseq" "$J"
$IOTRIAL revert >"$out" 2>&1
check "revert restores it on the same device" \
	test "$(queue "$L" nomerges)" = 0
