#!/usr/bin/env bash
# fleet plan ... -- observe ...: the same live switchback on every host
# of an inventory (Ansible's local connection: host aliases on this
# machine, each with its own state directory and store), merged with
# each host a block. Each host observes an A/A switchback (label=a,b)
# of a service's counter, so nothing changes on this machine.
. "$(dirname "$0")/lib.sh"
need_root
command -v ansible-playbook >/dev/null ||
	skip "needs ansible-playbook (apt-get install ansible)"
export ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1
export ANSIBLE_LOCAL_TEMP="$TEST_TMP/ansible-local"
export ANSIBLE_REMOTE_TEMP="$TEST_TMP/ansible-remote"
W=$TEST_TMP/fleet
mkdir -p "$W"
CNT=$TEST_TMP/counter
echo 0 >"$CNT"
(
	n=0
	while :; do
		n=$((n + 1))
		echo "$n" >"$CNT.new" && mv "$CNT.new" "$CNT"
		sleep 0.01
	done
) &
SVC=$!
trap 'kill $SVC 2>/dev/null; wait $SVC 2>/dev/null; test_cleanup' EXIT

{
	echo "all:"
	echo "  vars:"
	echo "    ansible_connection: local"
	echo "    ansible_python_interpreter: /usr/bin/python3"
	echo "    iotrial_bin: $IOTRIAL"
	echo "    iotrial_tmp: $W"
	echo "  hosts:"
	for h in h1 h2 h3 h4; do
		echo "    $h:"
		echo "      iotrial_target: $W"
		echo "      iotrial_environment:"
		echo "        IOTRIAL_STATE_DIR: $W/$h/state"
		echo "        XDG_DATA_HOME: $W/$h/data"
	done
} >"$W/inv.yml"

OBS=(observe --vary label=a,b --window 0.3s --settle 0 --windows 6
	--metric-cmd "cat $CNT" --counter)
"$IOTRIAL" fleet plan "$W/inv.yml" -o "$W/plan.yml" --forks 4 --run \
	--no-store --json="$W/fleet.json" -- "${OBS[@]}" \
	>"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
check "a fleet of observe runs and merges" test $rc = 0
[ $rc = 0 ] || tail -20 "$TEST_TMP/err" | sed 's/^/#   /'
check "the playbook runs observe on each host" \
	grep -q '"observe"' "$W/plan.yml"
check "one merged experiment with a block per host" \
	test "$(json "$W/fleet.json" "len({r['block'] for r in o['runs']})")" = 4
check "each host's own verdict is kept" \
	test "$(json "$W/fleet.json" "len([h for h in o['fleet']['hosts'] if h['status'] == 'ok' and h['verdicts']])")" = 4
