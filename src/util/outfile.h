/*
 * Writing a file a user named: -o FILE, --json=FILE, --report FILE, a
 * trace, a unit under --root. iotrial often runs as root, and such a
 * path can name anything: a block device (a trace header written over
 * its file system's super block), a FIFO (an open that waits for a
 * reader forever), a link another user left in /tmp (the output lands
 * on whatever it points to). So every writer of a user-named file goes
 * through here, and:
 *
 *  - only a regular file is written: a name that is a block or
 *    character device, a FIFO, a socket or a directory is refused,
 *    whatever --force says (--force replaces a file, nothing else);
 *  - a symbolic link (the last component) is neither written through
 *    nor replaced: refused, so the output never lands elsewhere than
 *    the name given and a link someone made stays what it was;
 *  - an existing regular file is replaced only when the caller says so
 *    (OUTFILE_REPLACE: --force, or the contract of --json=FILE);
 *  - a whole output is written to a temporary file beside the name and
 *    renamed onto it at the end (outfile_commit()), so a reader sees the
 *    old file or the new one whole and a failure leaves what was there;
 *    a stream that must be readable while it grows (a trace being
 *    recorded, watch's JSON lines) is written in place
 *    (OUTFILE_IN_PLACE).
 *
 * The kind is looked at (lstat) before anything is opened, since the
 * open of some devices does something; what is then opened is checked
 * again (O_NOFOLLOW, O_NONBLOCK, fstat), so a name swapped meanwhile
 * can neither redirect nor block the write.
 */
#ifndef IOTRIAL_OUTFILE_H
#define IOTRIAL_OUTFILE_H

#include <stddef.h>
#include <sys/types.h>
#include "strbuf.h"

enum outfile_flags {
	OUTFILE_REPLACE = 1 << 0,  /* an existing regular file is replaced */
	OUTFILE_IN_PLACE = 1 << 1, /* write the file itself, no temporary */
};

/* A file being written: outfile_open(), write to fd, outfile_commit(). */
struct outfile {
	int fd;		/* write here; -1 once closed */
	int dir_fd;	/* the directory holding the file */
	char *path;	/* as given, for messages */
	char *base;	/* its last component, in dir_fd */
	char *tmp;	/* the temporary in dir_fd, NULL when in place */
	unsigned flags; /* enum outfile_flags */
};

/*
 * Could path be written with flags, as outfile_open() would? Creates and
 * opens nothing: for a command to refuse a bad output before its work.
 * 0, or as outfile_open() fails.
 */
int outfile_check(const char *path, unsigned flags, struct strbuf *err);

/*
 * Open path for writing (mode 0644 for a new file; a replaced one keeps
 * its mode). Returns 0 with o->fd ready, or with err set to one
 * sentence naming path: -EEXIST "'PATH' exists; give another file, or
 * --force to replace it" (without OUTFILE_REPLACE); -ELOOP for a
 * symbolic link; -EINVAL for anything not a regular file (its kind
 * named, "a block device, not a regular file") or an empty name;
 * -errno of the file system otherwise ("Read-only file system"). On
 * failure nothing was made and o needs no release.
 */
int outfile_open(struct outfile *o, const char *path, unsigned flags,
		 struct strbuf *err);

/*
 * Finish: flush and close, and rename the temporary onto the name (a
 * name taken meanwhile is refused with -EEXIST unless OUTFILE_REPLACE).
 * 0 or -errno with err set; either way o is released.
 */
int outfile_commit(struct outfile *o, struct strbuf *err);

/*
 * Close o without finishing: a temporary is removed (what was at the
 * name stays); a file written in place stays as far as it was written.
 * NULL and a released o are fine.
 */
void outfile_release(struct outfile *o);

/* The whole of data[0..len) to path as above, in one call. */
int outfile_write(const char *path, const void *data, size_t len,
		  unsigned flags, struct strbuf *err);

#endif
