#!/usr/bin/env bash
# iotrial fleet over real SSH: four hosts, each in a network namespace
# and root file system of its own (fleet-ssh-lib.bash), sshd from
# Debian's openssh-server, reached by Ansible's ssh connection. The
# iotrial under test is copied there with --binary. h1 and h2 run the
# compare to the end; h3's connection is dropped mid-compare (its sshd
# session killed: the remote iotrial gets SIGHUP with its pipes gone)
# and comes back, so its revert runs; h4's connection is dropped and
# stays away (its address removed), so its revert cannot run; "refused"
# is a port where nothing listens. Then: h1 and h2 merged, h3 failed
# with the lost connection, h4 failed and named as a host that may
# still hold a change, "refused" failed with 'Connection refused'; on
# every host each knob is back and no journal record is left (the
# remote iotrial restored its own on SIGHUP). Slow (Ansible over SSH):
# run by `make check-fleet`, skipped by make check unless
# IOTRIAL_FLEET_SSH=1.
. "$(dirname "$0")/lib.sh"
need_root
[ "${IOTRIAL_FLEET_SSH:-0}" = 1 ] || skip "slow: run it with 'make check-fleet' (or IOTRIAL_FLEET_SSH=1)"
command -v ansible-playbook >/dev/null || skip "needs ansible-playbook (apt-get install ansible)"
[ -x /usr/sbin/sshd ] || skip "needs sshd (apt-get install openssh-server)"
for c in ip unshare ssh ssh-keygen chroot mkfs.ext4 pgrep; do
	command -v "$c" >/dev/null || skip "needs $c"
done
. "$(dirname "$0")/fleet-ssh-lib.bash"
ip netns add "iotrial-probe-$FSH_TAG" 2>/dev/null || skip "cannot make a network namespace"
ip netns del "iotrial-probe-$FSH_TAG"
for n in 1 2 3 4; do
	ip route get "10.213.$n.2" | grep -q " via " ||
		skip "10.213.$n.0/30 is in use on this machine"
done

W=$TEST_TMP/fleet
K=$TEST_TMP/keys
mkdir -p "$W" "$K"
fleet_ssh_keys "$K" || skip "ssh-keygen failed"
export ANSIBLE_HOST_KEY_CHECKING=False ANSIBLE_NOCOLOR=1 ANSIBLE_TIMEOUT=5
export ANSIBLE_LOCAL_TEMP="$W/ansible-local"
export ANSIBLE_SSH_ARGS="-o ControlMaster=no -o ControlPath=none -o UserKnownHostsFile=/dev/null -o StrictHostKeyChecking=no -o LogLevel=ERROR -o ServerAliveInterval=2 -o ServerAliveCountMax=3"
SSH=(ssh -i "$K/client" -o BatchMode=yes -o UserKnownHostsFile=/dev/null
	-o StrictHostKeyChecking=no -o LogLevel=ERROR -o ConnectTimeout=5)

declare -A DEV ORIG PID NS
for n in 1 2 3 4; do
	mkloop 64M || skip "cannot make a loop device"
	mkfs.ext4 -q -F "$LOOP" || skip "cannot make a file system"
	DEV[$n]=$(basename "$LOOP")
	ORIG[$n]=$(cat "/sys/block/${DEV[$n]}/queue/read_ahead_kb")
	fleet_ssh_host "$n" "$TEST_TMP/h$n" "$LOOP" "$K" ||
		{ fail "host h$n starts (its namespace, root and sshd)"; exit 1; }
	PID[$n]=$FSH_PID
	NS[$n]=$FSH_NS
done
ok "four hosts in namespaces of their own answer over SSH"
check "a host's root is its own: no iotrial there, its own /tmp" \
	test "$("${SSH[@]}" root@10.213.1.2 'command -v iotrial; ls -A /tmp | wc -l')" = 0

{
	echo "all:"
	echo "  vars:"
	echo "    ansible_user: root"
	echo "    ansible_ssh_private_key_file: $K/client"
	echo "    ansible_python_interpreter: /usr/bin/python3"
	echo "    iotrial_target: /mnt/target"
	echo "  hosts:"
	for n in 1 2 3 4; do
		echo "    h$n:"
		echo "      ansible_host: 10.213.$n.2"
	done
	echo "    refused:"
	echo "      ansible_host: 10.213.1.2"
	echo "      ansible_port: 1"
} >"$W/inv.yml"

# the drops: once h3's and h4's compare changed their knob, cut their
# connections (h4's address goes too, so nothing reaches it again)
(
	done3= done4=
	for _ in $(seq 1 1200); do
		if [ -z "$done3" ] && [ "$(cat "/sys/block/${DEV[3]}/queue/read_ahead_kb")" != "${ORIG[3]}" ]; then
			kill -KILL $(fleet_ssh_sessions "${PID[3]}") 2>/dev/null
			done3=1
			echo h3 >>"$W/dropped"
		fi
		if [ -z "$done4" ] && [ "$(cat "/sys/block/${DEV[4]}/queue/read_ahead_kb")" != "${ORIG[4]}" ]; then
			kill -KILL $(fleet_ssh_sessions "${PID[4]}") 2>/dev/null
			sleep 0.2 # the hang-up reaches the controller first
			ip -n "${NS[4]}" addr flush dev "itp4-$FSH_TAG"
			done4=1
			echo h4 >>"$W/dropped"
		fi
		[ -n "$done3" ] && [ -n "$done4" ] && exit 0
		sleep 0.05
	done
) &
watcher=$!

CMP=(compare seqread --size 8M --vary read_ahead_kb=3072,6144 --time 0.2s --runs 6 --no-drop-caches)
"$IOTRIAL" fleet plan "$W/inv.yml" -o "$W/plan.yml" --forks 5 --binary "$IOTRIAL" --run \
	--json="$W/fleet.json" -- "${CMP[@]}" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
rc=$?
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
check "the connections of h3 and h4 were dropped mid-compare" \
	test "$(sort "$W/dropped" 2>/dev/null | tr '\n' ' ')" = "h3 h4 "
check "the fleet run exits 4 (partial)" test "$rc" = 4
[ "$rc" = 4 ] || tail -40 "$TEST_TMP/err" | sed 's/^/#   /'

# host NAME KEY: that member of host NAME's entry in the fleet object
host() {
	json "$W/fleet.json" "[h.get('$2', '') for h in o['fleet']['hosts'] if h['host'] == '$1'][0]"
}
check "h1 and h2 are merged, one block each" \
	test "$(json "$W/fleet.json" "sorted({(r['block'], r['host']) for r in o['runs']})")" = \
	"[(0, 'h1'), (1, 'h2')]"
check "their reverts ran" test "$(host h1 revert) $(host h2 revert)" = "ok ok"
check "h3 failed at the compare with the lost connection" \
	grep -q "^compare: the connection to the host was lost during the compare: .*closed" <<<"$(host h3 task): $(host h3 error)"
check "h3's revert ran once it was back" test "$(host h3 revert)" = ok
check "h4's revert did not run: it is failed" \
	test "$(host h4 status) $(host h4 revert)" = "failed not run"
check "h4 keeps its compare's error: the connection's" \
	grep -q "^compare: .*\(connection to the host was lost\|Failed to connect\)" <<<"$(host h4 task): $(host h4 error)"
check "and says why its revert did not run" \
	grep -q "before iotrial revert could run there: .*Failed to connect" <<<"$(host h4 revert_error)"
[ -n "${FLEET_SSH_KEEP:-}" ] && cp "$W/fleet.json" "$FLEET_SSH_KEEP"
check "h4 is named as a host that may still hold a change" \
	test "$(json "$W/fleet.json" "o['fleet']['revert_not_done']")" = "['h4']"
check "and the fleet's output says so" \
	grep -q "^ *(!) iotrial revert did not run there: the host may still hold a changed setting" \
	<("$IOTRIAL" show "$(json "$W/fleet.json" "o['id']")")
check "the unreachable host's error is the connection's own" \
	grep -q "Connection refused" <<<"$(host refused error)"
check "the merged environment is the fleet's, merged here" \
	test "$(json "$W/fleet.json" "o['env']['hostname']")" = \
	"fleet of 2 hosts: h1, h2 (merged on $(uname -n))"
check "show says so, not one host's name" \
	grep -q ", host fleet of 2 hosts: h1, h2 (merged on" <("$IOTRIAL" show "$(json "$W/fleet.json" "o['id']")")

# h4 back: what did the SIGHUP leave there?
ip -n "${NS[4]}" addr add 10.213.4.2/30 dev "itp4-$FSH_TAG"
for n in 1 2 3 4; do
	check "h$n: read_ahead_kb is back" \
		test "$(cat "/sys/block/${DEV[$n]}/queue/read_ahead_kb")" = "${ORIG[$n]}"
	check "h$n: no journal record left" \
		"${SSH[@]}" "root@10.213.$n.2" 'test ! -s /var/lib/iotrial/journal'
done
check "h4: the iotrial there, hung up, removed its own work directory" \
	"${SSH[@]}" root@10.213.4.2 '! ls -d /mnt/target/iotrial.* 2>/dev/null'
check "the scratch directories of the hosts whose play ended are gone" \
	test -z "$(for n in 1 2 3; do "${SSH[@]}" "root@10.213.$n.2" 'ls -d /tmp/iotrial-fleet.* 2>/dev/null'; done)"
exit 0
