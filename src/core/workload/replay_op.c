/*
 * One recorded call done again (replay-int.h): the recorded descriptors
 * mapped to ours, the calls by name beneath the work directory, and
 * rp_do_op(), which both the threads' loop (replay_run.c) and the
 * io_uring rings (replay_uring.c) call.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "workload.h"
#include "replay-int.h"
#include "../trace/fidelity.h"
#include "../trace/trace_summary.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The row of recorded (rfd, file), or NULL; st->lock held. */
static struct rp_fd *fd_row(struct rp_state *st, int32_t rfd, uint32_t file)
{
	size_t i;

	for (i = 0; i < st->nr_fds; i++)
		if (st->fds[i].refs && st->fds[i].rfd == rfd &&
		    st->fds[i].file == file)
			return &st->fds[i];
	return NULL;
}

/* Note that recorded (rfd, file) is our fd now (a second open of the
 * same pair shares the first's). */
static void fd_opened(struct rp_state *st, int32_t rfd, uint32_t file, int fd)
{
	struct rp_fd *row;
	size_t i;

	pthread_mutex_lock(&st->lock);
	row = fd_row(st, rfd, file);
	if (row) {
		row->refs++;
		close(fd);
		pthread_mutex_unlock(&st->lock);
		return;
	}
	for (i = 0; i < st->nr_fds && st->fds[i].refs; i++)
		;
	if (i == st->nr_fds) {
		ALLOC_GROW(st->fds, st->nr_fds + 1, st->alloc_fds);
		st->nr_fds++;
	}
	st->fds[i].rfd = rfd;
	st->fds[i].file = file;
	st->fds[i].fd = fd;
	st->fds[i].refs = 1;
	pthread_mutex_unlock(&st->lock);
}

/*
 * Our fd for e's recorded descriptor; one opened before the trace is
 * opened now (counted apart: the trace has no open of it). -1 when the
 * file cannot be replayed.
 */
int rp_fd_of(struct rp_state *st, const struct trace_event *e)
{
	const struct trace_file *f = trace_file_get(&st->t, e->file);
	struct rp_fd *row;
	int fd;

	pthread_mutex_lock(&st->lock);
	row = fd_row(st, e->fd, e->file);
	fd = row ? row->fd : -1;
	pthread_mutex_unlock(&st->lock);
	if (fd >= 0 || !f || !st->rel[e->file - 1])
		return fd;
	fd = rp_open_beneath(
	    st->work_fd, st->rel[e->file - 1],
	    f->kind == TFK_DIR ? O_RDONLY | O_DIRECTORY : O_RDWR, 0);
	if (fd < 0)
		return -1;
	fd_opened(st, e->fd, e->file, fd);
	pthread_mutex_lock(&st->lock);
	st->extra_opens++;
	row = fd_row(st, e->fd, e->file);
	fd = row ? row->fd : -1;
	pthread_mutex_unlock(&st->lock);
	return fd;
}

/* A close of recorded (rfd, file): ours closes with the last one. */
static int64_t fd_close(struct rp_state *st, const struct trace_event *e)
{
	struct rp_fd *row;
	int fd = -1;

	pthread_mutex_lock(&st->lock);
	row = fd_row(st, e->fd, e->file);
	if (row && !--row->refs)
		fd = row->fd;
	pthread_mutex_unlock(&st->lock);
	if (!row)
		return -EBADF;
	return fd >= 0 && close(fd) ? -errno : 0;
}

/* A buffer of at least n bytes, aligned for O_DIRECT. */
static void *buffer(struct rp_thread *th, size_t n)
{
	if (n > th->buf_bytes) {
		free(th->buf);
		th->buf_bytes = (n + 4095) & ~(size_t)4095;
		th->buf = xalloc_aligned(4096, th->buf_bytes);
		memset(th->buf, 0x5a, th->buf_bytes);
	}
	return th->buf;
}

/* A name call (unlink, rename, mkdir, rmdir, stat) beneath the work
 * directory, in the directories th keeps open. */
static int64_t name_op(struct rp_thread *th, const struct trace_event *e)
{
	struct rp_state *st = th->st;
	const struct trace_file *f = &st->t.files[e->file - 1];
	const char *base, *base2;
	int64_t ret = 0;
	struct stat sb;
	int pfd, pfd2, own, own2;

	if (!st->rel[e->file - 1])
		return -ENOENT;
	pfd = rp_dir_of(th, e->file, &base, &own);
	if (pfd < 0)
		return pfd;
	switch (e->op) {
	case TOP_UNLINK:
		ret = unlinkat(pfd, base, 0) ? -errno : 0;
		break;
	case TOP_RMDIR:
		ret = unlinkat(pfd, base, AT_REMOVEDIR) ? -errno : 0;
		rp_dirs_changed(st);
		break;
	case TOP_MKDIR:
		ret = mkdirat(pfd, base, 0755) ? -errno : 0;
		break;
	case TOP_STAT:
		ret = fstatat(pfd, base, &sb, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
		break;
	case TOP_RENAME:
		if (!e->file2 || !st->rel[e->file2 - 1]) {
			ret = -ENOENT;
			break;
		}
		/* the second may take the first's place: then the first
		 * is held open by own until the rename */
		if (!own && rp_dirs_collide(th, e->file, e->file2)) {
			pfd = fcntl(pfd, F_DUPFD_CLOEXEC, 0);
			if (pfd < 0) {
				ret = -errno;
				break;
			}
			own = 1;
		}
		pfd2 = rp_dir_of(th, e->file2, &base2, &own2);
		if (pfd2 < 0) {
			ret = pfd2;
			break;
		}
		ret = renameat(pfd, base, pfd2, base2) ? -errno : 0;
		/* what was below a directory is elsewhere now (a name of
		 * unknown kind is looked at: most are files) */
		if (f->kind == TFK_DIR ||
		    (f->kind != TFK_REG && !ret &&
		     (fstatat(pfd2, base2, &sb, AT_SYMLINK_NOFOLLOW) ||
		      S_ISDIR(sb.st_mode))))
			rp_dirs_changed(st);
		if (own2)
			close(pfd2);
		break;
	}
	if (own)
		close(pfd);
	return ret;
}

/* Do e; its result (-errno on failure). */
int64_t rp_do_op(struct rp_thread *th, const struct trace_event *e)
{
	struct rp_state *st = th->st;
	size_t n = e->size > RP_IO_MAX ? RP_IO_MAX : (size_t)e->size;
	const char *base;
	struct stat sb;
	ssize_t got;
	int fd, dfd, own;

	rp_dirs_sync(th);
	switch (e->op) {
	case TOP_OPEN:
		if (!e->file || !st->rel[e->file - 1])
			return -ENOENT;
		dfd = rp_dir_of(th, e->file, &base, &own);
		if (dfd < 0)
			return dfd;
		fd = rp_open_beneath(
		    dfd, base, (int)(e->arg & ~(unsigned)O_NOFOLLOW), 0644);
		if (own)
			close(dfd);
		if (fd >= 0 && e->ret >= 0)
			fd_opened(st, (int32_t)e->ret, e->file, fd);
		else if (fd >= 0)
			close(fd); /* it failed there */
		return fd;
	case TOP_CLOSE:
		return fd_close(st, e);
	case TOP_UNLINK:
	case TOP_RENAME:
	case TOP_MKDIR:
	case TOP_RMDIR:
	case TOP_STAT:
		return e->file ? name_op(th, e) : -ENOENT;
	case TOP_MMAP:
	case TOP_MSYNC:
		return e->ret; /* noted, not replayed */
	case TOP_SYNC:
		/* the target's file system, not every one of the machine:
		 * what the capture's sync flushed of its files is there */
		return syncfs(st->work_fd) ? -errno : 0;
	}
	fd = rp_fd_of(st, e);
	if (fd < 0)
		return -EBADF;
	switch (e->op) {
	case TOP_READ:
		got = pread(fd, buffer(th, n), n, (off_t)e->offset);
		return got < 0 ? -errno : got;
	case TOP_WRITE:
		got = pwrite(fd, buffer(th, n), n, (off_t)e->offset);
		return got < 0 ? -errno : got;
	case TOP_LSEEK:
		return lseek(fd, e->ret >= 0 ? (off_t)e->ret : 0, SEEK_SET) < 0
			   ? -errno
			   : e->ret;
	case TOP_FSYNC:
		return fsync(fd) ? -errno : 0;
	case TOP_FDATASYNC:
		return fdatasync(fd) ? -errno : 0;
	case TOP_SYNC_RANGE:
		return sync_file_range(fd, (off_t)e->offset, (off_t)e->size,
				       e->arg & 7)
			   ? -errno
			   : 0;
	case TOP_FALLOCATE:
		return fallocate(fd, (int)e->arg, (off_t)e->offset,
				 (off_t)e->size)
			   ? -errno
			   : 0;
	case TOP_FTRUNCATE:
		return ftruncate(fd, (off_t)e->size) ? -errno : 0;
	case TOP_FSTAT:
		return fstat(fd, &sb) ? -errno : 0;
	case TOP_GETDENTS:
		got = syscall(SYS_getdents64, fd, buffer(th, n ? n : 4096),
			      n ? n : 4096);
		return got < 0 ? -errno : got;
	case TOP_FADVISE: /* the reader let only Linux's advice values in */
		return -posix_fadvise(fd, (off_t)e->offset, (off_t)e->size,
				      (int)e->arg);
	case TOP_READAHEAD:
		return readahead(fd, (off_t)e->offset, (size_t)e->size) ? -errno
									: 0;
	case TOP_SYNCFS:
		return syncfs(fd) ? -errno : 0;
	}
	return -ENOSYS;
}
