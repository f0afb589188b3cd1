#!/usr/bin/env bash
# Every C file of src/ and tests/ is as the project's .clang-format lays
# it out (generated reference vectors excepted): one check per file that
# differs, one for the whole tree. Run `clang-format -i FILE` to fix one.
. "$(dirname "$0")/lib.sh"
command -v clang-format >/dev/null || skip "needs clang-format"
cd "$IOTRIAL_SRC" || exit 1
command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "needs a git checkout to list the project's files"

bad=0 n=0
while IFS= read -r f; do
	n=$((n + 1))
	if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
		fail "clang-format: $f differs (clang-format -i $f)"
		bad=$((bad + 1))
	fi
done < <(git ls-files 'src/*.[ch]' 'tests/*.[ch]' | grep -v '_vectors\.h$')
echo "# $n files checked, $bad differ"
check "every C file of src/ and tests/ is clang-formatted ($bad of $n differ)" \
	test "$bad" = 0
