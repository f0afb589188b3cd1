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

#endif
