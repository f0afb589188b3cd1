/*
 * Work directories. A directory target may be writable by people other
 * than the one running iotrial (often root), and a path is looked up
 * again at every use: if iotrial created "DIR/iotrial.X/job0.prealloc"
 * by path, whoever can write DIR could rename iotrial.X away and put a
 * symbolic link to any directory in its place, and iotrial would then
 * truncate, fill and finally delete files there.
 *
 * So the work directory is made with mkdirat() under a descriptor of the
 * target directory, opened once without following links, checked to be
 * ours (owner, mode), and from then on every work file is created,
 * opened and removed with *at() calls relative to that descriptor, with
 * O_NOFOLLOW. At the end the directory is emptied through the descriptor
 * (which follows the directory wherever it was moved) and removed from
 * its parent only while the name there is still the directory we made,
 * by device and inode.
 *
 * A run that is killed cannot clean up, so the work directory of a
 * directory target is journaled before it is made (a "work" scratch
 * record with its path and the identity "new"), and again once made
 * (its path and "DEV:INO", the first record retired), and the next
 * iotrial removes it once the run is gone. A kill between mkdirat() and
 * the second record leaves only the first: recovery then removes the
 * directory if it is one iotrial makes (its name's shape, its owner, no
 * access for others, nothing in it iotrial does not make). The lock is taken
 * only for a moment to write the record and again to mark it undone, so runs on
 * directories and `iotrial set` keep running side by side; recovery leaves the
 * record of a run that is still alive alone. Without a writable state directory
 * (not root) nothing is journaled and the run goes on.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include "workdir.h"
#include "made.h"
#include "../journal/session.h"
#include "../../util/atfile.h"
#include "../../util/clock.h"
#include "../../util/error.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

/* The identity of a work directory journaled before it is made. */
#define WORK_IDENT_NEW "new"

/* How long to wait for the journal's lock (an `iotrial set` takes
 * milliseconds; a run with --set holds it throughout, and then the work
 * directory is not journaled). */
#define LOCK_WAIT_NS (1000ull * 1000 * 1000)

/* The letters of a mkdtemp-style name. */
static const char name_chars[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/* "iotrial." and six random letters or digits, into out. */
static void random_name(struct strbuf *out)
{
	unsigned char b[6];
	uint64_t x;
	size_t i;

	if (getrandom(b, sizeof(b), GRND_NONBLOCK) != (ssize_t)sizeof(b)) {
		/* no entropy yet (early boot): the clock is unique enough,
		 * mkdirat refuses a name that exists anyway */
		x = clock_now_ns() ^ ((uint64_t)getpid() << 32);
		for (i = 0; i < sizeof(b); i++, x >>= 8)
			b[i] = (unsigned char)x;
	}
	strbuf_reset(out);
	strbuf_addstr(out, made_work_dir.prefix);
	for (i = 0; i < sizeof(b); i++)
		strbuf_addch(out, name_chars[b[i] % (sizeof(name_chars) - 1)]);
}

int target_work_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > 64 || name[0] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		char c = name[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '.' && c != '_' && c != '-')
			return 0;
	}
	return 1;
}

/*
 * The journal for a moment: a session opened without a log (the command
 * already reported recovery at its start), waiting up to LOCK_WAIT_NS
 * for the lock. NULL when there is no usable state directory or the lock
 * stays busy.
 */
static struct session *brief_session(void)
{
	uint64_t deadline = clock_now_ns() + LOCK_WAIT_NS;
	struct strbuf err = STRBUF_INIT;
	struct session *s = NULL;
	int ret;

	for (;;) {
		strbuf_reset(&err);
		ret =
		    session_open(&s, NULL, SESSION_OPEN_QUIET_BUSY, NULL, &err);
		if (ret != -EBUSY || clock_now_ns() > deadline)
			break;
		usleep(20000);
	}
	strbuf_release(&err);
	return ret ? NULL : s;
}

/*
 * Journal the work directory path is about to be, identity "new", so
 * that a kill before it is journaled as made still has it removed. The
 * session is left open in *s (NULL: no usable journal, not journaled),
 * the record's sequence in *seq.
 */
static void journal_workdir_intent(const char *path, struct session **s,
				   uint64_t *seq)
{
	*seq = 0;
	*s = brief_session();
	if (*s && session_scratch(*s, "work", path, WORK_IDENT_NEW, seq, NULL))
		*seq = 0;
}

/*
 * t's work directory is made: journal it with its identity, then retire
 * the intent seq, and leave the session (s may be NULL).
 */
static void journal_workdir_made(struct target *t, struct session *s,
				 uint64_t seq)
{
	struct strbuf ident = STRBUF_INIT;

	t->work_seq = 0;
	if (!s)
		return; /* not journaled: a kill -9 would leave it */
	strbuf_addf(&ident, "%llu:%llu", (unsigned long long)t->work_dev,
		    (unsigned long long)t->work_ino);
	if (session_scratch(s, "work", t->workdir, ident.buf, &t->work_seq,
			    NULL))
		t->work_seq = 0;
	else if (seq)
		session_done(s, seq, NULL);
	session_leave(s);
	strbuf_release(&ident);
}

/* Mark t's work directory record undone (it is removed). */
static void journal_workdir_gone(struct target *t)
{
	struct session *s;

	if (!t->work_seq)
		return;
	/* when this fails, the next iotrial finds the run gone and the
	 * directory too, and retires the record quietly */
	s = brief_session();
	if (s)
		session_done(s, t->work_seq, NULL);
	session_leave(s);
	t->work_seq = 0;
}

int target_make_workdir(struct target *t, const char *parent,
			struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT, path = STRBUF_INIT;
	struct session *s = NULL;
	uint64_t seq = 0;
	struct stat st;
	int dfd, wfd = -1, tries, ret = 0;

	dfd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return err_set(err, -errno,
			       "cannot create a work directory in '%s': %s",
			       parent, strerror(errno));
	for (tries = 0; tries < 100; tries++) {
		random_name(&name);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", parent, name.buf);
		/* a scratch target's goes with its file system: journaled
		 * there */
		if (t->kind == TARGET_DIR && !tries)
			journal_workdir_intent(path.buf, &s, &seq);
		else if (s && session_scratch(s, "work", path.buf,
					      WORK_IDENT_NEW, &seq, NULL))
			seq = 0;
		if (!mkdirat(dfd, name.buf, 0700))
			break;
		ret = -errno;
		if (s && seq)
			session_done(s, seq, NULL);
		if (ret != -EEXIST)
			break;
	}
	if (tries == 100 || (ret && ret != -EEXIST)) {
		err_set(err, ret, "cannot create a work directory in '%s': %s",
			parent, strerror(-ret));
		goto fail;
	}
	wfd = openat(dfd, name.buf,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (wfd < 0 || fstat(wfd, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		/* someone swapped it between mkdirat and openat: what is
		 * there now is not ours, so it is neither used nor removed */
		ret = err_set(err, -EBUSY,
			      "the work directory '%s/%s' was replaced while "
			      "it was being made; is someone else writing to "
			      "'%s'?",
			      parent, name.buf, parent);
		goto fail;
	}
	t->dir_fd = dfd;
	t->work_fd = wfd;
	t->work_dev = st.st_dev;
	t->work_ino = st.st_ino;
	t->work_name = xstrdup(name.buf);
	t->workdir = strbuf_detach(&path, NULL);
	if (t->kind == TARGET_DIR)
		journal_workdir_made(t, s, seq);
	strbuf_release(&name);
	return 0;
fail:
	if (s) {
		/* the intent stays: the next iotrial finds what is at its
		 * path, and removes it only if it is ours */
		session_leave(s);
	}
	if (wfd >= 0)
		close(wfd);
	close(dfd);
	strbuf_release(&name);
	strbuf_release(&path);
	return ret;
}

int target_open_file(const struct target *t, const char *name, int flags,
		     mode_t mode)
{
	int fd;

	if (!t->workdir || !target_work_name_ok(name))
		return -EINVAL;
	fd = openat(t->work_fd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	return fd < 0 ? -errno : fd;
}

int target_unlink_file(const struct target *t, const char *name)
{
	if (!t->workdir || !target_work_name_ok(name))
		return -EINVAL;
	return unlinkat(t->work_fd, name, 0) < 0 ? -errno : 0;
}

int target_stat_file(const struct target *t, const char *name, struct stat *st)
{
	if (!t->workdir || !target_work_name_ok(name))
		return -EINVAL;
	return fstatat(t->work_fd, name, st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno
								      : 0;
}

/* Is the entry name in dir_fd still the directory we made? */
static int still_ours(int dir_fd, const char *name, dev_t dev, ino_t ino)
{
	struct stat st;

	return !fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode) && st.st_dev == dev && st.st_ino == ino;
}

void workdir_release(struct target *t)
{
	int gone = 1;

	if (!t->workdir)
		return;
	atfile_empty_dir(t->work_fd, NULL, NULL);
	/* if it was moved, what its name points to now is someone else's
	 * (and ours cannot be found by the journal's path either) */
	if (still_ours(t->dir_fd, t->work_name, t->work_dev, t->work_ino))
		gone = !unlinkat(t->dir_fd, t->work_name, AT_REMOVEDIR);
	if (gone)
		journal_workdir_gone(t);
	close(t->work_fd);
	close(t->dir_fd);
	free(t->work_name);
	free(t->workdir);
	t->work_name = NULL;
	t->workdir = NULL;
}

/*
 * For atfile_empty_dir() in recovery: keep (1) what iotrial does not
 * make in a work directory, anything but regular files and directories
 * with work file names, and name the first such entry in arg (a
 * strbuf).
 */
static int keep_foreign(const char *name, const struct stat *st, void *arg)
{
	struct strbuf *foreign = arg;

	if ((S_ISREG(st->st_mode) || S_ISDIR(st->st_mode)) &&
	    target_work_name_ok(name))
		return 0;
	if (!foreign->len)
		strbuf_addstr(foreign, name);
	return 1;
}

/*
 * Recovery of a "work" record left by a run that is gone: path must be a
 * plain absolute path ending in an "iotrial.XXXXXX" name, reached from
 * "/" without a link, still the directory of identity ident ("DEV:INO")
 * and owned by this user. Its work files (regular files and
 * subdirectories with work file names) are removed, then the directory.
 * 0 removed; -ESTALE already gone or replaced; -EPERM not touched (the
 * record names something else, a link is in the way, or the directory
 * holds what iotrial does not make: why names it); other -errno when
 * removing failed.
 */
static int workdir_undo(const char *path, const char *ident, struct strbuf *why)
{
	struct strbuf foreign = STRBUF_INIT;
	unsigned long long dev, ino;
	struct made_dir d;
	int n = 0, ret;

	int made_new = !strcmp(ident, WORK_IDENT_NEW);

	if (!made_new &&
	    (sscanf(ident, "%llu:%llu%n", &dev, &ino, &n) != 2 || ident[n]))
		return err_set(why, -EPERM, "its identity '%s' is malformed",
			       ident);
	ret = made_dir_open(&d, path, &made_work_dir, "it", why);
	if (ret)
		return ret;
	if (made_new ? (d.st.st_mode & 077) != 0
		     : d.st.st_dev != (dev_t)dev || d.st.st_ino != (ino_t)ino) {
		ret = err_set(why, -ESTALE,
			      "it is not the directory iotrial made any more");
	} else if ((ret = atfile_empty_dir(d.fd, keep_foreign, &foreign))) {
		err_set(why, ret, "cannot remove its files: %s",
			strerror(-ret));
	} else if (foreign.len) {
		ret = err_set(why, -EPERM,
			      "it holds '%s', which iotrial does not make; "
			      "remove it by hand",
			      foreign.buf);
	} else if (!still_ours(d.parent_fd, d.name, d.st.st_dev, d.st.st_ino)) {
		ret = err_set(why, -ESTALE, "it was replaced while emptied");
	} else if (unlinkat(d.parent_fd, d.name, AT_REMOVEDIR) < 0) {
		ret = err_set(why, -errno, "%s", strerror(errno));
	}
	made_dir_close(&d);
	strbuf_release(&foreign);
	return ret;
}

int target_undo_said(const struct jrec *r, int ret, const char *done,
		     const struct undo_ctx *ctx, const struct strbuf *why)
{
	if (!ret)
		session_say(ctx->log, SESSION_SAY_NOTE, "%s '%s'", done,
			    r->f[JF_A]);
	else if (ret == -EPERM)
		/* not something iotrial makes: never touched, and retired
		 * so that it is not tried again */
		session_say(ctx->log, SESSION_SAY_WARN,
			    "the journal names scratch %s '%s', which was left "
			    "alone: %s",
			    r->f[JF_WHAT], r->f[JF_A], why->buf);
	else if (ret != -ESTALE)
		session_say(
		    ctx->log, SESSION_SAY_WARN,
		    "cannot remove scratch %s '%s': %s; the journal keeps "
		    "it and the next iotrial retries",
		    r->f[JF_WHAT], r->f[JF_A], why->buf);
	return ret;
}

/* As undo_ops.describe: "scratch work 'PATH'", and its identity in the
 * listing (the words scratch_undo.c uses for its records). */
static void describe_work(const struct journal *j, const struct jrec *r,
			  enum undo_view view, struct strbuf *out)
{
	(void)j;
	strbuf_addf(out, "scratch %s '%s'", r->f[JF_WHAT], r->f[JF_A]);
	if (view == UNDO_LIST && *r->f[JF_B])
		strbuf_addf(out, " ('%s')", r->f[JF_B]);
}

/* As undo_ops.undo for a work directory: workdir_undo(). */
static int undo_work(const struct jrec *r, const struct undo_ctx *ctx,
		     struct strbuf *why)
{
	int ret = workdir_undo(r->f[JF_A], r->f[JF_B], why);

	return target_undo_said(r, ret, "removed the leftover work directory",
				ctx, why);
}

const struct undo_ops workdir_undo_ops = {
    .kind = "work",
    .survives_reboot = 1, /* a directory on disk */
    .undo = undo_work,
    .describe = describe_work,
};
