#!/usr/bin/env bash
# The bash completion (completion/iotrial.bash): commands, each command's
# options as its help names them, workloads, choices (--metric's too),
# knob names, targets and devices, '=' and ':' words as bash splits
# them; it caches what it reads from the binary until the binary
# changes. Every completion is typed into a real interactive bash (bash
# -i on a pty, the script sourced): readline splits the line at
# COMP_WORDBREAKS ('=' and ':' among them) and replaces only the text
# after the last of them, so what is checked is what bash gave the
# function (COMP_WORDS), what it answered (COMPREPLY) and the line after
# the TAB.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3 (the pty driver)"

COMPLETION=$IOTRIAL_SRC/completion/iotrial.bash
[ -f "$COMPLETION" ] || { fail "completion/iotrial.bash exists"; exit 1; }
cd "$TEST_TMP" || exit 1 # file names are completed from here

# The binary the completion runs is the command word itself, found on
# PATH; a wrapper counts how often it is run.
BIN=$TEST_TMP/bin/iotrial
mkdir -p "$TEST_TMP/bin"
printf '#!/bin/sh\necho x >>"%s"\nexec "%s" "$@"\n' "$TEST_TMP/calls" \
	"$IOTRIAL" >"$BIN"
chmod +x "$BIN"

# The driver: one interactive bash on a pty for the whole test. For each
# line it reads, it types the line and a TAB, then a key bound (bind -x)
# to write readline's line to a file and clear it; a wrapper around
# _iotrial writes COMP_WORDS, COMP_CWORD and COMPREPLY as bash had them.
# It answers one line: words, cword, reply and the line after the TAB,
# separated by \x1e (the lists' items by \x1f).
cat >"$TEST_TMP/drive.py" <<'PY'
import os, pty, select, sys, time

completion, tmp = sys.argv[1], sys.argv[2]
cap, linef = tmp + '/cap', tmp + '/line'
pid, fd = pty.fork()
if pid == 0:
    os.execvp('bash', ['bash', '--norc', '--noprofile', '-i'])


def drain():
    while select.select([fd], [], [], 0)[0]:
        try:
            os.read(fd, 65536)
        except OSError:
            return


def wait_for(path, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        drain()
        if os.path.exists(path):
            return True
        time.sleep(0.005)
    return False


setup = r"""PS1='> '; . %(c)s
bind 'set bell-style none'
_cw() { _iotrial "$@"; { printf '%%s\x1f' "${COMP_WORDS[@]}"; printf '\x1e%%s\x1e' "$COMP_CWORD"; printf '%%s\x1f' "${COMPREPLY[@]}"; } >%(cap)s.tmp; mv %(cap)s.tmp %(cap)s; }
complete -F _cw iotrial fake fake2 fake3
bind -x '"\C-x\C-l": printf "%%s" "$READLINE_LINE" >%(l)s.tmp; mv %(l)s.tmp %(l)s; READLINE_LINE=""'
complete -p iotrial >%(l)s.tmp; mv %(l)s.tmp %(l)s
""" % {'c': completion, 'cap': cap, 'l': linef}
os.write(fd, setup.encode())
if not wait_for(linef):
    sys.exit('bash did not start')
print(open(linef).read().strip(), flush=True)
for req in sys.stdin:
    req = req.rstrip('\n')
    for f in (cap, linef):
        if os.path.exists(f):
            os.unlink(f)
    os.write(fd, (req + '\t\x18\x0c').encode())
    if not wait_for(linef):
        sys.exit('no answer to %r' % req)
    got = open(cap).read() if os.path.exists(cap) else '\x1e\x1e'
    words, cword, reply = got.split('\x1e')
    line = open(linef).read()
    print('\x1e'.join([words, cword, reply, line]).replace('\n', ' '),
          flush=True)
os.write(fd, b'exit\n')
PY
coproc DRV { PATH=$TEST_TMP/bin:$PATH python3 "$TEST_TMP/drive.py" \
	"$COMPLETION" "$TEST_TMP" 2>"$TEST_TMP/drive.err"; }
read -r -t 60 spec <&"${DRV[0]}"
check "bash -i binds the completion: '$spec'" \
	test "$spec" = "complete -F _cw fake fake2 fake3 iotrial" -o \
	"$spec" = "complete -F _cw iotrial"

# comp LINE: complete at the end of LINE in the real bash (LINE starts
# with "iotrial", or with the name of $CBIN, a stand-in binary on PATH).
# COMPREPLY, COMP_WORDS and COMP_CWORD are bash's; $got joins the
# candidates with spaces; $after is the line after the TAB.
comp() {
	local line=$1 resp words cword reply
	[ -n "${CBIN:-}" ] && line=${CBIN##*/}${line#iotrial}
	printf '%s\n' "$line" >&"${DRV[1]}"
	if ! IFS= read -r -t 60 resp <&"${DRV[0]}"; then
		fail "the pty driver answers '$line' ($(cat "$TEST_TMP/drive.err"))"
		exit 1
	fi
	IFS=$'\x1e' read -r words cword reply after <<<"$resp"
	COMP_CWORD=$cword
	IFS=$'\x1f' read -ra COMP_WORDS <<<"$words"
	IFS=$'\x1f' read -ra COMPREPLY <<<"$reply"
	got=" ${COMPREPLY[*]} "
}

# expect LINE WORD...: every WORD is a candidate
expect() {
	local line=$1 w missing=""
	shift
	comp "$line"
	for w in "$@"; do
		case $got in *" $w "*) ;; *) missing+=" $w" ;; esac
	done
	if [ -z "$missing" ]; then
		ok "'$line<TAB>' offers $*"
	else
		fail "'$line<TAB>' offers $* (got:$got; missing:$missing)"
	fi
}

# only LINE WORD...: exactly these candidates, in any order
only() {
	local line=$1 want
	shift
	comp "$line"
	want=" $(printf '%s\n' "$@" | sort | tr '\n' ' ')"
	got=" $(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')"
	check "'$line<TAB>' offers only $*" test "$got" = "$want"
	[ "$got" = "$want" ] || echo "    got:$got"
}

# becomes LINE AFTER: the line after LINE and a TAB, as readline left it
becomes() {
	comp "$1"
	check "'$1<TAB>' gives '$2'" test "$after" = "$2"
	[ "$after" = "$2" ] || echo "    got: '$after'"
}

only "iotrial ru" run
expect "iotrial " run compare info watch log show diff import knobs set \
	revert help
only "iotrial help co" compare compat
only "iotrial --v" --version
only "iotrial run --en" --engine --end_fsync
only "iotrial set read_" read_ahead_kb=
expect "iotrial run -t /de" /dev/
expect "iotrial run -t " scratch:
only "iotrial run -t scr" scratch:
only "iotrial run -t scratch:1G:" ext4 xfs
only "iotrial set -t scr" # set refuses scratch targets: not offered
only "iotrial run --engine " psync io_uring libaio mmap
only "iotrial run --engine=io" io_uring
only "iotrial run --engine=" psync io_uring libaio mmap
only "iotrial compare randread --settle " sync none
only "iotrial run --direct " 0 1
only "iotrial import --metric " iops mbps
only "iotrial compare randread --runs " auto
only "iotrial run --time " # a duration: nothing to offer
expect "iotrial run " seqread seqwrite randread randwrite randrw
expect "iotrial compare randread --vary " bs= engine= scheduler= \
	read_ahead_kb= vm.dirty_ratio= sysfs: sysctl:
only "iotrial set vm.dirty_ba" vm.dirty_background_ratio= \
	vm.dirty_background_bytes=
only "iotrial set bdflush" # legacy names are accepted, not offered
only "iotrial set sysctl:vm.dirty_back" vm.dirty_background_bytes= \
	vm.dirty_background_ratio=
only "iotrial log -" --db -n --count --json --schema --help
only "iotrial compare randread --stri" --strict
only "iotrial diff --f" --fail-on-regression --force
only "iotrial revert -" --list --json --schema --help
expect "iotrial watch -" -i --interval -c --count --csv --json

# knob values: the schedulers of the disk under the target, atime's
# modes, the words a knob allows, typical numbers; after --set, --vary
# (each value of a list) and set's KNOB=
rdisk=$("$IOTRIAL" knobs -t / --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["device"] or "")')
if [ -n "$rdisk" ] && [ -r "/sys/block/$rdisk/queue/scheduler" ]; then
	scheds=$(tr -d '[]' <"/sys/block/$rdisk/queue/scheduler")
	# shellcheck disable=SC2086
	only "iotrial set -t / scheduler=" $scheds
	first=$(set -- $scheds; echo "$1")
	# shellcheck disable=SC2086
	# bash's word is what follows the '=': "$first,"
	expect "iotrial compare randread -t / --vary scheduler=$first," \
		$(printf "$first,%s " $scheds)
else
	echo "# the root file system's disk has no scheduler: not tested"
fi
# atime is a mount's knob: a chroot whose "/" is a plain directory (a
# package builder's) has no mount for it, and iotrial rightly offers none
if "$IOTRIAL" knobs -t / --json 2>/dev/null | grep -q '"name":"atime"\|"name": "atime"'; then
	only "iotrial set -t / atime=" noatime relatime strictatime lazytime nolazytime
	only "iotrial set -t / atime=re" relatime
else
	echo "# '/' is on no mount iotrial can see (a chroot's directory): atime's modes not tested"
fi
only "iotrial run randread --set rq_affinity=" 0 1 2
expect "iotrial run randread --set read_ahead_kb=" 128 4096
only "iotrial set -t / vm.dirty_bytes=6" 64MiB
only "iotrial set -t / iosched.fifo_batch=" # "0 or more": nothing to offer
# workload parameters: their names after the workload, their values
# after --vary NAME=
expect "iotrial run randread --" --bs --iodepth --engine --direct
only "iotrial compare randread --vary engine=psync,io" psync,io_uring
only "iotrial compare randread --vary direct=" 0 1
# stored ids after show, report, diff, export and apply (from log --json)
mkdir -p "$TEST_TMP/runs"
gen_runs "$TEST_TMP/runs" a 3 1000
cdb=$TEST_TMP/c.db
sid=$("$IOTRIAL" import --db "$cdb" "$TEST_TMP/runs"/a*.json 2>/dev/null |
	sed -n 's/.* as experiment \([0-9a-f]*\).*/\1/p')
check "an experiment to complete the id of" test -n "$sid"
for c in show report diff export apply; do
	only "iotrial $c --db $cdb " "$sid"
done
only "iotrial show --db $cdb ${sid:0:3}" "$sid"
only "iotrial show --db $cdb x" # no such id

# devices: a loop device when one exists, else the ones there are
dev=$(ls /sys/class/block | head -n 1)
if [ -n "$dev" ]; then
	expect "iotrial watch ${dev:0:2}" "$dev"
	expect "iotrial set --device ${dev:0:2}" "$dev"
	[ -b "/dev/$dev" ] && expect "iotrial knobs --device /dev/${dev:0:2}" \
		"/dev/$dev"
fi

# Every option a command's help names is offered, for every command.
comp "iotrial "
cmds=("${COMPREPLY[@]}")
for cmd in ${cmds[*]}; do
	[ "$cmd" = help ] && continue
	pos=""
	[ "$cmd" = compare ] && pos="randread "
	named=$("$IOTRIAL" help "$cmd" | sed -n '1,/^$/p; /^  --/p' |
		grep -oE -- '(^|[][ |])--?[a-z][a-z0-9_-]*' | tr -d '[] |' |
		sort -u)
	missing=""
	comp "iotrial $cmd $pos-"
	for o in $named; do
		case $got in *" $o "*) ;; *) missing+=" $o" ;; esac
	done
	check "'iotrial $cmd $pos-<TAB>' offers every option its help names" \
		test -n "$named" -a -z "$missing"
	[ -z "$missing" ] || echo "    missing:$missing"
done

# Every option whose table row lists its values (a choice, the words of
# a count, a workload parameter's choices; 'iotrial help --options')
# is completed to exactly those values, for every command.
for cmd in ${cmds[*]}; do
	[ "$cmd" = help ] && continue
	pos=""
	[ "$cmd" = compare ] && pos="randread "
	while IFS=$'\t' read -r name _ _ _ _ _ choices _; do
		[ "$choices" = - ] && continue
		# shellcheck disable=SC2046 # the choices, one word each
		only "iotrial $cmd $pos$name " $(tr '|' ' ' <<<"$choices")
	done < <("$IOTRIAL" help --options "$cmd" $pos)
done

# Help printed from option tables ("  -t, --target TARGET   help", the
# form parse_options gives) is read the same way.
CBIN=$TEST_TMP/bin/fake
cat >"$CBIN" <<'EOF'
#!/bin/sh
case "$*" in
--help) printf 'usage: iotrial <command>\n\ncommands:\n  foo       one\n' ;;
"help foo")
	printf '%s\n' 'usage: iotrial foo [options]' '' \
		'  -t, --target TARGET   where' '  --json[=FILE]         JSON' \
		'  --engine psync|libaio how' '  -q, --quiet           less'
	;;
esac
EOF
chmod +x "$CBIN"
only "iotrial f" foo
only "iotrial foo --" --target --json --engine --quiet --help
only "iotrial foo -" -t --target --json --engine -q --quiet --help
only "iotrial foo --engine " psync libaio
only "iotrial foo -q " # a flag: no value to offer
expect "iotrial foo -t /de" /dev/
unset CBIN

# With no device at hand, the device knob names come from the binary's
# own list ("unavailable_knobs" of knobs --json), not from the script.
CBIN=$TEST_TMP/bin/fake2
cat >"$CBIN" <<'EOF'
#!/bin/sh
case "$*" in
--help) printf 'usage: iotrial <command>\n\ncommands:\n  set       one\n' ;;
"help set") printf '%s\n' 'usage: iotrial set [options] KNOB=VALUE' ;;
knobs*)
	printf '%s\n' '{' '  "device":null,' '  "knobs":[' \
		'    {' '      "name":"vm.dirty_ratio"' '    }' '  ],' \
		'  "unavailable_knobs":[' '    "zz_queue_knob",' '    "atime"' \
		'  ]' '}'
	;;
esac
EOF
chmod +x "$CBIN"
only "iotrial set zz" zz_queue_knob=
only "iotrial set a" atime=
only "iotrial set vm." vm.dirty_ratio=
unset CBIN
# A target with no device says why under "unavailable", keyed "device"
# too: that is no device, and the names of the root file system's disk
# are offered (as its values are), not none.
CBIN=$TEST_TMP/bin/fake3
cat >"$CBIN" <<'EOF'
#!/bin/sh
case "$*" in
--help) printf 'usage: iotrial <command>\n\ncommands:\n  set       one\n' ;;
"help set") printf '%s\n' 'usage: iotrial set [options] KNOB=VALUE' ;;
"knobs --json -t /")
	printf '%s\n' '{' '  "device":"zzdisk",' '  "knobs":[' \
		'    {' '      "name":"zz_root_knob",' '      "allowed":"on off"' \
		'    }' '  ],' '  "unavailable":{' '  },' '  "unavailable_knobs":[' \
		'  ]' '}'
	;;
knobs*)
	printf '%s\n' '{' '  "device":null,' '  "knobs":[' \
		'    {' '      "name":"vm.dirty_ratio"' '    }' '  ],' \
		'  "unavailable":{' \
		"    \"device\":\"'/x' is on a 'tmpfs' file system, which has no block device\"" \
		'  },' '  "unavailable_knobs":[' '    "zz_queue_knob"' '  ]' '}'
	;;
esac
EOF
chmod +x "$CBIN"
only "iotrial set -t /x zz" zz_root_knob=
only "iotrial set -t /x zz_root_knob=" on off
unset CBIN
if [ -n "$rdisk" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ]; then
	expect "iotrial set -t /dev/shm sch" scheduler=
	expect "iotrial compare randread -t /dev/shm --vary read_" read_ahead_kb=
else
	echo "# no tmpfs /dev/shm or no disk under /: the real fallback not tested"
fi
# (typical values per knob are offered where known, but the names come
# from the binary: no list of names to keep beside the knob table)
check "the script keeps no list of device knob names" \
	bash -c '! grep -q "_iotrial_device_knobs\|scheduler read_ahead_kb" "$1"' _ "$COMPLETION"

# The binary's help is read once, and again when the binary changes
# (its modification time, in seconds, is part of the cache key).
touch -d '+1 minute' "$BIN"
: >"$TEST_TMP/calls"
comp "iotrial run --en"
first=$(wc -l <"$TEST_TMP/calls")
comp "iotrial run --en"
comp "iotrial run --ti"
second=$(wc -l <"$TEST_TMP/calls")
check "options come from the cache the second time" \
	test "$first" -ge 1 -a "$second" = "$first"
touch -d '+2 minutes' "$BIN"
comp "iotrial run --en"
check "a changed binary is asked again" \
	test "$(wc -l <"$TEST_TMP/calls")" -gt "$second"
check "and still answers" test "$got" = " --engine --end_fsync "

# The line after TAB: a unique candidate completes, with a space unless
# it ends in '=', ':' or '/'; after '=' or ':' only the text after it is
# replaced, so no second '=' or ':' is ever inserted.
becomes "iotrial ru" "iotrial run "
becomes "iotrial run --engine=io" "iotrial run --engine=io_uring "
becomes "iotrial run -t scratch:1G:x" "iotrial run -t scratch:1G:xfs "
becomes "iotrial set read_a" "iotrial set read_ahead_kb="
becomes "iotrial run --engine=" "iotrial run --engine="
becomes "iotrial run -t scratch:1G:" "iotrial run -t scratch:1G:"
if [ -n "$rdisk" ] && [ -r "/sys/block/$rdisk/queue/scheduler" ]; then
	# the case of the report: nothing inserted, the values listed
	becomes "iotrial compare randread --vary scheduler=" \
		"iotrial compare randread --vary scheduler="
	# shellcheck disable=SC2086
	only "iotrial compare randread --vary scheduler=" $scheds
	# bash's words end in "scheduler" "=": the word completed is "="
	# itself, yet readline inserts after it, not in its place
	check "...as bash split the line: ... '--vary' 'scheduler' '=' (got: ${COMP_WORDS[*]}, word $COMP_CWORD)" \
		test "${COMP_WORDS[*]: -3}" = "--vary scheduler =" -a \
		"$COMP_CWORD" = $((${#COMP_WORDS[@]} - 1))
	last=$(set -- $scheds; eval "echo \${$#}")
	becomes "iotrial compare randread --vary scheduler=${last:0:2}" \
		"iotrial compare randread --vary scheduler=$last "
fi
# --metric: the workload's metrics (its help's table), import's choices
expect "iotrial compare randread --metric " iops mbps p99 read_p99 wall
only "iotrial compare randread --metric p9" p99 p999
expect "iotrial run smallfiles --metric " ops_per_s dbench_mbps iops
becomes "iotrial compare randread --metric=device_m" \
	"iotrial compare randread --metric=device_mbps "
only "iotrial import --metric " iops mbps
# observe's metrics are the words its help lists
expect "iotrial observe --metric " metric mbps iops w_await util
