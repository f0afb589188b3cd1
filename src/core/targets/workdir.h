/*
 * Work directories of directory targets (workdir.c): made with a random
 * "iotrial.XXXXXX" name, held open, used only through descriptors, and
 * removed only while they are still the directory that was made. Work
 * files are reached only through the target_*_file() functions below,
 * which target.h gives its users; the rest is what target.c and
 * scratch.c share.
 */
#ifndef IOTRIAL_WORKDIR_H
#define IOTRIAL_WORKDIR_H

#include <sys/stat.h>
#include <sys/types.h>
#include "target-types.h"
#include "../../util/strbuf.h"

struct jrec;
struct undo_ctx;
struct undo_ops;

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
int target_stat_file(const struct target *t, const char *name, struct stat *st);

/* Empty and remove t's work directory, close its descriptors, free its
 * names. Nothing when t has none. */
void workdir_release(struct target *t);

/*
 * The journal's kind for a work directory ("work" records, session.h):
 * recovery removes the work directory of a run that is gone.
 */
extern const struct undo_ops workdir_undo_ops;

/*
 * For the undo kinds of target resources (the parts of a scratch target,
 * a work directory): say through ctx->log what undoing r came to, in
 * the words every such record gets: ret 0 names it with done ("deleted
 * scratch image"); -EPERM (what the record names is not something
 * iotrial makes, left alone) and a failure other than -ESTALE warn with
 * why. Returns ret.
 */
int target_undo_said(const struct jrec *r, int ret, const char *done,
		     const struct undo_ctx *ctx, const struct strbuf *why);

#endif
