/*
 * Tests for the store's document side (store_save_doc(), store_load_doc()):
 * the experiment row holds the document encoded plain, each run's row its
 * "run" with '/' escaped; id, created and origin are set on the document,
 * each new one printed after the members it had, and put back as they
 * were when the save fails; a loaded document's origin is the column's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include "core/model/model_json.h"
#include "core/report/log_text.h"
#include "core/store/store.h"
#include "util/strbuf.h"
#include "util/xalloc.h"
#include "util/banned.h"

/* A scratch directory per test and the store path inside it. */
struct fixture {
	char dir[64];
	struct strbuf db;
	struct strbuf err;
	struct store s;
};

static int setup(void **state)
{
	struct fixture *f = xcalloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/test_store_doc.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	strbuf_init(&f->db, 0);
	strbuf_init(&f->err, 0);
	strbuf_addf(&f->db, "%s/results.db", f->dir);
	if (store_open(&f->s, f->db.buf, &f->err))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	struct strbuf cmd = STRBUF_INIT;

	store_close(&f->s);
	strbuf_addf(&cmd, "rm -rf '%s'", f->dir);
	if (system(cmd.buf))
		return -1;
	strbuf_release(&cmd);
	strbuf_release(&f->db);
	strbuf_release(&f->err);
	free(f);
	return 0;
}

/* An experiment of two runs, without id, created or origin, whose run
 * holds a path ('/'). */
static const char exp_text[] =
    "{\"schema\":\"iotrial/1\",\"type\":\"experiment\",\"workload\":"
    "\"randread\",\"target\":\"/srv/a\",\"params\":{},\"seed\":\"none\","
    "\"metric\":{\"name\":\"iops\",\"higher_is_better\":true},"
    "\"baseline\":0,\"arms\":[{\"arm\":0,\"label\":\"a\"}],\"runs\":["
    "{\"arm\":0,\"seq\":0,\"metric\":100.5,\"run\":{\"workload\":"
    "\"randread\",\"target\":{\"spec\":\"/srv/a\"}}},"
    "{\"arm\":0,\"seq\":1,\"metric\":101}],\"blocks\":2,\"stopped\":"
    "\"imported\",\"env\":{\"hostname\":\"h1\"}}";

/* The first column of the first row of sql, a new string (NULL: null). */
static char *sql_text(struct fixture *f, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;

	assert_int_equal(sqlite3_prepare_v2(f->s.db, sql, -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	if (sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

/* Save doc with its own log columns. */
static int save(struct fixture *f, struct experiment_doc *doc, char *id)
{
	struct log_columns cols;
	int ret;

	log_columns_of_doc(doc, &cols);
	ret = store_save_doc(&f->s, doc, &cols, id, &f->err);
	log_columns_release(&cols);
	return ret;
}

/* The rows hold the document's encodings; the new members go last. */
static void test_save_rows(void **state)
{
	struct fixture *f = *state;
	struct strbuf want = STRBUF_INIT;
	struct experiment_doc doc, back;
	char id[STORE_ID_LEN + 1];
	char *row, *tail;

	assert_int_equal(
	    experiment_doc_decode(exp_text, strlen(exp_text), &doc, 0, &f->err),
	    0);
	assert_int_equal(save(f, &doc, id), 0);
	assert_string_equal(doc.id, id);
	assert_non_null(doc.created);
	assert_string_equal(doc.origin, "local");
	experiment_doc_encode(&doc, MODEL_ENCODE_PLAIN, &want);
	row = sql_text(f, "SELECT json FROM experiments");
	assert_string_equal(row, want.buf);
	/* id, created and origin after env, in that order */
	tail = strstr(row, "\"env\":{\"hostname\":\"h1\"},\"id\":\"");
	assert_non_null(tail);
	assert_non_null(strstr(tail, "\",\"created\":\""));
	assert_non_null(strstr(tail, "\",\"origin\":\"local\"}"));
	assert_non_null(strstr(row, "\"target\":\"/srv/a\""));
	free(row);
	row = sql_text(f, "SELECT json FROM runs WHERE seq = 0");
	assert_string_equal(row, "{\"workload\":\"randread\",\"target\":"
				 "{\"spec\":\"\\/srv\\/a\"}}");
	free(row);
	row = sql_text(f, "SELECT json FROM runs WHERE seq = 1");
	assert_null(row);
	/* and it loads back as it was saved */
	assert_int_equal(store_load_doc(&f->s, id, &back, &f->err), 0);
	assert_true(experiment_doc_equal(&doc, &back));
	experiment_doc_release(&back);
	experiment_doc_release(&doc);
	strbuf_release(&want);
}

/* A save that fails puts id, created and origin back as given. */
static void test_save_fails(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc doc;
	char id[STORE_ID_LEN + 1];
	char *n;

	assert_int_equal(sqlite3_exec(f->s.db,
				      "CREATE TRIGGER no_runs BEFORE INSERT "
				      "ON runs BEGIN SELECT RAISE(ABORT, "
				      "'no runs'); END",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(
	    experiment_doc_decode(exp_text, strlen(exp_text), &doc, 0, &f->err),
	    0);
	doc.id = xstrdup("given");
	assert_int_not_equal(save(f, &doc, id), 0);
	assert_string_equal(doc.id, "given");
	assert_null(doc.created);
	assert_null(doc.origin);
	n = sql_text(f, "SELECT count(*) FROM experiments");
	assert_string_equal(n, "0");
	free(n);
	experiment_doc_release(&doc);
}

/*
 * A document whose kept order names only some of its members (a
 * producer's, experiment_doc_order()) still gets created and origin
 * after all of them.
 */
static void test_save_partial_order(void **state)
{
	static const char *const keys[] = {"schema", "type", "workload"};
	struct fixture *f = *state;
	struct experiment_doc doc;
	char id[STORE_ID_LEN + 1];
	char *row;

	assert_int_equal(
	    experiment_doc_decode(exp_text, strlen(exp_text), &doc, 0, &f->err),
	    0);
	experiment_doc_order(&doc, keys, 3);
	assert_int_equal(save(f, &doc, id), 0);
	row = sql_text(f, "SELECT json FROM experiments");
	assert_non_null(strstr(row, "\"env\":{\"hostname\":\"h1\"},\"id\":"));
	assert_non_null(strstr(row, "\",\"origin\":\"local\"}"));
	free(row);
	experiment_doc_release(&doc);
}

/* The column says where a loaded document came from. */
static void test_load_origin(void **state)
{
	struct fixture *f = *state;
	struct experiment_doc doc, back;
	char id[STORE_ID_LEN + 1];

	assert_int_equal(
	    experiment_doc_decode(exp_text, strlen(exp_text), &doc, 0, &f->err),
	    0);
	assert_int_equal(save(f, &doc, id), 0);
	assert_int_equal(sqlite3_exec(f->s.db,
				      "UPDATE experiments SET origin = "
				      "'somewhere'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_load_doc(&f->s, id, &back, &f->err), 0);
	assert_string_equal(back.origin, "imported");
	experiment_doc_release(&back);
	experiment_doc_release(&doc);
	/* a row that is no experiment document is damaged, not a crash */
	assert_int_equal(sqlite3_exec(f->s.db,
				      "UPDATE experiments SET json = "
				      "'{\"schema\":\"iotrial/1\",\"runs\":3}'",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(store_load_doc(&f->s, id, &back, &f->err), -EIO);
	assert_non_null(strstr(f->err.buf, "is damaged"));
	experiment_doc_release(&back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	    T(test_save_rows),
	    T(test_save_fails),
	    T(test_save_partial_order),
	    T(test_load_origin),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
