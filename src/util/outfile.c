/*
 * Writing files users name (outfile.h): look at the name first and
 * refuse what is not a regular file or is a link, then write either a
 * temporary beside it renamed onto it at the end, or (a stream) the
 * file itself, opened so that nothing swapped in meanwhile is followed
 * or waited on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "outfile.h"
#include "error.h"
#include "fdio.h"
#include "userfile.h"
#include "xalloc.h"
#include "banned.h"

#define TMP_BASE_MAX 200 /* bytes of the name kept in a temporary's name */

/*
 * Split path into its directory (".", "/" or the part before the last
 * slash) and last component, both allocated. The last component is
 * empty for "" and for a path ending with a slash.
 */
static void split_path(const char *path, char **dir, char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		*dir = xstrdup(".");
		*base = xstrdup(path);
	} else {
		*dir =
		    xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
		*base = xstrdup(slash + 1);
	}
}

/*
 * What the name found (st from lstat) allows: 0 for a regular file that
 * may be replaced, else -ELOOP, -EINVAL or -EEXIST with err set.
 */
static int judge(const char *path, const struct stat *st, unsigned flags,
		 struct strbuf *err)
{
	if (S_ISLNK(st->st_mode))
		return err_set(err, -ELOOP,
			       "cannot write '%s': a symbolic link, which "
			       "iotrial neither writes through nor replaces; "
			       "name the file itself",
			       path);
	if (!S_ISREG(st->st_mode))
		return err_set(err, -EINVAL,
			       "cannot write '%s': %s, not a regular file",
			       path, userfile_kind(st->st_mode));
	if (!(flags & OUTFILE_REPLACE))
		return err_set(err, -EEXIST,
			       "'%s' exists; give another file, or --force "
			       "to replace it",
			       path);
	return 0;
}

/* "cannot write 'path': strerror(-e)", returning e. */
static int fail(const char *path, int e, struct strbuf *err)
{
	return err_set(err, e, "cannot write '%s': %s", path, strerror(-e));
}

/* A name that cannot be a file: empty, or ending with a slash. */
static int bad_name(const char *path, const char *base, struct strbuf *err)
{
	if (!*path)
		return err_set(err, -EINVAL,
			       "cannot write '': an empty file name");
	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return err_set(err, -EINVAL,
			       "cannot write '%s': a directory, not a regular "
			       "file",
			       path);
	return 0;
}

int outfile_check(const char *path, unsigned flags, struct strbuf *err)
{
	char *dir, *base;
	struct stat st;
	int ret;

	split_path(path, &dir, &base);
	ret = bad_name(path, base, err);
	if (ret)
		goto out;
	if (!lstat(path, &st)) {
		ret = judge(path, &st, flags, err);
		if (!ret && access(path, W_OK))
			ret = fail(path, -errno, err);
		goto out;
	}
	if (errno != ENOENT) {
		ret = fail(path, -errno, err);
		goto out;
	}
	if (stat(dir, &st))
		ret = fail(path, -errno, err);
	else if (!S_ISDIR(st.st_mode))
		ret = fail(path, -ENOTDIR, err);
	else if (access(dir, W_OK | X_OK))
		ret = fail(path, -errno, err);
out:
	free(dir);
	free(base);
	return ret;
}

/* Open o->base in place: create it, or truncate the regular file that
 * st (when had) says is there. 0 or -errno with err set. */
static int open_in_place(struct outfile *o, int had, const struct stat *st,
			 struct strbuf *err)
{
	struct stat now;

	if (!had) {
		o->fd = openat(o->dir_fd, o->base,
			       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				   O_NONBLOCK | O_CLOEXEC,
			       0644);
		return o->fd < 0 ? -errno : 0; /* EEXIST: look again */
	}
	o->fd =
	    openat(o->dir_fd, o->base,
		   O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return fail(o->path, -errno, err);
	if (fstat(o->fd, &now) || !S_ISREG(now.st_mode) ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev)
		return err_set(err, -EAGAIN,
			       "cannot write '%s': it changed while being "
			       "opened",
			       o->path);
	if (ftruncate(o->fd, 0))
		return fail(o->path, -errno, err);
	return 0;
}

/* Create o's temporary beside the name, with the mode of the file it
 * replaces (st, when had). 0 or -errno (err not set). */
static int open_tmp(struct outfile *o, int had, const struct stat *st)
{
	static unsigned counter;
	struct strbuf t = STRBUF_INIT;
	int e;

	strbuf_addf(&t, ".%.*s.iotrial-%ld-%u.tmp", TMP_BASE_MAX, o->base,
		    (long)getpid(), counter++);
	o->fd =
	    openat(o->dir_fd, t.buf,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (o->fd < 0) {
		e = -errno;
		strbuf_release(&t);
		return e;
	}
	/* the mode of the file it replaces (the default if that fails:
	 * not worth failing the output for) */
	if (had && fchmod(o->fd, st->st_mode & 07777) < 0)
		errno = 0;
	o->tmp = strbuf_detach(&t, NULL);
	return 0;
}

int outfile_open(struct outfile *o, const char *path, unsigned flags,
		 struct strbuf *err)
{
	char *dir = NULL;
	struct stat st;
	int ret, had, tries = 0;

	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = -1;
	o->flags = flags;
	o->path = xstrdup(path);
	split_path(path, &dir, &o->base);
	ret = bad_name(path, o->base, err);
	if (ret)
		goto out;
	o->dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dir_fd < 0) {
		ret = fail(path, -errno, err);
		goto out;
	}
again:
	had = !fstatat(o->dir_fd, o->base, &st, AT_SYMLINK_NOFOLLOW);
	if (!had && errno != ENOENT) {
		ret = fail(path, -errno, err);
		goto out;
	}
	if (had && (ret = judge(path, &st, flags, err)))
		goto out;
	if (!(flags & OUTFILE_IN_PLACE)) {
		ret = open_tmp(o, had, &st);
		/* a file one may write in a directory one may not: in place */
		if ((ret == -EACCES || ret == -EPERM) && had)
			ret = open_in_place(o, had, &st, err);
		else if (ret)
			ret = fail(path, ret, err);
	} else {
		ret = open_in_place(o, had, &st, err);
		if (ret == -EEXIST && !had && ++tries < 3)
			goto again; /* made meanwhile: look at it */
		if (ret == -EEXIST || (ret && !had))
			ret = fail(path, ret, err);
	}
	if (!ret && o->fd >= 0)
		fcntl(o->fd, F_SETFL, fcntl(o->fd, F_GETFL) & ~O_NONBLOCK);
out:
	free(dir);
	if (ret)
		outfile_release(o);
	return ret;
}

/* Put o's temporary at its name. 0 or -errno with err set. */
static int rename_tmp(struct outfile *o, struct strbuf *err)
{
	struct stat st;
	int ret;

	/* a name that became a link, a device or a directory meanwhile
	 * is refused as it would have been at the open */
	if (!fstatat(o->dir_fd, o->base, &st, AT_SYMLINK_NOFOLLOW)) {
		ret = judge(o->path, &st, o->flags, err);
		if (ret)
			return ret;
	}
	if (o->flags & OUTFILE_REPLACE)
		ret = renameat(o->dir_fd, o->tmp, o->dir_fd, o->base);
	else
		ret = renameat2(o->dir_fd, o->tmp, o->dir_fd, o->base,
				RENAME_NOREPLACE);
	/* EINVAL: no RENAME_NOREPLACE on this file system; a hard link
	 * refuses a name that is taken as well */
	if (ret && errno == EINVAL && !(o->flags & OUTFILE_REPLACE))
		ret = linkat(o->dir_fd, o->tmp, o->dir_fd, o->base, 0);
	if (!ret)
		return 0;
	if (errno == EEXIST)
		return err_set(err, -EEXIST,
			       "'%s' exists; give another file, or --force "
			       "to replace it",
			       o->path);
	return fail(o->path, -errno, err);
}

int outfile_commit(struct outfile *o, struct strbuf *err)
{
	int ret = 0;

	if (o->fd < 0)
		return err_set(err, -EBADF, "cannot write '%s': not open",
			       o->path ? o->path : "");
	/* a replaced file's bytes reach the disk before its name moves */
	if (o->tmp && (o->flags & OUTFILE_REPLACE) && fsync(o->fd))
		ret = fail(o->path, -errno, err);
	if (close(o->fd) && !ret)
		ret = fail(o->path, -errno, err);
	o->fd = -1;
	if (!ret && o->tmp)
		ret = rename_tmp(o, err);
	outfile_release(o); /* the temporary, if the rename failed */
	return ret;
}

void outfile_release(struct outfile *o)
{
	if (!o)
		return;
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp && o->dir_fd >= 0)
		unlinkat(o->dir_fd, o->tmp, 0); /* gone after a rename */
	if (o->dir_fd >= 0)
		close(o->dir_fd);
	free(o->path);
	free(o->base);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	o->fd = o->dir_fd = -1;
}

int outfile_write(const char *path, const void *data, size_t len,
		  unsigned flags, struct strbuf *err)
{
	struct outfile o;
	int ret;

	ret = outfile_open(&o, path, flags, err);
	if (ret)
		return ret;
	ret = fd_write_all(o.fd, data, len);
	if (ret) {
		ret = fail(path, ret, err);
		outfile_release(&o);
		return ret;
	}
	return outfile_commit(&o, err);
}
