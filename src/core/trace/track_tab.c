/*
 * The tracker's tables (see track.h): the index of the files met by
 * path, each process's working directory, each descriptor's file and
 * position, and how a call's path or descriptor becomes a file of the
 * trace (statx, /proc/PID/fd and fdinfo). track.c turns the calls into
 * events through them, track_uring.c names the files of io_uring
 * requests through them; track-int.h declares what they use.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "track.h"
#include "track-int.h"
#include "../../util/strbuf.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* FNV-1a of s: the path index's hash. */
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

/* Index file id by its path, growing the index to stay half empty. */
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
int track_path_ignored(const char *path)
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

/* Process tgid's entry, added on first sight (no cwd yet). */
struct track_proc *track_proc_of(struct tracker *tk, uint32_t tgid)
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

/* Descriptor fd of tgid as the tracker knows it, or NULL. */
struct track_fd *track_fd_find(struct tracker *tk, uint32_t tgid, int32_t fd)
{
	size_t i;

	for (i = 0; i < tk->nr_fds; i++)
		if (tk->fds[i].used && !tk->fds[i].gone &&
		    tk->fds[i].tgid == tgid && tk->fds[i].fd == fd)
			return &tk->fds[i];
	return NULL;
}

/* Descriptor fd of tgid, a cleared entry in a free slot when new. */
struct track_fd *track_fd_put(struct tracker *tk, uint32_t tgid, int32_t fd)
{
	struct track_fd *f = track_fd_find(tk, tgid, fd);
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
struct track_fd *track_fd_opened(struct tracker *tk, const struct iot_call *c)
{
	struct track_fd *f = track_fd_find(tk, c->tgid, (int32_t)c->ret), copy;

	if (f && f->kfile && c->file && f->kfile != c->file) {
		copy = *f;
		f->used = 0; /* track_fd_put()'s new slot may be this one */
		f = track_fd_put(tk, c->tgid, (int32_t)c->ret);
		*f = copy;
		f->gone = 1;
		tk->overtaken++;
		f = NULL;
	}
	if (!f)
		f = track_fd_put(tk, c->tgid, (int32_t)c->ret);
	f->kfile = c->file;
	return f;
}

/* The entry close call c closes: f, the one its number names now, or
 * the one kept aside for the struct file the close read at its entry
 * when f is another (see track_fd_opened()). */
struct track_fd *track_close_target(struct tracker *tk,
				    const struct iot_call *c,
				    struct track_fd *f)
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

/* A statx time in ns. */
static int64_t stx_ns(const struct statx_timestamp *t)
{
	return t->tv_sec * 1000000000 + t->tv_nsec;
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
int track_file_of(struct tracker *tk, const char *abs, int how, int follow,
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

/* The absolute, normalized form of path as process tgid meant it
 * relative to dirfd; 0 or -errno (the base is unknown). */
int track_resolve(struct tracker *tk, uint32_t tgid, int64_t dirfd,
		  const char *path, struct strbuf *out)
{
	struct strbuf base = STRBUF_INIT, tmp = STRBUF_INIT;
	int ret = 0;

	if (path[0] == '/') {
		path_normalize(path, out);
		return 0;
	}
	if ((int32_t)dirfd == AT_FDCWD) {
		struct track_proc *p = track_proc_of(tk, tgid);

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
		struct track_fd *f = track_fd_find(tk, tgid, (int32_t)dirfd);
		char what[32];

		/* a descriptor the trace left out (an open of /proc, say)
		 * leaves out what is named under it: its number's link in
		 * /proc, read now, may already name a later open's file */
		if (f && !f->file) {
			ret = -ENOENT;
		} else if (f) {
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
struct track_fd *track_fd_get(struct tracker *tk, uint32_t tgid, int32_t fd,
			      struct strbuf *err, int *ret)
{
	struct strbuf link = STRBUF_INIT, abs = STRBUF_INIT;
	struct track_fd *f = track_fd_find(tk, tgid, fd);
	char what[32];
	uint32_t id = 0;

	*ret = 0;
	if (f || fd < 0)
		return f;
	snprintf(what, sizeof(what), "fd/%d", (int)fd);
	if (proc_link(tk, tgid, what, &link))
		goto out; /* gone: the call is dropped */
	f = track_fd_put(tk, tgid, fd);
	if (link.buf[0] == '/' && !strstr(link.buf, " (deleted)")) {
		path_normalize(link.buf, &abs);
		if (!track_path_ignored(abs.buf)) {
			*ret = track_file_of(tk, abs.buf, 0, 1, NULL,
					     TFK_UNKNOWN, &id, err);
			f->pos = fdinfo_pos(tk, tgid, fd);
		}
	}
	f->file = id;
out:
	strbuf_release(&link);
	strbuf_release(&abs);
	return f;
}

int track_file_recorded(struct tracker *tk, uint32_t id)
{
	const struct trace_file *f = trace_file_get(&tk->files, id);

	return f && f->kind != TFK_OTHER;
}

int track_fd_file(struct tracker *tk, uint32_t tgid, int32_t fd, uint32_t *id,
		  struct strbuf *err)
{
	struct track_fd *f;
	int ret;

	*id = 0;
	f = track_fd_get(tk, tgid, fd, err, &ret);
	if (ret || !f)
		return ret;
	if (!track_file_recorded(tk, f->file))
		return 1;
	*id = f->file;
	return 0;
}

int track_path_file(struct tracker *tk, const char *path, uint32_t *id,
		    struct strbuf *err)
{
	struct strbuf abs = STRBUF_INIT;
	int ret = 1;

	*id = 0;
	path_normalize(path, &abs);
	if (path[0] == '/' && !track_path_ignored(abs.buf)) {
		ret = track_file_of(tk, abs.buf, 0, 1, NULL, TFK_UNKNOWN, id,
				    err);
		if (!ret && !track_file_recorded(tk, *id))
			ret = 1;
	}
	strbuf_release(&abs);
	return ret;
}
