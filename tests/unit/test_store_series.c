/*
 * Tests for core/store/store_series.c: the series tables, and the
 * migration of stores made before them. A store of each earlier layout
 * (schema 1 as first written, without the origin column; schema 1 with
 * it, as this release writes before any series) is made, then used for
 * a series: the tables appear on the first write, the schema version
 * stays 1, what was there still loads, and a reader of a store without
 * them sees no series and changes nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include "core/store/store.h"
#include "store_save_helper.h"
#include "core/store/store_series.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A scratch directory and the store in it. */
struct fx {
	char dir[64];
	char db[128];
	struct strbuf err;
};

static int setup(void **state)
{
	struct fx *f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_store_series.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->db, sizeof(f->db), "%s/results.db", f->dir);
	strbuf_init(&f->err, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	strbuf_release(&f->err);
	free(f);
	return 0;
}

/* One integer from a query on the file, outside the store's code. */
static long long sql_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -1;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void sql_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* A one-run experiment as `run` stores it, with id id. */
static void save_run(struct store *s, struct fx *f, const char *id)
{
	struct strbuf e = STRBUF_INIT;
	char got[STORE_ID_LEN + 1];

	strbuf_addf(&e,
		    "{\"schema\":\"iotrial/1\",\"type\":\"experiment\","
		    "\"id\":\"%s\",\"workload\":\"seqread\",\"target\":"
		    "\"/srv\",\"arms\":[{\"arm\":0,\"label\":\"run\"}],"
		    "\"runs\":[{\"arm\":0,\"seq\":0,\"metric\":100.0,"
		    "\"run\":{}}]}",
		    id);
	assert_int_equal(save_text(s, e.buf, got, &f->err), 0);
	assert_string_equal(got, id);
	strbuf_release(&e);
}

/* Use a store for a series: define, two groups, read back. */
static void use_series(struct fx *f)
{
	struct series_tags t = {"boot-1", "6.1.0", "#1 SMP", "a", "{}"};
	struct series_row *rows;
	struct experiment_doc e;
	struct store s;
	char *argv = NULL, *plan = NULL, **names;
	size_t nr;
	int grp;

	assert_int_equal(store_open(&s, f->db, &f->err), 0);
	save_run(&s, f, "0000000b");
	assert_int_equal(store_series_define(
			     &s, "k", "[\"seqread\",\"--ios\",\"4\"]", &f->err),
			 0);
	assert_int_equal(store_series_define(&s, "k", "[]", &f->err), -EEXIST);
	assert_int_equal(store_series_next_group(&s, "k", &grp, &f->err), 0);
	assert_int_equal(grp, 1);
	assert_int_equal(
	    store_series_add(&s, "k", 1, 1, "0000000a", &t, &f->err), 0);
	t.boot_id = "boot-2";
	t.tag = "b";
	t.context = NULL;
	assert_int_equal(
	    store_series_add(&s, "k", 2, 1, "0000000b", &t, &f->err), 0);
	/* an iteration must be a stored experiment */
	assert_int_not_equal(
	    store_series_add(&s, "k", 2, 2, "ffffffff", &t, &f->err), 0);
	assert_int_equal(store_series_next_group(&s, "k", &grp, &f->err), 0);
	assert_int_equal(grp, 3);
	assert_int_equal(store_series_rows(&s, "k", &rows, &nr, &f->err), 0);
	assert_int_equal(nr, 2);
	assert_string_equal(rows[0].experiment, "0000000a");
	assert_string_equal(rows[0].boot_id, "boot-1");
	assert_string_equal(rows[0].context, "{}");
	assert_string_equal(rows[1].tag, "b");
	assert_int_equal(rows[1].grp, 2);
	assert_string_equal(rows[1].context, "");
	store_series_rows_free(rows, nr);
	assert_int_equal(store_series_get(&s, "k", &argv, &plan, &f->err), 0);
	assert_string_equal(argv, "[\"seqread\",\"--ios\",\"4\"]");
	assert_null(plan);
	free(argv);
	assert_int_equal(
	    store_series_set_plan(&s, "k", "{\"start\":3}", &f->err), 0);
	assert_int_equal(store_series_get(&s, "k", NULL, &plan, &f->err), 0);
	assert_string_equal(plan, "{\"start\":3}");
	free(plan);
	assert_int_equal(store_series_names(&s, &names, &f->err), 0);
	assert_string_equal(names[0], "k");
	assert_null(names[1]);
	free(names[0]);
	free(names);
	/* what was there before still loads */
	assert_int_equal(store_load_doc(&s, "0000000a", &e, &f->err), 0);
	experiment_doc_release(&e);
	store_close(&s);
	assert_int_equal(sql_int(f->db, "PRAGMA user_version"), 1);
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM experiments"), 2);
}

/* Schema 1 as this release writes it, before any series. */
static void test_from_current(void **state)
{
	struct fx *f = *state;
	struct store s;

	assert_int_equal(store_open(&s, f->db, &f->err), 0);
	save_run(&s, f, "0000000a");
	store_close(&s);
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM sqlite_master"
					" WHERE name LIKE 'series%'"),
			 0);
	use_series(f);
}

/* Schema 1 as first written: no origin column either. */
static void test_from_first(void **state)
{
	struct fx *f = *state;
	struct store s;

	assert_int_equal(store_open(&s, f->db, &f->err), 0);
	save_run(&s, f, "0000000a");
	store_close(&s);
	sql_exec(f->db, "ALTER TABLE experiments DROP COLUMN origin");
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM"
					" pragma_table_info('experiments')"
					" WHERE name = 'origin'"),
			 0);
	use_series(f);
}

/* A reader of a store without series: none, and nothing is made. */
static void test_reader_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct series_row *rows = (void *)1;
	struct store s;
	char **names;
	size_t nr = 7;

	assert_int_equal(store_open(&s, f->db, &f->err), 0);
	store_close(&s);
	assert_int_equal(store_open_flags(&s, f->db, STORE_NO_CREATE, &f->err),
			 0);
	assert_int_equal(store_series_get(&s, "k", NULL, NULL, &f->err),
			 -ENOENT);
	assert_non_null(strstr(f->err.buf, "no series 'k'"));
	assert_int_equal(store_series_rows(&s, "k", &rows, &nr, &f->err), 0);
	assert_int_equal(nr, 0);
	assert_null(rows);
	assert_int_equal(store_series_names(&s, &names, &f->err), 0);
	assert_null(names[0]);
	free(names);
	store_close(&s);
	assert_int_equal(sql_int(f->db, "SELECT count(*) FROM sqlite_master"
					" WHERE name LIKE 'series%'"),
			 0);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_from_current),
	    T(test_from_first),
	    T(test_reader_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
