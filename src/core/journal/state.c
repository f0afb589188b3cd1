/*
 * The state directory, its trust check and the lock (see state.h).
 *
 * The lock file holds the pid of its holder, for the message another
 * iotrial prints while it waits its turn. It is written pid first, then
 * cut to length, so a reader never finds it empty while it is held.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "state.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

const char *state_dir(void)
{
	const char *d = getenv("IOTRIAL_STATE_DIR");

	return d && *d ? d : "/var/lib/iotrial";
}

void knob_journal_path(struct strbuf *out)
{
	strbuf_addf(out, "%s/journal", state_dir());
}

/* The name of the user owning what iotrial trusts: "root", or ours. */
static void owner_name(struct strbuf *out)
{
	struct passwd pw, *res = NULL;
	char buf[1024];
	uid_t uid = geteuid();

	if (!uid)
		strbuf_addstr(out, "root");
	else if (!getpwuid_r(uid, &pw, buf, sizeof(buf), &res) && res)
		strbuf_addstr(out, pw.pw_name);
	else
		strbuf_addf(out, "%u", (unsigned)uid);
}

int state_check(int fd, const char *path, const char *what, int want_dir,
		struct strbuf *err)
{
	struct strbuf who = STRBUF_INIT, why = STRBUF_INIT;
	struct stat st;
	int ret = 0;

	if (fstat(fd, &st) < 0)
		return err_set(err, -errno, "cannot stat the %s '%s': %s", what,
			       path, strerror(errno));
	owner_name(&who);
	if (want_dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
		ret =
		    err_set(err, -EPERM,
			    "the %s '%s' is not a %s, so iotrial does not "
			    "trust it; move it aside (mv '%s' '%s.bad')",
			    what, path, want_dir ? "directory" : "regular file",
			    path, path);
		goto out;
	}
	if (st.st_uid && st.st_uid != geteuid())
		strbuf_addf(&why, "belongs to uid %u, not to %s",
			    (unsigned)st.st_uid, who.buf);
	else if (st.st_mode & (S_IWGRP | S_IWOTH))
		strbuf_addf(&why, "is writable by %s (mode %04o)",
			    st.st_mode & S_IWOTH ? "others" : "its group",
			    (unsigned)(st.st_mode & 07777));
	if (why.len)
		ret =
		    err_set(err, -EPERM,
			    "the %s '%s' %s: someone else could put a journal "
			    "there that iotrial would restore as root, so "
			    "nothing in it is restored, changed or deleted; "
			    "make it %s's and writable only by its owner: "
			    "chown %s: '%s'; chmod go-w '%s'",
			    what, path, why.buf, who.buf, who.buf, path, path);
out:
	strbuf_release(&who);
	strbuf_release(&why);
	return ret;
}

int state_refuse_link(const char *path, const char *what, int is_dir,
		      struct strbuf *err)
{
	if (is_dir)
		return err_set(err, -EPERM,
			       "the %s '%s' is a symbolic link, which iotrial "
			       "does not follow there; set IOTRIAL_STATE_DIR "
			       "to the directory it points to, or replace the "
			       "link with a directory owned by root (mode "
			       "0755)",
			       what, path);
	return err_set(err, -EPERM,
		       "the %s '%s' is a symbolic link, which iotrial does not "
		       "follow; look where it points (ls -l '%s'), then remove "
		       "it (rm '%s')",
		       what, path, path, path);
}

int state_sync_parent(const char *path)
{
	char *dir = xstrdup(path), *slash;
	int fd, ret = 0;

	while ((slash = strrchr(dir, '/')) && !slash[1] && slash > dir)
		*slash = '\0'; /* "a/b/" is "a/b" */
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else {
		free(dir);
		dir = xstrdup(".");
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fsync(fd) < 0)
		ret = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return ret;
}

/* mkdir -p with 0755; the parent of each directory made is fsync'd. */
static int mkdir_p(const char *dir)
{
	char *copy = xstrdup(dir), *p;
	int ret = 0;

	for (p = copy + 1;; p++) {
		char c = *p;

		if (c != '/' && c)
			continue;
		*p = '\0';
		if (!mkdir(copy, 0755))
			ret = state_sync_parent(copy);
		else if (errno != EEXIST)
			ret = -errno;
		*p = c;
		if (ret || !c)
			break;
	}
	free(copy);
	return ret;
}

/* Is e an errno that means "not allowed" rather than "broken"? */
static int no_rights(int e)
{
	return e == EACCES || e == EPERM || e == EROFS;
}

int state_open(int create, int *out_fd, struct strbuf *err)
{
	const char *dir = state_dir();
	struct stat st;
	int fd, ret;

	*out_fd = -1;
	if (create && lstat(dir, &st) < 0) {
		ret = mkdir_p(dir);
		if (ret && no_rights(-ret))
			return err_set(err, -EACCES,
				       "changing settings needs root: cannot "
				       "create the state directory '%s': %s",
				       dir, strerror(-ret));
		if (ret)
			return err_set(err, ret,
				       "cannot create the state directory "
				       "'%s': %s",
				       dir, strerror(-ret));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		if (e == ENOENT && !create)
			return -ENOENT;
		/* with O_DIRECTORY, a link is ENOTDIR rather than ELOOP */
		if (e == ELOOP ||
		    (e == ENOTDIR && !lstat(dir, &st) && S_ISLNK(st.st_mode)))
			return state_refuse_link(dir, "state directory", 1,
						 err);
		return err_set(err, no_rights(e) ? -EACCES : -e,
			       "cannot open the state directory '%s': %s", dir,
			       strerror(e));
	}
	ret = state_check(fd, dir, "state directory", 1, err);
	if (ret) {
		close(fd);
		return ret;
	}
	*out_fd = fd;
	return 0;
}

int state_flock_soon(int fd, unsigned grace_ms)
{
	const struct timespec step = {0, 20 * 1000 * 1000};
	unsigned waited = 0;

	for (;;) {
		if (!flock(fd, LOCK_EX | LOCK_NB))
			return 0;
		if (errno != EWOULDBLOCK || waited >= grace_ms)
			return -1;
		nanosleep(&step, NULL);
		waited += 20;
	}
}

int state_lock(int dir_fd, int quiet, int *out_fd, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, pid = STRBUF_INIT;
	const char *nl;
	ssize_t n;
	int fd, e, ret = 0;

	strbuf_addf(&path, "%s/lock", state_dir());
	fd = openat(dir_fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	*out_fd = fd;
	if (fd < 0) {
		e = errno;
		if (e == ELOOP)
			ret = state_refuse_link(path.buf, "lock file", 0, err);
		else if (no_rights(e))
			ret = err_set(err, -EACCES,
				      "changing settings needs root (cannot "
				      "open the lock '%s': %s)",
				      path.buf, strerror(e));
		else
			ret = err_set(err, -e, "cannot open the lock '%s': %s",
				      path.buf, strerror(e));
		goto out;
	}
	ret = state_check(fd, path.buf, "lock file", 0, err);
	if (ret)
		goto out;
	if (state_flock_soon(fd, quiet ? 0 : STATE_LOCK_GRACE_MS) < 0) {
		e = errno;
		if (e != EWOULDBLOCK) {
			ret = err_set(err, -e, "cannot lock '%s': %s", path.buf,
				      strerror(e));
			goto out;
		}
		ret = -EBUSY;
		if (quiet)
			goto out;
		strbuf_grow(&pid, 64);
		n = pread(fd, pid.buf, 63, 0);
		strbuf_setlen(&pid, n > 0 ? (size_t)n : 0);
		nl = memchr(pid.buf, '\n', pid.len);
		if (nl) /* "123\n" and what a longer pid left after it */
			strbuf_setlen(&pid, (size_t)(nl - pid.buf));
		err_set(err, -EBUSY,
			"another iotrial (pid %s) is changing settings now; "
			"wait for it to finish (lock '%s')",
			pid.len ? pid.buf : "unknown", path.buf);
		goto out;
	}
	strbuf_addf(&pid, "%ld\n", (long)getpid());
	if (pwrite(fd, pid.buf, pid.len, 0) != (ssize_t)pid.len ||
	    ftruncate(fd, (off_t)pid.len) < 0)
		strbuf_reset(&pid); /* only for messages: harmless */
out:
	strbuf_release(&path);
	strbuf_release(&pid);
	return ret;
}
