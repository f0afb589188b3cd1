#!/usr/bin/env bash
# iotrial export: the winning arm of a stored experiment (made by
# importing generated runs: one arm clearly faster) as a sysctl.d file,
# an fstab diff and --write, a tuned profile and a shell script run on a
# scratch loop device; and the bad input: no knob factor, no winner, an
# unknown format, an existing -o, a --root that does not exist, an fstab
# with no line for the mount.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"

DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
L=$LOOP
dev=${L#/dev/}
mkmount "$L" || skip "cannot make a file system on $L"

gen_exp "$TEST_TMP/win.json" "$MNT" "$dev" 3 \
	read_ahead_kb=128,4096 scheduler=none,mq-deadline
win=$(imp_exp "$TEST_TMP/win.json")
gen_exp "$TEST_TMP/atime.json" "$MNT" "$dev" 1 atime=relatime,noatime
atime=$(imp_exp "$TEST_TMP/atime.json")
gen_exp "$TEST_TMP/none.json" "$MNT" "$dev" -1 read_ahead_kb=128,4096
none=$(imp_exp "$TEST_TMP/none.json")
gen_exp "$TEST_TMP/param.json" "$MNT" "$dev" 1 PARAM:bs=4k,8k
param=$(imp_exp "$TEST_TMP/param.json")
gen_exp "$TEST_TMP/mixed.json" "$MNT" "$dev" 3 PARAM:bs=4k,8k nr_requests=32,64
mixed=$(imp_exp "$TEST_TMP/mixed.json")
check "five experiments imported" test -n "$win" -a -n "$atime" -a -n "$none" -a -n "$param" -a -n "$mixed"

# a winner whose runs iotrial flagged is not rolled out unless named
SUSPECT=1 gen_exp "$TEST_TMP/sus.json" "$MNT" "$dev" 1 read_ahead_kb=128,4096
sus=$(imp_exp "$TEST_TMP/sus.json")
"$IOTRIAL" export "$sus" --db "$DB" --format sysctl >"$TEST_TMP/sus.out" 2>&1
check "a suspect winner: refused (exit 2)" test $? = 2
check "...saying why and how to export it anyway" \
	grep -qF "is suspect (page_cache)" "$TEST_TMP/sus.out"
"$IOTRIAL" export "$sus" --db "$DB" --arm read_ahead_kb=4096 --format shell \
	>"$TEST_TMP/sus.out" 2>&1
check "...and --arm naming it exports it" test $? = 0

# --- bad input
expect_usage "an unknown format lists the formats" \
	"^error: --format: 'xml' is not one of sysctl, udev, fstab, tuned, ansible, puppet, shell$" \
	export "$win" --db "$DB" --format xml
expect_usage "no knob factor: nothing to export, and what to run" \
	"varied no knob .*nothing to export.*iotrial compare WORKLOAD --vary KNOB" \
	export "$param" --db "$DB" --format udev
expect_usage "no arm won: refused, --arm suggested" \
	"no arm of experiment '$none' was faster .*--arm LABEL" \
	export "$none" --db "$DB" --format udev
expect_usage "--arm names no arm: the arms are listed" \
	"has no arm 'nope'; its arms: 'read_ahead_kb=128', 'read_ahead_kb=4096'" \
	export "$none" --db "$DB" --arm nope --format udev
gen_exp "$TEST_TMP/scratch.json" scratch:256M loop99 1 read_ahead_kb=128,4096
scratch=$(imp_exp "$TEST_TMP/scratch.json")
expect_usage "a scratch target is gone: --device or -t asked for" \
	"ran on 'scratch:256M', which is gone; give --device DEV or -t TARGET" \
	export "$scratch" --db "$DB" --format udev
"$IOTRIAL" export "$scratch" --db "$DB" --format udev --device "$L" >"$TEST_TMP/sc.out" 2>&1
check "with --device it exports for that disk" \
	grep -q "KERNEL==\"$dev\", ATTR{queue/read_ahead_kb}=\"4096\"" "$TEST_TMP/sc.out"
# vm.* settings belong to no disk: a gone scratch target, or a run's
# directory removed since, asks for none
gen_exp "$TEST_TMP/vmgone.json" scratch:1G:ext4 loop99 1 vm.dirty_ratio=20,10
vmgone=$(imp_exp "$TEST_TMP/vmgone.json")
"$IOTRIAL" export "$vmgone" --db "$DB" --format sysctl >"$TEST_TMP/vg.out" 2>"$TEST_TMP/vg.err"
rc=$?
check "an arm of vm.* only exports from a gone scratch target (rc=$rc)" \
	test $rc = 0 -a ! -s "$TEST_TMP/vg.err"
check "...its sysctl line" grep -qx "vm.dirty_ratio = 10" "$TEST_TMP/vg.out"
gen_exp "$TEST_TMP/vmdir.json" "$TEST_TMP/removed" loop99 1 \
	vm.dirty_background_ratio=10,5
vmdir=$(imp_exp "$TEST_TMP/vmdir.json")
"$IOTRIAL" apply "$vmdir" --db "$DB" --dry-run >"$TEST_TMP/vd.out" 2>"$TEST_TMP/vd.err"
rc=$?
check "apply --dry-run of a vm.* arm of a removed directory (rc=$rc)" \
	test $rc = 0 -a ! -s "$TEST_TMP/vd.err"
check "...plans it" grep -q "'vm.dirty_background_ratio': .* -> 5" "$TEST_TMP/vd.out"
gen_exp "$TEST_TMP/radir.json" "$TEST_TMP/removed" loop99 1 read_ahead_kb=128,4096
radir=$(imp_exp "$TEST_TMP/radir.json")
expect_usage "...a read_ahead_kb arm of it asks where" \
	"experiment '$radir' ran on '$TEST_TMP/removed', which is gone; give --device DEV or -t TARGET" \
	export "$radir" --db "$DB" --format udev
expect_usage "a --root that does not exist" "root '$TEST_TMP/nothere' is not an existing directory" \
	export "$win" --db "$DB" --format fstab --root "$TEST_TMP/nothere"
"$IOTRIAL" export "$none" --db "$DB" --arm read_ahead_kb=4096 --format udev \
	>"$TEST_TMP/arm.out" 2>&1
check "--arm exports an arm that did not win" \
	grep -q "ATTR{queue/read_ahead_kb}=\"4096\"" "$TEST_TMP/arm.out"

# --- sysctl: read back, the same values
"$IOTRIAL" export --set vm.dirty_expire_centisecs=2500 \
	--set vm.dirty_background_ratio=7 --format sysctl -o "$TEST_TMP/60.conf" \
	2>"$TEST_TMP/err"
check "sysctl.d file written" test -s "$TEST_TMP/60.conf"
check "sysctl.d file read back gives the values" test "$(python3 - "$TEST_TMP/60.conf" <<'PY'
import sys
vals = {}
for line in open(sys.argv[1]):
    line = line.strip()
    if not line or line[0] in "#;":
        continue
    k, v = line.split("=", 1)
    vals[k.strip()] = v.strip()
print(sorted(vals.items()))
PY
)" = "[('vm.dirty_background_ratio', '7'), ('vm.dirty_expire_centisecs', '2500')]"
echo keep >"$TEST_TMP/exists"
expect_usage "-o refuses an existing file" "'$TEST_TMP/exists' exists; give another file, or --force" \
	export --set vm.dirty_expire_centisecs=2500 --format sysctl -o "$TEST_TMP/exists"
check "the existing file is untouched" test "$(cat "$TEST_TMP/exists")" = keep
"$IOTRIAL" export --set vm.dirty_expire_centisecs=2500 --format sysctl \
	-o "$TEST_TMP/exists" --force >/dev/null 2>&1
check "--force replaces it" grep -qx "vm.dirty_expire_centisecs = 2500" "$TEST_TMP/exists"
# a usage error is one line: the notes (the experiment's disk is a loop
# device, whose queue is its own) come after every refusal
expect_usage "a device knob has no sysctl" "^error: no setting of $win belongs in a sysctl.d file" \
	export "$win" --db "$DB" --format sysctl
expect_usage "...nor an fstab line, after the note of its parameters" \
	"^error: no setting of $mixed belongs in fstab" \
	export "$mixed" --db "$DB" --format fstab --root "$TEST_TMP"
"$IOTRIAL" export "$mixed" --db "$DB" --format udev >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "an export that succeeds says the notes (rc=$?)" \
	grep -q "^note: the arm also sets workload parameters (bs=8k)" "$TEST_TMP/err"
expect_usage "apply --dry-run refused: one line too" \
	"^error: --persist sysctl: no setting of $mixed belongs in a sysctl.d file" \
	apply "$mixed" --db "$DB" --persist sysctl --root "$TEST_TMP" --dry-run

# --- tuned: INI with the sections tuned reads, include= the active profile
root=$TEST_TMP/root
mkdir -p "$root/etc/tuned"
echo throughput-performance >"$root/etc/tuned/active_profile"
"$IOTRIAL" export --set scheduler=mq-deadline --set read_ahead_kb=2048 \
	--set nr_requests=64 --set vm.dirty_background_ratio=7 --device "$L" \
	--root "$root" --format tuned -o "$TEST_TMP/prof" 2>"$TEST_TMP/err"
check "tuned profile directory with tuned.conf" test -s "$TEST_TMP/prof/tuned.conf"
check "tuned.conf parses as INI with main, disk, sysctl, sysfs" \
	test "$(python3 - "$TEST_TMP/prof/tuned.conf" "$dev" <<'PY'
import configparser, sys
c = configparser.ConfigParser(interpolation=None)
c.read(sys.argv[1])
d = sys.argv[2]
ok = (c.sections() == ["main", "disk", "sysctl", "sysfs"]
      and c["main"]["include"] == "throughput-performance"
      and c["disk"]["devices"] == d and c["disk"]["elevator"] == "mq-deadline"
      and c["disk"]["readahead"] == "2048"
      and c["sysctl"]["vm.dirty_background_ratio"] == "7"
      and c["sysfs"]["/sys/block/%s/queue/nr_requests" % d] == "64")
print(ok)
PY
)" = True

# --- shell: sh -n, then run on the loop device and its mount
"$IOTRIAL" export "$win" --db "$DB" --format shell -o "$TEST_TMP/set.sh" 2>"$TEST_TMP/err"
"$IOTRIAL" export "$atime" --db "$DB" --format shell -o "$TEST_TMP/atime.sh" 2>>"$TEST_TMP/err"
check "the scripts pass sh -n" sh -n "$TEST_TMP/set.sh" -a sh -n "$TEST_TMP/atime.sh"
check "the script is executable" test -x "$TEST_TMP/set.sh"
check "the script sets read-ahead through sysfs, not blockdev" \
	grep -q "echo '4096' > '/sys/block/$dev/queue/read_ahead_kb'" "$TEST_TMP/set.sh"
sh "$TEST_TMP/set.sh" && sh "$TEST_TMP/atime.sh"
check "the scripts ran" test $? = 0
check "the script set the scheduler" test "$(active_sched "$L")" = mq-deadline
check "the script set read_ahead_kb" test "$(queue "$L" read_ahead_kb)" = 4096
check "the script set noatime" grep -qw noatime <<<"$(mount_opts "$MNT")"
sh -x "$TEST_TMP/set.sh" 2>"$TEST_TMP/twice" && sh -x "$TEST_TMP/atime.sh" 2>>"$TEST_TMP/twice"
check "run twice, it writes nothing the second time" \
	test -z "$(grep -E '^\+ (echo|mount)' "$TEST_TMP/twice")"

# --- fstab: the diff, --write touching one line with a backup
fs="$root/etc/fstab"
uuid=$(blkid -s UUID -o value "$L")
printf '# /etc/fstab\nproc /proc proc defaults 0 0\nUUID=%s\t%s\text4\tdefaults,relatime\t0 2\n# end\n' \
	"$uuid" "$MNT" >"$fs"
cp "$fs" "$TEST_TMP/fstab.orig"
"$IOTRIAL" export "$atime" --db "$DB" --format fstab --root "$root" >"$TEST_TMP/diff" 2>"$TEST_TMP/err"
check "fstab: the changed line as a unified diff" test "$(cat "$TEST_TMP/diff")" = "--- $fs
+++ $fs
@@ -3 +3 @@
-UUID=$uuid	$MNT	ext4	defaults,relatime	0 2
+UUID=$uuid	$MNT	ext4	defaults,noatime	0 2"
check "the diff applies with patch" sh -c "cd / && patch --dry-run -p0 -s <'$TEST_TMP/diff' >/dev/null"
check "fstab untouched without --write" cmp -s "$fs" "$TEST_TMP/fstab.orig"
"$IOTRIAL" export "$atime" --db "$DB" --format fstab --root "$root" --write \
	>"$TEST_TMP/w.out" 2>"$TEST_TMP/err"
check "--write succeeds" grep -q "changed line 3 of '$fs'" "$TEST_TMP/w.out"
check "--write changed only that line" test "$(diff "$TEST_TMP/fstab.orig" "$fs" | grep -c '^[<>]')" = 2
check "the new line has noatime" grep -qP "^UUID=\Q$uuid\E\t\Q$MNT\E\text4\tdefaults,noatime\t0 2$" "$fs"
bak=$(ls "$root"/etc/fstab.iotrial-*.bak 2>/dev/null)
check "the backup is the old fstab" cmp -s "$bak" "$TEST_TMP/fstab.orig"
check "findmnt --verify accepts the result" findmnt --verify --tab-file "$fs"
printf 'UUID=1234 / ext4 defaults 0 1\n' >"$fs"
before=$(ls "$root/etc")
"$IOTRIAL" export "$atime" --db "$DB" --format fstab --root "$root" --write \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "an fstab with no line for the mount: refused (rc=$rc)" test $rc = 2
check "it says so" grep -q "has no line that mounts '$MNT'; --write changes a line and adds none, so nothing is written" "$TEST_TMP/err"
check "the output offers the line to add" \
	grep -qP "^\+$L\t\Q$MNT\E\text4\tdefaults,noatime\t0\t2$" "$TEST_TMP/out"
check "and says what else keeps it" grep -q "systemd-escape --path --suffix=mount $MNT" "$TEST_TMP/out"
"$IOTRIAL" export "$atime" --db "$DB" --format fstab --root "$root" \
	>"$TEST_TMP/add.diff" 2>"$TEST_TMP/err"
rc=$?
check "without --write, the diff that adds the line (rc=$rc)" test $rc = 0
cp "$fs" "$TEST_TMP/fstab.add"
sed "s#^--- .*#--- $TEST_TMP/fstab.add#; s#^+++ .*#+++ $TEST_TMP/fstab.add#" \
	"$TEST_TMP/add.diff" | patch -s -p0 -d / >"$TEST_TMP/patch.out" 2>&1
check "the diff applies with patch" test $? = 0
check "findmnt --verify takes the result" \
	findmnt --verify --tab-file "$TEST_TMP/fstab.add" >"$TEST_TMP/verify.out" 2>&1
sed 's/^/#   /' "$TEST_TMP/patch.out"
check "and writes nothing" test "$(ls "$root/etc")" = "$before" -a "$(cat "$fs")" = "UUID=1234 / ext4 defaults 0 1"

# set's hint names an export line that works
"$IOTRIAL" set --device "$L" read_ahead_kb=1024 >"$TEST_TMP/set.out" 2>&1
hint=$(sed -n "s/^or let '\(iotrial export .*\) --format udev|sysctl|fstab|tuned|ansible|puppet|shell' write them$/\1/p" "$TEST_TMP/set.out")
check "set names the export line" test "$hint" = "iotrial export --set read_ahead_kb=1024 --device $dev"
"$IOTRIAL" revert >/dev/null 2>&1
# shellcheck disable=SC2086
"$IOTRIAL" ${hint#iotrial } --format udev >"$TEST_TMP/hint.out" 2>&1
check "and that line exports the rule" grep -q "KERNEL==\"$dev\", ATTR{queue/read_ahead_kb}=\"1024\"" "$TEST_TMP/hint.out"
