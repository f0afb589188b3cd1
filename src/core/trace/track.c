/*
 * The tracker: raw system calls in, trace events out. See track.h.
 *
 * Offsets come from the descriptor's position as the tracker keeps it
 * (0 at open, the end with O_APPEND, moved by read, write and lseek's
 * result), or from fdinfo's "pos:" for a descriptor opened before the
 * trace. A dup'ed descriptor gets a copy of the position, not a shared
 * one (the kernel shares it): a program that reads through both of two
 * dup'ed descriptors gets offsets that drift from the truth.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "track.h"
#include "track-int.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void tracker_init(struct tracker *tk, struct trace_writer *w, uint64_t start_ns)
{
	struct timespec ts;

	memset(tk, 0, sizeof(*tk));
	tk->w = w;
	tk->start_ns = start_ns;
	clock_gettime(CLOCK_REALTIME, &ts);
	tk->start_real_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	tk->path_slots = 1024;
	tk->path_index = xcalloc(tk->path_slots, sizeof(*tk->path_index));
}

void tracker_release(struct tracker *tk)
{
	size_t i;

	if (!tk)
		return;
	for (i = 0; i < tk->nr_procs; i++)
		free(tk->procs[i].cwd);
	free(tk->procs);
	free(tk->fds);
	free(tk->path_index);
	trace_release(&tk->files);
	memset(tk, 0, sizeof(*tk));
}

static int emit(struct tracker *tk, const struct iot_call *c,
		struct trace_event *e, struct strbuf *err)
{
	e->ts_ns = c->enter_ns > tk->start_ns ? c->enter_ns - tk->start_ns : 0;
	e->dur_ns = c->exit_ns > c->enter_ns ? c->exit_ns - c->enter_ns : 0;
	e->tid = c->tid;
	e->ret = c->ret;
	tk->events++;
	return trace_writer_event(tk->w, e, err);
}

/*
 * At the first open of a file that existed, what of it the page cache
 * held as the open returned (the kernel's word, kc): a CACHED record,
 * so that a replay can start it as warm or as cold as the capture did.
 */
static int first_open_cached(struct tracker *tk, uint32_t id,
			     const struct iot_call *kc, struct strbuf *err)
{
	struct trace_file *f = &tk->files.files[id - 1];
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), bytes;

	if (f->have_cached || !f->existed || f->kind != TFK_REG)
		return 0;
	f->have_cached = 1;
	bytes =
	    kc->nrpages > UINT64_MAX / page ? UINT64_MAX : kc->nrpages * page;
	if (bytes > f->size_bytes)
		bytes = f->size_bytes;
	f->cached_bytes = bytes;
	return trace_writer_cached(tk->w, id, bytes, err);
}

/* A call on a name: open, stat, unlink, mkdir, rmdir, rename. */
static int name_call(struct tracker *tk, const struct iot_call *c,
		     enum sc_kind k, const char *p0, const char *p1,
		     struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT, abs2 = STRBUF_INIT;
	struct trace_event e = {.fd = -1};
	const struct iot_call *kc;
	uint8_t kind;
	int64_t dirfd = AT_FDCWD, dirfd2 = AT_FDCWD;
	uint32_t flags = 0;
	int how = 0, ret = 0, follow;

	switch (k) {
	case SC_OPEN:
		e.op = TOP_OPEN;
		flags = (uint32_t)c->args[1];
		break;
	case SC_CREAT:
		e.op = TOP_OPEN;
		flags = O_CREAT | O_WRONLY | O_TRUNC;
		break;
	case SC_OPENAT:
		e.op = TOP_OPEN;
		dirfd = (int64_t)c->args[0];
		flags = (uint32_t)c->args[2];
		break;
	case SC_UNLINK:
		e.op = TOP_UNLINK;
		break;
	case SC_UNLINKAT:
		dirfd = (int64_t)c->args[0];
		e.op = c->args[2] & AT_REMOVEDIR ? TOP_RMDIR : TOP_UNLINK;
		break;
	case SC_RENAME:
		e.op = TOP_RENAME;
		break;
	case SC_RENAMEAT:
		e.op = TOP_RENAME;
		dirfd = (int64_t)c->args[0];
		dirfd2 = (int64_t)c->args[2];
		break;
	case SC_MKDIR:
		e.op = TOP_MKDIR;
		break;
	case SC_MKDIRAT:
		e.op = TOP_MKDIR;
		dirfd = (int64_t)c->args[0];
		break;
	case SC_RMDIR:
		e.op = TOP_RMDIR;
		break;
	case SC_STAT:
		e.op = TOP_STAT;
		break;
	case SC_FSTATAT:
	case SC_STATX:
		e.op = TOP_STAT;
		dirfd = (int64_t)c->args[0];
		break;
	default:
		return 0;
	}
	if (!*p0) { /* fstatat(fd, "", AT_EMPTY_PATH): an fstat */
		if (e.op == TOP_STAT)
			return 1; /* the caller treats it as an fstat */
		/* a name the capture could not read: what the descriptor
		 * names is not known, and /proc, asked later, may name a
		 * later open's file by then */
		if (e.op == TOP_OPEN && c->ret >= 0) {
			track_fd_opened(tk, c)->file = 0;
			tk->dropped++;
		}
		return 0;
	}
	if (track_resolve(tk, c->tgid, dirfd, p0, &abs) ||
	    track_path_ignored(abs.buf)) {
		/* its descriptor's calls are dropped without asking /proc */
		if (e.op == TOP_OPEN && c->ret >= 0)
			track_fd_opened(tk, c)->file = 0;
		tk->dropped++;
		goto out;
	}
	/* the kernel said what the open found (kc); without it, O_CREAT|
	 * O_EXCL made it, plain O_CREAT may have: its birth time tells,
	 * or, when it is gone by now, it is taken as made */
	/* a failed call found no file only when it says so (ENOENT); one
	 * refused with EEXIST (a mkdir, an O_EXCL open) found it there,
	 * and any other error (ENOTDIR of an O_DIRECTORY open, EACCES)
	 * leaves it to statx */
	if (c->ret == -ENOENT)
		how = -1;
	else if (c->ret == -EEXIST)
		how = 3;
	else if (c->ret < 0)
		how = -2;
	kc = e.op == TOP_OPEN && c->ret >= 0 && c->i_mode ? c : NULL;
	if (!kc && e.op == TOP_OPEN && c->ret >= 0 && (flags & O_CREAT))
		how = flags & O_EXCL ? 1 : 2;
	if (e.op == TOP_MKDIR && c->ret == 0)
		how = 1;
	follow = e.op == TOP_OPEN || e.op == TOP_STAT;
	kind = TFK_UNKNOWN;
	if ((e.op == TOP_MKDIR || e.op == TOP_RMDIR) && c->ret == 0)
		kind = TFK_DIR;
	ret = track_file_of(tk, abs.buf, how, follow, kc, kind, &e.file, err);
	if (!ret && e.op == TOP_RENAME) {
		if (track_resolve(tk, c->tgid, dirfd2, p1, &abs2) ||
		    track_path_ignored(abs2.buf)) {
			tk->dropped++;
			goto out;
		}
		kind = c->ret == 0 ? tk->files.files[e.file - 1].kind
				   : TFK_UNKNOWN;
		ret = track_file_of(tk, abs2.buf, -1, 0, NULL, kind, &e.file2,
				    err);
	}
	if (ret)
		goto out;
	if (!track_file_recorded(tk, e.file)) {
		if (e.op == TOP_OPEN && c->ret >= 0)
			track_fd_opened(tk, c)->file = 0;
		tk->dropped++;
		goto out;
	}
	e.arg = flags;
	if (e.op == TOP_OPEN && c->ret >= 0) {
		struct track_fd *f = track_fd_opened(tk, c);
		const struct trace_file *tf =
		    trace_file_get(&tk->files, e.file);

		f->file = e.file;
		f->oflags = flags;
		f->pos = 0;
		if (flags & O_APPEND)
			f->pos = tf->size_bytes;
		e.fd = (int32_t)c->ret;
		if (kc)
			ret = first_open_cached(tk, e.file, kc, err);
	}
	if (!ret)
		ret = emit(tk, c, &e, err);
out:
	strbuf_release(&abs);
	strbuf_release(&abs2);
	return ret;
}

/* A call on a descriptor. */
static int fd_call(struct tracker *tk, const struct iot_call *c, enum sc_kind k,
		   struct strbuf *err)
{
	struct trace_event e = {0};
	struct track_fd *f;
	int32_t fd = (int32_t)c->args[0];
	int ret = 0;

	if (k == SC_MMAP)
		fd = (int32_t)c->args[4];
	if (k == SC_MSYNC) {
		e.op = TOP_MSYNC;
		e.fd = -1;
		e.size = c->args[1];
		e.arg = (uint32_t)c->args[2];
		return emit(tk, c, &e, err);
	}
	f = track_fd_get(tk, c->tgid, fd, err, &ret);
	if (ret)
		return ret;
	if (k == SC_CLOSE)
		f = track_close_target(tk, c, f);
	if (!f || !track_file_recorded(tk, f->file)) {
		tk->dropped++;
		if (f && k == SC_CLOSE && (c->ret == 0 || f->gone))
			f->used = 0;
		return 0;
	}
	e.fd = fd;
	e.file = f->file;
	switch (k) {
	case SC_READ:
	case SC_READV:
	case SC_WRITE:
	case SC_WRITEV:
		e.op = k == SC_READ || k == SC_READV ? TOP_READ : TOP_WRITE;
		e.offset = f->pos;
		e.size = k == SC_READ || k == SC_WRITE ? c->args[2]
			 : c->ret > 0		       ? (uint64_t)c->ret
						       : 0;
		if (k == SC_READV || k == SC_WRITEV)
			e.flags |= TEV_VEC;
		if (c->ret > 0)
			f->pos += (uint64_t)c->ret;
		break;
	case SC_PREAD:
	case SC_PREADV:
	case SC_PWRITE:
	case SC_PWRITEV:
		e.op = k == SC_PREAD || k == SC_PREADV ? TOP_READ : TOP_WRITE;
		e.flags |= TEV_POSITIONAL;
		e.offset = c->args[3];
		e.size = k == SC_PREAD || k == SC_PWRITE ? c->args[2]
			 : c->ret > 0			 ? (uint64_t)c->ret
							 : 0;
		if (k == SC_PREADV || k == SC_PWRITEV)
			e.flags |= TEV_VEC;
		break;
	case SC_LSEEK:
		e.op = TOP_LSEEK;
		e.offset = c->args[1];
		e.arg = (uint32_t)c->args[2];
		if (c->ret >= 0)
			f->pos = (uint64_t)c->ret;
		break;
	case SC_FSYNC:
		e.op = TOP_FSYNC;
		break;
	case SC_FDATASYNC:
		e.op = TOP_FDATASYNC;
		break;
	case SC_SYNC_RANGE:
		e.op = TOP_SYNC_RANGE;
		e.offset = c->args[1];
		e.size = c->args[2];
		e.arg = (uint32_t)c->args[3];
		break;
	case SC_FALLOCATE:
		e.op = TOP_FALLOCATE;
		e.arg = (uint32_t)c->args[1];
		e.offset = c->args[2];
		e.size = c->args[3];
		break;
	case SC_FTRUNCATE:
		e.op = TOP_FTRUNCATE;
		e.size = c->args[1];
		break;
	case SC_CLOSE:
		e.op = TOP_CLOSE;
		/* one kept aside: its number went elsewhere anyway */
		if (c->ret == 0 || f->gone)
			f->used = 0;
		break;
	case SC_FSTAT:
		e.op = TOP_FSTAT;
		break;
	case SC_GETDENTS:
		e.op = TOP_GETDENTS;
		e.size = c->args[2];
		break;
	case SC_FADVISE:
		/* an advice Linux does not know failed (EINVAL) and did
		 * nothing; a trace holds only the ones there are */
		if (!trace_fadv_name((uint32_t)c->args[3]) ||
		    c->args[3] > UINT32_MAX) {
			tk->dropped++;
			return 0;
		}
		e.op = TOP_FADVISE;
		e.offset = c->args[1];
		e.size = c->args[2];
		e.arg = (uint32_t)c->args[3];
		break;
	case SC_READAHEAD:
		e.op = TOP_READAHEAD;
		e.offset = c->args[1];
		e.size = c->args[2];
		break;
	case SC_SYNCFS:
		e.op = TOP_SYNCFS;
		break;
	case SC_MMAP:
		e.op = TOP_MMAP;
		e.offset = c->args[5];
		e.size = c->args[1];
		e.arg = (uint32_t)(c->args[2] << 16 | (c->args[3] & 0xffff));
		e.ret = 0;
		break;
	default:
		return 0;
	}
	return emit(tk, c, &e, err);
}

/* dup, dup2, dup3, fcntl(F_DUPFD), chdir, fchdir: the tables only. */
static void table_call(struct tracker *tk, const struct iot_call *c,
		       enum sc_kind k, const char *p0)
{
	struct track_fd *from, *to, copy;
	struct track_proc *p;
	struct strbuf abs = STRBUF_INIT;

	if (c->ret < 0)
		return;
	switch (k) {
	case SC_FCNTL:
		if (c->args[1] != F_DUPFD && c->args[1] != F_DUPFD_CLOEXEC)
			return;
		/* fall through */
	case SC_DUP:
	case SC_DUP2:
		from = track_fd_find(tk, c->tgid, (int32_t)c->args[0]);
		if (!from)
			return;
		copy = *from;
		to = track_fd_put(tk, c->tgid, (int32_t)c->ret);
		copy.fd = (int32_t)c->ret;
		*to = copy;
		return;
	case SC_CHDIR:
	case SC_FCHDIR:
		p = track_proc_of(tk, c->tgid);
		free(p->cwd);
		p->cwd = NULL;
		if (k == SC_CHDIR &&
		    !track_resolve(tk, c->tgid, AT_FDCWD, p0, &abs))
			p->cwd = strbuf_detach(&abs, NULL);
		/* to a directory the tracker knows: its name, not the
		 * link in /proc read later, when it may have moved on */
		from = k == SC_FCHDIR
			   ? track_fd_find(tk, c->tgid, (int32_t)c->args[0])
			   : NULL;
		if (from && from->file)
			p->cwd = xstrdup(tk->files.files[from->file - 1].path);
		strbuf_release(&abs);
		return;
	default:
		return;
	}
}

void tracker_set_cwd(struct tracker *tk, uint32_t tgid, const char *cwd)
{
	struct track_proc *p = track_proc_of(tk, tgid);

	free(p->cwd);
	p->cwd = xstrdup(cwd);
}

/*
 * A fork's return in the parent: the child starts with the parent's
 * working directory and descriptors (a thread shares them: it is keyed
 * by the same tgid, and clone's CLONE_THREAD says so; clone3's flags
 * are behind a pointer, so its child gets a copy it may never use).
 */
static void fork_call(struct tracker *tk, const struct iot_call *c)
{
	uint32_t child = (uint32_t)c->ret;
	struct track_proc *p;
	size_t i, n;

	if (c->ret <= 0 || child == c->tgid)
		return;
#ifdef SYS_clone
	if (c->nr == SYS_clone && (c->args[0] & CLONE_THREAD))
		return;
#endif
	/* a vfork's child runs before its parent's call returns: what it
	 * did by now (opened, dup'ed, chdir'ed) is newer than the copy */
	if (!track_proc_of(tk, child)->cwd) {
		p = track_proc_of(tk,
				  c->tgid); /* after the child's: no realloc */
		if (p->cwd) {
			char *cwd = xstrdup(p->cwd);

			tracker_set_cwd(tk, child, cwd);
			free(cwd);
		}
	}
	n = tk->nr_fds;
	for (i = 0; i < n; i++) {
		struct track_fd copy = tk->fds[i], *to;

		if (!copy.used || copy.gone || copy.tgid != c->tgid ||
		    track_fd_find(tk, child, copy.fd))
			continue;
		to = track_fd_put(tk, child, copy.fd);
		copy.tgid = child;
		*to = copy;
	}
}

/*
 * copy_file_range and sendfile: a read of the source and a write of the
 * destination, each of what moved, at the descriptors' positions (an
 * offset given by pointer is not read: the position stands in for it).
 */
static int copy_call(struct tracker *tk, const struct iot_call *c,
		     enum sc_kind k, struct strbuf *err)
{
	struct iot_call half = *c;
	int ret;

	half.nr = SYS_read;
	half.args[0] = k == SC_COPY ? c->args[0] : c->args[1];
	half.args[2] = c->ret > 0 ? (uint64_t)c->ret : 0;
	ret = fd_call(tk, &half, SC_READ, err);
	if (ret)
		return ret;
	half.nr = SYS_write;
	half.args[0] = k == SC_COPY ? c->args[2] : c->args[0];
	return fd_call(tk, &half, SC_WRITE, err);
}

int tracker_call(struct tracker *tk, const struct iot_call *c,
		 const char *path0, const char *path1, struct strbuf *err)
{
	enum sc_kind k = c->nr == IOT_NR_FORK ? SC_FORK : sc_kind_of(c->nr);
	int r;

	tk->calls++;
	switch (k) {
	case SC_NONE:
		return 0;
	case SC_URING: /* its requests are the io_uring programs' */
		tk->rings += c->ret >= 0;
		return 0;
	case SC_FORK:
		fork_call(tk, c);
		return 0;
	case SC_SYNC: {
		/* no descriptor: every file system, the traced files' too */
		struct trace_event e = {.op = TOP_SYNC, .fd = -1};

		return emit(tk, c, &e, err);
	}
	case SC_COPY:
	case SC_SENDFILE:
		return copy_call(tk, c, k, err);
	case SC_DUP:
	case SC_DUP2:
	case SC_FCNTL:
	case SC_CHDIR:
	case SC_FCHDIR:
		table_call(tk, c, k, path0 ? path0 : "");
		return 0;
	case SC_OPEN:
	case SC_CREAT:
	case SC_OPENAT:
	case SC_UNLINK:
	case SC_UNLINKAT:
	case SC_RENAME:
	case SC_RENAMEAT:
	case SC_MKDIR:
	case SC_MKDIRAT:
	case SC_RMDIR:
	case SC_STAT:
	case SC_FSTATAT:
	case SC_STATX:
		r = name_call(tk, c, k, path0 ? path0 : "", path1 ? path1 : "",
			      err);
		if (r != 1)
			return r;
		return fd_call(tk, c, SC_FSTAT, err);
	default:
		return fd_call(tk, c, k, err);
	}
}
