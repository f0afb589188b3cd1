/*
 * A work file used in turn by several workloads (fio's filename= shared
 * by job sections); see layout.h. The file stays in the caller's work
 * directory; a user reaches it through a hard link in its own, which its
 * cleanup removes like a file of its own, leaving the file itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "layout.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

void layout_share_release(struct layout_share *s)
{
	if (!s)
		return;
	free(s->label);
	free(s->laid_out_by);
	s->label = s->laid_out_by = NULL;
}

uint64_t layout_share_need(const struct layout_share *s, uint64_t bytes)
{
	return bytes > s->bytes ? bytes - s->bytes : 0;
}

/* Allocate the whole of fd up to bytes (a sparse tail where the file
 * system has no fallocate). 0 or an errno. */
static int allocate(int fd, uint64_t bytes)
{
	int e = posix_fallocate(fd, 0, (off_t)bytes);

	if (e == EOPNOTSUPP || e == EINVAL)
		e = ftruncate(fd, (off_t)bytes) < 0 ? errno : 0;
	return e;
}

/*
 * Bring the existing file up to what a user needs: bytes long, written in
 * full when read is set. The part already written is kept. Says in note
 * what changed.
 */
static int grow(struct layout_share *s, uint64_t bytes, int read, uint64_t seed,
		const char *path, struct strbuf *note, struct strbuf *err)
{
	uint64_t to = bytes > s->bytes ? bytes : s->bytes;
	int fd, e, ret = 0;

	fd = target_open_file(s->dir, s->name, O_WRONLY, 0);
	if (fd < 0)
		return err_set(err, fd, "cannot open '%s': %s", path,
			       strerror(-fd));
	if (read) {
		ret = layout_fill_range(fd, s->written ? s->bytes : 0, to, seed,
					path, err);
		if (!ret && !s->written)
			strbuf_addstr(note, "; it was only allocated, so it "
					    "was written in full first (reads "
					    "must reach the device)");
		if (!ret)
			s->written = 1;
	} else if ((e = allocate(fd, to))) {
		ret =
		    err_set(err, -e, "cannot allocate %llu bytes for '%s': %s",
			    (unsigned long long)to, path, strerror(e));
	} else {
		s->written = 0; /* the new tail is only allocated */
	}
	if (!ret && to > s->bytes)
		strbuf_addf(note, "; grown from %llu to %llu bytes",
			    (unsigned long long)s->bytes,
			    (unsigned long long)to);
	if (!ret)
		s->bytes = to;
	close(fd);
	return ret;
}

/* Link s's file as name in t's work directory, its cache dropped. */
static int link_in(struct layout_share *s, const struct target *t,
		   const char *name, const char *path, struct strbuf *err)
{
	struct stat st;
	int fd, r = target_unlink_file(t, name);

	if (r && r != -ENOENT)
		return err_set(err, r, "cannot replace work file '%s': %s",
			       name, strerror(-r));
	if (!target_work_name_ok(name) || t->work_fd < 0)
		return err_set(err, -EINVAL, "'%s' is not a work file name",
			       name);
	if (linkat(s->dir->work_fd, s->name, t->work_fd, name, 0) < 0)
		return err_set(err, -errno, "cannot link '%s' into '%s': %s",
			       path, t->workdir ? t->workdir : t->path,
			       strerror(errno));
	fd = target_open_file(t, name, O_RDONLY | O_NONBLOCK, 0);
	if (fd < 0)
		return err_set(err, fd, "cannot open '%s': %s", path,
			       strerror(-fd));
	if (!fstat(fd, &st))
		s->ino = (uint64_t)st.st_ino;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	return 0;
}

int layout_share_use(struct layout_share *s, const char *who,
		     const struct target *t, const char *name, uint64_t bytes,
		     int read, uint64_t seed, struct strbuf *note,
		     struct strbuf *err)
{
	struct strbuf where = STRBUF_INIT, how = STRBUF_INIT;
	int fresh = !s->bytes, ret;

	target_file_path(s->dir, s->name, &where);
	if (fresh) {
		ret = read ? layout_write(s->dir, s->name, bytes, seed, err)
			   : layout_preallocate(s->dir, s->name, bytes, err);
		if (!ret) {
			s->bytes = bytes;
			s->written = read;
			free(s->laid_out_by);
			s->laid_out_by = xstrdup(who);
		}
	} else if (bytes > s->bytes || (read && !s->written)) {
		ret = grow(s, bytes, read, seed, where.buf, &how, err);
	} else {
		ret = 0;
	}
	if (!ret)
		ret = link_in(s, t, name, where.buf, err);
	if (!ret)
		s->uses++;
	if (!ret && !fresh && strcmp(who, s->laid_out_by))
		strbuf_addf(note,
			    "[%s] reuses the file [%s] laid out "
			    "(filename=%s), as fio does: what was written "
			    "to it stays written%s",
			    who, s->laid_out_by, s->label ? s->label : "?",
			    how.buf);
	strbuf_release(&where);
	strbuf_release(&how);
	return ret;
}
