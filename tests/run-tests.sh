#!/usr/bin/env bash
# Runs every test and prints one closing line: "N passed, N failed".
#   build/san/tests/test_*  cmocka unit tests (ASan+UBSan); each case counts
#   tests/cli/*.sh          shell tests of the sanitizer binary; each
#                           "ok"/"not ok" line counts; exit 77 = skipped
#   build/fuzz/fuzz_*       libFuzzer targets, a short bounded run each over
#                           their seed corpus; each target counts once
# TESTS=pattern restricts to names matching the glob pattern.
set -u
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0 skip=0
failed_names=()
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

count() { # name logfile rc kind
	local name=$1 log=$2 rc=$3 kind=$4 p=0 f=0 s=0
	if [ "$rc" = 77 ]; then
		skip=$((skip + 1))
		printf 'SKIP %s (%s)\n' "$name" "$(tail -n 1 "$log")"
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
		printf 'FAIL %s (%s passed, %s failed; log: %s)\n' "$name" "$p" "$f" "$log"
		tail -n 30 "$log" | sed 's/^/    /'
	else
		printf 'PASS %s (%s)\n' "$name" "$p"
	fi
}

for t in build/san/tests/test_*; do
	[ -x "$t" ] || continue
	name=unit/${t##*/}
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/${t##*/}.log
	"$t" >"$log" 2>&1
	count "$name" "$log" $? cmocka
done

# The journeys: one admin's path per field note, end to end (before the
# CLI tests, so that zz_json_schema.sh validates their JSON too)
for t in tests/journeys/*.sh; do
	[ -f "$t" ] || continue
	[ "${t##*/}" = lib.sh ] && continue # sourced by the journeys
	name=journey/$(basename "$t" .sh)
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/journey-$(basename "$t" .sh).log
	timeout 600 bash "$t" >"$log" 2>&1
	count "$name" "$log" $? tap
done

for t in tests/cli/*.sh; do
	[ -f "$t" ] || continue
	[ "${t##*/}" = lib.sh ] && continue # sourced by the others
	name=cli/$(basename "$t" .sh)
	case $name in $pattern) ;; *) continue ;; esac
	log=$log_dir/cli-$(basename "$t" .sh).log
	timeout 600 bash "$t" >"$log" 2>&1
	count "$name" "$log" $? tap
done

for t in build/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	name=fuzz/${t##*/}
	case $name in $pattern) ;; *) continue ;; esac
	corpus=tests/fuzz/corpus/${t##*/fuzz_}
	work=$(mktemp -d)
	[ -d "$corpus" ] && cp -r "$corpus"/. "$work"/ 2>/dev/null
	log=$log_dir/${t##*/}.log
	# -error_exitcode: libFuzzer's default (77) would read as "skipped"
	"$t" -max_total_time=10 -rss_limit_mb=2048 -timeout=10 \
		-error_exitcode=1 "$work" >"$log" 2>&1
	rc=$?
	rm -rf "$work"
	count "$name" "$log" $rc once
done

if [ "${#failed_names[@]}" -gt 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
