# Shared helpers for CLI tests. Source it; then call ok/fail/check.
# Each check prints "ok - NAME" or "not ok - NAME", which run-tests.sh
# counts. A test that cannot run here exits 77 via skip.
set -u
: "${IOTRIAL:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/san/iotrial}"
: "${IOTRIAL_SRC:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
# Tests never touch the real journal or store.
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-test.XXXXXX")
export IOTRIAL_STATE_DIR="$TEST_TMP/state"
export XDG_DATA_HOME="$TEST_TMP/data"
mkdir -p "$IOTRIAL_STATE_DIR" "$XDG_DATA_HOME"
trap 'rm -rf "$TEST_TMP"' EXIT

ok() { echo "ok - $*"; }
fail() { echo "not ok - $*"; }
skip() { echo "skipped: $*"; exit 77; }
# check NAME CMD...: ok when CMD succeeds
check() {
	local name=$1; shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
