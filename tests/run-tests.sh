#!/usr/bin/env bash
# Runs every test and prints one closing line: "N passed, N failed".
#   build/san/tests/test_*  cmocka unit tests (ASan+UBSan); each case counts
#   tests/cli/*.sh          shell tests of the sanitizer binary; each
#                           "ok"/"not ok" line counts; exit 77 = skipped
#   build/fuzz/fuzz_*       libFuzzer targets, a short bounded run each over
#                           their seed corpus; each target counts once
# TESTS=pattern restricts to names matching the glob pattern.
#
# Each result line ends with the test's time ("PASS cli/x (12) 34s"), and
# a line of the slowest comes before the closing one. On two cores or
# more the fuzz targets (CPU only, no shared state) run one at a time
# beside the other tests, and CLI tests whose file has a line
# "# parallel: WHY" run two at a time with each other; every other CLI
# test runs alone. A test may be marked only when it changes nothing
# machine-wide (a sysctl, the page cache, a device it did not make),
# measures nothing another test changes (a shared disk's counters, the
# list of devices or mounts, dirty memory, the pace of a clock-driven
# load) and finds only its own files; a loop device of its own is fine.
# TEST_JOBS=1 runs everything one at a time.
# FUZZ_BUILD=1 (make check) builds the fuzz targets first, beside the
# tests at the lowest CPU priority.
set -u
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0 skip=0
failed_names=()
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -gt 2 ] && jobs=2
times=() # "SECONDS NAME" of each test, for the slowest
t_all=${EPOCHREALTIME/./}
# secs_since T: whole seconds (rounded) from T (EPOCHREALTIME in us) to now
secs_since() { echo $(((${EPOCHREALTIME/./} - $1 + 500000) / 1000000)); }
log_dir=build/test-logs
mkdir -p "$log_dir"
export IOTRIAL="$PWD/build/san/iotrial"
export IOTRIAL_SRC="$PWD"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
pattern=${TESTS:-*}
# A copy of every JSON document iotrial writes while the tests run goes
# to IOTRIAL_JSON_LOG_DIR (iotrial(1), ENVIRONMENT), for
# tests/cli/zz_json_schema.sh, the last CLI test, to validate. Set
# beforehand, the directory is kept across runs (of several TESTS=
# subsets); else it starts empty. Tests run iotrial as nobody too, so a
# directory made here is writable by all and sticky, as /tmp.
if [ -z "${IOTRIAL_JSON_LOG_DIR:-}" ]; then
	export IOTRIAL_JSON_LOG_DIR="$PWD/$log_dir/json"
	rm -rf "$IOTRIAL_JSON_LOG_DIR"
fi
if [ ! -d "$IOTRIAL_JSON_LOG_DIR" ]; then
	mkdir -p "$IOTRIAL_JSON_LOG_DIR" && chmod 1733 "$IOTRIAL_JSON_LOG_DIR"
fi

# Some CLI tests also run the binary as nobody (setpriv). A checkout that
# others cannot enter, such as one in root's home (0700 on Debian), hides
# it from them: they get a copy in a directory they can reach.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && [ -x "$IOTRIAL" ] && command -v setpriv >/dev/null &&
	! as_nobody test -x "$IOTRIAL" 2>/dev/null; then
	bin_dir=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-bin.XXXXXX") || exit 1
	trap 'rm -rf "$bin_dir"' EXIT
	chmod 755 "$bin_dir"
	cp "$IOTRIAL" "$bin_dir/iotrial" || exit 1
	export IOTRIAL="$bin_dir/iotrial"
	as_nobody test -x "$IOTRIAL" 2>/dev/null ||
		echo "warning: user nobody cannot run '$IOTRIAL' either;" \
			"tests of what non-root users see will fail"
fi

count() { # name logfile rc kind seconds
	local name=$1 log=$2 rc=$3 kind=$4 secs=$5 p=0 f=0 s=0
	times+=("$secs $name")
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1))
		printf 'SKIP %s (%s) %ss\n' "$name" "$(tail -n 1 "$log")" "$secs"
		return
	fi
	case $kind in
	cmocka)
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		;;
	tap)
		p=$(grep -c '^ok ' "$log")
		f=$(grep -c '^not ok ' "$log")
		;;
	once)
		if [ "$rc" = 0 ]; then p=1; else f=1; fi
		;;
	esac
	p=${p:-0} f=${f:-0} s=${s:-0}
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1 # crashed or died without saying what failed
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	if [ "$f" != 0 ]; then
		failed_names+=("$name")
		printf 'FAIL %s (%s passed, %s failed; log: %s) %ss\n' "$name" "$p" \
			"$f" "$log" "$secs"
		tail -n 30 "$log" | sed 's/^/    /'
	else
		printf 'PASS %s (%s) %ss\n' "$name" "$p" "$secs"
	fi
}

# The fuzz targets, one after another: each leaves NAME.log, NAME.rc and
# NAME.secs in the log directory for fuzz_count.
fuzz_run() {
	local t work log t0
	for t in build/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		case fuzz/${t##*/} in $pattern) ;; *) continue ;; esac
		corpus=tests/fuzz/corpus/${t##*/fuzz_}
		work=$(mktemp -d)
		[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/ 2>/dev/null
		log=$log_dir/${t##*/}.log
		rm -f "$log.rc" "$log.secs"
		t0=${EPOCHREALTIME/./}
		# -error_exitcode: libFuzzer's default (77) would read as "skipped"
		"$t" -max_total_time=10 -rss_limit_mb=2048 -timeout=10 \
			-error_exitcode=1 "$work" >"$log" 2>&1
		echo $? >"$log.rc"
		secs_since "$t0" >"$log.secs"
		rm -rf "$work"
	done
}

# The fuzz targets' build (FUZZ_BUILD=1), then their runs. The build is a
# make of its own: not a job of the make that may be running the tests.
fuzz_lane() {
	local log=$log_dir/fuzz-build.log t0=${EPOCHREALTIME/./}
	if [ "${FUZZ_BUILD:-}" = 1 ]; then
		rm -f "$log.rc" "$log.secs"
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL nice -n 19 make \
			--no-print-directory -j"$(nproc 2>/dev/null || echo 1)" \
			fuzz-build >"$log" 2>&1
		echo $? >"$log.rc"
		secs_since "$t0" >"$log.secs"
	fi
	fuzz_run
}

# Count what fuzz_lane left, in the targets' order.
fuzz_count() {
	local t log=$log_dir/fuzz-build.log
	if [ "${FUZZ_BUILD:-}" = 1 ]; then
		count fuzz/build "$log" "$(cat "$log.rc" 2>/dev/null || echo 1)" \
			once "$(cat "$log.secs" 2>/dev/null || echo 0)"
	fi
	for t in build/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		case fuzz/${t##*/} in $pattern) ;; *) continue ;; esac
		log=$log_dir/${t##*/}.log
		count "fuzz/${t##*/}" "$log" "$(cat "$log.rc" 2>/dev/null || echo 1)" \
			once "$(cat "$log.secs" 2>/dev/null || echo 0)"
	done
}

# Beside the rest: the build at the lowest CPU priority, taking what the
# tests leave idle; the fuzzers at the tests' own, since each has 10 s of
# wall time and at nice 19 on a busy machine ran half as many inputs.
fuzz_pid=
if [ "$jobs" -gt 1 ]; then
	fuzz_lane &
	fuzz_pid=$!
fi

for t in build/san/tests/test_*; do
	[ -x "$t" ] || continue
	name=unit/${t##*/}
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/${t##*/}.log
	t0=${EPOCHREALTIME/./}
	"$t" >"$log" 2>&1
	count "$name" "$log" $? cmocka "$(secs_since "$t0")"
done

# The journeys: one admin's path per field note, end to end (before the
# CLI tests, so that zz_json_schema.sh validates their JSON too)
for t in tests/journeys/*.sh; do
	[ -f "$t" ] || continue
	[ "${t##*/}" = lib.sh ] && continue # sourced by the journeys
	name=journey/$(basename "$t" .sh)
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/journey-$(basename "$t" .sh).log
	t0=${EPOCHREALTIME/./}
	timeout 600 bash "$t" >"$log" 2>&1
	count "$name" "$log" $? tap "$(secs_since "$t0")"
done

# The CLI tests that are running: their names, logs and start times by
# process id.
declare -A cli_name=() cli_log=() cli_t0=()

# cli_reap: wait for one running CLI test to end, and count it.
cli_reap() {
	local pid rc
	wait -n -p pid "${!cli_name[@]}"
	rc=$?
	count "${cli_name[$pid]}" "${cli_log[$pid]}" "$rc" tap \
		"$(secs_since "${cli_t0[$pid]}")"
	unset "cli_name[$pid]" "cli_log[$pid]" "cli_t0[$pid]"
}

for t in tests/cli/*.sh; do
	[ -f "$t" ] || continue
	[ "${t##*/}" = lib.sh ] && continue # sourced by the others
	name=cli/$(basename "$t" .sh)
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/cli-$(basename "$t" .sh).log
	# one marked test beside another; any other alone
	beside=0
	[ "$jobs" -gt 1 ] && grep -q '^# parallel:' "$t" && beside=1
	if [ "$beside" = 1 ]; then
		while [ "${#cli_name[@]}" -ge "$jobs" ]; do cli_reap; done
	else
		while [ "${#cli_name[@]}" -gt 0 ]; do cli_reap; done
	fi
	# (under timeout, which resets the SIGINT and SIGQUIT that bash
	# ignores in what it starts in the background; 600 s, or what a
	# '# timeout: SECONDS' line of the test says)
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\)$/\1/p' "$t" | head -n 1)
	timeout "${limit:-600}" bash "$t" >"$log" 2>&1 &
	cli_name[$!]=$name cli_log[$!]=$log cli_t0[$!]=${EPOCHREALTIME/./}
	[ "$beside" = 1 ] || cli_reap
done
while [ "${#cli_name[@]}" -gt 0 ]; do cli_reap; done

if [ -n "$fuzz_pid" ]; then
	wait "$fuzz_pid"
else
	fuzz_lane
fi
fuzz_count

# the slowest tests, then the time of the whole run
if [ "${#times[@]}" -gt 0 ]; then
	printf '%s\n' "${times[@]}" | sort -rn | head -n 15 |
		awk '{ s = s (NR > 1 ? ", " : "") $2 " " $1 "s" } END { print "slowest: " s }'
fi
echo "time: $(secs_since "$t_all")s in all"
if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
