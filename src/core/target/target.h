/*
 * Targets: where a workload runs. A directory (we work inside a private
 * "iotrial.XXXXXX" subdirectory and remove only that), a block device
 * (refused when mounted or when it carries a filesystem or partition
 * signature, unless the caller allows destruction), or scratch:SIZE[:FS]
 * (a loop device on a sparse file; see scratch.h).
 *
 * The work directory is held open from the moment it is made: work files
 * are created, opened and removed relative to that descriptor, never by
 * path and never through a symbolic link, so whoever can write to the
 * target directory cannot make iotrial touch anything outside its own
 * directory by renaming it or putting a link in its place.
 */
#ifndef IOTRIAL_TARGET_H
#define IOTRIAL_TARGET_H

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include "blockdev.h"
#include "../../util/strbuf.h"

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
	char *workdir;                /* our work dir's path (messages) or NULL */
	int dir_fd;                   /* the dir holding it: open iff workdir */
	int work_fd;                  /* the work dir itself: open iff workdir */
	char *work_name;              /* its name in dir_fd ("iotrial.Ab3dE9") */
	dev_t work_dev;               /* its identity when made */
	ino_t work_ino;
	uint64_t work_seq;            /* its journal record, 0: not journaled */
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
 * mounted or holds a signature (without TARGET_ALLOW_DESTROY). stop (may
 * be NULL) is the caller's signal flag: when it becomes non-zero during
 * a long set-up (a scratch target's mkfs), what was made is torn down
 * and -EINTR returned.
 */
int target_open(struct target *t, const char *spec, unsigned flags,
		volatile int *stop, struct strbuf *err);

/*
 * Check that bytes more can be laid out: free space in the filesystem
 * for a directory, capacity for a device. -ENOSPC with err saying how
 * much is needed and how much there is.
 */
int target_check_space(const struct target *t, uint64_t bytes,
		       struct strbuf *err);

/* Path of work file name inside the target (dir targets), into out: for
 * messages only; work files are reached through the functions below. */
void target_file_path(const struct target *t, const char *name,
		      struct strbuf *out);

/*
 * Make the work directory inside parent (an absolute path without
 * symbolic links) and hold it open: sets workdir, dir_fd, work_fd and
 * the identity. For scratch.c, which makes it inside its mount. 0, or
 * -errno with err set.
 */
int target_make_workdir(struct target *t, const char *parent,
			struct strbuf *err);

/*
 * Is name a work file name: one path component of letters, digits and
 * "._-", not starting with a dot? Only such names are created, and only
 * such regular files are removed when a crashed run is cleaned up.
 */
int target_work_name_ok(const char *name);

/*
 * Open work file name in the work directory: openat() on work_fd with
 * O_NOFOLLOW and O_CLOEXEC added to flags (pass O_CREAT | O_EXCL for a
 * file that must be new). The fd, or -errno: -EINVAL for a bad name or a
 * target without a work directory, -ELOOP for a symbolic link.
 */
int target_open_file(const struct target *t, const char *name, int flags,
		     mode_t mode);
/* Remove work file name (unlinkat on work_fd); 0 or -errno. */
int target_unlink_file(const struct target *t, const char *name);
/* lstat work file name (fstatat on work_fd, no link followed). */
int target_stat_file(const struct target *t, const char *name,
		     struct stat *st);

/*
 * Remove the work directory and free the contents. The directory is
 * emptied through the held descriptor and removed from its parent only
 * while its name there is still the directory we made (device and inode
 * checked). Safe on a zeroed or NULL target.
 */
void target_release(struct target *t);


#endif
