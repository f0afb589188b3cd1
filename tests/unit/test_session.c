/*
 * Sessions and the state directory: a new state directory is made
 * durable (its parent fsync'd); the lock file never reads empty while
 * held; a state directory, journal or lock that someone else could have
 * planted is refused; recovery at start takes no lock when nothing is
 * stale and leaves the records of live owners alone; the settings locks
 * are the machine's, whatever the state directory, and name their
 * holder, or the state directory whose journal holds changes of the
 * place. Everything happens in a private directory under /tmp (the
 * machine's root of the settings locks too); no setting of the machine
 * is touched.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include "core/journal/session.h"
#include "core/journal/setlock.h"
#include "core/report/journal_text.h"
#include "util/strbuf.h"

/* Directories fsync'd since the last reset, one path per line. */
static struct strbuf synced_dirs = STRBUF_INIT;
/* Set when the lock file was cut to length 0. */
static int lock_emptied;

/* The path of what fd is open on, into out. */
static void fd_path(int fd, char *out, size_t n)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
}

/* Observes fsync() of directories (linked ahead of the C library's). */
int fsync(int fd)
{
	char path[PATH_MAX];
	struct stat st;

	if (!fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		fd_path(fd, path, sizeof(path));
		strbuf_addf(&synced_dirs, "%s\n", path);
	}
	return (int)syscall(SYS_fsync, fd);
}

/* Observes ftruncate() of the lock file. */
int ftruncate(int fd, off_t len)
{
	char path[PATH_MAX];
	size_t n;

	fd_path(fd, path, sizeof(path));
	n = strlen(path);
	if (len == 0 && n > 5 && !strcmp(path + n - 5, "/lock"))
		lock_emptied = 1;
	return (int)syscall(SYS_ftruncate, fd, len);
}

/* A fresh private directory; IOTRIAL_STATE_DIR points at base/state. */
static char *fresh_base(void)
{
	char tmpl[] = "/tmp/iotrial-test-session.XXXXXX";
	struct strbuf st = STRBUF_INIT;

	assert_non_null(mkdtemp(tmpl));
	strbuf_addf(&st, "%s/state", tmpl);
	setenv("IOTRIAL_STATE_DIR", st.buf, 1);
	setlock_set_root(tmpl);
	strbuf_release(&st);
	return strdup(tmpl);
}

/* rm -rf base (it holds only what these tests made). */
static void remove_base(char *base)
{
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "rm -rf '%s'", base);
	assert_int_equal(system(cmd.buf), 0);
	strbuf_release(&cmd);
	free(base);
}

/* Write text to base/rel. */
static void put(const char *base, const char *rel, const char *text)
{
	struct strbuf p = STRBUF_INIT;
	FILE *f;

	strbuf_addf(&p, "%s/%s", base, rel);
	f = fopen(p.buf, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	strbuf_release(&p);
}

/* Does base/rel exist? */
static int exists(const char *base, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	int ret;

	strbuf_addf(&p, "%s/%s", base, rel);
	ret = lstat(p.buf, &st) == 0;
	strbuf_release(&p);
	return ret;
}

/* A journal line with its checksum (the same CRC-32 as journal.c). */
static void add_line(struct strbuf *out, const char *body)
{
	uint32_t c = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; body[i]; i++) {
		c ^= (unsigned char)body[i];
		for (b = 0; b < 8; b++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
	}
	strbuf_addf(out, "%s c=%08" PRIx32 "\n", body, ~c);
}

/* Our start time in ticks (field 22 of /proc/self/stat). */
static unsigned long long self_start_ticks(void)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long v = 0;
	char *p;

	assert_int_equal(strbuf_read_file(&sb, "/proc/self/stat", 4096), 0);
	p = strrchr(sb.buf, ')');
	assert_non_null(p);
	assert_int_equal(sscanf(p + 2,
				"%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
				"%*u %*u %*d %*d %*d %*d %*d %*d %llu",
				&v),
			 1);
	strbuf_release(&sb);
	return v;
}

/* Collects what a session says, one message per line. */
static void collect(void *data, enum session_say_level level, const char *msg)
{
	(void)level;
	strbuf_addf(data, "%s\n", msg);
}

static void test_new_state_dir_is_durable(void **state)
{
	struct session *s = NULL;
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	char *base = fresh_base();

	(void)state;
	strbuf_reset(&synced_dirs);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), 0);
	/* base/state was made: base, its parent, was fsync'd */
	strbuf_addf(&want, "%s\n", base);
	assert_non_null(strstr(synced_dirs.buf, want.buf));
	session_close(s, NULL);
	remove_base(base);
	strbuf_release(&err);
	strbuf_release(&want);
}

static void test_lock_never_empty(void **state)
{
	struct session *s = NULL, *t = NULL;
	struct strbuf err = STRBUF_INIT, pid = STRBUF_INIT;
	char *base = fresh_base();

	(void)state;
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), 0);
	session_close(s, NULL);
	/* a second holder finds the file with the first one's pid in it */
	lock_emptied = 0;
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), 0);
	assert_false(lock_emptied);
	strbuf_addf(&pid, "%s/state/lock", base);
	assert_int_equal(strbuf_read_file(&err, pid.buf, 64), 0);
	strbuf_setf(&pid, "%ld\n", (long)getpid());
	assert_string_equal(err.buf, pid.buf);
	/* someone else waiting is told who holds it */
	assert_int_equal(session_open(&t, "test", 0, NULL, &err), -EBUSY);
	strbuf_setf(&pid, "(pid %ld)", (long)getpid());
	assert_non_null(strstr(err.buf, pid.buf));
	session_close(s, NULL);
	remove_base(base);
	strbuf_release(&err);
	strbuf_release(&pid);
}

static void test_untrusted_state_refused(void **state)
{
	struct session *s = NULL;
	struct strbuf err = STRBUF_INIT, p = STRBUF_INIT, q = STRBUF_INIT;
	char *base = fresh_base();

	(void)state;
	strbuf_addf(&p, "%s/state", base);
	assert_int_equal(mkdir(p.buf, 0755), 0);
	put(base, "state/journal", "iotrial-journal 1\n");

	/* a state directory others can write */
	assert_int_equal(chmod(p.buf, 0777), 0);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), -EPERM);
	assert_non_null(strstr(err.buf, "writable by others"));
	assert_non_null(strstr(err.buf, "chmod go-w"));
	assert_false(exists(base, "state/lock"));
	assert_int_equal(chmod(p.buf, 0775), 0);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), -EPERM);
	assert_non_null(strstr(err.buf, "writable by its group"));
	assert_int_equal(chmod(p.buf, 0755), 0);

	/* a journal that is a link, a lock that is a link */
	strbuf_addf(&q, "%s/state/journal", base);
	assert_int_equal(unlink(q.buf), 0);
	put(base, "victim", "precious\n");
	strbuf_setf(&p, "%s/victim", base);
	assert_int_equal(symlink(p.buf, q.buf), 0);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), -EPERM);
	assert_non_null(strstr(err.buf, "symbolic link"));
	assert_int_equal(unlink(q.buf), 0);
	strbuf_setf(&q, "%s/state/lock", base);
	assert_int_equal(unlink(q.buf), 0); /* the last open made it */
	assert_int_equal(symlink(p.buf, q.buf), 0);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), -EPERM);
	assert_non_null(strstr(err.buf, "lock file"));
	assert_int_equal(strbuf_read_file(&err, p.buf, 64), 0);
	assert_string_equal(err.buf, "precious\n");
	assert_int_equal(unlink(q.buf), 0);

	/* the state directory itself a link */
	strbuf_setf(&p, "%s/state", base);
	strbuf_setf(&q, "%s/real", base);
	assert_int_equal(rename(p.buf, q.buf), 0);
	assert_int_equal(symlink(q.buf, p.buf), 0);
	assert_int_equal(session_open(&s, "test", 0, NULL, &err), -EPERM);
	assert_non_null(strstr(err.buf, "symbolic link"));
	assert_int_equal(unlink(p.buf), 0);
	assert_int_equal(rename(q.buf, p.buf), 0);

	/* owned by someone else (needs root to arrange) */
	if (!geteuid()) {
		assert_int_equal(chown(p.buf, 65534, 65534), 0);
		assert_int_equal(session_open(&s, "test", 0, NULL, &err),
				 -EPERM);
		assert_non_null(strstr(err.buf, "belongs to uid 65534"));
		assert_non_null(strstr(err.buf, "chown root:"));
		assert_int_equal(chown(p.buf, 0, 0), 0);
		strbuf_setf(&q, "%s/state/journal", base);
		put(base, "state/journal", "iotrial-journal 1\n");
		assert_int_equal(chown(q.buf, 65534, 65534), 0);
		assert_int_equal(session_open(&s, "test", 0, NULL, &err),
				 -EPERM);
		assert_non_null(strstr(err.buf, "the journal"));
	}
	remove_base(base);
	strbuf_release(&err);
	strbuf_release(&p);
	strbuf_release(&q);
}

/* Nothing stale (a change kept by `set` whose process is gone): the
 * start-up check reads the journal and takes no lock. */
static void test_recover_reads_without_lock(void **state)
{
	struct strbuf j = STRBUF_INIT, said = STRBUF_INIT, body = STRBUF_INIT;
	struct session_log log = {collect, &said};
	char *base = fresh_base(), *boot = knob_boot_id();

	(void)state;
	strbuf_addf(&j, "%s/state", base);
	assert_int_equal(mkdir(j.buf, 0755), 0);
	strbuf_reset(&j);
	strbuf_addstr(&j, "iotrial-journal 1\n");
	strbuf_addf(&body, "own 1 999999 1 1700000000 %s set", boot);
	add_line(&j, body.buf);
	add_line(&j, "set 2 1 frobnicate frobnicate system system % 5 6");
	add_line(&j, "keep 3 1");
	put(base, "state/journal", j.buf);
	knob_recover_stale(&log);
	assert_false(exists(base, "state/lock"));
	assert_string_equal(said.buf, "");
	remove_base(base);
	free(boot);
	strbuf_release(&j);
	strbuf_release(&said);
	strbuf_release(&body);
}

/* With the lock taken for a dead owner's records, a live owner's records
 * in the same journal are left alone. */
static void test_recover_leaves_live_owners(void **state)
{
	struct strbuf j = STRBUF_INIT, said = STRBUF_INIT, body = STRBUF_INIT;
	struct session_log log = {collect, &said};
	char *base = fresh_base(), *boot = knob_boot_id();

	(void)state;
	strbuf_addf(&j, "%s/state", base);
	assert_int_equal(mkdir(j.buf, 0755), 0);
	strbuf_reset(&j);
	strbuf_addstr(&j, "iotrial-journal 1\n");
	strbuf_addf(&body, "own 1 999999 1 1700000000 %s run", boot);
	add_line(&j, body.buf);
	/* set lines of the previous format (no written value): still read */
	add_line(&j, "set 2 1 frob.dead frob.dead system system % 5");
	strbuf_setf(&body, "own 3 %ld %llu 1700000000 %s run", (long)getpid(),
		    self_start_ticks(), boot);
	add_line(&j, body.buf);
	add_line(&j, "set 4 3 frob.alive frob.alive system system % 5");
	put(base, "state/journal", j.buf);
	knob_recover_stale(&log);
	/* the dead owner's record was tried (and kept: the knob is
	 * unknown), the live one's not even looked at */
	assert_non_null(strstr(said.buf, "'frob.dead'"));
	assert_null(strstr(said.buf, "frob.alive"));
	assert_true(exists(base, "state/lock"));
	strbuf_setf(&body, "%s/state/journal", base);
	assert_int_equal(strbuf_read_file(&said, body.buf, 0), 0);
	assert_non_null(strstr(said.buf, "set 4 3 frob.alive"));
	remove_base(base);
	free(boot);
	strbuf_release(&j);
	strbuf_release(&said);
	strbuf_release(&body);
}

/* Every kind of record the journal admits has its row, and each row
 * says whether what it names outlives a reboot. */
static void test_every_kind_has_a_row(void **state)
{
	static const struct {
		enum jrec_type type;
		const char *what;
		int survives_reboot;
	} kinds[] = {
	    {JREC_SET, "", 0},	    {JREC_SCR, "dir", 1},
	    {JREC_SCR, "file", 1},  {JREC_SCR, "loop", 0},
	    {JREC_SCR, "mount", 0}, {JREC_SCR, "work", 1},
	};
	const struct undo_ops *ops;
	struct jrec r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		memset(&r, 0, sizeof(r));
		r.type = kinds[i].type;
		r.f[JF_WHAT] = (char *)kinds[i].what;
		ops = undo_kind(&r);
		assert_non_null(ops);
		assert_string_equal(ops->kind, jrec_kind(&r));
		assert_int_equal(ops->survives_reboot,
				 kinds[i].survives_reboot);
		assert_non_null(ops->undo);
		assert_non_null(ops->describe);
	}
	memset(&r, 0, sizeof(r));
	r.type = JREC_OWN;
	assert_null(undo_kind(&r));
}

/*
 * What a kind's undo answers decides the record's fate: undone (a work
 * directory removed), retired (a scratch image already gone, a path
 * iotrial never makes, left alone and warned about), or kept for a
 * retry (a knob this iotrial cannot restore).
 */
static void test_kind_decides_the_record(void **state)
{
	struct strbuf j = STRBUF_INIT, said = STRBUF_INIT, body = STRBUF_INIT;
	struct strbuf wd = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	struct session_log log = {collect, &said};
	char *base = fresh_base(), *boot = knob_boot_id();
	size_t live = 0;
	struct stat st;

	(void)state;
	strbuf_addf(&j, "%s/state", base);
	assert_int_equal(mkdir(j.buf, 0755), 0);
	strbuf_addf(&wd, "%s/iotrial.Ab3dE9", base);
	assert_int_equal(mkdir(wd.buf, 0700), 0);
	put(base, "iotrial.Ab3dE9/job0.data", "x");
	assert_int_equal(stat(wd.buf, &st), 0);
	strbuf_reset(&j);
	strbuf_addstr(&j, "iotrial-journal 1\n");
	strbuf_addf(&body, "own 1 999999 1 1700000000 %s run", boot);
	add_line(&j, body.buf);
	add_line(&j, "set 2 1 frob.dead frob.dead system system % 5 6");
	strbuf_setf(&body, "scr 3 1 work %s %llu:%llu", wd.buf,
		    (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino);
	add_line(&j, body.buf);
	add_line(&j, "scr 4 1 file /tmp/iotrial-scratch.1-abcdef/disk.img %");
	add_line(&j, "scr 5 1 dir /etc %");
	put(base, "state/journal", j.buf);

	/* the listing describes each record through its kind */
	assert_int_equal(report_journal_text(&out, &live, &err), 0);
	assert_int_equal(live, 4);
	strbuf_setf(&body, "  #3 scratch work '%s' ('%llu:%llu')\n", wd.buf,
		    (unsigned long long)st.st_dev,
		    (unsigned long long)st.st_ino);
	assert_non_null(strstr(out.buf, body.buf));
	assert_non_null(strstr(out.buf, "  #5 scratch dir '/etc'\n"));
	assert_non_null(strstr(out.buf, "  #2 'frob.dead': original 5, set "
					"to 6"));

	knob_recover_stale(&log);
	assert_non_null(strstr(said.buf, "the journal names scratch dir "
					 "'/etc', which was left alone"));
	strbuf_setf(&body, "removed the leftover work directory '%s'\n",
		    wd.buf);
	assert_non_null(strstr(said.buf, body.buf));
	assert_null(strstr(said.buf, "disk.img"));
	assert_non_null(strstr(said.buf, "cannot restore 'frob.dead'"));
	assert_false(exists(base, "iotrial.Ab3dE9"));
	/* compacted: only the knob's record is left, for a retry */
	strbuf_setf(&body, "%s/state/journal", base);
	assert_int_equal(strbuf_read_file(&said, body.buf, 0), 0);
	assert_non_null(strstr(said.buf, "set 2 1 frob.dead"));
	assert_null(strstr(said.buf, "scr "));
	remove_base(base);
	free(boot);
	strbuf_release(&j);
	strbuf_release(&said);
	strbuf_release(&body);
	strbuf_release(&wd);
	strbuf_release(&out);
	strbuf_release(&err);
}

/* A set record of device/object, for session_record(). */
static void set_rec(struct jrec *r, const char *object)
{
	memset(r, 0, sizeof(*r));
	r->type = JREC_SET;
	r->f[JF_NAME] = "read_ahead_kb";
	r->f[JF_GROUP] = "read_ahead_kb";
	r->f[JF_SCOPE] = "device";
	r->f[JF_OBJECT] = (char *)object;
	r->f[JF_IDENT] = "7:0 diskseq 7";
	r->f[JF_ORIG] = "128";
	r->f[JF_WROTE] = "4096";
}

/*
 * The lock of a setting's place is one for the machine: a session with
 * another state directory is refused it while it is held, told the
 * holder's pid and command; another place is not held up. Once the
 * holder is gone, its journal still holding a change of the place, the
 * other is refused with that state directory named, until the change
 * is gone from it.
 */
static void test_setting_lock_is_the_machines(void **state)
{
	struct session *s = NULL, *t = NULL;
	struct strbuf err = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;
	char *base = fresh_base();
	struct jrec r;
	uint64_t seq;

	(void)state;
	strbuf_addf(&a, "%s/a", base);
	strbuf_addf(&b, "%s/b", base);
	setenv("IOTRIAL_STATE_DIR", a.buf, 1);
	assert_int_equal(session_open(&s, "compare", 0, NULL, &err), 0);
	assert_int_equal(
	    session_lock_setting(s, "device", "fake0", "", 0, &err), 0);
	setenv("IOTRIAL_STATE_DIR", b.buf, 1);
	assert_int_equal(session_open(&t, "set", 0, NULL, &err), 0);
	assert_int_equal(
	    session_lock_setting(t, "device", "fake0", "", 0, &err), -EBUSY);
	strbuf_addf(&want,
		    "another iotrial (pid %ld, 'compare') is changing "
		    "settings of 'fake0' now",
		    (long)getpid());
	assert_non_null(strstr(err.buf, want.buf));
	strbuf_setf(&want, "%s/run/iotrial/device-fake0.lock", base);
	assert_non_null(strstr(err.buf, want.buf));
	assert_int_equal(
	    session_lock_setting(t, "device", "fake1", "", 0, &err), 0);
	session_close(t, NULL);

	/* the holder leaves a change of fake0 in its journal, and goes */
	set_rec(&r, "fake0");
	assert_int_equal(session_record(s, &r, &seq, &err), 0);
	session_leave(s);
	assert_int_equal(session_open(&t, "set", 0, NULL, &err), 0);
	assert_int_equal(
	    session_lock_setting(t, "device", "fake0", "", 0, &err), -EBUSY);
	strbuf_setf(&want, "with the state directory '%s'", a.buf);
	assert_non_null(strstr(err.buf, want.buf));
	assert_non_null(strstr(err.buf, "iotrial revert"));
	/* a record of another identity (a device since replaced) is not
	 * in the way */
	assert_int_equal(session_lock_setting(t, "device", "fake0",
					      "7:0 diskseq 9", 0, &err),
			 0);
	session_close(t, NULL);

	/* once that journal holds nothing of fake0 */
	strbuf_setf(&want, "%s/journal", a.buf);
	assert_int_equal(unlink(want.buf), 0);
	assert_int_equal(session_open(&t, "set", 0, NULL, &err), 0);
	assert_int_equal(
	    session_lock_setting(t, "device", "fake0", "", 0, &err), 0);
	strbuf_setf(&want, "%s/run/iotrial/device-fake0.lock", base);
	assert_int_equal(strbuf_read_file(&err, want.buf, 0), 0);
	strbuf_setf(&want, "%ld set\nstate ", (long)getpid());
	assert_true(!strncmp(err.buf, want.buf, want.len));
	assert_non_null(strstr(err.buf, b.buf));
	session_close(t, NULL);
	/* released with nothing journaled: the file goes */
	strbuf_setf(&want, "%s/run/iotrial/device-fake0.lock", base);
	assert_int_equal(access(want.buf, F_OK), -1);

	/* a lock directory others could write is not trusted */
	strbuf_setf(&want, "%s/run/iotrial", base);
	assert_int_equal(chmod(want.buf, 0777), 0);
	assert_int_equal(session_open(&t, "set", 0, NULL, &err), 0);
	assert_int_equal(
	    session_lock_setting(t, "device", "fake0", "", 0, &err), -EPERM);
	assert_non_null(strstr(err.buf, "lock directory"));
	session_close(t, NULL);
	remove_base(base);
	strbuf_release(&err);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_state_dir_is_durable),
	    cmocka_unit_test(test_lock_never_empty),
	    cmocka_unit_test(test_untrusted_state_refused),
	    cmocka_unit_test(test_recover_reads_without_lock),
	    cmocka_unit_test(test_recover_leaves_live_owners),
	    cmocka_unit_test(test_every_kind_has_a_row),
	    cmocka_unit_test(test_kind_decides_the_record),
	    cmocka_unit_test(test_setting_lock_is_the_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
