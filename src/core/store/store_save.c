/*
 * Saving an experiment in the results store (store.h): its id, one row
 * for the experiment with the columns `log` lists (its text as
 * log_columns_of_doc() renders it), one row per run, all
 * in one transaction, so that a killed process leaves the store as it
 * was or with the whole experiment. Opening and the schema are store.c's.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <sqlite3.h>
#include "store.h"
#include "store-int.h"
#include "../model/model_json.h"
#include "../report/log_text.h"
#include "../report/report_doc.h"
#include "../../util/error.h"
#include "../../util/rng.h"
#include "../../util/xalloc.h"
#include "../../util/banned.h"

static const char sql_id_taken[] = "SELECT 1 FROM experiments WHERE id = ?1";
static const char sql_insert_exp[] =
    "INSERT INTO experiments (id, created, workload, target, metric,"
    " arms, host, kernel, verdicts, json)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
static const char sql_insert_exp_origin[] =
    "INSERT INTO experiments (id, created, workload, target, metric,"
    " arms, host, kernel, verdicts, json, origin)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
static const char sql_insert_run[] =
    "INSERT INTO runs (experiment, arm, block, seq, metric, json)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/* s, or "" for NULL. */
static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* Is id exactly STORE_ID_LEN lowercase hex digits? */
static bool valid_id(const char *id)
{
	size_t i;

	for (i = 0; i < STORE_ID_LEN; i++)
		if (!((id[i] >= '0' && id[i] <= '9') ||
		      (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return id[STORE_ID_LEN] == '\0';
}

/* Is id already in the store? 1, 0 or -errno. */
static int id_taken(struct store *s, const char *id, struct strbuf *err)
{
	sqlite3_stmt *st;
	int rc, ret;

	ret = store_prepare(s, sql_id_taken, &st, err);
	if (ret)
		return ret;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	ret = rc == SQLITE_ROW	  ? 1
	      : rc == SQLITE_DONE ? 0
				  : store_db_fail(s, rc, "read the store", err);
	sqlite3_finalize(st);
	return ret;
}

/* Pick the id to save under: exp's own when free, else a random one. */
static int choose_id(struct store *s, const struct experiment_doc *exp,
		     char out[STORE_ID_LEN + 1], struct strbuf *err)
{
	const char *want = exp->id ? exp->id : "";
	struct rng r;
	int tries, ret;

	if (valid_id(want)) {
		ret = id_taken(s, want, err);
		if (ret <= 0) {
			if (!ret)
				memcpy(out, want, STORE_ID_LEN + 1);
			return ret;
		}
	}
	rng_seed(&r, rng_seed_from_env());
	for (tries = 0; tries < 100; tries++) {
		uint32_t v;

		if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != sizeof(v))
			v = (uint32_t)rng_next(&r);
		snprintf(out, STORE_ID_LEN + 1, "%08x", v);
		ret = id_taken(s, out, err);
		if (ret <= 0)
			return ret;
	}
	return err_set(err, -EEXIST, "cannot find a free experiment id in '%s'",
		       s->path);
}

/* v as an int column, held in int's range. */
static int int_col(int64_t v)
{
	return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v;
}

/* Insert one row per run of exp under id: each run's "run" plain, '/'
 * escaped (what the rows have always held). */
static int save_runs(struct store *s, const char *id,
		     const struct experiment_doc *exp, struct strbuf *err)
{
	struct strbuf run = STRBUF_INIT;
	sqlite3_stmt *st;
	size_t i;
	int ret, rc;

	ret = store_prepare(s, sql_insert_run, &st, err);
	if (ret)
		return ret;
	for (i = 0; i < exp->nr_runs && !ret; i++) {
		const struct exp_run *r = &exp->runs[i];

		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 2, int_col(r->arm));
		if (r->has_block == MODEL_SET && r->block >= 0)
			sqlite3_bind_int(st, 3, int_col(r->block));
		else
			sqlite3_bind_null(st, 3);
		/* a run without its "seq" counts in the order given */
		sqlite3_bind_int64(st, 4,
				   exp_run_lacks(r, "seq") ? (long long)i
							   : (long long)r->seq);
		sqlite3_bind_double(st, 5, isnan(r->metric) ? 0 : r->metric);
		strbuf_reset(&run);
		if (exp_run_encode_run(
			r, MODEL_ENCODE_PLAIN | MODEL_ENCODE_ESCAPE_SLASH,
			&run))
			sqlite3_bind_text(st, 6, run.buf, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 6);
		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			ret = store_db_fail(s, rc, "save a run", err);
	}
	sqlite3_finalize(st);
	strbuf_release(&run);
	return ret;
}

/* Insert the experiment row; exp's id, created and origin are set
 * already. */
static int save_row(struct store *s, const char *id,
		    const struct experiment_doc *exp,
		    const struct log_columns *cols, struct strbuf *err)
{
	const struct env_doc *env = report_env(exp);
	struct strbuf json = STRBUF_INIT;
	sqlite3_stmt *st;
	int ret, rc;

	ret = store_prepare(
	    s, s->has_origin ? sql_insert_exp_origin : sql_insert_exp, &st,
	    err);
	if (ret)
		return ret;
	experiment_doc_encode(exp, MODEL_ENCODE_PLAIN, &json);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, or_empty(exp->created), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, or_empty(exp->workload), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, or_empty(exp->target), -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5,
			  or_empty(exp->metric ? exp->metric->name : NULL), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 6, cols->arms.buf, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, or_empty(env ? env->hostname : NULL), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 8, or_empty(env ? env->kernel_release : NULL), -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 9, cols->verdicts.buf, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 10, json.buf, -1, SQLITE_STATIC);
	if (s->has_origin)
		sqlite3_bind_text(st, 11, report_origin(exp), -1,
				  SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		ret = store_db_fail(s, rc, "save the experiment", err);
	sqlite3_finalize(st);
	strbuf_release(&json);
	return ret;
}

/* Now in UTC, ISO 8601: "2026-11-29T22:58:00Z". */
static void utc_now(char out[32])
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Set *member to a copy of v, printed after the members exp holds
 * when it had none (as a tree's new member is); *old gets what it
 * held, for the caller's doc to be put back. */
static void set_member(struct experiment_doc *exp, const char *key,
		       char **member, const char *v, char **old)
{
	*old = *member;
	if (!*member)
		experiment_doc_order_last(exp, key);
	*member = xstrdup(v);
}

/* Put back what set_member() replaced. */
static void unset_member(char **member, char *old)
{
	free(*member);
	*member = old;
}

int store_save_doc(struct store *s, struct experiment_doc *exp,
		   const struct log_columns *cols,
		   char out_id[STORE_ID_LEN + 1], struct strbuf *err)
{
	char *old_id = NULL, *old_created = NULL, *old_origin = NULL;
	bool set_created = false;
	char created[32];
	int ret;

	if (!s || !s->db)
		return err_set(err, -EINVAL, "the results store is not open");
	if (!exp)
		return err_set(err, -EINVAL,
			       "not an iotrial experiment object (it needs "
			       "'arms' and 'runs' arrays)");
	ret = store_exec(s, STORE_SQL_BEGIN, "start a transaction", err);
	if (ret)
		return ret;
	ret = choose_id(s, exp, out_id, err);
	if (ret)
		goto fail;
	set_member(exp, "id", &exp->id, out_id, &old_id);
	if (!exp->created || !*exp->created) {
		utc_now(created);
		set_member(exp, "created", &exp->created, created,
			   &old_created);
		set_created = true;
	}
	/* the column and the member agree: "imported" for a value that is
	 * none of ours */
	set_member(exp, "origin", &exp->origin, report_origin(exp),
		   &old_origin);
	ret = save_row(s, out_id, exp, cols, err);
	if (!ret)
		ret = save_runs(s, out_id, exp, err);
	if (!ret)
		ret =
		    store_exec(s, STORE_SQL_COMMIT, "save the experiment", err);
	if (!ret) {
		free(old_id);
		free(old_created);
		free(old_origin);
		return 0;
	}
	/* put exp back the way the caller gave it */
	unset_member(&exp->id, old_id);
	if (set_created)
		unset_member(&exp->created, old_created);
	unset_member(&exp->origin, old_origin);
fail:
	sqlite3_exec(s->db, STORE_SQL_ROLLBACK, NULL, NULL, NULL);
	return ret;
}

int store_save_doc_at(const char *db, struct experiment_doc *exp,
		      char out_id[STORE_ID_LEN + 1], struct strbuf *err)
{
	struct log_columns cols;
	struct store s;
	int ret = store_open(&s, db, err);

	log_columns_of_doc(exp, &cols);
	if (!ret)
		ret = store_save_doc(&s, exp, &cols, out_id, err);
	log_columns_release(&cols);
	store_close(&s);
	if (ret)
		out_id[0] = '\0';
	return ret;
}
