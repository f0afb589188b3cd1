/*
 * Work directories of directory targets (workdir.c): made with a random
 * "iotrial.XXXXXX" name, held open, used only through descriptors, and
 * removed only while they are still the directory that was made. The
 * public side is in target.h; this is what target.c and scratch.c share.
 */
#ifndef IOTRIAL_WORKDIR_H
#define IOTRIAL_WORKDIR_H

#include "target.h"
#include "../journal/session.h"
#include "../../util/strbuf.h"

/* Empty and remove t's work directory, close its descriptors, free its
 * names. Nothing when t has none. */
void workdir_release(struct target *t);

/*
 * Is path absolute and plain: no empty, "." or ".." component and no
 * trailing slash? Paths read back from the journal must be, so that
 * what they name is exactly what was written, not a way around it.
 */
int workdir_path_plain(const char *path);

/*
 * Open the directory at plain absolute path, component by component
 * from "/", following no symbolic link on the way (O_NOFOLLOW at every
 * step). The fd, or -errno: -ENOENT gone, -ELOOP or -ENOTDIR when a
 * component is a link or not a directory.
 */
int workdir_open_nofollow(const char *path);

/*
 * The journal's kind for a work directory ("work" records, session.h):
 * recovery removes the work directory of a run that is gone.
 */
extern const struct undo_ops workdir_undo_ops;

/*
 * What the kinds of target resources (the parts of a scratch target, a
 * work directory) share. target_undo_said(): say through ctx->log what
 * undoing r came to, in the words every such record gets: ret 0 names
 * it with done ("deleted scratch image"); -EPERM (what the record names
 * is not something iotrial makes, left alone) and a failure other than
 * -ESTALE warn with why. Returns ret. target_undo_describe(): as
 * undo_ops.describe, "scratch WHAT 'A'", and in the listing B too.
 */
int target_undo_said(const struct jrec *r, int ret, const char *done,
		     const struct undo_ctx *ctx, const struct strbuf *why);
void target_undo_describe(const struct journal *j, const struct jrec *r,
			  enum undo_view view, struct strbuf *out);

#endif
