#!/usr/bin/env bash
# export -o: a tuned profile directory that is a symbolic link is
# refused (what it points to is untouched, --force or not); an existing
# file is replaced with --force by a new file renamed over it, never
# truncated in place (a reader holding the old one keeps it whole); a
# link at the path, dangling or not, is refused, --force or not (neither
# followed nor replaced); without --force an existing file is refused.
# parallel: its own files, directory and store; nothing machine-wide
. "$(dirname "$0")/lib.sh"
trap 'test_cleanup' EXIT
cd "$TEST_TMP" || exit 1
set_args=(export --set vm.dirty_expire_centisecs=2500)

mkdir real
echo old >real/tuned.conf
ln -s real link
"$IOTRIAL" "${set_args[@]}" --format tuned -o link --force >out 2>err
rc=$?
check "a linked profile directory is refused" \
	eval '[ $rc != 0 ] && grep -q "is a symbolic link" err'
check "and what it points to is untouched" test "$(cat real/tuned.conf)" = old

mkdir prof
echo old >prof/tuned.conf
ino=$(stat -c %i prof/tuned.conf)
exec 3<prof/tuned.conf
"$IOTRIAL" "${set_args[@]}" --format tuned -o prof --force >out 2>err
check "--force writes the profile" grep -q "vm.dirty_expire_centisecs *= *2500" prof/tuned.conf
check "as a new file renamed over the old one" \
	test "$(stat -c %i prof/tuned.conf)" != "$ino"
check "a reader of the old file still reads it whole" test "$(cat <&3)" = old
exec 3<&-
check "no temporary file is left" test "$(ls -A prof)" = tuned.conf

echo victim >victim
ln -s victim f.conf
"$IOTRIAL" "${set_args[@]}" --format sysctl -o f.conf --force >out 2>err
rc=$?
check "a link at -o is refused with --force" \
	eval '[ $rc = 2 ] && [ -L f.conf ] && grep -q "a symbolic link, which iotrial neither writes through nor replaces" err'
check "and what it pointed to is untouched" test "$(cat victim)" = victim

ln -s nowhere dangling
"$IOTRIAL" "${set_args[@]}" --format sysctl -o dangling >out 2>err
rc=$?
check "a dangling link is refused too" \
	eval '[ $rc = 2 ] && grep -q "symbolic link" err && [ -L dangling ] && [ ! -e nowhere ]'
echo old >plain
"$IOTRIAL" "${set_args[@]}" --format sysctl -o plain >out 2>err
rc=$?
check "without --force an existing file is refused" \
	eval '[ $rc = 2 ] && grep -q "exists; give another file, or --force" err && [ "$(cat plain)" = old ]'
