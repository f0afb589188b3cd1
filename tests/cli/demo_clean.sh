#!/usr/bin/env bash
# The first experiment a newcomer sees (make demo's compare, as root)
# must be a clean one: no run of it may read from the page cache what it
# claims to read from the disk, as a time-based read of a 256 MiB file
# that a disk reads several times over in 1.5 s did. The demo's own
# arguments (tools/demo.sh --args), two runs per arm instead of its
# budget; and the README's "A session" shows that same command.
. "$(dirname "$0")/lib.sh"
mapfile -t args < <("$IOTRIAL_SRC/tools/demo.sh" --args)
check "tools/demo.sh --args prints the compare's arguments (${#args[@]})" \
	test "${#args[@]}" -gt 4
check "the README's session runs the demo's compare" \
	grep -qxF "\$ ./iotrial compare ${args[*]}" "$IOTRIAL_SRC/README.md"

need_root
command -v python3 >/dev/null || skip "needs python3"
# the scratch image on a disk, as the demo puts it (not a tmpfs /tmp)
img_dir=$(mktemp -d /var/tmp/iotrial-demo.XXXXXX)
TEST_DIRS+=("$img_dir")
[ "$(stat -f -c %T "$img_dir")" != tmpfs ] || skip "/var/tmp is a tmpfs: no disk under the scratch image"
TMPDIR=$img_dir "$IOTRIAL" compare "${args[@]}" --runs 2 --no-store \
	--json="$TEST_TMP/demo.json" >"$TEST_TMP/out" 2>&1
rc=$?
check "the demo's compare runs (rc=$rc)" test "$rc" = 0
sed 's/^/# /' "$TEST_TMP/out" | grep -i 'warning\|measured' | cut -c1-240
check "no warning of it, nor of any of its runs, says the page cache was read" \
	python3 - "$TEST_TMP/demo.json" "$TEST_TMP/out" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
# the printed warnings (those before the first run are not in the JSON)
said = [l for l in open(sys.argv[2]) if l.startswith(("warning:", "* "))]
said += o.get("warnings") or []
for r in o.get("runs", []):
    said += (r.get("run") or {}).get("warnings") or []
bad = [w for w in said if "page cache" in w]
for w in bad:
    print("# " + w[:300])
sys.exit(1 if bad or not o.get("runs") else 0)
PY
check "and it leaves no scratch image behind" \
	test -z "$(ls -A "$img_dir")"
