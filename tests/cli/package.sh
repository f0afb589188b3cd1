#!/usr/bin/env bash
# The Debian package (debian/): dpkg-buildpackage -us -uc -b builds it
# as a normal user in a clean tree (debian/build-deb: the tracked files,
# nothing built; root builds as nobody) and runs the unit tests, which
# DEB_BUILD_OPTIONS=nocheck skips; lintian reports no error and no
# warning; the package holds the binary, the manual, the bash and zsh
# completions, the JSON schema and iotrial-revert.service, which
# systemd-analyze verify accepts, which runs 'iotrial revert' after the
# local file systems and before sysinit.target, and which the package
# enables. A build compiles everything twice (release and ASan), minutes
# on 2 cores: make check skips this test, 'make check-deb' runs it. On a
# loaded machine it takes more than the runner's usual 600 s:
# timeout: 3600
. "$(dirname "$0")/lib.sh"
[ "${IOTRIAL_PACKAGE_TEST:-}" = 1 ] ||
	skip "the package build takes minutes; 'make check-deb' runs it"
missing=""
for t in dpkg-buildpackage dh lintian systemd-analyze dpkg-deb git; do
	command -v "$t" >/dev/null || missing+=" $t"
done
[ -z "$missing" ] || skip "needs$missing (tools/deps.txt: debhelper, lintian, systemd)"

src=$IOTRIAL_SRC
deb=$TEST_TMP/deb
# the clean tree is under TEST_TMP: nobody (root builds as nobody) must
# reach it
chmod 755 "$TEST_TMP"
start=$(date +%s)
"$src/debian/build-deb" "$deb" >"$TEST_TMP/build.out" 2>&1
rc=$?
secs=$(($(date +%s) - start))
echo "# $(tail -n 1 "$TEST_TMP/build.out")"
check "dpkg-buildpackage -us -uc -b builds the package as a normal user in a clean tree (rc=$rc, ${secs} s)" \
	test $rc = 0
[ $rc = 0 ] || { tail -n 30 "$TEST_TMP/build.out" | sed 's/^/#   /'; exit 1; }
pkg=$(ls "$deb"/iotrial_*.deb)
log=$deb/build.log
owner=$(stat -c %u "$deb"/iotrial-*/iotrial 2>/dev/null)
check "the build ran as a normal user: what it made is uid $owner's" \
	test -n "$owner" -a "$owner" != 0
check "...as the package says it may (Rules-Requires-Root: no)" \
	grep -q '^Rules-Requires-Root: no' "$src/debian/control"
check "the build ran the unit tests, and they passed" \
	grep -qE '^[0-9]+ passed, 0 failed' "$log"
grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | sed 's/^/# unit tests at build time: /'
# nocheck: what dh and debian/rules would run, without running it (dh
# --no-act; make -n, a make of its own, not a job of the make that runs
# the tests)
tree=$(ls -d "$deb"/iotrial-*/ 2>/dev/null | head -n 1)
tree=${tree:-$src}
plan() {
	(cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="$1" dh build-arch --no-act 2>&1)
}
tests=$(cd "$tree" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -s -n -f debian/rules override_dh_auto_test 2>&1)
check "the build's test step runs make check-unit" \
	grep -q 'check-unit' <<<"$tests"
check "DEB_BUILD_OPTIONS=nocheck skips it (dh build-arch: with it, without)" \
	test "$(plan "" | grep -c override_dh_auto_test)" = 1 -a \
	"$(plan nocheck | grep -c override_dh_auto_test)" = 0

# lintian: no error, no warning (overrides only with a reason)
lintian --fail-on error,warning --tag-display-limit 0 "$deb"/*.changes \
	>"$TEST_TMP/lintian.out" 2>&1
rc=$?
sed 's/^/# lintian: /' "$TEST_TMP/lintian.out"
check "lintian reports no error and no warning (rc=$rc)" \
	test $rc = 0 -a -z "$(grep -E '^[EW]: ' "$TEST_TMP/lintian.out")"
for o in "$src"/debian/*lintian-overrides "$src"/debian/source/lintian-overrides; do
	[ -e "$o" ] || continue
	check "every lintian override in ${o#"$src"/} has a reason" \
		awk '/^[^#]/ && prev !~ /^#/ { bad = 1 } { prev = $0 } END { exit bad }' "$o"
done

# what the package holds
dpkg-deb -c "$pkg" | awk '{ print $6 }' | sed 's|^\./|/|' >"$TEST_TMP/files"
for f in /usr/bin/iotrial /usr/share/man/man1/iotrial.1.gz \
	/usr/share/bash-completion/completions/iotrial \
	/usr/share/zsh/vendor-completions/_iotrial \
	/usr/share/iotrial/schema/run.schema.json \
	/usr/share/iotrial/schema/experiment.schema.json \
	/lib/systemd/system/iotrial-revert.service; do
	check "the package installs $f" grep -qxF "$f" "$TEST_TMP/files"
done
check "...every schema of docs/schema" test \
	"$(grep -c '^/usr/share/iotrial/schema/.*\.json$' "$TEST_TMP/files")" = \
	"$(ls "$src"/docs/schema/*.json | wc -l)"
root=$TEST_TMP/root
dpkg-deb -x "$pkg" "$root"
out=$("$root/usr/bin/iotrial" --version 2>&1)
check "the packaged binary runs: $out" test "${out#iotrial }" != "$out"

# the boot unit
unit=$root/lib/systemd/system/iotrial-revert.service
prop() { sed -n "s/^$1=//p" "$unit"; }
check "it runs 'iotrial revert'" test "$(prop ExecStart)" = "/usr/bin/iotrial revert"
check "after the local file systems" grep -qw local-fs.target <<<"$(prop After)"
check "before sysinit.target (every ordinary service waits for it)" \
	grep -qw sysinit.target <<<"$(prop Before)"
check "without default dependencies, wanted by sysinit.target" \
	test "$(prop DefaultDependencies)" = no -a "$(prop WantedBy)" = sysinit.target
# verify it as installed: its ExecStart resolved in the package's root,
# its Documentation= page in the package's manual
MANPATH=$root/usr/share/man systemd-analyze verify --root="$root" \
	/lib/systemd/system/iotrial-revert.service >"$TEST_TMP/verify.out" 2>&1
rc=$?
sed 's/^/# systemd-analyze: /' "$TEST_TMP/verify.out"
check "systemd-analyze verify accepts it (rc=$rc)" \
	test $rc = 0 -a ! -s "$TEST_TMP/verify.out"
dpkg-deb -e "$pkg" "$TEST_TMP/control"
check "the package enables it (postinst: deb-systemd-helper enable)" \
	grep -q 'deb-systemd-helper.*enable.*iotrial-revert.service\|deb-systemd-helper.* iotrial-revert.service' \
	"$TEST_TMP/control/postinst"
check "...and does not start it on installation" \
	bash -c '! grep -q "deb-systemd-invoke .*start.*iotrial-revert" "$1"' _ \
	"$TEST_TMP/control/postinst"
