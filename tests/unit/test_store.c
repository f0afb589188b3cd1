/*
 * Tests for core/store: a new store is created with its directories, marked
 * as ours and put in WAL mode; experiments round-trip; ids are found by
 * prefix, and unknown ones come back with the nearest; files that are
 * not our store (not SQLite, another program's database, a newer schema)
 * are refused and left byte-for-byte as they were; and many saves leave
 * a database that passes PRAGMA integrity_check.
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
#include <cmocka.h>
#include <sqlite3.h>
#include "core/report/report_doc.h"
#include "core/store/store.h"
#include "store_save_helper.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A scratch directory per test and the store path inside it. */
struct fixture {
	char dir[64];
	struct strbuf db; /* dir/sub/dir/results.db: parents to create */
	struct strbuf err;
};

/* Make the scratch directory. */
static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_store.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	strbuf_init(&f->db, 0);
	strbuf_init(&f->err, 0);
	strbuf_addf(&f->db, "%s/sub/dir/results.db", f->dir);
	*state = f;
	return 0;
}

/* Remove the scratch directory and what the tests put in it. */
static int teardown(void **state)
{
	struct fixture *f = *state;
	struct strbuf cmd = STRBUF_INIT;

	strbuf_addf(&cmd, "rm -rf '%s'", f->dir);
	if (system(cmd.buf))
		return -1;
	strbuf_release(&cmd);
	strbuf_release(&f->db);
	strbuf_release(&f->err);
	free(f);
	return 0;
}

/* A small experiment: nr_arms arms of nr_runs runs each; more members
 * (JSON text, each with its leading comma) after its id. */
static struct experiment_doc *make_exp_with(const char *id,
					    const char *workload, int nr_arms,
					    int nr_runs, const char *more)
{
	struct strbuf t = STRBUF_INIT;
	struct experiment_doc *e;
	int a, r;

	strbuf_addstr(&t, "{\"schema\":\"iotrial/1\",\"type\":\"experiment\"");
	if (id)
		strbuf_addf(&t, ",\"id\":\"%s\"", id);
	strbuf_addf(&t,
		    "%s,\"workload\":\"%s\",\"target\":\"/tmp\",\"metric\":"
		    "{\"name\":\"iops\",\"higher_is_better\":true},\"env\":"
		    "{\"hostname\":\"h1\",\"kernel_release\":\"6.1.0\"},"
		    "\"arms\":[",
		    more ? more : "", workload);
	for (a = 0; a < nr_arms; a++)
		strbuf_addf(&t, "%s{\"arm\":%d,\"label\":\"scheduler=s%d\"}",
			    a ? "," : "", a, a);
	strbuf_addstr(&t, "],\"runs\":[");
	for (a = 0; a < nr_arms; a++)
		for (r = 0; r < nr_runs; r++)
			strbuf_addf(&t,
				    "%s{\"arm\":%d,\"block\":%d,\"seq\":%d,"
				    "\"metric\":%d.0,\"run\":{\"iops\":%d.0}}",
				    a || r ? "," : "", a, r, r * nr_arms + a,
				    100 + r + a, 100 + r);
	strbuf_addstr(&t, "]}");
	e = exp_of_text(t.buf);
	strbuf_release(&t);
	return e;
}

/* The same with no more members. */
static struct experiment_doc *make_exp(const char *id, const char *workload,
				       int nr_arms, int nr_runs)
{
	return make_exp_with(id, workload, nr_arms, nr_runs, NULL);
}

/* Save a new experiment with the given id; assert it got that id. */
static void save_as(struct store *s, struct fixture *f, const char *id)
{
	struct experiment_doc *e = make_exp(id, "randread", 2, 3);
	char got[STORE_ID_LEN + 1];

	assert_int_equal(save_doc(s, e, got, &f->err), 0);
	assert_string_equal(got, id);
	experiment_doc_free(e);
}

/* One integer from a query run directly on the file. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* Run statements directly on the file (to make foreign databases). */
static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* The whole file, to check it was not touched. */
static void slurp(const char *path, struct strbuf *out)
{
	assert_int_equal(strbuf_read_file(out, path, 0), 0);
}

/* A new store: directories made, our id and version, WAL mode. */
static void test_open_creates(void **state)
{
	struct fixture *f = *state;
	struct store s;
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_non_null(s.db);
	assert_string_equal(s.path, f->db.buf);
	store_close(&s);
	store_close(&s); /* twice is fine */
	assert_int_equal(sql_int(f->db.buf, "PRAGMA application_id"),
			 STORE_APPLICATION_ID);
	assert_int_equal(sql_int(f->db.buf, "PRAGMA user_version"),
			 STORE_SCHEMA_VERSION);
	assert_int_equal(sqlite3_open(f->db.buf, &db), SQLITE_OK);
	assert_int_equal(
	    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* and it opens again as ours */
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	store_close(&s);
}

/* The default path follows XDG_DATA_HOME, then HOME. */
static void test_default_path(void **state)
{
	struct fixture *f = *state;
	struct strbuf p = STRBUF_INIT;
	char *old_xdg = getenv("XDG_DATA_HOME"), *old_home = getenv("HOME");

	old_xdg = old_xdg ? xstrdup(old_xdg) : NULL;
	old_home = old_home ? xstrdup(old_home) : NULL;
	setenv("XDG_DATA_HOME", f->dir, 1);
	assert_int_equal(store_default_path(&p, &f->err), 0);
	assert_true(strstr(p.buf, "/iotrial/results.db") != NULL);
	assert_memory_equal(p.buf, f->dir, strlen(f->dir));
	setenv("XDG_DATA_HOME", "relative/dir", 1); /* ignored: not absolute */
	setenv("HOME", "/home/someone", 1);
	assert_int_equal(store_default_path(&p, &f->err), 0);
	assert_string_equal(p.buf,
			    "/home/someone/.local/share/iotrial/results.db");
	if (old_xdg)
		setenv("XDG_DATA_HOME", old_xdg, 1);
	else
		unsetenv("XDG_DATA_HOME");
	if (old_home)
		setenv("HOME", old_home, 1);
	free(old_xdg);
	free(old_home);
	strbuf_release(&p);
}

/* A read-only command does not create a store. */
static void test_no_create(void **state)
{
	struct fixture *f = *state;
	struct store s;

	assert_int_equal(
	    store_open_flags(&s, f->db.buf, STORE_NO_CREATE, &f->err), -ENOENT);
	assert_true(strstr(f->err.buf, "no results store") != NULL);
	assert_int_not_equal(access(f->db.buf, F_OK), 0);
	store_close(&s);
}

/* Save then load: the same object back, with its id; one row per run. */
static void test_round_trip(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc *e = make_exp(NULL, "randread", 2, 5), back;
	struct exp_summary *list;
	char id[STORE_ID_LEN + 1];
	struct store s;
	size_t nr;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	assert_int_equal(strlen(id), STORE_ID_LEN);
	assert_string_equal(e->id, id);
	assert_non_null(e->created);
	assert_int_equal(store_load_doc(&s, id, &back, &f->err), 0);
	assert_true(experiment_doc_equal(e, &back));
	experiment_doc_release(&back);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(list[0].id, id);
	assert_string_equal(list[0].workload, "randread");
	assert_string_equal(list[0].target, "/tmp");
	assert_string_equal(list[0].metric, "iops");
	assert_string_equal(list[0].arms, "scheduler=s0, scheduler=s1");
	assert_string_equal(list[0].host, "h1");
	assert_string_equal(list[0].kernel, "6.1.0");
	assert_string_equal(list[0].verdicts, "2 arms: no verdicts");
	store_summaries_free(list, nr);
	store_close(&s);
	assert_int_equal(sql_int(f->db.buf, "SELECT count(*) FROM runs"), 10);
	assert_int_equal(sql_int(f->db.buf,
				 "SELECT count(*) FROM runs WHERE arm = 1"
				 " AND block = 4 AND metric = 105"),
			 1);
	experiment_doc_free(e);
}

/* A store edited by hand: what is read from it is printable, whoever
 * wrote the line break and the escape into it. */
static void test_load_printable(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc back;
	struct exp_summary *list;
	struct strbuf sql = STRBUF_INIT;
	struct store s;
	size_t nr;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	save_as(&s, f, "abc12345");
	store_close(&s);
	strbuf_addstr(&sql, "UPDATE experiments SET json = replace(json, "
			    "'scheduler=s1', 'x\\n' || char(10) || 'touch y' "
			    "|| char(27) || ']0;t' || char(7)), arms = 'a' || "
			    "char(10) || 'b', host = 'h' || char(27) || '[2J'");
	sql_exec(f->db.buf, sql.buf);
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_load_doc(&s, "abc12345", &back, &f->err), 0);
	assert_int_equal(back.nr_arms, 2);
	/* the JSON escape \n was a real line break too */
	assert_string_equal(back.arms[1].label, "x??touch y?]0;t?");
	experiment_doc_release(&back);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(list[0].arms, "a?b");
	assert_string_equal(list[0].host, "h?[2J");
	store_summaries_free(list, nr);
	store_close(&s);
	strbuf_release(&sql);
}

/* A taken id is replaced by a fresh one; the object says which. */
static void test_id_collision(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc *e = make_exp("abc12345", "randread", 1, 2);
	char id[STORE_ID_LEN + 1];
	struct log_columns cols;
	struct store s;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	save_as(&s, f, "abc12345");
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	assert_string_not_equal(id, "abc12345");
	assert_string_equal(e->id, id);
	experiment_doc_free(e);
	/* not an experiment: refused, nothing saved */
	strbuf_init(&cols.arms, 0);
	strbuf_init(&cols.verdicts, 0);
	assert_int_equal(store_save_doc(&s, NULL, &cols, id, &f->err), -EINVAL);
	log_columns_release(&cols);
	store_close(&s);
	assert_int_equal(sql_int(f->db.buf, "SELECT count(*) FROM experiments"),
			 2);
}

/* Unique prefixes find their experiment; ambiguous ones list them. */
static void test_prefix(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc e;
	struct store s;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	save_as(&s, f, "abc12345");
	save_as(&s, f, "abc99999");
	save_as(&s, f, "def00000");
	assert_int_equal(store_load_doc(&s, "abc1", &e, &f->err), 0);
	assert_string_equal(e.id, "abc12345");
	experiment_doc_release(&e);
	assert_int_equal(store_load_doc(&s, "d", &e, &f->err), 0);
	assert_string_equal(e.id, "def00000");
	experiment_doc_release(&e);
	assert_int_equal(store_load_doc(&s, "def00000", &e, &f->err), 0);
	experiment_doc_release(&e);
	assert_int_equal(store_load_doc(&s, "abc", &e, &f->err), -EINVAL);
	assert_null(e.id);
	experiment_doc_release(&e);
	assert_true(strstr(f->err.buf, "ambiguous") != NULL);
	assert_true(strstr(f->err.buf, "abc12345") != NULL);
	assert_true(strstr(f->err.buf, "abc99999") != NULL);
	assert_int_equal(store_load_doc(&s, "", &e, &f->err), -EINVAL);
	experiment_doc_release(&e);
	store_close(&s);
}

/* An unknown id names the nearest ones, the closest first. */
static void test_unknown_nearest(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc e;
	struct store s;
	char *near, *far;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_load_doc(&s, "abc", &e, &f->err), -ENOENT);
	experiment_doc_release(&e);
	assert_true(strstr(f->err.buf, "empty") != NULL);
	save_as(&s, f, "abc12345");
	save_as(&s, f, "0f0f0f0f");
	assert_int_equal(store_load_doc(&s, "abd12345", &e, &f->err), -ENOENT);
	assert_null(e.id);
	experiment_doc_release(&e);
	assert_true(strstr(f->err.buf, "no experiment 'abd12345'") != NULL);
	near = strstr(f->err.buf, "abc12345");
	far = strstr(f->err.buf, "0f0f0f0f");
	assert_non_null(near);
	assert_true(!far || near < far);
	/* a mistyped short prefix is compared with the ids' prefixes */
	assert_int_equal(store_load_doc(&s, "abd", &e, &f->err), -ENOENT);
	experiment_doc_release(&e);
	near = strstr(f->err.buf, "abc12345");
	far = strstr(f->err.buf, "0f0f0f0f");
	assert_non_null(near);
	assert_true(!far || near < far);
	assert_null(strchr(f->err.buf, '\n'));
	store_close(&s);
}

/* A file that is not SQLite is refused and left exactly as it was. */
static void test_refuse_not_sqlite(void **state)
{
	struct fixture *f = *state;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT,
		      p = STRBUF_INIT;
	struct store s;
	FILE *fp;
	int i;

	strbuf_addf(&p, "%s/notes.txt", f->dir);
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	for (i = 0; i < 300; i++)
		fprintf(fp, "line %d of someone's precious notes\n", i);
	fclose(fp);
	slurp(p.buf, &before);
	assert_int_equal(store_open(&s, p.buf, &f->err), -EINVAL);
	assert_true(strstr(f->err.buf, "not an SQLite database") != NULL);
	assert_true(strstr(f->err.buf, p.buf) != NULL);
	slurp(p.buf, &after);
	assert_int_equal(before.len, after.len);
	assert_memory_equal(before.buf, after.buf, before.len);
	strbuf_addstr(&p, "-wal");
	assert_int_not_equal(access(p.buf, F_OK), 0);
	/* a directory is not a store either */
	assert_int_equal(store_open(&s, f->dir, &f->err), -EINVAL);
	assert_true(strstr(f->err.buf, "is a directory") != NULL);
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&p);
}

/* Another program's database is refused, byte for byte untouched. */
static void test_refuse_foreign(void **state)
{
	struct fixture *f = *state;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT,
		      p = STRBUF_INIT;
	struct store s;

	strbuf_addf(&p, "%s/other.db", f->dir);
	sql_exec(p.buf, "CREATE TABLE users (name TEXT);"
			"INSERT INTO users VALUES ('alice');");
	slurp(p.buf, &before);
	assert_int_equal(store_open(&s, p.buf, &f->err), -EINVAL);
	assert_true(strstr(f->err.buf, "not an iotrial results store") != NULL);
	assert_true(strstr(f->err.buf, "'users'") != NULL);
	slurp(p.buf, &after);
	assert_int_equal(before.len, after.len);
	assert_memory_equal(before.buf, after.buf, before.len);
	/* an empty database with another application_id */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/app.db", f->dir);
	sql_exec(p.buf, "PRAGMA application_id = 42;"
			"CREATE TABLE t (x); DROP TABLE t;");
	slurp(p.buf, &before);
	assert_int_equal(store_open(&s, p.buf, &f->err), -EINVAL);
	assert_true(strstr(f->err.buf, "another program") != NULL);
	slurp(p.buf, &after);
	assert_int_equal(before.len, after.len);
	assert_memory_equal(before.buf, after.buf, before.len);
	assert_int_equal(sql_int(p.buf, "PRAGMA application_id"), 42);
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&p);
}

/* A store from a newer iotrial is refused and not modified. */
static void test_refuse_newer(void **state)
{
	struct fixture *f = *state;
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT;
	struct store s;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	save_as(&s, f, "12345678");
	store_close(&s);
	sql_exec(f->db.buf, "PRAGMA wal_checkpoint(TRUNCATE);"
			    "PRAGMA journal_mode = DELETE;"
			    "PRAGMA user_version = 99;");
	slurp(f->db.buf, &before);
	assert_int_equal(store_open(&s, f->db.buf, &f->err), -EINVAL);
	assert_true(strstr(f->err.buf, "newer iotrial") != NULL);
	assert_true(strstr(f->err.buf, "99") != NULL);
	slurp(f->db.buf, &after);
	assert_int_equal(before.len, after.len);
	assert_memory_equal(before.buf, after.buf, before.len);
	assert_int_equal(sql_int(f->db.buf, "PRAGMA user_version"), 99);
	strbuf_release(&before);
	strbuf_release(&after);
}

/* An empty file (SQLite's empty database) becomes a store. */
static void test_empty_file(void **state)
{
	struct fixture *f = *state;
	struct strbuf p = STRBUF_INIT;
	struct store s;
	FILE *fp;

	strbuf_addf(&p, "%s/empty.db", f->dir);
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(store_open(&s, p.buf, &f->err), 0);
	store_close(&s);
	assert_int_equal(sql_int(p.buf, "PRAGMA application_id"),
			 STORE_APPLICATION_ID);
	strbuf_release(&p);
}

/* Many saves: newest first in the list, and the file stays consistent. */
static void test_many_saves(void **state)
{
	struct fixture *f = *state;
	struct exp_summary *list;
	char id[STORE_ID_LEN + 1], last[STORE_ID_LEN + 1];
	struct store s;
	size_t nr;
	int i;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	for (i = 0; i < 300; i++) {
		/* same second for all: the insertion order breaks ties */
		struct experiment_doc *e =
		    make_exp_with(NULL, "seqwrite", 3, 4,
				  ",\"created\":\"2026-01-01T00:00:00Z\"");

		assert_int_equal(save_doc(&s, e, id, &f->err), 0);
		memcpy(last, id, sizeof(last));
		experiment_doc_free(e);
	}
	assert_int_equal(store_list(&s, 5, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 5);
	assert_string_equal(list[0].id, last);
	store_summaries_free(list, nr);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 300);
	store_summaries_free(list, nr);
	store_close(&s);
	assert_int_equal(sql_int(f->db.buf, "SELECT count(*) FROM runs"),
			 300 * 12);
	assert_int_equal(sql_int(f->db.buf,
				 "SELECT count(*) FROM pragma_integrity_check"
				 " WHERE integrity_check = 'ok'"),
			 1);
}

/*
 * The origin: the column is what a loaded object says, whatever its own
 * member claims; a value that is none of ours reads as imported; a
 * store made before the column opens, gains it, its experiments local.
 */
static void test_origin(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc *e = make_exp("00000001", "randread", 2, 2), back;
	struct exp_summary *list;
	char id[STORE_ID_LEN + 1];
	struct store s;
	size_t nr;

	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_null(e->origin);
	assert_string_equal(report_origin(e), "local");
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	assert_string_equal(e->origin, "local");
	experiment_doc_free(e);
	e = make_exp_with("00000002", "randread", 2, 2,
			  ",\"origin\":\"" EXP_ORIGIN_IMPORTED "\"");
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	experiment_doc_free(e);
	e = make_exp_with("00000003", "randread", 2, 2,
			  ",\"origin\":\"x\\u001b\"");
	assert_string_equal(report_origin(e), "imported");
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	assert_string_equal(e->origin, "imported");
	experiment_doc_free(e);
	store_close(&s);
	assert_int_equal(sql_int(f->db.buf, "SELECT count(*) FROM experiments"
					    " WHERE origin = 'imported'"),
			 2);
	/* someone edits the object: the column still decides */
	sql_exec(f->db.buf, "UPDATE experiments SET json = json_set(json,"
			    " '$.origin', 'local') WHERE id = '00000002'");
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_load_doc(&s, "00000002", &back, &f->err), 0);
	assert_string_equal(report_origin(&back), "imported");
	experiment_doc_release(&back);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(list[2].origin, "local");
	assert_string_equal(list[1].origin, "imported");
	store_summaries_free(list, nr);
	store_close(&s);
	/* a store from before the column */
	sql_exec(f->db.buf, "ALTER TABLE experiments DROP COLUMN origin;"
			    "UPDATE experiments SET json = json_remove(json,"
			    " '$.origin')");
	assert_int_equal(sql_int(f->db.buf, "SELECT count(*) FROM"
					    " pragma_table_info('experiments')"
					    " WHERE name = 'origin'"),
			 0);
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_load_doc(&s, "00000002", &back, &f->err), 0);
	assert_string_equal(report_origin(&back), "local");
	experiment_doc_release(&back);
	e = make_exp_with("00000004", "randread", 2, 2,
			  ",\"origin\":\"" EXP_ORIGIN_FLEET "\"");
	assert_int_equal(save_doc(&s, e, id, &f->err), 0);
	experiment_doc_free(e);
	assert_int_equal(store_load_doc(&s, "00000004", &back, &f->err), 0);
	assert_string_equal(report_origin(&back), "fleet");
	experiment_doc_release(&back);
	store_close(&s);
	assert_int_equal(sql_int(f->db.buf, "PRAGMA user_version"), 1);
}

/*
 * store_save_doc_at() opens the store (making it), saves and closes: the id
 * comes back and the experiment loads; a file that is no store is
 * refused and the id is left empty.
 */
static void test_save_by_path(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc *e = make_exp("0123abcd", "randread", 2, 4), back;
	char id[STORE_ID_LEN + 1] = "x";
	struct strbuf p = STRBUF_INIT;
	struct store s;
	FILE *fp;

	assert_int_equal(store_save_doc_at(f->db.buf, e, id, &f->err), 0);
	assert_string_equal(id, "0123abcd");
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_load_doc(&s, id, &back, &f->err), 0);
	assert_string_equal(back.workload, "randread");
	experiment_doc_release(&back);
	store_close(&s);
	strbuf_addf(&p, "%s/notes.txt", f->dir);
	fp = fopen(p.buf, "w");
	assert_non_null(fp);
	fputs("not a database, and never to become one\n", fp);
	fclose(fp);
	assert_int_equal(store_save_doc_at(p.buf, e, id, &f->err), -EINVAL);
	assert_string_equal(id, "");
	experiment_doc_free(e);
	strbuf_release(&p);
}

/*
 * The store renders no text: the columns `log` lists are the caller's,
 * kept as given; an entry whose verdicts predate suspect ones comes with
 * its object, and log_text.c renders it again when it lists it.
 */
static void test_columns_as_given(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc *e = make_exp("0badc0de", "randread", 2, 2);
	struct log_columns cols;
	struct exp_summary *list;
	struct strbuf out = STRBUF_INIT;
	char id[STORE_ID_LEN + 1];
	struct store s;
	size_t nr;

	strbuf_init(&cols.arms, 0);
	strbuf_init(&cols.verdicts, 0);
	strbuf_addstr(&cols.arms, "the caller's arms");
	strbuf_addstr(&cols.verdicts, "the caller's verdicts");
	assert_int_equal(store_open(&s, f->db.buf, &f->err), 0);
	assert_int_equal(store_save_doc(&s, e, &cols, id, &f->err), 0);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(list[0].arms, "the caller's arms");
	assert_string_equal(list[0].verdicts, "the caller's verdicts");
	assert_null(list[0].json);
	report_log_text(list, nr, &out);
	assert_non_null(strstr(out.buf, "the caller's verdicts"));
	store_summaries_free(list, nr);
	/* as an iotrial before suspect verdicts stored it: rendered again */
	assert_int_equal(sqlite3_exec(s.db,
				      "UPDATE experiments SET json = "
				      "replace(json, '\"runs\":', "
				      "'\"verdicts\":[{\"arm\":1}],"
				      "\"runs\":')",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_list(&s, 0, &list, &nr, &f->err), 0);
	assert_non_null(list[0].json);
	assert_string_equal(list[0].verdicts, "the caller's verdicts");
	strbuf_reset(&out);
	report_log_text(list, nr, &out);
	assert_null(strstr(out.buf, "the caller's verdicts"));
	assert_non_null(strstr(out.buf, "2 arms"));
	store_summaries_free(list, nr);
	store_close(&s);
	log_columns_release(&cols);
	strbuf_release(&out);
	experiment_doc_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	    T(test_open_creates),    T(test_default_path),
	    T(test_no_create),	     T(test_round_trip),
	    T(test_id_collision),    T(test_prefix),
	    T(test_unknown_nearest), T(test_refuse_not_sqlite),
	    T(test_refuse_foreign),  T(test_refuse_newer),
	    T(test_empty_file),	     T(test_many_saves),
	    T(test_origin),	     T(test_load_printable),
	    T(test_save_by_path),    T(test_columns_as_given),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
