#!/usr/bin/env bash
# Do the README's two commands work on a fresh Debian 12 machine?
#
#   tools/fresh-machine-check.sh [DIR [REV]]
#
# Builds, once, a Debian 12 "minbase" root with git and make (debootstrap;
# cached as DIR/base, DIR defaulting to /var/tmp/iotrial-fresh). Each run
# copies that root onto a new ext4 filesystem (DIR/run.XXXXXX/disk.img, a
# sparse file on a loop device, mounted on DIR/run.XXXXXX/root: so "/"
# inside is a filesystem's root on a block device, as on a booted machine,
# not a directory of the host's), clones this repository at REV (default
# HEAD: committed work only) into its /root/iotrial, mounts what a booted
# machine has (/proc, /sys, /dev with /dev/pts and /dev/shm, tmpfs on /run
# and /tmp; FRESH_TMP=root leaves /tmp on the root filesystem, Debian 12's
# default, where Debian 13 mounts a tmpfs), copies /etc/resolv.conf so
# apt-get works, and runs as root inside it, in this order:
#
#   make demo
#   make check
#
# FRESH_ROOT=dir makes the copy a plain directory of this machine's disk
# (DIR/run.XXXXXX/root, no file system of its own), as Debian's package
# builders run a package's tests: "/" inside is then not a mount, and the
# mount table lists only what is mounted in the copy. FRESH_USER=NAME
# runs both commands as NAME (made in the copy, the clone in its home),
# after installing the test packages as root: every root test must then
# skip with its reason.
#
# It passes when both exit 0 and the second ends with "N passed, 0
# failed" (skipped tests are listed). Prints each command's time and
# result; the logs stay in DIR/run.XXXXXX/ (and the tests' own logs in
# disk.img, under /root/iotrial/build/test-logs/). The previous run's
# directory is removed at the next start.
#
# Needs root (debootstrap, chroot, mount) and network access to the Debian
# mirror (http://deb.debian.org/debian, or $DEBIAN_MIRROR), which both
# debootstrap and apt-get in the copy use. Installs debootstrap on this
# machine if it is missing. Leaves nothing mounted: every mount is undone
# on exit, also after a failure or a signal, after stopping what still
# runs inside the copy and detaching loop devices backed by files in it.
# shellcheck disable=SC2317 # the cleanup functions run from a trap
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:-/var/tmp/iotrial-fresh}
rev=${2:-HEAD}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
kind=${FRESH_ROOT:-disk}
user=${FRESH_USER:-}
case $kind in disk | dir) ;; *)
	echo "fresh-machine-check: FRESH_ROOT is 'disk' or 'dir'" >&2
	exit 1 ;;
esac

die() {
	echo "fresh-machine-check: $*" >&2
	exit 1
}
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot and mount)"
commit=$(git -C "$here" rev-parse --verify "$rev^{commit}") ||
	die "'$rev' is not a commit of '$here'"
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

# Is anything mounted at or below directory $1?
mounted_below() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1 { f = 1 }
		END { exit !f }' /proc/self/mountinfo
}

# Remove a directory tree that must have nothing mounted in it.
remove_tree() {
	[ -e "$1" ] || return 0
	mounted_below "$1" && die "'$1' still has mounts; not removing it"
	rm -rf --one-file-system "$1"
}

run=      # DIR/run.XXXXXX, once made
root=     # where the copy's filesystem is mounted
root_dev= # its loop device
ours=()   # the trees whose mounts cleanup undoes: the copy, a new base

# Mount points at or below directory $1, deepest first.
mounts_below() {
	awk -v d="$1" '$5 == d || index($5, d "/") == 1 { print $5 }' \
		/proc/self/mountinfo | sort -r
}

# The processes whose root directory is the copy.
in_copy() {
	local p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] &&
			echo "${p#/proc/}"
	done
	return 0
}

# Stop what still runs inside the copy (TERM, so iotrial undoes its own
# scratch devices and knobs; KILL after 15 s), detach loop devices backed
# by files in it, undo every mount below it (ours and those made inside)
# and below a base being built (an interrupted debootstrap's), then
# detach the copy's own loop device.
cleanup() {
	local i m l f t pids
	set +e
	if [ -n "$root" ]; then
		pids=$(in_copy)
		if [ -n "$pids" ]; then
			# shellcheck disable=SC2086 # a list of numbers
			kill -TERM $pids 2>/dev/null
			for ((i = 0; i < 75; i++)); do
				[ -z "$(in_copy)" ] && break
				sleep 0.2
			done
			# shellcheck disable=SC2046
			kill -KILL $(in_copy) 2>/dev/null
			sleep 0.2
		fi
		for l in /sys/block/loop*/loop/backing_file; do
			[ -r "$l" ] || continue
			f=$(cat "$l" 2>/dev/null)
			case $f in "$root"/*)
				l=${l#/sys/block/}
				losetup -d "/dev/${l%%/*}" ;;
			esac
		done
	fi
	for t in "${ours[@]}"; do
		for m in $(mounts_below "$t"); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		done
		if mounted_below "$t"; then
			echo "fresh-machine-check: warning: still mounted:" >&2
			mounts_below "$t" | sed 's/^/  /' >&2
		fi
	done
	if [ -n "$root_dev" ] && ! mounted_below "$root"; then
		losetup -d "$root_dev"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

# mnt TARGET MOUNT-ARGS...: mount (cleanup undoes it).
mnt() {
	local target=$1
	shift
	mkdir -p "$target"
	mount "$@" "$target"
}

# One check at a time per DIR.
exec 9>"$cache/lock"
flock -n 9 || die "another check is using '$cache'"

# 1. The cached minbase root.
if [ ! -d "$cache/base" ]; then
	command -v debootstrap >/dev/null || {
		echo "installing debootstrap"
		apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
				debootstrap >/dev/null
	}
	remove_tree "$cache/base.new"
	ours+=("$cache/base.new")
	echo "building a Debian 12 minbase root in '$cache/base' (once)"
	debootstrap --variant=minbase --include=git,make bookworm \
		"$cache/base.new" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
		die "debootstrap failed; see '$cache/debootstrap.log'"
	mv "$cache/base.new" "$cache/base"
fi

# 2. A fresh copy on a filesystem of its own, with the repository in it.
for old in "$cache"/run.*; do
	for l in $(losetup -n -O NAME -j "$old/disk.img" 2>/dev/null); do
		mounted_below "$old" || losetup -d "$l"
	done
	remove_tree "$old"
done
run=$(mktemp -d "$cache/run.XXXXXX")
root=$run/root
mkdir "$root"
ours+=("$root")
if [ "$kind" = disk ]; then
	truncate -s 40G "$run/disk.img"
	mkfs.ext4 -q -F -L iotrial-fresh "$run/disk.img"
	# direct I/O, as a disk would: else the host's page cache answers
	# reads of the image, and a test that reads through to the disk
	# cannot
	root_dev=$(losetup --find --show --direct-io=on "$run/disk.img")
	mount "$root_dev" "$root"
fi
cp -a "$cache/base/." "$root/"
chmod 755 "$root"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
home=/root
if [ -n "$user" ]; then
	chroot "$root" useradd -m "$user" ||
		die "cannot make user '$user' in the copy"
	home=/home/$user
fi
git clone -q "$here" "$root$home/iotrial"
git -C "$root$home/iotrial" checkout -q "$commit"
[ -z "$user" ] || chroot "$root" chown -R "$user:" "$home/iotrial"

# 3. Mounts as a booted machine has them. Bind mounts of the host's trees
# are made slaves so nothing done inside propagates back out.
mnt "$root/proc" -t proc proc
mnt "$root/sys" --rbind /sys
mount --make-rslave "$root/sys"
mnt "$root/dev" --rbind /dev
mount --make-rslave "$root/dev"
mountpoint -q "$root/dev/pts" || mnt "$root/dev/pts" -t devpts devpts \
	-o newinstance,ptmxmode=0666,mode=620,gid=5
mountpoint -q "$root/dev/shm" || mnt "$root/dev/shm" -t tmpfs tmpfs \
	-o mode=1777,nosuid,nodev
mnt "$root/run" -t tmpfs tmpfs -o mode=755,nosuid,nodev
if [ "${FRESH_TMP:-tmpfs}" = tmpfs ]; then
	mnt "$root/tmp" -t tmpfs tmpfs -o mode=1777,nosuid,nodev
fi

# in_root LOG CMD: run CMD as root (or FRESH_USER) in the copy's
# repository, with the environment a login there would have.
in_root() {
	local log=$1 cmd=$2 as=() who=root
	if [ -n "$user" ]; then
		as=(setpriv "--reuid=$user" "--regid=$user" --init-groups)
		who=$user
	fi
	chroot "$root" "${as[@]}" /usr/bin/env -i HOME="$home" USER="$who" \
		LOGNAME="$who" SHELL=/bin/bash TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd $home/iotrial && $cmd" >"$run/$log" 2>&1
}

# 4. The README's two commands, in order.
status=0
echo "commit $(git -C "$here" log -1 --format='%h %s' "$commit")"
echo "root   $root (${root_dev:-a directory, not a mount}; /tmp: ${FRESH_TMP:-tmpfs}; as ${user:-root})"
if [ -n "$user" ]; then
	# the packages need root; the commands then run without it
	chroot "$root" /usr/bin/env -i HOME=/root \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd $home/iotrial && tools/deps.sh --install --for 'make check'" \
		>"$run/deps.log" 2>&1 || die "installing the packages failed; see '$run/deps.log'"
fi
for cmd in "make demo" "make check"; do
	log=${cmd#make }.log
	start=$(date +%s)
	rc=0
	# in the background, so that a signal to this script is handled
	# (and the copy cleaned up) at once
	in_root "$log" "$cmd" &
	wait $! || rc=$?
	secs=$(($(date +%s) - start))
	printf '%-10s exit %d after %dm%02ds (log: %s)\n' "$cmd" "$rc" \
		$((secs / 60)) $((secs % 60)) "$run/$log"
	if [ "$rc" != 0 ]; then
		tail -n 25 "$run/$log" | sed 's/^/    /'
		status=1
		break
	fi
done
if [ "$status" = 0 ]; then
	last=$(tail -n 1 "$run/check.log")
	echo "make check said: $last"
	grep -q '^failed:\|^FAIL ' "$run/check.log" && status=1
	echo "$last" | grep -Eq '^[0-9]+ passed, 0 failed' || status=1
	grep '^SKIP ' "$run/check.log" | sed 's/^/    /' || true
fi
if [ "$status" = 0 ]; then
	echo "fresh-machine-check: PASS"
else
	echo "fresh-machine-check: FAIL"
fi
exit "$status"
