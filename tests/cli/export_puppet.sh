#!/usr/bin/env bash
# iotrial export --format puppet: the manifest of a winning arm (file
# resources for sysctl.d and udev notifying an exec, the fstab line
# through an exec, since core Puppet has no mount type) passes `puppet
# parser validate` and compiles and runs with `puppet apply --noop` on
# this Debian's Puppet (no mount_core module); so does the manifest for
# a mount that fstab has no line for, which adds the line.
# parallel: a loop device and files of its own; ansible and puppet in check mode
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/knob-lib.bash"
. "$(dirname "$0")/export-lib.bash"
need_root
need_tool puppet puppet
DB=$TEST_TMP/results.db
mkloop 128M || skip "cannot make a loop device"
save_queue "$LOOP"
dev=${LOOP#/dev/}
mkmount "$LOOP" || skip "cannot make a file system on $LOOP"
root=$TEST_TMP/root
mkdir -p "$root/etc"
printf "%s %s ext4 defaults,relatime 0 2\n" "$LOOP" "$MNT" >"$root/etc/fstab"
gen_exp "$TEST_TMP/e.json" "$MNT" "$dev" 3 read_ahead_kb=128,4096 \
	atime=relatime,noatime
id=$(imp_exp "$TEST_TMP/e.json")
"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format puppet \
	-o "$TEST_TMP/m.pp" 2>"$TEST_TMP/err"
"$IOTRIAL" export --set vm.dirty_background_ratio=7 --set "sysctl:vm.swappiness=10" \
	--format puppet -o "$TEST_TMP/s.pp" 2>>"$TEST_TMP/err"
check "manifests written" test -s "$TEST_TMP/m.pp" -a -s "$TEST_TMP/s.pp"
check "the udev file notifies an exec" grep -q "notify  => Exec\['iotrial-udev'\]" "$TEST_TMP/m.pp"
check "no mount resource: core Puppet has none" test -z "$(grep -n '^  mount {' "$TEST_TMP/m.pp")"
check "an exec changes the fstab line to the new options" \
	grep -q "environment => \['IOTRIAL_MP=$MNT', 'IOTRIAL_OPTS=defaults,noatime'\]," "$TEST_TMP/m.pp"
check "and notifies the remount" grep -q "notify      => Exec\['iotrial-remount'\]" "$TEST_TMP/m.pp"
# a mount fstab has no line for: the manifest adds it
printf 'UUID=1234 / ext4 defaults 0 1\n' >"$root/etc/fstab"
"$IOTRIAL" export "$id" --db "$DB" --root "$root" --format puppet \
	-o "$TEST_TMP/n.pp" 2>>"$TEST_TMP/err"
rc=$?
check "no fstab line for the mount: a manifest all the same (rc=$rc)" test $rc = 0
check "it says fstab has no line and adds it" \
	grep -q "has no line that mounts '$MNT'" "$TEST_TMP/n.pp"
check "the line to add is in the exec's environment" \
	grep -qP "'IOTRIAL_LINE=\Q$LOOP\E\t\Q$MNT\E\text4\tdefaults,noatime\t0\t2'" "$TEST_TMP/n.pp"
check "the sysctl.d file notifies an exec" grep -q "notify  => Exec\['iotrial-sysctl'\]" "$TEST_TMP/s.pp"
check "both sysctls are in it" grep -q "vm.swappiness = 10" "$TEST_TMP/s.pp"
export HOME=$TEST_TMP
pp=(--confdir "$TEST_TMP/puppet" --vardir "$TEST_TMP/puppet/var" \
	--codedir "$TEST_TMP/puppet/code")
for m in m s n; do
	puppet parser validate "${pp[@]}" \
		"$TEST_TMP/$m.pp" >"$TEST_TMP/$m.out" 2>&1
	rc=$?
	check "$m.pp: puppet parser validate (rc=$rc)" test $rc = 0
	[ $rc = 0 ] || sed 's/^/#   /' "$TEST_TMP/$m.out" | tail -5
	# compiled and run in noop mode: an unknown resource type fails
	# here, not in the parser; --detailed-exitcodes: 0 or 2 is a run
	# without failures (2: it would change something)
	puppet apply --noop --detailed-exitcodes --color=false "${pp[@]}" \
		"$TEST_TMP/$m.pp" >"$TEST_TMP/$m.apply" 2>&1
	rc=$?
	check "$m.pp: puppet apply --noop (rc=$rc)" test $rc = 0 -o $rc = 2
	check "$m.pp: no resource type is unknown" \
		test -z "$(grep -n 'Unknown resource type' "$TEST_TMP/$m.apply")"
	[ $rc = 0 ] || [ $rc = 2 ] || grep -v Facter "$TEST_TMP/$m.apply" |
		sed 's/^/#   /' | tail -5
done
check "the fstab exec was evaluated in noop" \
	grep -q "Exec\[iotrial-fstab\]/returns: current_value 'notrun', should be \['0'\] (noop)" "$TEST_TMP/m.apply"
# run_exec PP FSTAB: run the iotrial-fstab exec of manifest PP (its
# command between two runs of its unless) with its environment, on the
# file FSTAB instead of /etc/fstab; prints the two unless statuses
run_exec() {
	python3 - "$@" <<'PY'
import os, re, subprocess, sys
pp, fstab = sys.argv[1], sys.argv[2]
text = open(pp).read()
body = text[text.index("exec { 'iotrial-fstab':"):]
body = body[:body.index("\n  }\n")]
def unq(s):
    return re.sub(r"\\(['\\])", r"\1", s)
q = r"'((?:[^'\\]|\\.)*)'"
cmd = unq(re.search(r"command +=> " + q, body).group(1))
unless = unq(re.search(r"unless +=> " + q, body).group(1))
env = dict(os.environ)
for kv in re.findall(q, re.search(r"environment => \[(.*)\],", body).group(1)):
    k, v = unq(kv).split("=", 1)
    env[k] = v
cmd, unless = (c.replace("/etc/fstab", fstab) for c in (cmd, unless))
before = subprocess.run(unless, shell=True, env=env).returncode
subprocess.run(cmd, shell=True, env=env, check=True)
print(before, subprocess.run(unless, shell=True, env=env).returncode)
PY
}
printf '# fstab\nproc /proc proc defaults 0 0\n%s %s ext4 defaults,relatime 0 2\n' \
	"$LOOP" "$MNT" >"$TEST_TMP/fstab.m"
check "m.pp's exec: unless says to run, then not" \
	test "$(run_exec "$TEST_TMP/m.pp" "$TEST_TMP/fstab.m")" = "1 0"
check "m.pp's exec changed the options of the one line" \
	test "$(grep -c . "$TEST_TMP/fstab.m")" = 3 -a \
	"$(awk -v m="$MNT" '$2 == m { print $4 }' "$TEST_TMP/fstab.m")" = defaults,noatime
check "findmnt --verify takes it" \
	findmnt --verify --tab-file "$TEST_TMP/fstab.m" >/dev/null 2>&1
printf 'UUID=1234 / ext4 defaults 0 1\n' >"$TEST_TMP/fstab.n"
check "n.pp's exec: unless says to run, then not" \
	test "$(run_exec "$TEST_TMP/n.pp" "$TEST_TMP/fstab.n")" = "1 0"
check "n.pp's exec added the line" \
	grep -qP "^\Q$LOOP\E\t\Q$MNT\E\text4\tdefaults,noatime\t0\t2$" "$TEST_TMP/fstab.n"
check "noop changed nothing" test ! -e /etc/sysctl.d/60-iotrial.conf -a \
	! -e /etc/udev/rules.d/60-iotrial.rules
check "noop left fstab as it was" test "$(cat "$root/etc/fstab")" = "UUID=1234 / ext4 defaults 0 1"
