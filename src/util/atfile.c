/*
 * Files under a root directory (atfile.h): opened component by component
 * with O_NOFOLLOW, replaced through a temporary file and a rename, the
 * old file kept as a hard-linked backup.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "atfile.h"
#include "error.h"
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
	ssize_t n;
	int dfd, fd, ret = 0;

	dfd = open_parent(root, rel, 0, &base, err);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = err_set(err, -errno, "cannot read '%s/%s': %s", root, rel,
			      strerror(errno));
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

/* Write all of data to fd and fsync it. 0 or -errno. */
static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return fsync(fd) ? -errno : 0;
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
			      "'%s/%s' is not a regular file; left alone", root,
			      rel);
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
	ret = write_all(fd, data, len);
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
