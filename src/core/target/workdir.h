/*
 * Work directories of directory targets (workdir.c): made with a random
 * "iotrial.XXXXXX" name, held open, used only through descriptors, and
 * removed only while they are still the directory that was made. The
 * public side is in target.h; this is what target.c and scratch.c share.
 */
#ifndef IOTRIAL_WORKDIR_H
#define IOTRIAL_WORKDIR_H

#include "target.h"
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
 * Recovery of a "work" record left by a run that is gone: path must be a
 * plain absolute path ending in an "iotrial.XXXXXX" name, reached from
 * "/" without a link, still the directory of identity ident ("DEV:INO")
 * and owned by this user. Its work files (regular files with work file
 * names) are removed, then the directory. Returns as scratch_undo():
 * 0 removed; -ESTALE already gone or replaced; -EPERM not touched
 * (the record names something else, a link is in the way, or the
 * directory holds what iotrial does not make: why names it); other
 * -errno when removing failed.
 */
int workdir_undo(const char *path, const char *ident, struct strbuf *why);

#endif
