#!/usr/bin/env bash
# IOTRIAL_JSON_LOG_DIR (iotrial(1), ENVIRONMENT): a copy of each JSON
# document iotrial writes, to stdout or to --json=FILE, as a new file of
# mode 0600 in that directory, one per watch line; none of its text; an
# old behaviour's shape marked .old.json; a name already taken (a link
# planted at it) skipped, nothing written through it; a directory that
# cannot be written is one warning, and the command's output and exit
# status are what they would be without it.
. "$(dirname "$0")/lib.sh"
D=$TEST_TMP/log
mkdir -p "$D"
export IOTRIAL_JSON_LOG_DIR=$D
# names DIR: the file names there, one a line, sorted
names() { ls -A "$1" | sort; }
# copy_is FILE: $D holds one file, a copy of FILE (not empty)
copy_is() { test -s "$1" -a "$(names "$D" | wc -l)" = 1 && cmp -s "$D/$(names "$D")" "$1"; }

"$IOTRIAL" info -t / --json >"$TEST_TMP/info.json"
check "info --json: one copy, the very bytes printed" copy_is "$TEST_TMP/info.json"
f=$D/$(names "$D")
check "...named PID-1.json" grep -qE '^[0-9]+-1\.json$' <<<"${f##*/}"
check "...mode 0600" test "$(stat -c %a "$f")" = 600
rm -f "$D"/*

"$IOTRIAL" info -t / --json="$TEST_TMP/info2.json" >"$TEST_TMP/out"
check "--json=FILE: the copy is the file" copy_is "$TEST_TMP/info2.json"
rm -f "$D"/*
"$IOTRIAL" info -t / >/dev/null
"$IOTRIAL" log --db "$TEST_TMP/none.db" >/dev/null 2>&1
check "text is not copied" test -z "$(names "$D")"

db=$TEST_TMP/results.db
w=$TEST_TMP/w
mkdir -p "$w"
"$IOTRIAL" run randread -t "$w" --size 1M --ios 64 --db "$db" >/dev/null 2>&1
"$IOTRIAL" log --db "$db" --json >"$TEST_TMP/log.json"
id=$(jq -r '.experiments[0].id' "$TEST_TMP/log.json")
rm -f "$D"/*
"$IOTRIAL" report "$id" --db "$db" --format json -o "$TEST_TMP/r.json"
check "report --format json -o FILE: the copy is the file" \
	copy_is "$TEST_TMP/r.json"
rm -f "$D"/*
"$IOTRIAL" report "$id" --db "$db" --format md >"$TEST_TMP/r.md"
check "report --format md is not copied" \
	test -s "$TEST_TMP/r.md" -a -z "$(names "$D")"

"$IOTRIAL" --behaviour=log-json-array log --db "$db" --json >"$TEST_TMP/bare.json"
check "an old behaviour's bare array is kept as PID-N.old.json" \
	grep -qE '^[0-9]+-1\.old\.json$' <<<"$(names "$D")"
rm -f "$D"/*

dev=$(awk '$3 ~ /^(loop|vd|sd|nvme|xvd)/ { print $3; exit }' /proc/diskstats)
if [ -n "$dev" ]; then
	"$IOTRIAL" watch "$dev" --interval 20ms --count 3 --json >"$TEST_TMP/w.jsonl"
	check "watch --json: one copy per line" test "$(names "$D" | wc -l)" = 3
	check "...together the lines printed, in order" \
		cmp -s <(for i in 1 2 3; do cat "$D"/*-$i.json; done) "$TEST_TMP/w.jsonl"
	rm -f "$D"/*
else
	echo "# no disk in /proc/diskstats: watch not tested"
fi

# a link planted at the name the process will take first: the shell's
# pid is the one iotrial runs as after exec
sh -c 'ln -s "$1/target" "$1/$$-1.json" && exec "$2" info -t / --json' \
	sh "$D" "$IOTRIAL" >"$TEST_TMP/info3.json" 2>"$TEST_TMP/err"
check "a planted link: not followed" test ! -e "$D/target"
check "...left as it was" test -L "$(ls "$D"/*-1.json)"
check "...the copy takes the next name" cmp -s "$D"/*-2.json "$TEST_TMP/info3.json"
check "...no warning" test ! -s "$TEST_TMP/err"
rm -f "$D"/*

IOTRIAL_JSON_LOG_DIR=$TEST_TMP/missing "$IOTRIAL" info -t / --json \
	>"$TEST_TMP/info4.json" 2>"$TEST_TMP/err"
rc=$?
check "a missing directory: the command succeeds (got $rc)" test $rc = 0
check "...its output unchanged" \
	test "$(jq -cS 'del(.boot_id, .uptime_s)' "$TEST_TMP/info4.json")" = \
	"$(jq -cS 'del(.boot_id, .uptime_s)' "$TEST_TMP/info.json")"
check "...one warning naming the variable" \
	test "$(grep -c "^warning: IOTRIAL_JSON_LOG_DIR: .*missing" "$TEST_TMP/err")" = 1 -a \
	"$(wc -l <"$TEST_TMP/err")" = 1
if [ -n "$dev" ]; then
	IOTRIAL_JSON_LOG_DIR=$TEST_TMP/missing "$IOTRIAL" watch "$dev" \
		--interval 20ms --count 3 --json >/dev/null 2>"$TEST_TMP/err"
	check "...said once for all of watch's lines" \
		test "$(wc -l <"$TEST_TMP/err")" = 1
fi
