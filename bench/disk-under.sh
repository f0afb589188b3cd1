# The disk under a directory, for the benches (sourced, not run).
#
# disk_under DIR prints the name /proc/diskstats gives the whole disk
# that holds DIR's file system, or nothing (and fails) when it cannot
# tell. It goes by the file system's device number (st_dev), as
# 'iotrial info' does, through /sys/dev/block: no mount table needed, so
# it works in a chroot whose root is a plain directory, where findmnt
# finds no mount for anything. A partition gives its disk; a device
# mapper or md device over a single device gives that device's disk.
# Only where st_dev names no block device (btrfs, overlayfs, tmpfs) is
# the mount table's source asked.

# disk_of_sys SYSDIR: the whole disk of a /sys/devices/.../block/ entry
disk_of_sys() {
	local sys=$1 slaves
	while :; do
		sys=$(cd -P "$sys" 2>/dev/null && pwd) || return 1
		[ -e "$sys/partition" ] && sys=${sys%/*}
		slaves=("$sys"/slaves/*)
		if [ "${#slaves[@]}" != 1 ] || [ ! -e "${slaves[0]}" ]; then
			break
		fi
		sys=${slaves[0]}
	done
	echo "${sys##*/}"
}

disk_under() {
	local dev major minor src parent
	dev=$(stat -c %d -- "$1" 2>/dev/null) || return 1
	# Linux's dev_t: major in bits 8-19 and 32-43, minor in 0-7 and 20-31
	major=$(((dev >> 8 & 0xfff) | (dev >> 32 & ~0xfff)))
	minor=$(((dev & 0xff) | (dev >> 12 & ~0xff)))
	if [ -e "/sys/dev/block/$major:$minor" ]; then
		disk_of_sys "/sys/dev/block/$major:$minor"
		return
	fi
	src=$(findmnt -no SOURCE --target "$1" 2>/dev/null) || return 1
	case $src in /dev/*) ;; *) return 1 ;; esac
	parent=$(lsblk -no PKNAME "$src" 2>/dev/null | head -n1)
	echo "${parent:-${src##*/}}"
}
