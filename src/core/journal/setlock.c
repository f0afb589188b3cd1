/*
 * The machine's settings locks (see setlock.h).
 *
 * A lock file holds, while held or while its holder's journal holds
 * changes of its place, two lines, each field escaped as a journal field:
 *
 *   PID COMMAND                 who holds it (or held it last)
 *   state DEV:INO PATH          whose journal holds changes of the place
 *
 * The content is written pid first, then cut to its length, so a reader
 * never finds it empty while it is held. The state line is compared by
 * the directory's device and inode, so that two spellings of one state
 * directory are one.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include "setlock.h"
#include "journal.h"
#include "state.h"
#include "../../util/crc32c.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* Longest lock file name we make from an object before hashing it. */
#define SETLOCK_MAX_NAME 160
/* The most of a lock file we read. */
#define SETLOCK_MAX_BYTES 8192

static char *machine_root;
static unsigned grace_ms = STATE_LOCK_GRACE_MS;

void setlock_set_root(const char *root)
{
	free(machine_root);
	machine_root = root && *root ? xstrdup(root) : NULL;
}

const char *setlock_root(void)
{
	return machine_root ? machine_root : "";
}

void setlock_set_grace(unsigned ms)
{
	grace_ms = ms;
}

unsigned setlock_grace(void)
{
	return grace_ms;
}

/* The lock file's name for scope/object: "device-loop0.lock". */
static void lock_name(const char *scope, const char *object, struct strbuf *out)
{
	struct strbuf esc = STRBUF_INIT;
	const char *p;

	for (p = object; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')
			strbuf_addch(&esc, c);
		else
			strbuf_addf(&esc, "%%%02X", c);
	}
	if (esc.len > SETLOCK_MAX_NAME) {
		/* a long mount point: its start, and a hash of all of it */
		uint32_t h = crc32c(0, object, strlen(object));

		strbuf_setlen(&esc, SETLOCK_MAX_NAME - 9);
		strbuf_addf(&esc, "-%08" PRIx32, h);
	}
	strbuf_addf(out, "%s-%s.lock", scope, esc.buf);
	strbuf_release(&esc);
}

void setlock_path(const char *scope, const char *object, struct strbuf *out)
{
	strbuf_addf(out, "%s%s/", setlock_root(), SETLOCK_DIR);
	lock_name(scope, object, out);
}

/* The place for people: "'loop0'", "the mount '/mnt'", "the system". */
static void place(const char *scope, const char *object, struct strbuf *out)
{
	if (!strcmp(scope, "system"))
		strbuf_addstr(out, "the system");
	else if (!strcmp(scope, "mount"))
		strbuf_addf(out, "the mount '%s'", object);
	else
		strbuf_addf(out, "'%s'", object);
}

/* Is e an errno that means "not allowed" rather than "broken"? */
static int no_rights(int e)
{
	return e == EACCES || e == EPERM || e == EROFS;
}

/* Open (making it, and ROOT/run in a test's tree) the lock directory,
 * checked. 0 or -errno with err set. */
static int open_dir(int *out_fd, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int fd, ret = 0, e;
	struct stat st;

	*out_fd = -1;
	strbuf_addf(&path, "%s%s", setlock_root(), SETLOCK_DIR);
	if (*setlock_root() && lstat(path.buf, &st) < 0) {
		strbuf_setf(&path, "%s/run", setlock_root());
		(void)mkdir(path.buf, 0755);
		strbuf_setf(&path, "%s%s", setlock_root(), SETLOCK_DIR);
	}
	if (lstat(path.buf, &st) < 0 && mkdir(path.buf, 0755) < 0 &&
	    errno != EEXIST) {
		e = errno;
		ret = err_set(err, no_rights(e) ? -EACCES : -e,
			      "%scannot make the lock directory '%s': %s",
			      no_rights(e) ? "changing settings needs root: "
					   : "",
			      path.buf, strerror(e));
		goto out;
	}
	fd = open(path.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP || (e == ENOTDIR && !lstat(path.buf, &st) &&
				   S_ISLNK(st.st_mode)))
			ret = state_refuse_link(path.buf, "lock directory", 0,
						err);
		else
			ret = err_set(err, no_rights(e) ? -EACCES : -e,
				      "cannot open the lock directory '%s': %s",
				      path.buf, strerror(e));
		goto out;
	}
	ret = state_check(fd, path.buf, "lock directory", 1, err);
	if (ret)
		close(fd);
	else
		*out_fd = fd;
out:
	strbuf_release(&path);
	return ret;
}

/* Field n (0-based) of line (1-based) of the lock file's text,
 * unescaped, into out; 0, or -1 when it has none. */
static int field(const char *text, unsigned line, unsigned n,
		 struct strbuf *out)
{
	const char *p = text, *end;
	char *tok = NULL, *raw, *save = NULL;
	unsigned i;

	for (i = 1; i < line && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p || !*p)
		return -1;
	end = strchr(p, '\n');
	raw = xstrndup(p, end ? (size_t)(end - p) : strlen(p));
	for (i = 0, tok = strtok_r(raw, " ", &save); tok && i < n; i++)
		tok = strtok_r(NULL, " ", &save);
	if (tok) {
		char *v = journal_unescape(tok);

		if (v) {
			strbuf_reset(out);
			strbuf_addstr(out, v);
			free(v);
		} else {
			tok = NULL;
		}
	}
	free(raw);
	return tok ? 0 : -1;
}

/* What the lock file at fd holds, into out (at most SETLOCK_MAX_BYTES). */
static void read_content(int fd, struct strbuf *out)
{
	ssize_t n;

	strbuf_reset(out);
	strbuf_grow(out, SETLOCK_MAX_BYTES + 1);
	n = pread(fd, out->buf, SETLOCK_MAX_BYTES, 0);
	strbuf_setlen(out, n > 0 ? (size_t)n : 0);
	if (memchr(out->buf, '\0', out->len))
		strbuf_reset(out);
}

/* Write text as the lock file's content: text first, then the file cut
 * to its length (never empty while held). Only for messages and the
 * state check: a failure is harmless. */
static void write_content(int fd, const struct strbuf *text)
{
	if (pwrite(fd, text->buf, text->len, 0) == (ssize_t)text->len &&
	    ftruncate(fd, (off_t)text->len))
		return; /* a longer old text stays after ours: harmless */
}

/*
 * Does the journal of the state directory at path hold a live change of
 * scope/object of identity ident? 1 yes (or it cannot be told: why says
 * why), 0 no (or the directory or its journal is gone).
 */
static int other_holds(const char *path, const char *scope, const char *object,
		       const char *ident, struct strbuf *why)
{
	struct strbuf jp = STRBUF_INIT;
	struct journal j;
	size_t i;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : 1;
	strbuf_addf(&jp, "%s/journal", path);
	journal_init(&j, jp.buf);
	journal_set_dir(&j, fd, "journal");
	if (state_check(fd, path, "state directory", 1, why) ||
	    journal_load(&j, why)) {
		ret = 1; /* cannot be read: its changes cannot be ruled out */
		goto out;
	}
	for (i = 0; i < j.nr && !ret; i++) {
		const struct jrec *r = &j.recs[i];

		ret = r->type == JREC_SET && !r->done &&
		      !strcmp(r->f[JF_SCOPE], scope) &&
		      !strcmp(r->f[JF_OBJECT], object) &&
		      (!*ident || !*r->f[JF_IDENT] ||
		       !strcmp(ident, r->f[JF_IDENT]));
	}
out:
	journal_release(&j);
	close(fd);
	strbuf_release(&jp);
	return ret;
}

/* Open the lock file name in the lock directory dir_fd (path for
 * messages), making it, checked; 0 or -errno with err set. */
static int open_lock(int dir_fd, const char *name, const char *path,
		     int *out_fd, struct strbuf *err)
{
	int fd = openat(dir_fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			0644);
	int e = errno, ret;

	*out_fd = -1;
	if (fd < 0 && e == ELOOP)
		return state_refuse_link(path, "lock file", 0, err);
	if (fd < 0)
		return err_set(err, no_rights(e) ? -EACCES : -e,
			       "%scannot open the lock '%s': %s",
			       no_rights(e) ? "changing settings needs root: "
					    : "",
			       path, strerror(e));
	ret = state_check(fd, path, "lock file", 0, err);
	if (ret)
		close(fd);
	else
		*out_fd = fd;
	return ret;
}

/* The refusal for a place whose changes another state directory's
 * journal holds. */
static int refuse_other(const char *scope, const char *object, const char *path,
			const char *why, struct strbuf *err)
{
	struct strbuf pl = STRBUF_INIT, esc = STRBUF_INIT;
	int ret;

	place(scope, object, &pl);
	journal_escape(&esc, path); /* no control byte reaches a terminal */
	ret = err_set(
	    err, -EBUSY,
	    "%s holds changes iotrial made with the state directory '%s' "
	    "and has not restored (kept by 'iotrial set', or left by an "
	    "iotrial that was killed)%s%s; restore them there first "
	    "(IOTRIAL_STATE_DIR='%s' iotrial revert), or use that state "
	    "directory",
	    pl.buf, esc.buf, why && *why ? ": " : "", why ? why : "", esc.buf);
	strbuf_release(&pl);
	strbuf_release(&esc);
	return ret;
}

/* The refusal for a lock another process holds. */
static int refuse_busy(int fd, const char *scope, const char *object,
		       const char *path, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, pid = STRBUF_INIT, cmd = STRBUF_INIT;
	struct strbuf pl = STRBUF_INIT, esc = STRBUF_INIT;
	int ret;

	read_content(fd, &text);
	if (field(text.buf, 1, 0, &pid))
		strbuf_addstr(&pid, "unknown");
	if (!field(text.buf, 1, 1, &cmd)) {
		journal_escape(&esc, cmd.buf);
		strbuf_setf(&cmd, ", '%s'", esc.buf);
	} else {
		strbuf_reset(&cmd);
	}
	strbuf_reset(&esc);
	journal_escape(&esc, pid.buf);
	place(scope, object, &pl);
	ret = err_set(err, -EBUSY,
		      "another iotrial (pid %s%s) is changing settings of %s "
		      "now; wait for it to finish (lock '%s')",
		      esc.buf, cmd.buf, pl.buf, path);
	strbuf_release(&text);
	strbuf_release(&pid);
	strbuf_release(&cmd);
	strbuf_release(&pl);
	strbuf_release(&esc);
	return ret;
}

int setlock_take(const char *scope, const char *object, const char *ident,
		 const struct setlock_who *who, unsigned wait_ms, int *out_fd,
		 struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, name = STRBUF_INIT;
	struct strbuf text = STRBUF_INIT, f = STRBUF_INIT, why = STRBUF_INIT;
	struct stat st, now;
	int dir_fd, fd = -1, ret, e, tries;

	*out_fd = -1;
	setlock_path(scope, object, &path);
	lock_name(scope, object, &name);
	ret = open_dir(&dir_fd, err);
	if (ret)
		goto out;
	/* a holder that releases with nothing left to say removes the
	 * file: whoever waited on it then locked a file that is gone, and
	 * opens the new one */
	for (tries = 0; !ret; tries++) {
		ret = open_lock(dir_fd, name.buf, path.buf, &fd, err);
		if (!ret && state_flock_soon(fd, wait_ms) < 0) {
			e = errno;
			if (e == EWOULDBLOCK)
				ret = refuse_busy(fd, scope, object, path.buf,
						  err);
			else
				ret = err_set(err, -e, "cannot lock '%s': %s",
					      path.buf, strerror(e));
		}
		if (ret ||
		    (!fstatat(dir_fd, name.buf, &now, AT_SYMLINK_NOFOLLOW) &&
		     !fstat(fd, &st) && now.st_ino == st.st_ino &&
		     now.st_dev == st.st_dev))
			break;
		close(fd);
		fd = -1;
		if (tries == 100)
			ret = err_set(err, -EAGAIN,
				      "cannot lock '%s': it is replaced as "
				      "fast as it is taken",
				      path.buf);
	}
	close(dir_fd);
	if (ret)
		goto out;
	/* ours now: does the last holder's journal still hold changes? */
	read_content(fd, &text);
	if (!field(text.buf, 2, 1, &f) && fstat(who->state_fd, &st) == 0) {
		struct strbuf ours = STRBUF_INIT;

		strbuf_addf(&ours, "%llu:%llu", (unsigned long long)st.st_dev,
			    (unsigned long long)st.st_ino);
		if (strcmp(f.buf, ours.buf) && !field(text.buf, 2, 2, &f) &&
		    other_holds(f.buf, scope, object, ident, &why))
			ret = refuse_other(scope, object, f.buf, why.buf, err);
		strbuf_release(&ours);
		if (ret)
			goto out;
	}
	strbuf_reset(&text);
	strbuf_addf(&text, "%ld ", (long)getpid());
	journal_escape(&text, who->cmd ? who->cmd : "iotrial");
	if (fstat(who->state_fd, &st) == 0) {
		strbuf_addf(&text, "\nstate %llu:%llu ",
			    (unsigned long long)st.st_dev,
			    (unsigned long long)st.st_ino);
		journal_escape(&text, who->state_path);
	}
	strbuf_addch(&text, '\n');
	write_content(fd, &text);
	*out_fd = fd;
	fd = -1;
out:
	if (fd >= 0)
		close(fd); /* releases the lock when it was taken */
	strbuf_release(&path);
	strbuf_release(&name);
	strbuf_release(&text);
	strbuf_release(&f);
	strbuf_release(&why);
	return ret;
}

void setlock_release(const char *scope, const char *object, int fd,
		     int still_live)
{
	struct strbuf path = STRBUF_INIT;

	if (fd < 0)
		return;
	/* nothing left to say: the file goes (while still locked, so that
	 * nobody takes it in between; a waiter sees it gone and opens anew) */
	if (!still_live) {
		setlock_path(scope, object, &path);
		(void)unlink(path.buf);
	}
	close(fd);
	strbuf_release(&path);
}
