/*
 * A smallfiles client replaying a dbench load file: every line, in
 * order, as fast as it can, from the first again when it reaches the
 * end, in its own directory. Each SMB operation becomes the POSIX calls
 * a file server would make for it (the mapping below, one function per
 * operation). The status a line expects is honoured: an operation the
 * trace saw fail must fail here too, and one that ends otherwise is
 * counted as an error of its kind, not fatal, since a trace replayed on
 * another filesystem drifts a little. What is fatal is the filesystem
 * giving up: full, read-only, out of descriptors.
 *
 * Bytes are counted twice: what read() and write() moved (the workload's
 * logical bytes, for device truth) and, as dbench does, the sizes the
 * ReadX and WriteX lines ask for, for its MB/s.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "smallfiles-int.h"
#include "../../util/atfile.h"
#include "../../util/clock.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A ReadX or WriteX moved another number of bytes than the trace. */
#define SHORT_IO (-1)

/* The replay state of one client. */
struct replay {
	struct sf_client *c;
	const struct loadfile *lf;
	int *fds; /* by renumbered handle; -1 when closed */
	int timed;
};

/* The fd behind op's handle, or -1 with errno EBADF. */
static int handle_fd(struct replay *rp, const struct lf_op *op)
{
	int fd = rp->fds[op->handle];

	if (fd < 0)
		errno = EBADF;
	return fd;
}

/* Each returns 0 on success, else an errno (SHORT_IO for a transfer of
 * another size). */

static int do_ntcreatex(struct replay *rp, const struct lf_op *op)
{
	const char *path = lf_str(rp->lf, op->path);
	int root = rp->c->root_fd, fd, flags = O_RDWR | O_CLOEXEC;
	int *slot = &rp->fds[op->handle];

	if (op->options & LF_FILE_DIRECTORY_FILE) {
		if (op->disposition != LF_FILE_OPEN &&
		    op->disposition != LF_FILE_OVERWRITE &&
		    mkdirat(root, path, 0755) < 0 &&
		    (errno != EEXIST || op->disposition == LF_FILE_CREATE))
			return errno;
		fd = openat(root, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		switch (op->disposition) {
		case LF_FILE_SUPERSEDE:
		case LF_FILE_OVERWRITE_IF:
			flags |= O_CREAT | O_TRUNC;
			break;
		case LF_FILE_CREATE:
			flags |= O_CREAT | O_EXCL;
			break;
		case LF_FILE_OPEN_IF:
			flags |= O_CREAT;
			break;
		case LF_FILE_OVERWRITE:
			flags |= O_TRUNC;
			break;
		default:
			break;
		}
		fd = openat(root, path, flags, 0644);
		if (fd < 0 && errno == EISDIR &&
		    !(op->options & LF_FILE_NON_DIRECTORY_FILE))
			fd = openat(root, path,
				    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	if (fd < 0)
		return errno;
	if (!op->expect_ok) {
		close(fd); /* it should have failed: keep nothing */
		return 0;
	}
	/* a failed open leaves the handle's file alone; a new one that
	 * takes a handle still open replaces it */
	if (*slot >= 0)
		close(*slot);
	*slot = fd;
	return 0;
}

static int do_close(struct replay *rp, const struct lf_op *op)
{
	int fd = handle_fd(rp, op);

	if (fd < 0)
		return errno;
	rp->fds[op->handle] = -1;
	return close(fd) < 0 ? errno : 0;
}

static int do_rw(struct replay *rp, const struct lf_op *op)
{
	struct sf_client *c = rp->c;
	int d = op->kind == LF_WRITEX;
	int fd = handle_fd(rp, op);
	ssize_t n;

	if (fd < 0)
		return errno;
	if (d)
		n = pwrite(fd, c->buf, op->size, (off_t)op->offset);
	else
		n = pread(fd, c->buf, op->size, (off_t)op->offset);
	if (n < 0)
		return errno;
	if (rp->timed) {
		c->ios[d]++;
		c->bytes[d] += (uint64_t)n;
		c->dbench_bytes += op->size;
	}
	return (uint64_t)n == op->ret_size ? 0 : SHORT_IO;
}

static int do_lock(struct replay *rp, const struct lf_op *op)
{
	struct flock fl;
	int fd = handle_fd(rp, op);

	if (fd < 0)
		return errno;
	memset(&fl, 0, sizeof(fl));
	fl.l_type = op->kind == LF_LOCKX ? F_WRLCK : F_UNLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)op->offset;
	fl.l_len = (off_t)op->size;
	/* each client has its own files: a lock never has to wait */
	return fcntl(fd, F_SETLK, &fl) < 0 ? errno : 0;
}

static int do_sfileinfo(struct replay *rp, const struct lf_op *op)
{
	struct timespec ts[2];
	struct stat st;
	int fd = handle_fd(rp, op);

	if (fd < 0 || fstat(fd, &st) < 0)
		return errno;
	/* set the times, as a client saving a file's attributes does */
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	ts[0].tv_sec -= 10;
	ts[1].tv_sec -= 12;
	return futimens(fd, ts) < 0 ? errno : 0;
}

/* FIND_FIRST: list the directory, matching the pattern without case;
 * found when an entry matches ("." matches "*", as on a server). */
static int do_find(struct replay *rp, const struct lf_op *op)
{
	const char *pattern = lf_str(rp->lf, op->path2);
	struct dirent *de;
	unsigned found = 0;
	DIR *d;
	int fd;

	fd = openat(rp->c->root_fd, lf_str(rp->lf, op->path),
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return e;
	}
	while ((!op->size || found < op->size) && (de = readdir(d)))
		found += !fnmatch(pattern, de->d_name, FNM_CASEFOLD);
	closedir(d);
	return found ? 0 : ENOENT;
}

static int do_mkdir(struct replay *rp, const struct lf_op *op)
{
	struct stat st;
	const char *path = lf_str(rp->lf, op->path);

	if (mkdirat(rp->c->root_fd, path, 0755) == 0)
		return 0;
	/* "\clients" of the loop before: there, as the line wants */
	if (errno == EEXIST && !fstatat(rp->c->root_fd, path, &st, 0) &&
	    S_ISDIR(st.st_mode))
		return 0;
	return errno;
}

/* One operation; 0 or an errno. */
static int do_op(struct replay *rp, const struct lf_op *op)
{
	const char *path = lf_str(rp->lf, op->path);
	int root = rp->c->root_fd, fd, ret;
	struct statvfs sv;
	struct stat st;

	switch (op->kind) {
	case LF_NTCREATEX:
		return do_ntcreatex(rp, op);
	case LF_CLOSE:
		return do_close(rp, op);
	case LF_RENAME:
		return renameat(root, path, root, lf_str(rp->lf, op->path2)) < 0
			   ? errno
			   : 0;
	case LF_UNLINK:
		return unlinkat(root, path, 0) < 0 ? errno : 0;
	case LF_DELTREE:
		ret = atfile_remove_tree(root, path);
		return ret == -ENOENT ? 0 : -ret;
	case LF_RMDIR:
		return unlinkat(root, path, AT_REMOVEDIR) < 0 ? errno : 0;
	case LF_MKDIR:
		return do_mkdir(rp, op);
	case LF_QPATHINFO:
		return fstatat(root, path, &st, 0) < 0 ? errno : 0;
	case LF_QFILEINFO:
		fd = handle_fd(rp, op);
		return fd < 0 || fstat(fd, &st) < 0 ? errno : 0;
	case LF_QFSINFO:
		return fstatvfs(root, &sv) < 0 ? errno : 0;
	case LF_SFILEINFO:
		return do_sfileinfo(rp, op);
	case LF_FIND:
		return do_find(rp, op);
	case LF_WRITEX:
	case LF_READX:
		return do_rw(rp, op);
	case LF_LOCKX:
	case LF_UNLOCKX:
		return do_lock(rp, op);
	case LF_FLUSH:
		fd = handle_fd(rp, op);
		if (fd < 0 || fsync(fd) < 0)
			return errno;
		if (rp->timed)
			rp->c->fsyncs++;
		return 0;
	default:
		return EINVAL;
	}
}

static const char *op_verb(enum lf_kind k)
{
	switch (k) {
	case LF_WRITEX:
		return "write";
	case LF_READX:
		return "read";
	case LF_FLUSH:
		return "fsync";
	default:
		return lf_kind_name(k);
	}
}

int sf_replay_loop(struct sf_client *c)
{
	struct replay rp;
	const struct lf_op *ops = c->sh->st->lf.ops;
	unsigned i = 0, nr = c->sh->st->lf.nr_ops, h;
	int ret = 0;

	rp.c = c;
	rp.lf = &c->sh->st->lf;
	rp.fds = xmalloc((rp.lf->nr_handles + 1) * sizeof(*rp.fds));
	for (h = 0; h <= rp.lf->nr_handles; h++)
		rp.fds[h] = -1;
	while (sf_client_next(c, &rp.timed)) {
		const struct lf_op *op = &ops[i];
		uint64_t t0 = clock_now_ns();
		int e = do_op(&rp, op);

		if (e > 0 && sf_errno_fatal(e)) {
			ret = sf_client_fail(c, e, op_verb(op->kind),
					     lf_str(rp.lf, op->path));
			break;
		}
		sf_client_done(c, op->kind, t0, rp.timed);
		if (rp.timed && (e == 0) != op->expect_ok) {
			struct sf_opstat *s = &c->ops[op->kind];

			if (!s->errors++) {
				s->first_line = op->line;
				s->first_errno = e;
			}
		}
		if (++i == nr)
			i = 0;
	}
	for (h = 0; h < rp.lf->nr_handles; h++)
		if (rp.fds[h] >= 0)
			close(rp.fds[h]);
	free(rp.fds);
	return ret;
}
