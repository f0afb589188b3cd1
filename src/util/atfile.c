/*
 * Files under a root directory (atfile.h): opened component by component
 * with O_NOFOLLOW, replaced through a temporary file and a rename, the
 * old file kept as a hard-linked backup.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "atfile.h"
#include "userfile.h"
#include "error.h"
#include "fdio.h"
#include "xalloc.h"
#include "banned.h"

/*
 * Open the directory that holds rel under root, making missing ones when
 * make is set. *out_base points into rel at the last component. Returns
 * a descriptor or -errno with err set.
 */
static int open_parent(const char *root, const char *rel, int make,
		       const char **out_base, struct strbuf *err)
{
	const char *p = rel, *slash;
	int fd, next;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot open directory '%s': %s",
			       root, strerror(errno));
	while ((slash = strchr(p, '/'))) {
		char *comp = xstrndup(p, (size_t)(slash - p));

		if (!*comp || !strcmp(comp, ".") || !strcmp(comp, "..")) {
			free(comp);
			close(fd);
			return err_set(err, -EINVAL, "bad path '%s'", rel);
		}
		next = openat(fd, comp,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && make) {
			if (mkdirat(fd, comp, 0755) && errno != EEXIST)
				next = -1;
			else
				next = openat(fd, comp,
					      O_RDONLY | O_DIRECTORY |
						  O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			int e = errno;

			err_set(err, -e, "cannot open '%s/%.*s': %s", root,
				(int)(slash - rel), rel,
				e == ELOOP || e == ENOTDIR
				    ? "not a directory (or a link)"
				    : strerror(e));
			free(comp);
			close(fd);
			return -e;
		}
		free(comp);
		close(fd);
		fd = next;
		p = slash + 1;
	}
	if (!*p) {
		close(fd);
		return err_set(err, -EINVAL, "bad path '%s'", rel);
	}
	*out_base = p;
	return fd;
}

int atfile_read(const char *root, const char *rel, struct strbuf *out,
		size_t max_bytes, struct strbuf *err)
{
	const char *base;
	char buf[8192];
	struct stat st = {0};
	ssize_t n;
	int dfd, fd, ret = 0;

	dfd = open_parent(root, rel, 0, &base, err);
	if (dfd < 0)
		return dfd;
	/* O_NONBLOCK: a FIFO there is refused, never waited on */
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = err_set(err, -errno, "cannot read '%s/%s': %s", root, rel,
			      strerror(errno));
		goto out;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ret = err_set(err, -EINVAL,
			      "cannot read '%s/%s': %s, not a regular file",
			      root, rel, userfile_kind(st.st_mode));
		close(fd);
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = err_set(err, -errno, "cannot read '%s/%s': %s",
				      root, rel, strerror(errno));
			break;
		}
		if (out->len + (size_t)n > max_bytes) {
			ret = err_set(err, -EFBIG, "'%s/%s' is too large", root,
				      rel);
			break;
		}
		strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
out:
	close(dfd);
	return ret;
}

int atfile_exists(const char *root, const char *rel)
{
	struct strbuf err = STRBUF_INIT;
	struct stat st;
	const char *base;
	int dfd, ret;

	dfd = open_parent(root, rel, 0, &base, &err);
	strbuf_release(&err);
	if (dfd < 0)
		return 0;
	ret = !fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW);
	close(dfd);
	return ret;
}

int atfile_replace(const char *root, const char *rel, const char *data,
		   size_t len, mode_t mode, struct strbuf *backup,
		   struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT, bak = STRBUF_INIT;
	const char *base;
	struct stat st;
	char stamp[32];
	struct tm tm;
	time_t now = time(NULL);
	int dfd, fd = -1, ret = 0, had, i;

	strbuf_reset(backup);
	if (access(root, F_OK))
		return err_set(err, -ENOENT,
			       "root directory '%s' does not exist", root);
	dfd = open_parent(root, rel, 1, &base, err);
	if (dfd < 0)
		return dfd;
	had = !fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW);
	if (had && !S_ISREG(st.st_mode)) {
		ret = err_set(err, -EINVAL,
			      "'%s/%s' is %s, not a regular file; left alone",
			      root, rel, userfile_kind(st.st_mode));
		goto out;
	}
	strbuf_addf(&tmp, ".%s.iotrial-new", base);
	unlinkat(dfd, tmp.buf, 0);
	fd = openat(dfd, tmp.buf,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    had ? st.st_mode & 07777 : mode);
	if (fd < 0) {
		ret = err_set(err, -errno, "cannot create '%s/%s': %s", root,
			      tmp.buf, strerror(errno));
		goto out;
	}
	if (had)
		(void)fchmod(fd, st.st_mode & 07777);
	ret = fd_write_all(fd, data, len);
	if (!ret && fsync(fd))
		ret = -errno;
	if (ret) {
		err_set(err, ret, "cannot write '%s/%s': %s", root, rel,
			strerror(-ret));
		goto drop;
	}
	if (had) {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
		for (i = 0; i < 100; i++) {
			strbuf_reset(&bak);
			strbuf_addf(&bak, "%s.iotrial-%s", base, stamp);
			if (i)
				strbuf_addf(&bak, "-%d", i);
			strbuf_addstr(&bak, ".bak");
			if (!linkat(dfd, base, dfd, bak.buf, 0))
				break;
			if (errno != EEXIST) {
				ret =
				    err_set(err, -errno,
					    "cannot keep a backup of '%s/%s': "
					    "%s",
					    root, rel, strerror(errno));
				goto drop;
			}
		}
		if (i == 100) {
			ret = err_set(err, -EEXIST,
				      "too many backups of '%s/%s' this second",
				      root, rel);
			goto drop;
		}
		strbuf_addf(backup, "%s%s%.*s%s", root,
			    root[strlen(root) - 1] == '/' ? "" : "/",
			    (int)(base - rel), rel, bak.buf);
	}
	if (renameat(dfd, tmp.buf, dfd, base)) {
		ret = err_set(err, -errno, "cannot replace '%s/%s': %s", root,
			      rel, strerror(errno));
		goto drop;
	}
	(void)fsync(dfd);
	goto out;
drop:
	unlinkat(dfd, tmp.buf, 0);
out:
	if (fd >= 0)
		close(fd);
	close(dfd);
	strbuf_release(&tmp);
	strbuf_release(&bak);
	return ret;
}

static int empty_dir(int fd, dev_t dev, int depth, atfile_keep_fn keep,
		     void *arg);

/* Remove name in dfd: unlinked, or a directory on dev emptied, then
 * removed. 0 or -errno. */
static int remove_entry(int dfd, const char *name, dev_t dev, int depth)
{
	struct stat st;
	int sub, ret;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) < 0 ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV; /* a mount inside: not ours to empty */
	if (depth >= ATFILE_TREE_DEPTH)
		return -ELOOP;
	sub =
	    openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return -errno;
	ret = empty_dir(sub, dev, depth + 1, NULL, NULL);
	close(sub);
	if (!ret && unlinkat(dfd, name, AT_REMOVEDIR) < 0)
		ret = -errno;
	return ret;
}

/* Remove the entries of the directory open as fd that keep does not
 * keep; fd stays open. 0 or the first -errno other than -ENOENT. */
static int empty_dir(int fd, dev_t dev, int depth, atfile_keep_fn keep,
		     void *arg)
{
	struct dirent *de;
	struct stat st;
	int dfd, ret = 0, r;
	DIR *d;

	dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		ret = -errno;
		close(dfd);
		return ret;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (keep &&
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			r = -errno;
		else if (keep && keep(de->d_name, &st, arg))
			continue;
		else if (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN)
			r = unlinkat(dfd, de->d_name, 0) < 0 ? -errno : 0;
		else
			r = remove_entry(dfd, de->d_name, dev, depth);
		if (r && r != -ENOENT && !ret)
			ret = r;
	}
	closedir(d);
	return ret;
}

int atfile_empty_dir(int fd, atfile_keep_fn keep, void *arg)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	return empty_dir(fd, st.st_dev, 0, keep, arg);
}

int atfile_remove_tree(int dirfd, const char *name)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return -errno;
	return remove_entry(dirfd, name, st.st_dev, 0);
}

int atfile_path_plain(const char *path)
{
	const char *p = path, *slash;
	size_t n;

	if (*p != '/' || !p[1] || p[strlen(p) - 1] == '/')
		return 0;
	while (*p == '/') {
		p++;
		slash = strchr(p, '/');
		n = slash ? (size_t)(slash - p) : strlen(p);
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		p += n;
	}
	return 1;
}

int atfile_open_nofollow(const char *path)
{
	struct strbuf comp = STRBUF_INIT;
	const char *p = path, *slash;
	int fd, next;

	if (!atfile_path_plain(path) && strcmp(path, "/"))
		return -EINVAL;
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (*p == '/' && p[1]) {
		p++;
		slash = strchr(p, '/');
		strbuf_reset(&comp);
		strbuf_add(&comp, p, slash ? (size_t)(slash - p) : strlen(p));
		p += comp.len;
		next = openat(fd, comp.buf,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			next = -errno;
		close(fd);
		fd = next;
		if (fd < 0)
			break;
	}
	strbuf_release(&comp);
	return fd;
}
