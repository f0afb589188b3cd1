#!/usr/bin/env bash
# The JSON change management reads: `set --dry-run --json` (the plan,
# from what to what, nothing changed), `revert --list --json` (what the
# journal holds, nothing changed), `apply --dry-run --json` (the plan
# and the files); --json=FILE writes the same; --json without the
# read-only switch is a usage error. And "schema" in the objects that
# had none: info, diff and every line of watch.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
command -v jq >/dev/null || skip "needs jq"

mkloop 64M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
ra0=$(queue "$LOOP" read_ahead_kb)
ra1=$((ra0 == 4096 ? 2048 : 4096))

# set --dry-run --json
out=$TEST_TMP/set.json
"$IOTRIAL" set --device "$LOOP" read_ahead_kb=$ra1 --dry-run --json >"$out"
check "set --dry-run --json exits 0" test $? = 0
check "it is a set plan of iotrial/1" \
	test "$(jq -r '.schema + " " + .kind' "$out")" = "iotrial/1 set-plan"
check "it names the device" test "$(jq -r .device "$out")" = "$dev"
check "each change says from what to what" \
	test "$(jq -r '.changes[0] | "\(.knob) \(.before) \(.value) \(.unchanged)"' "$out")" = \
	"read_ahead_kb $ra0 $ra1 false"
check "and the file it writes" \
	test "$(jq -r '.changes[0].path' "$out")" = "/sys/block/$dev/queue/read_ahead_kb"
check "nothing was changed" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
"$IOTRIAL" set --device "$LOOP" read_ahead_kb=$ra1 --dry-run --json="$TEST_TMP/set2.json" >"$TEST_TMP/stdout"
check "--json=FILE writes the same to the file" \
	test "$(jq -c . "$TEST_TMP/set2.json")" = "$(jq -c . "$out")" -a ! -s "$TEST_TMP/stdout"
expect_usage "set --json without --dry-run" "--json prints the plan of --dry-run" \
	set --device "$LOOP" read_ahead_kb=$ra1 --json
check "...changes nothing" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"

# revert --list --json, empty and with a kept change
out=$TEST_TMP/list0.json
"$IOTRIAL" revert --list --json >"$out"
check "revert --list --json of an empty journal" \
	test "$(jq -c '[.schema, .kind, .live, (.records | length)]' "$out")" = '["iotrial/1","journal",0,0]'
"$IOTRIAL" set --device "$LOOP" read_ahead_kb=$ra1 >/dev/null 2>&1
check "set changed it" test "$(queue "$LOOP" read_ahead_kb)" = "$ra1"
out=$TEST_TMP/list1.json
"$IOTRIAL" revert --list --json >"$out"
check "revert --list --json holds the kept change" \
	test "$(jq -r '.records[] | select(.knob == "read_ahead_kb" and .object == "'"$dev"'") | "\(.original) \(.wrote) \(.kept) \(.owner.state)"' "$out")" = \
	"$ra0 $ra1 true kept"
check "...and changed nothing" test "$(queue "$LOOP" read_ahead_kb)" = "$ra1"
expect_usage "revert --json without --list" "--json prints what --list shows" \
	revert --json
"$IOTRIAL" revert >/dev/null 2>&1
check "revert restored it" test "$(queue "$LOOP" read_ahead_kb)" = "$ra0"

# apply --dry-run --json
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
DB=$TEST_TMP/results.db
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 1 read_ahead_kb=$ra0,$ra1
id=$(imp_exp "$TEST_TMP/e.json")
root=$TEST_TMP/root
mkdir -p "$root"
out=$TEST_TMP/apply.json
"$IOTRIAL" apply "$id" --db "$DB" --persist udev --root "$root" \
	--dry-run --json >"$out" 2>"$TEST_TMP/err"
check "apply --dry-run --json exits 0" test $? = 0
check "it is an apply plan of the experiment" \
	test "$(jq -r '"\(.kind) \(.experiment) \(.arm)"' "$out")" = "apply-plan $id read_ahead_kb=$ra1"
check "with the change from what to what" \
	test "$(jq -r '.changes[] | select(.knob == "read_ahead_kb") | "\(.before) \(.value)"' "$out")" = "$ra0 $ra1"
check "and the file it would write" \
	test "$(jq -r '.files[0] | "\(.format) \(.path) \(.exists)"' "$out")" = \
	"udev $root/etc/udev/rules.d/60-iotrial.rules false"
check "nothing written, nothing changed" \
	test -z "$(find "$root" -mindepth 1)" -a "$(queue "$LOOP" read_ahead_kb)" = "$ra0"
expect_usage "apply --json without --dry-run" "--json prints the plan of --dry-run" \
	apply "$id" --db "$DB" --json --yes

# "schema" where it was missing
"$IOTRIAL" info -t "$MNT" --json >"$TEST_TMP/info.json"
check "info --json has the schema first" \
	test "$(jq -r 'keys_unsorted[0] + " " + .schema' "$TEST_TMP/info.json")" = "schema iotrial/1"
"$IOTRIAL" watch "$LOOP" --interval 50ms --count 2 --json >"$TEST_TMP/w.jsonl"
check "every watch --json line has the schema" \
	test "$(jq -r .schema "$TEST_TMP/w.jsonl" | sort -u)" = iotrial/1
