/*
 * The journal: format and parse round trip (escapes, checksums), the
 * strictness that makes a damaged journal "corrupt" instead of silently
 * wrong, set lines of the previous version (no written value), the
 * torn-tail rule, durable append to a real file, compaction keeping
 * exactly what is still live and reporting a failed directory fsync, the
 * records around a write (wrote, restore, retire), and the refusal of a
 * journal file that is not to be trusted.
 */
#include <errno.h>
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
#include "core/journal/journal.h"
#include "util/strbuf.h"

/* While set, fsync() of a directory fails with EIO. */
static int fail_dir_fsync;

/*
 * Failure injection: this definition is linked ahead of the C library's,
 * so the journal code under test calls it.
 */
int fsync(int fd)
{
	struct stat st;

	if (fail_dir_fsync && !fstat(fd, &st) && S_ISDIR(st.st_mode)) {
		errno = EIO;
		return -1;
	}
	return (int)syscall(SYS_fsync, fd);
}

/* Teardown: no fault stays armed for the next test, even after a
 * failed assertion left the test half way. */
static int no_faults(void **state)
{
	(void)state;
	fail_dir_fsync = 0;
	return 0;
}

/* A set record owned by own, for tests. */
static void make_set(struct jrec *r, uint64_t own, const char *name,
		     const char *orig)
{
	memset(r, 0, sizeof(*r));
	r->type = JREC_SET;
	r->ref = own;
	r->f[JF_NAME] = (char *)name;
	r->f[JF_GROUP] = (char *)name;
	r->f[JF_SCOPE] = "device";
	r->f[JF_OBJECT] = "loop9";
	r->f[JF_IDENT] = "7:9 diskseq 3";
	r->f[JF_ORIG] = (char *)orig;
	r->f[JF_WROTE] = "4096";
}

static void make_own(struct jrec *r)
{
	memset(r, 0, sizeof(*r));
	r->type = JREC_OWN;
	r->pid = 1234;
	r->start_ticks = 99;
	r->time_s = 1700000000;
	r->f[JF_BOOT] = "boot-a";
	r->f[JF_CMD] = "run";
}

/* Format records with seqs 1.. into text with the header. */
static void text_of(struct jrec *recs, size_t n, struct strbuf *out)
{
	size_t i;

	strbuf_addstr(out, JOURNAL_HEADER "\n");
	for (i = 0; i < n; i++) {
		recs[i].seq = i + 1;
		journal_format(&recs[i], out);
	}
}

static void test_round_trip(void **state)
{
	struct jrec recs[3];
	struct journal j;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	const char *odd = "a b%c\n\t\xc3\xa9=";

	(void)state;
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", odd);
	make_set(&recs[2], 1, "read_ahead_kb", "");
	text_of(recs, 3, &text);
	/* one line per record, no raw space inside a field */
	assert_non_null(strstr(text.buf, "a%20b%25c%0A%09%C3%A9="));
	journal_init(&j, "/nonexistent");
	assert_int_equal(journal_parse(&j, text.buf, text.len, &err), 0);
	assert_int_equal(j.nr, 3);
	assert_int_equal(j.recs[0].pid, 1234);
	assert_string_equal(j.recs[0].f[JF_BOOT], "boot-a");
	assert_string_equal(j.recs[1].f[JF_ORIG], odd);
	assert_string_equal(j.recs[2].f[JF_ORIG], "");
	assert_int_equal(j.next_seq, 4);
	assert_int_equal(journal_live(&j), 2);
	journal_release(&j);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* Parse text; return the error code and leave the message in err. */
static int parse_text(const char *text, struct strbuf *err)
{
	struct journal j;
	int ret;

	journal_init(&j, "/nonexistent");
	ret = journal_parse(&j, text, strlen(text), err);
	journal_release(&j);
	return ret;
}

static void test_corruption_refused(void **state)
{
	struct jrec recs[2];
	struct strbuf text = STRBUF_INIT, bad = STRBUF_INIT, err = STRBUF_INIT;
	char *p;

	(void)state;
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", "mq-deadline");
	text_of(recs, 2, &text);
	assert_int_equal(parse_text(text.buf, &err), 0);

	/* a changed value: the checksum catches it */
	strbuf_addstr(&bad, text.buf);
	p = strstr(bad.buf, "mq-deadline");
	p[0] = 'x';
	assert_int_equal(parse_text(bad.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "line 3"));
	assert_non_null(strstr(err.buf, "checksum"));

	/* not a journal at all */
	assert_int_equal(parse_text("hello\n", &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "not an iotrial journal"));
	/* a newer format */
	assert_int_equal(parse_text("iotrial-journal 2\n", &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "newer"));
	/* a NUL byte inside a line */
	strbuf_reset(&bad);
	strbuf_addstr(&bad, JOURNAL_HEADER "\nx");
	strbuf_addch(&bad, '\0');
	strbuf_addstr(&bad, "y\n");
	{
		struct journal j;

		journal_init(&j, "/x");
		assert_int_equal(journal_parse(&j, bad.buf, bad.len, &err),
				 -EBADMSG);
		journal_release(&j);
	}
	strbuf_release(&text);
	strbuf_release(&bad);
	strbuf_release(&err);
}

static void test_references_checked(void **state)
{
	struct jrec recs[3];
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	/* a set record whose owner is not an own record */
	make_own(&recs[0]);
	make_set(&recs[1], 7, "scheduler", "none");
	text_of(recs, 2, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "owner 7"));

	/* undo of something that is not a set record */
	strbuf_reset(&text);
	make_own(&recs[0]);
	memset(&recs[1], 0, sizeof(recs[1]));
	recs[1].type = JREC_UNDO;
	recs[1].ref = 1;
	text_of(recs, 2, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);

	/* undone twice */
	strbuf_reset(&text);
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", "none");
	memset(&recs[2], 0, sizeof(recs[2]));
	recs[2].type = JREC_UNDO;
	recs[2].ref = 2;
	text_of(recs, 3, &text);
	assert_int_equal(parse_text(text.buf, &err), 0);
	recs[2].seq = 4;
	journal_format(&recs[2], &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "already undone"));

	/* sequence numbers must increase */
	strbuf_reset(&text);
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", "none");
	text_of(recs, 2, &text);
	recs[1].seq = 1;
	journal_format(&recs[1], &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);

	/* an unknown scope */
	strbuf_reset(&text);
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", "none");
	recs[1].f[JF_SCOPE] = "galaxy";
	text_of(recs, 2, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_torn_tail(void **state)
{
	struct jrec recs[2];
	struct journal j;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;

	(void)state;
	make_own(&recs[0]);
	make_set(&recs[1], 1, "scheduler", "none");
	text_of(recs, 2, &text);
	strbuf_setlen(&text, text.len - 5); /* cut inside the last line */
	journal_init(&j, "/x");
	assert_int_equal(journal_parse(&j, text.buf, text.len, &err), 0);
	assert_int_equal(j.nr, 1);
	assert_int_equal(j.torn_line, 3);
	assert_true(j.torn_bytes > 0);
	journal_release(&j);
	strbuf_release(&text);
	strbuf_release(&err);
}

/* A temporary journal file path; the caller unlinks and frees. */
static char *tmp_path(void)
{
	char tmpl[] = "/tmp/iotrial-test-journal.XXXXXX";
	int fd = mkstemp(tmpl);

	assert_true(fd >= 0);
	close(fd);
	unlink(tmpl);
	return strdup(tmpl);
}

static void test_append_and_compact(void **state)
{
	struct journal j, back;
	struct jrec own, set1, set2, undo, keep;
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	char *path = tmp_path();

	(void)state;
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), 0); /* missing = empty */
	make_own(&own);
	assert_int_equal(journal_append(&j, &own, &err), 0);
	make_set(&set1, 1, "scheduler", "none");
	assert_int_equal(journal_append(&j, &set1, &err), 0);
	make_set(&set2, 1, "nr_requests", "128");
	assert_int_equal(journal_append(&j, &set2, &err), 0);
	memset(&undo, 0, sizeof(undo));
	undo.type = JREC_UNDO;
	undo.ref = 3;
	assert_int_equal(journal_append(&j, &undo, &err), 0);
	memset(&keep, 0, sizeof(keep));
	keep.type = JREC_KEEP;
	keep.ref = 1;
	assert_int_equal(journal_append(&j, &keep, &err), 0);
	assert_int_equal(journal_live(&j), 1);
	assert_true(journal_find(&j, 2)->kept);

	/* what is on disk parses to the same state */
	journal_init(&back, path);
	assert_int_equal(journal_load(&back, &err), 0);
	assert_int_equal(back.nr, 5);
	assert_true(journal_find(&back, 3)->done);
	assert_true(journal_find(&back, 2)->kept);
	journal_release(&back);

	/* compaction keeps the live set record, its owner and the keep */
	assert_int_equal(journal_compact(&j, &err), 0);
	assert_int_equal(j.nr, 3);
	assert_int_equal(strbuf_read_file(&file, path, 0), 0);
	assert_null(strstr(file.buf, "nr_requests"));
	assert_non_null(strstr(file.buf, "scheduler"));
	journal_init(&back, path);
	assert_int_equal(journal_load(&back, &err), 0);
	assert_int_equal(journal_live(&back), 1);
	assert_true(back.recs[1].kept);
	/* new records continue the sequence */
	assert_int_equal(back.next_seq, 6);
	journal_release(&back);

	/* nothing live: the file goes away */
	undo.ref = 2;
	assert_int_equal(journal_append(&j, &undo, &err), 0);
	assert_int_equal(journal_compact(&j, &err), 0);
	assert_int_equal(access(path, F_OK), -1);
	journal_release(&j);
	strbuf_release(&err);
	strbuf_release(&file);
	free(path);
}

/* A record naming target: wrote (with now), restore, retire (why),
 * undo. */
static void make_mark(struct jrec *r, enum jrec_type type, uint64_t target,
		      const char *text)
{
	memset(r, 0, sizeof(*r));
	r->type = type;
	r->ref = target;
	r->f[0] = (char *)text;
}

/*
 * A wrote record confirms a set record's write and keeps what was read
 * back; a restore record marks one being put back; a retire record ends
 * every record of its setting up to its target, no other. Each must name
 * a live set record above it. Compaction keeps a wrote record only
 * while its set record is live and not kept (a keep confirms).
 */
static void test_write_marks(void **state)
{
	struct jrec recs[9];
	struct journal j;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT;
	char *path;

	(void)state;
	make_own(&recs[0]);
	make_set(&recs[1], 1, "read_ahead_kb", "2560");
	make_mark(&recs[2], JREC_WROTE, 2, "4096");
	make_set(&recs[3], 1, "read_ahead_kb", "4096");
	recs[3].f[JF_WROTE] = "128";
	make_set(&recs[4], 1, "nr_requests", "256");
	make_mark(&recs[5], JREC_RESTORE, 4, NULL);
	text_of(recs, 6, &text);
	assert_non_null(strstr(text.buf, "\nwrote 3 2 4096 c="));
	assert_non_null(strstr(text.buf, "\nrestore 6 4 c="));
	journal_init(&j, "/nonexistent");
	assert_int_equal(journal_parse(&j, text.buf, text.len, &err), 0);
	assert_true(journal_find(&j, 2)->confirmed);
	assert_false(journal_find(&j, 4)->confirmed);
	assert_true(journal_find(&j, 4)->restoring);
	assert_string_equal(journal_wrote_of(&j, 2)->f[JF_NOW], "4096");
	assert_null(journal_wrote_of(&j, 4));
	assert_true(
	    journal_same_setting(journal_find(&j, 2), journal_find(&j, 4)));
	assert_false(
	    journal_same_setting(journal_find(&j, 2), journal_find(&j, 5)));
	journal_release(&j);

	/* retire: both read_ahead_kb records, not nr_requests */
	make_mark(&recs[6], JREC_RETIRE, 4, "changed since iotrial wrote it");
	strbuf_reset(&text);
	text_of(recs, 7, &text);
	journal_init(&j, "/nonexistent");
	assert_int_equal(journal_parse(&j, text.buf, text.len, &err), 0);
	assert_true(journal_find(&j, 2)->done);
	assert_true(journal_find(&j, 4)->done);
	assert_false(journal_find(&j, 5)->done);
	assert_int_equal(journal_live(&j), 1);
	journal_release(&j);

	/* each names a live set record, and a write is confirmed once */
	make_mark(&recs[7], JREC_WROTE, 2, "4096");
	strbuf_reset(&text);
	text_of(recs, 8, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "not a live 'set' record"));
	make_mark(&recs[6], JREC_WROTE, 2, "4096");
	strbuf_reset(&text);
	text_of(recs, 7, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "already confirmed"));
	make_mark(&recs[2], JREC_RESTORE, 1, NULL);
	strbuf_reset(&text);
	text_of(recs, 3, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);

	/* compaction: the wrote record of a kept set record goes, that of
	 * a temporary one and a restore stay */
	path = tmp_path();
	journal_init(&j, path);
	make_own(&recs[0]);
	make_set(&recs[1], 1, "read_ahead_kb", "2560");
	make_mark(&recs[2], JREC_WROTE, 2, "4096");
	make_own(&recs[3]);
	make_set(&recs[4], 4, "nr_requests", "256");
	make_mark(&recs[5], JREC_WROTE, 5, "4096");
	make_mark(&recs[6], JREC_RESTORE, 5, NULL);
	make_mark(&recs[7], JREC_KEEP, 1, NULL);
	for (int i = 0; i < 8; i++)
		assert_int_equal(journal_append(&j, &recs[i], &err), 0);
	assert_int_equal(journal_compact(&j, &err), 0);
	journal_release(&j);
	assert_int_equal(strbuf_read_file(&text, path, 0), 0);
	assert_null(strstr(text.buf, "\nwrote 3 "));
	assert_non_null(strstr(text.buf, "\nwrote 6 5 "));
	assert_non_null(strstr(text.buf, "\nrestore 7 5 "));
	assert_non_null(strstr(text.buf, "\nkeep 8 1 "));
	unlink(path);
	free(path);
	strbuf_release(&text);
	strbuf_release(&err);
}

static void test_append_cuts_torn_tail(void **state)
{
	struct journal j;
	struct jrec own, set;
	struct strbuf err = STRBUF_INIT, file = STRBUF_INIT;
	char *path = tmp_path();
	FILE *f;

	(void)state;
	journal_init(&j, path);
	make_own(&own);
	assert_int_equal(journal_append(&j, &own, &err), 0);
	journal_release(&j);
	f = fopen(path, "a");
	fputs("set 2 1 half", f); /* a crash mid-line */
	fclose(f);
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), 0);
	assert_int_equal(j.torn_line, 3);
	make_set(&set, 1, "scheduler", "none");
	assert_int_equal(journal_append(&j, &set, &err), 0);
	journal_release(&j);
	assert_int_equal(strbuf_read_file(&file, path, 0), 0);
	assert_null(strstr(file.buf, "half"));
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), 0);
	assert_int_equal(j.nr, 2);
	assert_int_equal(j.torn_bytes, 0);
	journal_release(&j);
	unlink(path);
	free(path);
	strbuf_release(&err);
	strbuf_release(&file);
}

/* A set line of the previous version (8 fields, no written value) is
 * read as "written value unknown" and written back the same way. */
static void test_set_without_written_value(void **state)
{
	struct jrec recs[2];
	struct journal j, again;
	struct strbuf text = STRBUF_INIT, err = STRBUF_INIT, back = STRBUF_INIT;

	(void)state;
	make_own(&recs[0]);
	make_set(&recs[1], 1, "read_ahead_kb", "512");
	recs[1].wrote_unknown = 1;
	text_of(recs, 2, &text);
	assert_null(strstr(text.buf, "4096")); /* 8 fields only */
	journal_init(&j, "/nonexistent");
	assert_int_equal(journal_parse(&j, text.buf, text.len, &err), 0);
	assert_true(j.recs[1].wrote_unknown);
	assert_string_equal(j.recs[1].f[JF_ORIG], "512");
	assert_string_equal(j.recs[1].f[JF_WROTE], "");
	strbuf_addstr(&back, JOURNAL_HEADER "\n");
	journal_format(&j.recs[1], &back);
	assert_non_null(strstr(back.buf, "set 2 1 read_ahead_kb read_ahead_kb "
					 "device loop9 7:9%20diskseq%203 512 "
					 "c="));
	journal_release(&j);

	/* the current format: 9 fields, the written value kept */
	recs[1].wrote_unknown = 0;
	strbuf_reset(&text);
	text_of(recs, 2, &text);
	journal_init(&again, "/nonexistent");
	assert_int_equal(journal_parse(&again, text.buf, text.len, &err), 0);
	assert_false(again.recs[1].wrote_unknown);
	assert_string_equal(again.recs[1].f[JF_WROTE], "4096");
	journal_release(&again);

	/* a 9-field line with an empty written value means nothing */
	recs[1].f[JF_WROTE] = "";
	strbuf_reset(&text);
	text_of(recs, 2, &text);
	assert_int_equal(parse_text(text.buf, &err), -EBADMSG);
	assert_non_null(strstr(err.buf, "empty written value"));
	strbuf_release(&text);
	strbuf_release(&err);
	strbuf_release(&back);
}

/* Compaction must not claim success when the directory fsync fails. */
static void test_compact_reports_dir_fsync(void **state)
{
	struct journal j;
	struct jrec own, set, undo;
	struct strbuf err = STRBUF_INIT;
	char *path = tmp_path();

	(void)state;
	journal_init(&j, path);
	make_own(&own);
	assert_int_equal(journal_append(&j, &own, &err), 0);
	make_set(&set, 1, "scheduler", "none");
	assert_int_equal(journal_append(&j, &set, &err), 0);
	make_set(&set, 1, "nr_requests", "64");
	assert_int_equal(journal_append(&j, &set, &err), 0);
	memset(&undo, 0, sizeof(undo));
	undo.type = JREC_UNDO;
	undo.ref = 3;
	assert_int_equal(journal_append(&j, &undo, &err), 0);

	fail_dir_fsync = 1;
	assert_int_equal(journal_compact(&j, &err), -EIO);
	assert_non_null(strstr(err.buf, "could not be synced"));
	/* the file was replaced: memory mirrors it */
	assert_int_equal(j.nr, 2);
	undo.ref = 2;
	fail_dir_fsync = 0;
	assert_int_equal(journal_append(&j, &undo, &err), 0);
	fail_dir_fsync = 1;
	assert_int_equal(journal_compact(&j, &err), -EIO);
	assert_non_null(strstr(err.buf, "removed"));
	fail_dir_fsync = 0;
	assert_int_equal(access(path, F_OK), -1);
	journal_release(&j);
	strbuf_release(&err);
	free(path);
}

/* A journal that is a symbolic link, or writable by others, is refused
 * for reading and for appending. */
static void test_untrusted_file_refused(void **state)
{
	struct journal j;
	struct jrec own;
	struct strbuf err = STRBUF_INIT, target = STRBUF_INIT;
	char *path = tmp_path();
	FILE *f;

	(void)state;
	strbuf_addf(&target, "%s.target", path);
	f = fopen(target.buf, "w");
	assert_non_null(f);
	fputs(JOURNAL_HEADER "\n", f);
	fclose(f);
	assert_int_equal(symlink(target.buf, path), 0);
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), -EPERM);
	assert_non_null(strstr(err.buf, "symbolic link"));
	make_own(&own);
	assert_int_equal(journal_append(&j, &own, &err), -EPERM);
	journal_release(&j);
	assert_int_equal(unlink(path), 0);

	/* writable by others */
	assert_int_equal(rename(target.buf, path), 0);
	assert_int_equal(chmod(path, 0666), 0);
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), -EPERM);
	assert_non_null(strstr(err.buf, "writable by others"));
	assert_non_null(strstr(err.buf, "chmod go-w"));
	journal_release(&j);
	assert_int_equal(chmod(path, 0644), 0);
	journal_init(&j, path);
	assert_int_equal(journal_load(&j, &err), 0);
	journal_release(&j);
	unlink(path);
	free(path);
	strbuf_release(&err);
	strbuf_release(&target);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_set_without_written_value),
	    cmocka_unit_test_teardown(test_compact_reports_dir_fsync,
				      no_faults),
	    cmocka_unit_test(test_untrusted_file_refused),
	    cmocka_unit_test(test_corruption_refused),
	    cmocka_unit_test(test_references_checked),
	    cmocka_unit_test(test_torn_tail),
	    cmocka_unit_test(test_write_marks),
	    cmocka_unit_test(test_append_and_compact),
	    cmocka_unit_test(test_append_cuts_torn_tail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
