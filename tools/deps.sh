#!/usr/bin/env bash
# The Debian packages in deps.txt that are missing: installed (as root,
# with --install) or named with the apt-get line that installs them.
#
#   tools/deps.sh [--build-only | --fleet] [--install] [--for WHAT]
#
#   --build-only  only the first block of deps.txt (what building needs)
#   --fleet       also the last block (make check-fleet's SSH hosts),
#                 which make check leaves out
#   --install     when root, install what is missing with apt-get
#   --for WHAT    the command that needs them ("make check"), for messages
#
# Exit 0 when everything is present afterwards, 1 when something is
# missing and was not installed: the message says why and gives the
# exact apt-get line. On a system without dpkg nothing can be checked: a
# warning names the packages and the exit is 0. When another apt-get,
# dpkg or unattended upgrade holds apt's or dpkg's lock, it says which
# process and waits for it, up to DEPS_LOCK_WAIT seconds (900).
set -u
here=$(cd "$(dirname "$0")" && pwd)
only_build=0 fleet=0 install=0 what="this"
while [ $# -gt 0 ]; do
	case $1 in
	--build-only) only_build=1 ;;
	--fleet) fleet=1 ;;
	--install) install=1 ;;
	--for)
		what="'$2'"
		shift
		;;
	*)
		echo "usage: tools/deps.sh [--build-only | --fleet] [--install] [--for WHAT]" >&2
		exit 2
		;;
	esac
	shift
done
pkgs=()
while IFS= read -r line; do
	case $line in
	"# tests"*) [ "$only_build" = 1 ] && break; continue ;;
	"# fleet over SSH"*) [ "$fleet" = 1 ] || break; continue ;;
	"#"* | "") continue ;;
	esac
	pkgs+=("$line")
done <"$here/deps.txt"
if ! command -v dpkg-query >/dev/null; then
	echo "warning: not a Debian system (no dpkg-query): cannot check that" \
		"these packages, or their equivalents, are installed: ${pkgs[*]}" >&2
	exit 0
fi
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
[ "${#missing[@]}" = 0 ] && exit 0
line="apt-get update && apt-get install -y ${missing[*]}"

# The locks apt and dpkg take; another apt-get, dpkg or unattended
# upgrade holding one makes apt-get fail at once.
apt_locks=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock
	/var/lib/apt/lists/lock /var/cache/apt/archives/lock)
lock_wait=${DEPS_LOCK_WAIT:-900} # seconds, in all

# lock_holder: "LOCKFILE PID" of the first apt or dpkg lock a process
# holds (from /proc/locks, by device and inode); nothing when all are
# free or /proc is not there to say.
lock_holder() {
	local f dev ino key pid
	[ -r /proc/locks ] || return 0
	for f in "${apt_locks[@]}"; do
		read -r dev ino < <(stat -c '%d %i' "$f" 2>/dev/null) || continue
		# /proc/locks: MAJOR:MINOR:INODE, the first two in hex
		key=$(printf '%02x:%02x:%s' \
			$(((dev >> 8 & 0xfff) | (dev >> 32 & ~0xfff))) \
			$(((dev & 0xff) | (dev >> 12 & ~0xff))) "$ino")
		# a waiter's line has "->" after the number: not a holder
		pid=$(awk -v k="$key" '$2 != "->" && $6 == k { print $5; exit }' \
			/proc/locks)
		[ -n "$pid" ] && echo "$f $pid" && return 0
	done
	return 0
}

# wait_for_locks: until no process holds an apt or dpkg lock, saying
# which process it waits for (again when another takes over); fails
# once lock_wait seconds have gone by in all.
wait_for_locks() {
	local held said="" f pid
	while held=$(lock_holder) && [ -n "$held" ]; do
		read -r f pid <<<"$held"
		if [ "$held" != "$said" ]; then
			# its command line, without control bytes, shortened
			echo "waiting for process $pid ($(tr '\0' ' ' \
				<"/proc/$pid/cmdline" 2>/dev/null |
				tr -d '\001-\037\177' | cut -c1-60)) to" \
				"release '$f' (another apt or dpkg; up to" \
				"$((lock_wait - SECONDS)) s more)"
			said=$held
		fi
		if [ "$SECONDS" -ge "$lock_wait" ]; then
			echo "error: '$f' is still held by process $pid after" \
				"${lock_wait} s; when it is done, run: $line" >&2
			return 1
		fi
		sleep 1
	done
}

# apt_get ARGS: apt-get once the locks are free; apt-get itself waits for
# dpkg's lock, should another take it in between
apt_get() {
	wait_for_locks || exit 1
	apt-get -o "DPkg::Lock::Timeout=$((lock_wait - SECONDS > 0 ?
		lock_wait - SECONDS : 0))" "$@"
}

if [ "$install" = 1 ] && [ "$(id -u)" = 0 ]; then
	echo "installing what $what needs: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt_get update -qq && apt_get install -y -qq "${missing[@]}" && exit 0
	echo "error: apt-get failed; run by hand: $line" >&2
	exit 1
fi
echo "error: $what needs Debian packages that are not installed:" \
	"${missing[*]}" >&2
echo "install them as root with:" >&2
echo "    $line" >&2
if [ "$install" = 1 ]; then
	echo "(or run $what as root: it installs them itself)" >&2
fi
exit 1
