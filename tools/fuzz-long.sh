#!/usr/bin/env bash
# make fuzz-long: every libFuzzer target (or those FUZZ_TARGETS names,
# e.g. "export import") for SECONDS each (default 300) over a copy of its
# corpus, one line of figures per target: executions, executions per
# second, coverage (edges, features), the corpus it grew to, and the
# verdict. Exits 1 when a target found a crash (its log is kept).
set -u
secs=${1:-300}
cd "$(dirname "$0")/.." || exit 1
logs=${FUZZ_LOG_DIR:-build/fuzz/long}
mkdir -p "$logs"
failed=0
for t in build/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	name=${t##*/fuzz_}
	if [ -n "${FUZZ_TARGETS:-}" ]; then
		case " $FUZZ_TARGETS " in *" $name "*) ;; *) continue ;; esac
	fi
	work=$(mktemp -d)
	[ -d "tests/fuzz/corpus/$name" ] && cp -r "tests/fuzz/corpus/$name"/. "$work"/
	log=$logs/$name.log
	"$t" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
		-error_exitcode=1 -print_final_stats=1 "$work" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p' <<<"$last")
	if [ $rc = 0 ]; then
		verdict=ok
	else
		verdict="FAILED (rc=$rc, see $log)"
		failed=1
	fi
	printf '%-12s %5ss %10s runs %7s/s  cov %5s  ft %6s  corpus %-10s %s\n' \
		"$name" "$secs" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$verdict"
	rm -rf "$work"
done
exit $failed
