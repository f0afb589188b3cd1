/*
 * The one check, before recovery removes anything as root, that a path
 * from the journal names something iotrial made (made.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "made.h"
#include "../../util/atfile.h"
#include "../../util/error.h"
#include "../../util/banned.h"

const struct made_name made_work_dir = {"iotrial.", MADE_ALNUM6,
					"a work directory"};
const struct made_name made_scratch_dir = {"iotrial-scratch.", MADE_PID_HEX6,
					   "a scratch target"};
const struct made_name made_cgroup = {"iotrial-cg.", MADE_PID_HEX6, "a cgroup"};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_lower_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

int made_name_ok(const struct made_name *m, const char *name)
{
	size_t plen = strlen(m->prefix), n;
	const char *p = name + plen;

	if (strncmp(name, m->prefix, plen))
		return 0;
	if (m->tail == MADE_PID_HEX6) {
		for (n = 0; is_digit(*p); p++)
			n++;
		if (!n || n > 10 || *p++ != '-')
			return 0;
		for (n = 0; is_lower_hex(*p); p++)
			n++;
	} else {
		for (n = 0; is_alnum(*p); p++)
			n++;
	}
	return n == 6 && !*p;
}

int made_open_refused(int e, const char *path, struct strbuf *why)
{
	if (e == -ENOENT)
		return err_set(why, -ESTALE, "it is already gone");
	if (e == -ELOOP || e == -ENOTDIR)
		return err_set(why, -EPERM,
			       "a symbolic link or a non-directory is on the "
			       "way to '%s'",
			       path);
	return err_set(why, e, "cannot open '%s': %s", path, strerror(-e));
}

/* Open name in d->parent_fd into d->fd: a directory, not a link. */
static int open_last(struct made_dir *d, struct strbuf *why)
{
	struct stat st;

	if (fstatat(d->parent_fd, d->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT
			   ? err_set(why, -ESTALE, "it is already gone")
			   : err_set(why, -errno, "%s", strerror(errno));
	if (S_ISLNK(st.st_mode))
		return err_set(why, -EPERM,
			       "it is a symbolic link, not a directory");
	if (!S_ISDIR(st.st_mode))
		return err_set(why, -EPERM, "it is not a directory");
	d->fd = openat(d->parent_fd, d->name,
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0)
		return errno == ENOENT
			   ? err_set(why, -ESTALE, "it is already gone")
		       : errno == ELOOP || errno == ENOTDIR
			   ? err_set(why, -EPERM,
				     "it was replaced by a symbolic link or "
				     "a non-directory")
			   : err_set(why, -errno, "%s", strerror(errno));
	if (fstat(d->fd, &d->st) < 0)
		return err_set(why, -errno, "%s", strerror(errno));
	return 0;
}

int made_dir_open(struct made_dir *d, const char *path,
		  const struct made_name *m, const char *what,
		  struct strbuf *why)
{
	struct strbuf parent = STRBUF_INIT;
	int ret = 0;

	d->parent_fd = d->fd = -1;
	d->name = NULL;
	if (!atfile_path_plain(path) ||
	    !made_name_ok(m, strrchr(path, '/') + 1))
		return err_set(why, -EPERM,
			       "it is not a path iotrial makes "
			       "for %s",
			       m->what);
	d->name = strrchr(path, '/') + 1;
	strbuf_add(&parent, path, (size_t)(d->name - 1 - path));
	d->parent_fd = atfile_open_nofollow(parent.len ? parent.buf : "/");
	if (d->parent_fd < 0) {
		ret = made_open_refused(d->parent_fd, path, why);
		goto out;
	}
	if ((ret = open_last(d, why)))
		goto out;
	if (d->st.st_uid != geteuid())
		ret = err_set(why, -EPERM,
			      "%s belongs to uid %ld, not to this iotrial's "
			      "user",
			      what, (long)d->st.st_uid);
out:
	if (ret)
		made_dir_close(d);
	strbuf_release(&parent);
	return ret;
}

void made_dir_close(struct made_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->parent_fd >= 0)
		close(d->parent_fd);
	d->fd = d->parent_fd = -1;
}
