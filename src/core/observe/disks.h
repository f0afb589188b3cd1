/*
 * Which block devices to watch, from sysfs: the whole disks that have
 * done any I/O since boot (what `iotrial watch` shows when given no
 * names), or the names a user typed, checked against every block device
 * there (disks and partitions) and answered with the list when one is
 * not there. Every function takes the sysfs root ("/sys", or a fake
 * tree in tests).
 */
#ifndef IOTRIAL_DISKS_H
#define IOTRIAL_DISKS_H

#include "../../util/strbuf.h"

/* A growable list of owned device names. */
struct disk_names {
	char **v;
	unsigned nr, alloc;
};

/*
 * Append to out, in name order, the whole disks (SYSFS/block/NAME) whose
 * stat file shows reads, writes or requests in flight. Disks whose stat
 * cannot be read are left out.
 */
void disks_active(const char *sysfs_root, struct disk_names *out);

/*
 * Append the nr names to out when each is a block device
 * (SYSFS/class/block/NAME/stat is readable). Returns 0, or -ENOENT with
 * err "no block device 'NAME'; the devices here are: ..." for the first
 * that is not (an empty name or one with a '/' never is); out then holds
 * the names before it.
 */
int disks_check(const char *sysfs_root, const char *const *names, unsigned nr,
		struct disk_names *out, struct strbuf *err);

/* The stat file the sampler reads for device name, into out (replaced). */
void disks_stat_path(const char *sysfs_root, const char *name,
		     struct strbuf *out);

/* Free the names and empty the list. */
void disk_names_release(struct disk_names *l);

#endif
