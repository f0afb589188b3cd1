#!/usr/bin/env bash
# iotrial export --format udev: the rule of a winning arm (scheduler and
# read_ahead_kb of a loop device, matched by kernel name since a loop
# device has no ID_WWN or ID_SERIAL) is accepted by udevadm (verify, or
# test where verify is missing: the rule is read from /run/udev/rules.d
# and the event it simulates writes the attributes).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool udevadm udev
DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
gen_exp "$TEST_TMP/e.json" "$LOOP" "$dev" 3 read_ahead_kb=128,4096 \
	scheduler=none,mq-deadline
id=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" export "$id" --db "$DB" --format udev -o "$TEST_TMP/r.rules" 2>"$TEST_TMP/err"
check "rules file written" test -s "$TEST_TMP/r.rules"
rule=$(grep -v '^#' "$TEST_TMP/r.rules")
check "one rule: add|change, block, disk, by kernel name, scheduler first" test "$rule" = \
	"ACTION==\"add|change\", SUBSYSTEM==\"block\", ENV{DEVTYPE}==\"disk\", KERNEL==\"$dev\", ATTR{queue/scheduler}=\"mq-deadline\", ATTR{queue/read_ahead_kb}=\"4096\""
check "a comment says why it is matched by kernel name" \
	grep -q "^# '$dev' has no ID_WWN or ID_SERIAL in the udev database" "$TEST_TMP/r.rules"

if udevadm verify --help >/dev/null 2>&1; then
	udevadm verify "$TEST_TMP/r.rules" >"$TEST_TMP/v.out" 2>&1
	check "udevadm verify accepts the rules file" test $? = 0
else
	# udevadm test reads rules from /run/udev/rules.d and records the
	# device in /run/udev's database: what it adds there is removed
	# (all of /run/udev when there was none, as without a udev daemon)
	had_udev=; [ -d /run/udev ] && had_udev=1
	had_rules=; [ -d /run/udev/rules.d ] && had_rules=1
	db=/run/udev/data/b$(cat "/sys/block/$dev/dev")
	[ -e "$db" ] && cp -p "$db" "$TEST_TMP/db.saved"
	mkdir -p /run/udev/rules.d
	rf=/run/udev/rules.d/60-iotrial-test-$$.rules
	cp "$TEST_TMP/r.rules" "$rf"
	udevadm test --action=change "/sys/class/block/$dev" >"$TEST_TMP/t.out" 2>&1
	rc=$?
	rm -f "$rf"
	if [ -z "$had_udev" ]; then
		rm -rf /run/udev
	else
		[ -n "$had_rules" ] || rmdir /run/udev/rules.d
		if [ -e "$TEST_TMP/db.saved" ]; then
			cp -p "$TEST_TMP/db.saved" "$db"
		else
			rm -f "$db"
		fi
	fi
	check "udevadm test runs with the rule (rc=$rc)" test $rc = 0
	check "udevadm read the rule without complaint" \
		test -z "$(grep -F "$rf" "$TEST_TMP/t.out" | grep -iE 'invalid|error|fail')"
	check "the rule wrote the scheduler" test "$(active_sched "$LOOP")" = mq-deadline
	check "the rule wrote read_ahead_kb" test "$(queue "$LOOP" read_ahead_kb)" = 4096
fi

