#!/usr/bin/env bash
# sysfs: reaches text settings only: a binary attribute (a PCI device's
# config space) would be saved cut at its first NUL byte and shown raw,
# so it is refused, saying why. Only --dry-run is tried: if the refusal
# ever broke, this test must not write into a device's config space.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
out=$TEST_TMP/out
cfg=
for f in /sys/bus/pci/devices/*/config; do
	[ -r "$f" ] && od -An -tx1 -N64 "$f" 2>/dev/null | grep -qw 00 &&
		cfg=$f && break
done
[ -n "$cfg" ] || skip "no readable PCI config space here"
$IOTRIAL set "sysfs:$cfg=1" --dry-run >"$out" 2>&1
check "a binary attribute is refused (exit 2)" test $? = 2
check "saying it holds binary data, not a text setting" \
	has "$out" "'sysfs:$cfg' holds binary data"
check "nothing raw reached the output" \
	bash -c "! LC_ALL=C grep -q -P '[\x00-\x08\x0e-\x1f\x7f-\xff]' '$out'"
check "nothing was journaled" test ! -e "$IOTRIAL_STATE_DIR/journal"
