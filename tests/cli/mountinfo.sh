#!/usr/bin/env bash
# Which mount a target lives on, read from /proc/self/mountinfo, for the
# knobs (the atime knob remounts it), the device stack (info) and the
# block device checks (run -t DEV). Every mount here is made inside a
# private mount namespace, which takes them all away when it ends.
#   - a mount whose line has three optional fields (shared, master and
#     propagate_from, as inside a chroot or container) is not skipped in
#     favour of its parent
#   - a mount hidden by a later mount of a parent directory is not chosen
#   - a mount point with a space is decoded ("\040") everywhere
. "$(dirname "$0")/lib.sh"
need_root
command -v python3 >/dev/null || skip "needs python3"
command -v unshare >/dev/null || skip "needs unshare (util-linux)"
unshare -m --propagation private true 2>/dev/null ||
	skip "cannot make a private mount namespace here"
command -v mkfs.ext4 >/dev/null || skip "needs mkfs.ext4"

mkloop 32M || skip "no loop device"
loop=$LOOP
mkfs.ext4 -q -F "$loop" || skip "mkfs.ext4 failed"
export T=$TEST_TMP IOTRIAL loop

# Everything below runs in the namespace; its results land in files.
unshare -m --propagation private bash -s <<'NS' >"$T/ns.log" 2>&1
set -u
R=$T/root
mkdir -p "$R" "$T/base" "$T/x" "$T/c" "$T/d" "$T/a/b" "$T/my disk"

# A chroot of the root filesystem, where a mount's master peer group is
# out of sight: its line reads "shared:N master:M propagate_from:K".
mount --rbind / "$R"
mount -t proc proc "$R/proc"
mount -t tmpfs -o size=1m base "$R$T/base"
mount --make-shared "$R$T/base"
mount --bind "$R$T/base" "$T/c"
mount --make-slave "$T/c"
mount --make-shared "$T/c"
mount --bind "$T/c" "$T/d"
mount --make-slave "$T/d"
mount --make-shared "$T/d"
mount --bind "$T/d" "$R$T/x"
mkdir "$R$T/x/dir"
chroot "$R" cat /proc/self/mountinfo >"$T/chroot.mountinfo"
chroot "$R" "$IOTRIAL" knobs -t "$T/x/dir" --json >"$T/knobs3.json"
chroot "$R" "$IOTRIAL" info -t "$T/x/dir" --json >"$T/info3.json"

# /a/b mounted, then /a mounted over it: /a/b is hidden
mount -t tmpfs -o size=1m inner "$T/a/b"
mount -t tmpfs -o size=1m outer "$T/a"
mkdir "$T/a/b"
"$IOTRIAL" knobs -t "$T/a/b" --json >"$T/knobs_hidden.json"
"$IOTRIAL" info -t "$T/a/b" --json >"$T/info_hidden.json"

# a mount point with a space, and a block device mounted there
mount "$loop" "$T/my disk"
mkdir "$T/my disk/dir"
"$IOTRIAL" knobs -t "$T/my disk/dir" --json >"$T/knobs_space.json"
"$IOTRIAL" info -t "$T/my disk/dir" --json >"$T/info_space.json"
"$IOTRIAL" run seqwrite -t "$loop" --allow-destroy --size=1M --ios 4 \
	--no-store >"$T/run_mounted.out" 2>&1
echo "rc=$?" >>"$T/run_mounted.out"
NS

check "the chroot shows a line with three optional fields" \
	grep -qE " shared:[0-9]+ master:[0-9]+ propagate_from:[0-9]+ - tmpfs base " \
	"$T/chroot.mountinfo"
check "knobs: that mount, not its parent, holds the target" \
	test "$(json "$T/knobs3.json" 'o["mount"]')" = "$T/x"
check "info: the same mount" \
	test "$(json "$T/info3.json" 'o["stack"]["mount"]["target"]')" = "$T/x"

check "knobs: a mount hidden under a later parent mount is passed over" \
	test "$(json "$T/knobs_hidden.json" 'o["mount"]')" = "$T/a"
check "info: the visible mount, with its own source" \
	test "$(json "$T/info_hidden.json" 'o["stack"]["mount"]["source"]')" = outer

check "knobs: a mount point with a space is decoded" \
	test "$(json "$T/knobs_space.json" 'o["mount"]')" = "$T/my disk"
check "info: the same" \
	test "$(json "$T/info_space.json" 'o["stack"]["mount"]["target"]')" = "$T/my disk"
check "run -t DEV: a mounted device is refused (exit 2)" \
	grep -qx "rc=2" "$T/run_mounted.out"
check "...naming the mount point as it is, space and all" \
	grep -qF "is mounted on '$T/my disk'" "$T/run_mounted.out"

check "the namespace took its mounts along" \
	bash -c '! grep -qF "$1" /proc/self/mountinfo' _ "$T/"
