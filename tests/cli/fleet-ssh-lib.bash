# Hosts for the SSH fleet test (fleet_ssh.sh): each a network namespace
# of the test's own, joined to this machine by a veth pair (10.213.N.1
# here, 10.213.N.2 there: no traffic leaves this machine or goes
# anywhere but the test's own namespaces), and an sshd (Debian's
# openssh-server) chrooted into a root file system of its own:
#
#   tmpfs /                the host's own root, empty
#   /usr                   this machine's, read-only (bind)
#   /bin /sbin /lib /lib64 links into /usr, as on Debian 12
#   /etc                   this machine's, read-only (bind): users, ssl
#   /proc /sys /dev        this machine's (bind): the knobs are real
#   /root /tmp /run /var   tmpfs of its own: its home, its journal
#                          (/run/iotrial), its store, Ansible's files
#   /itest                 its sshd configuration and keys (read-only)
#   /mnt/target            ext4 on a loop device of its own
#
# All of it is made inside a private mount namespace (unshare -m) that
# sshd runs in, so the mounts go when its processes do: nothing is
# mounted on this machine. Not a test itself: run-tests.sh only runs
# *.sh. Source after lib.sh; fleet_ssh_cleanup runs on every exit.

FSH_NETNS=()   # namespaces made
FSH_SSHD=()    # sshd pids
FSH_VETH=()    # veth ends on this side
FSH_TAG=$(($$ % 100000))

# fleet_ssh_cleanup: stop every process in our namespaces, remove them
# and their veth pairs (a namespace's end goes with it).
fleet_ssh_cleanup() {
	local ns p v
	for p in "${FSH_SSHD[@]}"; do
		kill -TERM "$p" 2>/dev/null
	done
	for ns in "${FSH_NETNS[@]}"; do
		for p in $(ip netns pids "$ns" 2>/dev/null); do
			kill -KILL "$p" 2>/dev/null
		done
	done
	for p in "${FSH_SSHD[@]}"; do
		wait "$p" 2>/dev/null
	done
	for ns in "${FSH_NETNS[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break
			sleep 0.1
		done
		ip netns del "$ns" 2>/dev/null
	done
	for v in "${FSH_VETH[@]}"; do
		ip link del "$v" 2>/dev/null
	done
	test_cleanup
}
trap fleet_ssh_cleanup EXIT

# fleet_ssh_keys DIR: a client key and a host key in DIR.
fleet_ssh_keys() {
	ssh-keygen -q -t ed25519 -N '' -f "$1/client" >/dev/null &&
		ssh-keygen -q -t ed25519 -N '' -f "$1/host" >/dev/null
}

# fleet_ssh_host N DIR LOOPDEV: host N (10.213.N.2) with its root
# file system made under DIR, its target on LOOPDEV (ext4 already).
# Sets FSH_NS (its namespace) and FSH_PID (its sshd).
fleet_ssh_host() {
	local n=$1 dir=$2 dev=$3 keys=$4
	local ns=iotrial-fl$FSH_TAG-$n here=itf$n-$FSH_TAG there=itp$n-$FSH_TAG
	FSH_NS=$ns
	mkdir -p "$dir/root" "$dir/itest"
	cp "$keys/host" "$dir/itest/host_key"
	cp "$keys/client.pub" "$dir/itest/authorized_keys"
	chmod 600 "$dir/itest/host_key"
	cat >"$dir/itest/sshd_config" <<CFG
ListenAddress 10.213.$n.2
Port 22
HostKey /itest/host_key
AuthorizedKeysFile /itest/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PidFile none
Subsystem sftp internal-sftp
CFG
	ip netns add "$ns" || return 1
	FSH_NETNS+=("$ns")
	ip link add "$here" type veth peer name "$there" || return 1
	FSH_VETH+=("$here")
	ip link set "$there" netns "$ns" || return 1
	ip addr add "10.213.$n.1/30" dev "$here" || return 1
	ip link set "$here" up || return 1
	# nothing may go out by the default route: the address must be ours
	ip route get "10.213.$n.2" | grep -q " dev $here " || return 1
	ip -n "$ns" addr add "10.213.$n.2/30" dev "$there" || return 1
	ip -n "$ns" link set "$there" up || return 1
	ip -n "$ns" link set lo up || return 1
	# the root file system, inside the mount namespace sshd runs in
	ip netns exec "$ns" unshare -m --propagation private sh -c '
		set -e
		r=$1 dev=$2 it=$3
		mount -t tmpfs -o mode=755 fsh-root "$r"
		mkdir -p "$r/usr" "$r/etc" "$r/proc" "$r/sys" "$r/dev" \
			"$r/root" "$r/tmp" "$r/run" "$r/var" "$r/itest" \
			"$r/mnt/target"
		for d in bin sbin lib lib64; do
			[ -L "/$d" ] && ln -s "usr/$d" "$r/$d"
		done
		mount --bind /usr "$r/usr"; mount -o remount,bind,ro "$r/usr"
		mount --bind /etc "$r/etc"; mount -o remount,bind,ro "$r/etc"
		mount --bind "$it" "$r/itest"; mount -o remount,bind,ro "$r/itest"
		mount --rbind /proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		for d in root tmp run var; do
			mount -t tmpfs -o mode=755 "fsh-$d" "$r/$d"
		done
		chmod 1777 "$r/tmp"
		mkdir -p "$r/run/sshd" "$r/var/tmp"
		chmod 1777 "$r/var/tmp"
		mount "$dev" "$r/mnt/target"
		exec chroot "$r" /usr/sbin/sshd -D -e -f /itest/sshd_config
	' sh "$dir/root" "$dev" "$dir/itest" >"$dir/sshd.log" 2>&1 &
	FSH_PID=$!
	FSH_SSHD+=("$FSH_PID")
	# up when its port answers
	for _ in $(seq 1 100); do
		ssh -i "$keys/client" -o BatchMode=yes -o StrictHostKeyChecking=no \
			-o UserKnownHostsFile=/dev/null -o ConnectTimeout=2 \
			-o LogLevel=ERROR "root@10.213.$n.2" true 2>/dev/null && return 0
		kill -0 "$FSH_PID" 2>/dev/null || break
		sleep 0.1
	done
	sed 's/^/# sshd: /' "$dir/sshd.log"
	return 1
}

# fleet_ssh_sessions PID: the sshd processes serving connections now
# (children of the listener PID).
fleet_ssh_sessions() {
	pgrep -P "$1"
}
