#!/usr/bin/env bash
# iotrial export --format puppet: the manifest of a winning arm (file
# resources for sysctl.d and udev notifying an exec, a mount resource)
# passes `puppet parser validate`.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool puppet puppet
DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
root=$TEST_TMP/root
mkdir -p "$root/etc"
printf "%s %s ext4 defaults,relatime 0 2\n" "$LOOP" "$MNT" >"$root/etc/fstab"
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 3 read_ahead_kb=128,4096 \
	atime=relatime,noatime
id=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format puppet \
	-o "$TEST_TMP/m.pp" 2>"$TEST_TMP/err"
"$IOTRIAL" export --set vm.dirty_background_ratio=7 --set "sysctl:vm.swappiness=10" \
	--format puppet -o "$TEST_TMP/s.pp" 2>>"$TEST_TMP/err"
check "manifests written" test -s "$TEST_TMP/m.pp" -a -s "$TEST_TMP/s.pp"
check "the udev file notifies an exec" grep -q "notify  => Exec\['iotrial-udev'\]" "$TEST_TMP/m.pp"
check "a mount resource with the new options" grep -q "options  => 'defaults,noatime'" "$TEST_TMP/m.pp"
check "the sysctl.d file notifies an exec" grep -q "notify  => Exec\['iotrial-sysctl'\]" "$TEST_TMP/s.pp"
check "both sysctls are in it" grep -q "vm.swappiness = 10" "$TEST_TMP/s.pp"
export HOME=$TEST_TMP
for m in m s; do
	puppet parser validate --confdir "$TEST_TMP/puppet" --vardir "$TEST_TMP/puppet/var" \
		"$TEST_TMP/$m.pp" >"$TEST_TMP/$m.out" 2>&1
	rc=$?
	check "$m.pp: puppet parser validate (rc=$rc)" test $rc = 0
	[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/$m.out" | tail -5
done
