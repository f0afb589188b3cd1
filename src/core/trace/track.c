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
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include "track.h"
#include "track-int.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* A descriptor of a recorded process. */
struct track_fd {
	uint32_t tgid;
	int32_t fd;
	uint32_t file;	 /* 0: not a file of a file system (dropped) */
	uint32_t oflags; /* open flags */
	uint64_t pos;	 /* the position, as far as the tracker knows */
	uint64_t kfile;	 /* the kernel's struct file (0: not known) */
	int used;
	int gone; /* its number was given to another file, its close not
		   * handled yet: found by kfile only (close_target()) */
};

/* A recorded process's working directory. */
struct track_proc {
	uint32_t tgid;
	char *cwd; /* NULL: read /proc/PID/cwd when needed */
};

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

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The id of the file at path, or 0. */
static uint32_t path_lookup(struct tracker *tk, const char *path)
{
	size_t i = hash_str(path) & (tk->path_slots - 1);

	while (tk->path_index[i]) {
		uint32_t id = tk->path_index[i];

		if (!strcmp(tk->files.files[id - 1].path, path))
			return id;
		i = (i + 1) & (tk->path_slots - 1);
	}
	return 0;
}

static void path_insert(struct tracker *tk, uint32_t id)
{
	size_t i;

	if ((tk->files.nr_files + 1) * 2 > tk->path_slots) {
		size_t j, old = tk->path_slots;
		uint32_t *o = tk->path_index;

		tk->path_slots *= 2;
		tk->path_index =
		    xcalloc(tk->path_slots, sizeof(*tk->path_index));
		for (j = 0; j < old; j++)
			if (o[j])
				path_insert(tk, o[j]);
		free(o);
	}
	i = hash_str(tk->files.files[id - 1].path) & (tk->path_slots - 1);
	while (tk->path_index[i] && tk->path_index[i] != id)
		i = (i + 1) & (tk->path_slots - 1);
	tk->path_index[i] = id;
}

/* Is path one the trace leaves out (not a file system's file)? */
static int path_ignored(const char *path)
{
	static const char *const pre[] = {"/proc/", "/sys/", "/dev/",
					  "/run/user/"};
	size_t i;

	if (!strcmp(path, "/proc") || !strcmp(path, "/sys") ||
	    !strcmp(path, "/dev"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(pre); i++)
		if (!strncmp(path, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* path (absolute) with "//", "/." and ".." taken out lexically, into out. */
static void path_normalize(const char *path, struct strbuf *out)
{
	const char *p = path;

	strbuf_reset(out);
	while (*p) {
		const char *s;
		size_t n;

		while (*p == '/')
			p++;
		s = p;
		while (*p && *p != '/')
			p++;
		n = (size_t)(p - s);
		if (!n || (n == 1 && s[0] == '.'))
			continue;
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			char *slash = strrchr(out->buf, '/');

			strbuf_setlen(out,
				      slash ? (size_t)(slash - out->buf) : 0);
			continue;
		}
		strbuf_addch(out, '/');
		strbuf_add(out, s, n);
	}
	if (!out->len)
		strbuf_addch(out, '/');
}

static struct track_proc *proc_of(struct tracker *tk, uint32_t tgid)
{
	size_t i;

	for (i = 0; i < tk->nr_procs; i++)
		if (tk->procs[i].tgid == tgid)
			return &tk->procs[i];
	ALLOC_GROW(tk->procs, tk->nr_procs + 1, tk->alloc_procs);
	tk->procs[tk->nr_procs].tgid = tgid;
	tk->procs[tk->nr_procs].cwd = NULL;
	return &tk->procs[tk->nr_procs++];
}

/* readlink of /proc/TGID/WHAT into out; 0 or -errno. */
static int proc_link(struct tracker *tk, uint32_t tgid, const char *what,
		     struct strbuf *out)
{
	char path[128], buf[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/proc/%u/%s", tk->root ? tk->root : "",
		 tgid, what);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	strbuf_reset(out);
	strbuf_addstr(out, buf);
	return 0;
}

static struct track_fd *fd_find(struct tracker *tk, uint32_t tgid, int32_t fd)
{
	size_t i;

	for (i = 0; i < tk->nr_fds; i++)
		if (tk->fds[i].used && !tk->fds[i].gone &&
		    tk->fds[i].tgid == tgid && tk->fds[i].fd == fd)
			return &tk->fds[i];
	return NULL;
}

static struct track_fd *fd_put(struct tracker *tk, uint32_t tgid, int32_t fd)
{
	struct track_fd *f = fd_find(tk, tgid, fd);
	size_t i;

	if (f)
		return f;
	for (i = 0; i < tk->nr_fds; i++)
		if (!tk->fds[i].used)
			break;
	if (i == tk->nr_fds) {
		ALLOC_GROW(tk->fds, tk->nr_fds + 1, tk->alloc_fds);
		tk->nr_fds++;
	}
	f = &tk->fds[i];
	memset(f, 0, sizeof(*f));
	f->used = 1;
	f->tgid = tgid;
	f->fd = fd;
	return f;
}

/*
 * The entry for descriptor c->ret, which open call c returned. The
 * kernel frees a descriptor's number before its close returns, so
 * another thread's open can take the number and reach the ring buffer
 * first: an entry still there for another struct file is kept aside
 * (gone) for that close to find, rather than taken over.
 */
static struct track_fd *fd_opened(struct tracker *tk, const struct iot_call *c)
{
	struct track_fd *f = fd_find(tk, c->tgid, (int32_t)c->ret), copy;

	if (f && f->kfile && c->file && f->kfile != c->file) {
		copy = *f;
		f->used = 0; /* fd_put's new slot may be this one */
		f = fd_put(tk, c->tgid, (int32_t)c->ret);
		*f = copy;
		f->gone = 1;
		tk->overtaken++;
		f = NULL;
	}
	if (!f)
		f = fd_put(tk, c->tgid, (int32_t)c->ret);
	f->kfile = c->file;
	return f;
}

/* The entry close call c closes: f, the one its number names now, or
 * the one kept aside for the struct file the close read at its entry
 * when f is another (see fd_opened()). */
static struct track_fd *
close_target(struct tracker *tk, const struct iot_call *c, struct track_fd *f)
{
	size_t i;

	if (!f || !f->kfile || !c->file || f->kfile == c->file)
		return f;
	for (i = 0; i < tk->nr_fds; i++) {
		struct track_fd *g = &tk->fds[i];

		if (g->used && g->gone && g->tgid == c->tgid &&
		    g->fd == f->fd && g->kfile == c->file)
			return g;
	}
	return f;
}

/*
 * FMODE_CREATED of the kernel's struct file (include/linux/fs.h), set by
 * an open that created its file: 0x100000 since Linux 4.19, checked on
 * 6.18 by opening with O_CREAT a file that was there and one that was
 * not (tests/cli/record.sh's "made in the trace" checks it).
 */
#define KERNEL_FMODE_CREATED 0x100000u

/*
 * The file at the normalized path abs, added on first sight with what
 * statx says now: existed unless created was said or it was born after
 * the trace began. how: 1 the call created it, 2 it may have (O_CREAT),
 * 3 it found it there (EEXIST: nothing in the trace made it before, as
 * it is first seen), -1 it failed to find it (ENOENT), -2 it failed
 * otherwise (what statx finds was there unless born later; what it does
 * not find was not), 0 nothing known. follow: statx follows a
 * symbolic link (open, stat) or not (unlink, rename). kc: an open whose
 * exit read the new file (i_mode set): the kernel's word on whether it
 * made it, its type and size, at the time, wins (statx comes later: the
 * file may be gone or changed by then, and a birth time is only as
 * fine as the file system's coarse clock). kind: what the call says
 * the file is (a directory made or removed, a rename's target is what
 * its source was), TFK_UNKNOWN for nothing; it wins over statx's later
 * look too.
 */
static int64_t stx_ns(const struct statx_timestamp *t);

static int file_of(struct tracker *tk, const char *abs, int how, int follow,
		   const struct iot_call *kc, uint8_t kind, uint32_t *id,
		   struct strbuf *err)
{
	struct trace_file f = {0};
	struct statx sx;
	int have;

	*id = path_lookup(tk, abs);
	if (*id)
		return 0;
	have = !statx(AT_FDCWD, abs, follow ? 0 : AT_SYMLINK_NOFOLLOW,
		      STATX_TYPE | STATX_SIZE | STATX_INO | STATX_BTIME |
			  STATX_CTIME,
		      &sx);
	f.path = (char *)abs;
	if (have) {
		f.dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
		f.ino = sx.stx_ino;
		f.kind = S_ISREG(sx.stx_mode)	? TFK_REG
			 : S_ISDIR(sx.stx_mode) ? TFK_DIR
						: TFK_OTHER;
		if (how == 3)
			f.existed = 1;
		else if (how == 1)
			f.existed = 0;
		else if (how == -1)
			f.existed = 0;
		else if (sx.stx_mask & STATX_BTIME)
			f.existed = stx_ns(&sx.stx_btime) < tk->start_real_ns;
		else
			f.existed = stx_ns(&sx.stx_ctime) < tk->start_real_ns;
		if (f.existed && f.kind == TFK_REG)
			f.size_bytes = sx.stx_size;
	} else {
		f.existed = how == 0 || how == 3;
	}
	if (how == 2 && !have)
		f.existed = 0;
	if (kc) {
		mode_t m = kc->i_mode;

		f.kind = S_ISREG(m)   ? TFK_REG
			 : S_ISDIR(m) ? TFK_DIR
				      : TFK_OTHER;
		if (kc->f_mode & KERNEL_FMODE_CREATED)
			f.existed = 0;
		else if (!have)
			f.existed = 1;
		f.size_bytes = 0;
		if (f.existed && f.kind == TFK_REG && kc->i_size > 0)
			f.size_bytes = (uint64_t)kc->i_size;
	}
	if (kind != TFK_UNKNOWN)
		f.kind = kind;
	if (f.kind != TFK_REG)
		f.size_bytes = 0;
	*id = trace_add_file(&tk->files, &f);
	path_insert(tk, *id);
	return trace_writer_file(tk->w, &tk->files.files[*id - 1], err);
}

/* A statx time in ns. */
static int64_t stx_ns(const struct statx_timestamp *t)
{
	return t->tv_sec * 1000000000 + t->tv_nsec;
}

/* The absolute, normalized form of path as process tgid meant it
 * relative to dirfd; 0 or -errno (the base is unknown). */
static int resolve(struct tracker *tk, uint32_t tgid, int64_t dirfd,
		   const char *path, struct strbuf *out)
{
	struct strbuf base = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret = 0;

	if (path[0] == '/') {
		path_normalize(path, out);
		return 0;
	}
	if ((int32_t)dirfd == AT_FDCWD) {
		struct track_proc *p = proc_of(tk, tgid);

		if (!p->cwd) {
			ret = proc_link(tk, tgid, "cwd", &base);
			if (!ret)
				p->cwd = xstrdup(base.buf);
		}
		if (p->cwd) {
			strbuf_reset(&base);
			strbuf_addstr(&base, p->cwd);
			ret = 0;
		}
	} else {
		struct track_fd *f = fd_find(tk, tgid, (int32_t)dirfd);
		char what[32];

		if (f && f->file) {
			strbuf_addstr(&base, tk->files.files[f->file - 1].path);
		} else {
			snprintf(what, sizeof(what), "fd/%d", (int)dirfd);
			ret = proc_link(tk, tgid, what, &base);
		}
	}
	if (!ret && base.buf[0] != '/')
		ret = -ENOENT;
	if (!ret) {
		strbuf_addf(&tmp, "%s/%s", base.buf, path);
		path_normalize(tmp.buf, out);
	}
	strbuf_release(&base);
	strbuf_release(&tmp);
	return ret;
}

/* fdinfo's "pos:" of tgid's fd, or 0. */
static uint64_t fdinfo_pos(struct tracker *tk, uint32_t tgid, int32_t fd)
{
	char path[128], line[128];
	unsigned long long pos = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/%u/fdinfo/%d",
		 tk->root ? tk->root : "", tgid, (int)fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "pos: %llu", &pos) == 1)
			break;
	fclose(f);
	return pos;
}

/*
 * The descriptor fd of tgid, learnt from /proc when it was opened before
 * the trace (or in a child before the tracker heard of it); NULL when it
 * cannot be known. A descriptor that is no file of a file system is kept
 * with file 0, so its calls are dropped without asking again.
 */
static struct track_fd *fd_get(struct tracker *tk, uint32_t tgid, int32_t fd,
			       struct strbuf *err, int *ret)
{
	struct strbuf link = STRBUF_INIT, abs = STRBUF_INIT;
	struct track_fd *f = fd_find(tk, tgid, fd);
	char what[32];
	uint32_t id = 0;

	*ret = 0;
	if (f || fd < 0)
		return f;
	snprintf(what, sizeof(what), "fd/%d", (int)fd);
	if (proc_link(tk, tgid, what, &link))
		goto out; /* gone: the call is dropped */
	f = fd_put(tk, tgid, fd);
	if (link.buf[0] == '/' && !strstr(link.buf, " (deleted)")) {
		path_normalize(link.buf, &abs);
		if (!path_ignored(abs.buf)) {
			*ret = file_of(tk, abs.buf, 0, 1, NULL, TFK_UNKNOWN,
				       &id, err);
			f->pos = fdinfo_pos(tk, tgid, fd);
		}
	}
	f->file = id;
out:
	strbuf_release(&link);
	strbuf_release(&abs);
	return f;
}

/* Is the file with id one whose calls are recorded? */
static int file_recorded(struct tracker *tk, uint32_t id)
{
	const struct trace_file *f = trace_file_get(&tk->files, id);

	return f && f->kind != TFK_OTHER;
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
		if (e.op != TOP_STAT)
			return 0;
		return 1; /* the caller treats it as an fstat */
	}
	if (resolve(tk, c->tgid, dirfd, p0, &abs) || path_ignored(abs.buf)) {
		/* its descriptor's calls are dropped without asking /proc */
		if (e.op == TOP_OPEN && c->ret >= 0)
			fd_opened(tk, c)->file = 0;
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
	ret = file_of(tk, abs.buf, how, follow, kc, kind, &e.file, err);
	if (!ret && e.op == TOP_RENAME) {
		if (resolve(tk, c->tgid, dirfd2, p1, &abs2) ||
		    path_ignored(abs2.buf)) {
			tk->dropped++;
			goto out;
		}
		kind = c->ret == 0 ? tk->files.files[e.file - 1].kind
				   : TFK_UNKNOWN;
		ret = file_of(tk, abs2.buf, -1, 0, NULL, kind, &e.file2, err);
	}
	if (ret)
		goto out;
	if (!file_recorded(tk, e.file)) {
		if (e.op == TOP_OPEN && c->ret >= 0)
			fd_opened(tk, c)->file = 0;
		tk->dropped++;
		goto out;
	}
	e.arg = flags;
	if (e.op == TOP_OPEN && c->ret >= 0) {
		struct track_fd *f = fd_opened(tk, c);
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
	f = fd_get(tk, c->tgid, fd, err, &ret);
	if (ret)
		return ret;
	if (k == SC_CLOSE)
		f = close_target(tk, c, f);
	if (!f || !file_recorded(tk, f->file)) {
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
		from = fd_find(tk, c->tgid, (int32_t)c->args[0]);
		if (!from)
			return;
		copy = *from;
		to = fd_put(tk, c->tgid, (int32_t)c->ret);
		copy.fd = (int32_t)c->ret;
		*to = copy;
		return;
	case SC_CHDIR:
	case SC_FCHDIR:
		p = proc_of(tk, c->tgid);
		free(p->cwd);
		p->cwd = NULL;
		if (k == SC_CHDIR && !resolve(tk, c->tgid, AT_FDCWD, p0, &abs))
			p->cwd = strbuf_detach(&abs, NULL);
		strbuf_release(&abs);
		return;
	default:
		return;
	}
}

void tracker_set_cwd(struct tracker *tk, uint32_t tgid, const char *cwd)
{
	struct track_proc *p = proc_of(tk, tgid);

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
	if (!proc_of(tk, child)->cwd) {
		p = proc_of(tk, c->tgid); /* after the child's: no realloc */
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
		    fd_find(tk, child, copy.fd))
			continue;
		to = fd_put(tk, child, copy.fd);
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
