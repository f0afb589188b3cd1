#!/usr/bin/env bash
# make install puts exactly the binary, the manual and the bash and zsh
# completions
# under $(DESTDIR)$(PREFIX), and make uninstall takes them away. It builds
# the release ./iotrial if that is not up to date (make check has built it
# already), and nothing else.
# parallel: make install into a directory of its own
. "$(dirname "$0")/lib.sh"
command -v make >/dev/null || skip "make is not installed"

# a make of our own: not a job of the make that may be running the tests
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$IOTRIAL_SRC" "$@" \
		>"$TEST_TMP/make.log" 2>&1
}

stage=$TEST_TMP/stage
if mk install DESTDIR="$stage" PREFIX=/usr; then
	ok "make install DESTDIR=... PREFIX=/usr"
else
	fail "make install DESTDIR=... PREFIX=/usr"
	cat "$TEST_TMP/make.log"
fi
bin=$stage/usr/bin/iotrial
page=$stage/usr/share/man/man1/iotrial.1
comp=$stage/usr/share/bash-completion/completions/iotrial
check "the binary is in PREFIX/bin, executable" test -x "$bin"
check "the manual is PREFIX/share/man/man1/iotrial.1" \
	cmp -s "$page" "$IOTRIAL_SRC/docs/iotrial.1"
check "the completion is PREFIX/share/bash-completion/completions/iotrial" \
	cmp -s "$comp" "$IOTRIAL_SRC/completion/iotrial.bash"
check "the zsh completion is PREFIX/share/zsh/vendor-completions/_iotrial" \
	cmp -s "$stage/usr/share/zsh/vendor-completions/_iotrial" "$IOTRIAL_SRC/completion/_iotrial"
check "nothing else is installed" \
	test "$(find "$stage" -type f | wc -l)" = 4
version=$(sed -n 's/^#define IOTRIAL_VERSION "\(.*\)"$/\1/p' \
	"$IOTRIAL_SRC/src/version.h")
out=$("$bin" --version 2>&1)
check "the installed binary prints its version and schema" \
	test "${out#"iotrial $version ("}" != "$out" -a "${out#*iotrial/1}" != "$out"
echo "    $out"
check "the installed completion loads and completes" bash -c '
	. "$1" || exit 1
	COMP_LINE="$2 ru" COMP_POINT=${#COMP_LINE}
	COMP_WORDS=("$2" ru) COMP_CWORD=1
	_iotrial && [ "${COMPREPLY[*]}" = run ]' _ "$comp" "$bin"
if command -v man >/dev/null; then
	check "man renders the installed page" \
		bash -c 'MANWIDTH=80 man -l "$1" 2>/dev/null | grep -q "^NAME"' \
		_ "$page"
fi

if mk uninstall DESTDIR="$stage" PREFIX=/usr; then
	ok "make uninstall DESTDIR=... PREFIX=/usr"
else
	fail "make uninstall DESTDIR=... PREFIX=/usr"
	cat "$TEST_TMP/make.log"
fi
check "make uninstall removes the four files" \
	test "$(find "$stage" -type f | wc -l)" = 0

# the default prefix and the per-directory overrides
mk install DESTDIR="$stage/d"
check "PREFIX defaults to /usr/local" test -x "$stage/d/usr/local/bin/iotrial"
mk install DESTDIR="$stage/o" PREFIX=/opt/iotrial MANDIR=/usr/share/man
check "MANDIR overrides PREFIX for the manual" \
	test -f "$stage/o/usr/share/man/man1/iotrial.1" \
	-a -x "$stage/o/opt/iotrial/bin/iotrial"
