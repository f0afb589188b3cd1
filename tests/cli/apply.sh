#!/usr/bin/env bash
# iotrial apply: the winning arm (read_ahead_kb of a loop device and
# vm.dirty_expire_centisecs) set now through the journal, with the
# sysctl.d file and the udev rule installed under --root only, each
# replaced file kept as a backup; revert restores the knobs; --dry-run
# prints the plan and the files and changes nothing; bad input.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
knob_save_vm

DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
ra0=$(queue "$LOOP" read_ahead_kb)
ra1=$((ra0 == 4096 ? 2048 : 4096))
ex0=$(cat /proc/sys/vm/dirty_expire_centisecs)
ex1=$((ex0 + 100))
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 3 read_ahead_kb=$ra0,$ra1 \
	vm.dirty_expire_centisecs=$ex0,$ex1
id=$(imp_exp "$TEST_TMP/e.json")
check "experiment imported" test -n "$id"
root=$TEST_TMP/root
mkdir -p "$root"

# --dry-run: the plan, the files, nothing changed
"$IOTRIAL" apply "$id" --db "$DB" --persist sysctl --persist udev \
	--root "$root" --dry-run >"$TEST_TMP/dry" 2>"$TEST_TMP/err"
rc=$?
check "--dry-run succeeds (rc=$rc)" test $rc = 0
check "it names the experiment and the arm" \
	grep -q "^experiment $id (imported), arm 'read_ahead_kb=$ra1 vm.dirty_expire_centisecs=$ex1': faster than" "$TEST_TMP/dry"
check "it shows each change from what to what" \
	grep -q "'vm.dirty_expire_centisecs': $ex0 .*-> $ex1" "$TEST_TMP/dry"
check "it names the files" grep -q "^would write $root/etc/sysctl.d/60-iotrial.conf (a new file):" "$TEST_TMP/dry"
check "and their contents" grep -q "^    vm.dirty_expire_centisecs = $ex1$" "$TEST_TMP/dry"
check "--dry-run wrote nothing" test -z "$(find "$root" -mindepth 1)"
check "--dry-run changed no knob" test "$(queue "$LOOP" read_ahead_kb)" = $ra0 -a \
	"$(cat /proc/sys/vm/dirty_expire_centisecs)" = $ex0

# apply: live knobs, files only under the root
etc_before=$(ls -la /etc/sysctl.d /etc/udev/rules.d 2>&1)
"$IOTRIAL" apply "$id" --db "$DB" --persist sysctl --persist udev \
	--root "$root" --yes >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "apply succeeds (rc=$rc)" test $rc = 0
[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/err"
check "read_ahead_kb is set now" test "$(queue "$LOOP" read_ahead_kb)" = $ra1
check "vm.dirty_expire_centisecs is set now" test "$(cat /proc/sys/vm/dirty_expire_centisecs)" = $ex1
check "the files are under the root, and only they" test "$(cd "$root" && find . -type f | sort)" = \
	"./etc/sysctl.d/60-iotrial.conf
./etc/udev/rules.d/60-iotrial.rules"
check "nothing was written in /etc" test "$(ls -la /etc/sysctl.d /etc/udev/rules.d 2>&1)" = "$etc_before"
check "the sysctl.d file holds the value" grep -qx "vm.dirty_expire_centisecs = $ex1" "$root/etc/sysctl.d/60-iotrial.conf"
check "the udev rule holds the value" grep -q "KERNEL==\"$dev\", ATTR{queue/read_ahead_kb}=\"$ra1\"" "$root/etc/udev/rules.d/60-iotrial.rules"
check "apply says revert restores them" grep -q "'iotrial revert' restores them" "$TEST_TMP/out"

"$IOTRIAL" revert >"$TEST_TMP/rev" 2>&1
check "revert restores read_ahead_kb" test "$(queue "$LOOP" read_ahead_kb)" = $ra0
check "revert restores vm.dirty_expire_centisecs" test "$(cat /proc/sys/vm/dirty_expire_centisecs)" = $ex0

# again: the files are replaced, the old ones kept as backups
echo "# edited by hand" >>"$root/etc/sysctl.d/60-iotrial.conf"
cp "$root/etc/sysctl.d/60-iotrial.conf" "$TEST_TMP/old.conf"
"$IOTRIAL" apply "$id" --db "$DB" --persist sysctl --root "$root" --yes >"$TEST_TMP/out2" 2>&1
check "apply again succeeds" test $? = 0
bak=$(ls "$root"/etc/sysctl.d/60-iotrial.conf.iotrial-*.bak 2>/dev/null)
check "the replaced file is kept as a backup" cmp -s "$bak" "$TEST_TMP/old.conf"
check "apply names the backup" grep -qF "the old file is '$bak'" "$TEST_TMP/out2"
"$IOTRIAL" revert >/dev/null 2>&1
check "revert again" test "$(cat /proc/sys/vm/dirty_expire_centisecs)" = $ex0

# a bdflush line's translations are said once, in the plan: not again
# on stderr (apply --dry-run printed each twice)
line0="40 0 0 0 500 3000 60 0 0" line1="80 0 0 0 500 3000 90 0 0"
gen_exp "$TEST_TMP/bd.json" "$MNT" "$dev" 1 "bdflush=$line0,$line1"
bid=$(imp_exp "$TEST_TMP/bd.json")
"$IOTRIAL" apply "$bid" --db "$DB" --dry-run >"$TEST_TMP/bd.out" 2>"$TEST_TMP/bd.err"
rc=$?
check "apply --dry-run of a bdflush arm (rc=$rc)" test $rc = 0
for k in vm.dirty_background_ratio vm.dirty_writeback_centisecs \
	vm.dirty_expire_centisecs vm.dirty_ratio; do
	n=$(cat "$TEST_TMP/bd.out" "$TEST_TMP/bd.err" |
		grep -c "is the Linux 2.4 name of '$k'")
	check "...says what '$k' was called in 2.4 once ($n times)" test "$n" = 1
done
"$IOTRIAL" apply "$bid" --db "$DB" --dry-run --json >"$TEST_TMP/bd.json.out" \
	2>"$TEST_TMP/bd.err"
check "--dry-run --json: the notes are in the plan, not on stderr" \
	test "$(jq '[.changes[] | select(.note != null)] | length' "$TEST_TMP/bd.json.out")" = 4 \
	-a -z "$(grep "^note:" "$TEST_TMP/bd.err")"

# bad input
expect_usage "--persist of a format the system does not read" \
	"--persist takes sysctl, udev, fstab or tuned, not 'ansible'" \
	apply "$id" --db "$DB" --persist ansible --root "$root"
USAGE_DIR=$root expect_usage "--persist fstab without a mount knob" \
	"--persist fstab: no setting of '$id' is a mount option" \
	apply "$id" --db "$DB" --persist fstab --root "$root"
expect_usage "a --root that does not exist" "root '$TEST_TMP/nothere' is not an existing directory" \
	apply "$id" --db "$DB" --persist sysctl --root "$TEST_TMP/nothere"
check "bad input changed no knob" test "$(queue "$LOOP" read_ahead_kb)" = $ra0 -a \
	"$(cat /proc/sys/vm/dirty_expire_centisecs)" = $ex0

# --persist fstab: the one line changed (checked by findmnt), the mount
# remounted now, revert remounts it back
gen_exp "$TEST_TMP/a.json" "$MNT" "$dev" 1 atime=relatime,noatime
aid=$(imp_exp "$TEST_TMP/a.json")
uuid=$(blkid -s UUID -o value "$LOOP")
mkdir -p "$root/etc"
printf '# fstab\nproc /proc proc defaults 0 0\nUUID=%s %s ext4 defaults 0 2\n' \
	"$uuid" "$MNT" >"$root/etc/fstab"
cp "$root/etc/fstab" "$TEST_TMP/fstab.orig"
"$IOTRIAL" apply "$aid" --db "$DB" --persist fstab --root "$root" --dry-run \
	>"$TEST_TMP/adry" 2>&1
check "--dry-run shows the fstab line before and after" grep -qF \
	"would change $root/etc/fstab, line 3: 'UUID=$uuid $MNT ext4 defaults 0 2' -> 'UUID=$uuid $MNT ext4 defaults,noatime 0 2'" \
	"$TEST_TMP/adry"
check "--dry-run left fstab alone" cmp -s "$root/etc/fstab" "$TEST_TMP/fstab.orig"
check "--dry-run does not pass on findmnt's report of a good fstab" \
	test -z "$(grep -iE 'parse errors|no errors|warnings? detected' "$TEST_TMP/adry")"
"$IOTRIAL" apply "$aid" --db "$DB" --persist fstab --root "$root" --yes >"$TEST_TMP/aout" 2>&1
check "apply --persist fstab succeeds" test $? = 0
check "the mount has noatime now" grep -qw noatime <<<"$(mount_opts "$MNT")"
check "fstab has the new option on that line only" test \
	"$(diff "$TEST_TMP/fstab.orig" "$root/etc/fstab" | grep '^[<>]')" = \
	"< UUID=$uuid $MNT ext4 defaults 0 2
> UUID=$uuid $MNT ext4 defaults,noatime 0 2"
check "the old fstab is kept" cmp -s "$(ls "$root"/etc/fstab.iotrial-*.bak)" "$TEST_TMP/fstab.orig"
"$IOTRIAL" revert >/dev/null 2>&1
check "revert remounts without noatime" test -z "$(grep -w noatime <<<"$(mount_opts "$MNT")")"

# --persist fstab where fstab has no line for the mount: a dry run says
# what to add (and the other ways) and plans the rest; a real apply
# changes nothing and says the same
printf '# fstab\nproc /proc proc defaults 0 0\n' >"$root/etc/fstab"
cp "$root/etc/fstab" "$TEST_TMP/fstab.noline"
"$IOTRIAL" apply "$aid" --db "$DB" --persist fstab --root "$root" --dry-run \
	>"$TEST_TMP/nodry" 2>&1
rc=$?
check "no fstab line: --dry-run still plans (rc=$rc)" test $rc = 0
check "...naming the line to add" grep -q "^  the line: .*	$MNT	ext4	defaults,noatime	0	2$" "$TEST_TMP/nodry"
check "...and a systemd unit as the other way" grep -q "systemd unit with Options=noatime" "$TEST_TMP/nodry"
check "...and the remount it would make" grep -q "'atime' on '$MNT': .* -> noatime" "$TEST_TMP/nodry"
"$IOTRIAL" apply "$aid" --db "$DB" --persist fstab --root "$root" --yes \
	>"$TEST_TMP/noapply" 2>&1
rc=$?
check "no fstab line: apply changes nothing (rc=$rc)" test $rc = 2 -a \
	-z "$(grep -w noatime <<<"$(mount_opts "$MNT")")"
check "...says what to add" grep -q "^  the line: " "$TEST_TMP/noapply"
check "...and left fstab alone" cmp -s "$root/etc/fstab" "$TEST_TMP/fstab.noline"
