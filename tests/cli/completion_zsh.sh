#!/usr/bin/env bash
# The zsh completion (completion/_iotrial): compinit finds it in $fpath
# and binds it to iotrial; autoloaded, it parses; and what it offers, from
# the program's help and 'knobs --json' and 'log --json' as the bash one:
# commands, options, workloads and their parameters, choices, knob names
# and values (the disk's schedulers, atime's modes, typical numbers, each
# value of a --vary list, --metric's metrics), devices and stored ids;
# commands come with what each does ('iotrial --help'). The candidates are
# asked of _iotrial_candidates, the function the widget hands to zsh;
# and a few are typed into a real interactive zsh (zpty) with a TAB, so
# the widget itself (compadd, compset at '=' and ',') is tested too.
. "$(dirname "$0")/lib.sh"
command -v zsh >/dev/null || skip "needs zsh"
DIR=$IOTRIAL_SRC/completion
[ -f "$DIR/_iotrial" ] || { fail "completion/_iotrial exists"; exit 1; }

check "it parses (zsh -n)" zsh -n "$DIR/_iotrial"
out=$(cd "$TEST_TMP" && HOME=$TEST_TMP zsh -fc "fpath=($DIR \$fpath); autoload -U compinit; compinit -u -D; print -r -- \${_comps[iotrial]}; autoload +X _iotrial && print loaded" 2>&1)
check "compinit binds iotrial to _iotrial (got: $out)" test "$out" = "_iotrial
loaded"

# zc WORDS...: kind and candidates, "KIND: A B C"
zc() {
	zsh -fc 'source "$1"; shift; _iotrial_candidates "$@"; print -r -- "$_iotrial_kind: $reply"' \
		zc "$DIR/_iotrial" "$IOTRIAL" "$@" 2>&1
}
# zis NAME WANT WORDS...: zc WORDS... is WANT
zis() {
	local name=$1 want=$2 got
	shift 2
	got=$(zc "$@")
	check "$name (got: $got)" test "$got" = "$want"
}
# zhas NAME KIND WORD... -- WORDS...: each WORD among the candidates
zhas() {
	local name=$1 kind=$2 got w missing=""
	local -a want=()
	shift 2
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	got=" $(zc "$@") "
	for w in "${want[@]}"; do
		case $got in *" $w "*) ;; *) missing+=" $w" ;; esac
	done
	# the kind first: "KIND: ..." ($got begins with a blank)
	check "$name (missing:$missing; got:${got:0:60})" \
		test -z "$missing" -a "${got#" $kind: "}" != "$got"
}

zhas "commands" commands run compare info watch log show set revert help -- ''
zdescs() {
	zsh -fc 'source "$1"; shift; _iotrial_candidates "$@"; print -rl -- $_iotrial_descs' \
		zc "$DIR/_iotrial" "$IOTRIAL" "$@" 2>&1
}
descs=$(zdescs '')
check "each command comes with what it does, from --help" \
	grep -qxF "run:run a workload once and report what it measured" <<<"$descs"
check "...every one of them ($(grep -c . <<<"$descs") lines)" \
	test "$(grep -c ':.' <<<"$descs")" = "$(zc '' | wc -w | awk '{print $1 - 1}')"
zhas "help's topics: the commands and compat" commands compat run -- help ''
zis "global options" "words: --help --version --compat --behaviour" -
zhas "a command's options, from its help" words --db --count -n --json --schema --help -- log -
zhas "workloads after run" words seqread randread randwrite exec -- run ''
zhas "the workload's parameters after it" words --bs --iodepth --engine --direct --dry-run --quiet -- run randread --
zis "a parameter's choices" "words: psync io_uring libaio mmap" run randread --engine ''
zis "an option's choices after =" "words: iops mbps" import --metric=
zhas "--metric: the workload's metrics, from its help" words iops mbps p99 \
	read_p99 wall -- compare randread --metric ''
zhas "--metric of smallfiles: its own first" words ops_per_s dbench_mbps iops \
	-- run smallfiles --metric ''
zhas "--metric of observe: the words its help lists" words metric mbps iops \
	w_await util writeback -- observe --metric ''
zis "a target is a directory" "dirs: " run -t ''
zis "--json=FILE is a file" "files: " run --json=x
# atime is a mount's knob: a chroot whose "/" is a plain directory (a
# package builder's) has no mount for it, and iotrial rightly offers none
if "$IOTRIAL" knobs -t / --json 2>/dev/null | grep -q '"name":"atime"\|"name": "atime"'; then
	root_atime=atime
else
	root_atime=
	echo "# '/' is on no mount iotrial can see (a chroot's directory): atime not tested"
fi
zhas "knob names after set" knobs read_ahead_kb scheduler $root_atime vm.dirty_ratio -- set -t / ''
zhas "knob names and parameters after --vary" knobs read_ahead_kb bs engine -- compare randread --vary ''
[ -z "$root_atime" ] ||
	zis "atime's modes" "values: noatime relatime strictatime lazytime nolazytime" set -t / atime=
zis "a knob's allowed words" "values: 0 1 2" run randread --set rq_affinity=
zhas "typical read_ahead_kb values" values 128 4096 -- set -t / read_ahead_kb=
zis "nothing for '0 or more'" "values: " set -t / iosched.fifo_batch=
zis "a parameter's values after --vary NAME=" "values: 0 1" compare randread --vary direct=0,
rdisk=$("$IOTRIAL" knobs -t / --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["device"] or "")')
if [ -n "$rdisk" ] && [ -r "/sys/block/$rdisk/queue/scheduler" ]; then
	scheds=$(tr -d '[]' <"/sys/block/$rdisk/queue/scheduler" | xargs)
	zis "the disk's schedulers" "values: $scheds" set -t / scheduler=
	zis "...after a --vary list's comma too" "values: $scheds" \
		compare randread -t / --vary "scheduler=${scheds%% *},"
else
	echo "# the root file system's disk has no scheduler: not tested"
fi
zhas "devices after watch" words "$(ls /sys/class/block | head -n 1)" -- watch ''

mkdir -p "$TEST_TMP/runs"
gen_runs "$TEST_TMP/runs" a 3 1000
db=$TEST_TMP/results.db
sid=$("$IOTRIAL" import --db "$db" "$TEST_TMP/runs"/a*.json 2>/dev/null |
	sed -n 's/.* as experiment \([0-9a-f]*\).*/\1/p')
check "an experiment to complete the id of" test -n "$sid"
for c in show report diff export apply; do
	zis "stored ids after $c" "words: $sid" $c --db "$db" ''
done

# the widget in a real interactive zsh: LINE, a TAB, and the line it
# becomes (zsh/zpty; the binary found as "iotrial" on PATH)
mkdir -p "$TEST_TMP/zbin" "$TEST_TMP/zhome"
ln -s "$IOTRIAL" "$TEST_TMP/zbin/iotrial"
cat >"$TEST_TMP/zreal.zsh" <<'ZSH'
# zsh zreal.zsh LINE WANT: type LINE and a TAB; "found" when WANT shows
zmodload zsh/zpty || exit 3
zpty -b z "env -i HOME=$ZH TERM=dumb PATH=$ZB:/usr/bin:/bin zsh -f -i"
zpty -w z "PS1='>'; fpath=($FP \$fpath); autoload -U compinit; compinit -u -D"
zpty -w -n z "$1"$'\t'
all=""
for i in {1..150}; do
	while zpty -rt z chunk; do all+=$chunk; done
	[[ $all == *"$2"* ]] && { print found; break }
	sleep 0.1
done
zpty -d z
ZSH
zreal() { # NAME LINE WANT
	local out
	out=$(ZB=$TEST_TMP/zbin ZH=$TEST_TMP/zhome FP=$DIR timeout 30 \
		zsh -f "$TEST_TMP/zreal.zsh" "$2" "$3" 2>&1)
	check "$1" test "${out%found}" != "$out"
}
if zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
	[ -z "$root_atime" ] ||
		zreal "TAB after atime=rel completes relatime" \
			"iotrial set -t / atime=rel" "iotrial set -t / atime=relatime "
	zreal "TAB after a --vary comma completes the next value" \
		"iotrial compare randread --vary engine=psync,io_u" \
		"--vary engine=psync,io_uring "
	zreal "TAB after read_a completes read_ahead_kb=" "iotrial set -t / read_a" \
		"iotrial set -t / read_ahead_kb="
	zreal "TAB after an id's first letters completes it" \
		"iotrial show --db $db ${sid:0:3}" "iotrial show --db $db $sid "
	zreal "TAB after --cs completes --csv" "iotrial watch --cs" "iotrial watch --csv "
	zreal "TAB after 'iotrial ' lists the commands with what they do" \
		"iotrial " "-- run a workload once and report what it measured"
	zreal "TAB after --metric lists the workload's metrics" \
		"iotrial compare randread --metric device_m" \
		"iotrial compare randread --metric device_mbps "
else
	echo "# no zsh/zpty: the widget is not typed into"
fi
