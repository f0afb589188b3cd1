#!/usr/bin/env bash
# Strings of an imported (or hand-edited) experiment never run in what
# iotrial generates: a Jinja2 lookup in an arm label is refused for
# --format ansible (before, ansible-playbook --check ran it on the
# controller), '${' for tuned, a raw knob value that is not a setting's
# shape at parse; a line break put into the store by hand does not
# leave a shell export's comment, and show prints no escape sequence;
# a CSV cell that a spreadsheet would run as a formula is kept as text.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool ansible-playbook ansible
need_tool sqlite3 sqlite3
DB=$TEST_TMP/results.db
mkloop 64M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
pwned=$TEST_TMP/pwned
gen_exp "$TEST_TMP/e.json" "$LOOP" "$dev" 1 read_ahead_kb=128,4096
# the winning arm's label carries the lookup
python3 - "$TEST_TMP/e.json" "$pwned" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["arms"][1]["label"] = 'fast {{ lookup("pipe","touch %s") }}' % sys.argv[2]
json.dump(e, open(sys.argv[1], "w"))
PY
id=$(imp_exp "$TEST_TMP/e.json")
check "the experiment is imported" test -n "$id"
"$IOTRIAL" export "$id" --db "$DB" --format ansible --device "$LOOP" \
	>"$TEST_TMP/p.yml" 2>"$TEST_TMP/err"
rc=$?
check "export --format ansible refuses the label (rc=$rc)" test $rc != 0
check "the error names the label and Jinja2" \
	grep -q "the arm label 'fast {{ lookup.*Jinja2" "$TEST_TMP/err"
export HOME=$TEST_TMP ANSIBLE_LOCAL_TEMP=$TEST_TMP/ansible \
	ANSIBLE_REMOTE_TEMP=$TEST_TMP/ansible-remote ANSIBLE_NOCOLOR=1
# whatever was written, ansible --check must not run the lookup
if [ -s "$TEST_TMP/p.yml" ]; then
	ansible-playbook --check -i localhost, -c local "$TEST_TMP/p.yml" \
		>"$TEST_TMP/check.out" 2>&1
fi
check "the lookup never ran" test ! -e "$pwned"
"$IOTRIAL" export "$id" --db "$DB" --format udev --device "$LOOP" \
	>"$TEST_TMP/r.rules" 2>>"$TEST_TMP/err"
check "a format that templates nothing keeps the label in a comment" \
	grep -q "^# iotrial experiment .*arm 'fast {{ lookup" "$TEST_TMP/r.rules"
"$IOTRIAL" export "$id" --db "$DB" --format tuned --device "$LOOP" \
	>"$TEST_TMP/t.conf" 2>>"$TEST_TMP/err"
check "tuned takes '{{' (it expands only \${)" test -s "$TEST_TMP/t.conf"

# tuned: a label with ${f:exec:...}
python3 - "$TEST_TMP/e.json" "$pwned" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["arms"][1]["label"] = "fast ${f:exec:/usr/bin/touch:%s}" % sys.argv[2]
e["seed"] = "2"
json.dump(e, open(sys.argv[1], "w"))
PY
id2=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" export "$id2" --db "$DB" --format tuned --device "$LOOP" \
	>"$TEST_TMP/t2.conf" 2>"$TEST_TMP/err"
rc=$?
check "export --format tuned refuses '\${' (rc=$rc)" test $rc != 0 -a ! -s "$TEST_TMP/t2.conf"
check "the error says tuned would expand it" grep -q "tuned would expand" "$TEST_TMP/err"
# a raw knob value that is no setting's shape is refused where it is read
"$IOTRIAL" export --set 'sysctl:vm.swappiness=${f:exec:/bin/true}' \
	--format tuned >"$TEST_TMP/t3.conf" 2>"$TEST_TMP/err"
rc=$?
check "a raw value with \${ is refused (rc=$rc)" test $rc = 2
check "the error says what a raw value may be" \
	grep -q "numbers separated by blanks" "$TEST_TMP/err"
"$IOTRIAL" export --set 'sysctl:kernel.core_pattern=|/tmp/evil %p' \
	--format shell >"$TEST_TMP/s0.sh" 2>"$TEST_TMP/err"
rc=$?
check "a raw value with a pipe is refused (rc=$rc)" test $rc = 2
"$IOTRIAL" export --set 'sysctl:net.ipv4.tcp_rmem=4096 87380 6291456' \
	--set "sysfs:/sys/block/$dev/queue/scheduler=none" \
	--format shell >"$TEST_TMP/s1.sh" 2>"$TEST_TMP/err"
rc=$?
check "numbers and a word are raw values (rc=$rc)" test $rc = 0
[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/err"

# a store edited by hand: a line break and an escape in the label
sqlite3 "$DB" "UPDATE experiments SET json = replace(json,
	'fast {{ lookup', 'x' || char(10) || 'touch $pwned' || char(10) ||
	'#' || char(27) || ']0;owned' || char(7)) WHERE id = '$id'"
"$IOTRIAL" show "$id" --db "$DB" >"$TEST_TMP/show" 2>&1
check "show runs" test -s "$TEST_TMP/show"
check "show prints no escape or bell" \
	python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(b"\x1b" in d or b"\x07" in d)' "$TEST_TMP/show"
"$IOTRIAL" log --db "$DB" >"$TEST_TMP/log" 2>&1
check "log prints no escape or bell" \
	python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); sys.exit(b"\x1b" in d or b"\x07" in d)' "$TEST_TMP/log"
"$IOTRIAL" export "$id" --db "$DB" --arm 2 --format shell --device "$LOOP" \
	>"$TEST_TMP/s.sh" 2>"$TEST_TMP/err"
check "the shell export is written" test -s "$TEST_TMP/s.sh"
check "the label stays in its comment, made printable" \
	grep -qF "arm 'x?touch $pwned?#?]0;owned?(" "$TEST_TMP/s.sh"
check "no line of it runs touch" test -z "$(grep -n '^touch' "$TEST_TMP/s.sh")"
check "sh -n takes it" sh -n "$TEST_TMP/s.sh"

# CSV: a label a spreadsheet would run
python3 - "$TEST_TMP/e.json" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))
e["arms"][1]["label"] = '=HYPERLINK("http://example.com/","x")'
e["seed"] = "3"
json.dump(e, open(sys.argv[1], "w"))
PY
id3=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" report "$id3" --db "$DB" --format csv >"$TEST_TMP/r.csv" 2>"$TEST_TMP/err"
check "report --format csv runs" test -s "$TEST_TMP/r.csv"
python3 - "$TEST_TMP/r.csv" >"$TEST_TMP/csv.out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head = rows[0]
labels = {r[head.index("label")] for r in rows[1:]}
bad = [c for r in rows[1:] for c in r if c[:1] in ("=", "+", "@", "\t", "\r")
       or (c[:1] == "-" and not c.replace(".", "", 1).lstrip("-").isdigit())]
print("labels", sorted(labels))
print("bad", bad)
PY
check "the label is text: a ' before the =" grep -qF "'=HYPERLINK(" "$TEST_TMP/csv.out"
check "no cell starts a formula" grep -qx "bad \[\]" "$TEST_TMP/csv.out"
