/*
 * The journal file (the format is in journal.h): read without following
 * a link and only when it may be trusted, appended to one record per
 * write() and fdatasync(), and compacted by an atomic rewrite. A failed
 * append leaves the file as it was; a failed compaction leaves every
 * record in memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "journal.h"
#include "journal-int.h"
#include "state.h"
#include "../../util/error.h"
#include "../../util/fdio.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The largest journal we read (64 MiB). */
#define JOURNAL_MAX_BYTES (64u << 20)

/* Open the journal file with flags, never through a symbolic link, and
 * check it may be trusted. -errno with err set, -ENOENT quietly. */
static int open_checked(const struct journal *j, int flags, int *out,
			struct strbuf *err)
{
	int fd =
	    openat(j->dir_fd, j->name, flags | O_NOFOLLOW | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0 && errno == ELOOP)
		return state_refuse_link(j->path, "journal", 0, err);
	if (fd < 0)
		return err_set(err, -errno, "cannot open the journal '%s': %s",
			       j->path, strerror(errno));
	ret = state_check(fd, j->path, "journal", 0, err);
	if (ret) {
		close(fd);
		return ret;
	}
	*out = fd;
	return 0;
}

int journal_read(const struct journal *j, struct strbuf *out,
		 struct strbuf *err)
{
	ssize_t n;
	int fd, ret;

	strbuf_reset(out);
	ret = open_checked(j, O_RDONLY, &fd, err);
	if (ret)
		return ret;
	for (;;) {
		strbuf_grow(out, 4096);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_setlen(out, out->len + (size_t)n);
		if (out->len > JOURNAL_MAX_BYTES) {
			errno = EFBIG;
			n = -1;
			break;
		}
	}
	if (n < 0)
		ret = err_set(err, -errno, "cannot read the journal '%s': %s",
			      j->path, strerror(errno));
	close(fd);
	return ret;
}

int journal_load(struct journal *j, struct strbuf *err)
{
	struct strbuf buf = STRBUF_INIT;
	int ret = journal_read(j, &buf, err);

	if (ret == -ENOENT) {
		journal_clear(j);
		j->next_seq = 1;
		j->torn_bytes = 0;
		ret = 0;
	} else if (!ret) {
		ret = journal_parse(j, buf.buf, buf.len, err);
	}
	strbuf_release(&buf);
	return ret;
}

/* fsync the directory holding the journal, so a create, rename or
 * unlink is durable. 0 or -errno. */
static int sync_dir(const struct journal *j)
{
	if (j->dir_fd != AT_FDCWD)
		return fsync(j->dir_fd) < 0 ? -errno : 0;
	return state_sync_parent(j->path);
}

int journal_append(struct journal *j, const struct jrec *r, struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT;
	struct jrec copy;
	struct stat st;
	int created = 0, ret = 0, i;

	if (j->fd < 0) {
		ret =
		    open_checked(j, O_WRONLY | O_CREAT | O_APPEND, &j->fd, err);
		if (ret == -ENOENT) /* a directory on the way is missing */
			ret = err_set(err, ret,
				      "cannot create the journal '%s': %s",
				      j->path, strerror(-ret));
		if (ret)
			return ret;
	}
	if (fstat(j->fd, &st) < 0)
		return err_set(err, -errno, "cannot stat the journal '%s': %s",
			       j->path, strerror(errno));
	if (j->torn_bytes && (size_t)st.st_size >= j->torn_bytes) {
		st.st_size -= (off_t)j->torn_bytes;
		if (ftruncate(j->fd, st.st_size) < 0)
			return err_set(err, -errno,
				       "cannot cut the torn last line off the "
				       "journal '%s': %s",
				       j->path, strerror(errno));
		j->torn_bytes = 0;
	}
	if (st.st_size == 0) {
		strbuf_addstr(&line, JOURNAL_HEADER "\n");
		created = 1;
	}
	copy = *r;
	copy.seq = j->next_seq;
	copy.done = copy.kept = copy.confirmed = copy.restoring = 0;
	journal_format(&copy, &line);
	ret = fd_write_all(j->fd, line.buf, line.len);
	if (!ret && fdatasync(j->fd) < 0)
		ret = -errno;
	if (!ret && created)
		ret = sync_dir(j);
	if (ret) {
		/* leave the file as it was: no half record */
		if (ftruncate(j->fd, st.st_size) == 0)
			fdatasync(j->fd);
		strbuf_release(&line);
		return err_set(err, ret, "cannot write the journal '%s': %s",
			       j->path, strerror(-ret));
	}
	strbuf_release(&line);
	for (i = 0; i < JF_MAX; i++)
		copy.f[i] = xstrdup(r->f[i] ? r->f[i] : "");
	ALLOC_GROW(j->recs, j->nr + 1, j->alloc);
	j->recs[j->nr++] = copy;
	j->next_seq++;
	journal_apply(j, &j->recs[j->nr - 1]);
	return 0;
}

/* Does record i survive compaction? */
static int survives(const struct journal *j, size_t i)
{
	const struct jrec *r = &j->recs[i], *t;
	size_t k;

	switch (r->type) {
	case JREC_SET:
	case JREC_SCR:
		return !r->done;
	case JREC_WROTE:
	case JREC_RESTORE:
		/* a keep record confirms every write of its owner */
		t = journal_find(j, r->ref);
		return t && !t->done && (r->type == JREC_RESTORE || !t->kept);
	case JREC_OWN:
	case JREC_KEEP:
		for (k = 0; k < j->nr; k++) {
			const struct jrec *o = &j->recs[k];

			if ((o->type == JREC_SET || o->type == JREC_SCR) &&
			    !o->done &&
			    o->ref == (r->type == JREC_OWN ? r->seq : r->ref))
				return 1;
		}
		return 0;
	default:
		return 0;
	}
}

int journal_compact(struct journal *j, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t i, w = 0;
	char *keep = xcalloc(j->nr ? j->nr : 1, 1);
	int fd = -1, ret = 0, any = 0, replaced = 0;

	for (i = 0; i < j->nr; i++) {
		keep[i] = (char)survives(j, i);
		any |= keep[i];
		w += keep[i];
	}
	if (any && w == j->nr && !j->torn_bytes) {
		/* nothing to drop: leave the file alone */
		free(keep);
		return 0;
	}
	w = 0;
	if (j->fd >= 0) {
		close(j->fd);
		j->fd = -1;
	}
	if (!any) {
		if (unlinkat(j->dir_fd, j->name, 0) < 0 && errno != ENOENT) {
			ret = err_set(err, -errno,
				      "cannot remove the journal '%s': %s",
				      j->path, strerror(errno));
			goto out;
		}
		replaced = 1;
		goto sync;
	}
	strbuf_addstr(&text, JOURNAL_HEADER "\n");
	for (i = 0; i < j->nr; i++)
		if (keep[i])
			journal_format(&j->recs[i], &text);
	strbuf_addf(&tmp, "%s.tmp", j->name);
	/* a crash may have left one; O_EXCL then makes sure it is ours */
	unlinkat(j->dir_fd, tmp.buf, 0);
	fd = openat(j->dir_fd, tmp.buf,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		ret = -errno;
	if (!ret)
		ret = fd_write_all(fd, text.buf, text.len);
	if (!ret && fdatasync(fd) < 0)
		ret = -errno;
	if (fd >= 0 && close(fd) < 0 && !ret)
		ret = -errno;
	if (!ret && renameat(j->dir_fd, tmp.buf, j->dir_fd, j->name) < 0)
		ret = -errno;
	if (ret) {
		if (fd >= 0)
			unlinkat(j->dir_fd, tmp.buf, 0);
		err_set(err, ret, "cannot rewrite the journal '%s': %s",
			j->path, strerror(-ret));
		goto out;
	}
	replaced = 1;
sync:
	ret = sync_dir(j);
	if (ret)
		err_set(err, ret,
			"the journal '%s' was %s, but its directory could not "
			"be synced (%s): a crash now could bring the old one "
			"back",
			j->path, any ? "rewritten" : "removed", strerror(-ret));
out:
	if (replaced) {
		/* memory mirrors the file as it is now */
		for (i = 0; i < j->nr; i++) {
			if (keep[i])
				j->recs[w++] = j->recs[i];
			else
				jrec_release(&j->recs[i]);
		}
		j->nr = w;
		j->torn_bytes = 0;
	}
	free(keep);
	strbuf_release(&text);
	strbuf_release(&tmp);
	return ret;
}
