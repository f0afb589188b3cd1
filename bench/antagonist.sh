#!/usr/bin/env bash
# A noisy machine you can reproduce: a fixed, documented load to measure
# iotrial's precision and false-positive rate against the same noise,
# run after run. Noise cannot be scheduled, so it is built:
#
#   simple  one CPU burner (a shell busy loop: on a VM it takes a CPU from
#           the workload's threads as steal would) and one writer on the
#           disk under DIR: 128 MiB of buffered writes, fdatasync'd, the
#           file rewritten in a loop (dd conv=fdatasync).
#   full    simple, plus a second CPU burner, a second writer that pauses
#           0-2 s at random between its passes (bursts, not a steady
#           stream), and a reader of the page cache: cat of a 256 MiB file
#           in a loop (cached, it costs CPU and memory bandwidth; after
#           iotrial drops the caches before a run, it reads the file from
#           the disk again, as a neighbour would).
#
# usage: bench/antagonist.sh start [simple|full] [--dir DIR]
#        bench/antagonist.sh stop
#        bench/antagonist.sh status
#        bench/antagonist.sh run [simple|full] [--dir DIR] -- CMD ARGS...
#
# DIR (default /var/tmp) is where the writers' and the reader's files go:
# on the disk whose noise is wanted (the root disk holds /var/tmp and the
# images of iotrial's scratch targets). start records the process groups
# in $ANTAGONIST_STATE (default /run/iotrial-antagonist or /tmp when not
# root) and stop ends those groups only, then removes the files. run
# starts the load, runs CMD, stops the load (also on ^C) and exits with
# CMD's status. Everything it starts is in its own process group, ended
# by that group's id.
set -u
state=${ANTAGONIST_STATE:-}
if [ -z "$state" ]; then
	if [ -w /run ]; then state=/run/iotrial-antagonist; else state=/tmp/iotrial-antagonist.$UID; fi
fi

usage() {
	sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# Start one member of the load in its own process group; remember it.
spawn() {
	local name=$1
	shift
	setsid bash -c "$*" </dev/null >/dev/null 2>&1 &
	echo "$! $name" >>"$state/pids"
}

# How many of the recorded process groups are alive.
alive() {
	local pid name n=0
	while read -r pid name; do
		if kill -0 -- "-$pid" 2>/dev/null; then n=$((n + 1)); fi
	done <"$state/pids"
	echo "$n"
}

start() {
	local level=simple dir=/var/tmp
	while [ $# -gt 0 ]; do
		case $1 in
		simple | full) level=$1 ;;
		--dir) dir=$2; shift ;;
		*) usage ;;
		esac
		shift
	done
	if [ -s "$state/pids" ] && [ "$(alive)" = 0 ]; then
		# a load whose processes are all gone (killed with its run,
		# or before a reboot): its files are cleared, not in the way
		echo "antagonist: clearing a load that is no longer running" >&2
		stop
	fi
	if [ -s "$state/pids" ]; then
		echo "antagonist: already running (bench/antagonist.sh stop first)" >&2
		return 1
	fi
	mkdir -p "$state" || return 1
	local work
	work=$(mktemp -d "$dir/iotrial-antagonist.XXXXXX") || return 1
	echo "$work" >"$state/dir"
	echo "$level" >"$state/level"
	: >"$state/pids"
	spawn burner 'while :; do :; done'
	spawn writer "while :; do dd if=/dev/zero of='$work/w1' bs=1M count=128 conv=fdatasync status=none; done"
	if [ "$level" = full ]; then
		spawn burner2 'while :; do :; done'
		spawn writer2 "while :; do dd if=/dev/zero of='$work/w2' bs=1M count=64 conv=fdatasync status=none; sleep \$((RANDOM % 3)); done"
		dd if=/dev/urandom of="$work/r" bs=1M count=256 status=none
		spawn reader "while :; do cat '$work/r' >/dev/null; done"
	fi
	echo "antagonist: $level load started in $work ($(wc -l <"$state/pids") process groups)"
}

stop() {
	local pid name
	[ -f "$state/pids" ] || return 0
	while read -r pid name; do
		# only the groups this script started, by their ids
		kill -TERM -- "-$pid" 2>/dev/null
	done <"$state/pids"
	sleep 0.5
	while read -r pid name; do
		kill -KILL -- "-$pid" 2>/dev/null
	done <"$state/pids"
	if [ -f "$state/dir" ]; then
		local work
		work=$(cat "$state/dir")
		case $work in
		*/iotrial-antagonist.*) rm -rf -- "$work" ;;
		esac
	fi
	rm -f "$state/pids" "$state/dir" "$state/level"
	rmdir "$state" 2>/dev/null
	return 0
}

status() {
	if [ ! -s "$state/pids" ]; then
		echo "antagonist: not running"
		return 1
	fi
	echo "antagonist: $(cat "$state/level") load, $(alive) process groups alive, files in $(cat "$state/dir")"
}

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
case $cmd in
start) start "$@" ;;
stop) stop ;;
status) status ;;
run)
	args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	[ "${1:-}" = -- ] || usage
	shift
	start "${args[@]}" || exit 1
	trap 'stop; exit 130' INT TERM
	"$@"
	rc=$?
	stop
	exit $rc
	;;
*) usage ;;
esac
