#!/usr/bin/env bash
# A live load to observe, the same every time: an ext4 file system on a
# loop device over a sparse image (under DIR, /var/tmp by default: the
# root disk), and on it two programs that never stop until told to:
#
#   sqlite3   transactions of 200 inserts each into a table, one after
#             the other (a new sqlite3 process each, as a cron job or a
#             CGI would run it), the table kept at its newest 100,000
#             rows (about 40 MB); after each, the line "txn" is appended
#             to LOG, which observe counts (--metric-file LOG
#             --metric-regex txn): the service's transactions a second;
#   tar       an archive of a copy of /usr/include on the same file
#             system, written, synced and removed, over and over.
#
# usage: bench/live-load.sh start [--dir DIR] [--size SIZE]
#        bench/live-load.sh stop
#        bench/live-load.sh env     prints DEV=, LOG= for the shell
#
# Needs root (loop device, mount). start records what it made in
# $LIVE_LOAD_STATE (default /run/iotrial-live-load); stop ends the load
# (the process groups it started, by their ids) and removes the mount,
# the loop device and the image.
set -u
state=${LIVE_LOAD_STATE:-/run/iotrial-live-load}

usage() {
	sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

start() {
	local dir=/var/tmp size=2G
	while [ $# -gt 0 ]; do
		case $1 in
		--dir) dir=$2; shift ;;
		--size) size=$2; shift ;;
		*) usage ;;
		esac
		shift
	done
	[ "$(id -u)" = 0 ] || { echo "live-load: needs root" >&2; exit 77; }
	if [ -s "$state/work" ]; then
		echo "live-load: already running (bench/live-load.sh stop first)" >&2
		return 1
	fi
	mkdir -p "$state" || return 1
	local work dev
	work=$(mktemp -d "$dir/iotrial-live-load.XXXXXX") || return 1
	echo "$work" >"$state/work"
	truncate -s "$size" "$work/img" || return 1
	dev=$(losetup --find --show "$work/img") || return 1
	echo "$dev" >"$state/dev"
	mkfs.ext4 -q -F "$dev" || return 1
	mkdir "$work/mnt" && mount "$dev" "$work/mnt" || return 1
	mkdir "$work/mnt/src" && cp -a /usr/include "$work/mnt/src/" || return 1
	: >"$work/txn.log"
	sqlite3 "$work/mnt/db" "CREATE TABLE t (k INTEGER, v TEXT);" || return 1
	: >"$state/pids"
	setsid bash -c "
		sql='BEGIN;'
		for i in \$(seq 200); do sql=\"\$sql INSERT INTO t VALUES (\$i, hex(randomblob(200)));\"; done
		sql=\"\$sql DELETE FROM t WHERE rowid <= (SELECT max(rowid) FROM t) - 100000; COMMIT;\"
		while :; do
			sqlite3 '$work/mnt/db' \"\$sql\" && echo txn >>'$work/txn.log'
		done" </dev/null >/dev/null 2>&1 &
	echo "$! sqlite3" >>"$state/pids"
	setsid bash -c "
		while :; do
			tar cf '$work/mnt/a.tar' -C '$work/mnt/src' . && sync -f '$work/mnt/a.tar'
			rm -f '$work/mnt/a.tar'
		done" </dev/null >/dev/null 2>&1 &
	echo "$! tar" >>"$state/pids"
	echo "live-load: sqlite3 and tar on $dev (log $work/txn.log)"
}

stop() {
	local pid name work dev
	if [ -f "$state/pids" ]; then
		while read -r pid name; do
			kill -TERM -- "-$pid" 2>/dev/null
		done <"$state/pids"
		sleep 1
		while read -r pid name; do
			kill -KILL -- "-$pid" 2>/dev/null
		done <"$state/pids"
	fi
	work=$(cat "$state/work" 2>/dev/null)
	dev=$(cat "$state/dev" 2>/dev/null)
	if [ -n "$work" ]; then
		umount "$work/mnt" 2>/dev/null || { sleep 1; umount "$work/mnt"; }
	fi
	[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	case $work in
	*/iotrial-live-load.*) rm -rf -- "$work" ;;
	esac
	rm -f "$state/pids" "$state/work" "$state/dev"
	rmdir "$state" 2>/dev/null
	return 0
}

case ${1:-} in
start) shift; start "$@" ;;
stop) stop ;;
env)
	echo "DEV=$(cat "$state/dev" 2>/dev/null)"
	echo "LOG=$(cat "$state/work" 2>/dev/null)/txn.log"
	;;
*) usage ;;
esac
