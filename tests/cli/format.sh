#!/usr/bin/env bash
# Every C file of src/ and tests/ is as the project's .clang-format lays
# it out (generated reference vectors excepted): one check per file that
# differs, one for the whole tree. Run `clang-format -i FILE` to fix one.
# parallel: reads the source tree only
. "$(dirname "$0")/lib.sh"
command -v clang-format >/dev/null || skip "needs clang-format"
cd "$IOTRIAL_SRC" || exit 1
command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "needs a git checkout to list the project's files"

# one clang-format for all of them (one a file spent most of the time
# starting it): it names each file that differs
mapfile -t files < <(git ls-files 'src/*.[ch]' 'tests/*.[ch]' |
	grep -v '_vectors\.h$')
n=${#files[@]}
clang-format --dry-run -Werror "${files[@]}" >/dev/null 2>"$TEST_TMP/fmt"
rc=$?
bad=0
while IFS= read -r f; do
	fail "clang-format: $f differs (clang-format -i $f)"
	bad=$((bad + 1))
done < <(sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' \
	"$TEST_TMP/fmt" | sort -u)
[ "$rc" = 0 ] || [ "$bad" != 0 ] || sed 's/^/# /' "$TEST_TMP/fmt" | head -n 5
echo "# $n files checked, $bad differ"
check "every C file of src/ and tests/ is clang-formatted ($bad of $n differ, rc=$rc)" \
	test "$bad" = 0 -a "$rc" = 0
