#!/usr/bin/env bash
# An experiment that came from elsewhere is not a licence to write as
# root: the origin (local, imported, fleet) is kept in the store and the
# JSON and said by show, log and report; apply and export of an imported
# experiment refuse raw sysctl:/sysfs: knobs unless --allow-knob names
# them, after printing the plan (the core_pattern repro); apply asks on a
# terminal and needs --yes elsewhere; a winner measured on another device
# or from another baseline needs --force; an old store without the
# origin column opens, its experiments local.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
command -v python3 >/dev/null || skip "needs python3"
command -v script >/dev/null || skip "needs script (util-linux) for a terminal"
knob_save_vm

DB=$TEST_TMP/results.db
mkloop 64M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
nm=/sys/block/$dev/queue/nomerges
nm0=$(cat "$nm")
nm1=$((nm0 == 2 ? 1 : 2))
core0=$(cat /proc/sys/kernel/core_pattern)
cores() { test "$(cat /proc/sys/kernel/core_pattern)" = "$core0"; }

# --- the repro: an imported experiment whose winner pipes core dumps.
# Its value is no kernel setting, so no switch lets it through.
gen_exp "$TEST_TMP/evil.json" / vda 1 "sysctl:kernel.core_pattern=core,|/tmp/evil %p"
eid=$(imp_exp "$TEST_TMP/evil.json")
check "the piping core_pattern experiment is imported" test -n "$eid"
for how in --dry-run --yes "--yes --allow-knob sysctl:kernel.core_pattern"; do
	# shellcheck disable=SC2086 # the switches, split
	"$IOTRIAL" apply "$eid" --db "$DB" $how >"$TEST_TMP/out" 2>"$TEST_TMP/err"
	rc=$?
	check "apply $how of it is refused (rc=$rc)" test $rc = 2
	check "...for its value" has "$TEST_TMP/err" "'|/tmp/evil %p' is not a value iotrial writes"
	check "...and core_pattern is unchanged" cores
done
"$IOTRIAL" export "$eid" --db "$DB" --format sysctl \
	--allow-knob sysctl:kernel.core_pattern >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "export of it is refused, --allow-knob or not (rc=$rc)" test $rc = 2 -a ! -s "$TEST_TMP/out"

# --- provenance: the same raw knob with a value of the kernel's form
gen_exp "$TEST_TMP/core.json" / vda 1 "sysctl:kernel.core_pattern=core,core.dump"
cid=$(imp_exp "$TEST_TMP/core.json")
check "the core_pattern experiment is imported" test -n "$cid"
"$IOTRIAL" apply "$cid" --db "$DB" --dry-run >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "apply --dry-run of it is refused (rc=$rc)" test $rc = 2
check "...after printing the plan, which writes core_pattern" \
	has "$TEST_TMP/out" "write '/proc/sys/kernel/core_pattern'"
check "...saying where it came from" has "$TEST_TMP/out" "experiment $cid (imported), arm"
check "...and how to allow the knob" has "$TEST_TMP/err" \
	"was imported, not measured here, and its arm sets 'sysctl:kernel.core_pattern', a raw knob"
check "...naming the switch" has "$TEST_TMP/err" "give --allow-knob 'sysctl:kernel.core_pattern'"
"$IOTRIAL" apply "$cid" --db "$DB" --yes >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "apply --yes of it is refused (rc=$rc)" test $rc = 2
check "core_pattern is unchanged" cores
"$IOTRIAL" export "$cid" --db "$DB" --format sysctl >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "export of it is refused (rc=$rc)" test $rc = 2
check "...writing nothing on stdout" test ! -s "$TEST_TMP/out"
check "...the plan on stderr first" grep -q "^  1. 'sysctl:kernel.core_pattern': " "$TEST_TMP/err"
"$IOTRIAL" apply "$cid" --db "$DB" --dry-run --allow-knob sysctl:kernel.core_pattern \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "--allow-knob names it: --dry-run plans it (rc=$rc)" test $rc = 0
check "...the plan" has "$TEST_TMP/out" "'sysctl:kernel.core_pattern': core -> core.dump"
"$IOTRIAL" export "$cid" --db "$DB" --format sysctl --allow-knob sysctl:kernel.core_pattern \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "--allow-knob names it: export writes it" grep -qx "kernel.core_pattern = core.dump" "$TEST_TMP/out"
check "core_pattern is still unchanged" cores

# a JSON that calls itself local is imported all the same
python3 - "$TEST_TMP/core.json" "$TEST_TMP/liar.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["origin"] = "local"
json.dump(e, open(sys.argv[2], "w"))
PY
lid=$(imp_exp "$TEST_TMP/liar.json")
check "an import that says it is local is imported" \
	test "$("$IOTRIAL" show "$lid" --db "$DB" --json | jq -r .origin)" = imported
expect_usage "...and its raw knob is refused" "give --allow-knob 'sysctl:kernel.core_pattern'" \
	apply "$lid" --db "$DB" --yes

# --- show, log and report say the origin
"$IOTRIAL" show "$cid" --db "$DB" >"$TEST_TMP/show"
check "show says it was imported" grep -q "^stored .*, origin imported, host host1" "$TEST_TMP/show"
"$IOTRIAL" log --db "$DB" >"$TEST_TMP/log"
check "log marks it" grep -q "^$cid .*(imported) 2 arms" "$TEST_TMP/log"
check "log --json has the origin" \
	test "$("$IOTRIAL" log --db "$DB" --json | jq -r ".experiments[] | select(.id == \"$cid\") | .origin")" = imported
check "report --format json has it" \
	test "$("$IOTRIAL" report "$cid" --db "$DB" --format json | jq -r .origin)" = imported
check "report --format md says it" \
	grep -q "^| origin | imported |" <<<"$("$IOTRIAL" report "$cid" --db "$DB" --format md)"

# --- a raw knob of the loop device, allowed, applied for real
gen_exp "$TEST_TMP/nm.json" / "$dev" 1 "sysfs:$nm=$nm0,$nm1"
nid=$(imp_exp "$TEST_TMP/nm.json")
expect_usage "a raw sysfs: knob of an import is refused" "give --allow-knob 'sysfs:$nm'" \
	apply "$nid" --db "$DB" --device "$dev" --yes
check "...and left alone" test "$(cat "$nm")" = "$nm0"
"$IOTRIAL" apply "$nid" --db "$DB" --device "$dev" --yes --allow-knob "sysfs:$nm" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "--allow-knob sysfs:... --yes applies it (rc=$rc)" test $rc = 0 -a "$(cat "$nm")" = "$nm1"
check "...the plan of what came from elsewhere shown first" grep -q "^plan: 1 change, in apply order$" "$TEST_TMP/out"
"$IOTRIAL" revert >/dev/null 2>&1
check "revert puts it back" test "$(cat "$nm")" = "$nm0"

# --- asking: no terminal needs --yes; a terminal is asked
ra0=$(queue "$dev" read_ahead_kb)
ra1=$((ra0 == 4096 ? 2048 : 4096))
gen_exp "$TEST_TMP/ra.json" / "$dev" 1 "read_ahead_kb=$ra0,$ra1"
rid=$(imp_exp "$TEST_TMP/ra.json")
rarm="--arm read_ahead_kb=$ra1" # generated data may drift: name the arm
"$IOTRIAL" apply "$rid" $rarm --db "$DB" --device "$dev" </dev/null >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "no terminal, no --yes: refused (rc=$rc)" test $rc = 2
check "...saying to give --yes" has "$TEST_TMP/err" \
	"it is not on a terminal: give --yes to apply the plan above without asking, or --dry-run"
check "...after the plan" grep -q "^  1. 'read_ahead_kb' on '$dev': " "$TEST_TMP/out"
check "...and nothing changed" test "$(queue "$dev" read_ahead_kb)" = $ra0
cmd="'$IOTRIAL' apply $rid $rarm --db '$DB' --device $dev"
printf 'n\n' | script -qec "$cmd" /dev/null >"$TEST_TMP/tty" 2>&1
rc=$?
check "on a terminal, answered 'n': rc 1 (rc=$rc)" test $rc = 1
check "...it asked" has "$TEST_TMP/tty" "apply 1 change now? [y/N]"
check "...and changed nothing" test "$(queue "$dev" read_ahead_kb)" = $ra0
check "...and said so" has "$TEST_TMP/tty" "nothing is changed"
printf 'y\n' | script -qec "$cmd" /dev/null >"$TEST_TMP/tty" 2>&1
rc=$?
check "on a terminal, answered 'y': applied (rc=$rc)" test $rc = 0 -a "$(queue "$dev" read_ahead_kb)" = $ra1
check "...after showing the plan" grep -q "'read_ahead_kb' on '$dev': .* -> " "$TEST_TMP/tty"
"$IOTRIAL" revert >/dev/null 2>&1
check "revert puts read_ahead_kb back" test "$(queue "$dev" read_ahead_kb)" = $ra0

# --- a winner measured on another device, or from another baseline
gen_exp "$TEST_TMP/other.json" / loop1234 1 "read_ahead_kb=$((ra0 + 8)),$ra1"
oid=$(imp_exp "$TEST_TMP/other.json")
"$IOTRIAL" apply "$oid" --db "$DB" --device "$dev" --dry-run >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "--dry-run of a winner measured elsewhere plans it (rc=$rc)" test $rc = 0
check "...warning with both devices and both values" has "$TEST_TMP/err" \
	"warning: 'read_ahead_kb' on '$dev': experiment '$oid' measured its winner on 'loop1234', from its baseline 'read_ahead_kb=$((ra0 + 8))' ($((ra0 + 8)) KiB"
check "...and what this device holds" grep -q "here it is set on '$dev', which holds $ra0 KiB.* now$" "$TEST_TMP/err"
check "...and that applying needs --force" has "$TEST_TMP/err" "applying it needs --force"
"$IOTRIAL" apply "$oid" --db "$DB" --device "$dev" --yes >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "without --force it is refused (rc=$rc)" test $rc = 2 -a "$(queue "$dev" read_ahead_kb)" = $ra0
check "...saying what to do" has "$TEST_TMP/err" "give --force to apply it anyway"
"$IOTRIAL" apply "$oid" --db "$DB" --device "$dev" --yes --force >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "with --force it is applied (rc=$rc)" test $rc = 0 -a "$(queue "$dev" read_ahead_kb)" = $ra1
"$IOTRIAL" revert >/dev/null 2>&1
check "revert puts read_ahead_kb back" test "$(queue "$dev" read_ahead_kb)" = $ra0
"$IOTRIAL" apply "$rid" $rarm --db "$DB" --device "$dev" --dry-run >"$TEST_TMP/out" 2>"$TEST_TMP/err"
check "measured on this device from this value: no warning" test ! -s "$TEST_TMP/err"

# --- a store from before the origin column: opens, its experiments local
cp "$DB" "$TEST_TMP/old.db"
python3 - "$TEST_TMP/old.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("ALTER TABLE experiments DROP COLUMN origin")
db.execute("UPDATE experiments SET json = json_remove(json, '$.origin')")
db.commit()
PY
check "the old store has no origin column" \
	test -z "$(python3 -c "import sqlite3,sys; print(''.join(r[1] for r in sqlite3.connect(sys.argv[1]).execute('PRAGMA table_info(experiments)') if r[1] == 'origin'))" "$TEST_TMP/old.db")"
"$IOTRIAL" log --db "$TEST_TMP/old.db" --json >"$TEST_TMP/oldlog" 2>"$TEST_TMP/err"
check "it opens" test $? = 0 -a ! -s "$TEST_TMP/err"
check "its experiments count as local" \
	test "$(jq -r '[.experiments[].origin] | unique | join(",")' "$TEST_TMP/oldlog")" = local
check "show says local" grep -q "origin local" <<<"$("$IOTRIAL" show "$cid" --db "$TEST_TMP/old.db")"
check "a new import into it is imported" \
	test "$("$IOTRIAL" import --db "$TEST_TMP/old.db" --json "$TEST_TMP/ra.json" | jq -r .origin)" = imported
check "...and stays so when loaded" test "$("$IOTRIAL" log --db "$TEST_TMP/old.db" --json | jq -r '.experiments[0].origin')" = imported
check "core_pattern was never changed" cores
