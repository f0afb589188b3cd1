# Shared by the journeys (tests/journeys/NNN_*.sh). Source it first.
#
# A journey walks one field note's path through iotrial as its admin
# would. Every iotrial command goes through `it`, which keeps what the
# command printed; at the end, j_lines has tests/journeys/lines.py read
# all of it and fail on lines that contradict each other. Checks print
# "ok - ..." / "not ok - ..." (tests/cli/lib.sh), which run-tests.sh
# counts; exit 77 skips.
#
# The CLI tests' helpers are used as they are: lib.sh (temp dirs, the
# state dir and store in TEST_TMP, mkloop, mkmount, cleanup on exit),
# knob-lib.bash (vm.dirty_* saved under the tests' lock and restored)
# and export-lib.bash (need_tool, queue settings of loop devices saved
# and restored).
J_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../cli/lib.sh
. "$J_HERE/../cli/lib.sh"
# shellcheck source=../cli/knob-lib.bash
. "$J_HERE/../cli/knob-lib.bash"
# shellcheck source=../cli/export-lib.bash
. "$J_HERE/../cli/export-lib.bash"
need_root
[ -x "$IOTRIAL" ] || skip "no iotrial binary at '$IOTRIAL' (make it first)"
# scratch images and mounts go under TEST_TMP, where the cleanup finds them
export TMPDIR=$TEST_TMP

J_DIR=$TEST_TMP/journey
mkdir -p "$J_DIR"
J_N=0
J_START=$SECONDS

# it ARGS...: run iotrial ARGS as the admin would type them; what it
# printed, and copies of the files it wrote, are kept for j_lines. Sets
# J_OUT and J_ERR (the files) and J_RC. A file a command was to write
# (--json=FILE, -o FILE) that a refused command (exit 2) leaves behind
# is noted for j_lines.
it() {
	local s f
	J_N=$((J_N + 1))
	s=$(printf '%s/%03d' "$J_DIR" "$J_N")
	printf '%s\0' "$@" >"$s.args"
	j_out_files "$@" >"$s.want"
	"$IOTRIAL" "$@" >"$s.out" 2>"$s.err"
	J_RC=$?
	echo "$J_RC" >"$s.rc"
	J_OUT=$s.out J_ERR=$s.err
	local i=0
	while IFS= read -r f; do
		[ -f "$f" ] || continue
		i=$((i + 1))
		cp "$f" "$s.f$i"
		printf '%s\t%s\n' "${s##*/}.f$i" "$f" >>"$s.files"
	done < <(j_out_files "$@" all)
	if [ "$J_RC" = 2 ]; then
		while IFS= read -r f; do
			[ -e "$f" ] && echo "'$f' after 'iotrial $1 ${2:-}' (exit $J_RC)" \
				>>"$J_DIR/leftovers"
		done <"$s.want"
	fi
	rm -f "$s.want"
	return 0
}

# j_out_files ARGS... [all]: the files iotrial ARGS is to write
# (--json=FILE, -o FILE), one a line: those that do not exist yet, or
# with "all" last, all of them
j_out_files() {
	local a f prev='' all=''
	[ "${*: -1}" = all ] && all=1
	for a in "$@"; do
		[ "$a" = -- ] && break
		f=
		case $a in
		--json=*) f=${a#--json=} ;;
		--output=*) f=${a#--output=} ;;
		esac
		case $prev in -o | --output) f=$a ;; esac
		prev=$a
		[ -n "$f" ] || continue
		[ -n "$all" ] || [ ! -e "$f" ] && printf '%s\n' "$f"
	done
	return 0
}

# step TEXT: say what the admin does next (a comment in the log)
step() { echo "# --- $*"; }

# said FILE: the first lines of what a command printed, as comments, for
# the log of a failing check
said() { head -n "${2:-6}" "$1" | sed 's/^/#   /'; }

# expect_rc NAME RC: the last command exited RC; else "not ok" with what
# it printed
expect_rc() {
	if [ "$J_RC" = "$2" ]; then
		ok "$1"
	else
		fail "$1 (exit $J_RC, not $2)"
		said "$J_ERR"
		said "$J_OUT" 3
	fi
}

# exp_id: the experiment id the last compare printed ("experiment ID:")
exp_id() {
	sed -n 's/^experiment \([0-9a-f]\{8\}\): .*/\1/p' "$J_OUT" | head -n 1
}

# arm_row ID N: the label of row N (from 1) of the arm table that
# 'show ID' prints, as the admin counts the rows
arm_row() {
	it show "$1"
	python3 - "$J_OUT" "$2" <<'PY'
import re, sys
rows, n = [], int(sys.argv[2])
for line in open(sys.argv[1]):
    m = re.match(r"^(\S.*?)\s+\S+\s+\[[^\]]*\]\s+[\d.]+%\s+\d+\s", line)
    if m and m.group(1) != "arm":
        rows.append(m.group(1))
print(rows[n - 1] if 0 < n <= len(rows) else "")
PY
}

# html_self_contained FILE: the page fetches nothing when it is opened:
# no src=, no href= but "#...", no url() but data:, no @import
html_self_contained() {
	python3 - "$1" <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
bad = re.findall(r"""\b(?:src|srcset|action)\s*=\s*["']?(?!#|data:)[^"'\s>]+""", t, re.I)
bad += [h for h in re.findall(r"""\bhref\s*=\s*["']?([^"'\s>]*)""", t, re.I)
        if not h.startswith("#")]
bad += [u for u in re.findall(r"url\(\s*['\"]?([^)'\"]*)", t, re.I)
        if not u.startswith(("#", "data:"))]
bad += re.findall(r"@import[^;]*", t, re.I)
bad += re.findall(r"<(?:link|iframe|object|embed|base)\b[^>]*>", t, re.I)
for b in bad[:5]:
    print("#   fetches: %s" % b)
sys.exit(1 if bad or "<html" not in t.lower() else 0)
PY
}

# no_mounts_left: nothing this journey made is still mounted or attached
no_mounts_left() {
	! grep -qF "$TEST_TMP" /proc/self/mountinfo &&
		! losetup -a | grep -qF "$TEST_TMP/iotrial-scratch."
}

# j_lines: read every line the journey's iotrial commands printed (and
# the files they wrote) and fail on contradictions; then say how long
# the journey took. With J_KEEP=DIR in the environment, the transcript
# is copied to DIR/NAME for a reader (or lines.py DIR/NAME) afterwards.
j_lines() {
	check "no refused command left behind a file it was to write" \
		test ! -s "$J_DIR/leftovers"
	[ -s "$J_DIR/leftovers" ] && sed 's/^/#   /' "$J_DIR/leftovers"
	python3 "$J_HERE/lines.py" "$J_DIR"
	if [ -n "${J_KEEP:-}" ]; then
		mkdir -p "$J_KEEP" && rm -rf "${J_KEEP:?}/$(basename "$0" .sh)" &&
			cp -r "$J_DIR" "$J_KEEP/$(basename "$0" .sh)"
	fi
	echo "# journey took $((SECONDS - J_START)) s, $J_N iotrial commands"
}

# udev_check RULES DEV: udevadm accepts the rules file for DEV: verify
# where udevadm has it, else test: the rule is put in /run/udev/rules.d
# for the event udevadm simulates (which writes the attributes on DEV,
# a loop device of the journey's), and what that adds under /run/udev
# is taken away again (as tests/cli/export_udev.sh does)
udev_check() {
	local rules=$1 dev=${2#/dev/} had_udev='' had_rules='' db rf rc
	if udevadm verify --help >/dev/null 2>&1; then
		udevadm verify "$rules" >"$TEST_TMP/udev.out" 2>&1
		return
	fi
	[ -d /run/udev ] && had_udev=1
	[ -d /run/udev/rules.d ] && had_rules=1
	db=/run/udev/data/b$(cat "/sys/block/$dev/dev")
	[ -e "$db" ] && cp -p "$db" "$TEST_TMP/udev-db.saved"
	mkdir -p /run/udev/rules.d
	rf=/run/udev/rules.d/60-iotrial-journey-$$.rules
	cp "$rules" "$rf"
	udevadm test --action=change "/sys/class/block/$dev" >"$TEST_TMP/udev.out" 2>&1
	rc=$?
	rm -f "$rf"
	if [ -z "$had_udev" ]; then
		rm -rf /run/udev
	else
		[ -n "$had_rules" ] || rmdir /run/udev/rules.d
		if [ -e "$TEST_TMP/udev-db.saved" ]; then
			cp -p "$TEST_TMP/udev-db.saved" "$db"
		else
			rm -f "$db"
		fi
	fi
	[ $rc = 0 ] && ! grep -F "$rf" "$TEST_TMP/udev.out" | grep -qiE 'invalid|error|fail'
}
