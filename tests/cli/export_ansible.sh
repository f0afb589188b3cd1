#!/usr/bin/env bash
# iotrial export --format ansible: the playbook of a winning arm that
# sets a disk's queue knobs, a sysctl and atime passes
# ansible-playbook --syntax-check and runs with --check against
# localhost (check mode: nothing is changed).
# parallel: a loop device and files of its own; ansible and puppet in check mode
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool ansible-playbook ansible
DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
root=$TEST_TMP/root
mkdir -p "$root/etc"
printf '%s %s ext4 defaults 0 2\n' "$LOOP" "$MNT" >"$root/etc/fstab"
ra=$(queue "$LOOP" read_ahead_kb)
sched=$(active_sched "$LOOP")
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 7 scheduler=none,mq-deadline \
	read_ahead_kb=128,4096 atime=relatime,noatime
id=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format ansible \
	-o "$TEST_TMP/play.yml" 2>"$TEST_TMP/err"
check "playbook written" test -s "$TEST_TMP/play.yml"
check "it uses ansible.posix.mount with the new options" \
	grep -q "opts: 'defaults,noatime'" "$TEST_TMP/play.yml"
check "the udev rule is templated" \
	grep -q 'ATTR{queue/scheduler}="{{ iotrial_queue_scheduler }}"' "$TEST_TMP/play.yml"
check "a handler reloads and triggers udev" \
	grep -q "udevadm trigger --action=change --subsystem-match=block" "$TEST_TMP/play.yml"
"$IOTRIAL" export --set vm.dirty_background_ratio=7 --set scheduler=mq-deadline \
	--device "$LOOP" --format ansible -o "$TEST_TMP/play2.yml" 2>>"$TEST_TMP/err"
check "the sysctl playbook uses ansible.posix.sysctl" \
	grep -q "ansible.posix.sysctl:" "$TEST_TMP/play2.yml"
export HOME=$TEST_TMP ANSIBLE_LOCAL_TEMP=$TEST_TMP/ansible \
	ANSIBLE_REMOTE_TEMP=$TEST_TMP/ansible-remote ANSIBLE_NOCOLOR=1
for p in play play2; do
	ansible-playbook -i localhost, --connection=local --syntax-check \
		"$TEST_TMP/$p.yml" >"$TEST_TMP/$p.syntax" 2>&1
	rc=$?
	check "$p: ansible-playbook --syntax-check (rc=$rc)" test $rc = 0
	[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/$p.syntax" | tail -5
	ansible-playbook -i localhost, --connection=local --check \
		"$TEST_TMP/$p.yml" >"$TEST_TMP/$p.check" 2>&1
	rc=$?
	check "$p: runs with --check against localhost (rc=$rc)" test $rc = 0
	[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/$p.check" | tail -15
	check "$p: no task failed" grep -qE 'localhost +: ok=[1-9][0-9]* .*failed=0' "$TEST_TMP/$p.check"
done
check "check mode changed nothing" test "$(active_sched "$LOOP")" = "$sched" -a \
	"$(queue "$LOOP" read_ahead_kb)" = "$ra" -a ! -e /etc/udev/rules.d/60-iotrial.rules
