/*
 * Files under a root directory, for writing configuration where the
 * system reads it (/etc/sysctl.d, /etc/udev/rules.d, /etc/fstab) or
 * under a staging tree (--root DIR). The root is opened once and every
 * component below it is opened relative to the one above with
 * O_NOFOLLOW, so a link planted in the tree cannot send the write
 * elsewhere. A file is replaced whole: the new text goes to a temporary
 * file beside it, fsync'd, the old file is kept as a backup (a hard
 * link, so it is exactly what was there) and the new one renamed over
 * it.
 */
#ifndef IOTRIAL_ATFILE_H
#define IOTRIAL_ATFILE_H

#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"

/*
 * Read root/rel (rel relative, "etc/fstab") into out, at most max_bytes.
 * 0, -ENOENT when it (or root) does not exist, or -errno, err set.
 */
int atfile_read(const char *root, const char *rel, struct strbuf *out,
		size_t max_bytes, struct strbuf *err);

/*
 * Replace root/rel with len bytes of data, mode for a new file (an
 * existing file keeps its mode). Missing directories below root are
 * made (0755); root itself must exist (-ENOENT). When rel existed,
 * backup receives the backup's path (root/rel.iotrial-STAMP.bak, a name
 * that no *.conf or *.rules glob reads); else it is left empty. Returns
 * 0 or -errno with err set; on failure root/rel is what it was.
 */
int atfile_replace(const char *root, const char *rel, const char *data,
		   size_t len, mode_t mode, struct strbuf *backup,
		   struct strbuf *err);

/* Does root/rel exist (without following a final link)? 1, 0. */
int atfile_exists(const char *root, const char *rel);

/* How deep atfile_empty_dir() and atfile_remove_tree() go. */
#define ATFILE_TREE_DEPTH 64

struct stat;

/*
 * For atfile_empty_dir(): should the entry name (lstat in st) of the
 * directory being emptied stay? 1 keeps it, 0 removes it.
 */
typedef int (*atfile_keep_fn)(const char *name, const struct stat *st,
			      void *arg);

/*
 * Remove what is in the directory open as fd (fd stays open, and the
 * directory itself stays). When keep is given, each entry directly in
 * it that keep() returns 1 for stays. Files and links are unlinked (a
 * link itself, never what it points to); a directory is emptied the
 * same way, opened without following a link, and removed. Nothing on
 * another file system than fd's is entered (-EXDEV: a mount inside is
 * left alone), nor anything deeper than ATFILE_TREE_DEPTH (-ELOOP).
 * What is gone meanwhile is no error. 0, or the first -errno; it goes
 * on past a failure, removing what it can.
 */
int atfile_empty_dir(int fd, atfile_keep_fn keep, void *arg);

/*
 * Remove name (a path relative to dirfd) with all it holds, as
 * atfile_empty_dir() removes a directory's entries: on dirfd's file
 * system only. 0, -ENOENT when it is not there, or the first -errno.
 */
int atfile_remove_tree(int dirfd, const char *name);

/*
 * Is path absolute and plain: no empty, "." or ".." component and no
 * trailing slash? Paths read back from the journal must be, so that
 * what they name is exactly what was written, not a way around it.
 */
int atfile_path_plain(const char *path);

/*
 * Open the directory at plain absolute path, component by component
 * from "/", following no symbolic link on the way (O_NOFOLLOW at every
 * step). The fd, or -errno: -ENOENT gone, -ELOOP or -ENOTDIR when a
 * component is a link or not a directory.
 */
int atfile_open_nofollow(const char *path);

#endif
