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
 *
 * struct target is in target-types.h, the work directory's functions
 * (target_open_file() and its siblings) in workdir.h: both are included
 * here, and users need only this header.
 */
#ifndef IOTRIAL_TARGET_H
#define IOTRIAL_TARGET_H

#include <stdint.h>
#include "target-types.h"
#include "blockdev.h"
#include "workdir.h"
#include "../../util/strbuf.h"

/*
 * Open spec as a target. For a directory, creates workdir inside it
 * (unless TARGET_NO_WORKDIR). Returns 0, or -errno with err set: the
 * path does not exist, is not a directory or block device, the device is
 * mounted or holds a signature (without TARGET_ALLOW_DESTROY; with
 * TARGET_READS_ONLY such a device is opened and t->holds says what is
 * on it). stop (may be NULL) is the caller's signal flag: when it
 * becomes non-zero during a long set-up (a scratch target's mkfs), what
 * was made is torn down and -EINTR returned.
 */
int target_open(struct target *t, const char *spec, unsigned flags,
		volatile int *stop, struct strbuf *err);

/*
 * Open t as a twin of the scratch target first: another scratch target
 * of the same spec and flags, made in first's journal session (compare
 * --duet runs its arms at once, one on each). -EINVAL when first is not
 * a scratch target; else as target_open().
 */
int target_open_twin(struct target *t, const struct target *first,
		     volatile int *stop, struct strbuf *err);

/*
 * Check that bytes more can be laid out: free space in the filesystem
 * for a directory, capacity for a device. -ENOSPC with err saying how
 * much is needed and how much there is, and then what to do (advice,
 * e.g. "lower --size or --jobs, or pick another target"; NULL: "pick
 * another target").
 */
int target_check_space(const struct target *t, uint64_t bytes,
		       const char *advice, struct strbuf *err);

/* Path of work file name inside the target (dir targets), into out: for
 * messages only; work files are reached through workdir.h's functions. */
void target_file_path(const struct target *t, const char *name,
		      struct strbuf *out);

/*
 * A device opened with TARGET_READS_ONLY that holds data (t->holds) is
 * read only: -EEXIST with err saying what it holds and that what (a
 * workload's name) writes. 0 on any other target.
 */
int target_refuse_writes(const struct target *t, const char *what,
			 struct strbuf *err);

/*
 * Remove the work directory and free the contents. The directory is
 * emptied through the held descriptor and removed from its parent only
 * while its name there is still the directory we made (device and inode
 * checked). Safe on a zeroed or NULL target.
 */
void target_release(struct target *t);

#endif
