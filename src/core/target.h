/*
 * Targets: where a workload runs. A directory (we work inside a private
 * mkdtemp subdirectory and remove only that), a block device (refused
 * when mounted or when it carries a filesystem or partition signature,
 * unless the caller allows destruction), or scratch:SIZE[:FS] (a loop
 * device on a sparse file; see scratch.h).
 */
#ifndef IOTRIAL_TARGET_H
#define IOTRIAL_TARGET_H

#include <stdint.h>
#include <sys/types.h>
#include "../util/strbuf.h"

enum target_kind {
	TARGET_DIR,
	TARGET_BLOCKDEV,
	TARGET_SCRATCH,
};

enum target_flags {
	TARGET_ALLOW_DESTROY = 1 << 0, /* write to a device with data on it */
	TARGET_NO_WORKDIR = 1 << 1,    /* inspect only: create nothing */
};

struct target {
	enum target_kind kind;
	char *spec;                   /* as the user gave it */
	char *path;                   /* the directory or the device node */
	char *workdir;                /* our mkdtemp dir (dir targets) or NULL */
	dev_t dev;                    /* st_dev of the dir, st_rdev of a device */
	unsigned logical_block_bytes; /* alignment O_DIRECT needs */
	uint64_t capacity_bytes;      /* device size (block device targets) */
	unsigned flags;               /* enum target_flags */
	void *scratch;                /* scratch state, owned by scratch.c */
};

/*
 * Open spec as a target. For a directory, creates workdir inside it
 * (unless TARGET_NO_WORKDIR). Returns 0, or -errno with err set: the
 * path does not exist, is not a directory or block device, the device is
 * mounted or holds a signature (without TARGET_ALLOW_DESTROY).
 */
int target_open(struct target *t, const char *spec, unsigned flags,
		struct strbuf *err);

/*
 * Check that bytes more can be laid out: free space in the filesystem
 * for a directory, capacity for a device. -ENOSPC with err saying how
 * much is needed and how much there is.
 */
int target_check_space(const struct target *t, uint64_t bytes,
		       struct strbuf *err);

/* Path of work file name inside the target (dir targets), into out. */
void target_file_path(const struct target *t, const char *name,
		      struct strbuf *out);

/* Remove the work directory (only files we made) and free the contents.
 * Safe on a zeroed or NULL target. */
void target_release(struct target *t);

/* Query a block device by node path (sysfs-free: ioctls). Exposed for
 * tests and info. */
int target_blockdev_geometry(const char *path, unsigned *out_lbs,
			     uint64_t *out_bytes, struct strbuf *err);

#endif
