#!/usr/bin/env bash
# iotrial fleet end to end through Ansible's local connection: an
# inventory of host aliases on this machine, each with its own state
# directory, store and scratch loop device (host variables). `fleet plan
# ... --run` runs the playbook and merges: one fleet experiment with a
# block per good host, the failed hosts (another iotrial version, no
# iotrial, unreachable) listed with their reason, exit status 4
# (partial), and every host's read_ahead_kb back where it was. Every
# playbook passes ansible-playbook --syntax-check; a broken or empty
# inventory is a usage error.
. "$(dirname "$0")/lib.sh"
need_root
command -v ansible-playbook >/dev/null || skip "needs ansible-playbook (apt-get install ansible)"

export ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1
export ANSIBLE_LOCAL_TEMP="$TEST_TMP/ansible-local" ANSIBLE_REMOTE_TEMP="$TEST_TMP/ansible-remote"
W=$TEST_TMP/fleet
mkdir -p "$W"

# a fake iotrial of another version
printf '#!/bin/sh\necho "iotrial 0.0.9 (JSON schema iotrial/1)"\n' >"$W/old-iotrial"
chmod +x "$W/old-iotrial"
# an iotrial whose compare is killed (kill -9) and whose revert fails
cat >"$W/killed-iotrial" <<SH
#!/bin/sh
case "\$1" in
compare) kill -9 \$\$ ;;
revert) echo "revert broke" >&2; exit 1 ;;
esac
exec "$IOTRIAL" "\$@"
SH
chmod +x "$W/killed-iotrial"

{
	echo "all:"
	echo "  vars:"
	echo "    ansible_connection: local"
	echo "    ansible_python_interpreter: /usr/bin/python3"
	echo "    iotrial_bin: $IOTRIAL"
	echo "    iotrial_tmp: $W"
	echo "  hosts:"
} >"$W/inv.yml"
declare -A RA
for h in h1 h2 h3; do
	mkloop 64M && mkmount "$LOOP" || { fail "loop device for $h"; exit 1; }
	dev=$(basename "$LOOP")
	RA[$h]=$(cat /sys/block/$dev/queue/read_ahead_kb)
	eval "DEV_$h=$dev"
	cat >>"$W/inv.yml" <<INV
    $h:
      iotrial_target: $MNT
      iotrial_environment:
        IOTRIAL_STATE_DIR: $W/$h/state
        XDG_DATA_HOME: $W/$h/data
INV
done
cat >>"$W/inv.yml" <<INV
    oldversion:
      iotrial_bin: $W/old-iotrial
    noiotrial:
      iotrial_bin: $W/no-such-iotrial
    badtarget:
      iotrial_target: $W/no-such-dir
      iotrial_environment:
        IOTRIAL_STATE_DIR: $W/badtarget/state
        XDG_DATA_HOME: $W/badtarget/data
    killed:
      iotrial_bin: $W/killed-iotrial
    gone:
      ansible_connection: ssh
      ansible_host: 127.0.0.1
      ansible_port: 1
INV

# syntax_ok PLAYBOOK: ansible-playbook --syntax-check accepts it
syntax_ok() {
	ansible-playbook -i "$W/inv.yml" --syntax-check "$1" >/dev/null 2>&1
}

CMP=(compare seqread --size 4M --vary read_ahead_kb=128,1024 --time 0.1s --runs 4 --no-drop-caches)

"$IOTRIAL" fleet plan "$W/inv.yml" -o "$W/plan.yml" --forks 3 -- "${CMP[@]}" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "plan writes the playbook" test $rc = 0 -a -f "$W/plan.yml"
check "plan lists the hosts" grep -q "for 8 hosts" "$TEST_TMP/err"
check "the plan passes ansible-playbook --syntax-check" syntax_ok "$W/plan.yml"
"$IOTRIAL" fleet plan "$W/inv.yml" -o "$W/plan2.yml" --limit 'h1:h2' --binary "$IOTRIAL" --become -- "${CMP[@]}" -t /srv >/dev/null 2>"$TEST_TMP/err"
check "plan --limit --binary --become: 2 hosts" grep -q "for 2 hosts" "$TEST_TMP/err"
check "that plan passes --syntax-check" syntax_ok "$W/plan2.yml"
check "a compare's -t is the default target" grep -q 'fleet_default_target: "/srv"' "$W/plan2.yml"
rm -f "$W/plan2.yml"

"$IOTRIAL" fleet plan "$W/inv.yml" -o "$W/plan.yml" --forks 3 --run \
	--json="$W/fleet.json" -- "${CMP[@]}" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "a fleet run with failed hosts exits 4 (partial)" test $rc = 4
[ $rc = 4 ] || tail -30 "$TEST_TMP/err" | sed 's/^/#   /'
check "the run's playbook passes --syntax-check" syntax_ok "$W/plan.yml"
check "one merged experiment with a block per good host" \
	test "$(json "$W/fleet.json" "sorted({(r['block'], r['host']) for r in o['runs']})")" = \
	"[(0, 'h1'), (1, 'h2'), (2, 'h3')]"
check "the merged object is an experiment" \
	test "$(json "$W/fleet.json" "(o['schema'], o['type'], o['runs_mode'], len(o['arms']), o['verdicts'][0]['label'])")" = \
	"('iotrial/1', 'experiment', 'fleet', 2, 'read_ahead_kb=1024')"
check "each host's own verdict is kept" \
	test "$(json "$W/fleet.json" "[len(h['verdicts']) for h in o['fleet']['hosts'] if h['status'] == 'ok']")" = "[1, 1, 1]"
check "the host with another version is failed with its reason" \
	grep -q "0.0.9" <(json "$W/fleet.json" "[h.get('error') for h in o['fleet']['hosts'] if h['host'] == 'oldversion']")
check "the host without iotrial is failed with its reason" \
	grep -qi "no such file" <(json "$W/fleet.json" "[h.get('error') for h in o['fleet']['hosts'] if h['host'] == 'noiotrial']")
check "the host whose compare failed is failed with the compare's error" \
	grep -q "compare: .*no-such-dir" <(json "$W/fleet.json" "[h.get('task') + ': ' + h.get('error') for h in o['fleet']['hosts'] if h['host'] == 'badtarget']")
check "the unreachable host is listed, not dropped" \
	grep -q "unreachable" <(json "$W/fleet.json" "[h.get('error') for h in o['fleet']['hosts'] if h['host'] == 'gone']")
check "the killed compare says so, its failing revert does not hide it" \
	test "$(json "$W/fleet.json" "[(h['task'], h['error'], h['revert'], h['revert_error']) for h in o['fleet']['hosts'] if h['host'] == 'killed']")" = \
	"[('compare', 'killed by signal 9', 'failed', 'iotrial revert failed: exit status 1; revert broke')]"
check "with the connection's own error" \
	grep -q "Connection refused" <(json "$W/fleet.json" "[h.get('error') for h in o['fleet']['hosts'] if h['host'] == 'gone']")
check "the revert ran where the compare started, and only there" \
	test "$(json "$W/fleet.json" "[(h['host'], h.get('revert', '-')) for h in o['fleet']['hosts']]")" = \
	"[('badtarget', 'ok'), ('gone', '-'), ('h1', 'ok'), ('h2', 'ok'), ('h3', 'ok'), ('killed', 'failed'), ('noiotrial', '-'), ('oldversion', '-')]"
check "only the host whose revert failed is named as one that may still hold a change" \
	test "$(json "$W/fleet.json" "o['fleet']['revert_not_done']")" = "['killed']"
check "fleet counts" \
	test "$(json "$W/fleet.json" "(o['fleet']['nr_hosts'], o['fleet']['nr_ok'], o['fleet']['nr_failed'])")" = "(8, 3, 5)"
check "the agreement of the hosts is said" \
	test -n "$(json "$W/fleet.json" "o['verdicts'][0]['agreement']")"
for h in h1 h2 h3; do
	eval "dev=\$DEV_$h"
	check "$h: read_ahead_kb restored" test "$(cat /sys/block/$dev/queue/read_ahead_kb)" = "${RA[$h]}"
	check "$h: its own store got its experiment" test -f "$W/$h/data/iotrial/results.db"
	check "$h: its journal holds nothing" \
		test -z "$(IOTRIAL_STATE_DIR=$W/$h/state "$IOTRIAL" revert --list 2>/dev/null | grep -i read_ahead)"
done

check "the hosts' scratch directories are gone" \
	test -z "$(find "$W" -maxdepth 1 -name 'iotrial-fleet.*')"

id=$(json "$W/fleet.json" "o['id']")
"$IOTRIAL" show "$id" >"$TEST_TMP/out" 2>&1
check "show renders the stored fleet experiment with its hosts" \
	grep -q "^fleet: 8 hosts, 3 merged, 5 failed" "$TEST_TMP/out"
check "show names the fleet and where it was merged, not one host" \
	grep -q ", host fleet of 3 hosts: h1, h2, h3 (merged on $(uname -n))" "$TEST_TMP/out"
check "show lists the failed host's reason" grep -q "^oldversion .*failed" "$TEST_TMP/out"
check "the merged experiment's origin is fleet" \
	test "$(json "$W/fleet.json" "o['origin']")" = fleet
check "show says its origin is fleet" grep -q "^stored .*, origin fleet" "$TEST_TMP/out"

# merge again from the directory: the same hosts
"$IOTRIAL" fleet merge --no-store "$W" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "merge of the playbook's directory exits 4" test $rc = 4
check "merge lists the hosts" grep -q "^h2 " "$TEST_TMP/out"
"$IOTRIAL" fleet merge --no-store --json "$W/fleet/h1.json" "$W/fleet/h3.json" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "merge of two files: both hosts, exit 0" \
	test $rc = 0 -a "$(json "$TEST_TMP/out" "[h['host'] for h in o['fleet']['hosts']]")" = "['h1', 'h3']"
# a host's file that ran other settings is refused, the difference named
mkdir -p "$W/odd"
cp "$W/fleet/h1.json" "$W/fleet/h2.json" "$W/odd/"
python3 -c '
import json, sys
o = json.load(open(sys.argv[1]))
o["arms"][0]["settings"]["read_ahead_kb"] = "|/tmp/evil %p"
json.dump(o, open(sys.argv[2], "w"))' "$W/fleet/h3.json" "$W/odd/h3.json"
printf '{"host": "h2", "revert": "not run", "error": "iotrial revert did not run on the host"}\n' >"$W/odd/h2.revert"
"$IOTRIAL" fleet merge --no-store --json "$W/odd" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "merge refuses the host whose settings differ, exit 4" \
	test $rc = 4 -a "$(json "$TEST_TMP/out" "[(h['host'], h['status']) for h in o['fleet']['hosts']]")" = \
	"[('h1', 'ok'), ('h2', 'failed'), ('h3', 'failed')]"
check "naming the arm, the knob and both values" \
	grep -qF "sets read_ahead_kb '|/tmp/evil %p' on the host" <(json "$TEST_TMP/out" "o['fleet']['hosts'][2]['error']")
check "what the fleet says was set is not the odd host's" \
	test "$(json "$TEST_TMP/out" "o['arms'][0]['settings']['read_ahead_kb']")" != "|/tmp/evil %p"
check "a host whose revert did not run is failed and named" \
	test "$(json "$TEST_TMP/out" "(o['fleet']['hosts'][1]['task'], o['fleet']['revert_not_done'])")" = \
	"('iotrial revert', ['h2'])"
expect_usage "merge of a file that is no fleet result" "no fleet result" \
	fleet merge --no-store "$W/inv.yml"

# bad input
printf 'all: [\n' >"$TEST_TMP/bad.yml"
expect_usage "an inventory that does not parse" "refuses inventory" \
	fleet plan "$TEST_TMP/bad.yml" -o "$TEST_TMP/p.yml" -- "${CMP[@]}"
printf 'all:\n  hosts: {}\n' >"$TEST_TMP/empty.yml"
expect_usage "an inventory without hosts" "names no hosts" \
	fleet plan "$TEST_TMP/empty.yml" -o "$TEST_TMP/p.yml" -- "${CMP[@]}"
expect_usage "plan without a compare" "one INVENTORY" \
	fleet plan "$W/inv.yml" -o "$TEST_TMP/p.yml"
expect_usage "an argument Ansible would expand" "would expand" \
	fleet plan "$W/inv.yml" -o "$TEST_TMP/p.yml" -- compare seqread --label '{{ x }}' --vary read_ahead_kb=1,2
rm -f "$TEST_TMP/bad.yml" "$TEST_TMP/empty.yml"
exit 0
