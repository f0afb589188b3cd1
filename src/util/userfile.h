/*
 * Reading a file a user named: an import, a job file, a loadfile, a
 * host's result in a fleet merge. Such a path can name anything, and
 * reading a FIFO, a terminal or a device blocks or never ends. So every
 * reader here opens with O_NONBLOCK (an open of a FIFO returns at once),
 * checks that what it opened is a regular file and refuses anything
 * else with a sentence that says what it is, then reads at most a cap.
 *
 * userfile_read_beneath() is for a file that another file names (a job
 * file's include): the path is resolved below a directory, component by
 * component, following no symbolic link and no "..", so the other file
 * cannot send iotrial to read what its user did not mean.
 */
#ifndef IOTRIAL_USERFILE_H
#define IOTRIAL_USERFILE_H

#include <stddef.h>
#include "strbuf.h"

/*
 * Read the regular file at path into out (replacing what it held), at
 * most max_bytes (0: no cap). Returns 0; -EFBIG when it is bigger (out
 * then holds the first bytes); -EINVAL when path is not a regular file
 * (a FIFO, a directory, a device...); or -errno of open/read. err (may
 * be NULL) is set in every failure to "cannot read 'PATH': WHY", WHY
 * being "a FIFO, not a regular file", "larger than N MiB" or strerror.
 * Nothing is reported through errno.
 */
int userfile_read(const char *path, size_t max_bytes, struct strbuf *out,
		  struct strbuf *err);

/*
 * The same for fd, open already (with O_NONBLOCK, for a FIFO), named
 * name in messages: for a reader that opens with flags of its own
 * (O_NOFOLLOW). Closes fd.
 */
int userfile_read_fd(int fd, const char *name, size_t max_bytes,
		     struct strbuf *out, struct strbuf *err);

/*
 * The same for rel resolved below the directory dir (dir itself may be a
 * link; nothing under it is followed): rel must be relative, and none of
 * its components "..", or a symbolic link (-ELOOP), or missing (-ENOENT).
 * err names the file as dir/rel. Returns as userfile_read(); -EPERM with
 * err set when rel is absolute or climbs with "..".
 */
int userfile_read_beneath(const char *dir, const char *rel, size_t max_bytes,
			  struct strbuf *out, struct strbuf *err);

/* What st_mode is, for messages: "a FIFO", "a directory", ... */
const char *userfile_kind(unsigned mode);

#endif
