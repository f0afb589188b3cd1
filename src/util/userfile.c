/*
 * Reading files users name (userfile.h): open without blocking, refuse
 * what is not a regular file, read up to a cap. The beneath variant
 * walks a relative path one component at a time with O_NOFOLLOW from
 * a directory descriptor.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "userfile.h"
#include "error.h"
#include "xalloc.h"
#include "banned.h"

const char *userfile_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return "a regular file";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFSOCK:
		return "a socket";
	case S_IFLNK:
		return "a symbolic link";
	}
	return "not a file";
}

/*
 * Check that fd (named name in messages) is a regular file and read it
 * into out, at most max_bytes. Closes fd. 0 or -errno with err set.
 */
static int read_fd(int fd, const char *name, size_t max_bytes,
		   struct strbuf *out, struct strbuf *err)
{
	struct stat st;
	int ret = 0;

	if (fstat(fd, &st) < 0) {
		ret = err_set(err, -errno, "cannot read '%s': %s", name,
			      strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = err_set(err, -EINVAL,
			      "cannot read '%s': %s, not a regular file", name,
			      userfile_kind(st.st_mode));
		goto out;
	}
	if (max_bytes && (uint64_t)st.st_size > max_bytes) {
		ret = -EFBIG;
		goto too_big;
	}
	for (;;) {
		ssize_t n;

		strbuf_grow(out, 65536);
		n = read(fd, out->buf + out->len, out->alloc - out->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = err_set(err, -errno, "cannot read '%s': %s", name,
				      strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		strbuf_setlen(out, out->len + (size_t)n);
		/* a file that grows while it is read: the cap still holds */
		if (max_bytes && out->len > max_bytes) {
			ret = -EFBIG;
			goto too_big;
		}
	}
	goto out;
too_big:
	if (max_bytes >= (1u << 20))
		err_set(err, ret, "cannot read '%s': larger than %zu MiB", name,
			max_bytes >> 20);
	else
		err_set(err, ret, "cannot read '%s': larger than %zu bytes",
			name, max_bytes);
out:
	close(fd);
	return ret;
}

int userfile_read_fd(int fd, const char *name, size_t max_bytes,
		     struct strbuf *out, struct strbuf *err)
{
	strbuf_reset(out);
	return read_fd(fd, name, max_bytes, out, err);
}

int userfile_read(const char *path, size_t max_bytes, struct strbuf *out,
		  struct strbuf *err)
{
	int fd;

	strbuf_reset(out);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, -errno, "cannot read '%s': %s", path,
			       strerror(errno));
	return read_fd(fd, path, max_bytes, out, err);
}

int userfile_read_beneath(const char *dir, const char *rel, size_t max_bytes,
			  struct strbuf *out, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	const char *p = rel;
	int fd, ret;

	strbuf_reset(out);
	strbuf_addf(&name, "%s/%s", dir, rel);
	if (rel[0] == '/') {
		ret = err_set(err, -EPERM,
			      "cannot read '%s': an absolute path; it must be "
			      "below '%s'",
			      rel, dir);
		goto out;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		ret = err_set(err, -errno, "cannot open directory '%s': %s",
			      dir, strerror(errno));
		goto out;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		char *comp = xstrndup(p, n);
		int next, e;

		if (!strcmp(comp, "..")) {
			free(comp);
			close(fd);
			ret = err_set(err, -EPERM,
				      "cannot read '%s': '..' leaves '%s'",
				      name.buf, dir);
			goto out;
		}
		if (!slash) {
			next = *comp ? openat(fd, comp,
					      O_RDONLY | O_NONBLOCK | O_NOCTTY |
						  O_NOFOLLOW | O_CLOEXEC)
				     : -1;
			e = *comp ? errno : EISDIR;
		} else if (!*comp || !strcmp(comp, ".")) {
			/* "a//b", "./b": stay where we are */
			next = dup(fd);
			e = errno;
		} else {
			next = openat(fd, comp,
				      O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					  O_CLOEXEC);
			e = errno;
		}
		free(comp);
		close(fd);
		if (next < 0) {
			/* with O_DIRECTORY a link is ENOTDIR, not ELOOP */
			ret = err_set(err, -e, "cannot read '%s': %s", name.buf,
				      e == ELOOP || (slash && e == ENOTDIR)
					  ? "a symbolic link or not a "
					    "directory on the way (links are "
					    "not followed)"
					  : strerror(e));
			goto out;
		}
		fd = next;
		if (!slash)
			break;
		p = slash + 1;
	}
	ret = read_fd(fd, name.buf, max_bytes, out, err);
out:
	strbuf_release(&name);
	return ret;
}
