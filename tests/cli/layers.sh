#!/usr/bin/env bash
# The architecture holds: no circle of files or folders, every include
# points down the layers docs/ARCHITECTURE.md lists, and cli/ keeps to
# parsing, printing and exit codes (no knob sessions, no store writes, no
# experiment assembly: those are core's).
# parallel: reads the source tree only
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
cd "$IOTRIAL_SRC" || exit 1

out=$(python3 tools/check-layers.py . 2>&1)
rc=$?
sed 's/^/# /' <<<"$out"
check "no circles, and every include points down the layers" test "$rc" = 0

# What only core/ may call. cli_check_store() opens and closes the store
# to refuse a bad --db before a long run; it writes nothing.
core_only='session_(open|apply|rollback|commit|revert|record)|store_save_|experiment_build|experiment_run|journal_append'
hits=$(grep -nE "\\b($core_only)\\b" src/cli/*.c src/cli/*.h)
[ -n "$hits" ] && sed 's/^/# core work in cli: /' <<<"$hits"
check "cli/ does no core work (sessions, store writes, experiments)" test -z "$hits"

# core/ never prints or exits: it returns errors for cli/ to report
# (util/error.c's printers and xalloc's out-of-memory abort are cli's
# tools, used from cli/ only)
loud=$(grep -nE '(^|[^_a-z])(printf|fprintf|puts|fputs|exit|abort|error|warning|note)[[:space:]]*\(' \
	$(find src/core -name '*.c') | grep -vE 'snprintf|/\*|^[^:]+:[0-9]+:[[:space:]]*\*')
[ -n "$loud" ] && sed 's/^/# prints or exits: /' <<<"$loud"
check "core/ neither prints nor exits" test -z "$loud"

# One codec (core/model/model_json.h): JSON is json-c's only under
# src/core/model/; everything else holds typed documents
json=$(grep -rnE 'json_object_|json_tokener|<json-c/' src --include='*.c' \
	--include='*.h' | grep -v '^src/core/model/')
[ -n "$json" ] && sed 's/^/# json-c outside the model: /' <<<"$json"
check "json-c is used only under src/core/model/" test -z "$json"
